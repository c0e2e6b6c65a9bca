"""The toy in Discord: the table says the total and offers +1, +2 and +3 to whoever's turn it is."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ClassVar

import discord

from bot.adapter import Click, DrawnAt, GameAdapter, Rendered, Viewer
from games.core import JSON, Event
from tests.toy.engine import AMOUNTS, Race
from tests.toy.robot import RaceRobot


class ToyAdapter(GameAdapter):
    engine = Race
    robot = RaceRobot
    colour = discord.Colour.teal()
    start_options: ClassVar[Mapping[str, str]] = {"target": "toy.option.target"}
    round_end_events = frozenset({"toy.event.won"})
    embed_events = frozenset({"toy.event.won"})

    def table(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
        embed = discord.Embed(
            title=viewer.t("toy.title"),
            description=viewer.t("toy.ui.total", total=view["total"], target=view["target"]),
            colour=self.colour,
        )
        if view["over"]:
            return Rendered([embed])
        embed.set_footer(text=viewer.t("toy.ui.turn", seat=viewer.name(view["turn"])))
        items: list[discord.ui.Item[Any]] = [
            at.button("add", f"+{amount}", str(amount)) for amount in AMOUNTS
        ]
        return Rendered([embed], items=items)

    def hand(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
        return Rendered([discord.Embed(title=viewer.t("toy.ui.no_hand"), colour=self.colour)])

    def results(self, event: Event, viewer: Viewer) -> discord.Embed | None:
        if event.key != "toy.event.won":
            return None
        return self.match_results(viewer.t("toy.event.won", seat=viewer.name(event.params["seat"])), viewer)

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {"add": self._add}

    async def _add(self, click: Click) -> None:
        await click.act({"type": "add", "amount": click.number(0, within=AMOUNTS)})


ADAPTER = ToyAdapter()
