"""The Draw buttons (from the bag or the discard pile) and the Discard panel."""

from __future__ import annotations

from collections import Counter

import discord

from bot.adapter import Click, Table, game_select
from bot.games.rumbugz.panels import Panels
from bot.games.rumbugz.text import bug_text
from games.core import JSON
from games.rumbugz.bugz import NUMBER_OF, one_of_each


class DrawPanel(Panels):
    async def _draw_bag(self, click: Click) -> None:
        await self._play(click, {"type": "draw", "source": "bag"})

    async def _draw_pile(self, click: Click) -> None:
        await self._play(click, {"type": "draw", "source": "discard"})

    async def _discard_panel(self, click: Click) -> None:
        table, _, view, viewer = await self._at_step(click, "discard")
        counts = Counter(NUMBER_OF[code] for code in view["hand"])
        options = [
            discord.SelectOption(
                label=viewer.t("rumbugz.ui.discard.option", bug=bug_text(code, viewer), count=counts[number])
                if counts[number] > 1
                else bug_text(code, viewer),
                value=code,
            )
            for number, code in one_of_each(view["hand"]).items()
        ]
        select = game_select(
            click.game_id,
            "discq",
            viewer.t("rumbugz.ui.discard.placeholder"),
            options,
            str(table.row.version),
        )
        await self._show(click.interaction, viewer.t("rumbugz.ui.discard.prompt"), [select])

    async def _discard(self, click: Click) -> None:
        def action(table: Table, seat: int) -> JSON:
            self._check_stamp(table, "".join(click.parts[:1]))
            return {"type": "discard", "bug": click.values[0]}

        await self._play(click, action)
