"""The table: the adapter's events and settings, the picture of the sequences and piles, the
table message and its buttons."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import discord

from bot.adapter import DrawnAt, GameAdapter, Rendered, Viewer
from bot.games.rumbugz.steps import PHASE_STEPS, STEPS
from bot.games.rumbugz.text import bug_text, entries_text, kind_name, table_entries
from bot.i18n import t
from bot.render import FELT_DARK, HIGHLIGHT, INK, MIN_FONT, MUTED, PICTURE_W, Canvas, picture
from games.core import JSON, Event
from games.rumbugz import RumBugz
from games.rumbugz.bugz import KINDS, NUMBER_OF, is_plyt
from games.rumbugz.robot import RumBugzRobot

# Drawing: Bugz as tiles, numbered ones light (cream, dark ink), PLYTs dark (purple, white ink)
# and showing the number they stand for: told apart by lightness, which every eye sees, not by
# hue alone.
# The table's picture (issue 31), PICTURE_W wide: a band per player: their name, the kinds they
# completed (each kind's step: a filled badge when done, an outline when not) and their
# sequences, each after its number (the bag and the discard pile are the message's text, and
# the pile's top is on the button that takes it). A long
# sequence shows its first two Bugz, its PLYTs and its last, "…" between: the kind's step and
# its ends tell the rest.
TILE_W, TILE_H, TILE_GAP = 50, 50, 2
BADGE_W = 66  # a kind's badge ("=" is narrower)
BADGES_W = 4 * BADGE_W - 20 + 3 * 6 + 12
SEQUENCE_LINE_H = TILE_H + 4
SEQUENCE_GAP = 12
NUMBER_GAP = 2
BAND_GAP = 4
BAND_INSET = 3  # from a band's top to its first line
SHOWN_IN_FULL = 4  # a sequence this long or shorter shows every Bug
MARGIN = 8
NAME_LENGTH = 12
KIND_STEPS = {"simple": "+1", "double": "+2", "triple": "+3", "match": "="}
# The hand's picture: rows of large tiles, for a phone too.
HAND_TILE_W, HAND_TILE_H, HAND_PER_ROW, HAND_FONT = 104, 112, 7, 56
# A change to a sequence, and its line when it only adds Bugz.
CHANGED = "rumbugz.event.changed"
CHANGED_ADDING = "rumbugz.ui.changed_adding"
NUMBER_FACE, NUMBER_INK = (250, 244, 228), (36, 64, 44)
PLYT_FACE, PLYT_INK = (126, 70, 180), (255, 255, 255)
KIND_DONE, KIND_DONE_INK = (96, 196, 124), (16, 40, 24)
HAND_BACKGROUND = (44, 58, 48)
ELLIPSIS_W = 36
Placed = tuple[Mapping[str, Any], int, int]  # a sequence, its left and its line


class RumBugzTable(GameAdapter):
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
    def _tile(
        canvas: Canvas,
        box: tuple[int, int, int, int],
        code: str,
        value: int | None = None,
        size: int = MIN_FONT,
    ) -> None:
        if is_plyt(code):
            label = "PLYT" if value is None else str(value)
            canvas.face(box, label, code, PLYT_FACE, PLYT_INK, label_size=MIN_FONT)
        else:
            number = str(NUMBER_OF[code])
            canvas.face(box, number, code, NUMBER_FACE, NUMBER_INK, (150, 140, 110), label_size=size)

    @staticmethod
    def _shown(sequence: Mapping[str, Any]) -> list[tuple[str, int | None] | None]:
        """The Bugz a sequence shows, None where "…" stands for those between."""
        entries = table_entries(sequence)
        if len(entries) <= SHOWN_IN_FULL:
            return list(entries)
        shown: list[tuple[str, int | None] | None] = []
        for index, entry in enumerate(entries):
            if index < 2 or index == len(entries) - 1 or is_plyt(entry[0]):
                shown.append(entry)
            elif shown[-1] is not None:
                shown.append(None)
        return shown

    def _sequence_width(self, canvas: Canvas, sequence: Mapping[str, Any]) -> int:
        number = canvas.text_length(str(sequence["id"]), MIN_FONT) + NUMBER_GAP
        shown = self._shown(sequence)
        gaps = sum(entry is None for entry in shown)
        return int(number + (len(shown) - gaps) * (TILE_W + TILE_GAP) + gaps * ELLIPSIS_W)

    def _layout(self, canvas: Canvas, sequences: Sequence[Mapping[str, Any]], first: int) -> list[Placed]:
        """Each sequence with its (left, line) in a player's band: the first line starts at
        ``first`` (after the name) and ends before the kinds' badges, the next ones span the
        band; each sequence goes on the first line with room for it."""
        ends = [PICTURE_W - 2 * MARGIN - BADGES_W]
        cursors = [first]
        placed: list[Placed] = []
        for sequence in sequences:
            width = self._sequence_width(canvas, sequence)
            line = next((i for i, left in enumerate(cursors) if left + width <= ends[i]), None)
            if line is None:
                line = len(cursors)
                cursors.append(2 * MARGIN)
                ends.append(PICTURE_W - 2 * MARGIN)
            placed.append((sequence, cursors[line], line))
            cursors[line] += width + SEQUENCE_GAP
        return placed

    def _kind_badges(self, canvas: Canvas, view: JSON, seat: int, top: int) -> None:
        """The kinds in order, each as its step: filled when completed, an outline when not."""
        right = PICTURE_W - 2 * MARGIN
        for kind in reversed(KINDS):
            text = KIND_STEPS[kind]
            width = BADGE_W if len(text) > 1 else BADGE_W - 20
            box = (right - width, top, right, top + TILE_H)
            middle = (box[0] + width / 2, top + TILE_H / 2)
            if kind in view["completed"][seat]:
                canvas.rounded_rectangle(box, radius=10, fill=KIND_DONE)
                canvas.text(middle, text, MIN_FONT, KIND_DONE_INK, anchor="mm")
            else:
                canvas.rounded_rectangle(box, radius=10, outline=MUTED, width=2)
                canvas.text(middle, text, MIN_FONT, MUTED, anchor="mm")
            right -= width + 6

    def _draw_sequence(self, canvas: Canvas, sequence: Mapping[str, Any], left: int, top: int) -> None:
        number = str(sequence["id"])
        canvas.text((left, top + TILE_H / 2), number, MIN_FONT, MUTED, anchor="lm")
        x = left + int(canvas.text_length(number, MIN_FONT)) + NUMBER_GAP
        for entry in self._shown(sequence):
            if entry is None:
                canvas.text((x + ELLIPSIS_W / 2, top + TILE_H / 2), "…", MIN_FONT, INK, anchor="mm")
                x += ELLIPSIS_W
                continue
            code, value = entry
            self._tile(canvas, (x, top, x + TILE_W, top + TILE_H), code, value)
            x += TILE_W + TILE_GAP

    def table_image(self, view: JSON, viewer: Viewer) -> Canvas:
        """Each player's kinds and sequences; the round, the points, the hands' counts and the
        piles are the message's text."""
        seats = [seat for seat in range(view["players"]) if not view["removed"][seat]]
        measure = Canvas(1, 1)
        bands: list[tuple[int, list[Placed], int, int]] = []  # seat, sequences, top, height
        top = MARGIN
        for seat in seats:
            first = 2 * MARGIN + int(measure.text_length(self._name(seat, view, viewer), MIN_FONT)) + 16
            placed = self._layout(measure, [s for s in view["table"] if s["owner"] == seat], first)
            lines = 1 + max((line for _, _, line in placed), default=0)
            height = lines * SEQUENCE_LINE_H + BAND_INSET
            bands.append((seat, placed, top, height))
            top += height + BAND_GAP
        canvas = Canvas(PICTURE_W, top + MARGIN - BAND_GAP)
        for seat, placed, band_top, height in bands:
            # Whose turn it is: a ring, a pointer and a colour.
            turn = seat == view["turn"] and not view["finished"]
            canvas.rounded_rectangle(
                (MARGIN, band_top, PICTURE_W - MARGIN, band_top + height),
                radius=12,
                fill=FELT_DARK,
                outline=HIGHLIGHT if turn else None,
                width=3,
            )
            name = self._name(seat, view, viewer)
            canvas.text(
                (2 * MARGIN, band_top + BAND_INSET + TILE_H / 2),
                name,
                MIN_FONT,
                HIGHLIGHT if turn else INK,
                "lm",
            )
            self._kind_badges(canvas, view, seat, band_top + BAND_INSET)
            for sequence, left, line in placed:
                self._draw_sequence(canvas, sequence, left, band_top + BAND_INSET + line * SEQUENCE_LINE_H)
        return canvas

    @staticmethod
    def _name(seat: int, view: JSON, viewer: Viewer) -> str:
        """A player's name, after a pointer on their turn."""
        turn = seat == view["turn"] and not view["finished"]
        return ("▶ " if turn else "") + viewer.name(seat)[:NAME_LENGTH]

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

    def table(self, view: JSON, viewer: Viewer, at: DrawnAt) -> Rendered:
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
            picture(
                "rumbugz-table.png", self.table_image, view, viewer, alt_text=self._table_alt(view, viewer)
            ),
            self._table_buttons(view, viewer, at),
        )

    @staticmethod
    def _table_alt(view: JSON, viewer: Viewer) -> str:
        """What the table's picture shows, in words: each player's completed kinds and sequences
        (every Bug of them: the picture's "…" stands for Bugz its kind's step tells)."""
        lines = []
        for seat in range(view["players"]):
            if view["removed"][seat]:
                continue
            completed = view["completed"][seat]
            done = ", ".join(kind_name(kind, viewer) for kind in completed) or "—"
            lines.append(
                f"{viewer.name(seat)}: {viewer.t('rumbugz.ui.kinds', count=len(completed), kinds=done)}"
            )
            for sequence in view["table"]:
                if sequence["owner"] == seat:
                    caption = viewer.t(
                        "rumbugz.ui.image.sequence",
                        sequence=sequence["id"],
                        kind=kind_name(sequence["kind"], viewer),
                    )
                    lines.append(f"{caption}: {entries_text(table_entries(sequence), viewer)}")
        return "\n".join(lines)

    def _table_buttons(self, view: JSON, viewer: Viewer, at: DrawnAt) -> list[discord.ui.Item[Any]]:
        """Everyone sees the same buttons: the step the turn is at, and Bid while bids are open."""
        moves = list(PHASE_STEPS[view["phase"]])
        bids = view["bids"]
        if bids is not None and set(bids["eligible"]) - set(bids["bidders"] + bids["declined"]):
            moves.append("bid")
        hand = at.button("hand", viewer.t("rumbugz.ui.button.hand"), emoji="🃏", row=0)
        return [hand, *self._step_buttons(moves, view, viewer, at)]

    @staticmethod
    def _step_buttons(
        moves: Iterable[str], view: JSON, viewer: Viewer, at: DrawnAt
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
                at.button(
                    move,
                    label,
                    style=step.style,
                    emoji=step.emoji,
                    row=1 if move == "bid" else 0,
                    disabled=move == "pile" and top is None,
                )
            )
        return buttons
