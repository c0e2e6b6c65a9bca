"""RumBugz in Discord: the table as an image, hands in private, and one ephemeral panel per step.

A turn is played from the table's buttons: the two draw buttons, then Lay, Change or Discard,
each opening a private panel. A panel's custom_ids carry the partial choice (the Bugz picked,
the kind, the numbers named for PLYTs) and the game's version when the panel was drawn, so a
panel from an earlier position is refused. While a bid window is open, the table shows a Bid
button to everyone; the engine refuses whoever may not bid.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.adapter import (
    Click,
    GameAdapter,
    Rendered,
    Viewer,
    component_view,
    game_button,
    game_select,
    number,
)
from bot.commands import GameHost, game_group
from bot.i18n import t
from bot.render import FELT_DARK, HIGHLIGHT, INK, MUTED, Canvas, picture
from bot.replies import language, reply, show_panel
from bot.tables import truncate
from games.core import JSON, Event, GameError
from games.rumbugz import RumBugz
from games.rumbugz.bugz import (
    HIGHEST_NUMBER,
    KIND_STEPS,
    KINDS,
    LOWEST_NUMBER,
    NUMBER_OF,
    Entry,
    changed_sequence,
    check_sequence,
    entry_order,
    hand_order,
    is_plyt,
    one_of_each,
)
from games.rumbugz.robot import RumBugzRobot

if TYPE_CHECKING:
    from bot.tables import Table

# Drawing: Bugz as tiles, numbered ones cream, PLYTs purple with the number they stand for.
TILE_W, TILE_H, TILE_GAP = 46, 62, 4
HAND_TILE_W, HAND_TILE_H, HAND_PER_ROW = 70, 90, 10
SEQUENCE_GAP = 26
IMAGE_W = 1000
MARGIN = 20
NUMBER_FACE, NUMBER_INK = (250, 244, 228), (36, 64, 44)
PLYT_FACE, PLYT_INK = (126, 70, 180), (255, 255, 255)
KIND_DONE, KIND_DONE_INK = (96, 196, 124), (16, 40, 24)
HAND_BACKGROUND = (44, 58, 48)

# Discord: 25 options to a select, 5 rows to a message, 100 characters to a custom_id or a label.
OPTIONS_PER_SELECT = 25
ROWS = 5
CUSTOM_ID_LIMIT = 100
LABEL_LIMIT = 100
# A hand of more than 50 Bugz (playouts never went past about 30) offers its first 50 in menus.
HAND_MENUS = 2
# The longest sequence: 1 to 12 (or a match of eight copies and four PLYTs).
LONGEST_SEQUENCE = HIGHEST_NUMBER - LOWEST_NUMBER + 1

KIND_OF_LETTER = {kind[0]: kind for kind in KINDS}


@dataclass(frozen=True)
class Step:
    """A button for one step of a turn: the engine action it takes and how it looks.

    ``label_with_top`` names the discard's top Bug, when the step is about it.
    """

    action: str
    label: str
    emoji: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    label_with_top: str | None = None


# In the order a turn goes; the keys are the buttons' moves.
STEPS: dict[str, Step] = {
    "bag": Step("draw", "rumbugz.label.draw_bag", "🎲", discord.ButtonStyle.primary),
    "pile": Step("draw", "rumbugz.label.draw_discard", "♻️", label_with_top="rumbugz.ui.button.take"),
    "lay": Step("lay", "rumbugz.label.lay", "🧩", discord.ButtonStyle.primary),
    "change": Step("change", "rumbugz.label.change", "🔧"),
    "discard": Step("discard", "rumbugz.label.discard", "🗑️"),
    "bid": Step("bid", "rumbugz.label.bid", "🙋", discord.ButtonStyle.success, "rumbugz.ui.button.bid"),
}
# What the table offers everyone in each phase of the turn.
PHASE_STEPS = {"draw": ("bag", "pile"), "play": ("lay", "change", "discard"), "discard": ("discard",)}


# ---------------------------------------------------------------------- text


def bug_text(code: str, viewer: Viewer) -> str:
    """How a Bug in a hand reads: its number, or PLYT."""
    number = NUMBER_OF[code]
    return viewer.t("rumbugz.label.plyt") if number is None else str(number)


def entry_text(code: str, value: int | None, viewer: Viewer) -> str:
    """How a Bug in a sequence reads: a PLYT shows the number it stands for."""
    if is_plyt(code) and value is not None:
        return viewer.t("rumbugz.ui.plyt_as", value=value)
    return bug_text(code, viewer)


def entries_text(entries: Iterable[Entry], viewer: Viewer) -> str:
    return " · ".join(entry_text(code, value, viewer) for code, value in entries) or "—"


def bugz_text(codes: Iterable[str], viewer: Viewer) -> str:
    return " · ".join(bug_text(code, viewer) for code in codes) or "—"


def table_entries(sequence: Mapping[str, Any]) -> list[Entry]:
    return [(entry["bug"], entry["value"]) for entry in sequence["bugz"]]


def kind_name(kind: str, viewer: Viewer) -> str:
    return viewer.t(f"rumbugz.label.{kind}")


# ---------------------------------------------------------------------- PLYT numbers


def plyt_guesses(kind: str, known: Sequence[int], count: int) -> list[int]:
    """Numbers for ``count`` PLYTs completing ``known`` as a ``kind`` sequence: the gaps first,
    then the ends, upwards first. A starting guess the player can change in the panel."""
    if not count:
        return []
    if not known:
        return [LOWEST_NUMBER] * count
    step = KIND_STEPS[kind]
    if not step:
        return [known[0]] * count
    low, high = min(known), max(known)
    gaps = [value for value in range(low, high + 1, step) if value not in known]
    above = list(range(high + step, HIGHEST_NUMBER + 1, step))
    below = list(range(low - step, LOWEST_NUMBER - 1, -step))
    guesses = (gaps + above + below)[:count]
    # Too many PLYTs for one sequence: the check refuses it whatever they stand for.
    return guesses + [high] * (count - len(guesses))


# ---------------------------------------------------------------------- partial choices


def _malformed() -> GameError:
    return GameError("error.out_of_date")


@dataclass(frozen=True)
class Picks:
    """Bugz picked from a hand, with the numbers named for PLYTs; "7a,Pa5,12c" in a custom_id."""

    codes: tuple[str, ...] = ()
    named: Mapping[str, int] = field(default_factory=dict)

    def encode(self) -> str:
        return ",".join(code + (str(self.named[code]) if code in self.named else "") for code in self.codes)

    @classmethod
    def decode(cls, text: str) -> Picks:
        codes: list[str] = []
        named: dict[str, int] = {}
        for item in filter(None, text.split(",")):
            code, value = (item[:2], item[2:]) if item.startswith("P") else (item, "")
            if code not in NUMBER_OF:
                raise _malformed()
            codes.append(code)
            if value:
                named[code] = number(value)
        return cls(tuple(codes), named)

    @classmethod
    def of(cls, entries: Iterable[Mapping[str, Any]]) -> Picks:
        """From an engine action's entries (a suggestion)."""
        listed = list(entries)
        named = {entry["bug"]: entry["value"] for entry in listed if is_plyt(entry["bug"])}
        return cls(tuple(entry["bug"] for entry in listed), named)

    def choose(self, offered: Sequence[str], chosen: Iterable[str]) -> Picks:
        """The picks after a menu offering ``offered`` came back with ``chosen``."""
        kept = [code for code in self.codes if code not in offered]
        codes = tuple(sorted({*kept, *chosen}, key=hand_order))
        return Picks(codes, {code: value for code, value in self.named.items() if code in codes})

    def name(self, code: str, value: int) -> Picks:
        if code not in self.codes or not LOWEST_NUMBER <= value <= HIGHEST_NUMBER:
            raise _malformed()
        return Picks(self.codes, {**self.named, code: value})

    def entries(self, kind: str, around: Sequence[int] = ()) -> list[Entry]:
        """The picks as sequence entries of ``kind``: a PLYT not named yet gets a guess that fits
        ``around`` (the numbers already in the sequence) and the other picks."""
        numbers = {code: number for code in self.codes if (number := NUMBER_OF[code]) is not None}
        known = [*around, *numbers.values(), *self.named.values()]
        unnamed = [code for code in self.codes if is_plyt(code) and code not in self.named]
        guesses = dict(zip(unnamed, plyt_guesses(kind, known, len(unnamed)), strict=True))
        values = numbers | guesses | dict(self.named)
        return [(code, values[code]) for code in self.codes]


def action_entries(entries: Iterable[Entry]) -> list[JSON]:
    return [{"bug": code, "value": value} for code, value in entries]


@dataclass(frozen=True)
class LayDraft:
    """A lay being put together: "<version>.<kind letter>.<picks>"."""

    stamp: int
    kind: str | None = None
    picks: Picks = Picks()

    def encode(self) -> str:
        return f"{self.stamp}.{self.kind[0] if self.kind else ''}.{self.picks.encode()}"

    @classmethod
    def decode(cls, parts: Sequence[str]) -> LayDraft:
        if len(parts) < 3 or (parts[1] and parts[1] not in KIND_OF_LETTER):
            raise _malformed()
        return cls(number(parts[0]), KIND_OF_LETTER.get(parts[1]), Picks.decode(parts[2]))

    def entries(self) -> list[Entry]:
        return self.picks.entries(self.kind) if self.kind else []

    def action(self) -> JSON:
        return {"type": "lay", "kind": self.kind, "bugz": action_entries(self.entries())}


@dataclass(frozen=True)
class ChangeDraft:
    """A change being put together: "<version>.<sequence id>.<picks to add>.<codes taken off>"."""

    stamp: int
    sequence: int
    add: Picks = Picks()
    remove: tuple[str, ...] = ()

    def encode(self) -> str:
        return f"{self.stamp}.{self.sequence}.{self.add.encode()}.{','.join(self.remove)}"

    @classmethod
    def decode(cls, parts: Sequence[str]) -> ChangeDraft:
        if len(parts) < 4:
            raise _malformed()
        remove = tuple(filter(None, parts[3].split(",")))
        if any(code not in NUMBER_OF for code in remove):
            raise _malformed()
        return cls(number(parts[0]), number(parts[1]), Picks.decode(parts[2]), remove)

    def added(self, sequence: Mapping[str, Any]) -> list[Entry]:
        kept = [value for code, value in table_entries(sequence) if code not in self.remove]
        return self.add.entries(sequence["kind"], kept)

    def action(self, sequence: Mapping[str, Any]) -> JSON:
        return {
            "type": "change",
            "sequence": self.sequence,
            "add": action_entries(self.added(sequence)),
            "remove": list(self.remove),
        }


# ---------------------------------------------------------------------- the adapter


class RumBugzAdapter(GameAdapter):
    engine = RumBugz
    robot = RumBugzRobot
    colour = discord.Colour.from_rgb(96, 168, 72)
    code_params = frozenset({"bug", "bugz", "added", "removed"})
    embed_events = frozenset({"rumbugz.event.match_won"})
    round_end_events = frozenset({"rumbugz.event.round_won"})
    start_options: ClassVar[Mapping[str, str]] = {
        "rounds": "rumbugz.cmd.option.rounds",
        "target": "rumbugz.cmd.option.target",
        "plyt_value": "rumbugz.cmd.option.plyt_value",
    }

    def own_hand(self, view: JSON) -> object:
        return view.get("hand")

    def settings(self, options: Mapping[str, int], language: str) -> list[str]:
        length = (
            t(language, "rumbugz.ui.option.target", target=options["target"])
            if options["target"]
            else t(language, "rumbugz.ui.option.rounds", rounds=options["rounds"])
        )
        return [
            length,
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
        if event.params.get("removed") == []:
            params["removed"] = viewer.t("rumbugz.ui.nothing")
        return params

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

    def hand_image(self, codes: Sequence[str]) -> Canvas:
        rows = -(-len(codes) // HAND_PER_ROW)
        columns = min(len(codes), HAND_PER_ROW)
        canvas = Canvas(
            2 * MARGIN + columns * (HAND_TILE_W + 8) - 8,
            2 * MARGIN + rows * (HAND_TILE_H + 10) - 10,
            background=HAND_BACKGROUND,
        )
        for index, code in enumerate(codes):
            row, column = divmod(index, HAND_PER_ROW)
            left = MARGIN + column * (HAND_TILE_W + 8)
            top = MARGIN + row * (HAND_TILE_H + 10)
            self._tile(canvas, (left, top, left + HAND_TILE_W, top + HAND_TILE_H), code)
        return canvas

    # ------------------------------------------------------------------ messages

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
                discard=f"{bug_text(top, viewer)} ({view['discard_count']})" if top else "—",
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

    def hand(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        seat = view["seat"]
        codes = view["hand"]
        embed = discord.Embed(
            title=viewer.t("rumbugz.ui.hand_title", round=view["round"]),
            description=bugz_text(codes, viewer) if codes else viewer.t("rumbugz.ui.hand_empty"),
            colour=self.colour,
        )
        done = view["completed"][seat]
        embed.add_field(name=viewer.t("rumbugz.ui.hand_value"), value=str(view["hand_value"]))
        embed.add_field(
            name=viewer.t("rumbugz.label.kinds_done"),
            value=", ".join(kind_name(kind, viewer) for kind in done) or viewer.t("rumbugz.ui.none"),
        )
        steps = view["to_act"][seat]
        items = self._step_buttons(
            [m for m, step in STEPS.items() if step.action in steps], view, viewer, game_id
        )
        if not codes:
            return Rendered([embed], None, items)
        embed.set_image(url="attachment://rumbugz-hand.png")
        return Rendered([embed], picture("rumbugz-hand.png", self.hand_image, codes), items)

    def _next_step(self, view: JSON, viewer: Viewer) -> str:
        seat = view["seat"]
        steps = view["to_act"][seat]
        if "bid" in steps:
            return viewer.t(
                "rumbugz.ui.next.bid",
                bug=bug_text(view["discard_top"], viewer),
                name=viewer.name(view["turn"]),
            )
        if not steps:
            return viewer.t("rumbugz.ui.next.wait")
        return viewer.t(f"rumbugz.ui.next.{view['phase']}")

    # ------------------------------------------------------------------ flows

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {
            "bag": self._draw_bag,
            "pile": self._draw_pile,
            "bid": self._bid,
            "lay": self._lay_panel,
            "layq": self._lay_suggested,
            "layb": self._lay_bugz,
            "layv": self._lay_plyt,
            "layok": self._lay,
            "change": self._change_panel,
            "chgq": self._change_suggested,
            "chgs": self._change_sequence,
            "chga": self._change_add,
            "chgr": self._change_remove,
            "chgv": self._change_plyt,
            "chgok": self._change,
            "discard": self._discard_panel,
            "discq": self._discard,
        }

    async def _at_step(self, click: Click, step: str) -> tuple[Table, int, JSON, Viewer]:
        """The clicking player's table, seat, view and viewer, if ``step`` is theirs to take now."""
        table, seat, viewer = await click.player()
        view = table.game.view(seat)
        if seat != view["turn"]:
            raise GameError("rumbugz.error.not_your_turn")
        if step not in view["to_act"][seat]:
            raise GameError("rumbugz.error.wrong_step", action=viewer.t(STEPS[step].label))
        # The public table offers Lay and Change whatever the hand holds (the hand is secret):
        # the player learns here, privately, when theirs makes none.
        if step in ("lay", "change") and view["phase"] == "play":
            moves = await asyncio.to_thread(table.game.legal_actions, seat)
            if not any(move["type"] == step for move in moves):
                if step == "lay":
                    raise GameError("rumbugz.ui.error.no_lay")
                if not view["completed"][seat]:
                    raise GameError("rumbugz.error.change_needs_sequence")
                raise GameError("rumbugz.ui.error.no_change")
        return table, seat, view, viewer

    @staticmethod
    def _check_stamp(table: Table, stamp: int | str) -> None:
        """Refuse a panel drawn for an earlier position: its custom_ids carry the version it was drawn at."""
        if str(stamp) != str(table.row.version):
            raise GameError("error.out_of_date")

    @staticmethod
    async def _show(
        interaction: discord.Interaction,
        content: str,
        items: Sequence[discord.ui.Item[Any]],
        rendered: Rendered | None = None,
    ) -> None:
        """A panel: it replaces the ephemeral panel it came from, or opens as a new one."""
        for item in items:
            if len(getattr(item, "custom_id", "") or "") > CUSTOM_ID_LIMIT:
                raise GameError("rumbugz.ui.error.too_many")
        view = component_view(items) if items else None
        embeds = rendered.embeds if rendered else None
        file = rendered.file if rendered else None
        await show_panel(interaction, truncate(content), embeds=embeds, file=file, view=view)

    async def _play(self, click: Click, action: JSON | Callable[[Table, int], JSON]) -> None:
        """Play a move, then show the player what it did and their hand with the next step's buttons."""

        async def answer(table: Table, events: list[Event]) -> None:
            seat = table.seat_of(click.interaction.user.id)
            assert seat is not None
            viewer = table.viewer(seat, language(click.interaction))
            view = table.game.view(seat)
            lines = [
                line for event in events if event.visible_to(seat) if (line := self.describe(event, viewer))
            ]
            if not table.game.finished:
                lines.append(self._next_step(view, viewer))
            rendered = await click.service.render(table, self.hand, view, viewer, click.game_id)
            await self._show(click.interaction, "\n".join(lines), rendered.items, rendered)

        await click.service.act(click.interaction, click.game_id, action, answer)

    # ------------------------------------------------------------------ draw and bid

    async def _draw_bag(self, click: Click) -> None:
        await self._play(click, {"type": "draw", "source": "bag"})

    async def _draw_pile(self, click: Click) -> None:
        await self._play(click, {"type": "draw", "source": "discard"})

    async def _bid(self, click: Click) -> None:
        async def answer(table: Table, events: list[Event]) -> None:
            view = table.game.view(None)
            viewer = table.viewer(language=language(click.interaction))
            text = viewer.t(
                "rumbugz.ui.bid_placed",
                bug=bug_text(view["discard_top"], viewer),
                name=viewer.name(view["turn"]),
            )
            await reply(click.interaction, text)

        await click.service.act(click.interaction, click.game_id, {"type": "bid"}, answer)

    # ------------------------------------------------------------------ shared panel pieces

    @staticmethod
    def _bug_selects(
        game_id: int,
        move: str,
        arg: str,
        hand: Sequence[str],
        picked: Sequence[str],
        placeholder: str,
        viewer: Viewer,
    ) -> list[discord.ui.Item[Any]]:
        """The hand as multi-selects of 25, the picked Bugz ticked; each custom_id ends with its part."""
        parts = [
            hand[start : start + OPTIONS_PER_SELECT] for start in range(0, len(hand), OPTIONS_PER_SELECT)
        ]
        selects: list[discord.ui.Item[Any]] = []
        for index, part in enumerate(parts[:HAND_MENUS]):
            select = game_select(
                game_id,
                move,
                placeholder,
                [
                    discord.SelectOption(label=bug_text(code, viewer), value=code, default=code in picked)
                    for code in part
                ],
                f"{arg}.{index}",
            )
            select.min_values, select.max_values = 0, min(len(part), LONGEST_SEQUENCE)
            selects.append(select)
        return selects

    @staticmethod
    def _hand_part(hand: Sequence[str], parts: Sequence[str]) -> list[str]:
        """The Bugz a hand select offered (its part number is the custom_id's last field)."""
        part = number(parts[-1]) if parts else 0
        return list(hand[part * OPTIONS_PER_SELECT : (part + 1) * OPTIONS_PER_SELECT])

    @staticmethod
    def _plyt_selects(
        game_id: int, move: str, arg: str, entries: Sequence[Entry], viewer: Viewer, room: int
    ) -> list[discord.ui.Item[Any]]:
        """A select of 1-12 per picked PLYT, showing the number it stands for now."""
        plyts = [(code, value) for code, value in entries if is_plyt(code)]
        return [
            game_select(
                game_id,
                move,
                viewer.t("rumbugz.ui.plyt_placeholder", number=number),
                [
                    discord.SelectOption(
                        label=viewer.t("rumbugz.ui.plyt_option", number=number, value=option),
                        value=str(option),
                        default=option == value,
                    )
                    for option in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1)
                ],
                f"{arg}.{code}",
            )
            for number, (code, value) in enumerate(plyts[:room], start=1)
        ]

    @staticmethod
    def _suggestion_select(
        game_id: int, move: str, stamp: int, labels: Sequence[str], viewer: Viewer
    ) -> list[discord.ui.Item[Any]]:
        if not labels:
            return []
        options = [
            discord.SelectOption(label=truncate(label, LABEL_LIMIT), value=str(index))
            for index, label in enumerate(labels)
        ]
        return [game_select(game_id, move, viewer.t("rumbugz.ui.suggest_placeholder"), options, str(stamp))]

    @staticmethod
    def _verdict(check: Callable[[], object], viewer: Viewer) -> tuple[bool, str]:
        """Whether the engine's own check accepts the move put together so far, and a line saying so."""
        try:
            check()
        except GameError as error:
            return False, viewer.t("rumbugz.ui.not_ready", reason=viewer.t(error.key, **error.params))
        return True, viewer.t("rumbugz.ui.ready")

    # ------------------------------------------------------------------ lay

    @staticmethod
    def _suggested(table: Table, seat: int, action_type: str) -> list[JSON]:
        """The engine's ready-made moves of a type, those emptying the hand most first, 25 at most."""
        moves = [move for move in table.game.legal_actions(seat) if move["type"] == action_type]
        if action_type == "lay":
            moves.sort(key=lambda move: -len(move["bugz"]))
        else:
            moves.sort(key=lambda move: len(move["remove"]) - len(move["add"]))
        return moves[:OPTIONS_PER_SELECT]

    def _render_lay(self, table: Table, seat: int, viewer: Viewer, draft: LayDraft) -> tuple[str, list[Any]]:
        view = table.game.view(seat)
        game_id, arg = table.row.id, draft.encode()
        entries = draft.entries()
        lines = [
            viewer.t("rumbugz.ui.lay.prompt"),
            viewer.t("rumbugz.ui.hand_line", bugz=bugz_text(view["hand"], viewer)),
            viewer.t(
                "rumbugz.ui.lay.picked",
                bugz=entries_text(sorted(entries, key=entry_order), viewer)
                if entries
                else bugz_text(draft.picks.codes, viewer),
            ),
        ]
        ready = False
        if draft.kind is None:
            lines.append(viewer.t("rumbugz.ui.lay.pick_kind"))
        else:
            lines.append(viewer.t("rumbugz.ui.lay.kind", kind=kind_name(draft.kind, viewer)))
            if draft.picks.codes:
                ready, line = self._verdict(partial(check_sequence, draft.kind, entries), viewer)
                lines.append(line)
        buttons = self._lay_buttons(game_id, draft, view["completed"][seat], ready, viewer)
        selects = self._bug_selects(
            game_id,
            "layb",
            arg,
            view["hand"],
            draft.picks.codes,
            viewer.t("rumbugz.ui.lay.pick_placeholder"),
            viewer,
        )
        room = ROWS - 1 - len(selects)
        selects += self._plyt_selects(game_id, "layv", arg, entries, viewer, room)
        if len(selects) < ROWS - 1:
            labels = [
                viewer.t(
                    "rumbugz.ui.suggest_lay",
                    kind=kind_name(move["kind"], viewer),
                    bugz=entries_text(((e["bug"], e.get("value")) for e in move["bugz"]), viewer),
                )
                for move in self._suggested(table, seat, "lay")
            ]
            selects = self._suggestion_select(game_id, "layq", draft.stamp, labels, viewer) + selects
        return "\n".join(lines), [*selects, *buttons]

    @staticmethod
    def _lay_buttons(
        game_id: int, draft: LayDraft, done: Sequence[str], ready: bool, viewer: Viewer
    ) -> list[discord.ui.Item[Any]]:
        """A button per kind (those laid already are off until all four are) and Lay it."""
        all_done = len(done) == len(KINDS)
        buttons: list[discord.ui.Item[Any]] = [
            game_button(
                game_id,
                "lay",
                kind_name(kind, viewer),
                replace(draft, kind=kind).encode(),
                discord.ButtonStyle.primary if kind == draft.kind else discord.ButtonStyle.secondary,
                row=ROWS - 1,
                disabled=kind in done and not all_done,
            )
            for kind in KINDS
        ]
        confirm = game_button(
            game_id,
            "layok",
            viewer.t("rumbugz.ui.button.lay_it"),
            draft.encode(),
            discord.ButtonStyle.success,
            "✅",
            row=ROWS - 1,
            disabled=not ready,
        )
        return [*buttons, confirm]

    async def _show_lay(self, click: Click, draft_of: Callable[[Table, int, JSON], LayDraft]) -> None:
        table, seat, view, viewer = await self._at_step(click, "lay")
        draft = draft_of(table, seat, view)
        self._check_stamp(table, draft.stamp)
        content, items = self._render_lay(table, seat, viewer, draft)
        await self._show(click.interaction, content, items)

    async def _lay_panel(self, click: Click) -> None:
        """Opened from a Lay button (a fresh draft) or a kind button (the draft with that kind)."""

        def draft_of(table: Table, seat: int, view: JSON) -> LayDraft:
            return LayDraft.decode(click.parts) if click.parts else LayDraft(table.row.version)

        await self._show_lay(click, draft_of)

    async def _lay_suggested(self, click: Click) -> None:
        def draft_of(table: Table, seat: int, view: JSON) -> LayDraft:
            self._check_stamp(table, "".join(click.parts[:1]))
            move = self._pick_suggestion(table, seat, "lay", click.values)
            return LayDraft(table.row.version, move["kind"], Picks.of(move["bugz"]))

        await self._show_lay(click, draft_of)

    async def _lay_bugz(self, click: Click) -> None:
        def draft_of(table: Table, seat: int, view: JSON) -> LayDraft:
            draft = LayDraft.decode(click.parts)
            offered = self._hand_part(view["hand"], click.parts)
            return replace(draft, picks=draft.picks.choose(offered, self._owned(click.values, offered)))

        await self._show_lay(click, draft_of)

    async def _lay_plyt(self, click: Click) -> None:
        def draft_of(table: Table, seat: int, view: JSON) -> LayDraft:
            draft = LayDraft.decode(click.parts)
            return replace(draft, picks=draft.picks.name(click.parts[-1], click.chosen()))

        await self._show_lay(click, draft_of)

    async def _lay(self, click: Click) -> None:
        draft = LayDraft.decode(click.parts)

        def action(table: Table, seat: int) -> JSON:
            self._check_stamp(table, draft.stamp)
            return draft.action()

        await self._play(click, action)

    def _pick_suggestion(self, table: Table, seat: int, action_type: str, values: Sequence[str]) -> JSON:
        moves = self._suggested(table, seat, action_type)
        index = number(values[0]) if values else len(moves)
        if index >= len(moves):
            raise GameError("error.out_of_date")
        return moves[index]

    @staticmethod
    def _owned(values: Sequence[str], offered: Sequence[str]) -> list[str]:
        if any(value not in offered for value in values):
            raise GameError("error.out_of_date")
        return list(values)

    # ------------------------------------------------------------------ change

    def _render_change(
        self, table: Table, seat: int, viewer: Viewer, draft: ChangeDraft | None
    ) -> tuple[str, list[Any]]:
        view = table.game.view(seat)
        game_id, stamp = table.row.id, table.row.version
        labels = [self._change_label(view, move, viewer) for move in self._suggested(table, seat, "change")]
        if draft is None:
            options = [
                discord.SelectOption(
                    label=truncate(
                        viewer.t(
                            "rumbugz.ui.change.sequence_option",
                            sequence=sequence["id"],
                            name=viewer.name(sequence["owner"]),
                            kind=kind_name(sequence["kind"], viewer),
                            bugz=entries_text(table_entries(sequence), viewer),
                        ),
                        LABEL_LIMIT,
                    ),
                    value=str(sequence["id"]),
                )
                for sequence in view["table"]
            ]
            items = self._suggestion_select(game_id, "chgq", stamp, labels, viewer)
            items.append(
                game_select(
                    game_id, "chgs", viewer.t("rumbugz.ui.change.sequence_placeholder"), options, str(stamp)
                )
            )
            return viewer.t("rumbugz.ui.change.prompt"), items
        sequence = self._sequence(view, draft.sequence)
        arg = draft.encode()
        added = draft.added(sequence)
        removed = [entry for entry in table_entries(sequence) if entry[0] in draft.remove]
        lines = [
            viewer.t(
                "rumbugz.ui.change.chosen",
                sequence=sequence["id"],
                name=viewer.name(sequence["owner"]),
                kind=kind_name(sequence["kind"], viewer),
                bugz=entries_text(table_entries(sequence), viewer),
            ),
            viewer.t("rumbugz.ui.hand_line", bugz=bugz_text(view["hand"], viewer)),
            viewer.t("rumbugz.ui.change.add", bugz=entries_text(added, viewer)),
            viewer.t("rumbugz.ui.change.remove", bugz=entries_text(removed, viewer)),
        ]
        ready = False
        if added:
            change = partial(changed_sequence, sequence["kind"], table_entries(sequence), added, draft.remove)
            ready, line = self._verdict(change, viewer)
            if ready:
                lines.append(viewer.t("rumbugz.ui.change.result", bugz=entries_text(change(), viewer)))
            lines.append(line)
        selects = self._bug_selects(
            game_id,
            "chga",
            arg,
            view["hand"],
            draft.add.codes,
            viewer.t("rumbugz.ui.change.add_placeholder"),
            viewer,
        )
        take_off = game_select(
            game_id,
            "chgr",
            viewer.t("rumbugz.ui.change.remove_placeholder"),
            [
                discord.SelectOption(
                    label=entry_text(code, value, viewer), value=code, default=code in draft.remove
                )
                for code, value in table_entries(sequence)
            ],
            arg,
        )
        take_off.min_values, take_off.max_values = 0, len(sequence["bugz"])
        selects.append(take_off)
        selects += self._plyt_selects(game_id, "chgv", arg, added, viewer, ROWS - 1 - len(selects))
        if len(selects) < ROWS - 1:
            selects = self._suggestion_select(game_id, "chgq", stamp, labels, viewer) + selects
        buttons = [
            game_button(
                game_id,
                "chgok",
                viewer.t("rumbugz.ui.button.change_it"),
                arg,
                discord.ButtonStyle.success,
                "✅",
                row=ROWS - 1,
                disabled=not ready,
            ),
            game_button(
                game_id, "change", viewer.t("rumbugz.ui.button.other_sequence"), "", emoji="↩️", row=ROWS - 1
            ),
        ]
        return "\n".join(lines), [*selects, *buttons]

    def _change_label(self, view: JSON, move: JSON, viewer: Viewer) -> str:
        sequence = self._sequence(view, move["sequence"])
        on_table = dict(table_entries(sequence))
        change = [
            viewer.t(
                "rumbugz.ui.change_add",
                bugz=entries_text(((e["bug"], e.get("value")) for e in move["add"]), viewer),
            )
        ]
        if move["remove"]:
            removed = ((code, on_table[code]) for code in move["remove"])
            change.append(viewer.t("rumbugz.ui.change_remove", bugz=entries_text(removed, viewer)))
        return viewer.t(
            "rumbugz.ui.suggest_change",
            sequence=sequence["id"],
            kind=kind_name(sequence["kind"], viewer),
            change=", ".join(change),
        )

    @staticmethod
    def _sequence(view: JSON, sequence_id: int) -> JSON:
        sequence = next((s for s in view["table"] if s["id"] == sequence_id), None)
        if sequence is None:
            raise GameError("error.out_of_date")
        return sequence

    async def _show_change(
        self, click: Click, draft_of: Callable[[Table, int, JSON], ChangeDraft | None]
    ) -> None:
        table, seat, view, viewer = await self._at_step(click, "change")
        draft = draft_of(table, seat, view)
        if draft is not None:
            self._check_stamp(table, draft.stamp)
        content, items = self._render_change(table, seat, viewer, draft)
        await self._show(click.interaction, content, items)

    async def _change_panel(self, click: Click) -> None:
        await self._show_change(click, lambda table, seat, view: None)

    async def _change_suggested(self, click: Click) -> None:
        def draft_of(table: Table, seat: int, view: JSON) -> ChangeDraft:
            self._check_stamp(table, "".join(click.parts[:1]))
            move = self._pick_suggestion(table, seat, "change", click.values)
            return ChangeDraft(
                table.row.version, move["sequence"], Picks.of(move["add"]), tuple(move["remove"])
            )

        await self._show_change(click, draft_of)

    async def _change_sequence(self, click: Click) -> None:
        def draft_of(table: Table, seat: int, view: JSON) -> ChangeDraft:
            self._check_stamp(table, "".join(click.parts[:1]))
            sequence = self._sequence(view, click.chosen())
            return ChangeDraft(table.row.version, sequence["id"])

        await self._show_change(click, draft_of)

    async def _change_add(self, click: Click) -> None:
        def draft_of(table: Table, seat: int, view: JSON) -> ChangeDraft:
            draft = ChangeDraft.decode(click.parts)
            offered = self._hand_part(view["hand"], click.parts)
            return replace(draft, add=draft.add.choose(offered, self._owned(click.values, offered)))

        await self._show_change(click, draft_of)

    async def _change_remove(self, click: Click) -> None:
        def draft_of(table: Table, seat: int, view: JSON) -> ChangeDraft:
            draft = ChangeDraft.decode(click.parts)
            offered = [code for code, _ in table_entries(self._sequence(view, draft.sequence))]
            return replace(draft, remove=tuple(self._owned(click.values, offered)))

        await self._show_change(click, draft_of)

    async def _change_plyt(self, click: Click) -> None:
        def draft_of(table: Table, seat: int, view: JSON) -> ChangeDraft:
            draft = ChangeDraft.decode(click.parts)
            return replace(draft, add=draft.add.name(click.parts[-1], click.chosen()))

        await self._show_change(click, draft_of)

    async def _change(self, click: Click) -> None:
        draft = ChangeDraft.decode(click.parts)

        def action(table: Table, seat: int) -> JSON:
            self._check_stamp(table, draft.stamp)
            return draft.action(self._sequence(table.game.view(seat), draft.sequence))

        await self._play(click, action)

    # ------------------------------------------------------------------ discard

    async def _discard_panel(self, click: Click) -> None:
        table, _, view, viewer = await self._at_step(click, "discard")
        counts = Counter(NUMBER_OF[code] for code in view["hand"])
        options = [
            discord.SelectOption(
                label=viewer.t("rumbugz.ui.discard.option", bug=bug_text(code, viewer), count=counts[number])
                if counts[number] > 1
                else bug_text(code, viewer),
                value=code,
            )
            for number, code in one_of_each(view["hand"]).items()
        ]
        select = game_select(
            click.game_id,
            "discq",
            viewer.t("rumbugz.ui.discard.placeholder"),
            options,
            str(table.row.version),
        )
        await self._show(click.interaction, viewer.t("rumbugz.ui.discard.prompt"), [select])

    async def _discard(self, click: Click) -> None:
        def action(table: Table, seat: int) -> JSON:
            self._check_stamp(table, "".join(click.parts[:1]))
            return {"type": "discard", "bug": click.values[0]}

        await self._play(click, action)


ADAPTER = RumBugzAdapter()


async def setup(bot: GameHost) -> None:
    bot.register(ADAPTER, game_group(bot, ADAPTER))
