"""Rummikub solver: lay a player's tiles on the table, and find the best play of a rack.

Pure functions over tile codes (see ``games.rummikub.tiles``); a table is a sequence of
sets, each a sequence of codes.

How it works. Every question is one exact search: "split these forced tiles, plus any of
these optional tiles, into valid sets; score the optional tiles laid (and, when asked,
the existing sets left whole)". It walks the numbers 1..13, the classical dynamic
programme for Rummikub (cf. den Hertog & Hulshof's ILP and the run-length DP of van
Rijn, Takes & Vis). After each number, per colour, the state holds the lengths (0, 1, 2,
or "3 or more") of the runs still open, and which existing runs are kept whole; a run of
1 or 2 must go on, a run of 3+ may end. The tiles of a number that no run takes form
groups, which only depend on how many tiles each colour gives (0, 1 or 2) and on the
jokers joining them. Jokers placed so far are part of the state. Two open runs per
colour suffice without jokers (two copies of each tile); a third when jokers are in play.

What makes it fast enough in Python:
- moves of one colour are dropped when another move gives runs that can do all they can
  with no less score (a run of 3+ may go on or stop, so it beats a shorter run or none);
- a depth-first branch and bound (best move first, bounded by "every optional tile
  still ahead is laid", or once every joker is placed, "every one ahead that needs no
  joker") usually finds the best split and often proves it in a few hundred states;
  past that, a walk number by number keeps, for each state, its best score, and only the
  states that can still reach a target: for the most tiles, the targets go down one tile
  at a time from everything the rack could lay;
- jokers are spare: the search places them only where they help and attaches the
  others at the end of a run or to a group of three (checked; if there is no room the
  search runs again placing every joker);
- the table is walked upwards or downwards (numbers read as 14 - n): which way is quick
  depends on the table, and one way is often many times quicker. The walk starts from the
  end where the table's jokers stand; if it takes long, the other way joins in, and the
  two share the best split found and the targets proved out of reach;
- a state is one int, and the big tables hold only ints: cheap to hash, and the garbage
  collector does not walk them.

Laying named tiles keeps as many existing sets as it can: first the sets next to the new
tiles, then their neighbours, and so on; that search has a budget, past which the best
layout found is kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from itertools import permutations, product
from operator import itemgetter
from typing import Any, Generic, TypeVar

from games.core import GameError
from games.rummikub.tiles import (
    COLOURS,
    COPIES,
    HIGHEST,
    INITIAL_MELD_MINIMUM,
    JOKER,
    JOKER_RACK_VALUE,
    LOWEST,
    MAX_GROUP_SIZE,
    MIN_SET_SIZE,
    arranged,
    colour_of,
    is_joker,
    is_valid_set,
    meld_value,
    number_of,
)

Melds = Sequence[Sequence[str]]

_COLOUR_COUNT = len(COLOURS)
_KINDS = _COLOUR_COUNT * HIGHEST
_LONG_RUN = 3  # "3 or more": the run may end here
_RUN_LENGTHS = _LONG_RUN + 1
_JOKER_REACH = 2  # a joker in a run is at most two numbers away from a real tile of that run
_NONE = -(1 << 62)
# Score weights: a set kept counts 1; a tile laid outweighs every set kept; its rack value
# (or, for the value objective, its count) breaks ties between equal tile counts.
_KEEP = 1
_TILE_FIRST = 64 * 1024
_VALUE_FIRST = 64 * 256
_VALUE_TIE = 64
_STATE_BITS = 12  # bits per colour state id in a packed key
_KEEP_BUDGET = 120  # states the search for the fewest broken sets may expand before settling
# The caches of moves shared between solves keep two generations: before a solve, once the
# recent one holds this many colour moves, it becomes the older one, and the older one is
# dropped; an entry used again comes back to the recent one. Unbounded, they grew by
# 170 MiB over the 9020 bench positions. Emptied all at once, the next solves would build
# again what they share with the last ones; bounded by least recent use, a slow solve
# needing more entries than the bound would evict its own and rebuild them in turn.
_COLOUR_MOVES_KEPT = 2048
# The group choices (``_choices``), keyed by the jokers each colour's moves need, are few and
# small (about 400 bytes each; 6431 over the bench's 9019 positions): they turn over on their
# own count, rarely, rather than with the colour moves, which would have them built again.
_CHOICES_KEPT = 8192


_Value = TypeVar("_Value")


class _Memo(Generic[_Value]):
    """A pure function's results by arguments, in two generations (see ``_COLOUR_MOVES_KEPT``)."""

    def __init__(self, function: Callable[..., _Value]) -> None:
        self.function = function
        self.recent: dict[tuple, _Value] = {}
        self.older: dict[tuple, _Value] = {}
        self.__doc__ = function.__doc__

    def __call__(self, *arguments: Any) -> _Value:
        value = self.recent.get(arguments)
        if value is None:
            value = self.older.get(arguments)
            if value is None:
                value = self.function(*arguments)
            self.recent[arguments] = value
        return value

    def age(self) -> None:
        """The recent entries become the older ones; the older ones are dropped."""
        self.older, self.recent = self.recent, {}


class Objective(Enum):
    TILES = "tiles"
    VALUE = "value"


@dataclass(frozen=True)
class Layout:
    """A table after a play: the tiles laid from the rack and every set on the table.

    ``changed`` lists the indexes in ``table`` of sets that are new or were changed;
    ``broken`` counts the sets of the old table that did not stay as they were.
    """

    tiles: tuple[str, ...]
    table: tuple[tuple[str, ...], ...]
    changed: tuple[int, ...]
    broken: int
    meld_value: int = 0


def _index(code: str) -> int:
    return COLOURS.index(colour_of(code)) * HIGHEST + number_of(code) - LOWEST


def _code(colour: int, number: int) -> str:
    return f"{COLOURS[colour]}{number}"


def _counts(tiles: Sequence[str]) -> tuple[list[int], int]:
    counts = [0] * _KINDS
    for code in tiles:
        if not is_joker(code):
            counts[_index(code)] += 1
    return counts, sum(1 for code in tiles if is_joker(code))


# ---------------------------------------------------------------------------- runs


Plan = tuple[tuple[bool, ...], int]  # per open run (state order): goes on?; runs started


@cache
def _run_states(slots: int) -> tuple[tuple[int, ...], ...]:
    """Open-run lengths of one colour, longest first (0 = no run); index 0 is "no run"."""
    combos = product(range(_RUN_LENGTHS), repeat=slots)
    return tuple(sorted({tuple(sorted(combo, reverse=True)) for combo in combos}))


@cache
def _run_moves(slots: int) -> tuple[tuple[tuple[tuple[int, Plan], ...], ...], ...]:
    """[state][tiles given to runs] -> (next state, plan), one plan per next state."""
    states = _run_states(slots)
    index = {state: position for position, state in enumerate(states)}
    table = []
    for state in states:
        by_count: list[dict[int, Plan]] = [{} for _ in range(slots + 1)]
        choices = [(True,) if 0 < n < _LONG_RUN else (True, False) if n else (False,) for n in state]
        for goes_on in product(*choices):
            for started in range(state.count(0) + 1):
                going_on = [min(n + 1, _LONG_RUN) for n, on in zip(state, goes_on, strict=True) if on]
                lengths = going_on + [1] * started
                following = index[tuple(sorted(lengths + [0] * (slots - len(lengths)), reverse=True))]
                by_count[sum(goes_on) + started].setdefault(following, (goes_on, started))
        table.append(tuple(tuple(moves.items()) for moves in by_count))
    return tuple(table)


@cache
def _run_plans(slots: int) -> tuple[tuple[Plan, ...], dict[Plan, int]]:
    """Every plan of ``_run_moves(slots)``, in a fixed order, and each one's index in it."""
    plans = sorted({plan for by_count in _run_moves(slots) for moves in by_count for _, plan in moves})
    return tuple(plans), {plan: position for position, plan in enumerate(plans)}


# A colour move's plan is one int, so that cached moves hold ints only: the plan of its runs
# (index in ``_run_plans``), the optional tiles it lays, how many tiles go to runs, and the
# existing runs it keeps whole (an index into its search's ``kept_runs``; 0 = none).
_PLAN_LAID = _RUN_LENGTHS  # more than any count of tiles laid or given to runs
_PLAN_KEPT = 1 << 20


def _plan_code(run_plan: int, laid: int, in_runs: int) -> int:
    return (run_plan * _PLAN_LAID + laid) * _PLAN_LAID + in_runs


@cache
def _plain_colour_states(slots: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The colour states keeping no existing run, by run state: (run state, no runs kept)."""
    return tuple((state, ()) for state in range(len(_run_states(slots))))


@cache
def _closable(slots: int) -> frozenset[int]:
    return frozenset(
        i for i, state in enumerate(_run_states(slots)) if all(n in (0, _LONG_RUN) for n in state)
    )


@cache
def _stronger_states(slots: int) -> tuple[frozenset[int], ...]:
    """[state] -> the states that can do all it can: a run of 3+ may go on or end, so it beats any run."""
    states = _run_states(slots)
    return tuple(
        frozenset(
            a
            for a, strong in enumerate(states)
            if a != b
            and any(
                all(x in (_LONG_RUN, y) for x, y in zip(strong, order, strict=True))
                for order in permutations(weak)
            )
        )
        for b, weak in enumerate(states)
    )


FreeMove = tuple[int, int, int, int]  # next run state, jokers, optional tiles laid, plan code
# Its part of the next packed key (colour state id and jokers placed), jokers, score gain,
# meld value, plan code (with the runs kept).
Move = tuple[int, int, int, int, int]
GivenMoves = tuple[tuple[FreeMove, ...], ...]  # [tiles given to groups]: the moves giving that many


@_Memo
def _free_moves(
    state: int, slots: int, forced: int, optional: int, meld: bool, joker_room: int
) -> GivenMoves:
    """One colour's moves at one number from a run state, by tiles given to groups, fewest jokers first.

    Moves another move beats (stronger runs, same jokers, no fewer tiles laid) are left out.
    Scores and meld values are counted later (``_moves_weighed``): with the same jokers, more
    tiles laid is more of both, so the moves kept do not depend on the number or the tiles'
    weights, and are shared between numbers.
    """
    moves = _run_moves(slots)[state]
    plan_ids = _run_plans(slots)[1]
    found: dict[tuple[int, int, int, int], FreeMove] = {}
    for laid in range(forced, forced + optional + 1):
        for run_jokers in range(joker_room + 1):
            for in_runs in range(max(0, laid - COPIES), laid + 1):
                if in_runs + run_jokers > slots:
                    continue
                for following, plan in moves[in_runs + run_jokers]:
                    slot = (laid - in_runs, following, run_jokers, laid if meld else 0)
                    if slot not in found or found[slot][2] < laid - forced:
                        found[slot] = (
                            following,
                            run_jokers,
                            laid - forced,
                            _plan_code(plan_ids[plan], laid - forced, in_runs),
                        )
    stronger = _stronger_states(slots)
    found_by_groups: dict[int, list[FreeMove]] = {}
    for slot, move in found.items():
        found_by_groups.setdefault(slot[0], []).append(move)
    by_groups: dict[int, list[FreeMove]] = {}
    for given, rivals in found_by_groups.items():
        for move in rivals:
            state, jokers, laid, _ = move
            stronger_here = stronger[state]
            if not any(
                other is not move
                and other[1] == jokers
                and other[2] >= laid
                and (other[0] == state or other[0] in stronger_here)
                for other in rivals
            ):
                by_groups.setdefault(given, []).append(move)
    return tuple(
        tuple(sorted(by_groups.get(given, ()), key=lambda move: (move[1], -move[2])))
        for given in range(COPIES + 1)
    )


# One colour's moves by tiles given to groups g and joker budget b at index g * 4 + b: the
# moves giving g tiles and placing at most b jokers, fewest first (empty when g is not
# possible); at index _FEWEST_JOKERS + b, for each g in three bits (g * 3 up), the fewest
# jokers a move giving g tiles places, _NEVER when none within b does (as fewer keys, the
# choices of groups are cached by these).
# Cached moves are held in flat tuples of ints, with no dict, which the garbage collector
# stops tracking: the caches grow large, and collections that walk them would stall long
# searches. It untracks one level of nested tuples per pass, so the fewer levels the better.
ColourMoves = tuple  # (tuple[Move, ...], ..., int, ...)
_MOST_JOKERS = 3  # two bits of a packed key
_BUDGETS = _MOST_JOKERS + 1  # written 4 in the search's loops
_FEWEST_JOKERS = (COPIES + 1) * _BUDGETS
_NEVER = 4  # more jokers than any budget
_NO_GIVING = sum(_NEVER << 3 * given for given in range(COPIES + 1))  # no move within the budget


def _by_joker_budget(moves: dict[int, list[Move]]) -> ColourMoves:
    lists: list[tuple[Move, ...]] = [()] * _FEWEST_JOKERS
    fewest_jokers = [_NO_GIVING] * _BUDGETS
    for given, options in moves.items():
        if len(options) > 1:
            options.sort(key=itemgetter(2), reverse=True)  # most score first,
            options.sort(key=itemgetter(1))  # then fewest jokers first
        every = tuple(options)
        fewest, most = options[0][1], options[-1][1]
        for budget in range(_BUDGETS):
            if budget >= most:
                lists[given * _BUDGETS + budget] = every
            elif budget >= fewest:
                lists[given * _BUDGETS + budget] = tuple(move for move in options if move[1] <= budget)
        for budget in range(fewest, _BUDGETS):  # _NEVER at g becomes the fewest jokers
            fewest_jokers[budget] += (fewest - _NEVER) << 3 * given
    return (*lists, *fewest_jokers)


_NO_MOVES: ColourMoves = ((),) * _FEWEST_JOKERS + (_NO_GIVING,) * _BUDGETS


@_Memo
def _plain_moves(
    state: int,
    forced: int,
    slots: int,
    optional: int,
    meld: bool,
    joker_room: int,
    supply: int,
    next_supply: int,
) -> GivenMoves:
    """``_free_moves`` without the runs that cannot go on: a run of 1 or 2 needs a tile (or a
    joker) at the next number, a run of 1 at the one after too.
    """
    lengths_of = _run_states(slots)
    moves: dict[int, list[FreeMove]] = {}
    for given, free_moves in enumerate(_free_moves(state, slots, forced, optional, meld, joker_room)):
        for move in free_moves:
            lengths = lengths_of[move[0]]
            if sum(1 for n in lengths if 0 < n < _LONG_RUN) <= supply and lengths.count(1) <= next_supply:
                moves.setdefault(given, []).append(move)
    return tuple(tuple(moves.get(given, ())) for given in range(COPIES + 1))


@_Memo
def _plain_colour_moves(
    shift: int, state: int, forced: int, tile_weight: int, joker_gain: int, meld_number: int, *arguments: int
) -> ColourMoves:
    """``_plain_moves`` as ``ColourMoves`` of a colour ``shift`` bits into a packed key (weights
    as in ``_moves_weighed``).
    """
    return _by_joker_budget(
        {
            given: _moves_weighed(free_moves, shift, forced, tile_weight, joker_gain, meld_number)
            for given, free_moves in enumerate(_plain_moves(state, forced, *arguments))
            if free_moves
        }
    )


def _moves_weighed(
    free_moves: Sequence[FreeMove],
    shift: int,
    forced: int,
    tile_weight: int,
    joker_gain: int,
    meld_number: int,
) -> list[Move]:
    """Free moves with their part of a packed key, score gain and meld value: an optional tile
    scores ``tile_weight``, a joker ``joker_gain``; ``meld_number``: the number the tiles
    stand at, 0 when meld values do not count.
    """
    return [
        (
            (following << shift) + (jokers << _JOKERS_AT),
            jokers,
            laid * tile_weight + jokers * joker_gain,
            (forced + laid + jokers) * meld_number,
            plan,
        )
        for following, jokers, laid, plan in free_moves
    ]


# -------------------------------------------------------------------------- groups


def _group_splits(copies: tuple[int, ...], jokers: int) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to form groups (colour indexes, -1 = joker) from the group tiles of one
    number: ``copies[c]`` tiles of colour c and ``jokers`` jokers. A group has 3-4 tiles of
    different colours, at least one of them real.
    """
    if not any(copies):
        if jokers == 0:
            yield ()
        return
    first = next(c for c, n in enumerate(copies) if n)
    others = [c for c in range(first + 1, _COLOUR_COUNT) if copies[c]]
    for size in range(MIN_SET_SIZE, MAX_GROUP_SIZE + 1):
        for group_jokers in range(min(jokers, size - 1) + 1):
            for mates in _subsets(others, size - 1 - group_jokers):
                left = list(copies)
                for colour in (first, *mates):
                    left[colour] -= 1
                for rest in _group_splits(tuple(left), jokers - group_jokers):
                    yield ((first, *mates) + (-1,) * group_jokers, *rest)


@cache
def _group_split(copies: tuple[int, ...], jokers: int) -> tuple[tuple[int, ...], ...] | None:
    """One way to form the groups of one number, or None."""
    return next(_group_splits(copies, jokers), None)


def _subsets(items: Sequence[int], size: int) -> Iterator[tuple[int, ...]]:
    if size == 0:
        yield ()
        return
    for position, item in enumerate(items):
        for rest in _subsets(items[position + 1 :], size - 1):
            yield (item, *rest)


@_Memo
def _group_choices(available: tuple[int, ...], jokers: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Tiles each colour can give to the groups of one number (bit g of ``available[c]``: colour c
    can give g tiles), and the jokers joining them.
    """
    options = [[given for given in range(COPIES + 1) if mask >> given & 1] for mask in available]
    return tuple(
        (given, group_jokers)
        for given in product(*options)
        for group_jokers in range(jokers + 1)
        if _group_split(given, group_jokers) is not None
    )


Choice = tuple[int, int, int, int, int, int, tuple[int, ...]]  # see ``_choices``


@_Memo
def _choices(needs0: int, needs1: int, needs2: int, needs3: int, jokers: int) -> tuple[Choice, ...]:
    """The group choices the colours' moves allow, knowing the fewest jokers each colour's moves
    giving g tiles place (``needs``, as at ``_FEWEST_JOKERS``) and the ``jokers`` left.

    A choice leaving too few jokers for the runs leads nowhere, and each colour's moves must
    leave at least the jokers the next colours need. Per choice: the first colour's moves
    (index g * 4 + its joker budget), the index of each next colour's moves less the jokers
    the colours after it need (its budget, what the colours before it left, is added in the
    search), the jokers left for the runs, the groups' jokers and the tiles each colour
    gives to groups.
    """
    codes = (needs0, needs1, needs2, needs3)
    fewest = [[code >> 3 * given & 7 for given in range(COPIES + 1)] for code in codes]
    masks = tuple(sum(1 << given for given, count in enumerate(row) if count < _NEVER) for row in fewest)
    choices = []
    for (g0, g1, g2, g3), group_jokers in _group_choices(masks, jokers):
        after2 = fewest[3][g3]
        after1 = fewest[2][g2] + after2
        after0 = fewest[1][g1] + after1
        budget = jokers - group_jokers
        if fewest[0][g0] + after0 <= budget:
            choices.append(
                (
                    g0 * _BUDGETS + budget - after0,
                    g1 * _BUDGETS - after1,
                    g2 * _BUDGETS - after2,
                    g3 * _BUDGETS,
                    budget,
                    group_jokers,
                    (g0, g1, g2, g3),
                )
            )
    return tuple(choices)


# ----------------------------------------------------------------- existing sets


@dataclass(frozen=True)
class _Existing:
    """An existing set the search may keep whole: where its tiles sit."""

    tiles: tuple[str, ...]
    colour: int  # a run's colour; -1 for a group
    first: int
    last: int
    jokers_at: tuple[int, ...]  # numbers a run's jokers stand for
    group_colours: tuple[int, ...] = ()

    @property
    def jokers(self) -> int:
        return self.tiles.count(JOKER)


def _existing(tiles: Sequence[str]) -> _Existing:
    real = [code for code in tiles if not is_joker(code)]
    if len({number_of(code) for code in real}) == 1 and len({colour_of(code) for code in real}) == len(real):
        number = number_of(real[0])
        colours = tuple(COLOURS.index(colour_of(code)) for code in real)
        return _Existing(tuple(tiles), -1, number, number, (), colours)
    order = list(tiles)
    start = number_of(real[0]) - order.index(real[0])
    if (
        not all(is_joker(code) or number_of(code) == start + i for i, code in enumerate(order))
        or start < LOWEST
    ):
        order = arranged(tiles)
        start = next(number_of(code) - i for i, code in enumerate(order) if not is_joker(code))
    jokers_at = tuple(start + i for i, code in enumerate(order) if is_joker(code))
    return _Existing(
        tuple(tiles), COLOURS.index(colour_of(real[0])), start, start + len(order) - 1, jokers_at
    )


def _without_jokers(present: Sequence[int], kind: int) -> bool:
    """Whether a tile of ``kind`` can be laid with real tiles of ``present`` (counts by kind) alone."""
    colour, offset = divmod(kind, HIGHEST)
    if sum(1 for other in range(_COLOUR_COUNT) if other != colour and present[other * HIGHEST + offset]) >= 2:
        return True
    row = present[colour * HIGHEST : (colour + 1) * HIGHEST]
    low = high = offset
    while low > 0 and row[low - 1]:
        low -= 1
    while high < HIGHEST - 1 and row[high + 1]:
        high += 1
    return high - low + 1 >= MIN_SET_SIZE


def _jokers_at(sets: Melds) -> list[int]:
    """The numbers the jokers of these sets stand for."""
    numbers: list[int] = []
    for tiles in sets:
        if JOKER in tiles:
            existing = _existing(tiles)
            numbers += existing.jokers_at if existing.colour >= 0 else [existing.first] * existing.jokers
    return numbers


# ---------------------------------------------------------------------- the search


@dataclass(frozen=True)
class _Problem:
    forced: tuple[int, ...]  # tiles that must be laid, by kind (existing sets' tiles included)
    optional: tuple[int, ...]  # tiles that may be laid, by kind
    forced_jokers: int
    optional_jokers: int
    tile_weight: tuple[int, ...]  # score of each optional tile laid, by kind
    joker_weight: int  # score of each optional joker laid
    joker_number_weight: tuple[int, ...]  # score of a joker standing for number n
    meld_minimum: int  # the sets must be worth this much (initial meld), 0 = no minimum
    existing: tuple[_Existing, ...]  # sets that may be kept whole
    unit: int = 1  # score differences below this are tie-breaks the search need not prove
    mirrored: bool = False  # numbers read as 14 - n


@dataclass(frozen=True)
class _Split:
    score: int
    used: tuple[str, ...]  # optional tiles laid
    sets: tuple[tuple[str, ...], ...]  # the new sets
    kept: frozenset[int]  # existing sets left whole, by position


@dataclass(frozen=True)
class _GroupKeep:
    kept: tuple[int, ...]  # existing groups kept at this number
    taken: tuple[int, ...]  # real tiles they hold, per colour
    jokers: int


class _GaveUp(Exception):
    """The budget ran out before any split was found."""


@dataclass
class _Best:
    """What the searches of one problem (upwards and downwards) know, shared between them."""

    score: int = _NONE  # of the best split found; 0 to start from "laying nothing"
    path: list[int] | None = None  # its states, in the search that found it
    search: _Search | None = None
    ceiling: int | None = None  # no split scores this much: a walk proved it

    def offer(self, search: _Search, score: int, path: list[int] | None) -> None:
        if path is not None and score > self.score:
            self.score, self.path, self.search = score, path, search

    def split(self) -> _Split | None:
        """The best split found; the searches are let go (a search refers to this: a cycle
        the garbage collector would have to find, keeping the search's tables alive until then).
        """
        search, self.search = self.search, None
        if search is None or self.path is None:
            return None
        split = search._rebuild(self.score, self.path)
        return _unmirrored(split) if search.problem.mirrored else split


_NO_GROUP_KEPT = _GroupKeep((), (0,) * _COLOUR_COUNT, 0)
# A packed key: each colour's state id, then the jokers placed, then the meld value.
_STATE_MASK = (1 << _STATE_BITS) - 1
_JOKERS_AT = _STATE_BITS * _COLOUR_COUNT
_MELD_AT = _JOKERS_AT + 2
_DEPTH_FIRST_BUDGET = 3000  # states the depth-first search expands before the walk number by number
_HEAD_START = 2000  # states the leading walk expands before the other one starts

Decision = tuple  # (group keep, group jokers, tiles given to groups, each colour's plan code)


class _Search:
    """The walk over the numbers; see the module docstring."""

    def __init__(self, problem: _Problem, budget: int | None = None, best: _Best | None = None) -> None:
        self.problem = problem
        self.budget = budget  # states to expand before settling for the best split found
        self.best = _Best() if best is None else best
        self.jokers = problem.forced_jokers + problem.optional_jokers
        self.slots = 2 if self.jokers == 0 else 3
        present = [problem.forced[k] + problem.optional[k] for k in range(_KINDS)]
        # Tiles and jokers that can go on a run at each number; past the slots, more is the
        # same to the moves (see ``_plain_moves``), whose cache they key.
        self.supply = [
            [
                min(present[c * HIGHEST + n - LOWEST] + self.jokers, self.slots) if n <= HIGHEST else 0
                for n in range(LOWEST, HIGHEST + 3)
            ]
            for c in range(_COLOUR_COUNT)
        ]
        reach = _JOKER_REACH if self.jokers else 0
        room = min(self.jokers, self.slots)
        # Per colour, by number: jokers that may stand in its runs (0 far from its tiles).
        self.joker_room = [[0] * HIGHEST for _ in range(_COLOUR_COUNT)]
        any_near = [False] * (HIGHEST + 1)  # by number: some colour has tiles near it
        for colour, row in enumerate(self.joker_room):
            for offset in range(HIGHEST):
                if present[colour * HIGHEST + offset]:
                    for near in range(max(0, offset - reach), min(HIGHEST, offset + reach + 1)):
                        row[near] = room
                        any_near[near + 1] = True
        # A number needs a step when some colour has tiles near it or near the number before.
        self.numbers = [n for n in range(LOWEST, HIGHEST + 1) if any_near[n] or any_near[n - 1]]
        self.runs_starting: dict[tuple[int, int], tuple[int, ...]] = {}
        self.runs_ending: dict[int, set[int]] = {}  # number -> existing runs ending there
        self.run_jokers_at: dict[int, set[int]] = {}  # number -> existing runs with a joker there
        groups_at: dict[int, list[int]] = {}
        for position, existing in enumerate(problem.existing):
            if existing.colour < 0:
                groups_at.setdefault(existing.first, []).append(position)
            else:
                key = (existing.colour, existing.first)
                self.runs_starting[key] = (*self.runs_starting.get(key, ()), position)
                self.runs_ending.setdefault(existing.last, set()).add(position)
                for number in existing.jokers_at:
                    self.run_jokers_at.setdefault(number, set()).add(position)
        self.group_keeps = {number: self._group_keeps(groups) for number, groups in groups_at.items()}
        # A colour state: its run state and the existing runs it keeps whole; with no
        # existing sets, a colour state id is its run state.
        self.colour_states: list[tuple[int, tuple[int, ...]]] = list(_plain_colour_states(self.slots))
        # Existing runs kept whole -> run state -> colour state id.
        self.colour_state_ids: dict[tuple[int, ...], dict[int, int]] = {
            (): {state: state for state in range(len(self.colour_states))}
        }
        self.move_cache: dict[int, ColourMoves] = {}
        self.move_arguments: dict[int, tuple[tuple[int, int, int], tuple[int, int, bool, int, int, int]]] = {}
        self.kept_runs: list[tuple[int, ...]] = [()]  # the existing runs a colour move keeps, by id
        self.kept_ids: dict[tuple[int, ...], int] = {(): 0}
        self.group_choices: dict[int, tuple[Choice, ...]] = {}
        # Only ints in the big tables: the garbage collector skips such dicts, and long
        # searches would otherwise pay for its passes. Decisions are found again for the
        # one path rebuilt at the end.
        self.children: dict[int, dict[int, int]] = {}  # step and state -> next state -> score gained
        self.cut = False  # the budget ran out
        self.bound, self.bound_without_jokers = self._bounds()

    def _group_keeps(self, groups: list[int]) -> tuple[_GroupKeep, ...]:
        choices = []
        for size in range(len(groups), -1, -1):
            for kept in _subsets(groups, size):
                taken = [0] * _COLOUR_COUNT
                for position in kept:
                    for colour in self.problem.existing[position].group_colours:
                        taken[colour] += 1
                jokers = sum(self.problem.existing[position].jokers for position in kept)
                choices.append(_GroupKeep(kept, tuple(taken), jokers))
        return tuple(choices)

    def _bounds(self) -> tuple[list[int], list[int]]:
        """bound[i]: the most score the numbers from self.numbers[i] on (and the end) can still
        add; and the same once every joker is placed. Then an optional tile ahead counts only
        if it can be laid without one (in a run of three tiles there are, or a group of three
        colours), or if it may end a run still open, whose jokers are behind: at the first two
        numbers ahead.
        """
        problem = self.problem
        present = [problem.forced[kind] + problem.optional[kind] for kind in range(_KINDS)]
        tiles: list[int] = []  # by step: the optional tiles' score
        jokerless: list[int] = []  # by step: the optional tiles' score, those needing no joker
        kept: list[int] = []  # by step: the existing sets starting there
        for number in self.numbers:
            kinds = [c * HIGHEST + number - LOWEST for c in range(_COLOUR_COUNT)]
            tiles.append(sum(problem.optional[kind] * problem.tile_weight[kind] for kind in kinds))
            jokerless.append(
                sum(
                    problem.optional[kind] * problem.tile_weight[kind]
                    for kind in kinds
                    if problem.optional[kind] and _without_jokers(present, kind)
                )
            )
            starting = sum(len(self.runs_starting.get((c, number), ())) for c in range(_COLOUR_COUNT))
            starting += len(self.group_keeps[number][0].kept) if number in self.group_keeps else 0
            kept.append(starting * _KEEP)
        steps = len(self.numbers)
        placed = problem.optional_jokers * problem.joker_weight
        jokers = placed + self.jokers * max(problem.joker_number_weight)
        bound = [jokers] * (steps + 1)
        bound_without_jokers = [placed] * (steps + 1)
        ahead = ahead_without_jokers = 0  # from step i on: all tiles and kept sets; those needing no joker
        for i in range(steps - 1, -1, -1):
            ahead += tiles[i] + kept[i]
            ahead_without_jokers += jokerless[i] + kept[i]
            # The first two numbers ahead count all their tiles (the numbers are increasing).
            near = tiles[i] - jokerless[i]
            if i + 1 < steps and self.numbers[i + 1] == self.numbers[i] + 1:
                near += tiles[i + 1] - jokerless[i + 1]
            bound[i] += ahead
            bound_without_jokers[i] += ahead_without_jokers + near
        return bound, bound_without_jokers

    # -------------------------------------------------------------- the walk

    def run(self) -> _Split | None:
        for _ in self.walk():
            pass
        if self.cut and self.best.path is None:
            raise _GaveUp
        return self.best.split()

    def walk(self) -> Iterator[int]:
        """A depth-first branch and bound first, best move first, for a while: it usually
        finds the best split, and often proves it. If not, every number in turn, keeping
        the states that could still reach a target score. With a score unit (a tile),
        targets go down one unit at a time from the most the rack could give, so a good
        split the depth-first search missed is found quickly; else the target is just
        above the best split found.

        What it finds and proves goes to ``best``, which another search of the same problem
        may share: each stops at the best split either found, and skips the targets either
        proved out of reach. Unless cut short by the budget, when this ends the best split
        is proven, or there is none. Yields the work done so far (states expanded) after
        each number.
        """
        best = self.best
        score, path, complete = self._depth_first()
        best.offer(self, score, path)
        if complete:
            return
        yield len(self.children)
        unit = self.problem.unit
        target = self.bound[0] // unit * unit if unit > 1 else best.score + 1
        while best.score < self.bound[0]:
            if best.ceiling is not None:
                target = min(target, best.ceiling - unit)
            if target <= best.score:
                return
            found: list[tuple[int, list[int]]] = []
            yield from self._walk_numbers(target, found)
            if self.cut:
                return
            if found:
                best.offer(self, *found[0])
                return
            best.ceiling = target if best.ceiling is None else min(best.ceiling, target)
            if target <= 0:
                return  # no split at all
            target = max(0, target - unit)

    def _walk_numbers(self, target: int, found: list[tuple[int, list[int]]]) -> Iterator[int]:
        """Number by number, the best split scoring at least ``target`` and its states, put in
        ``found`` if there is one.
        """
        layer = {0: 0}
        jokers = self.jokers
        budget = 1 << 62 if self.budget is None else self.budget
        backs: list[dict[int, int]] = []  # per number: state -> the state it came from
        for step in range(len(self.numbers)):
            following: dict[int, int] = {}
            back: dict[int, int] = {}
            # The score a state needs: with jokers left to place, and without.
            needed = target - self.bound[step + 1]
            needed_without_jokers = target - self.bound_without_jokers[step + 1]
            for key, score in layer.items():
                if len(self.children) > budget:
                    self.cut = True
                    return
                for new_key, gain in self._children_of(step, key).items():
                    new_score = score + gain
                    if new_score >= (
                        needed_without_jokers if new_key >> _JOKERS_AT & 3 == jokers else needed
                    ) and new_score > following.get(new_key, _NONE):
                        following[new_key] = new_score
                        back[new_key] = key
            layer = following
            backs.append(back)
            yield len(self.children)
        finished = [(self._final_score(key, score), key) for key, score in layer.items()]
        score, key = max(((total, key) for total, key in finished if total is not None), default=(_NONE, 0))
        if score >= target:
            path = [key]
            for back in reversed(backs):
                key = back[key]
                path.append(key)
            found.append((score, path[::-1]))

    def _depth_first(self) -> tuple[int, list[int] | None, bool]:
        """Best score, its states (None if no split was found) and whether the search was complete.

        The states still to visit are kept on a stack (their steps, keys and scores in three
        lists of ints), children pushed worst first so that the best is visited first.
        """
        steps = len(self.numbers)
        path = [0] * (steps + 1)  # the states of the split being walked
        best_score = self.best.score  # only a better split than any found is of use
        best_path = None
        seen: dict[int, int] = {}  # state -> the best score it was reached with
        budget = _DEPTH_FIRST_BUDGET if self.budget is None else min(_DEPTH_FIRST_BUDGET, self.budget)
        complete = True
        jokers, bound, bound_without_jokers = self.jokers, self.bound, self.bound_without_jokers
        all_children = self.children
        to_steps, to_keys, to_scores = [0], [0], [0]
        while to_keys:
            step, key, score = to_steps.pop(), to_keys.pop(), to_scores.pop()
            path[step] = key
            if step == steps:
                total = self._final_score(key, score)
                if total is not None and total > best_score:
                    best_score, best_path = total, list(path)
                continue
            memo_key = key * steps + step
            reachable = (bound_without_jokers if key >> _JOKERS_AT & 3 == jokers else bound)[step]
            if score + reachable <= best_score or seen.get(memo_key, _NONE) >= score:
                continue
            if budget <= 0:
                complete = False
                continue
            budget -= 1
            seen[memo_key] = score
            children = all_children.get(memo_key)  # as ``_children_of`` does, inlined
            if children is None:
                children = all_children[memo_key] = self._expand(step, key)[0]
            # Reversed rather than sorted worst first: equal children keep the order of visits.
            for new_key in reversed(sorted(children, key=children.__getitem__, reverse=True)):
                to_steps.append(step + 1)
                to_keys.append(new_key)
                to_scores.append(score + children[new_key])
        return best_score, best_path, complete

    def _final_score(self, key: int, score: int) -> int | None:
        """The score of a complete walk, or None if a run may not end here or a table joker is left."""
        problem = self.problem
        closable = _closable(self.slots)
        if any(
            self.colour_states[(key >> (_STATE_BITS * c)) & _STATE_MASK][0] not in closable
            for c in range(_COLOUR_COUNT)
        ):
            return None
        used = (key >> _JOKERS_AT) & 3
        if used < problem.forced_jokers or (key >> _MELD_AT) < problem.meld_minimum:
            return None
        return score + (used - problem.forced_jokers) * problem.joker_weight

    # --------------------------------------------------------- one number's moves

    def _children_of(self, step: int, key: int) -> dict[int, int]:
        """The states the next number leads to from ``key``, with the score gained; remembered,
        as the depth-first search and the walk by numbers meet the same states.
        """
        memo_key = key * len(self.numbers) + step
        children = self.children.get(memo_key)
        if children is None:
            children = self.children[memo_key] = self._expand(step, key)[0]
        return children

    def _decision(self, step: int, key: int, new_key: int) -> Decision:
        """How the next number leads from ``key`` to ``new_key`` with the most score."""
        decision = self._expand(step, key, new_key)[1]
        assert decision is not None, "a rebuilt path follows the search's own moves"
        return decision

    def _expand(self, step: int, key: int, towards: int = -1) -> tuple[dict[int, int], Decision | None]:
        """The next states from ``key`` (most score gained) and the decision leading to ``towards``."""
        number = self.numbers[step]
        problem = self.problem
        jokers = self.jokers
        state0 = key & _STATE_MASK
        state1 = key >> _STATE_BITS & _STATE_MASK
        state2 = key >> 2 * _STATE_BITS & _STATE_MASK
        state3 = key >> 3 * _STATE_BITS & _STATE_MASK
        used = (key >> _JOKERS_AT) & 3
        meld = key >> _MELD_AT
        meld_minimum = problem.meld_minimum
        joker_gain = problem.joker_number_weight[number]
        best: dict[int, int] = {}
        decision = None
        cache = self.move_cache
        group_choices = self.group_choices
        for keep in self.group_keeps.get(number, (_NO_GROUP_KEPT,)):
            jokers_left = jokers - used - keep.jokers
            if jokers_left < 0:
                continue
            # Each colour's moves, written out colour by colour: this is the search's inner
            # loop. One int as the cache key: a tuple costs more to build and to hash.
            taken0, taken1, taken2, taken3 = keep.taken
            first = cache.get(((state0 * 4 + taken0) * 16 + number) * 4) or self._colour_moves(
                0, number, state0, taken0
            )
            needs0 = first[_FEWEST_JOKERS + jokers_left]
            if needs0 == _NO_GIVING:
                continue
            second = cache.get(((state1 * 4 + taken1) * 16 + number) * 4 + 1) or self._colour_moves(
                1, number, state1, taken1
            )
            needs1 = second[_FEWEST_JOKERS + jokers_left]
            if needs1 == _NO_GIVING:
                continue
            third = cache.get(((state2 * 4 + taken2) * 16 + number) * 4 + 2) or self._colour_moves(
                2, number, state2, taken2
            )
            needs2 = third[_FEWEST_JOKERS + jokers_left]
            if needs2 == _NO_GIVING:
                continue
            fourth = cache.get(((state3 * 4 + taken3) * 16 + number) * 4 + 3) or self._colour_moves(
                3, number, state3, taken3
            )
            needs3 = fourth[_FEWEST_JOKERS + jokers_left]
            if needs3 == _NO_GIVING:
                continue
            base_score = len(keep.kept) * _KEEP
            choices_key = (((needs3 << 9 | needs2) << 9 | needs1) << 9 | needs0) << 2 | jokers_left
            choices = group_choices.get(choices_key)
            if choices is None:
                choices = group_choices[choices_key] = _choices(needs0, needs1, needs2, needs3, jokers_left)
            # Per choice: where each colour's moves are (see ``_choices``), the jokers left for
            # the runs, and the groups' jokers.
            for at0, at1, at2, at3, budget, group_jokers, given in choices:
                placed = (jokers - budget) << _JOKERS_AT  # the jokers placed before the runs
                group_score = base_score + group_jokers * joker_gain
                # Each move brings its part of the key (its colour's state and its jokers), and
                # each colour only the moves the jokers left allow; sums are carried from loop
                # to loop.
                for key0, j0, p0, m0, c0 in first[at0]:
                    key0 += placed
                    left0 = budget - j0
                    score0 = group_score + p0
                    for key1, j1, p1, m1, c1 in second[at1 + left0]:
                        key01 = key0 + key1
                        left01 = left0 - j1
                        score01 = score0 + p1
                        for key2, j2, p2, m2, c2 in third[at2 + left01]:
                            key012 = key01 + key2
                            score012 = score01 + p2
                            for key3, _, p3, m3, c3 in fourth[at3 + left01 - j2]:
                                new_key = key012 + key3
                                if meld_minimum:
                                    meld_value = meld + group_jokers * number + m0 + m1 + m2 + m3
                                    new_key |= min(meld_minimum, meld_value) << _MELD_AT
                                gain = score012 + p3
                                if gain > best.get(new_key, _NONE):
                                    best[new_key] = gain
                                    if new_key == towards:
                                        decision = (keep, group_jokers, given, (c0, c1, c2, c3))
        return best, decision

    def _colour_moves(self, colour: int, number: int, state_id: int, group_taken: int) -> ColourMoves:
        """One colour's moves at a number, by tiles given to groups: which existing runs
        starting here to keep whole, then where the other tiles go. Kept in ``move_cache``.
        """
        cache_key = ((state_id * 4 + group_taken) * 16 + number) * 4 + colour
        moves = self.move_cache[cache_key] = self._new_colour_moves(colour, number, state_id, group_taken)
        return moves

    def _kept_id(self, kept: tuple[int, ...]) -> int:
        kept_id = self.kept_ids.get(kept)
        if kept_id is None:
            kept_id = self.kept_ids[kept] = len(self.kept_runs)
            self.kept_runs.append(kept)
        return kept_id

    def _move_arguments(
        self, colour: int, number: int
    ) -> tuple[tuple[int, int, int], tuple[int, int, bool, int, int, int]]:
        """A colour's moves at a number: the weights of ``_moves_weighed``, and the arguments of
        ``_plain_moves`` after the run state and the forced tiles.
        """
        problem = self.problem
        kind = colour * HIGHEST + number - LOWEST
        meld = bool(problem.meld_minimum)
        weights = (problem.tile_weight[kind], problem.joker_number_weight[number], number if meld else 0)
        arguments = (
            self.slots,
            problem.optional[kind],
            meld,
            self.joker_room[colour][number - 1],
            self.supply[colour][number],
            self.supply[colour][number + 1],
        )
        return weights, arguments

    def _new_colour_moves(self, colour: int, number: int, state_id: int, group_taken: int) -> ColourMoves:
        """See ``_colour_moves``; each next state id comes shifted to its colour's place in a packed key."""
        problem = self.problem
        shift = colour * _STATE_BITS
        kind = colour * HIGHEST + number - LOWEST
        weights_and_arguments = self.move_arguments.get(kind)
        if weights_and_arguments is None:
            weights_and_arguments = self.move_arguments[kind] = self._move_arguments(colour, number)
        weights, arguments = weights_and_arguments
        if not problem.existing:
            # Without existing sets, a colour state id is its run state.
            return _plain_colour_moves(shift, state_id, problem.forced[kind], *weights, *arguments)
        state, locked = self.colour_states[state_id]
        starting = self.runs_starting.get((colour, number), ())
        if not locked and not starting:
            # No existing run kept here: the moves are those without existing sets, shared
            # between searches (a colour state id without kept runs is its run state).
            free_forced = problem.forced[kind] - group_taken
            return (
                _plain_colour_moves(shift, state, free_forced, *weights, *arguments)
                if free_forced >= 0
                else _NO_MOVES
            )
        tile_weight, joker_gain, meld_number = weights
        jokers_here = self.run_jokers_at.get(number)
        ending_here = self.runs_ending.get(number)
        moves: dict[int, list[Move]] = {}
        for size in range(len(starting), -1, -1):
            for kept in _subsets(starting, size):
                now_locked = tuple(sorted(locked + kept))
                locked_jokers = len(jokers_here.intersection(now_locked)) if jokers_here else 0
                free_forced = problem.forced[kind] - group_taken - (len(now_locked) - locked_jokers)
                if free_forced < 0:
                    continue
                # Runs that end here no longer matter: states differing only in them are one.
                going_on = (
                    tuple(position for position in now_locked if position not in ending_here)
                    if ending_here
                    else now_locked
                )
                state_ids = self.colour_state_ids.setdefault(going_on, {})
                kept_score = len(kept) * _KEEP
                kept_code = self._kept_id(kept) * _PLAN_KEPT
                for given, free_moves in enumerate(_plain_moves(state, free_forced, *arguments)):
                    if not free_moves:
                        continue
                    options = moves.setdefault(given, [])
                    for following, run_jokers, laid, plan in free_moves:
                        jokers = run_jokers + locked_jokers
                        following_id = state_ids.get(following)
                        if following_id is None:
                            following_id = state_ids[following] = len(self.colour_states)
                            self.colour_states.append((following, going_on))
                        options.append(
                            (
                                (following_id << shift) + (jokers << _JOKERS_AT),
                                jokers,
                                laid * tile_weight + run_jokers * joker_gain + kept_score,
                                (free_forced + laid + run_jokers) * meld_number,
                                plan + kept_code,
                            )
                        )
        return _by_joker_budget(moves)

    # -------------------------------------------------------------- the sets

    def _rebuild(self, score: int, path: list[int]) -> _Split:
        """The split the walk found: ``path`` holds its state before each number and at the end."""
        problem = self.problem
        decisions = [self._decision(step, path[step], path[step + 1]) for step in range(len(self.numbers))]
        run_plans = _run_plans(self.slots)[0]
        runs: list[list[list[str]]] = [[] for _ in range(_COLOUR_COUNT)]  # open runs, longest first
        sets: list[list[str]] = []
        used: list[str] = []
        kept: set[int] = set()
        for number, (keep, group_jokers, given, colour_moves) in zip(self.numbers, decisions, strict=True):
            kept.update(keep.kept)
            for colour, code in enumerate(colour_moves):
                kept_id, code = divmod(code, _PLAN_KEPT)
                code, in_runs = divmod(code, _PLAN_LAID)
                run_plan, optional_laid = divmod(code, _PLAN_LAID)
                goes_on, started = run_plans[run_plan]
                kept.update(self.kept_runs[kept_id])
                code = _code(colour, number)
                used += [code] * optional_laid
                pieces = [code] * in_runs + [JOKER] * (sum(goes_on) + started - in_runs)
                still_open = []
                for run, on in zip(runs[colour], goes_on, strict=False):  # runs: the open ones only
                    if on:
                        still_open.append([*run, pieces.pop()])
                    elif run:
                        sets.append(run)
                still_open += [[pieces.pop()] for _ in range(started)]
                runs[colour] = sorted(still_open, key=lambda run: -min(len(run), _LONG_RUN))
            sets += [
                [JOKER if c < 0 else _code(c, number) for c in group]
                for group in _group_split(given, group_jokers) or ()
            ]
        sets += [run for colour_runs in runs for run in colour_runs]
        jokers = sum(s.count(JOKER) for s in sets) + sum(problem.existing[p].jokers for p in kept)
        used += [JOKER] * (jokers - problem.forced_jokers)
        return _Split(score, tuple(used), tuple(tuple(s) for s in sets), frozenset(kept))


def _split(
    forced: Sequence[str],
    optional: Sequence[str] = (),
    *,
    existing: Melds = (),
    objective: Objective = Objective.TILES,
    meld_minimum: int = 0,
    joker_number_weight: tuple[int, ...] = (0,) * (HIGHEST + 1),
    budget: int | None = None,
    jokers_at: Sequence[int] = (),
    forced_form_sets: bool = False,
    floor: int = _NONE,
) -> _Split | None:
    """The best split of ``forced`` (which holds the tiles of ``existing``) plus some of ``optional``.

    ``floor``: only a split scoring more is wanted; None if there is none (the search prunes
    with it from the start).

    ``jokers_at``: the numbers the table's jokers stand for now, where the search starts.
    ``forced_form_sets``: the forced tiles are a valid table as they stand, so laying
    nothing is a split already; the search only looks for better ones, and None means no
    optional tile can be laid.

    Jokers first count as spare: the search places them only where they help and the rest
    are attached at the end. Every joker can then be laid, so this is the best split
    whenever the spare ones find room; in the rare case they do not, the search runs again
    with every joker placed by the walk. Not for the initial meld, where the number a
    joker stands for counts.
    """
    optional = _placeable(forced, optional) if optional else []
    if _homeless(forced, Counter(forced) + Counter(optional) if optional else Counter(forced)) is not None:
        return None
    forced_counts, forced_jokers = _counts(forced)
    optional_counts, optional_jokers = _counts(optional)
    tile_value = [number for _ in COLOURS for number in range(LOWEST, HIGHEST + 1)]
    if objective is Objective.TILES:
        weights = [_TILE_FIRST + value * _VALUE_TIE for value in tile_value]
        joker_weight = _TILE_FIRST + JOKER_RACK_VALUE * _VALUE_TIE
    else:
        weights = [value * _VALUE_FIRST + _VALUE_TIE for value in tile_value]
        joker_weight = JOKER_RACK_VALUE * _VALUE_FIRST + _VALUE_TIE
    problem = _Problem(
        forced=tuple(forced_counts),
        optional=tuple(optional_counts),
        forced_jokers=forced_jokers,
        optional_jokers=optional_jokers,
        tile_weight=tuple(weights),
        joker_weight=joker_weight,
        joker_number_weight=joker_number_weight,
        meld_minimum=meld_minimum,
        existing=tuple(_existing(s) for s in existing),
        unit=_TILE_FIRST if objective is Objective.TILES and optional else 1,
    )
    jokers = forced_jokers + optional_jokers
    mirror = not meld_minimum and not any(joker_number_weight)
    if jokers and mirror:
        spare = replace(problem, forced_jokers=0, optional_jokers=jokers, joker_weight=0)
        # Spare jokers score nothing until attached: a split laying only them must not be
        # taken for laying nothing.
        split = _race(spare, budget, jokers_at, forced_form_sets and not optional_jokers, floor)
        if split is None:
            return None
        sets = [list(s) for s in split.sets]
        placed = sum(s.count(JOKER) for s in sets) + sum(problem.existing[p].jokers for p in split.kept)
        if _attach(sets, jokers - placed):
            used = tuple(code for code in split.used if not is_joker(code)) + (JOKER,) * optional_jokers
            return replace(split, used=used, sets=tuple(tuple(s) for s in sets))
    if mirror:
        return _race(problem, budget, jokers_at, forced_form_sets, floor)
    return _Search(problem, budget, _Best(max(floor, 0) if forced_form_sets else floor)).run()


def _race(
    problem: _Problem,
    budget: int | None,
    jokers_at: Sequence[int] = (),
    forced_form_sets: bool = False,
    floor: int = _NONE,
) -> _Split | None:
    """Walk the numbers up and down at once, a number at a time for the one that has done
    less, sharing what they find, and stop at the first proof: which way is quick depends
    on the table, and one way is often many times quicker than the other. One way starts
    alone, as most tables are quick both ways: the way starting from the end where the
    table's jokers stand (``jokers_at``), since placing them early settles most of the
    search; upwards if that says nothing.
    """
    downwards_first = sum(jokers_at) > len(jokers_at) * (LOWEST + HIGHEST) / 2
    best = _Best(max(floor, 0) if forced_form_sets else floor)  # laying nothing scores 0
    leader = _Search(_mirrored(problem) if downwards_first else problem, budget, best)
    walks = {leader: leader.walk()}
    work_before = {leader: 0}  # states a search had expanded when they began to take turns
    while walks:
        if len(work_before) == 1 and len(leader.children) > _HEAD_START:
            follower = _Search(problem if downwards_first else _mirrored(problem), budget, best)
            walks[follower] = follower.walk()
            work_before = {leader: len(leader.children), follower: 0}
        search = min(walks, key=lambda s: len(s.children) - work_before[s])
        try:
            next(walks[search])
        except StopIteration:
            del walks[search]
            if not search.cut:
                return best.split()
    if best.path is None:
        raise _GaveUp
    return best.split()


def _flip(number: int) -> int:
    return HIGHEST + LOWEST - number


def _flip_code(code: str) -> str:
    return code if is_joker(code) else f"{colour_of(code)}{_flip(number_of(code))}"


def _mirrored(problem: _Problem) -> _Problem:
    """The same problem with every number n read as 14 - n: runs and groups stay valid."""

    def flip(by_kind: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(
            by_kind[c * HIGHEST + _flip(n) - LOWEST]
            for c in range(_COLOUR_COUNT)
            for n in range(LOWEST, HIGHEST + 1)
        )

    existing = tuple(
        replace(
            e,
            tiles=tuple(_flip_code(code) for code in reversed(e.tiles)),
            first=_flip(e.last),
            last=_flip(e.first),
            jokers_at=tuple(sorted(_flip(n) for n in e.jokers_at)),
        )
        for e in problem.existing
    )
    return replace(
        problem,
        forced=flip(problem.forced),
        optional=flip(problem.optional),
        tile_weight=flip(problem.tile_weight),
        existing=existing,
        mirrored=True,
    )


def _unmirrored(split: _Split) -> _Split:
    sets = tuple(tuple(_flip_code(code) for code in reversed(s)) for s in split.sets)
    return replace(split, used=tuple(_flip_code(code) for code in split.used), sets=sets)


def _attach(sets: list[list[str]], jokers: int) -> bool:
    """Put ``jokers`` spare jokers at the ends of runs or into groups of three; False if they do not fit."""
    for tiles in sets:
        real = [code for code in tiles if not is_joker(code)]
        if len({number_of(code) for code in real}) > 1:
            first = number_of(real[0]) - tiles.index(real[0])
            while jokers and first + len(tiles) - 1 < HIGHEST:
                tiles.append(JOKER)
                jokers -= 1
            while jokers and first > LOWEST:
                tiles.insert(0, JOKER)
                first -= 1
                jokers -= 1
        elif jokers and len(tiles) == MIN_SET_SIZE:
            tiles.append(JOKER)
            jokers -= 1
    return jokers == 0


def can_split(tiles: Sequence[str]) -> bool:
    """Whether these tiles, all of them, form valid sets."""
    return _split(tiles) is not None


# ------------------------------------------------------------------- explanations


def _fits_somewhere(code: str, pool: Counter[str]) -> bool:
    """Whether some valid set holds ``code`` with other tiles of ``pool`` (which holds it too).

    ``pool`` holds positive counts only (as ``Counter`` builds and adds them): a tile is in
    it when its code is a key, looked up without ``Counter.__missing__``.
    """
    if is_joker(code):
        return sum(pool.values()) >= MIN_SET_SIZE
    jokers = pool.get(JOKER, 0)
    colour, number = colour_of(code), number_of(code)
    group_mates = sum(1 for other in COLOURS if other != colour and f"{other}{number}" in pool)
    if group_mates + jokers >= MIN_SET_SIZE - 1:
        return True
    for start in range(max(LOWEST, number - MIN_SET_SIZE + 1), min(number, HIGHEST - MIN_SET_SIZE + 1) + 1):
        if (
            sum(1 for n in range(start, start + MIN_SET_SIZE) if n != number and f"{colour}{n}" not in pool)
            <= jokers
        ):
            return True
    return False


def _homeless(tiles: Sequence[str], pool: Counter[str]) -> str | None:
    """The first of ``tiles`` that no valid set made from ``pool`` can hold, if any."""
    return next((code for code in dict.fromkeys(tiles) if not _fits_somewhere(code, pool)), None)


def _placeable(forced: Sequence[str], optional: Sequence[str]) -> list[str]:
    """The optional tiles that may fit somewhere, dropping the others until none is left to drop."""
    optional = list(optional)
    while True:
        pool = Counter(forced) + Counter(optional)
        keep = [code for code in optional if _fits_somewhere(code, pool)]
        if len(keep) == len(optional):
            return optional
        optional = keep


# ------------------------------------------------------------------ the public API


def lay_out_initial_meld(tiles: Sequence[str], table: Melds = ()) -> Layout:
    """The first play: ``tiles`` alone form new sets worth at least 30; the table is untouched."""
    if not tiles:
        raise GameError("rummikub.error.no_tiles")
    homeless = _homeless(tiles, Counter(tiles))
    if homeless is not None:
        raise GameError("rummikub.error.meld_fits_nowhere", tile=homeless)
    # A joker counts the number it stands for: let the search pick the numbers worth most.
    split = _split(tiles, joker_number_weight=tuple(range(HIGHEST + 1)))
    if split is None:
        raise GameError("rummikub.error.meld_no_sets", tiles=list(tiles))
    value = sum(meld_value(s) for s in split.sets)
    if value < INITIAL_MELD_MINIMUM:
        raise GameError("rummikub.error.meld_too_low", value=value, minimum=INITIAL_MELD_MINIMUM)
    old = tuple(tuple(s) for s in table)
    return Layout(
        tiles=tuple(tiles),
        table=old + split.sets,
        changed=tuple(range(len(old), len(old) + len(split.sets))),
        broken=0,
        meld_value=value,
    )


def lay_out(table: Melds, tiles: Sequence[str]) -> Layout:
    """Add ``tiles`` to the table, rearranging it and changing as few sets as possible.

    Raises a GameError saying why when no valid table holds every old tile and these.
    """
    if not tiles:
        raise GameError("rummikub.error.no_tiles")
    old_tiles = [code for s in table for code in s]
    homeless = _homeless(tiles, Counter(old_tiles) + Counter(tiles))
    if homeless is not None:
        raise GameError("rummikub.error.fits_nowhere", tile=homeless)
    layout = _fewest_changes(table, tiles)
    if layout is not None:
        return layout
    jokers_at = _jokers_at(table)
    whole = _split([*old_tiles, *tiles], jokers_at=jokers_at)
    if whole is None:
        best = _split(old_tiles, tiles, jokers_at=jokers_at, forced_form_sets=True)
        playable = list(best.used) if best is not None else []
        if playable:
            raise GameError("rummikub.error.no_layout_partial", tiles=list(tiles), playable=playable)
        raise GameError("rummikub.error.no_layout", tiles=list(tiles))
    return _rebuilt(table, tiles, whole.sets)


def _rebuilt(table: Melds, tiles: Sequence[str], whole: Sequence[tuple[str, ...]]) -> Layout:
    """The layout of ``whole``, a split of everything, keeping the old sets it happens to rebuild."""
    sets = [tuple(s) for s in table]
    kept = _kept_as_rebuilt(sets, whole)
    return _layout(table, tiles, kept, _leftover(whole, [sets[p] for p in kept]))


def _fewest_changes(table: Melds, tiles: Sequence[str], known: Layout | None = None) -> Layout | None:
    """The layout breaking the fewest existing sets that the search finds, or None.

    The new tiles alone first, then with one set next to them; then sets are tried in
    rings around the new tiles: the sets that could share a set with them, then their
    neighbours, and so on. A set ``depth``
    rings away can only be broken together with a set of every ring before it, so a best
    split of the first ``depth`` rings that breaks at most ``depth + 1`` sets cannot be
    beaten. None when no ring gives a layout within the search budget.

    Each ring's search looks only for layouts breaking fewer sets than the best one known,
    which bounds it from the start; finding none, the best one known is the best within
    those rings, so the rule above holds for it.

    ``known``: a layout of these tiles found already, kept unless the search finds one
    breaking fewer sets; the rings are not searched when it breaks only two, as no set
    alone could take the tiles.
    """
    alone = _split(tiles)
    if alone is not None:  # the new tiles form sets of their own: nothing else changes
        return _layout(table, tiles, frozenset(range(len(table))), alone.sets)
    sets = [tuple(s) for s in table]
    rings = _rings(sets, tiles)
    everything = frozenset(range(len(sets)))
    for position in (p for p, ring in enumerate(rings) if ring == 1):  # one set changed, the usual play
        one = _split([*tiles, *sets[position]])
        if one is not None:
            return _layout(table, tiles, everything - {position}, one.sets)
    if known is not None and known.broken <= 2:
        return known
    best: tuple[frozenset[int], tuple[tuple[str, ...], ...]] | None = None
    fewest_broken = None if known is None else known.broken  # of the best layout known
    for depth in range(1, max(rings, default=0) + 1):
        candidates = [p for p, ring in enumerate(rings) if 0 < ring <= depth]
        pool = [*tiles, *(code for p in candidates for code in sets[p])]
        # A split scores the sets it keeps: it must keep more of these than the best known.
        floor = _NONE if fewest_broken is None else (len(candidates) - fewest_broken) * _KEEP
        try:
            around = [sets[p] for p in candidates]
            split = _split(
                pool, existing=around, budget=_KEEP_BUDGET, jokers_at=_jokers_at(around), floor=floor
            )
        except _GaveUp:
            break
        if split is not None:
            kept = everything - set(candidates) | {candidates[i] for i in split.kept}
            best = (kept, split.sets)
            fewest_broken = len(sets) - len(kept)
        if fewest_broken is not None and fewest_broken <= depth + 1:
            break
    found = None if best is None else _layout(table, tiles, *best)
    return known if known is not None and (found is None or known.broken < found.broken) else found


def _kept_as_rebuilt(sets: list[tuple[str, ...]], split: Sequence[tuple[str, ...]]) -> frozenset[int]:
    """The existing sets that ``split`` happens to rebuild (same tiles)."""
    rebuilt = Counter(tuple(sorted(s)) for s in split)
    kept = set()
    for position, s in enumerate(sets):
        if rebuilt[tuple(sorted(s))]:
            rebuilt[tuple(sorted(s))] -= 1
            kept.add(position)
    return frozenset(kept)


def _leftover(
    split: Sequence[tuple[str, ...]], kept: Sequence[tuple[str, ...]]
) -> tuple[tuple[str, ...], ...]:
    """``split`` without one copy of each of ``kept`` (compared as tiles)."""
    remove = Counter(tuple(sorted(s)) for s in kept)
    left = []
    for s in split:
        if remove[tuple(sorted(s))]:
            remove[tuple(sorted(s))] -= 1
        else:
            left.append(s)
    return tuple(left)


def _rings(sets: list[tuple[str, ...]], tiles: Sequence[str]) -> list[int]:
    """How many steps each set is from the new tiles, a step joining two sets whose tiles
    could meet in one set (a joker, the same number, or the same colour with a gap jokers
    can fill); 0 for sets never reached, which a best layout never needs to touch.
    """
    gap = 1 + sum(s.count(JOKER) for s in sets) + list(tiles).count(JOKER)
    # Each set as: holds a joker?, its numbers, its tiles as (colour, number).
    Summary = tuple[bool, frozenset[int], tuple[tuple[str, int], ...]]

    def summary(tiles: Sequence[str]) -> Summary:
        real = tuple((colour_of(code), number_of(code)) for code in tiles if not is_joker(code))
        return len(real) < len(tiles), frozenset(number for _, number in real), real

    def meet(first: Summary, second: Summary) -> bool:
        if first[0] or second[0] or not first[1].isdisjoint(second[1]):
            return True
        return any(
            colour == other_colour and abs(number - other_number) <= gap
            for colour, number in first[2]
            for other_colour, other_number in second[2]
        )

    summaries = [summary(s) for s in sets]
    ring = [0] * len(sets)
    frontier = [summary(tiles)]
    depth = 0
    while frontier:
        depth += 1
        reached = [
            p for p, s in enumerate(summaries) if not ring[p] and any(meet(s, other) for other in frontier)
        ]
        for p in reached:
            ring[p] = depth
        frontier = [summaries[p] for p in reached]
    return ring


def _layout(
    table: Melds, tiles: Sequence[str], kept: frozenset[int], new_sets: Sequence[tuple[str, ...]]
) -> Layout:
    """The new table: kept sets in their old order, then the new ones."""
    old = [tuple(s) for position, s in enumerate(table) if position in kept]
    layout = Layout(
        tiles=tuple(tiles),
        table=tuple(old) + tuple(new_sets),
        changed=tuple(range(len(old), len(old) + len(new_sets))),
        broken=len(table) - len(old),
    )
    before = Counter(code for s in table for code in s) + Counter(tiles)
    after = Counter(code for s in layout.table for code in s)
    # Never lose or copy a tile, never leave a bad set: such a bug must not reach a table.
    if before != after or not all(is_valid_set(s) for s in layout.table):
        raise AssertionError(f"solver produced a wrong table: {layout}")
    return layout


def _forget_moves_past_limit() -> None:
    if len(_plain_colour_moves.recent) > _COLOUR_MOVES_KEPT:
        for memo in (_plain_colour_moves, _plain_moves, _free_moves, _group_choices):
            memo.age()
    if len(_choices.recent) > _CHOICES_KEPT:
        _choices.age()


def best_play(
    rack: Sequence[str],
    table: Melds = (),
    *,
    initial_meld: bool = False,
    objective: Objective = Objective.TILES,
    fewest_changes: bool = True,
) -> Layout | None:
    """The play laying the most tiles (or the most rack value, a joker counting 30), or None.

    With ``initial_meld`` the table may not be touched and the new sets must be worth 30;
    pass an empty table for what the rack alone can form. The new table keeps as many
    existing sets as it can; with ``fewest_changes`` off, any valid table (quicker).
    """
    _forget_moves_past_limit()
    if initial_meld:
        split = _split(
            (), rack, objective=objective, meld_minimum=INITIAL_MELD_MINIMUM, forced_form_sets=True
        )
        return lay_out_initial_meld(split.used, table) if split is not None and split.used else None
    split = _split(
        [code for s in table for code in s],
        rack,
        objective=objective,
        jokers_at=_jokers_at(table),
        forced_form_sets=True,
    )
    if split is None or not split.used:
        return None
    layout = _rebuilt(table, split.used, split.sets)
    return _fewest_changes(table, split.used, layout) if fewest_changes else layout


def most_tiles(
    rack: Sequence[str], table: Melds = (), *, initial_meld: bool = False, fewest_changes: bool = True
) -> Layout | None:
    return best_play(rack, table, initial_meld=initial_meld, fewest_changes=fewest_changes)


def highest_value(rack: Sequence[str], table: Melds = (), *, initial_meld: bool = False) -> Layout | None:
    return best_play(rack, table, initial_meld=initial_meld, objective=Objective.VALUE)
