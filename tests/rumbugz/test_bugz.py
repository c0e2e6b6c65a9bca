"""The bag data table and the sequence rules (docs/rules/rumbugz.md: Bugz and sequences)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.core import GameError
from games.rumbugz.bugz import (
    ALL_BUGZ,
    KIND_STEPS,
    KINDS,
    MIN_SEQUENCE_LENGTH,
    NUMBER_OF,
    Entry,
    can_change,
    can_lay,
    candidate_changes,
    candidate_lays,
    changed_sequence,
    check_sequence,
    entry_order,
    is_plyt,
    one_of_each,
)

PLYTS = [code for code in ALL_BUGZ if is_plyt(code)]


def numbered(*values: int) -> list[Entry]:
    """Entries for numbered Bugz, a different copy for each repeated number."""
    seen: Counter[int] = Counter()
    entries = []
    for value in values:
        entries.append((f"{value}{'abcdefgh'[seen[value]]}", value))
        seen[value] += 1
    return entries


def test_bag_holds_100_bugz_eight_of_each_number_and_four_plyt() -> None:
    assert len(ALL_BUGZ) == 100
    assert len(set(ALL_BUGZ)) == 100
    counts = Counter(NUMBER_OF[code] for code in ALL_BUGZ)
    assert counts == {**{number: 8 for number in range(1, 13)}, None: 4}
    assert sorted(code for code in ALL_BUGZ if is_plyt(code)) == ["Pa", "Pb", "Pc", "Pd"]


@pytest.mark.parametrize(
    ("kind", "values"),
    [
        ("simple", (2, 3, 4, 5)),
        ("simple", (9, 10, 11, 12)),
        ("double", (2, 4, 6, 8)),
        ("double", (5, 7, 9, 11)),
        ("triple", (3, 6, 9, 12)),
        ("triple", (1, 4, 7, 10)),
        ("match", (3, 3, 3, 3)),
        ("match", (8, 8, 8, 8)),
    ],
)
def test_rulebook_examples_are_valid_sequences(kind: str, values: tuple[int, ...]) -> None:
    check_sequence(kind, numbered(*values))


def test_sequences_may_be_longer_than_four() -> None:
    check_sequence("simple", numbered(3, 4, 5, 6, 7, 8))
    check_sequence("match", numbered(10, 10, 10, 10, 10, 10))
    check_sequence("double", numbered(2, 4, 6, 8, 10, 12))


def test_three_bugz_are_too_short() -> None:
    with pytest.raises(GameError) as error:
        check_sequence("simple", numbered(4, 5, 6))
    assert error.value.key == "rumbugz.error.too_short"


@pytest.mark.parametrize(("kind", "values"), [("simple", (11, 12, 1, 2)), ("double", (10, 12, 2, 4))])
def test_no_wrap_past_twelve(kind: str, values: tuple[int, ...]) -> None:
    with pytest.raises(GameError) as error:
        check_sequence(kind, numbered(*values))
    assert error.value.key == "rumbugz.error.not_a_sequence"


@pytest.mark.parametrize(
    ("kind", "values"),
    [("simple", (2, 4, 6, 8)), ("double", (2, 3, 4, 5)), ("triple", (1, 4, 7, 9)), ("match", (8, 8, 8, 9))],
)
def test_the_declared_kind_must_fit(kind: str, values: tuple[int, ...]) -> None:
    with pytest.raises(GameError):
        check_sequence(kind, numbered(*values))


def test_a_plyt_stands_for_any_number() -> None:
    check_sequence("triple", [*numbered(3, 6, 9), ("Pa", 12)])
    check_sequence("simple", [("Pa", 1), ("Pb", 2), ("Pc", 3), ("4a", 4)])


def test_a_sequence_needs_a_numbered_bug() -> None:
    with pytest.raises(GameError) as error:
        check_sequence("match", [("Pa", 5), ("Pb", 5), ("Pc", 5), ("Pd", 5)])
    assert error.value.key == "rumbugz.error.no_number"


def _random_sequence(rng: random.Random) -> tuple[str, list[Entry]]:
    """A valid table sequence of a random kind, some of its Bugz PLYTs (never all)."""
    kind = rng.choice(KINDS)
    step = KIND_STEPS[kind]
    length = rng.randint(MIN_SEQUENCE_LENGTH, 8 if step == 0 else 12 // step)
    start = rng.randint(1, 12 - (length - 1) * step)
    values = [start + index * step for index in range(length)]
    entries = numbered(*values)
    plyts = iter(rng.sample(PLYTS, rng.randint(0, len(PLYTS))))
    for index in rng.sample(range(length), length - 1):
        code = next(plyts, None)
        if code is not None:
            entries[index] = (code, entries[index][1])
    return kind, sorted(entries, key=entry_order)


def test_can_lay_answers_like_the_candidate_lays() -> None:
    rng = random.Random(1)
    for _ in range(3000):
        hand = rng.sample(ALL_BUGZ, rng.randint(0, 12))
        kinds = rng.sample(KINDS, rng.randint(1, len(KINDS)))
        assert can_lay(hand, kinds) == any(candidate_lays(hand, kinds)), (hand, kinds)


def test_can_change_answers_like_the_candidate_changes() -> None:
    rng = random.Random(2)
    for _ in range(3000):
        kind, entries = _random_sequence(rng)
        on_table = {code for code, _ in entries}
        hand = rng.sample([code for code in ALL_BUGZ if code not in on_table], rng.randint(0, 8))
        stand_ins = one_of_each(hand)
        legal = 0
        for added, removed in candidate_changes(kind, entries, stand_ins):
            try:
                changed_sequence(kind, entries, added, removed)
            except GameError:
                continue
            legal += 1
        assert can_change(kind, entries, stand_ins) == (legal > 0), (kind, entries, hand)
