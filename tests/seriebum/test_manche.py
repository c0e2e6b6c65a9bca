"""The end of a manche, the dead board, scoring, the match, leaving, and timeout defaults."""

import pytest

from games.core import GameError
from games.seriebum import SerieBum
from games.seriebum.engine import FLIP, OVER
from games.seriebum.series import board_can_still_give
from games.seriebum.tiles import TILE_ID

from .builders import build, check_invariants, codes_of, flip, keys, layout


def ids(*codes):
    return tuple(sorted(TILE_ID[code] for code in codes))


# ------------------------------------------------------------------ end of a manche


def test_last_two_tiles_not_taken_are_discarded_and_the_manche_ends():
    game = build({"A1": "R20", "B1": "Y50"}, mine=["run:R40 R50 R60"], theirs=["set:W10 B10"])
    events = flip(game, "A1", "B1")
    assert keys(events)[:5] == ["flipped", "flipped", "discarded", "manche_scored", "manche_scored"]
    assert events[2].params == {"seat": 0, "tiles": ["R20", "Y50"]}
    assert events[3].params == {"seat": 0, "points": 150, "total": 150}
    assert events[4].params == {"seat": 1, "points": 0, "total": 0}
    assert keys(events)[5] == "manche_started"
    assert game.manche == 2 and game.totals() == [150, 0]


def test_last_two_tiles_taken_end_the_manche():
    game = build({"A1": "R20", "B1": "R30"}, turn=1)
    events = flip(game, "A1", "B1")
    assert keys(events)[2:5] == ["pair_started", "manche_scored", "manche_scored"]


def test_last_two_with_an_unusable_special_are_discarded():
    game = build({"A1": "R20", "B1": "BUM1"}, mine=["set:W10 B10"])
    events = flip(game, "A1", "B1")
    assert keys(events)[2] == "discarded"
    assert events[2].params["tiles"] == ["R20", "BUM1"]


def test_last_single_tile_is_taken_if_it_joins_a_series():
    game = build({"A1": "R40"}, mine=["run:R20 R30"])
    events = flip(game, "A1")
    assert keys(events)[:3] == ["flipped", "tile_placed", "manche_scored"]
    assert game.totals() == [90, 0]


def test_last_single_tile_is_discarded_otherwise():
    game = build({"A1": "Y10"}, mine=["run:R20 R30"])
    events = flip(game, "A1")
    assert keys(events)[:3] == ["flipped", "discarded", "manche_scored"]


def test_last_single_special_without_effect_is_discarded():
    game = build({"A1": "JOLLY1"})
    events = flip(game, "A1")
    assert keys(events)[:2] == ["flipped", "discarded"]
    assert game.manche == 2


def test_dead_board_ends_the_manche_with_the_reason():
    game = build({"A1": "Y10", "B1": "W60", "C1": "B30"}, mine=["run:R20 R30 R40"])
    events = flip(game, "A1", "B1")
    assert keys(events)[:4] == ["flipped", "flipped", "not_taken", "board_dead"]
    assert events[3].params == {"count": 3}
    assert keys(events)[4:7] == ["manche_scored", "manche_scored", "manche_started"]
    assert game.totals() == [90, 0]


def test_a_board_is_alive_while_a_rearrangement_could_still_take():
    # Blue 40 moved from the repetition to the run lets white 40 and blue 50 join.
    mine = layout("set:R40 Y40 B40", "run:B20 B30")
    board = ids("W40", "B50", "Y70")
    assert board_can_still_give(board, (mine, ()))
    assert not board_can_still_give(board, (layout("set:R40 Y40 B40", "run:Y20 Y30"), ()))
    game = build({"A1": "W40", "B1": "Y70", "C1": "B50"}, mine=["set:R40 Y40 B40", "run:B20 B30"])
    events = flip(game, "A1", "B1")
    assert "board_dead" not in keys(events) and game.manche == 1


def test_a_board_is_alive_while_a_bum_or_jolly_can_be_used():
    pairs = layout("set:R30 Y30", "run:R40 R50", "run:Y40 Y50")
    assert board_can_still_give(ids("BUM1", "W10", "B70"), (pairs, ()))
    assert not board_can_still_give(ids("BUM1", "W10", "B70"), (layout("set:R30 Y30"), ()))
    assert board_can_still_give(ids("JOLLY1", "W10", "B70"), ((), layout("set:R30 Y30")))
    assert not board_can_still_give(ids("JOLLY1", "W10", "B70"), ((), ()))
    # Red 40 leaving the full repetition for the run frees a place for the jolly.
    full = layout("set:R40 Y40 W40 B40", "run:R50 R60 JOLLY1")
    assert board_can_still_give(ids("JOLLY2", "Y10"), (full, ()))
    stuck = layout("set:R40 Y40 W40 B40", "set:R70 Y70 JOLLY1")
    assert not board_can_still_give(ids("JOLLY2", "Y10"), (stuck, ()))
    assert board_can_still_give(ids("RUBA1", "W10"), ((), ()))
    assert board_can_still_give(ids("W10", "B10", "R70"), ((), ()))


def test_first_player_alternates_each_manche():
    game = build({"A1": "Y10"}, turn=1)
    flip(game, "A1")
    assert game.manche == 2 and game.first_seat == 0 and game.turn == 0
    starters = {SerieBum.new(2, {}, seed).first_seat for seed in range(20)}
    assert starters == {0, 1}


def test_the_match_ends_when_a_player_reaches_the_target():
    game = build({"A1": "R20", "B1": "Y50"}, mine=["run:R40 R50 R60"], points=(900, 990), target=1000)
    events = flip(game, "A1", "B1")
    assert keys(events)[-1] == "match_won"
    assert events[-1].params == {"seat": 0, "total": 1050}
    assert game.finished and game.winner() == 0 and game.phase == OVER
    assert game.to_act() == {}


def test_the_higher_total_wins_when_both_pass_the_target():
    game = build(
        {"A1": "R20", "B1": "Y50"}, mine=["run:R40 R50 R60"], theirs=["set:W10 B10 Y10"], points=(900, 980)
    )
    flip(game, "A1", "B1")
    assert game.totals() == [1050, 1010] and game.winner() == 0


def test_equal_totals_at_the_target_play_another_manche():
    game = build(
        {"A1": "R20", "B1": "Y70"}, mine=["run:R40 R50 R60"], theirs=["set:Y50 W50 B50"], points=(900, 900)
    )
    events = flip(game, "A1", "B1")
    assert game.totals() == [1050, 1050]
    assert "tie_extra_manche" in keys(events)
    assert not game.finished and game.manche == 2 and game.phase == FLIP


def test_target_is_an_option():
    assert SerieBum.new(2, {}, 1).target == 1000
    assert SerieBum.new(2, {"target": 300}, 1).target == 300
    with pytest.raises(GameError):
        SerieBum.new(2, {"target": 5}, 1)
    with pytest.raises(GameError):
        SerieBum.new(3, {}, 1)


def test_a_new_manche_deals_all_35_tiles_face_down():
    game, events = SerieBum.begin(2, {}, 42)
    assert [event.key for event in events] == ["seriebum.event.manche_started"]
    assert events[0].params == {"manche": 1, "seat": game.first_seat}
    assert SerieBum.new(2, {}, 42).to_json() == game.to_json()
    view = game.view(None)
    assert view["face_down"] == 35 and view["out_of_game"] == 0
    assert all(cell["state"] == "down" and cell["tile"] is None for cell in view["cells"])


# ------------------------------------------------------------------ leaving


def test_a_leaving_player_ends_the_match_with_no_result():
    game = build({"A1": "Y10", "B1": "W60", "G5": "RUBA1"}, mine=["run:R20 R30 R40"])
    events = game.remove_player(0)
    assert keys(events) == ["player_left", "match_abandoned"]
    assert game.finished and game.winner() is None
    assert codes_of(game, 0) == []
    check_invariants(game)
    with pytest.raises(GameError):
        game.apply(1, {"type": "flip", "cell": "A1"})


# ------------------------------------------------------------------ timeout defaults


def test_default_flips_the_first_face_down_tiles_in_a1_to_g5_order():
    game = build({"B1": "Y10", "C1": "W60", "A2": "R50", "G5": "RUBA1"})
    assert game.default_action(0) == {"type": "flip", "cell": "B1"}
    flip(game, "B1")
    assert game.default_action(0) == {"type": "flip", "cell": "C1"}
    with pytest.raises(GameError):
        game.default_action(1)


def test_default_placement_is_the_first_legal_one():
    game = build({"A1": "R50", "B1": "R40", "C1": "Y10", "G5": "RUBA1"}, mine=["run:R20 R30"])
    flip(game, "A1", "B1")
    assert game.default_action(0) == {"type": "place", "option": "new"}


def test_default_after_taking_ends_the_turn():
    game = build({"A1": "Y40", "B1": "W40", "C1": "Y10", "G5": "RUBA1"}, mine=["run:R40 R50 R60"])
    flip(game, "A1", "B1")
    assert game.default_action(0) == {"type": "end_turn"}
