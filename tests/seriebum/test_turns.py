"""A turn: flipping, taking, memory, moves and the three special tiles, on hand-built boards.

Most boards keep a RUBA face down in G5 so the manche stays alive after the turn.
"""

import json

from games.seriebum.engine import BUM_CHOICE, FLIP, FLIP_SECOND, PLACE, REARRANGE, STEAL
from games.seriebum.tiles import codes

from .builders import build, codes_of, flip, keys, leaked

# ------------------------------------------------------------------ flipping and taking


def test_flips_are_separate_actions_and_the_first_tile_shows_at_once():
    game = build({"A1": "R20", "B1": "Y50", "G5": "RUBA1"})
    assert game.to_act() == {0: frozenset({"flip"})}
    events = flip(game, "A1")
    assert keys(events) == ["flipped"]
    assert events[0].params == {"seat": 0, "cell": "A1", "tile": "R20"}
    assert game.phase == FLIP_SECOND
    cell = game.view(None)["cells"][0]
    assert cell == {"cell": "A1", "state": "up", "tile": "R20"}


def test_two_tiles_that_start_a_run_are_taken():
    game = build({"A1": "R20", "B1": "R30", "C1": "Y50", "G5": "RUBA1"})
    events = flip(game, "A1", "B1")
    assert keys(events)[2:] == ["pair_started", "turn"]
    assert codes_of(game, 0) == [["R20", "R30"]]
    assert game.board[0] is None and game.board[1] is None
    assert game.turn == 1 and game.phase == FLIP


def test_two_tiles_that_start_a_repetition_are_taken():
    game = build({"A1": "W40", "B1": "R40", "C1": "Y50", "G5": "RUBA1"})
    flip(game, "A1", "B1")
    assert codes_of(game, 0) == [["R40", "W40"]]
    assert game.layouts[0][0].kind == "set"


def test_both_tiles_join_existing_series():
    game = build({"A1": "B50", "B1": "R40", "C1": "Y10", "G5": "RUBA1"}, mine=["run:R20 R30", "set:Y50 W50"])
    events = flip(game, "A1", "B1")
    assert "pair_joined" in keys(events)
    assert codes_of(game, 0) == [["R20", "R30", "R40"], ["Y50", "W50", "B50"]]


def test_both_tiles_may_extend_the_same_series_and_the_player_chooses():
    # Ruling: red 20-30 takes red 40 and red 50 (flipped here as 50 then 40).
    game = build({"A1": "R50", "B1": "R40", "C1": "Y10", "G5": "RUBA1"}, mine=["run:R20 R30"])
    events = flip(game, "A1", "B1")
    assert keys(events)[-1] == "choose_placement"
    assert game.phase == PLACE and game.to_act() == {0: frozenset({"place"})}
    pending = game.view(None)["pending"]
    assert [option["id"] for option in pending["options"]] == ["new", "R40>0@high,R50>0@high"]
    assert pending["options"][1]["steps"] == [
        {"tile": "R40", "series": 0, "end": "high"},
        {"tile": "R50", "series": 0, "end": "high"},
    ]
    assert game.legal_actions(0) == [
        {"type": "place", "option": "new"},
        {"type": "place", "option": "R40>0@high,R50>0@high"},
    ]
    events = game.apply(0, {"type": "place", "option": "R40>0@high,R50>0@high"})
    assert keys(events) == ["pair_joined", "turn"]
    assert codes_of(game, 0) == [["R20", "R30", "R40", "R50"]]


def test_placement_choice_can_start_a_new_series_instead():
    game = build({"A1": "R50", "B1": "R40", "C1": "Y10", "G5": "RUBA1"}, mine=["run:R20 R30"])
    flip(game, "A1", "B1")
    game.apply(0, {"type": "place", "option": "new"})
    assert codes_of(game, 0) == [["R20", "R30"], ["R40", "R50"]]


def test_tiles_that_cannot_both_be_placed_are_covered_again():
    game = build({"A1": "R40", "B1": "Y10", "C1": "W60", "G5": "RUBA1"}, mine=["run:R20 R30"])
    events = flip(game, "A1", "B1")
    assert keys(events) == ["flipped", "flipped", "not_taken", "turn"]
    assert events[2].params == {"seat": 0, "cell": "A1", "other_cell": "B1"}
    assert codes_of(game, 0) == [["R20", "R30"]]
    assert game.face_up == [] and game.turn == 1


# ------------------------------------------------------------------ memory


def test_covered_tiles_stay_visible_to_everyone_until_the_next_first_flip():
    game = build({"A1": "R40", "B1": "Y10", "C1": "W60", "G5": "RUBA1"}, mine=["run:R20 R30"])
    flip(game, "A1", "B1")
    for seat in (None, 0, 1):
        cells = game.view(seat)["cells"]
        assert cells[0] == {"cell": "A1", "state": "seen", "tile": "R40"}
        assert cells[1] == {"cell": "B1", "state": "seen", "tile": "Y10"}
    # Moving tiles does not make anyone forget; the next player's first flip does.
    events = flip(game, "C1")
    for seat in (None, 0, 1):
        text = json.dumps(game.view(seat))
        assert "R40" not in text and "Y10" not in text
        assert game.view(seat)["cells"][0] == {"cell": "A1", "state": "down", "tile": None}
    assert not leaked(game)
    assert all("R40" not in json.dumps(event.params) for event in events)


def test_a_remembered_tile_can_be_flipped_again():
    game = build({"A1": "R40", "B1": "Y10", "C1": "R50", "G5": "RUBA1"}, mine=["run:R20 R30"])
    flip(game, "A1", "B1")
    flip(game, "A1", "C1")  # the other player takes red 40 and 50 as a new run
    assert codes_of(game, 1) == [["R40", "R50"]]


# ------------------------------------------------------------------ moves


def test_moves_before_flipping_keep_every_series_valid():
    game = build({"A1": "Y10", "B1": "W60", "G5": "RUBA1"}, mine=["run:R30 R40 R50", "set:Y30 W30"])
    assert game.to_act() == {0: frozenset({"flip", "move"})}
    moves = [view["id"] for view in game.view(0)["moves"]]
    # Red 30 may leave the end of the run; red 40 in the middle may not.
    assert moves == ["R30>1"]
    events = game.apply(0, {"type": "move", "option": "R30>1"})
    assert keys(events) == ["tile_moved"]
    assert codes_of(game, 0) == [["R40", "R50"], ["R30", "Y30", "W30"]]
    assert game.phase == FLIP and game.turn == 0


def test_a_series_may_be_emptied_entirely_into_the_others():
    game = build(
        {"A1": "Y10", "B1": "W60", "G5": "RUBA1"}, mine=["set:R30 Y30", "run:R40 R50", "run:Y40 Y50"]
    )
    moves = [view["id"] for view in game.view(0)["moves"]]
    assert moves == ["R30>1@low,Y30>2@low"]
    events = game.apply(0, {"type": "move", "option": moves[0]})
    assert keys(events) == ["series_emptied"]
    assert codes_of(game, 0) == [["R30", "R40", "R50"], ["Y30", "Y40", "Y50"]]


def test_a_move_may_not_leave_a_lone_tile():
    game = build({"A1": "Y10", "B1": "W60", "G5": "RUBA1"}, mine=["run:R30 R40", "set:Y30 W30"])
    assert game.to_act() == {0: frozenset({"flip"})}
    assert game.view(0)["moves"] == []


def test_no_moves_between_the_two_flips():
    game = build({"A1": "Y10", "B1": "W60", "G5": "RUBA1"}, mine=["run:R30 R40 R50", "set:Y30 W30"])
    flip(game, "A1")
    assert game.to_act() == {0: frozenset({"flip"})}


def test_moves_after_taking_tiles_then_end_turn():
    game = build({"A1": "Y40", "B1": "W40", "C1": "Y10", "G5": "RUBA1"}, mine=["run:R40 R50 R60"])
    flip(game, "A1", "B1")
    assert game.phase == REARRANGE
    assert game.to_act() == {0: frozenset({"move", "end_turn"})}
    game.apply(0, {"type": "move", "option": "R40>1"})
    assert codes_of(game, 0) == [["R50", "R60"], ["R40", "Y40", "W40"]]
    events = game.apply(0, {"type": "end_turn"})
    assert keys(events) == ["turn"] and game.turn == 1


# ------------------------------------------------------------------ JOLLY


def test_jolly_goes_to_either_end_of_a_run_by_choice():
    game = build({"A1": "JOLLY1", "B1": "Y10", "G5": "RUBA1"}, mine=["run:R30 R40"])
    events = flip(game, "A1")
    assert keys(events) == ["flipped", "choose_placement"]
    ids = [option["id"] for option in game.view(1)["pending"]["options"]]
    assert ids == ["JOLLY1>0@low", "JOLLY1>0@high"]
    game.apply(0, {"type": "place", "option": "JOLLY1>0@low"})
    assert codes_of(game, 0) == [["JOLLY1", "R30", "R40"]]


def test_jolly_with_one_place_is_placed_at_once():
    game = build({"A1": "JOLLY1", "B1": "Y10", "G5": "RUBA1"}, mine=["set:R40 Y40"])
    events = flip(game, "A1")
    assert keys(events) == ["flipped", "tile_placed", "turn"]
    assert codes_of(game, 0) == [["R40", "Y40", "JOLLY1"]]


def test_jolly_without_a_series_is_covered_and_the_turn_passes():
    game = build({"A1": "JOLLY1", "B1": "Y10", "G5": "RUBA1"})
    events = flip(game, "A1")
    assert keys(events) == ["flipped", "jolly_unusable", "turn"]
    assert game.view(None)["cells"][0]["state"] == "seen"
    assert game.turn == 1


def test_jolly_skips_series_that_already_have_one():
    game = build({"A1": "JOLLY2", "B1": "Y10", "G5": "RUBA1"}, mine=["run:R20 R30 JOLLY1", "set:Y40 W40"])
    flip(game, "A1")
    assert codes_of(game, 0) == [["R20", "R30", "JOLLY1"], ["Y40", "W40", "JOLLY2"]]


def test_special_as_second_tile_covers_the_first():
    game = build({"A1": "Y10", "B1": "JOLLY1", "C1": "W60", "G5": "RUBA1"}, mine=["set:R40 Y40"])
    events = flip(game, "A1", "B1")
    assert keys(events) == ["flipped", "flipped", "first_covered", "tile_placed", "turn"]
    assert game.view(None)["cells"][0] == {"cell": "A1", "state": "seen", "tile": "Y10"}


# ------------------------------------------------------------------ BUM!


def bum_game():
    return build(
        {"A1": "BUM1", "B1": "Y10", "G5": "RUBA1"},
        mine=["run:R10 R20 R30 R40", "set:Y50 W50 B50", "set:R60 Y60"],
    )


def test_bum_lets_the_opponent_choose_series_and_survivors():
    game = bum_game()
    events = flip(game, "A1")
    assert keys(events) == ["flipped", "bum_choose"]
    assert events[1].params == {"seat": 1, "victim_seat": 0}
    assert game.phase == BUM_CHOICE and game.to_act() == {1: frozenset({"bum"})}
    ids = [option["id"] for option in game.view(None)["pending"]["options"]]
    assert ids == ["0:R10+R20", "0:R20+R30", "0:R30+R40", "1:Y50+W50", "1:Y50+B50", "1:W50+B50"]
    events = game.apply(1, {"type": "bum", "option": "0:R20+R30"})
    assert keys(events) == ["exploded", "turn"]
    assert events[0].params == {
        "seat": 0,
        "chooser_seat": 1,
        "removed": ["R10", "R40"],
        "survivors": ["R20", "R30"],
    }
    assert codes_of(game, 0) == [["R20", "R30"], ["Y50", "W50", "B50"], ["R60", "Y60"]]
    assert game.board[0] is None and {"R10", "R40", "BUM1"} <= set(codes(game.out))
    assert game.turn == 1


def test_bum_default_removes_the_most_points():
    game = bum_game()
    flip(game, "A1")
    # The repetition (150) is worth more than the succession (100).
    assert game.default_action(1) == {"type": "bum", "option": "1:Y50+W50"}


def test_bum_default_prefers_blowing_up_the_jolly():
    game = build({"A1": "BUM1", "B1": "Y10", "G5": "RUBA1"}, mine=["set:R40 Y40 JOLLY1"])
    flip(game, "A1")
    assert game.default_action(1) == {"type": "bum", "option": "0:R40+Y40"}


def test_bum_survivors_may_keep_the_jolly_as_a_pair():
    game = build({"A1": "BUM1", "B1": "Y10", "G5": "RUBA1"}, mine=["run:R10 JOLLY1 R30"])
    flip(game, "A1")
    ids = [option["id"] for option in game.view(None)["pending"]["options"]]
    assert ids == ["0:R10+JOLLY1", "0:JOLLY1+R30"]
    game.apply(1, {"type": "bum", "option": "0:JOLLY1+R30"})
    assert codes_of(game, 0) == [["JOLLY1", "R30"]]


def test_bum_without_a_series_of_three_is_covered_again():
    game = build({"A1": "BUM1", "B1": "Y10", "G5": "RUBA1"}, mine=["set:R40 Y40"])
    events = flip(game, "A1")
    assert keys(events) == ["flipped", "bum_harmless", "turn"]
    assert game.board[0] is not None and game.turn == 1


# ------------------------------------------------------------------ RUBA


def test_ruba_steals_a_tile_that_fits_and_leaves_the_game():
    game = build(
        {"A1": "RUBA1", "B1": "Y10", "G5": "RUBA2"}, mine=["run:R40 R50"], theirs=["run:R10 R20 R30"]
    )
    events = flip(game, "A1")
    assert keys(events) == ["flipped", "stolen", "turn"]
    assert events[1].params == {"seat": 0, "victim_seat": 1, "tile": "R30"}
    assert codes_of(game, 0) == [["R30", "R40", "R50"]]
    assert codes_of(game, 1) == [["R10", "R20"]]
    assert game.board[0] is None


def test_ruba_may_split_the_victims_series_in_two():
    game = build(
        {"A1": "RUBA1", "B1": "W60", "G5": "RUBA2"}, mine=["set:R30 W30"], theirs=["run:Y10 Y20 Y30 Y40 Y50"]
    )
    flip(game, "A1")
    assert codes_of(game, 1) == [["Y10", "Y20"], ["Y40", "Y50"]]
    assert codes_of(game, 0) == [["R30", "Y30", "W30"]]


def test_ruba_never_takes_a_jolly_nor_breaks_a_series():
    game = build({"A1": "RUBA1", "B1": "Y10", "G5": "RUBA2"}, mine=["set:R30 W30"], theirs=["run:JOLLY1 Y30"])
    events = flip(game, "A1")
    assert keys(events) == ["flipped", "ruba_empty", "turn"]
    assert codes_of(game, 1) == [["JOLLY1", "Y30"]]
    assert game.board[0] is None


def test_ruba_with_nothing_to_steal_still_leaves_the_game():
    game = build({"A1": "Y10", "B1": "RUBA1", "C1": "W60", "G5": "RUBA2"})
    events = flip(game, "A1", "B1")
    assert keys(events) == ["flipped", "flipped", "first_covered", "ruba_empty", "turn"]
    assert game.board[1] is None and game.board[0] is not None


def test_ruba_choice_and_default_steals_the_highest_tile():
    game = build(
        {"A1": "RUBA1", "B1": "Y10", "G5": "RUBA2"},
        mine=["set:R20 W20", "set:R60 W60"],
        theirs=["set:Y20 B20 JOLLY1", "set:Y60 B60 JOLLY2"],
    )
    flip(game, "A1")
    assert game.phase == STEAL and game.to_act() == {0: frozenset({"steal"})}
    assert [option["id"] for option in game.view(None)["pending"]["options"]] == [
        "Y20>0",
        "B20>0",
        "Y60>1",
        "B60>1",
    ]
    assert game.default_action(0) == {"type": "steal", "option": "Y60>1"}
    game.apply(0, {"type": "steal", "option": "B20>0"})
    assert codes_of(game, 0) == [["R20", "W20", "B20"], ["R60", "W60"]]
    assert codes_of(game, 1) == [["Y20", "JOLLY1"], ["Y60", "B60", "JOLLY2"]]


def test_views_never_show_covered_tiles_during_a_turn():
    game = build({"A1": "R40", "B1": "Y10", "C1": "W60", "G5": "RUBA1"}, mine=["run:R20 R30"])
    assert not leaked(game)
    flip(game, "A1")
    assert not leaked(game)
    assert "W60" not in json.dumps(game.view(None)) and "RUBA1" not in json.dumps(game.view(0))
