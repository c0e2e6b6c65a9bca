"""The panels: the flip panel (a column, then a row), and a menu for every other choice, its
options read as moves."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import discord

from bot.adapter import DrawnAt, LoadedGame, Viewer
from bot.games.seriebum.table import SerieBumTable
from bot.games.seriebum.text import (
    CHOICE_PROMPTS,
    OPTIONS_PER_SELECT,
    SELECTS_PER_PANEL,
    OptionText,
    actions_of,
    clip,
    face_down_by_column,
    tile_label,
    tiles_text,
)
from games.core import JSON
from games.seriebum.engine import BUM_CHOICE, FLIP, FLIP_SECOND, REARRANGE


class SerieBumPanels(SerieBumTable):
    """The flip panel and the choice menus, each option labelled as the move it makes."""

    def _series_name(self, number: int, viewer: Viewer) -> str:
        return viewer.t("seriebum.label.series", number=number + 1)

    def _destination(self, step: Mapping[str, Any], viewer: Viewer) -> str:
        series = self._series_name(step["series"], viewer)
        if step["end"] is None:
            return series
        return viewer.t(
            "seriebum.option.at_end", series=series, end=viewer.t(f"seriebum.label.{step['end']}_end")
        )

    def _step_text(self, step: Mapping[str, Any], viewer: Viewer) -> str:
        return f"{tile_label(step['tile'], viewer)} → {self._destination(step, viewer)}"

    def _series_tiles(self, view: JSON, seat: int, number: int, viewer: Viewer) -> str:
        series = view["players"][seat]["series"][number]
        return f"{self._series_name(number, viewer)}: {tiles_text(series['tiles'], viewer)}"

    def _place_option(self, view: JSON, option: JSON, viewer: Viewer) -> OptionText:
        owner = view["pending"]["owner_seat"]
        if option["new_series"]:
            face_up = [cell["tile"] for cell in view["cells"] if cell["state"] == "up"]
            label = viewer.t(
                "seriebum.option.new_series", tiles=" + ".join(tile_label(c, viewer) for c in face_up)
            )
            return label, None
        targets = sorted({step["series"] for step in option["steps"]})
        return (
            ", ".join(self._step_text(step, viewer) for step in option["steps"]),
            " · ".join(self._series_tiles(view, owner, n, viewer) for n in targets),
        )

    def _steal_option(self, view: JSON, option: JSON, viewer: Viewer) -> OptionText:
        owner = view["pending"]["owner_seat"]
        step = {"tile": option["tile"], "series": option["to_series"], "end": option["end"]}
        label = viewer.t(
            "seriebum.option.steal",
            tile=tile_label(option["tile"], viewer),
            name=viewer.name(1 - owner),
            series=option["from_series"] + 1,
            destination=self._destination(step, viewer),
        )
        victim = self._series_tiles(view, 1 - owner, option["from_series"], viewer)
        return label, victim

    def _bum_option(self, view: JSON, option: JSON, viewer: Viewer) -> OptionText:
        label = viewer.t(
            "seriebum.option.bum",
            series=self._series_name(option["series"], viewer),
            survivors=tiles_text(option["survivors"], viewer),
        )
        detail = viewer.t(
            "seriebum.option.bum_detail",
            removed=tiles_text(option["removed"], viewer),
            points=option["points_lost"],
        )
        return label, detail

    def _move_option(self, view: JSON, option: JSON, viewer: Viewer) -> OptionText:
        steps = option["steps"]
        source = self._series_name(option["from_series"], viewer)
        if len(steps) == 1:
            label = viewer.t(
                "seriebum.option.move",
                tile=tile_label(steps[0]["tile"], viewer),
                source=source,
                destination=self._destination(steps[0], viewer),
            )
        else:
            label = viewer.t(
                "seriebum.option.empty",
                source=source,
                steps=", ".join(self._step_text(step, viewer) for step in steps),
            )
        return label, None

    # ------------------------------------------------------------------ panels

    def _choices(self, view: JSON, kind: str) -> list[JSON]:
        """The options a ``kind`` select lists now, in the view's order (the select's values index them)."""
        if kind == "move":
            return list(view["moves"])
        pending = view["pending"]
        return list(pending["options"]) if pending and pending["type"] == kind else []

    def _choice_selects(
        self, view: JSON, viewer: Viewer, at: DrawnAt, kind: str
    ) -> list[discord.ui.Item[Any]]:
        """Every option of a ``kind`` choice, 25 to a select (each numbered in its custom id)."""
        build: dict[str, Callable[[JSON, JSON, Viewer], OptionText]] = {
            "place": self._place_option,
            "steal": self._steal_option,
            "bum": self._bum_option,
            "move": self._move_option,
        }
        texts = [build[kind](view, choice, viewer) for choice in self._choices(view, kind)]
        options = [
            discord.SelectOption(
                label=clip(label), description=clip(detail) if detail else None, value=str(index)
            )
            for index, (label, detail) in enumerate(texts)
        ]
        chunks = [options[i : i + OPTIONS_PER_SELECT] for i in range(0, len(options), OPTIONS_PER_SELECT)]
        placeholder = viewer.t(f"seriebum.panel.{kind}_placeholder")
        return [
            at.select(
                kind,
                placeholder if len(chunks) == 1 else f"{placeholder} ({chunk[0].value}-{chunk[-1].value})",
                chunk,
                str(number),
            )
            for number, chunk in enumerate(chunks[:SELECTS_PER_PANEL])
        ]

    def _flip_panel(
        self, view: JSON, viewer: Viewer, at: DrawnAt, column: str | None
    ) -> list[discord.ui.Item[Any]]:
        by_column = face_down_by_column(view)
        open_columns = [name for name, cells in by_column.items() if cells]
        if column not in open_columns:
            column = open_columns[0]
        select = at.select(
            "column",
            viewer.t("seriebum.panel.column_placeholder"),
            [
                discord.SelectOption(
                    label=viewer.t("seriebum.panel.column", column=name),
                    description=viewer.t("seriebum.panel.column_count", count=len(by_column[name])),
                    value=name,
                    default=name == column,
                )
                for name in open_columns
            ],
            row=0,
        )
        items: list[discord.ui.Item[Any]] = [select]
        for row in range(1, view["rows"] + 1):
            cell = f"{column}{row}"
            items.append(at.button("flip", cell, cell, row=1, disabled=cell not in by_column[column]))
        if view["phase"] == FLIP and "move" in actions_of(view, view["me"]):
            items.append(at.button("moves", viewer.t("seriebum.label.move"), emoji="🔀", row=2))
        return items

    def _panel(
        self, table: LoadedGame, seat: int, viewer: Viewer, *, column: str | None = None, moving: bool = False
    ) -> tuple[str, list[discord.ui.Item[Any]]]:
        """What ``seat`` must decide now, as text and components; a closing line when nothing is left."""
        view = table.game.view(seat)
        at = table.drawn_at
        actions = actions_of(view, seat)
        phase = view["phase"]
        if not actions:
            if phase == BUM_CHOICE:
                return viewer.t("seriebum.panel.bum_waiting", name=viewer.name(1 - seat)), []
            return viewer.t("seriebum.panel.turn_over", table=table.link(viewer.language)), []
        if phase in (FLIP, FLIP_SECOND) and not (moving and "move" in actions):
            key = "seriebum.panel.flip" if phase == FLIP else "seriebum.panel.flip_second"
            return viewer.t(key, table=table.link(viewer.language, message=True)), self._flip_panel(
                view, viewer, at, column
            )
        if phase in CHOICE_PROMPTS:
            prompt = viewer.t(CHOICE_PROMPTS[phase], name=viewer.name(view["pending"]["owner_seat"]))
            return prompt, self._choice_selects(view, viewer, at, phase)
        items = self._choice_selects(view, viewer, at, "move")
        if phase == REARRANGE:
            items.append(self._end_turn_button(at, viewer))
            return viewer.t("seriebum.panel.rearrange"), items
        items.append(at.button("panel", viewer.t("seriebum.label.flip"), emoji="🀄", row=4))
        return viewer.t("seriebum.panel.moves_first"), items
