"""The table: the board and the series of every player as a picture, the table message, the
hand, and the words of the events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import discord

from bot.adapter import GameAdapter, Rendered, Viewer, game_button
from bot.games.seriebum.text import (
    PANEL_BUTTONS,
    SILENT_EVENTS,
    SPECIAL_WORDS,
    actions_of,
    seat_deciding,
    tile_label,
    tiles_text,
)
from bot.render import FELT_DARK, HIGHLIGHT, INK, MUTED, Canvas, picture
from bot.tables import truncate
from games.core import JSON, Event
from games.seriebum import SerieBum
from games.seriebum.engine import FLIP, REARRANGE
from games.seriebum.robot import SerieBumRobot
from games.seriebum.tiles import BUM, COLUMNS, JOLLY, NUMBER, ROWS, RUBA, TILE_ID, TILES

Colour = tuple[int, int, int]

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


class TableSide(GameAdapter):
    """What everyone sees: the board, the series, the table message; and each hand."""

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
