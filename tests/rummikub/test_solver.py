"""The solver: exact answers against brute force, explanations, jokers, the best plays."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameError
from games.rummikub import solver
from games.rummikub.tiles import ALL_TILES, COLOURS, is_valid_set, meld_value
from tests.rummikub import helpers


def dense_pool(rng: random.Random, size: int) -> list[str]:
    """Tiles from a few colours and a narrow window of numbers, so that sets are likely."""
    low = rng.randint(1, 9)
    colours = rng.sample(COLOURS, rng.randint(1, 4))
    width = rng.randint(3, 5)
    window = [
        code
        for code in ALL_TILES
        if code == "j" or (code[0] in colours and low <= int(code[1:]) < low + width)
    ]
    rng.shuffle(window)
    return window[:size]


def random_table(rng: random.Random, sets: int, sizes: tuple[int, ...] = (3, 4)) -> list[list[str]]:
    """A valid table of small sets from a narrow window of numbers."""
    table: list[list[str]] = []
    left = Counter(ALL_TILES)
    while len(table) < sets:
        low, colour = rng.randint(4, 8), rng.choice(COLOURS)
        if rng.random() < 0.5:
            candidate = [f"{colour}{n}" for n in range(low, low + rng.choice(sizes))]
        else:
            candidate = [f"{c}{low}" for c in rng.sample(COLOURS, rng.choice(sizes))]
        if rng.random() < 0.2:
            candidate[rng.randrange(len(candidate))] = "j"
        if not Counter(candidate) - left and is_valid_set(candidate):
            left -= Counter(candidate)
            table.append(candidate)
    return table


def check_layout(table, tiles, layout: solver.Layout) -> None:
    before = Counter(code for s in table for code in s) + Counter(tiles)
    assert Counter(code for s in layout.table for code in s) == before  # nothing lost or copied
    assert all(is_valid_set(s) for s in layout.table)
    kept = [tuple(s) for s in layout.table[: len(layout.table) - len(layout.changed)]]
    assert Counter(kept) <= Counter(tuple(s) for s in table)  # unchanged sets are old sets, as they were


def test_splitting_matches_brute_force_on_small_pools():
    rng = random.Random(11)
    for _ in range(250):
        pool = dense_pool(rng, rng.randint(3, 10))
        assert solver.can_split(pool) == helpers.can_split(pool), pool


def test_the_most_tiles_a_rack_can_lay_matches_brute_force():
    rng = random.Random(12)
    for _ in range(120):
        pool = dense_pool(rng, rng.randint(4, 11))
        rack, table_tiles = pool[: rng.randint(1, 6)], pool[6:]
        if not helpers.can_split(table_tiles):
            continue
        split = solver._split(table_tiles, rack)
        assert (len(split.used) if split else 0) == helpers.most_tiles(table_tiles, rack), (table_tiles, rack)


def test_both_walks_sharing_their_findings_match_brute_force(monkeypatch):
    """Real tables mostly settle in the first search; here both directions walk from the start,
    after a tiny depth-first search, so what they share (the best split, the targets proved out
    of reach) and the bound once both jokers are placed decide the answers.
    """
    monkeypatch.setattr(solver, "_DEPTH_FIRST_BUDGET", 3)
    monkeypatch.setattr(solver, "_HEAD_START", 0)
    rng = random.Random(14)
    checked = 0
    while checked < 80:
        pool = [*(code for code in dense_pool(rng, rng.randint(4, 10)) if code != "j"), "j", "j"]
        rng.shuffle(pool)
        rack, table_tiles = pool[: rng.randint(1, 5)], pool[5:]
        if not helpers.can_split(table_tiles):
            continue
        checked += 1
        split = solver._split(table_tiles, rack, jokers_at=[rng.randint(1, 13)])
        assert (len(split.used) if split else 0) == helpers.most_tiles(table_tiles, rack), (table_tiles, rack)


def test_laying_tiles_breaks_the_fewest_sets_brute_force_finds():
    rng = random.Random(13)
    checked = 0
    while checked < 60:
        table = random_table(rng, rng.randint(1, 3), sizes=(3,))
        left = Counter(ALL_TILES) - Counter(code for s in table for code in s)
        near = sorted(
            code
            for code in left.elements()
            if any(
                code == "j" or abs(int(code[1:]) - int(other[1:])) <= 1
                for s in table
                for other in s
                if other != "j"
            )
        )
        tiles = rng.sample(near, rng.randint(1, 2))
        fewest = helpers.fewest_broken(table, tiles)
        try:
            layout = solver.lay_out(table, tiles)
        except GameError:
            assert fewest is None, (table, tiles)
            continue
        checked += 1
        check_layout(table, tiles, layout)
        assert layout.broken == fewest, (table, tiles, layout)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_split_holds_exactly_the_tiles_given_in_valid_sets(data):
    pool = data.draw(
        st.lists(st.sampled_from(sorted(set(ALL_TILES))), min_size=3, max_size=9).filter(
            lambda tiles: not Counter(tiles) - Counter(ALL_TILES)
        )
    )
    split = solver._split(pool)
    assert (split is not None) == helpers.can_split(pool)
    if split is not None:
        assert Counter(code for s in split.sets for code in s) == Counter(pool)
        assert all(is_valid_set(s) for s in split.sets)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_table_tile_is_never_lost_or_copied(rng):
    table = random_table(rng, rng.randint(2, 6))
    left = Counter(ALL_TILES) - Counter(code for s in table for code in s)
    tiles = rng.sample(sorted(left.elements()), rng.randint(1, 4))
    try:
        layout = solver.lay_out(table, tiles)
    except GameError:
        return
    check_layout(table, tiles, layout)


def test_a_joker_won_back_is_played_again_in_the_same_turn():
    table = [["r4", "j", "r6"], ["k9", "b9", "o9"]]
    layout = solver.lay_out(table, ["r5", "k7", "b7"])
    check_layout(table, ["r5", "k7", "b7"], layout)
    assert ("r4", "r5", "r6") in layout.table
    assert any("j" in s and "k7" in s and "b7" in s for s in layout.table)
    assert layout.broken == 1  # the nines stay as they were


def test_an_untouched_set_keeps_its_place_and_new_sets_are_marked():
    table = [["k1", "k2", "k3"], ["r9", "b9", "o9"], ["o4", "o5", "o6"]]
    layout = solver.lay_out(table, ["k4"])
    assert layout.table[:2] == (("r9", "b9", "o9"), ("o4", "o5", "o6"))
    assert layout.table[2:] == (("k1", "k2", "k3", "k4"),)
    assert layout.changed == (2,) and layout.broken == 1


def test_new_tiles_forming_their_own_set_change_nothing():
    table = [["k1", "k2", "k3"]]
    layout = solver.lay_out(table, ["r9", "b9", "o9"])
    assert layout.broken == 0 and layout.table[0] == ("k1", "k2", "k3")


def test_a_tile_that_fits_nowhere_is_named():
    with pytest.raises(GameError) as error:
        solver.lay_out([["k1", "k2", "k3"]], ["o9"])
    assert error.value.key == "rummikub.error.fits_nowhere"
    assert error.value.params == {"tile": "o9"}


def test_when_not_all_tiles_fit_together_the_ones_that_do_are_named():
    table = [["k4", "k5", "k6"]]
    with pytest.raises(GameError) as error:
        solver.lay_out(table, ["k7", "k3", "r6", "b6"])  # r6 b6 would need the k6 the run keeps
    assert error.value.key == "rummikub.error.no_layout_partial"
    assert Counter(error.value.params["playable"]) == Counter(["k3", "r6", "b6"])  # k3 k4 k5, k6 r6 b6


def test_an_initial_meld_worth_24_is_refused_with_its_value():
    with pytest.raises(GameError) as error:
        solver.lay_out_initial_meld(["r7", "r8", "r9"])
    assert error.value.key == "rummikub.error.meld_too_low"
    assert error.value.params == {"value": 24, "minimum": 30}


def test_an_initial_meld_may_not_lean_on_table_tiles():
    with pytest.raises(GameError) as error:
        solver.lay_out_initial_meld(["r12", "r13"], [["r9", "r10", "r11"]])
    assert error.value.key == "rummikub.error.meld_fits_nowhere"


def test_an_initial_meld_must_split_into_sets():
    with pytest.raises(GameError) as error:
        solver.lay_out_initial_meld(["r10", "r11", "r12", "b10", "b11", "k10"])
    assert error.value.key in ("rummikub.error.meld_no_sets", "rummikub.error.meld_fits_nowhere")


def test_an_initial_meld_joker_counts_the_best_number_it_can_stand_for():
    layout = solver.lay_out_initial_meld(["r10", "r11", "j"], [["k1", "k2", "k3"]])
    assert layout.meld_value == 33
    assert layout.table[0] == ("k1", "k2", "k3") and layout.changed == (1,)


def test_a_joker_can_be_a_third_copy_in_a_run():
    reds = [f"r{n}" for n in range(1, 14)] * 2
    assert solver.can_split([*reds, "j"])


def test_a_spare_joker_needs_room_at_the_end_of_a_run_or_in_a_group_of_three():
    groups = [f"{c}{n}" for n in (5, 6, 7) for c in COLOURS]
    split = solver._split([*groups, "j"])
    assert split is not None
    assert all(is_valid_set(s) for s in split.sets)
    assert not solver.can_split(["k5", "r5", "b5", "o5", "j"])


def test_the_best_plays_with_and_without_the_table():
    rack = ["r1", "r2", "r3", "k9", "b9", "o9", "k13", "j"]
    alone = solver.most_tiles(rack)
    assert alone is not None and len(alone.tiles) == 7  # k13 cannot join anything
    table = [["k10", "k11", "k12"]]
    with_table = solver.most_tiles(rack, table)
    assert with_table is not None and len(with_table.tiles) == 8
    check_layout(table, with_table.tiles, with_table)


def test_a_lone_joker_on_the_rack_can_always_be_laid():
    table = [["b8", "b9", "b10"], ["k7", "r7", "b7"]]
    layout = solver.most_tiles(["j", "r1"], table)
    assert layout is not None and layout.tiles == ("j",)
    check_layout(table, ["j"], layout)


def test_the_highest_value_play_can_differ_from_the_most_tiles():
    rack = ["r1", "r2", "r3", "r4", "k12", "b12"]
    table = [["o10", "o11", "o12"], ["k11", "b11", "o11"]]
    tiles = solver.most_tiles(rack, table)
    value = solver.highest_value(rack, table)
    assert tiles is not None and value is not None
    assert len(tiles.tiles) >= len(value.tiles)
    assert sum(int(code[1:]) for code in value.tiles) >= sum(int(code[1:]) for code in tiles.tiles)


def test_the_best_initial_meld_is_worth_30_and_leaves_the_table_alone():
    rack = ["r10", "r11", "r12", "k1", "k2", "k3", "o5"]
    table = [["b4", "b5", "b6"]]
    layout = solver.most_tiles(rack, table, initial_meld=True)
    assert layout is not None
    assert layout.table[0] == ("b4", "b5", "b6")
    assert sum(meld_value(s) for s in layout.table[1:]) >= 30
    assert solver.most_tiles(["k1", "k2", "k3", "o5"], initial_meld=True) is None
