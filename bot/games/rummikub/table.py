"""The table: the sets and the racks as pictures, the table message and each rack."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import discord

from bot.adapter import DrawnAt, GameAdapter, Rendered, Viewer
from bot.i18n import t
from bot.records import within_limit
from bot.render import HIGHLIGHT, MIN_FONT, MUTED, PICTURE_W, Canvas, picture
from games.core import JSON, Event
from games.rummikub import Rummikub
from games.rummikub.robot import RummikubRobot

# The pictures (issue 31), PICTURE_W wide: the sets in rows, each after its number; the rack in
# rows of RACK_ROW tiles.
TILE_W, TILE_H, TILE_GAP = 50, 54, 3
SET_GAP = 12
NUMBER_GAP = 4  # between a set's number and its first tile
MARGIN = 10
ROW_GAP = 8
LINE_H = 46  # a line of text
RACK_ROW = 10  # on a phone too: a rack's tiles are larger than the table's
RACK_W, RACK_H, RACK_FONT = 74, 94, 52
RACK_BACKGROUND = (92, 60, 36)
TILE_FACE = (246, 240, 224)
TILE_EDGE = (120, 110, 90)
NUMBER_INK: dict[str, tuple[int, int, int]] = {
    "k": (30, 30, 30),
    "r": (200, 40, 40),
    "b": (35, 85, 200),
    "o": (225, 130, 10),
    "j": (120, 40, 160),
}
# The shape beside each colour (colour is never the only cue); the joker reads "J".
MARK_OF = {"k": "square", "r": "circle", "b": "diamond", "o": "triangle"}
SELECT_LIMIT = 25
FIELD_LIMIT = 1024  # characters in an embed field
# custom_id is at most 100 characters: "gm:<game>:play:" leaves room for about 20 tiles.
CUSTOM_ID_ROOM = 80


def tile_text(code: str) -> str:
    return "J" if code == "j" else code[1:]


class RummikubTable(GameAdapter):
    """What everyone sees, and each player's rack."""

    engine = Rummikub
    robot = RummikubRobot
    colour = discord.Colour.from_rgb(225, 130, 10)
    dm_closed_key = "rummikub.dm_closed"
    code_params = frozenset({"tile", "tiles"})
    embed_events = frozenset(
        {"rummikub.event.round_won", "rummikub.event.round_blocked", "rummikub.event.match_won"}
    )
    round_end_events = frozenset({"rummikub.event.round_won", "rummikub.event.round_blocked"})
    start_options: ClassVar[Mapping[str, str]] = {
        "rounds": "rummikub.cmd.option.rounds",
        "target": "rummikub.cmd.option.target",
        "hints": "rummikub.cmd.option.hints",
    }

    def settings(self, options: Mapping[str, int], language: str) -> list[str]:
        return [
            self.match_length(options, language),
            t(
                language,
                "rummikub.ui.option.hints_on" if options["hints"] else "rummikub.ui.option.hints_off",
            ),
        ]

    def label(self, code: str, viewer: Viewer) -> str:
        if code == "j":
            return viewer.t("rummikub.ui.joker")
        return viewer.t(f"rummikub.ui.colour.{code[0]}", number=code[1:])

    # ------------------------------------------------------------------ drawing

    @staticmethod
    def _tile(
        canvas: Canvas,
        left: int,
        top: int,
        code: str,
        size: tuple[int, int, int] = (TILE_W, TILE_H, MIN_FONT),
    ) -> None:
        width, height, font_size = size
        box = (left, top, left + width, top + height)
        ink, mark = NUMBER_INK[code[0]], MARK_OF.get(code[0], "")
        canvas.face(box, tile_text(code), code, TILE_FACE, ink, TILE_EDGE, label_size=font_size, mark=mark)

    @staticmethod
    def _set_rows(canvas: Canvas, table: Sequence[Sequence[str]]) -> list[tuple[int, int, int]]:
        """Each set's (index, left, row), its number at left: sets side by side, wrapping at the
        picture's width."""
        placed: list[tuple[int, int, int]] = []
        left, row = MARGIN, 0
        for index, tiles in enumerate(table):
            number = canvas.text_length(str(index + 1), MIN_FONT) + NUMBER_GAP
            width = int(number) + len(tiles) * (TILE_W + TILE_GAP) - TILE_GAP
            if left > MARGIN and left + width > PICTURE_W - MARGIN:
                left, row = MARGIN, row + 1
            placed.append((index, left, row))
            left += width + SET_GAP
        return placed

    def table_image(self, view: JSON, viewer: Viewer) -> Canvas:
        """The sets; the round, the pool and the racks' counts are the message's text."""
        placed = self._set_rows(Canvas(1, 1), view["table"])
        rows = 1 + max((row for _, _, row in placed), default=0)
        pitch = TILE_H + ROW_GAP
        empty = (
            []
            if view["table"]
            else Canvas(1, 1).wrapped(viewer.t("rummikub.ui.empty_table"), MIN_FONT, PICTURE_W - 2 * MARGIN)
        )
        canvas = Canvas(PICTURE_W, 2 * MARGIN + max(rows * pitch - ROW_GAP, len(empty) * LINE_H))
        for line, text in enumerate(empty):
            canvas.text((MARGIN, MARGIN + line * LINE_H), text, MIN_FONT, MUTED)
        changed = set(view["changed_sets"])
        for index, left, row in placed:
            tiles = view["table"][index]
            top = MARGIN + row * pitch
            number = str(index + 1)
            first = left + int(canvas.text_length(number, MIN_FONT)) + NUMBER_GAP
            if index in changed:  # just played: a ring around it and its number
                right = first + len(tiles) * (TILE_W + TILE_GAP) - TILE_GAP
                ring = (left - 5, top - 5, right + 4, top + TILE_H + 4)
                canvas.rounded_rectangle(ring, radius=8, outline=HIGHLIGHT, width=3)
            colour = HIGHLIGHT if index in changed else MUTED
            canvas.text((left, top + TILE_H / 2), number, MIN_FONT, colour, anchor="lm")
            for position, code in enumerate(tiles):
                self._tile(canvas, first + position * (TILE_W + TILE_GAP), top, code)
        return canvas

    def rack_image(self, rack: Sequence[str], viewer: Viewer) -> Canvas:
        rows = max(1, -(-len(rack) // RACK_ROW))
        pitch = RACK_H + 8
        canvas = Canvas(PICTURE_W, 2 * MARGIN + rows * pitch - 8, background=RACK_BACKGROUND)
        for index, code in enumerate(rack):
            row, column = divmod(index, RACK_ROW)
            left, top = 2 * MARGIN + column * (RACK_W + 4), MARGIN + row * pitch
            self._tile(canvas, left, top, code, (RACK_W, RACK_H, RACK_FONT))
        return canvas

    # ------------------------------------------------------------------ messages

    def table(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
        embed = discord.Embed(title=viewer.t("rummikub.ui.title", round=view["round"]), colour=self.colour)
        if view["turn"] is not None:
            embed.description = viewer.t("rummikub.ui.turn", seat=viewer.name(view["turn"]))
        elif view["winner"] is not None:
            embed.description = viewer.t("rummikub.ui.won", seat=viewer.name(view["winner"]))
        for seat in range(view["players"]):
            if view["active"][seat]:
                marker = " ⏳" if seat == view["turn"] else ""
                embed.add_field(
                    name=f"{viewer.name(seat)}{marker}",
                    value=viewer.t(
                        "rummikub.ui.seat",
                        tiles=view["racks"][seat],
                        points=view["totals"][seat],
                        melded="✅" if view["melded"][seat] else "—",
                    ),
                )
        sets = [f"**{i + 1}**: {self.labels(s, viewer)}" for i, s in enumerate(view["table"])]
        if sets:
            embed.add_field(
                name=viewer.t("rummikub.ui.sets"), value=within_limit(sets, "\n", FIELD_LIMIT), inline=False
            )
        # The shape each colour has on the tiles (colour is never the only cue).
        footer = viewer.t("rummikub.ui.footer", pool=view["pool"], sets=len(view["table"]))
        embed.set_footer(text=f"{footer}\n{viewer.t('rummikub.ui.marks')}")
        embed.set_image(url="attachment://rummikub-table.png")
        items: list[discord.ui.Item[Any]] = [
            at.button("hand", viewer.t("rummikub.ui.button.rack"), emoji="🎴"),
            at.button(
                "choose",
                viewer.t("rummikub.ui.button.play"),
                style=discord.ButtonStyle.primary,
                emoji="✅",
            ),
            at.button("draw", viewer.t("rummikub.ui.button.draw"), emoji="🎲"),
        ]
        alt = "\n".join(sets) or viewer.t("rummikub.ui.empty_table")
        table = picture("rummikub-table.png", self.table_image, view, viewer, alt_text=alt.replace("**", ""))
        return Rendered([embed], table, items)

    def hand(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
        rack = view.get("rack", [])
        embed = discord.Embed(
            title=viewer.t("rummikub.ui.rack_title", round=view["round"]),
            description=self.labels(rack, viewer) or viewer.t("rummikub.ui.rack_empty"),
            colour=self.colour,
        )
        embed.add_field(name=viewer.t("rummikub.ui.rack_value_name"), value=str(view.get("rack_value", 0)))
        if not view["melded"][view["me"]]:
            embed.add_field(
                name=viewer.t("rummikub.ui.initial_meld_name"), value=viewer.t("rummikub.ui.initial_meld")
            )
        embed.set_image(url="attachment://rummikub-rack.png")
        alt = self.labels(rack, viewer) or viewer.t("rummikub.ui.rack_empty")
        return Rendered([embed], picture("rummikub-rack.png", self.rack_image, rack, viewer, alt_text=alt))

    def results(self, event: Event, viewer: Viewer) -> discord.Embed | None:
        if event.key in ("rummikub.event.round_won", "rummikub.event.round_blocked"):
            points, totals = event.params["points"], event.params["totals"]
            embed = discord.Embed(
                title=viewer.t(event.key, **self.event_params(event, viewer)), colour=self.colour
            )
            order = sorted(range(len(points)), key=lambda seat: -points[seat])
            embed.description = "\n".join(
                viewer.t("rummikub.ui.result_line", seat=viewer.name(s), points=points[s], total=totals[s])
                for s in order
            )
            return embed
        if event.key == "rummikub.event.match_won":
            title = viewer.t("rummikub.ui.match_title", seat=viewer.name(event.params["seat"]))
            return self.match_results(title, viewer, event.params["totals"])
        return None
