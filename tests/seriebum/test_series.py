"""The tile set, the grid, and what makes a series (docs/rules/seriebum.md)."""

from collections import Counter

from games.seriebum.series import (
    RUN,
    SET,
    Series,
    is_valid,
    layout_points,
    pair_series,
    placements,
    series_points,
    take_choices,
)
from games.seriebum.tiles import CELLS, TILE_COUNT, TILE_ID, TILES

from .builders import layout, series


def test_the_box_holds_35_tiles():
    kinds = Counter(tile.kind for tile in TILES)
    assert TILE_COUNT == 35
    assert kinds == {"number": 28, "jolly": 2, "ruba": 2, "bum": 3}
    numbered = {(tile.colour, tile.value) for tile in TILES if tile.kind == "number"}
    assert numbered == {(c, v) for c in "RYWB" for v in range(10, 71, 10)}
    assert len(TILE_ID) == 35


def test_grid_is_7_columns_by_5_rows_in_reading_order():
    assert len(CELLS) == 35
    assert CELLS[:8] == ("A1", "B1", "C1", "D1", "E1", "F1", "G1", "A2")
    assert CELLS[-1] == "G5"


def test_succession_same_colour_values_ten_apart():
    assert is_valid(series("run:R20 R30 R40"))
    assert not is_valid(series("run:R20 R40"))
    assert not is_valid(series("run:R20 Y30"))
    assert pair_series(TILE_ID["R30"], TILE_ID["R20"]) == series("run:R20 R30")


def test_repetition_same_value_different_colours():
    assert is_valid(series("set:R40 Y40 W40 B40"))
    assert not is_valid(series("set:R40 Y50"))
    assert pair_series(TILE_ID["W40"], TILE_ID["R40"]) == series("set:R40 W40")
    assert pair_series(TILE_ID["W40"], TILE_ID["R50"]) is None


def test_a_series_starts_with_two_tiles():
    assert not is_valid(series("run:R20"))
    assert pair_series(TILE_ID["JOLLY1"], TILE_ID["R20"]) is None


def test_jolly_stands_in_at_a_run_end_within_10_to_70():
    assert [end for end, _ in placements(series("run:R30 R40"), TILE_ID["JOLLY1"])] == ["low", "high"]
    assert [end for end, _ in placements(series("run:R10 R20"), TILE_ID["JOLLY1"])] == ["high"]
    assert [end for end, _ in placements(series("run:R60 R70"), TILE_ID["JOLLY1"])] == ["low"]


def test_a_run_grows_past_its_jolly():
    grown = placements(series("run:R20 R30 JOLLY1"), TILE_ID["R50"])
    assert grown == (("high", series("run:R20 R30 JOLLY1 R50")),)
    # The jolly holds the 40 slot: the real red 40 has nowhere to go.
    assert placements(series("run:R20 R30 JOLLY1"), TILE_ID["R40"]) == ()


def test_jolly_stands_for_a_missing_colour_of_a_repetition():
    assert placements(series("set:R40 Y40"), TILE_ID["JOLLY1"]) == ((None, series("set:R40 Y40 JOLLY1")),)
    assert placements(series("set:R40 Y40 JOLLY1"), TILE_ID["W40"]) == (
        (None, series("set:R40 Y40 W40 JOLLY1")),
    )
    # Three colours and a jolly make four: full.
    assert placements(series("set:R40 Y40 W40 JOLLY1"), TILE_ID["B40"]) == ()
    assert placements(series("set:R40 Y40 W40 B40"), TILE_ID["JOLLY1"]) == ()


def test_at_most_one_jolly_per_series():
    assert not is_valid(series("run:JOLLY1 R20 R30 JOLLY2"))
    assert placements(series("set:R40 Y40 JOLLY1"), TILE_ID["JOLLY2"]) == ()


def test_specials_other_than_jolly_never_sit_in_a_series():
    assert not is_valid(Series(SET, (TILE_ID["R40"], TILE_ID["Y40"], TILE_ID["BUM1"])))
    assert not is_valid(Series(RUN, (TILE_ID["R40"], TILE_ID["R50"], TILE_ID["RUBA1"])))


def test_scoring_sums_series_of_three_or_more():
    # The rulebook's example: red 20, 30 and 40 score 90.
    assert series_points(series("run:R20 R30 R40")) == 90
    assert series_points(series("set:R40 Y40")) == 0
    assert layout_points(layout("run:R20 R30 R40", "set:Y70 W70", "set:R10 Y10 B10")) == 120


def test_jolly_scores_100_beside_two_other_tiles():
    assert series_points(series("run:R20 R30 JOLLY1")) == 150
    assert series_points(series("set:R40 JOLLY1")) == 0


def test_take_both_ways_and_distinct_placements():
    # red 20-30 takes red 40 and red 50; they could also start a series of their own.
    choices = take_choices(layout("run:R20 R30"), TILE_ID["R50"], TILE_ID["R40"])
    assert [choice.id for choice in choices] == ["new", "R40>0@high,R50>0@high"]
    assert choices[1].result == layout("run:R20 R30 R40 R50")
    # Two tiles joining two different series in either order is one way, not two.
    choices = take_choices(layout("run:R20 R30", "set:Y50 W50"), TILE_ID["R40"], TILE_ID["B50"])
    assert len(choices) == 1


def test_a_tile_never_stays_alone():
    assert take_choices(layout("run:R20 R30"), TILE_ID["R40"], TILE_ID["Y10"]) == []
    assert take_choices((), TILE_ID["R40"], TILE_ID["Y10"]) == []
