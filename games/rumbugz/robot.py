"""Computer players for RumBugz (docs/rules/rumbugz.md), and the arena's random baseline.

The robot decides from its seat's view and its memory only. Whether it can lay or change is
worked out from its own hand and the open table with the pure helpers of ``bugz``, never read
from ``to_act`` (which need not say, to keep the turn player's hand secret). Every action it
returns is built legal: lays come from ``candidate_lays``, changes are checked with
``changed_sequence``, discards are Bugz of the hand.

``hard`` plans each turn one ply deep over its own hand. Before the four kinds a hand is scored
by how close it is to each missing kind (the fewest Bugz missing from a shortest sequence, and
how many unseen Bugz would close the gap), with PLYTs shared out to the kinds nearest done and
a cost for Bugz that help no kind. The draw compares taking the discard with the expected bag
draw over the unseen Bugz; changes are made when they raise the turn's best score (winning a
PLYT off the table, swapping an end, shedding a useless Bug); the discard is the Bug whose loss
costs least, less what it is worth to the next player (what it took and threw lately, and the
table ends it could use). With the four kinds it sheds everything it can onto the table and
keeps the Bugz most likely to go next. ``easy`` lays whatever it can and sheds in the final
phase, but only takes the discard or bids when that lays at once, throws a loner or a random
Bug, and sometimes forgets to shed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import JSON, Event, SeededRandom
from games.robots import Robot
from games.rumbugz.bugz import (
    ALL_BUGZ,
    HIGHEST_NUMBER,
    KIND_STEPS,
    KINDS,
    LOWEST_NUMBER,
    MIN_SEQUENCE_LENGTH,
    NUMBER_OF,
    Entry,
    can_change,
    can_lay,
    candidate_lays,
    changed_sequence,
    hand_order,
    is_plyt,
    one_of_each,
)
from games.rumbugz.bugz import legal_changes as sequence_changes

NUMBERS = range(LOWEST_NUMBER, HIGHEST_NUMBER + 1)
PLYT = 0  # index of the PLYT count in a hand's counts
RECENT = 6  # how many takes and throws per seat the robot remembers

# Shortest sequences of each stepped kind, as their values.
WINDOWS: dict[str, tuple[tuple[int, ...], ...]] = {
    kind: tuple(
        tuple(range(start, start + MIN_SEQUENCE_LENGTH * step, step))
        for start in NUMBERS
        if start + (MIN_SEQUENCE_LENGTH - 1) * step <= HIGHEST_NUMBER
    )
    for kind, step in KIND_STEPS.items()
    if step
}

# Scores of a hand before the four kinds (hard). A kind laid is worth more than one ready to lay,
# so laying always beats waiting; a ready kind more than any near one.
KIND_DONE = 200.0
GAP_SCORE = ((100.0, 0.0), (40.0, 40.0), (15.0, 20.0), (5.0, 8.0), (0.0, 2.0))  # (base, per draw chance)
SPARE_PLYT = 20.0
DEAD_BUG = 3.0  # per Bug that helps no kind, grown by the kinds laid
DEAD_PER_KIND = 3.0
POINTS = 0.1  # per hand point; more when the round may end soon
POINTS_UNDER_THREAT = 1.5
CHANGE_MARGIN = 0.5
# With the four kinds (hard): a hand is scored by the Bugz it cannot shed.
FINAL_BASE = 4 * KIND_DONE + 150.0
WIN_SCORE = 10_000.0
LEFT_OVER = 25.0
HELD = 5.0
CONNECTOR = 4.0
# Danger of a discard for the next player (hard).
DANGER_TOOK = 4.0
DANGER_NEAR = 1.5
DANGER_THREW = -3.0
DANGER_FITS = 1.0
DANGER_FITS_FINAL = 10.0
DANGER_PLYT = 40.0
BID_MARGIN = 10.0
# Human slips (easy).
EASY_TAKE_ANYWAY = 15  # percent: takes the discard for no reason
EASY_BID = 50  # percent: bids when the discard would lay at once
EASY_FORGETS_TO_SHED = 25  # percent per decision in the final phase
EASY_RANDOM_DISCARD = 25  # percent: throws a random Bug instead of a loner


# ----------------------------------------------------------------- the view


@dataclass
class TableRun:
    """A table sequence as the planner changes it."""

    id: int
    kind: str
    entries: list[Entry]


def table_of(view: Mapping[str, Any]) -> list[TableRun]:
    return [
        TableRun(item["id"], item["kind"], [(entry["bug"], entry["value"]) for entry in item["bugz"]])
        for item in view["table"]
    ]


def kinds_to_lay(view: Mapping[str, Any]) -> tuple[str, ...]:
    """Every kind in the final phase, else the kinds the seat has not laid (as the engine says)."""
    done = view["completed"][view["seat"]]
    return KINDS if len(done) == len(KINDS) else tuple(kind for kind in KINDS if kind not in done)


def open_types(view: Mapping[str, Any]) -> frozenset[str]:
    """The action types open to the seat, "lay" and "change" worked out from its own hand."""
    seat = view["seat"]
    types = set(view["to_act"][seat]) - {"lay", "change"}
    if view["turn"] == seat and view["phase"] == "play" and "discard" in types:
        hand = view["hand"]
        if can_lay(hand, kinds_to_lay(view)):
            types.add("lay")
        stand_ins = one_of_each(hand)
        if view["completed"][seat] and any(
            can_change(sequence.kind, sequence.entries, stand_ins) for sequence in table_of(view)
        ):
            types.add("change")
    return frozenset(types)


def entry_json(code: str, value: int) -> JSON:
    return {"bug": code, "value": value}


def lay_action(kind: str, entries: Sequence[Entry]) -> JSON:
    return {"type": "lay", "kind": kind, "bugz": [entry_json(code, value) for code, value in entries]}


def change_action(sequence: int, added: Sequence[Entry], removed: Sequence[str]) -> JSON:
    return {
        "type": "change",
        "sequence": sequence,
        "add": [entry_json(code, value) for code, value in added],
        "remove": list(removed),
    }


def extreme_lays(hand: Sequence[str], kinds: Iterable[str]) -> list[tuple[str, list[Entry]]]:
    """Of ``candidate_lays``, the shortest and the longest from each kind and first value."""
    by_start: dict[tuple[str, int], list[list[Entry]]] = {}
    for kind, entries in candidate_lays(hand, kinds):
        by_start.setdefault((kind, entries[0][1]), []).append(entries)
    return [
        (kind, entries)
        for (kind, _), found in by_start.items()
        for entries in ([found[0]] if len(found) == 1 else [found[0], found[-1]])
    ]


def legal_lays(view: Mapping[str, Any]) -> list[tuple[str, list[Entry]]]:
    return list(candidate_lays(view["hand"], kinds_to_lay(view)))


def legal_changes(
    hand: Sequence[str], table: Sequence[TableRun]
) -> Iterator[tuple[TableRun, list[Entry], list[str]]]:
    """The engine's single-Bug changes, each checked and offered once per distinct result."""
    stand_ins = one_of_each(hand)
    for sequence in table:
        for added, removed in sequence_changes(sequence.kind, sequence.entries, stand_ins):
            yield sequence, added, removed


def random_action(view: JSON, random: SeededRandom) -> JSON:
    """The arena's uniformly random legal player: a type uniformly among those open to the seat,
    then an instance uniformly among that type's (the engine's ``legal_actions`` menu: each draw
    source, one discard per number held, one lay per kind and value pattern with PLYTs only in
    gaps, one change per distinct result)."""
    types = sorted(open_types(view))
    action_type = types[random.randrange(len(types))]
    hand = view["hand"]
    choices: list[JSON]
    if action_type == "draw":
        sources = ["bag"] if view["discard_top"] is None else ["bag", "discard"]
        choices = [{"type": "draw", "source": source} for source in sources]
    elif action_type == "discard":
        choices = [{"type": "discard", "bug": code} for code in one_of_each(hand).values()]
    elif action_type == "lay":
        choices = [lay_action(kind, entries) for kind, entries in legal_lays(view)]
    elif action_type == "change":
        choices = [
            change_action(sequence.id, added, removed)
            for sequence, added, removed in legal_changes(hand, table_of(view))
        ]
    else:
        choices = [{"type": action_type}]
    return choices[random.randrange(len(choices))]


# ----------------------------------------------------------------- hands as counts

Counts = tuple[int, ...]  # index 0: PLYTs, 1..12: numbers


def counts_of(codes: Iterable[str]) -> Counts:
    counts = [0] * (HIGHEST_NUMBER + 1)
    for code in codes:
        counts[NUMBER_OF[code] or PLYT] += 1
    return tuple(counts)


def number_key(code: str) -> int:
    return NUMBER_OF[code] or PLYT


def points(codes: Iterable[str], plyt_value: int) -> int:
    return sum(NUMBER_OF[code] or plyt_value for code in codes)


def without(hand: Sequence[str], codes: Iterable[str]) -> list[str]:
    gone = set(codes)
    return [code for code in hand if code not in gone]


def fits_end(number: int, sequence: TableRun) -> bool:
    """Whether a Bug of ``number`` can be added to ``sequence`` with nothing taken off."""
    step = KIND_STEPS[sequence.kind]
    if step == 0:
        return number == sequence.entries[0][1]
    return number in (sequence.entries[0][1] - step, sequence.entries[-1][1] + step)


def open_values(sequence: TableRun) -> list[int]:
    """The values a Bug could be added as, at either end."""
    step = KIND_STEPS[sequence.kind]
    if step == 0:
        return [sequence.entries[0][1]]
    ends = (sequence.entries[0][1] - step, sequence.entries[-1][1] + step)
    return [value for value in ends if LOWEST_NUMBER <= value <= HIGHEST_NUMBER]


def near_end(number: int, sequence: TableRun) -> bool:
    """Whether one more Bug between them would let ``number`` join ``sequence``."""
    step = KIND_STEPS[sequence.kind]
    return bool(step) and number in (sequence.entries[0][1] - 2 * step, sequence.entries[-1][1] + 2 * step)


# ----------------------------------------------------------------- shedding (four kinds)


def shed_plan(hand: Sequence[str], table: Sequence[TableRun]) -> tuple[list[JSON], list[str]]:
    """Changes and lays that put as many Bugz of the hand on the table as a greedy search finds,
    and the Bugz left. Numbered Bugz go to sequence ends first, then take the place of a table
    PLYT standing for them (the PLYT then goes to an end), PLYTs last since they fit anywhere,
    then whatever is left is laid as new sequences. Stepped sequences come before matches: a new
    end may let the next Bug of the hand follow."""
    left = sorted(hand, key=hand_order)
    board = sorted(
        (TableRun(run.id, run.kind, list(run.entries)) for run in table),
        key=lambda run: KIND_STEPS[run.kind] == 0,
    )
    actions: list[JSON] = []
    while left:
        move = _end_move(left, board) or _plyt_swap(left, board) or _plyt_end(left, board)
        if move is not None:
            run, entry, removed = move
            actions.append(change_action(run.id, [entry], [removed] if removed else []))
            _place(run, entry, removed)
            left.remove(entry[0])
            if removed:
                left = sorted([*left, removed], key=hand_order)
            continue
        lays = list(candidate_lays(left, KINDS))
        if not lays:
            break
        kind, entries = max(lays, key=lambda lay: (len(lay[1]), -sum(is_plyt(code) for code, _ in lay[1])))
        actions.append(lay_action(kind, entries))
        laid = TableRun(-len(actions), kind, sorted(entries, key=lambda entry: entry[1]))
        board.insert(len(board) if kind == "match" else 0, laid)
        left = without(left, [code for code, _ in entries])
    return actions, left


Move = tuple[TableRun, Entry, str | None]  # the run, the Bug added to it, the PLYT it replaces


def _place(run: TableRun, entry: Entry, removed: str | None) -> None:
    """Play a move found below on the planner's copy of the table (each keeps the run valid)."""
    if removed is not None:
        run.entries = [entry if code == removed else (code, value) for code, value in run.entries]
    elif run.entries[0][1] > entry[1]:
        run.entries.insert(0, entry)
    else:
        run.entries.append(entry)


def _end_move(hand: Sequence[str], board: Sequence[TableRun]) -> Move | None:
    ends: dict[int, TableRun] = {}
    for run in board:
        for value in open_values(run):
            ends.setdefault(value, run)
    for code in hand:
        number = NUMBER_OF[code]
        if number in ends:
            return ends[number], (code, number), None
    return None


def _plyt_swap(hand: Sequence[str], board: Sequence[TableRun]) -> Move | None:
    if not any(open_values(run) for run in board):
        return None
    table_plyts = {value: (run, code) for run in board for code, value in run.entries if is_plyt(code)}
    for code in hand:
        number = NUMBER_OF[code]
        if number in table_plyts:
            run, plyt = table_plyts[number]
            return run, (code, number), plyt
    return None


def _plyt_end(hand: Sequence[str], board: Sequence[TableRun]) -> Move | None:
    plyt = next((code for code in hand if is_plyt(code)), None)
    if plyt is None:
        return None
    # Matches first: they never close, and a PLYT at a stepped end would take a number's place.
    for run in sorted(board, key=lambda run: KIND_STEPS[run.kind] != 0):
        values = open_values(run)
        if values:
            return run, (plyt, values[0]), None
    return None


# ----------------------------------------------------------------- memory


def fresh_memory(players: int) -> JSON:
    return {
        "pile": [],
        "taken": [],
        "took": [[] for _ in range(players)],
        "threw": [[] for _ in range(players)],
    }


def remember(memory: JSON, view: Mapping[str, Any], events: Sequence[Event]) -> None:
    """Keep the discard pile (every Bug in it was shown face up), the Bugz others took from it,
    and each seat's recent takes and throws."""
    if not memory:
        memory.update(fresh_memory(view["players"]))
    for event in events:
        params = event.params
        if event.key == "rumbugz.event.round_started":
            memory.update(fresh_memory(view["players"]))
        elif event.key == "rumbugz.event.discarded":
            memory["pile"].append(params["bug"])
            _recent(memory["threw"][params["seat"]], NUMBER_OF[params["bug"]])
        elif event.key in ("rumbugz.event.took_discard", "rumbugz.event.bid_won"):
            if memory["pile"]:
                memory["pile"].pop()
            memory["taken"].append(params["bug"])
            _recent(memory["took"][params["seat"]], NUMBER_OF[params["bug"]])
        elif event.key == "rumbugz.event.bag_refilled":
            memory["pile"] = memory["pile"][-1:]
    top = view["discard_top"]
    pile = memory["pile"]
    if (pile[-1] if pile else None) != top or len(pile) != view["discard_count"]:
        # Joined late or lost track: only the top is sure.
        memory["pile"] = [] if top is None else [top]
    shown = {entry["bug"] for sequence in view["table"] for entry in sequence["bugz"]}
    shown |= set(memory["pile"]) | set(view.get("hand", ()))
    memory["taken"] = [code for code in memory["taken"] if code not in shown]


def _recent(numbers: list[int | None], number: int | None) -> None:
    numbers.append(number)
    del numbers[:-RECENT]


# ----------------------------------------------------------------- the planner (hard)


@dataclass
class Planner:
    """One decision's look at the position: scores hands of the seat, with caches."""

    view: Mapping[str, Any]
    memory: Mapping[str, Any]
    seat: int = 0
    hand: list[str] = field(default_factory=list)
    table: list[TableRun] = field(default_factory=list)
    done: tuple[str, ...] = ()
    known: set[str] = field(default_factory=set)
    unseen: list[int] = field(default_factory=list)
    unseen_total: int = 1
    point_weight: float = POINTS
    plyt_value: int = 15
    _scores: dict[tuple[Counts, tuple[str, ...]], float] = field(default_factory=dict)
    _finals: dict[Counts, list[str]] = field(default_factory=dict)  # for ``table`` as it is now
    _dangers: dict[int | None, float] = field(default_factory=dict)  # likewise

    def __post_init__(self) -> None:
        view = self.view
        self.seat = view["seat"]
        self.hand = list(view["hand"])
        self.table = table_of(view)
        self.done = tuple(view["completed"][self.seat])
        self.plyt_value = view["options"]["plyt_value"]
        known = set(self.hand) | set(self.memory.get("pile", ())) | set(self.memory.get("taken", ()))
        known |= {code for sequence in self.table for code, _ in sequence.entries}
        if view["discard_top"] is not None:
            known.add(view["discard_top"])
        self.known = known
        unseen = [0] * (HIGHEST_NUMBER + 1)
        for code in ALL_BUGZ:
            if code not in known:
                unseen[number_key(code)] += 1
        self.unseen = unseen
        self.unseen_total = max(1, sum(unseen))
        others = [
            other for other in range(view["players"]) if other != self.seat and not view["removed"][other]
        ]
        threat = any(len(view["completed"][other]) == len(KINDS) for other in others)
        ending = view["refills_left"] == 0 and view["bag_count"] < 4 * view["players"]
        self.point_weight = POINTS_UNDER_THREAT if threat or ending else POINTS

    @property
    def final(self) -> bool:
        return len(self.done) == len(KINDS)

    @property
    def needed(self) -> tuple[str, ...]:
        return tuple(kind for kind in KINDS if kind not in self.done)

    # --------------------------------------------------- scores

    def score(self, hand: Sequence[str], needed: tuple[str, ...]) -> float:
        """How good ``hand`` is to keep at the end of a turn, ``needed`` being the kinds not laid."""
        if not needed:
            return self.final_score(hand)
        counts = counts_of(hand)
        key = (counts, needed)
        if key not in self._scores:
            self._scores[key] = self._hand_score(counts, needed)
        return self._scores[key]

    def _hand_score(self, counts: Counts, needed: tuple[str, ...]) -> float:
        done = len(KINDS) - len(needed)
        statuses = []
        used = [0] * (HIGHEST_NUMBER + 1)
        for kind in needed:
            gap, outs, members = self._kind_status(counts, kind)
            statuses.append((gap, outs))
            if gap <= 2:
                for number in members:
                    used[number] = counts[number] if kind == "match" else max(used[number], 1)
        plyts = counts[PLYT]
        total = KIND_DONE * done
        for gap, outs in sorted(statuses):
            if gap and plyts and gap < MIN_SEQUENCE_LENGTH:
                filled = min(plyts, gap)
                plyts -= filled
                gap -= filled
            base, per_chance = GAP_SCORE[min(gap, len(GAP_SCORE) - 1)]
            chance = min(1.0, 2.5 * (outs + self.unseen[PLYT]) / self.unseen_total) if gap else 0.0
            total += base + per_chance * chance
        total += SPARE_PLYT * plyts
        dead_cost = DEAD_BUG + DEAD_PER_KIND * done
        for number in NUMBERS:
            dead = counts[number] - used[number]
            if dead > 0:
                total -= dead * (dead_cost + self.point_weight * number)
        return total - self.point_weight * self.plyt_value * counts[PLYT]

    def _kind_status(self, counts: Counts, kind: str) -> tuple[int, int, list[int]]:
        """Fewest Bugz missing from a shortest sequence of ``kind``, the unseen Bugz that would
        close such a gap, and the numbers of the hand in the best shortest sequences."""
        if kind == "match":
            best = max(counts[1:])
            if best == 0:
                return MIN_SEQUENCE_LENGTH, 0, []
            numbers = [number for number in NUMBERS if counts[number] == best]
            gap = max(0, MIN_SEQUENCE_LENGTH - best)
            return gap, sum(self.unseen[number] for number in numbers), numbers
        gap = MIN_SEQUENCE_LENGTH
        useful: set[int] = set()
        members: set[int] = set()
        for window in WINDOWS[kind]:
            missing = [value for value in window if not counts[value]]
            if len(missing) < gap:
                gap, useful, members = len(missing), set(missing), set(window) - set(missing)
            elif len(missing) == gap:
                useful.update(missing)
                members.update(value for value in window if counts[value])
        return gap, sum(self.unseen[number] for number in useful), sorted(members)

    def use_table(self, table: list[TableRun]) -> None:
        """Score hands against ``table`` (a change being weighed) from now on."""
        self.table = table
        self._finals = {}
        self._dangers = {}

    def leftover(self, hand: Sequence[str]) -> list[str]:
        """What ``shed_plan`` cannot put on the table; it depends only on the numbers held, so it
        is kept per hand counts."""
        counts = counts_of(hand)
        if counts not in self._finals:
            self._finals[counts] = shed_plan(hand, self.table)[1]
        return self._finals[counts]

    def final_score(self, hand: Sequence[str], left: Sequence[str] | None = None) -> float:
        """A hand kept with the four kinds: the fewer Bugz next turn cannot shed, the better."""
        left = self.leftover(hand) if left is None else left
        connectors = sum(
            any(near_end(NUMBER_OF[code] or 0, sequence) for sequence in self.table) for code in left
        )
        return (
            FINAL_BASE
            - LEFT_OVER * len(left)
            - HELD * len(hand)
            + CONNECTOR * connectors
            - self.point_weight * points(hand, self.plyt_value)
        )

    # --------------------------------------------------- turns

    def best_discard(self, hand: Sequence[str], needed: tuple[str, ...]) -> tuple[float, str]:
        """The Bug to throw from ``hand`` and the score of what is kept.

        With the four kinds the hand is shed once: throwing a Bug it could not shed leaves the
        rest, throwing one it could shed leaves what it could not (a close estimate: the Bug
        thrown may have opened an end for another)."""
        left = self.leftover(hand) if not needed else []
        options = []
        for code in one_of_each(hand).values():
            kept = without(hand, [code])
            if needed:
                value = self.score(kept, needed)
            else:
                same = next((other for other in left if NUMBER_OF[other] == NUMBER_OF[code]), None)
                value = self.final_score(kept, without(left, [same]) if same else left)
            options.append((value - self.danger(code), code))
        return max(options, key=lambda option: (option[0], hand_order(option[1])))

    def end_score(self, hand: Sequence[str], needed: tuple[str, ...]) -> float:
        """The score after the discard that ends the turn (none when the hand is empty)."""
        return self.best_discard(hand, needed)[0] if hand else self.score(hand, needed)

    def lays(self, hand: Sequence[str]) -> Iterator[tuple[float, str, list[Entry]]]:
        """Each lay worth weighing before the four kinds, with the best end of turn after it: from
        each start only the shortest (keeps the most Bugz) and the longest (sheds the most)."""
        for kind, entries in extreme_lays(hand, self.needed):
            rest = without(hand, [code for code, _ in entries])
            needed = tuple(other for other in self.needed if other != kind)
            yield self.end_score(rest, needed), kind, entries

    def turn_score(self, hand: Sequence[str]) -> float:
        """The best end of a turn from ``hand`` in the play phase: a lay or none, then a discard;
        with the four kinds, shedding all it can first."""
        if self.final:
            left = self.leftover(hand)
            return WIN_SCORE if len(left) <= 1 else self.best_discard(left, ())[0]
        return max([self.end_score(hand, self.needed), *(score for score, _, _ in self.lays(hand))])

    def expected_bag_turn(self) -> float:
        """``turn_score`` after a bag draw, averaged over the unseen Bugz."""
        sample = {number_key(code): code for code in reversed(ALL_BUGZ) if code not in self.known}
        total = sum(
            count * self.turn_score([*self.hand, sample[number]])
            for number, count in enumerate(self.unseen)
            if count
        )
        return total / self.unseen_total

    def danger(self, code: str) -> float:
        """What throwing ``code`` may give the next player."""
        number = NUMBER_OF[code]
        if number not in self._dangers:
            self._dangers[number] = self._danger(number)
        return self._dangers[number]

    def _danger(self, number: int | None) -> float:
        if number is None:
            return DANGER_PLYT
        view = self.view
        after = [(self.seat + offset) % view["players"] for offset in range(1, view["players"])]
        nearest = next((other for other in after if not view["removed"][other]), self.seat)
        took = self.memory.get("took", [])
        threw = self.memory.get("threw", [])
        danger = 0.0
        for taken in took[nearest] if nearest < len(took) else ():
            if taken == number:
                danger += DANGER_TOOK
            elif taken is not None and abs(taken - number) <= 3:
                danger += DANGER_NEAR
        if nearest < len(threw) and number in threw[nearest]:
            danger += DANGER_THREW
        laid = len(view["completed"][nearest])
        if laid and any(fits_end(number, sequence) for sequence in self.table):
            danger += DANGER_FITS_FINAL if laid == len(KINDS) else DANGER_FITS
        return danger


# ----------------------------------------------------------------- the robot


class RumBugzRobot(Robot):
    """RumBugz computer player: ``easy`` plays like a casual human, ``hard`` plans each turn."""

    game = "rumbugz"

    def observe(self, view: JSON, events: Sequence[Event]) -> None:
        remember(self.memory, view, events)

    def decide(self, view: JSON) -> JSON:
        if not self.memory:
            remember(self.memory, view, [])
        types = open_types(view)
        if "bid" in types:
            return {"type": "bid" if self._wants_bid(view) else "decline"}
        if "draw" in types:
            return {"type": "draw", "source": self._draw_source(view)}
        if self.level == "hard":
            return self._hard_play(view, types)
        return self._easy_play(view, types)

    def _chance(self, percent: int) -> bool:
        return self.random.randrange(100) < percent

    # --------------------------------------------------- draw and bid

    def _draw_source(self, view: JSON) -> str:
        top = view["discard_top"]
        if top is None:
            return "bag"
        if self.level == "easy":
            return "discard" if self._easy_likes(view, top) or self._chance(EASY_TAKE_ANYWAY) else "bag"
        planner = Planner(view, self.memory)
        taken = planner.turn_score([*planner.hand, top])
        return "discard" if taken > planner.expected_bag_turn() else "bag"

    def _wants_bid(self, view: JSON) -> bool:
        top = view["discard_top"]
        if top is None:
            return False
        if self.level == "easy":
            return self._easy_likes(view, top) and self._chance(EASY_BID)
        planner = Planner(view, self.memory)
        if planner.final:
            return False
        needed = planner.needed
        return planner.score([*planner.hand, top], needed) > planner.score(planner.hand, needed) + BID_MARGIN

    def _easy_likes(self, view: JSON, top: str) -> bool:
        """The discard would let the hand lay now (or, with the four kinds, go on the table)."""
        if len(view["completed"][view["seat"]]) == len(KINDS):
            number = NUMBER_OF[top]
            return number is None or any(fits_end(number, sequence) for sequence in table_of(view))
        kinds = kinds_to_lay(view)
        return can_lay([*view["hand"], top], kinds) and not can_lay(view["hand"], kinds)

    # --------------------------------------------------- hard

    def _hard_play(self, view: JSON, types: frozenset[str]) -> JSON:
        planner = Planner(view, self.memory)
        if planner.final:
            actions, _ = shed_plan(planner.hand, planner.table)
            if actions and view["phase"] == "play":
                return actions[0]
            return {"type": "discard", "bug": planner.best_discard(planner.hand, ())[1]}
        if "change" in types:
            change = self._best_change(planner)
            if change is not None:
                return change
        value, code = planner.best_discard(planner.hand, planner.needed)
        if "lay" in types:
            score, kind, entries = max(planner.lays(planner.hand), key=lambda lay: lay[0])
            if score > value:
                return lay_action(kind, entries)
        return {"type": "discard", "bug": code}

    @staticmethod
    def _best_change(planner: Planner) -> JSON | None:
        """The change that most raises the best end of this turn, if any raises it.

        Each change is scored on the hand and the table it leaves, so every change made raises
        one score of the whole position: changes can never undo each other in a loop."""
        best = planner.turn_score(planner.hand) + CHANGE_MARGIN
        choice: JSON | None = None
        table = planner.table
        for sequence, added, removed in legal_changes(planner.hand, table):
            changed = TableRun(
                sequence.id, sequence.kind, changed_sequence(sequence.kind, sequence.entries, added, removed)
            )
            planner.use_table([changed if other is sequence else other for other in table])
            score = planner.turn_score(without(planner.hand, [code for code, _ in added]) + removed)
            if score > best:
                best, choice = score, change_action(sequence.id, added, removed)
        planner.use_table(table)
        return choice

    # --------------------------------------------------- easy

    def _easy_play(self, view: JSON, types: frozenset[str]) -> JSON:
        hand = view["hand"]
        final = len(view["completed"][view["seat"]]) == len(KINDS) and view["phase"] == "play"
        if final and not self._chance(EASY_FORGETS_TO_SHED):
            actions, _ = shed_plan(hand, table_of(view))
            if actions:
                return actions[0]
        if "lay" in types:
            lays = legal_lays(view)
            kind, entries = lays[self.random.randrange(len(lays))]
            return lay_action(kind, entries)
        return {"type": "discard", "bug": self._easy_discard(hand)}

    def _easy_discard(self, hand: Sequence[str]) -> str:
        """A loner (fewest Bugz within three of it), or now and then any Bug; PLYTs are kept."""
        numbered = [code for code in hand if not is_plyt(code)] or list(hand)
        if self._chance(EASY_RANDOM_DISCARD):
            return numbered[self.random.randrange(len(numbered))]

        def partners(code: str) -> tuple[int, int]:
            number = NUMBER_OF[code] or 0
            near = sum(other != code and abs((NUMBER_OF[other] or number) - number) <= 3 for other in hand)
            return near, -number

        return min(numbered, key=partners)
