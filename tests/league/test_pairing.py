"""The pure pairing of bot/pairing.py: points by place, standings and tie-breaks computed by hand,
table sizes, Swiss rounds (seeded, by standing, avoiding repeat seatings where an equal swap
allows, byes never twice), the Dutch system at two seats, and round robins."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.pairing import (
    Bye,
    PlayedTable,
    RoundPlan,
    bye_points,
    first_draw,
    met_counts,
    repeats,
    round_robin,
    standings,
    swiss_round,
    table_points,
    table_sizes,
    without_dropped,
)


def test_places_score_a_fixed_range_whatever_the_tables_size():
    assert table_points([1, 2, 3, 4], seats=4) == [3, 2, 1, 0]
    assert table_points([2, 1, 3], seats=4) == [Fraction(3, 2), 3, 0]
    assert table_points([1, 2, 2, 4], seats=4) == [3, Fraction(3, 2), Fraction(3, 2), 0]
    assert table_points([1, 2], seats=2) == [1, 0]
    assert bye_points(4) == Fraction(3, 2) and bye_points(2) == Fraction(1, 2) and bye_points(3) == 1


@pytest.mark.parametrize(
    ("count", "seats", "fewest", "sizes", "byes"),
    [
        (13, 4, 2, ([4, 3, 3, 3]), 0),  # tables one seat short first
        (16, 4, 2, [4, 4, 4, 4], 0),
        (5, 4, 2, [4], 1),  # two seats short would be needed: a bye instead
        (13, 4, 4, [4, 4, 4], 1),  # a game of four players exactly: no short tables
        (7, 2, 2, [2, 2, 2], 1),
        (9, 3, 2, [3, 3, 3], 0),
        (1, 2, 2, [], 1),
        (2, 4, 2, [2], 0),  # what drops left of a field: one table of what is left
    ],
)
def test_entrants_sit_at_full_tables_then_tables_one_short_then_byes(count, seats, fewest, sizes, byes):
    assert table_sizes(count, seats, fewest) == (sizes, byes)


def test_standings_rank_by_points_then_opponents_points_then_match_totals():
    """Seven entrants at four seats, over two rounds, computed by hand:

    round 1: table (1 2 3 4) places 1 2 3 4, totals 110 80 50 20 -> points 3 2 1 0
             table (5 6 7)   places 1 2 3,   totals 110 70 30    -> points 3 1.5 0
    round 2: table (1 5 6 2) places 2 1 3 4, totals 90 110 60 10 -> points 2 3 1 0
             table (3 7 4)   places 1 2 2,   totals 110 40 40    -> points 3 0.75 0.75

    points: 1: 5, 5: 6, 6: 2.5, 2: 2, 3: 4, 7: 0.75, 4: 0.75
    opponents' points (per table, of the others): 1: (2+4+0.75) + (6+2.5+2) = 17.25;
    5: (2.5+0.75) + (5+2.5+2) = 12.75; 3: (5+2+0.75) + (0.75+0.75) = 9.25;
    6: (6+0.75) + (5+6+2) = 19.75; 2: (5+4+0.75) + (5+6+2.5) = 23.25;
    7: (6+2.5) + (4+0.75) = 13.25; 4: (5+2+4) + (4+0.75) = 15.75.
    7 and 4 tie on 0.75 points; 4 has more opponents' points.
    """
    tables = [
        PlayedTable(1, (1, 2, 3, 4), (1, 2, 3, 4), (110, 80, 50, 20)),
        PlayedTable(1, (5, 6, 7), (1, 2, 3), (110, 70, 30)),
        PlayedTable(2, (1, 5, 6, 2), (2, 1, 3, 4), (90, 110, 60, 10), (False, False, True, False)),
        PlayedTable(2, (3, 7, 4), (1, 2, 2), (110, 40, 40)),
    ]
    table = standings([1, 2, 3, 4, 5, 6, 7], tables, [], seats=4)
    assert [(s.entrant, s.points, s.opponents_points) for s in table] == [
        (5, 6, Fraction(51, 4)),
        (1, 5, Fraction(69, 4)),
        (3, 4, Fraction(37, 4)),
        (6, Fraction(5, 2), Fraction(79, 4)),
        (2, 2, Fraction(93, 4)),
        (4, Fraction(3, 4), Fraction(63, 4)),
        (7, Fraction(3, 4), Fraction(53, 4)),
    ]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6, 7]
    assert [s.entrant for s in table if s.stood_in] == [6]
    assert {s.entrant: s.totals for s in table}[1] == 200


def test_equal_points_and_opponents_points_fall_to_match_totals_then_share_a_rank():
    tables = [PlayedTable(1, (1, 2), (1, 2), (100, 90)), PlayedTable(1, (3, 4), (1, 2), (100, 90))]
    table = standings([1, 2, 3, 4, 5], tables, [Bye(1, 5)], seats=2)
    assert [(s.entrant, s.points) for s in table] == [
        (1, 1),
        (3, 1),
        (5, Fraction(1, 2)),
        (2, 0),
        (4, 0),
    ]
    assert [s.rank for s in table] == [1, 1, 3, 4, 4]
    assert table[2].byes == 1


def test_round_one_is_drawn_from_the_seed_alone():
    everyone = list(range(1, 14))
    plan = swiss_round(1, everyone, set(everyone), [], [], 4, 2, seed=11)
    assert plan == swiss_round(1, everyone, set(everyone), [], [], 4, 2, seed=11)
    assert plan != swiss_round(1, everyone, set(everyone), [], [], 4, 2, seed=12)
    assert [len(table) for table in plan.tables] == [4, 3, 3, 3] and plan.byes == ()
    assert sorted(itertools.chain(*plan.tables)) == everyone


def play(plan: RoundPlan, number: int, rng: random.Random) -> list[PlayedTable]:
    """Every table of the plan finished with random places (ties included) and totals."""
    played = []
    for table in plan.tables:
        totals = tuple(rng.choice([0, 10, 20, 30]) for _ in table)
        places = tuple(1 + sum(other > total for other in totals) for total in totals)
        played.append(PlayedTable(number, table, places, totals))
    return played


def assert_a_fair_round(plan, number, everyone, active, tables, byes, seats, fewest) -> None:
    seated = [entrant for table in plan.tables for entrant in table]
    assert sorted(seated + list(plan.byes)) == sorted(active)
    assert all(fewest <= len(table) <= seats for table in plan.tables)
    assert sum(len(table) < seats for table in plan.tables) <= len(plan.tables)
    # A bye goes to someone who never had one, as long as anyone is left who never had one.
    had = {bye.entrant for bye in byes}
    if any(entrant not in had for entrant in active if entrant not in plan.byes):
        assert not had & set(plan.byes)
    if seats == 2 or number == 1:
        return
    points = {s.entrant: s.points for s in standings(everyone, tables, byes, seats)}
    # Leaders at table 1: a table's lowest is never below a later table's highest.
    for first, second in itertools.combinations(plan.tables, 2):
        assert min(points[e] for e in first) >= max(points[e] for e in second)
    # No repeat seating an equal swap would avoid.
    met = met_counts(tables)
    for first, second in itertools.permutations(plan.tables, 2):
        before = repeats(first, met) + repeats(second, met)
        for a, b in itertools.product(first, second):
            if points[a] != points[b]:
                continue
            swapped_first = [b if e == a else e for e in first]
            swapped_second = [a if e == b else e for e in second]
            assert repeats(swapped_first, met) + repeats(swapped_second, met) >= before


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    count=st.integers(5, 40),
    seats=st.integers(2, 6),
    rounds=st.integers(2, 5),
    drop=st.booleans(),
    late=st.booleans(),
)
def test_seeded_random_swiss_fields_pair_fairly_and_avoid_repeats_where_they_can(
    seed, count, seats, rounds, drop, late
):
    rng = random.Random(seed)
    everyone = list(range(1, count + 1))
    active = set(everyone)
    tables: list[PlayedTable] = []
    byes: list[Bye] = []
    for number in range(1, rounds + 1):
        plan = swiss_round(number, everyone, active, tables, byes, seats, 2, seed)
        assert_a_fair_round(plan, number, everyone, active, tables, byes, seats, 2)
        tables += play(plan, number, rng)
        byes += [Bye(number, entrant) for entrant in plan.byes]
        if drop and len(active) > seats + 2:
            active.discard(rng.choice(sorted(active)))
        if late and number == 1:
            everyone.append(count + 1)
            active.add(count + 1)


def test_a_field_of_equals_is_reseated_with_no_one_meeting_again():
    """Sixteen at four seats, every table of round 1 tied: round 2 seats nobody with anyone they met."""
    everyone = list(range(1, 17))
    first = swiss_round(1, everyone, set(everyone), [], [], 4, 2, seed=3)
    tied = [PlayedTable(1, table, (1, 1, 1, 1), (0, 0, 0, 0)) for table in first.tables]
    second = swiss_round(2, everyone, set(everyone), tied, [], 4, 2, seed=3)
    met = met_counts(tied)
    assert all(repeats(table, met) == 0 for table in second.tables)


def test_the_dutch_system_pairs_two_seats_as_the_handbook_does():
    """FIDE's Dutch system, eight players by pairing number (round 1's seeded draw). Round 1: the
    top half meets the bottom half, colours alternating by board: 1-5, 6-2, 3-7, 8-4 (white
    first). The top half wins. Round 2 pairs the score group {1, 2, 3, 4} top half against bottom
    half unless colours forbid: 1-3 and 2-4 would give 1 and 3 (white in round 1) both black, so
    the transposition 1-4, 2-3 is made, each getting the other colour: 4-1 and 2-3; likewise the
    group {5, 6, 7, 8}: 5-8 and 7-6 (5 and 7 were black, 6 and 8 white)."""
    everyone = list(range(1, 9))
    seed = 21
    number = {entrant: index for index, entrant in enumerate(first_draw(everyone, seed), start=1)}
    one = swiss_round(1, everyone, set(everyone), [], [], 2, 2, seed)
    assert [tuple(number[e] for e in table) for table in one.tables] == [(1, 5), (6, 2), (3, 7), (8, 4)]
    won = [
        PlayedTable(1, table, (1, 2) if number[table[0]] < number[table[1]] else (2, 1), (1, 0))
        for table in one.tables
    ]
    two = swiss_round(2, everyone, set(everyone), won, [], 2, 2, seed)
    assert [tuple(number[e] for e in table) for table in two.tables] == [(4, 1), (2, 3), (5, 8), (7, 6)]


def test_the_dutch_system_never_repeats_a_pairing_nor_gives_a_second_bye():
    everyone = list(range(1, 8))
    rng = random.Random(4)
    tables: list[PlayedTable] = []
    byes: list[Bye] = []
    for number in range(1, 7):
        plan = swiss_round(number, everyone, set(everyone), tables, byes, 2, 2, seed=9)
        assert len(plan.byes) == 1 and plan.byes[0] not in {bye.entrant for bye in byes}
        # From round 5, no pairing without a rematch is left with a bye nobody had: standing decides.
        assert number >= 5 or all(met_counts(tables)[frozenset(table)] == 0 for table in plan.tables)
        tables += play(plan, number, rng)
        byes += [Bye(number, entrant) for entrant in plan.byes]


def test_when_everyone_has_met_the_two_seat_swiss_pairs_by_standing_again():
    tables = [PlayedTable(1, (1, 2), (1, 2), (1, 0))]
    plan = swiss_round(2, [1, 2], {1, 2}, tables, [], 2, 2, seed=1)
    assert plan == RoundPlan(((1, 2),) if plan.tables[0][0] == 1 else ((2, 1),))


@pytest.mark.parametrize("count", [2, 3, 5, 6, 9])
def test_a_two_seat_round_robin_meets_everyone_once_and_each_sits_out_once_when_odd(count):
    everyone = list(range(1, count + 1))
    rounds = round_robin(everyone, 2, 2, seed=5)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    met = met_counts([PlayedTable(n, table) for n, plan in enumerate(rounds) for table in plan.tables])
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(everyone, 2)}
    assert set(met.values()) == {1}
    sat_out = [entrant for plan in rounds for entrant in plan.byes]
    assert sorted(sat_out) == (everyone if count % 2 else [])
    for plan in rounds:
        assert sorted([e for table in plan.tables for e in table] + list(plan.byes)) == everyone


@pytest.mark.parametrize(("count", "seats"), [(7, 3), (9, 3), (13, 4), (16, 4), (10, 5)])
def test_a_round_robin_at_more_seats_meets_every_pair_at_least_once(count, seats):
    everyone = list(range(1, count + 1))
    rounds = round_robin(everyone, seats, 2, seed=8)
    met = met_counts([PlayedTable(n, table) for n, plan in enumerate(rounds) for table in plan.tables])
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(everyone, 2)}
    assert rounds == round_robin(everyone, seats, 2, seed=8)
    # Never more rounds than meeting each of the others at a table of two would take.
    assert len(rounds) <= count


def test_a_dropped_entrant_leaves_an_empty_seat_or_a_bye_in_a_planned_round():
    plan = RoundPlan(((1, 2, 3), (4, 5)), (6,))
    assert without_dropped(plan, {1, 2, 3, 4, 6}, fewest=2) == RoundPlan(((1, 2, 3),), (4, 6))
    assert without_dropped(plan, {1, 3, 4, 5}, fewest=2) == RoundPlan(((1, 3), (4, 5)))
