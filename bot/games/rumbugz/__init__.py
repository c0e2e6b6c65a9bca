"""RumBugz in Discord: the table as an image, hands in private, and one ephemeral panel per step.

A turn is played from the table's buttons: the two draw buttons, then Lay, Change or Discard,
each opening a private panel. A panel's custom_ids carry the partial choice (the Bugz picked,
the kind, the numbers named for PLYTs) and the game's version when the panel was drawn, so a
panel from an earlier position is refused. While a bid window is open, the table shows a Bid
button to everyone; the engine refuses whoever may not bid.
"""

from __future__ import annotations

from bot.commands import GameHost, game_group
from bot.games.rumbugz.adapter import ADAPTER

__all__ = ["ADAPTER", "setup"]


async def setup(bot: GameHost) -> None:
    bot.register(ADAPTER, game_group(bot, ADAPTER))
