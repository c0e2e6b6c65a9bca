"""The adapter of Rummikub: the tile panel, and a play or a draw with its answer."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from bot.adapter import Click, LoadedGame, Viewer, component_view
from bot.games.rummikub.table import CUSTOM_ID_ROOM, SELECT_LIMIT, RummikubTable
from bot.replies import language, reply, show_game_panel
from bot.replies import replace as replace_panel
from games.core import JSON, Event, GameError
from games.rummikub.engine import Rummikub
from games.rummikub.tiles import parse_tiles, sorted_tiles

# The moves of the rack's menus, 25 tiles each: a message's components need ids of their own.
PICK_MENUS = ("pick", "pick2")


class RummikubAdapter(RummikubTable):
    """Rummikub in Discord: the table, the racks, playing by naming rack tiles or picking them."""

    # A refused play names the tiles that could go down ("playable") as every line names tiles.
    code_params = RummikubTable.code_params | {"playable"}
    current_moves = frozenset({"choose"})
    points_per_round = True

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        picks = dict.fromkeys(PICK_MENUS, self._choose)
        return {"choose": self._choose, **picks, "play": self._play, "draw": self._draw}

    async def _my_turn(self, click: Click) -> tuple[LoadedGame, int, JSON, Viewer]:
        table, seat, viewer = await click.deciding_player()
        return table, seat, table.game.view(seat), viewer

    async def _choose(self, click: Click) -> None:
        """The private play panel: the rack, menus to pick tiles, and what is picked so far."""
        table, seat, view, viewer = await self._my_turn(click)
        # Selected values look like "r7:1" (the second r7 of the rack).
        chosen = [part for part in click.parts if part]
        chosen += [value.split(":")[0] for value in click.values]
        remaining: Counter[str] = Counter(view["rack"])
        remaining.subtract(chosen)
        if any(count < 0 for count in remaining.values()):
            raise GameError("rummikub.ui.error.not_on_rack")
        picked = ".".join(sorted_tiles(chosen))
        if len(picked) > CUSTOM_ID_ROOM:
            raise GameError("rummikub.ui.error.too_many")
        # Two copies of a tile need distinct option values: "r7:0", "r7:1".
        copies: Counter[str] = Counter()
        options = []
        for code in sorted_tiles(remaining.elements()):
            options.append(
                discord.SelectOption(label=self.label(code, viewer), value=f"{code}:{copies[code]}")
            )
            copies[code] += 1
        items: list[discord.ui.Item[Any]] = []
        at = table.drawn_at
        for menu, start in zip(PICK_MENUS, range(0, len(options), SELECT_LIMIT), strict=False):
            chunk = options[start : start + SELECT_LIMIT]
            select = at.select(menu, viewer.t("rummikub.ui.pick_placeholder"), chunk, picked)
            select.max_values = len(chunk)
            items.append(select)
        if chosen:
            items.append(
                at.button(
                    "play",
                    viewer.t("rummikub.ui.button.confirm"),
                    picked,
                    discord.ButtonStyle.success,
                    "✅",
                )
            )
            items.append(at.button("choose", viewer.t("rummikub.ui.button.clear"), "", emoji="↩️"))
        lines = [viewer.t("rummikub.ui.pick_prompt")]
        if not view["melded"][view["me"]]:
            lines.append(viewer.t("rummikub.ui.pick_initial_meld"))
        if chosen:
            lines.append(viewer.t("rummikub.ui.picked", tiles=self.labels(sorted_tiles(chosen), viewer)))
        if view["hints"]:
            # In a thread: a search may take a while, and other channels go on meanwhile.
            hint = await asyncio.to_thread(table.engine(Rummikub).best_play, seat)
            lines.append(
                viewer.t("rummikub.ui.hint", tiles=self.labels(sorted_tiles(hint["tiles"]), viewer))
                if hint
                else viewer.t("rummikub.ui.no_hint")
            )
        # No rack picture: the menu names every tile and the DM (or My rack) shows the rack. In the
        # playground, the pictures of earlier panels, laid out again whenever a menu opens, shift
        # the page enough to close the menu (SimCord's preview closes a menu scrolled away).
        await show_game_panel(click.interaction, "\n".join(lines), view=component_view(items))

    async def _play(self, click: Click) -> None:
        codes = parse_tiles(" ".join(click.parts))
        await click.act(play_action(codes), played(click.interaction, codes))

    async def _draw(self, click: Click) -> None:
        await click.act(DRAW, drew(click.interaction))


ADAPTER = RummikubAdapter()
DRAW: JSON = {"type": "draw"}


def play_action(codes: list[str]) -> JSON:
    return {"type": "play", "tiles": codes}


def played(
    interaction: discord.Interaction, codes: list[str]
) -> Callable[[LoadedGame, list[Event]], Awaitable[None]]:
    """What a play of the rack tiles ``codes`` answers: the tiles laid, as the channel names them
    (in the order of the sets they went into), in place of the panel it came from."""

    async def answer(table: LoadedGame, events: list[Event]) -> None:
        viewer = table.viewer(table.seat_of(interaction.user.id), language(interaction))
        laid = next((event.params["tiles"] for event in events if "tiles" in event.params), codes)
        await replace_panel(
            interaction, viewer.t("rummikub.ui.played", tiles=table.adapter.labels(laid, viewer)), view=None
        )

    return answer


def drew(interaction: discord.Interaction) -> Callable[[LoadedGame, list[Event]], Awaitable[None]]:
    """What a draw answers besides the table: the tile drawn, privately."""

    async def answer(table: LoadedGame, events: list[Event]) -> None:
        seat = table.seat_of(interaction.user.id)
        viewer = table.viewer(seat, language(interaction))
        private = [
            line for e in events if e.seats and e.visible_to(seat) if (line := ADAPTER.describe(e, viewer))
        ]
        await reply(interaction, "\n".join(private) or viewer.t("rummikub.ui.passed"))

    return answer
