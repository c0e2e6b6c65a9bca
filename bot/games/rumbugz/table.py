"""The table: the adapter's events and settings, the picture of the sequences and piles, the
table message and its buttons."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import discord

from bot.adapter import GameAdapter, Rendered, Viewer, game_button
from bot.games.rumbugz.steps import PHASE_STEPS, STEPS
from bot.games.rumbugz.text import bug_text, entries_text, kind_name, table_entries
from bot.i18n import t
from bot.render import FELT_DARK, HIGHLIGHT, INK, MUTED, Canvas, picture
from games.core import JSON, Event
from games.rumbugz import RumBugz
from games.rumbugz.bugz import KINDS, NUMBER_OF, is_plyt
from games.rumbugz.robot import RumBugzRobot

# Drawing: Bugz as tiles, numbered ones cream, PLYTs purple with the number they stand for.
TILE_W, TILE_H, TILE_GAP = 46, 62, 4
HAND_TILE_W, HAND_TILE_H, HAND_PER_ROW = 70, 90, 10
SEQUENCE_GAP = 26
# A change to a sequence, and its line when it only adds Bugz.
CHANGED = "rumbugz.event.changed"
CHANGED_ADDING = "rumbugz.ui.changed_adding"
IMAGE_W = 1000
MARGIN = 20
NUMBER_FACE, NUMBER_INK = (250, 244, 228), (36, 64, 44)
PLYT_FACE, PLYT_INK = (126, 70, 180), (255, 255, 255)
KIND_DONE, KIND_DONE_INK = (96, 196, 124), (16, 40, 24)
HAND_BACKGROUND = (44, 58, 48)


class TableSide(GameAdapter):
    """What everyone sees: the table message, its picture and its buttons."""

    engine = RumBugz
    robot = RumBugzRobot
    colour = discord.Colour.from_rgb(96, 168, 72)
    code_params = frozenset({"bug", "bugz", "added", "removed"})
    embed_events = frozenset({"rumbugz.event.match_won"})
    round_end_events = frozenset({"rumbugz.event.round_won"})
    dm_closed_key = "rumbugz.dm_closed"
    start_options: ClassVar[Mapping[str, str]] = {
        "rounds": "rumbugz.cmd.option.rounds",
        "target": "rumbugz.cmd.option.target",
        "plyt_value": "rumbugz.cmd.option.plyt_value",
    }

    def settings(self, options: Mapping[str, int], language: str) -> list[str]:
        return [
            self.match_length(options, language),
            t(language, "rumbugz.ui.option.plyt_value", points=options["plyt_value"]),
            t(language, "rumbugz.ui.option.refills", refills=options["refills"]),
        ]

    def label(self, code: str, viewer: Viewer) -> str:
        return bug_text(code, viewer)

    def event_params(self, event: Event, viewer: Viewer) -> dict[str, Any]:
        params = super().event_params(event, viewer)
        if "values" in event.params:
            params["values"] = entries_text(
                zip(event.params["bugz"], event.params["values"], strict=True), viewer
            )
        return params

    def describe(self, event: Event, viewer: Viewer) -> str | None:
        if event.key == CHANGED and event.params.get("removed") == []:
            # A change that only adds says so, rather than "takes off nothing".
            return viewer.t(CHANGED_ADDING, **self.event_params(event, viewer))
        return super().describe(event, viewer)

    def results(self, event: Event, viewer: Viewer) -> discord.Embed | None:
        if event.key != "rumbugz.event.match_won":
            return None
        return self.match_results("🏆 " + viewer.t(event.key, **self.event_params(event, viewer)), viewer)

    # ------------------------------------------------------------------ drawing

    @staticmethod
    def _tile(canvas: Canvas, box: tuple[int, int, int, int], code: str, value: int | None = None) -> None:
        if is_plyt(code):
            label = "PLYT" if value is None else str(value)
            canvas.face(box, label, code, PLYT_FACE, PLYT_INK, corner="" if value is None else "PLYT")
        else:
            canvas.face(box, str(NUMBER_OF[code]), code, NUMBER_FACE, NUMBER_INK, outline=(150, 140, 110))

    @staticmethod
    def _sequence_width(sequence: Mapping[str, Any]) -> int:
        return max(len(sequence["bugz"]) * (TILE_W + TILE_GAP) - TILE_GAP, 90)

    def _layout(self, sequences: Sequence[Mapping[str, Any]]) -> list[tuple[Mapping[str, Any], int, int]]:
        """Each sequence with its (left, line) in a player's band, wrapping at the image's width."""
        placed: list[tuple[Mapping[str, Any], int, int]] = []
        left, line = MARGIN + 12, 0
        for sequence in sequences:
            width = self._sequence_width(sequence)
            if left + width > IMAGE_W - MARGIN - 12 and left > MARGIN + 12:
                left, line = MARGIN + 12, line + 1
            placed.append((sequence, left, line))
            left += width + SEQUENCE_GAP
        return placed

    def _kind_badges(self, canvas: Canvas, view: JSON, seat: int, top: int, viewer: Viewer) -> None:
        right = IMAGE_W - MARGIN - 12
        for kind in reversed(KINDS):
            text = kind_name(kind, viewer)
            width = int(canvas.text_length(text, 15)) + 20
            box = (right - width, top, right, top + 26)
            if kind in view["completed"][seat]:
                canvas.rounded_rectangle(box, radius=13, fill=KIND_DONE)
                canvas.text((box[0] + width / 2, top + 13), text, 15, KIND_DONE_INK, anchor="mm")
            else:
                canvas.rounded_rectangle(box, radius=13, outline=MUTED, width=2)
                canvas.text((box[0] + width / 2, top + 13), text, 15, MUTED, anchor="mm")
            right -= width + 8

    def table_image(self, view: JSON, viewer: Viewer) -> Canvas:
        seats = [seat for seat in range(view["players"]) if not view["removed"][seat]]
        line_height = 22 + TILE_H + 12
        bands: list[tuple[int, list[tuple[Mapping[str, Any], int, int]], int]] = []
        top = 112
        for seat in seats:
            placed = self._layout([s for s in view["table"] if s["owner"] == seat])
            lines = 1 + max(line for _, _, line in placed) if placed else 0
            height = 48 + lines * line_height if placed else 80
            bands.append((seat, placed, top))
            top += height + 12
        canvas = Canvas(IMAGE_W, top + 8)
        canvas.text((MARGIN, 36), self._title(view, viewer), 30)
        self._draw_piles(canvas, view, viewer)
        for index, (seat, placed, band_top) in enumerate(bands):
            band_bottom = bands[index + 1][2] - 12 if index + 1 < len(bands) else top - 4
            turn = seat == view["turn"] and not view["finished"]
            canvas.rounded_rectangle(
                (MARGIN, band_top, IMAGE_W - MARGIN, band_bottom),
                radius=12,
                fill=FELT_DARK,
                outline=HIGHLIGHT if turn else None,
                width=3,
            )
            canvas.text((MARGIN + 12, band_top + 10), viewer.name(seat)[:18], 24, HIGHLIGHT if turn else INK)
            canvas.text(
                (MARGIN + 300, band_top + 15),
                viewer.t(
                    "rumbugz.ui.image.seat", points=view["totals"][seat], count=view["hand_counts"][seat]
                ),
                16,
                MUTED,
            )
            self._kind_badges(canvas, view, seat, band_top + 10, viewer)
            if not placed:
                canvas.text((MARGIN + 12, band_top + 54), viewer.t("rumbugz.ui.image.no_sequence"), 16, MUTED)
            for sequence, left, line in placed:
                y = band_top + 46 + line * line_height
                caption = viewer.t(
                    "rumbugz.ui.image.sequence",
                    sequence=sequence["id"],
                    kind=kind_name(sequence["kind"], viewer),
                )
                canvas.text((left, y), caption, 15, MUTED)
                for position, (code, value) in enumerate(table_entries(sequence)):
                    x = left + position * (TILE_W + TILE_GAP)
                    self._tile(canvas, (x, y + 20, x + TILE_W, y + 20 + TILE_H), code, value)
        return canvas

    def _draw_piles(self, canvas: Canvas, view: JSON, viewer: Viewer) -> None:
        """The bag (face down, with its count) and the top of the discard pile, top right."""
        right = IMAGE_W - MARGIN
        discard_box = (right - TILE_W - 40, 34, right - 40, 34 + TILE_H)
        bag_box = (right - 2 * TILE_W - 130, 34, right - TILE_W - 130, 34 + TILE_H)
        canvas.text(
            ((bag_box[0] + bag_box[2]) / 2, 16),
            viewer.t("rumbugz.ui.image.bag", count=view["bag_count"]),
            15,
            MUTED,
            anchor="ma",
        )
        canvas.back(bag_box)
        canvas.text(
            ((discard_box[0] + discard_box[2]) / 2, 16),
            viewer.t("rumbugz.ui.image.discard", count=view["discard_count"]),
            15,
            MUTED,
            anchor="ma",
        )
        if view["discard_top"]:
            self._tile(canvas, discard_box, view["discard_top"])
        else:
            canvas.rounded_rectangle(discard_box, radius=6, outline=MUTED, width=2)

    @staticmethod
    def _title(view: JSON, viewer: Viewer) -> str:
        options = view["options"]
        if options["target"]:
            return viewer.t("rumbugz.ui.title_target", round=view["round"], target=options["target"])
        return viewer.t("rumbugz.ui.title_rounds", round=view["round"], rounds=options["rounds"])

    @staticmethod
    def _status(view: JSON, viewer: Viewer) -> str:
        if view["finished"]:
            if view["winner"] is None:
                return viewer.t("rumbugz.ui.status.no_result")
            return viewer.t("rumbugz.ui.status.won", name=viewer.name(view["winner"]))
        turn, phase = view["turn"], view["phase"]
        if phase == "play" and len(view["completed"][turn]) == len(KINDS):
            phase = "final"
        return viewer.t(f"rumbugz.ui.status.{phase}", name=viewer.name(turn))

    def _bid_lines(self, view: JSON, viewer: Viewer) -> list[str]:
        bids = view["bids"]
        if bids is None or view["discard_top"] is None:
            return []
        lines = [
            viewer.t(
                "rumbugz.ui.bids_open",
                bug=bug_text(view["discard_top"], viewer),
                name=viewer.name(view["turn"]),
                eligible=", ".join(viewer.name(seat) for seat in bids["eligible"]),
            )
        ]
        if bids["bidders"]:
            lines.append(
                viewer.t("rumbugz.ui.bidders", names=", ".join(viewer.name(seat) for seat in bids["bidders"]))
            )
        return lines

    def table(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        lines = [self._status(view, viewer), *self._bid_lines(view, viewer)]
        last = view["last_round"]
        if last is not None:
            names = ", ".join(viewer.name(seat) for seat in last["winners"])
            lines.append(
                viewer.t("rumbugz.ui.last_round", round=last["round"], names=names, points=last["points"])
            )
        embed = discord.Embed(
            title=self._title(view, viewer), description="\n".join(lines), colour=self.colour
        )
        bidders = view["bids"]["bidders"] if view["bids"] else []
        for seat in range(view["players"]):
            if view["removed"][seat]:
                continue
            marker = " ⏳" if seat == view["turn"] and not view["finished"] else ""
            marker += " 🙋" if seat in bidders else ""
            done = view["completed"][seat]
            kinds = ", ".join(kind_name(kind, viewer) for kind in done) or viewer.t("rumbugz.ui.none")
            embed.add_field(
                name=f"{viewer.name(seat)}{marker}",
                value=viewer.t(
                    "rumbugz.ui.seat", points=view["totals"][seat], count=view["hand_counts"][seat]
                )
                + "\n"
                + viewer.t("rumbugz.ui.kinds", count=len(done), kinds=kinds),
            )
        top = view["discard_top"]
        embed.set_footer(
            text=viewer.t(
                "rumbugz.ui.footer",
                bag=view["bag_count"],
                refills=view["refills_left"],
                discard=viewer.t(
                    "rumbugz.ui.discard_pile", bug=bug_text(top, viewer), count=view["discard_count"]
                )
                if top
                else viewer.t("rumbugz.ui.discard_pile_empty"),
            )
        )
        embed.set_image(url="attachment://rumbugz-table.png")
        return Rendered(
            [embed],
            picture("rumbugz-table.png", self.table_image, view, viewer),
            self._table_buttons(view, viewer, game_id),
        )

    def _table_buttons(self, view: JSON, viewer: Viewer, game_id: int) -> list[discord.ui.Item[Any]]:
        """Everyone sees the same buttons: the step the turn is at, and Bid while bids are open."""
        moves = list(PHASE_STEPS[view["phase"]])
        bids = view["bids"]
        if bids is not None and set(bids["eligible"]) - set(bids["bidders"] + bids["declined"]):
            moves.append("bid")
        hand = game_button(game_id, "hand", viewer.t("rumbugz.ui.button.hand"), emoji="🃏", row=0)
        return [hand, *self._step_buttons(moves, view, viewer, game_id)]

    @staticmethod
    def _step_buttons(
        moves: Iterable[str], view: JSON, viewer: Viewer, game_id: int
    ) -> list[discord.ui.Item[Any]]:
        top = view["discard_top"]
        buttons: list[discord.ui.Item[Any]] = []
        # Whether a player has laid a sequence is public: one who has none has nothing to change.
        nothing_laid = view["turn"] is not None and not view["completed"][view["turn"]]
        for move in moves:
            if move == "change" and nothing_laid:
                continue
            step = STEPS[move]
            label = viewer.t(step.label)
            if step.label_with_top and top:
                label = viewer.t(step.label_with_top, bug=bug_text(top, viewer))
            buttons.append(
                game_button(
                    game_id,
                    move,
                    label,
                    style=step.style,
                    emoji=step.emoji,
                    row=1 if move == "bid" else 0,
                    disabled=move == "pile" and top is None,
                )
            )
        return buttons
