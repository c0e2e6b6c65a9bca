"""The table: the board and the series of every player as a picture, the table message, the
hand, and the words of the events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import discord

from bot.adapter import DrawnAt, GameAdapter, Rendered, Viewer
from bot.games.seriebum.text import (
    PANEL_BUTTONS,
    SILENT_EVENTS,
    SPECIAL_WORDS,
    TILE_MARKS,
    actions_of,
    seat_deciding,
    tile_label,
    tiles_text,
)
from bot.render import FELT_DARK, HIGHLIGHT, INK, MIN_FONT, MUTED, PICTURE_H, PICTURE_W, Canvas, picture
from bot.replies import truncate
from games.core import JSON, Event
from games.seriebum import SerieBum
from games.seriebum.engine import FLIP, REARRANGE
from games.seriebum.robot import SerieBumRobot
from games.seriebum.tiles import BUM, COLUMNS, JOLLY, NUMBER, RUBA, TILE_ID, TILES

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

# The picture (issue 31), PICTURE_W x PICTURE_H at the least: the grid on the left, with its
# column letters above and row numbers beside it; each player's name and series on the right.
LABEL_W, LABEL_H = 26, 44
TILE_W, TILE_H, TILE_GAP_X, TILE_GAP_Y = 58, 90, 6, 11
GRID_LEFT, GRID_TOP = LABEL_W + 4, LABEL_H
SEEN_INSET = 5  # a remembered tile: its face inside its back
RING = 4  # the ring around a tile face up now
SERIES_LEFT = GRID_LEFT + len(COLUMNS) * (TILE_W + TILE_GAP_X) + 2
SERIES_RIGHT = PICTURE_W - 4
SMALL_W, SMALL_H = 51, 60  # a series' tiles, side by side
SERIES_GAP = 14
SERIES_LINE_H = SMALL_H + 6
PLAYER_HEADER_H = 48
PLAYER_GAP = 10
NAME_LENGTH = 12
# "B!", not "B": a cell's name on a back is a column's letter and a row's number.
SPECIAL_SHORT = {JOLLY: "J", RUBA: "R", BUM: "B!"}
STATE_WORDS = {"up": "face_up", "seen": "seen"}  # a tile in view: how the alt text says it is


class SerieBumTable(GameAdapter):
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
            mark = TILE_MARKS[tile.colour] if tile.colour else ""
            canvas.face(box, str(tile.value), code, fill, ink, label_size=MIN_FONT, mark=mark)
            return
        # A special says what it is in a word, or in short where the word does not fit.
        word = SPECIAL_WORDS[tile.kind]
        x0, _, x1, _ = box
        if canvas.text_length(word, MIN_FONT) > x1 - x0 - 6:
            word = SPECIAL_SHORT[tile.kind]
        canvas.face(box, word, code, fill, ink, label_size=MIN_FONT)

    def _draw_seen(self, canvas: Canvas, box: tuple[int, int, int, int], code: str) -> None:
        """A tile covered again but still remembered: its back, with the face showing through."""
        canvas.back(box)
        x0, y0, x1, y1 = box
        self._draw_tile(canvas, (x0 + SEEN_INSET, y0 + SEEN_INSET, x1 - SEEN_INSET, y1 - SEEN_INSET), code)

    def _draw_board(self, canvas: Canvas, view: JSON) -> None:
        for index, column in enumerate(view["columns"]):
            x = GRID_LEFT + index * (TILE_W + TILE_GAP_X) + TILE_W // 2
            canvas.text((x, LABEL_H - 8), column, MIN_FONT, MUTED, anchor="ms")
        for row in range(view["rows"]):
            y = GRID_TOP + row * (TILE_H + TILE_GAP_Y) + TILE_H // 2
            canvas.text((LABEL_W // 2 + 2, y), str(row + 1), MIN_FONT, MUTED, anchor="mm")
        columns = len(view["columns"])
        for index, cell in enumerate(view["cells"]):
            row, column = divmod(index, columns)
            left = GRID_LEFT + column * (TILE_W + TILE_GAP_X)
            top = GRID_TOP + row * (TILE_H + TILE_GAP_Y)
            box = (left, top, left + TILE_W, top + TILE_H)
            state, tile = cell["state"], cell["tile"]
            if state == "empty":
                canvas.rounded_rectangle(box, radius=10, outline=FELT_DARK, width=3)
                continue
            if state == "up":
                ring = (left - RING, top - RING, left + TILE_W + RING, top + TILE_H + RING)
                canvas.rounded_rectangle(ring, radius=12, outline=HIGHLIGHT, width=RING)
            if tile is None:
                canvas.back(box, cell["cell"], MIN_FONT)
            elif state == "seen":
                self._draw_seen(canvas, box, tile)
            else:
                self._draw_tile(canvas, box, tile)

    @staticmethod
    def _series_layout(player: JSON) -> list[tuple[str, int, int]]:
        """Each tile of a player's series with its (left, line): series side by side, a series
        that does not fit on a line starting the next, and one longer than a line cut in even
        parts (a run of seven: four, then three)."""
        per_line = (SERIES_RIGHT - SERIES_LEFT) // SMALL_W
        placed: list[tuple[str, int, int]] = []
        left, line = SERIES_LEFT, 0
        for series in player["series"]:
            tiles = series["tiles"]
            if left > SERIES_LEFT and left + len(tiles) * SMALL_W > SERIES_RIGHT:
                left, line = SERIES_LEFT, line + 1
            part = -(-len(tiles) // -(-len(tiles) // per_line))
            for index, code in enumerate(tiles):
                if index and index % part == 0:
                    left, line = SERIES_LEFT, line + 1
                placed.append((code, left, line))
                left += SMALL_W
            left += SERIES_GAP
        return placed

    def _player_height(self, player: JSON) -> int:
        placed = self._series_layout(player)
        lines = 1 + max(line for _, _, line in placed) if placed else 0
        return PLAYER_HEADER_H + lines * SERIES_LINE_H + PLAYER_GAP

    def _draw_player(self, canvas: Canvas, view: JSON, viewer: Viewer, seat: int, top: int) -> None:
        player = view["players"][seat]
        # Whose turn it is: a pointer and a colour.
        deciding = seat == seat_deciding(view)
        name = ("▶ " if deciding else "") + viewer.name(seat)[:NAME_LENGTH]
        canvas.text((SERIES_LEFT, top + 4), name, MIN_FONT, HIGHLIGHT if deciding else INK)
        top += PLAYER_HEADER_H
        for code, left, line in self._series_layout(player):
            y = top + line * SERIES_LINE_H
            self._draw_tile(canvas, (left, y, left + SMALL_W, y + SMALL_H), code)

    def table_image(self, view: JSON, viewer: Viewer) -> Canvas:
        """The grid and the series; the counts, the scores and each series' points are the
        message's text (the picture keeps to what reads at the size Discord shows it)."""
        heights = [self._player_height(player) for player in view["players"]]
        grid_bottom = GRID_TOP + view["rows"] * (TILE_H + TILE_GAP_Y)
        canvas = Canvas(PICTURE_W, max(PICTURE_H, grid_bottom, 8 + sum(heights)))
        self._draw_board(canvas, view)
        top = 8
        for player, height in zip(view["players"], heights, strict=True):
            self._draw_player(canvas, view, viewer, player["seat"], top)
            top += height
            canvas.line(
                (SERIES_LEFT, top - PLAYER_GAP // 2, SERIES_RIGHT, top - PLAYER_GAP // 2), FELT_DARK, 3
            )
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

    def table(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
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
            picture(
                "seriebum-table.png", self.table_image, view, viewer, alt_text=self._table_alt(view, viewer)
            ),
            self._table_items(view, viewer, at),
        )

    def _table_alt(self, view: JSON, viewer: Viewer) -> str:
        """What the table's picture shows, in words: the tiles in view by their cells, then
        each player's series."""
        in_view = []
        for cell in view["cells"]:
            if cell["tile"] is not None:
                state = viewer.t(f"seriebum.image.{STATE_WORDS[cell['state']]}")
                in_view.append(f"{cell['cell']} {tile_label(cell['tile'], viewer)} ({state})")
        lines = [" · ".join(in_view)] if in_view else []
        for player in view["players"]:
            series = [
                f"{index + 1}. {tiles_text(series['tiles'], viewer)}"
                for index, series in enumerate(player["series"])
            ]
            lines.append(f"{viewer.name(player['seat'])}: " + (" · ".join(series) or "—"))
        return "\n".join(lines)

    def _table_items(self, view: JSON, viewer: Viewer, at: DrawnAt) -> list[discord.ui.Item[Any]]:
        if view["finished"]:
            return []
        key, emoji = PANEL_BUTTONS[view["phase"]]
        items: list[discord.ui.Item[Any]] = [
            at.button("panel", viewer.t(key), style=discord.ButtonStyle.primary, emoji=emoji)
        ]
        deciding = seat_deciding(view)
        if view["phase"] == FLIP and deciding is not None and "move" in actions_of(view, deciding):
            items.append(at.button("moves", viewer.t("seriebum.label.move"), emoji="🔀"))
        if view["phase"] == REARRANGE:
            items.append(self._end_turn_button(at, viewer))
        return items

    @staticmethod
    def _end_turn_button(at: DrawnAt, viewer: Viewer) -> discord.ui.Button[Any]:
        return at.button(
            "end_turn",
            viewer.t("seriebum.label.end_turn"),
            style=discord.ButtonStyle.success,
            emoji="⏭️",
        )

    def hand(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
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
            items.append(at.button("panel", viewer.t(key), style=discord.ButtonStyle.primary, emoji=emoji))
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
