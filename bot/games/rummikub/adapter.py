"""The adapter of Rummikub: the tile panel, and a play or a draw with its answer."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from bot.adapter import (
    Click,
    ClickRead,
    LoadedGame,
    TableMoves,
    Viewer,
    component_view,
    game_button,
    game_select,
)
from bot.games.rummikub.table import CUSTOM_ID_ROOM, SELECT_LIMIT, Display
from bot.replies import language, reply, show_panel
from bot.replies import replace as replace_panel
from games.core import JSON, Event, GameError
from games.rummikub.engine import Rummikub
from games.rummikub.tiles import parse_tiles, sorted_tiles

# The moves of the rack's menus, 25 tiles each: a message's components need ids of their own.
PICK_MENUS = ("pick", "pick2")


class RummikubAdapter(Display):
    """Rummikub in Discord: the table, the racks, playing by naming rack tiles or picking them."""

    # A refused play names the tiles that could go down ("playable") as every line names tiles.
    code_params = Display.code_params | {"playable"}
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
        for menu, start in zip(PICK_MENUS, range(0, len(options), SELECT_LIMIT), strict=False):
            chunk = options[start : start + SELECT_LIMIT]
            select = game_select(click.game_id, menu, viewer.t("rummikub.ui.pick_placeholder"), chunk, picked)
            select.max_values = len(chunk)
            items.append(select)
        if chosen:
            items.append(
                game_button(
                    click.game_id,
                    "play",
                    viewer.t("rummikub.ui.button.confirm"),
                    picked,
                    discord.ButtonStyle.success,
                    "✅",
                )
            )
            items.append(
                game_button(
                    click.game_id,
                    "choose",
                    viewer.t("rummikub.ui.button.clear"),
                    "",
                    discord.ButtonStyle.secondary,
                    "↩️",
                )
            )
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
        await show_panel(click.interaction, "\n".join(lines), view=component_view(items))

    async def _play(self, click: Click) -> None:
        tiles = ".".join(click.parts)
        await play_tiles(
            click.service,
            click.interaction,
            click.game_id,
            tiles,
            panel=True,
            read=click.read,
            seen=click.seen,
        )

    async def _draw(self, click: Click) -> None:
        await draw_tile(click.service, click.interaction, click.game_id, read=click.read, seen=click.seen)


ADAPTER = RummikubAdapter()


async def play_tiles(
    service: TableMoves,
    interaction: discord.Interaction,
    game_id: int,
    tiles: str,
    *,
    panel: bool = False,
    read: ClickRead | None = None,
    seen: int | None = None,
) -> None:
    """Lay the named rack tiles; the engine finds the new table or says why it cannot. A click's
    ``read`` and ``seen`` go to the move (``TableMoves.act``); a command has neither."""
    codes = parse_tiles(tiles.replace(".", " "))

    async def answer(table: LoadedGame, events: list[Event]) -> None:
        viewer = table.viewer(table.seat_of(interaction.user.id), language(interaction))
        # The tiles as the channel names them: in the order of the sets they went into.
        played = next((event.params["tiles"] for event in events if "tiles" in event.params), codes)
        text = viewer.t("rummikub.ui.played", tiles=table.adapter.labels(played, viewer))
        if panel:
            await replace_panel(interaction, text, view=None)
        else:
            await reply(interaction, text)

    await service.act(interaction, game_id, {"type": "play", "tiles": codes}, answer, read=read, seen=seen)


async def draw_tile(
    service: TableMoves,
    interaction: discord.Interaction,
    game_id: int,
    *,
    read: ClickRead | None = None,
    seen: int | None = None,
) -> None:
    async def answer(table: LoadedGame, events: list[Event]) -> None:
        seat = table.seat_of(interaction.user.id)
        viewer = table.viewer(seat, language(interaction))
        private = [
            line for e in events if e.seats and e.visible_to(seat) if (line := ADAPTER.describe(e, viewer))
        ]
        await reply(interaction, "\n".join(private) or viewer.t("rummikub.ui.passed"))

    await service.act(interaction, game_id, {"type": "draw"}, answer, read=read, seen=seen)
