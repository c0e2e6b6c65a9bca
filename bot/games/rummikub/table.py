"""The table: the sets and the racks as pictures, the table message and each rack."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import discord

from bot.adapter import GameAdapter, Rendered, Viewer, game_button
from bot.i18n import t
from bot.records import within_limit
from bot.render import HIGHLIGHT, MUTED, Canvas, picture
from games.core import JSON, Event
from games.rummikub import Rummikub
from games.rummikub.robot import RummikubRobot

TILE_W, TILE_H, TILE_GAP = 40, 56, 4
SET_GAP = 22
TABLE_WIDTH = 1000
TILE_FACE = (246, 240, 224)
NUMBER_INK: dict[str, tuple[int, int, int]] = {
    "k": (30, 30, 30),
    "r": (200, 40, 40),
    "b": (35, 85, 200),
    "o": (225, 130, 10),
    "j": (120, 40, 160),
}
SELECT_LIMIT = 25
FIELD_LIMIT = 1024  # characters in an embed field
# custom_id is at most 100 characters: "gm:<game>:play:" leaves room for about 20 tiles.
CUSTOM_ID_ROOM = 80


def tile_text(code: str) -> str:
    return "J" if code == "j" else code[1:]


class TableSide(GameAdapter):
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

    def _tile(
        self, canvas: Canvas, left: int, top: int, code: str, outline: tuple[int, int, int] | None = None
    ) -> None:
        box = (left, top, left + TILE_W, top + TILE_H)
        canvas.face(
            box, tile_text(code), code, TILE_FACE, NUMBER_INK[code[0]], outline=outline or (120, 110, 90)
        )

    def table_image(self, view: JSON, viewer: Viewer) -> Canvas:
        changed = set(view["changed_sets"])
        placed: list[tuple[int, int, int]] = []  # (set index, left, top)
        left, top = 20, 70
        for index, tiles in enumerate(view["table"]):
            width = len(tiles) * (TILE_W + TILE_GAP)
            if left + width > TABLE_WIDTH - 20:
                left, top = 20, top + TILE_H + 40
            placed.append((index, left, top))
            left += width + SET_GAP
        canvas = Canvas(TABLE_WIDTH, max(top + TILE_H + 40, 160))
        canvas.text((20, 16), viewer.t("rummikub.ui.heading", round=view["round"], pool=view["pool"]), 28)
        if not view["table"]:
            canvas.text((20, 80), viewer.t("rummikub.ui.empty_table"), 20, MUTED)
        for index, left, top in placed:
            tiles = view["table"][index]
            if index in changed:
                right = left + len(tiles) * (TILE_W + TILE_GAP) - TILE_GAP
                canvas.rounded_rectangle(
                    (left - 6, top - 6, right + 6, top + TILE_H + 6), radius=8, outline=HIGHLIGHT, width=3
                )
            colour = HIGHLIGHT if index in changed else MUTED
            canvas.text((left, top + TILE_H + 8), str(index + 1), 16, colour)
            for position, code in enumerate(tiles):
                self._tile(canvas, left + position * (TILE_W + TILE_GAP), top, code)
        return canvas

    def rack_image(self, rack: Sequence[str], viewer: Viewer) -> Canvas:
        per_row = 14
        rows = max(1, -(-len(rack) // per_row))
        canvas = Canvas(
            40 + per_row * (TILE_W + TILE_GAP), 30 + rows * (TILE_H + 16), background=(92, 60, 36)
        )
        for index, code in enumerate(rack):
            row, column = divmod(index, per_row)
            self._tile(canvas, 20 + column * (TILE_W + TILE_GAP), 15 + row * (TILE_H + 16), code)
        return canvas

    # ------------------------------------------------------------------ messages

    def table(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
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
        embed.set_footer(text=viewer.t("rummikub.ui.footer", pool=view["pool"], sets=len(view["table"])))
        embed.set_image(url="attachment://rummikub-table.png")
        items: list[discord.ui.Item[Any]] = [
            game_button(game_id, "hand", viewer.t("rummikub.ui.button.rack"), emoji="🎴"),
            game_button(
                game_id,
                "choose",
                viewer.t("rummikub.ui.button.play"),
                style=discord.ButtonStyle.primary,
                emoji="✅",
            ),
            game_button(game_id, "draw", viewer.t("rummikub.ui.button.draw"), emoji="🎲"),
        ]
        return Rendered([embed], picture("rummikub-table.png", self.table_image, view, viewer), items)

    def hand(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
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
        return Rendered([embed], picture("rummikub-rack.png", self.rack_image, rack, viewer))

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
