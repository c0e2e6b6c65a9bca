"""The Draw buttons (from the bag or the discard pile) and the Discard panel."""

from __future__ import annotations

from collections import Counter

from bot.adapter import Click
from bot.games.rumbugz.panels import RumBugzPanel
from bot.games.rumbugz.text import bug_text
from games.rumbugz.bugz import NUMBER_OF, one_of_each


class DrawPanel(RumBugzPanel):
    async def from_bag(self, click: Click) -> None:
        await self._play(click, {"type": "draw", "source": "bag"})

    async def from_pile(self, click: Click) -> None:
        await self._play(click, {"type": "draw", "source": "discard"})

    async def open_discard(self, click: Click) -> None:
        """A button per number in the hand (copies play alike), not a menu: one click, and in the
        playground nothing to close by itself (SimCord's preview closes an open menu that the
        pictures above it, drawn again as it opens, push out of the window; a discard panel opens
        at the window's bottom edge)."""
        table, _, view, viewer = await self._at_step(click, "discard")
        counts = Counter(NUMBER_OF[code] for code in view["hand"])
        buttons = [
            table.drawn_at.button(
                "discq",
                viewer.t("rumbugz.ui.discard.option", bug=bug_text(code, viewer), count=counts[number])
                if counts[number] > 1
                else bug_text(code, viewer),
                code,
            )
            for number, code in one_of_each(view["hand"]).items()
        ]
        await self._show(click.interaction, viewer.t("rumbugz.ui.discard.prompt"), buttons)

    async def discard(self, click: Click) -> None:
        await self._play(click, {"type": "discard", "bug": "".join(click.parts[:1])})
