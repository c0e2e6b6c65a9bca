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

from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.adapter import Click, GameAdapter, Rendered, Viewer, component_view, game_button, game_select
from bot.commands import GameHost, game_group
from bot.render import FELT_DARK, HIGHLIGHT, INK, MUTED, Canvas, picture
from bot.replies import language, show_panel
from bot.tables import truncate
from games.core import JSON, Event, GameError
from games.seriebum import SerieBum
from games.seriebum.engine import BUM_CHOICE, FLIP, FLIP_SECOND, PLACE, REARRANGE, STEAL
from games.seriebum.robot import SerieBumRobot
from games.seriebum.tiles import BUM, COLUMNS, JOLLY, NUMBER, ROWS, RUBA, TILE_ID, TILES

if TYPE_CHECKING:
    from bot.tables import Table

Colour = tuple[int, int, int]
OptionText = tuple[str, str | None]  # a select option's label and description

# Numbered tiles by colour letter, specials by kind: (fill, ink).
TILE_COLOURS: dict[str, tuple[Colour, Colour]] = {
    "R": ((205, 52, 52), INK),
    "Y": ((242, 201, 58), (52, 40, 0)),
    "W": ((246, 244, 236), (40, 40, 40)),
    "B": ((112, 188, 238), (8, 44, 76)),
    JOLLY: ((128, 64, 176), INK),
    RUBA: ((52, 52, 58), INK),
    BUM: ((232, 110, 26), INK),
}
COLOUR_SQUARES = {"R": "🟥", "Y": "🟨", "W": "⬜", "B": "🟦"}
SPECIAL_WORDS = {JOLLY: "JOLLY", RUBA: "RUBA", BUM: "BUM!"}

# The board: 7 columns x 5 rows of tiles, coordinates on the top and left edges, then a legend.
WIDTH = 720
TILE_W, TILE_H, TILE_GAP = 84, 96, 10
GRID_TOP = 104
GRID_LEFT = (WIDTH - len(COLUMNS) * TILE_W - (len(COLUMNS) - 1) * TILE_GAP) // 2 + 12
LEGEND_TOP = GRID_TOP + ROWS * (TILE_H + TILE_GAP) + 8
SWATCH = 30
BOARD_BOTTOM = LEGEND_TOP + SWATCH + 24
SEEN_INSET = 10  # a remembered tile: its face inside its back
MIN_WORD_SIZE = 14
# Each player: a header line, then their series as small tiles, two series to a line.
PLAYER_HEADER_H = 62
SMALL_W, SMALL_H, SMALL_GAP = 38, 50, 4
SERIES_SLOT_W = 350
SERIES_LINE_H = SMALL_H + 12
NO_SERIES_H = 40

SELECTS_PER_PANEL = 4  # the fifth row holds the panel's buttons
OPTIONS_PER_SELECT = 25
LABEL_LIMIT = 100

PANEL_BUTTONS: dict[str, tuple[str, str]] = {
    FLIP: ("seriebum.label.flip", "🀄"),
    FLIP_SECOND: ("seriebum.label.flip_second", "🀄"),
    PLACE: ("seriebum.label.place", "📥"),
    STEAL: ("seriebum.label.steal", "🤏"),
    BUM_CHOICE: ("seriebum.label.bum", "💥"),
    REARRANGE: ("seriebum.label.move", "🔀"),
}
CHOICE_PROMPTS = {
    PLACE: "seriebum.panel.place",
    STEAL: "seriebum.panel.steal",
    BUM_CHOICE: "seriebum.panel.bum",
}
# Told by the table (the tile stays seen there) and nowhere else: a line saying that the first
# tile went back because the second was special would tell, later, which cell holds a special.
SILENT_EVENTS = frozenset({"seriebum.event.first_covered"})


def tile_label(code: str, viewer: Viewer) -> str:
    """How a tile reads in text: '🟥40', 'JOLLY'."""
    tile = TILES[TILE_ID[code]]
    if tile.kind == NUMBER and tile.colour is not None:
        return f"{COLOUR_SQUARES[tile.colour]}{tile.value}"
    return viewer.t(f"seriebum.label.tile_{tile.kind}")


def tiles_text(codes: Sequence[str], viewer: Viewer) -> str:
    return " ".join(tile_label(code, viewer) for code in codes)


def clip(text: str) -> str:
    return truncate(text, LABEL_LIMIT)


def seat_deciding(view: JSON) -> int | None:
    return view["to_act"][0]["seat"] if view["to_act"] else None


def actions_of(view: JSON, seat: int) -> list[str]:
    return next((entry["actions"] for entry in view["to_act"] if entry["seat"] == seat), [])


def face_down_by_column(view: JSON) -> dict[str, list[str]]:
    columns: dict[str, list[str]] = {column: [] for column in view["columns"]}
    for cell in view["cells"]:
        if cell["state"] in ("down", "seen"):
            columns[cell["cell"][0]].append(cell["cell"])
    return columns


class SerieBumAdapter(GameAdapter):
    engine = SerieBum
    robot = SerieBumRobot
    colour = discord.Colour.from_rgb(232, 110, 26)
    dm_closed_key = "seriebum.dm_closed"
    code_params = frozenset({"tile", "other_tile", "tiles", "removed", "survivors"})
    embed_events = frozenset({"seriebum.event.match_won"})
    round_end_events = frozenset({"seriebum.event.manche_scored"})
    start_options: ClassVar[Mapping[str, str]] = {"target": "cmd.option.target"}

    # ------------------------------------------------------------------ drawing

    def _draw_tile(self, canvas: Canvas, box: tuple[int, int, int, int], code: str) -> None:
        tile = TILES[TILE_ID[code]]
        fill, ink = TILE_COLOURS[tile.colour or tile.kind]
        if tile.kind == NUMBER:
            canvas.face(box, str(tile.value), code, fill, ink)
            return
        word = SPECIAL_WORDS[tile.kind]
        canvas.face(box, "", code, fill, ink)
        x0, y0, x1, y1 = box
        size = int(min((y1 - y0) * 0.3, (x1 - x0) * 1.5 / len(word)))
        if size < MIN_WORD_SIZE:  # a small tile in a series: its initial, large enough to read
            word, size = word[0], int((y1 - y0) * 0.42)
        canvas.text(((x0 + x1) / 2, (y0 + y1) / 2), word, size, ink, anchor="mm")

    def _draw_seen(self, canvas: Canvas, box: tuple[int, int, int, int], code: str) -> None:
        """A tile covered again but still remembered: its back, with the face showing through."""
        canvas.back(box)
        x0, y0, x1, y1 = box
        self._draw_tile(canvas, (x0 + SEEN_INSET, y0 + SEEN_INSET, x1 - SEEN_INSET, y1 - SEEN_INSET), code)

    def _draw_board(self, canvas: Canvas, view: JSON, viewer: Viewer) -> None:
        for index, column in enumerate(view["columns"]):
            x = GRID_LEFT + index * (TILE_W + TILE_GAP) + TILE_W // 2
            canvas.text((x, GRID_TOP - 12), column, 24, MUTED, anchor="md")
        for row in range(view["rows"]):
            y = GRID_TOP + row * (TILE_H + TILE_GAP) + TILE_H // 2
            canvas.text((GRID_LEFT - 16, y), str(row + 1), 24, MUTED, anchor="rm")
        columns = len(view["columns"])
        for index, cell in enumerate(view["cells"]):
            row, column = divmod(index, columns)
            left = GRID_LEFT + column * (TILE_W + TILE_GAP)
            top = GRID_TOP + row * (TILE_H + TILE_GAP)
            box = (left, top, left + TILE_W, top + TILE_H)
            state, tile = cell["state"], cell["tile"]
            if state == "empty":
                canvas.rounded_rectangle(box, radius=12, outline=FELT_DARK, width=3)
                continue
            if state == "up":
                ring = (left - 5, top - 5, left + TILE_W + 5, top + TILE_H + 5)
                canvas.rounded_rectangle(ring, radius=16, outline=HIGHLIGHT, width=5)
            if tile is None:
                canvas.back(box)
                canvas.text((left + TILE_W // 2, top + TILE_H // 2), cell["cell"], 22, MUTED, anchor="mm")
            elif state == "seen":
                self._draw_seen(canvas, box, tile)
            else:
                self._draw_tile(canvas, box, tile)
        self._draw_legend(canvas, viewer)

    def _draw_legend(self, canvas: Canvas, viewer: Viewer) -> None:
        """What a ringed tile and a tile inside its back mean (drawn without faces: no codes).

        Image texts avoid accented letters: Pillow's bundled font has none."""
        top, middle = LEGEND_TOP, WIDTH // 2
        canvas.rounded_rectangle(
            (GRID_LEFT, top, GRID_LEFT + SWATCH, top + SWATCH), 6, outline=HIGHLIGHT, width=4
        )
        canvas.back((middle, top, middle + SWATCH, top + SWATCH))
        canvas.rectangle(
            (middle + 8, top + 8, middle + SWATCH - 8, top + SWATCH - 8), fill=TILE_COLOURS["R"][0]
        )
        for left, key in ((GRID_LEFT, "seriebum.image.face_up"), (middle, "seriebum.image.seen")):
            canvas.text((left + SWATCH + 10, top + SWATCH // 2), viewer.t(key), 20, MUTED, anchor="lm")

    def _draw_player(self, canvas: Canvas, view: JSON, viewer: Viewer, seat: int, top: int) -> None:
        player = view["players"][seat]
        deciding = seat == seat_deciding(view)
        canvas.line((20, top, WIDTH - 20, top), fill=FELT_DARK, width=3)
        if deciding:
            canvas.ellipse((24, top + 22, 40, top + 38), fill=HIGHLIGHT)
        canvas.text(
            (50 if deciding else 24, top + 14), viewer.name(seat)[:24], 28, HIGHLIGHT if deciding else INK
        )
        scores = viewer.t(
            "seriebum.image.scores",
            points=player["manche_points"],
            total=player["total"],
            target=view["target"],
        )
        canvas.text((WIDTH - 24, top + 20), scores, 20, MUTED, anchor="ra")
        top += PLAYER_HEADER_H
        if not player["series"]:
            canvas.text((24, top), "·", 20, MUTED)
        for index, series in enumerate(player["series"]):
            line, slot = divmod(index, 2)
            left = 24 + slot * SERIES_SLOT_W
            y = top + line * SERIES_LINE_H
            canvas.text((left, y + SMALL_H // 2), str(index + 1), 22, MUTED, anchor="lm")
            x = left + 28
            for code in series["tiles"]:
                self._draw_tile(canvas, (x, y, x + SMALL_W, y + SMALL_H), code)
                x += SMALL_W + SMALL_GAP
            points = str(series["points"]) if series["points"] else "·"
            canvas.text(
                (x + 6, y + SMALL_H // 2), points, 22, INK if series["points"] else MUTED, anchor="lm"
            )

    @staticmethod
    def _player_height(player: JSON) -> int:
        lines = (len(player["series"]) + 1) // 2
        return PLAYER_HEADER_H + (lines * SERIES_LINE_H + 12 if lines else NO_SERIES_H)

    def table_image(self, view: JSON, viewer: Viewer) -> Canvas:
        canvas = Canvas(WIDTH, BOARD_BOTTOM + sum(self._player_height(p) for p in view["players"]) + 8)
        canvas.text((24, 22), viewer.t("seriebum.table.title", manche=view["manche"]), 28)
        canvas.text(
            (WIDTH - 24, 30),
            viewer.t("seriebum.image.counts", face_down=view["face_down"], out=view["out_of_game"]),
            20,
            MUTED,
            anchor="ra",
        )
        self._draw_board(canvas, view, viewer)
        top = BOARD_BOTTOM
        for player in view["players"]:
            self._draw_player(canvas, view, viewer, player["seat"], top)
            top += self._player_height(player)
        return canvas

    # ------------------------------------------------------------------ messages

    def _status(self, view: JSON, viewer: Viewer) -> str:
        if view["finished"]:
            if view["winner"] is not None:
                return viewer.t("seriebum.table.won", name=viewer.name(view["winner"]))
            return viewer.t("seriebum.event.match_abandoned")
        seat = seat_deciding(view)
        doing = viewer.t(f"seriebum.label.phase_{view['phase']}")
        return viewer.t(
            "seriebum.table.status", name=viewer.name(seat) if seat is not None else "?", doing=doing
        )

    def _series_lines(self, player: JSON, viewer: Viewer) -> list[str]:
        return [
            viewer.t(
                "seriebum.table.series_line",
                number=index + 1,
                tiles=tiles_text(series["tiles"], viewer),
                points=series["points"],
            )
            for index, series in enumerate(player["series"])
        ]

    def table(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        embed = discord.Embed(
            title=viewer.t("seriebum.table.title", manche=view["manche"]),
            description=self._status(view, viewer),
            colour=self.colour,
        )
        deciding = seat_deciding(view)
        for player in view["players"]:
            seat = player["seat"]
            lines = [viewer.t("seriebum.table.player", points=player["manche_points"], total=player["total"])]
            lines += self._series_lines(player, viewer) or [viewer.t("seriebum.table.no_series")]
            embed.add_field(
                name=viewer.name(seat) + (" ⏳" if seat == deciding else ""),
                value=truncate("\n".join(lines), 1024),
                inline=True,
            )
        embed.set_footer(
            text=viewer.t(
                "seriebum.table.footer",
                target=view["target"],
                face_down=view["face_down"],
                out=view["out_of_game"],
            )
        )
        embed.set_image(url="attachment://seriebum-table.png")
        return Rendered(
            [embed],
            picture("seriebum-table.png", self.table_image, view, viewer),
            self._table_items(view, viewer, game_id),
        )

    def table_copy(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        """The table for ``/seriebum table``: a reply nobody edits would keep flipped tiles in view
        after they are covered, so it shows where they are, not what they are."""
        cells = [{**cell, "tile": None} for cell in view["cells"]]
        return self.table({**view, "cells": cells}, viewer, game_id)

    def _table_items(self, view: JSON, viewer: Viewer, game_id: int) -> list[discord.ui.Item[Any]]:
        if view["finished"]:
            return []
        key, emoji = PANEL_BUTTONS[view["phase"]]
        items: list[discord.ui.Item[Any]] = [
            game_button(game_id, "panel", viewer.t(key), style=discord.ButtonStyle.primary, emoji=emoji)
        ]
        deciding = seat_deciding(view)
        if view["phase"] == FLIP and deciding is not None and "move" in actions_of(view, deciding):
            items.append(game_button(game_id, "moves", viewer.t("seriebum.label.move"), emoji="🔀"))
        if view["phase"] == REARRANGE:
            items.append(self._end_turn_button(game_id, viewer))
        return items

    @staticmethod
    def _end_turn_button(game_id: int, viewer: Viewer) -> discord.ui.Button[Any]:
        return game_button(
            game_id,
            "end_turn",
            viewer.t("seriebum.label.end_turn"),
            style=discord.ButtonStyle.success,
            emoji="⏭️",
        )

    def hand(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        """A player's own series and scores (everything is public in Serie Bum!, bar covered tiles)."""
        seat = view["me"]
        player = view["players"][seat]
        embed = discord.Embed(
            title=viewer.t("seriebum.hand.title", manche=view["manche"]),
            description="\n".join(self._series_lines(player, viewer)) or viewer.t("seriebum.table.no_series"),
            colour=self.colour,
        )
        embed.set_footer(
            text=viewer.t("seriebum.table.player", points=player["manche_points"], total=player["total"])
        )
        items: list[discord.ui.Item[Any]] = []
        if actions_of(view, seat):
            key, emoji = PANEL_BUTTONS[view["phase"]]
            items.append(
                game_button(game_id, "panel", viewer.t(key), style=discord.ButtonStyle.primary, emoji=emoji)
            )
        return Rendered([embed], None, items)

    # ------------------------------------------------------------------ events

    def label(self, code: str, viewer: Viewer) -> str:
        return tile_label(code, viewer)

    def describe(self, event: Event, viewer: Viewer) -> str | None:
        if event.key in SILENT_EVENTS:
            return None
        return super().describe(event, viewer)

    def results(self, event: Event, viewer: Viewer) -> discord.Embed | None:
        if event.key != "seriebum.event.match_won":
            return None
        return self.match_results("🏆 " + viewer.t(event.key, **self.event_params(event, viewer)), viewer)

    # ------------------------------------------------------------------ option labels

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
        self, view: JSON, viewer: Viewer, game_id: int, version: int, kind: str
    ) -> list[discord.ui.Item[Any]]:
        """Every option of a ``kind`` choice, 25 to a select; a select's custom_id carries the version."""
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
            game_select(
                game_id,
                kind,
                placeholder if len(chunks) == 1 else f"{placeholder} ({chunk[0].value}-{chunk[-1].value})",
                chunk,
                f"{version}.{number}",
            )
            for number, chunk in enumerate(chunks[:SELECTS_PER_PANEL])
        ]

    def _flip_panel(
        self, view: JSON, viewer: Viewer, game_id: int, column: str | None
    ) -> list[discord.ui.Item[Any]]:
        by_column = face_down_by_column(view)
        open_columns = [name for name, cells in by_column.items() if cells]
        if column not in open_columns:
            column = open_columns[0]
        select = game_select(
            game_id,
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
            items.append(
                game_button(game_id, "flip", cell, cell, row=1, disabled=cell not in by_column[column])
            )
        if view["phase"] == FLIP and "move" in actions_of(view, view["me"]):
            items.append(game_button(game_id, "moves", viewer.t("seriebum.label.move"), emoji="🔀", row=2))
        return items

    def _panel(
        self, table: Table, seat: int, viewer: Viewer, *, column: str | None = None, moving: bool = False
    ) -> tuple[str, list[discord.ui.Item[Any]]]:
        """What ``seat`` must decide now, as text and components; a closing line when nothing is left."""
        view = table.game.view(seat)
        game_id, version = table.row.id, table.row.version
        actions = actions_of(view, seat)
        phase = view["phase"]
        if not actions:
            if phase == BUM_CHOICE:
                return viewer.t("seriebum.panel.bum_waiting", name=viewer.name(1 - seat)), []
            return viewer.t("seriebum.panel.turn_over", url=table.jump_url()), []
        if phase in (FLIP, FLIP_SECOND) and not (moving and "move" in actions):
            key = "seriebum.panel.flip" if phase == FLIP else "seriebum.panel.flip_second"
            return viewer.t(key, url=table.jump_url()), self._flip_panel(view, viewer, game_id, column)
        if phase in CHOICE_PROMPTS:
            prompt = viewer.t(CHOICE_PROMPTS[phase], name=viewer.name(view["pending"]["owner_seat"]))
            return prompt, self._choice_selects(view, viewer, game_id, version, phase)
        items = self._choice_selects(view, viewer, game_id, version, "move")
        if phase == REARRANGE:
            items.append(self._end_turn_button(game_id, viewer))
            return viewer.t("seriebum.panel.rearrange"), items
        items.append(game_button(game_id, "panel", viewer.t("seriebum.label.flip"), emoji="🀄", row=4))
        return viewer.t("seriebum.panel.moves_first"), items

    # ------------------------------------------------------------------ flows

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {
            "panel": self._open,
            "moves": partial(self._open, moving=True),
            "column": self._open,
            "flip": self._flip,
            "end_turn": self._end_turn,
            **{kind: partial(self._choose, kind) for kind in ("place", "steal", "bum", "move")},
        }

    @staticmethod
    async def _show(
        interaction: discord.Interaction, content: str, items: list[discord.ui.Item[Any]]
    ) -> None:
        """A panel: it replaces the ephemeral panel it was opened from, or is sent as a new one."""
        view = component_view(items) if items else None
        await show_panel(interaction, truncate(content), view=view)

    async def _open(self, click: Click, *, moving: bool = False) -> None:
        """The player's panel; the column select reopens it on the chosen column."""
        table, seat, viewer = await click.deciding_player()
        column = click.values[0] if click.values else None
        content, items = self._panel(table, seat, viewer, column=column, moving=moving)
        await self._show(click.interaction, content, items)

    async def _flip(self, click: Click) -> None:
        cell = ".".join(click.parts)
        await self._play(click, {"type": "flip", "cell": cell}, column=cell[:1])

    async def _end_turn(self, click: Click) -> None:
        await self._play(click, {"type": "end_turn"})

    async def _play(
        self,
        click: Click,
        action: JSON | Callable[[Table, int], JSON],
        *,
        column: str | None = None,
        moving: bool = False,
    ) -> None:
        """Play a move, then show the player what happened and their next decision in the panel."""
        interaction = click.interaction

        async def answer(table: Table, events: list[Event]) -> None:
            seat = table.seat_of(interaction.user.id)
            assert seat is not None
            viewer = table.viewer(seat, language(interaction))
            lines = [
                line for event in events if event.visible_to(seat) if (line := self.describe(event, viewer))
            ]
            prompt, items = self._panel(table, seat, viewer, column=column, moving=moving)
            await self._show(interaction, "\n".join([*lines, prompt]), items)

        await click.service.act(interaction, click.game_id, action, answer)

    async def _choose(self, kind: str, click: Click) -> None:
        """Option ``values[0]`` of a ``kind`` select, if the game is still where the select was drawn."""
        version, index = click.number(0), click.chosen()

        def action(table: Table, seat: int) -> JSON:
            if table.row.version != version:
                raise GameError("error.out_of_date")
            choices = self._choices(table.game.view(seat), kind)
            if index >= len(choices):
                raise GameError("error.out_of_date")
            return {"type": kind, "option": choices[index]["id"]}

        await self._play(click, action, moving=kind == "move")


ADAPTER = SerieBumAdapter()


async def setup(bot: GameHost) -> None:
    bot.register(ADAPTER, game_group(bot, ADAPTER))
