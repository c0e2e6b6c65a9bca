"""The Bid button: anyone may bid for the discard's top Bug while the window is open."""

from __future__ import annotations

from bot.adapter import Click, LoadedGame
from bot.games.rumbugz.panels import RumBugzPanel
from bot.games.rumbugz.text import bug_text
from bot.replies import language, reply
from games.core import Event


class BidPanel(RumBugzPanel):
    async def place(self, click: Click) -> None:
        async def answer(table: LoadedGame, events: list[Event]) -> None:
            view = table.game.view(None)
            viewer = table.viewer(language=language(click.interaction))
            text = viewer.t(
                "rumbugz.ui.bid_placed",
                bug=bug_text(view["discard_top"], viewer),
                name=viewer.name(view["turn"]),
            )
            await reply(click.interaction, text)

        await click.act({"type": "bid"}, answer)
