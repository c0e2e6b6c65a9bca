"""The bag of 100 Bugz, the four sequence kinds and the sequence rules that use them.

Bug codes (used in views, actions and event params): a numbered Bug is its number followed
by a copy letter, "1a" ... "12h"; a PLYT wild Bug is "P" followed by a copy letter, "Pa" ...
"Pd". Every Bug has its own code so that the 100 Bugz can be counted at any time; copies of
one number play identically. On the table a Bug is an entry (code, value): the value of a
numbered Bug is its number, the value of a PLYT is the number declared when it was laid.
"""

from __future__ import annotations

import functools
import itertools
import string
from collections.abc import Iterable, Iterator, Sequence

from games.core import GameError

# The bag (docs/rules/rumbugz.md: provisional, the printed set was not available): (number, copies);
# None is the PLYT wild Bug.
BAG_COMPOSITION: tuple[tuple[int | None, int], ...] = (
    (1, 8),
    (2, 8),
    (3, 8),
    (4, 8),
    (5, 8),
    (6, 8),
    (7, 8),
    (8, 8),
    (9, 8),
    (10, 8),
    (11, 8),
    (12, 8),
    (None, 4),
)
PLYT_PREFIX = "P"
LOWEST_NUMBER = 1
HIGHEST_NUMBER = 12

# Sequence kinds and the difference between neighbouring values (0: all the same number).
KIND_STEPS: dict[str, int] = {"simple": 1, "double": 2, "triple": 3, "match": 0}
KINDS: tuple[str, ...] = tuple(KIND_STEPS)
MIN_SEQUENCE_LENGTH = 4

Entry = tuple[str, int]


def _codes(number: int | None, copies: int) -> list[str]:
    prefix = PLYT_PREFIX if number is None else str(number)
    return [prefix + letter for letter in string.ascii_lowercase[:copies]]


NUMBER_OF: dict[str, int | None] = {
    code: number for number, copies in BAG_COMPOSITION for code in _codes(number, copies)
}
ALL_BUGZ: tuple[str, ...] = tuple(NUMBER_OF)


def is_plyt(code: str) -> bool:
    return NUMBER_OF[code] is None


def hand_order(code: str) -> tuple[int, str]:
    """Sort key for a hand: by number, PLYT last."""
    number = NUMBER_OF[code]
    return (HIGHEST_NUMBER + 1 if number is None else number, code)


def entry_order(entry: Entry) -> tuple[int, tuple[int, str]]:
    """Sort key for a table sequence: by value, then numbered before PLYT."""
    return (entry[1], hand_order(entry[0]))


def bug_points(code: str, plyt_value: int) -> int:
    number = NUMBER_OF[code]
    return plyt_value if number is None else number


def check_sequence(kind: str, entries: Sequence[Entry]) -> None:
    """Raise GameError unless ``entries`` form a valid sequence of ``kind``."""
    if len(entries) < MIN_SEQUENCE_LENGTH:
        raise GameError("rumbugz.error.too_short", minimum=MIN_SEQUENCE_LENGTH)
    if all(is_plyt(code) for code, _ in entries):
        raise GameError("rumbugz.error.no_number")
    values = sorted(value for _, value in entries)
    step = KIND_STEPS[kind]
    if any(later - earlier != step for earlier, later in itertools.pairwise(values)):
        raise GameError("rumbugz.error.not_a_sequence", kind=kind)


def signature(entries: Iterable[Entry]) -> list[tuple[int, bool]]:
    """What a sequence looks like, ignoring which copy of a number it holds."""
    return sorted((value, is_plyt(code)) for code, value in entries)


def changed_sequence(
    kind: str, entries: Sequence[Entry], added: Sequence[Entry], removed: Iterable[str]
) -> list[Entry]:
    """The sequence after a change, checked; raises GameError when the change is not allowed."""
    if not added:
        raise GameError("rumbugz.error.nothing_added")
    taken_off = set(removed)
    kept = [entry for entry in entries if entry[0] not in taken_off]
    if signature(added) == signature(entry for entry in entries if entry[0] in taken_off):
        raise GameError("rumbugz.error.nothing_changes")
    result = sorted(kept + list(added), key=entry_order)
    check_sequence(kind, result)
    return result


def _fill(values: Sequence[int], copies: dict[int, list[str]], plyts: list[str]) -> list[Entry] | None:
    """Bugz for ``values``: numbered Bugz where the hand has them, PLYT for the gaps."""
    used: dict[int, int] = {}
    entries: list[Entry] = []
    spare_plyts = iter(plyts)
    for value in values:
        index = used.get(value, 0)
        if index < len(copies.get(value, ())):
            used[value] = index + 1
            entries.append((copies[value][index], value))
            continue
        code = next(spare_plyts, None)
        if code is None:
            return None
        entries.append((code, value))
    return entries


def hand_by_number(hand: Iterable[str]) -> tuple[dict[int, list[str]], list[str]]:
    """The numbered Bugz of a hand grouped by number, and its PLYTs."""
    copies: dict[int, list[str]] = {}
    plyts: list[str] = []
    for code in hand:
        number = NUMBER_OF[code]
        if number is None:
            plyts.append(code)
        else:
            copies.setdefault(number, []).append(code)
    return copies, plyts


def candidate_lays(hand: Sequence[str], kinds: Iterable[str]) -> Iterator[tuple[str, list[Entry]]]:
    """One valid sequence per kind and value pattern the hand can make (numbered Bugz first)."""
    copies, plyts = hand_by_number(hand)
    for kind in kinds:
        step = KIND_STEPS[kind]
        for start in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1):
            if step == 0 and start not in copies:
                continue
            for length in range(MIN_SEQUENCE_LENGTH, len(hand) + 1):
                last = start + (length - 1) * step
                if last > HIGHEST_NUMBER:
                    break
                entries = _fill(range(start, last + 1, step) if step else [start] * length, copies, plyts)
                if entries is None:
                    # A longer run from the same start would need even more Bugz.
                    break
                if not all(is_plyt(code) for code, _ in entries):
                    yield kind, entries


@functools.cache
def _fewest_gaps(step: int, held: int) -> int:
    """The fewest numbers missing from a shortest run of ``step`` (1, 2 or 3), ``held`` being the
    numbers in hand as bits (bit n set: number n held)."""
    last_start = HIGHEST_NUMBER - (MIN_SEQUENCE_LENGTH - 1) * step
    return min(
        sum(not held >> value & 1 for value in range(start, start + MIN_SEQUENCE_LENGTH * step, step))
        for start in range(LOWEST_NUMBER, last_start + 1)
    )


def can_lay(hand: Iterable[str], kinds: Iterable[str]) -> bool:
    """Whether ``candidate_lays(hand, kinds)`` offers a sequence, without building any.

    Any longer sequence holds a shortest one with a numbered Bug, so shortest ones suffice: four
    values the hand covers with its numbers and at most three PLYTs.
    """
    copies: dict[int, int] = {}
    plyts = 0
    held = 0
    for code in hand:
        number = NUMBER_OF[code]
        if number is None:
            plyts += 1
        else:
            copies[number] = copies.get(number, 0) + 1
            held |= 1 << number
    usable_plyts = min(plyts, MIN_SEQUENCE_LENGTH - 1)
    for kind in kinds:
        step = KIND_STEPS[kind]
        if step == 0:
            if copies and max(copies.values()) + usable_plyts >= MIN_SEQUENCE_LENGTH:
                return True
        elif _fewest_gaps(step, held) <= usable_plyts:
            return True
    return False


def one_of_each(hand: Iterable[str]) -> dict[int | None, str]:
    """The first Bug of each number in ``hand`` (None: a PLYT); copies of a number play alike."""
    first: dict[int | None, str] = {}
    for code in hand:
        first.setdefault(NUMBER_OF[code], code)
    return first


def candidate_changes(
    kind: str, entries: Sequence[Entry], stand_ins: dict[int | None, str]
) -> Iterator[tuple[list[Entry], list[str]]]:
    """Single-Bug changes worth offering: (added entries, removed codes); may include illegal ones.

    ``entries`` are a table sequence in order, ``stand_ins`` the hand as ``one_of_each`` gives it.
    Offered: adding a Bug at an end (pushing the opposite end out or not), a numbered Bug
    replacing the PLYT that stands for it, a PLYT replacing a numbered Bug.
    """
    step = KIND_STEPS[kind]
    plyt = stand_ins.get(None)
    ends: list[tuple[int, str | None]]
    if step:
        ends = [(entries[0][1] - step, entries[-1][0]), (entries[-1][1] + step, entries[0][0])]
    else:
        ends = [(entries[0][1], None)]
    for value, opposite in ends:
        if not LOWEST_NUMBER <= value <= HIGHEST_NUMBER:
            continue
        for code in (stand_ins.get(value), plyt):
            if code is not None:
                yield [(code, value)], []
                if opposite is not None:
                    yield [(code, value)], [opposite]
    for code, value in entries:
        stand_in = stand_ins.get(value) if is_plyt(code) else plyt
        if stand_in is not None:
            yield [(stand_in, value)], [code]


def legal_changes(
    kind: str, entries: Sequence[Entry], stand_ins: dict[int | None, str]
) -> Iterator[tuple[list[Entry], list[str]]]:
    """The legal ones of ``candidate_changes``, each distinct result once: taking off one copy
    of a number or another gives the same sequence."""
    offered: list[tuple[list[tuple[int, bool]], list[tuple[int, bool]]]] = []
    for added, removed in candidate_changes(kind, entries, stand_ins):
        try:
            changed_sequence(kind, entries, added, removed)
        except GameError:
            continue
        key = (signature(added), signature(entry for entry in entries if entry[0] in removed))
        if key not in offered:
            offered.append(key)
            yield added, removed


def can_change(kind: str, entries: Sequence[Entry], stand_ins: dict[int | None, str]) -> bool:
    """Whether ``candidate_changes`` offers a legal change of this valid sequence, without trying any.

    Adding a Bug at an end is always legal, and so is a number replacing the PLYT that stands
    for it; a PLYT replacing a number is legal unless that number is the only one. Pushing the
    opposite end out is offered only with an add, so it opens nothing more.
    """
    step = KIND_STEPS[kind]
    low, high = entries[0][1] - step, entries[-1][1] + step
    if None in stand_ins and (
        low >= LOWEST_NUMBER
        or high <= HIGHEST_NUMBER
        or sum(NUMBER_OF[code] is not None for code, _ in entries) > 1
    ):
        return True
    # Numbers past 1 or 12 are never held, so an end outside the range is never in stand_ins.
    if low in stand_ins or high in stand_ins:
        return True
    return any(NUMBER_OF[code] is None and value in stand_ins for code, value in entries)
