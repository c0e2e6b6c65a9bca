"""One test per rule and ruling of Rummikub (rummikub.it.txt, docs/rules/rummikub.md)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.core import GameError
from games.rummikub import Rummikub
from games.rummikub.tiles import ALL_TILES, is_valid_set
from tests.rummikub.helpers import game_with, tile_count

from ..refusals import refused

# ------------------------------------------------------------------ the deal


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_gets_14_tiles_and_the_rest_is_the_pool(players):
    game = Rummikub.new(players, {}, seed=5)
    assert [len(rack) for rack in game.racks] == [14] * players
    assert len(game.pool) == 106 - 14 * players
    assert Counter(game.pool + [code for rack in game.racks for code in rack]) == Counter(ALL_TILES)
    assert game.table == [] and game.round == 1


def test_two_to_four_players():
    for players in (1, 5):
        with pytest.raises(GameError) as error:
            Rummikub.new(players, {}, seed=1)
        assert error.value.key == "rummikub.error.player_count"


def test_the_first_player_is_seeded_random_and_the_deal_replays_from_its_seed():
    firsts = {Rummikub.new(4, {}, seed=seed).first_seat for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert Rummikub.new(3, {}, seed=9).to_json() == Rummikub.new(3, {}, seed=9).to_json()


def test_options_default_to_one_round_no_target_no_hints():
    game = Rummikub.new(2, {}, seed=1)
    assert (game.rounds, game.target, game.hints) == (1, 0, 0)
    view = game.view(0)
    assert (view["rounds"], view["target"], view["hints"]) == (1, 0, 0)
    assert Rummikub.new(2, {"hints": 1}, seed=1).view(None)["hints"] == 1
    with pytest.raises(GameError):
        Rummikub.new(2, {"hints": 2}, seed=1)


# ------------------------------------------------------------------ turns


def test_only_the_player_to_act_may_play_or_draw():
    game = game_with([["r1"], ["r2"]])
    assert game.to_act() == {0: frozenset({"play", "draw"})}
    refused(game, 1, {"type": "draw"}, "rummikub.error.not_your_turn")


def test_unknown_and_malformed_actions_are_refused():
    game = game_with([["r1", "r2", "r3"], ["r4"]])
    refused(game, 0, {"type": "discard"}, "rummikub.error.unknown_action")
    refused(game, 0, {"type": "play", "tiles": 7}, "rummikub.error.bad_action")
    refused(game, 0, {"type": "play", "tiles": []}, "rummikub.error.no_tiles")
    refused(game, 0, {"type": "play", "tiles": ["r1", "q2"]}, "rummikub.error.bad_tile")
    refused(game, 0, {"type": "play", "tiles": "r1 r2 r3 r3"}, "rummikub.error.not_on_rack")


def test_a_player_who_does_not_play_draws_one_tile_and_the_turn_ends():
    game = game_with([["r1"], ["r2"]], pool=["k5", "o9"])
    events = game.apply(0, {"type": "draw"})
    assert game.racks[0] == ["r1", "o9"] and game.pool == ["k5"] and game.turn == 1
    private = [event for event in events if event.seats is not None]
    assert [(event.key, event.params, event.seats) for event in private] == [
        ("rummikub.event.drew_tile", {"seat": 0, "tile": "o9"}, (0,))
    ]
    public = [event for event in events if event.seats is None]
    assert all("o9" not in json.dumps(event.params) for event in public)


def test_the_timeout_default_is_a_draw():
    game = game_with([["r1"], ["r2"]])
    assert game.default_action(0) == {"type": "draw"}


# ------------------------------------------------------------------ the initial meld


def test_the_initial_meld_needs_30_from_the_rack_alone():
    game = game_with([["r7", "r8", "r9", "k1"], ["o1"]], melded=[False, False])
    error = refused(game, 0, {"type": "play", "tiles": ["r7", "r8", "r9"]}, "rummikub.error.meld_too_low")
    assert error.params == {"value": 24, "minimum": 30}


def test_the_initial_meld_does_not_touch_the_table():
    table = [["k10", "k11", "k12"]]
    game = game_with([["r10", "r11", "r12", "k13"], ["o1"]], table, melded=[False, True])
    refused(game, 0, {"type": "play", "tiles": ["k13"]}, "rummikub.error.meld_fits_nowhere")
    events = game.apply(0, {"type": "play", "tiles": ["r10", "r11", "r12"]})
    assert game.table == [["k10", "k11", "k12"], ["r10", "r11", "r12"]]
    assert events[0].key == "rummikub.event.initial_meld"
    assert events[0].params["value"] == 33 and events[0].params["changed"] == [1]
    assert game.melded == [True, True]


def test_a_joker_in_the_initial_meld_counts_the_number_it_stands_for():
    game = game_with([["o9", "o10", "j", "k2"], ["o1"]], melded=[False, False])
    events = game.apply(0, {"type": "play", "tiles": "o9 o10 j"})
    assert events[0].params["value"] == 9 + 10 + 11


def test_an_initial_meld_may_be_several_sets():
    game = game_with([["k4", "k5", "k6", "r5", "b5", "o5", "r13"], ["o1"]], melded=[False, False])
    events = game.apply(0, {"type": "play", "tiles": ["k4", "k5", "k6", "r5", "b5", "o5"]})
    assert sorted(map(tuple, game.table)) == [("k4", "k5", "k6"), ("r5", "b5", "o5")]
    assert events[0].params["value"] == 30


# ------------------------------------------------------------------ after the meld


def test_after_the_meld_the_table_may_be_rearranged_freely():
    table = [["r3", "r4", "r5", "r6", "r7"], ["k5", "b5", "o5"]]
    game = game_with([["r5", "k1"], ["o1"]], table)
    events = game.apply(
        0, {"type": "play", "tiles": ["r5"]}
    )  # split the run, fifth red 5 joins nothing alone
    assert all(is_valid_set(s) for s in game.table)
    assert Counter(code for s in game.table for code in s) == Counter(
        ["r3", "r4", "r5", "r6", "r7", "k5", "b5", "o5", "r5"]
    )
    assert events[0].key == "rummikub.event.played"
    assert game.view(None)["changed_sets"] == events[0].params["changed"]


def test_a_play_must_add_a_tile_from_the_rack():
    game = game_with([["r5"], ["o1"]], [["k1", "k2", "k3"]])
    refused(game, 0, {"type": "play", "tiles": []}, "rummikub.error.no_tiles")


def test_every_table_tile_stays_on_the_table_and_none_goes_to_a_rack():
    table = [["k1", "k2", "k3", "k4"], ["r9", "b9", "o9"]]
    game = game_with([["k5", "j", "o2"], ["o1"]], table)
    game.apply(0, {"type": "play", "tiles": ["k5"]})
    assert game.racks[0] == ["j", "o2"]
    assert Counter(code for s in game.table for code in s) == Counter(
        ["k1", "k2", "k3", "k4", "k5", "r9", "b9", "o9"]
    )


def test_a_play_that_leaves_an_invalid_set_is_refused_with_the_reason():
    game = game_with([["o13", "k7"], ["o1"]], [["k1", "k2", "k3"]])
    error = refused(game, 0, {"type": "play", "tiles": ["o13"]}, "rummikub.error.fits_nowhere")
    assert error.params == {"tile": "o13"}


def test_a_joker_won_back_must_be_played_again_the_same_turn():
    table = [["r4", "j", "r6"], ["k9", "b9", "o9"]]
    game = game_with([["r5", "k7", "b7", "o3"], ["o1"]], table)
    game.apply(0, {"type": "play", "tiles": ["r5", "k7", "b7"]})
    assert ["r4", "r5", "r6"] in game.table
    assert any("j" in s for s in game.table)  # the joker is back on the table, not on a rack
    assert "j" not in game.racks[0]
    # With only the replacing tile, the freed joker has nowhere valid to go but its old run.
    game2 = game_with([["r5", "o3"], ["o1"]], [["r4", "j", "r6"]])
    game2.apply(0, {"type": "play", "tiles": ["r5"]})
    assert Counter(game2.table[0]) == Counter(["r4", "r5", "r6", "j"])


# ------------------------------------------------------------------ end of a round and scoring


def test_emptying_the_rack_says_rummikub_and_wins_the_round():
    game = game_with([["r5"], ["k1", "k13", "j"], ["o2", "o3"]], [["r2", "r3", "r4"]])
    events = game.apply(0, {"type": "play", "tiles": ["r5"]})
    keys = [event.key for event in events]
    assert keys[:3] == ["rummikub.event.played", "rummikub.event.rummikub", "rummikub.event.round_won"]
    won = events[2].params
    # The winner scores the others' racks; each other scores minus their own; a joker counts 30.
    assert won["points"] == [1 + 13 + 30 + 2 + 3, -(1 + 13 + 30), -(2 + 3)]
    assert game.finished and game.winner() == 0
    assert game.totals() == won["points"]


def test_an_empty_pool_and_everyone_passing_ends_the_round_lowest_rack_winning():
    game = game_with([["k10", "r2"], ["o1", "o2"], ["b13"]], pool=[])
    events = []
    for seat in (0, 1, 2):
        events += game.apply(seat, {"type": "draw"})
    assert [event.key for event in events].count("rummikub.event.passed") == 3
    blocked = next(event for event in events if event.key == "rummikub.event.round_blocked")
    # Racks 12, 3, 13: seat 1 wins; the others lose the difference; the winner scores its sum.
    assert blocked.params["seat"] == 1
    assert blocked.params["points"] == [-(12 - 3), (12 - 3) + (13 - 3), -(13 - 3)]


def test_a_play_resets_the_run_of_passes():
    game = game_with([["k10"], ["r3", "r4", "r5", "k1"]], [["r6", "r7", "r8"]], pool=[])
    game.apply(0, {"type": "draw"})
    game.apply(1, {"type": "play", "tiles": ["r5"]})
    assert game.passes == 0
    game.apply(0, {"type": "draw"})
    assert not game.finished and game.passes == 1


def test_a_blocked_round_tie_goes_to_fewer_tiles_then_turn_order():
    game = game_with([["k5", "k5"], ["k10"], ["r4", "r6"]], pool=[])
    for seat in (0, 1, 2):
        events = game.apply(seat, {"type": "draw"})
    blocked = next(event for event in events if event.key == "rummikub.event.round_blocked")
    assert blocked.params["seat"] == 1  # 10 with one tile beats 10 with two


def test_more_rounds_deal_again_and_rotate_the_first_player():
    game = game_with([["r5"], ["k1"]], [["r2", "r3", "r4"]], rounds=2)
    events = game.apply(0, {"type": "play", "tiles": ["r5"]})
    assert events[-1].key == "rummikub.event.round_started"
    assert events[-1].params == {"round": 2, "seat": 1}
    assert game.round == 2 and game.turn == 1 and game.table == []
    assert [len(rack) for rack in game.racks] == [14, 14] and game.totals() == [1, -1]
    assert game.melded == [False, False]


def test_a_points_target_plays_rounds_until_someone_reaches_it():
    game = game_with([["r5"], ["k13"]], [["r2", "r3", "r4"]], target=20, points=[10, 0])
    events = game.apply(0, {"type": "play", "tiles": ["r5"]})
    assert events[-1].key == "rummikub.event.match_won" and game.winner() == 0
    game = game_with([["r5"], ["k3"]], [["r2", "r3", "r4"]], target=20, points=[10, 0])
    game.apply(0, {"type": "play", "tiles": ["r5"]})
    assert not game.finished and game.round == 2


def test_equal_top_totals_after_the_last_round_play_another_round():
    tied = game_with([["b2"], ["b2"]], pool=[])
    tied.apply(0, {"type": "draw"})
    events = tied.apply(1, {"type": "draw"})
    assert tied.totals() == [0, 0]
    assert events[-1].key == "rummikub.event.round_started" and not tied.finished


# ------------------------------------------------------------------ leaving


def test_a_player_who_leaves_has_their_tiles_set_aside_and_scores_nothing_more():
    game = game_with([["r5"], ["k1", "k2"], ["o7"]], [["r2", "r3", "r4"]])
    game.apply(0, {"type": "draw"})
    events = game.remove_player(1)
    assert events[0].key == "rummikub.event.player_removed" and game.turn == 2
    assert game.racks[1] == [] and sorted(game.set_aside) == ["k1", "k2"]
    assert tile_count(game) == 106 - 0  # set aside tiles still count
    game.apply(2, {"type": "draw"})
    game.apply(0, {"type": "play", "tiles": ["r5"]})  # seat 0 drew, still holds r5 and more
    assert game.points[1] == 0


def test_too_few_players_end_the_match_with_no_result():
    game = game_with([["r5"], ["k1"]])
    events = game.remove_player(0)
    assert events[-1].key == "rummikub.event.match_abandoned"
    assert game.finished and game.winner() is None and game.to_act() == {}
    with pytest.raises(GameError):
        game.apply(1, {"type": "draw"})


# ------------------------------------------------------------------ views and saving


def test_a_view_shows_only_the_viewers_rack():
    game = Rummikub.new(3, {}, seed=3)
    for seat in range(3):
        view = game.view(seat)
        assert view["rack"] == sorted(view["rack"], key=lambda c: ("krboj".index(c[0]), int(c[1:] or 0)))
        assert Counter(view["rack"]) == Counter(game.racks[seat])
        assert view["racks"] == [14, 14, 14]
        assert all(key not in view for key in ("racks_tiles", "pool_tiles"))
    public = game.view(None)
    assert "rack" not in public and public["pool"] == 106 - 42


def test_legal_actions_offer_draw_and_the_best_plays():
    game = game_with([["r5", "r6", "k9"], ["o1"]], [["r2", "r3", "r4"]])
    actions = game.legal_actions(0)
    assert actions[0] == {"type": "draw"}
    assert {"type": "play", "tiles": ["r5", "r6"]} in actions
    assert game.legal_actions(1) == []


def test_json_round_trip_is_exact_and_plays_on_the_same():
    game = Rummikub.new(3, {"rounds": 2}, seed=21)
    for _ in range(5):
        game.apply(game.turn, {"type": "draw"})
    copy = Rummikub.from_json(json.loads(json.dumps(game.to_json())))
    assert copy.to_json() == game.to_json()
    for _ in range(5):
        for engine in (game, copy):
            engine.apply(engine.turn, engine.legal_actions(engine.turn)[-1])
    assert copy.to_json() == game.to_json()
