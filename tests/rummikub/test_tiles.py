"""The tile set, tile codes, the text parser, set rules and rack values."""

from __future__ import annotations

from collections import Counter

import pytest

from games.core import GameError
from games.rummikub.tiles import (
    ALL_TILES,
    COLOURS,
    arranged,
    autocomplete,
    is_valid_set,
    meld_value,
    missing_from,
    parse_tile,
    parse_tiles,
    rack_value,
    sorted_tiles,
)


def test_there_are_106_tiles_two_of_each_number_and_colour_and_two_jokers():
    counts = Counter(ALL_TILES)
    assert len(ALL_TILES) == 106
    assert counts["j"] == 2
    assert {code: n for code, n in counts.items() if code != "j"} == {
        f"{colour}{number}": 2 for colour in COLOURS for number in range(1, 14)
    }


def test_the_parser_reads_colour_letter_and_number_case_insensitive_with_commas():
    assert parse_tiles("R7, r8 J") == ["r7", "r8", "j"]
    assert parse_tiles("k13;o1  b10") == ["k13", "o1", "b10"]
    assert parse_tile(" Joker ") == "j"


@pytest.mark.parametrize("text", ["r0", "r14", "x5", "7r", "rr", "r-1", "j2"])
def test_the_parser_names_a_bad_token(text):
    with pytest.raises(GameError) as error:
        parse_tiles(f"r5 {text}")
    assert error.value.key == "rummikub.error.bad_tile"
    assert error.value.params == {"token": text}


def test_the_parser_refuses_an_empty_text():
    with pytest.raises(GameError) as error:
        parse_tiles(" , ")
    assert error.value.key == "rummikub.error.no_tiles"


@pytest.mark.parametrize(
    "tiles",
    [
        ["r3", "r4", "r5"],
        ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11", "k12", "k13"],
        ["b7", "r7", "k7"],
        ["b7", "r7", "k7", "o7"],
        ["r3", "j", "r5"],
        ["j", "r12", "r13"],
        ["r1", "r2", "j"],
        ["k9", "r9", "j"],
        ["k9", "j", "j"],
        ["j", "o5", "j", "o7"],
        ["r12", "r13", "j", "j"],  # the jokers stand for 10 and 11
    ],
)
def test_runs_and_groups_are_valid_sets(tiles):
    assert is_valid_set(tiles)


@pytest.mark.parametrize(
    "tiles",
    [
        ["r3", "r4"],  # too short
        ["r12", "r13", "r1"],  # 13 is never followed by 1
        ["r3", "r4", "b5"],  # a run has one colour
        ["r3", "r5", "r6"],  # not consecutive
        ["r7", "r7", "k7"],  # a group has different colours
        ["r7", "b7", "k7", "o7", "j"],  # a group has at most 4 tiles
        [f"r{n}" for n in range(1, 14)] + ["j"],  # a run cannot go past 13
        ["k5", "r5", "b5", "o5", "k6"],
        ["j", "j"],
    ],
)
def test_other_tile_lists_are_not_sets(tiles):
    assert not is_valid_set(tiles)


def test_a_run_reads_low_to_high_with_the_joker_in_its_gap():
    assert arranged(["r5", "j", "r3"]) == ["r3", "j", "r5"]
    assert arranged(["o9", "k9", "r9"]) == ["k9", "r9", "o9"]


def test_a_joker_counts_the_number_it_stands_for_in_the_initial_meld():
    assert meld_value(["r10", "r11", "j"]) == 10 + 11 + 12
    assert meld_value(["j", "r12", "r13"]) == 11 + 12 + 13
    assert meld_value(["k9", "r9", "j"]) == 27
    assert meld_value(["r11", "j", "j"]) == 11 + 12 + 13  # the best reading: a run beats 33


def test_a_joker_left_on_a_rack_counts_30():
    assert rack_value(["r5", "k13", "j"]) == 5 + 13 + 30


def test_racks_sort_by_colour_then_number_jokers_last():
    assert sorted_tiles(["j", "o1", "k10", "k2", "r5"]) == ["k2", "k10", "r5", "o1", "j"]


def test_missing_from_counts_copies():
    assert missing_from(["r5", "r6"], ["r5", "r5"]) == "r5"
    assert missing_from(["r5", "r5"], ["r5", "r5"]) is None


def test_autocomplete_offers_the_rack_tiles_not_named_yet():
    rack = ["r7", "r8", "r10", "k1", "j"]
    assert autocomplete(rack, "r7 r") == ["r7 r8", "r7 r10"]
    assert autocomplete(rack, "R7 ") == ["r7 k1", "r7 r8", "r7 r10", "r7 j"]
    assert autocomplete(rack, "") == ["k1", "r7", "r8", "r10", "j"]
    assert autocomplete(rack, "zz q") == []
