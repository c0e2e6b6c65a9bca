"""Serie Bum! in Discord: the board as an image, a flip panel, and a menu for every choice.

Memory is the game: a flipped tile may be shown only by the table message, which is edited in
place, and only while the engine's public view shows it. Channel lines name cells, never the
value of a tile that may be covered again; ephemeral panels and DMs show no board at all. A tile
is named in text only once it is in a series (or out of the game).

Flipping: 35 cells do not fit in a message's 25 buttons, so the flip panel is a column select
(A-G) above the row buttons of the chosen column. Every other decision is a select whose options
read as moves ("🟥40 → Series 1 (high end)"); a select's custom_id carries the game's version, so
a menu opened before anything changed is refused rather than misread.
"""

from __future__ import annotations

from bot.commands import GameHost, game_group
from bot.games.seriebum.adapter import ADAPTER

__all__ = ["ADAPTER", "setup"]


async def setup(bot: GameHost) -> None:
    bot.register(ADAPTER, game_group(bot, ADAPTER))
