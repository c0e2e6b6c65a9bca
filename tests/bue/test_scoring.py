"""Scoring a game and the match (rulebook worked examples; docs/rules/bue.md: scoring, ties, match)."""

import pytest

from games.bue import Bue
from games.bue.scoring import place_points, rank_by_distance
from games.core import GameError

from .helpers import RiggedRandom, build, end_game, find

LOW = ["b1 b2 b3 b4 b5", "b1 b2 b3 b4 b6", "b5 b6 b7 b7 b8", "b8 b9 b9 b10 b10"]


def scored(events):
    [event] = find(events, "bue.event.game_scored")
    return event.params


def ranking_points(sums, gold=None, dealer=0):
    gold = gold or {seat: 0 for seat in sums}
    return place_points(rank_by_distance(sums, gold, dealer, len(sums)))


def test_rulebook_example_41_52_58_44_scores_0_30_10_20():
    assert ranking_points({0: 41, 1: 52, 2: 58, 3: 44}) == {0: 0, 1: 30, 2: 10, 3: 20}
    game = build(LOW, dealer=3)
    events = end_game(game, ["b15 b10 b8 b5 b3", "b20 b12 b9 b7 b4", "b19 b16 b11 b6 b6", "b18 b13 b7 b4 b2"])
    params = scored(events)
    assert params["sums"] == {"0": 41, "1": 52, "2": 58, "3": 44}
    assert params["points"] == [0, 30, 10, 20]
    assert game.totals() == [0, 30, 10, 20]


def test_rulebook_example_32_69_135_61_scores_20_10_0_30():
    assert ranking_points({0: 32, 1: 69, 2: 135, 3: 61}) == {0: 20, 1: 10, 2: 0, 3: 30}
    game = build(LOW, dealer=3)
    events = end_game(
        game, ["b10 b9 b6 b4 b3", "b20 b19 b15 b10 b5", "h100 b14 b11 b8 b2", "b18 b17 b13 b12 b1"]
    )
    assert scored(events)["points"] == [20, 10, 0, 30]
    assert game.totals() == [20, 10, 0, 30]


def test_rulebook_four_game_table_player_4_wins_with_110():
    # Player 4 (seat 3) deals the first game, as in the rulebook's example.
    game = build(LOW, dealer=3)
    game.rng = RiggedRandom()  # deals in deck order: no Bué at any new deal
    games = [
        # game 1: 32/69/135/61 -> 20/10/0/30
        ["b10 b9 b6 b4 b3", "b20 b19 b15 b10 b5", "h100 b14 b11 b8 b2", "b18 b17 b13 b12 b1"],
        # game 2: 49/47/45/60 -> 30/20/10/0
        ["b20 b14 b9 b5 b1", "b19 b13 b8 b4 b3", "b18 b12 b7 b6 b2", "b17 b16 b15 b11 b1"],
        # game 3: 10/30/55/51 -> 0/10/20/30
        ["b1 b1 b2 b2 b4", "b12 b7 b5 b3 b3", "b20 b15 b9 b6 b5", "b16 b14 b11 b6 b4"],
    ]
    expected = [[20, 10, 0, 30], [30, 20, 10, 0], [0, 10, 20, 30]]
    for number, (final, points) in enumerate(zip(games, expected, strict=True), start=1):
        assert game.game_number == number
        assert game.dealer == (3 + number - 1) % 4
        assert scored(end_game(game, final))["points"] == points
        assert not game.finished
    assert game.totals() == [50, 40, 30, 60]
    # game 4: player 4 makes Bué (exactly 50) with the exchange that completes the hand.
    events = end_game(
        game, ["b1 b2 b3 b4 b5", "b6 b7 b8 b9 b10", "b11 b12 b13 b14 b16", "b20 b15 b8 b4 b3"], last=3
    )
    assert [e.params["seat"] for e in find(events, "bue.event.bue")] == [3]
    assert scored(events)["points"] == [0, 0, 0, 50]
    assert game.totals() == [50, 40, 30, 110]
    assert game.finished and game.winner() == 3
    assert find(events, "bue.event.match_won")[0].params == {"seat": 3, "totals": [50, 40, 30, 110]}
    assert not find(events, "bue.event.dealt")  # the match is over: no fifth game


def test_three_closest_score_30_20_10_the_rest_0():
    game = build([*LOW, "b11 b12 b13 b14 b15"], dealer=4)
    events = end_game(
        game,
        ["b20 b20 b9 b1 b1", "b19 b19 b10 b5 b3", "b2 b2 b4 b4 b8", "h100 b6 b7 b11 b12", "b18 b18 b6 b7 b8"],
    )
    # sums 51 / 56 / 20 / 136 / 57
    assert scored(events)["points"] == [30, 20, 0, 0, 10]


def test_two_player_variant_only_the_closest_scores_30():
    assert ranking_points({0: 45, 1: 60}) == {0: 30, 1: 0}
    game = build(LOW[:2], dealer=1)
    events = end_game(game, ["b20 b10 b10 b3 b2", "b20 b19 b12 b5 b4"])  # 45 and 60
    assert scored(events)["points"] == [30, 0]


def test_two_player_variant_bue_still_scores_50():
    game = build(LOW[:2], dealer=1)
    events = end_game(game, ["b1 b2 b3 b4 b5", "b20 b15 b8 b4 b3"])
    assert scored(events)["points"] == [0, 50]


def test_equal_distance_more_gold_cards_wins():
    # 48 with one gold card and 52 with two: same distance, the two golds go first,
    # even against the dealer.
    game = build(LOW[:3], dealer=0)
    events = end_game(game, ["g10 b20 b10 b5 b3", "g11 g12 b20 b5 b4", "b10 b9 b6 b3 b2"], last=0)
    assert scored(events)["points"] == [20, 30, 10]


def test_equal_distance_same_gold_the_dealer_wins():
    game = build(LOW[:3], dealer=1)
    events = end_game(game, ["b20 b10 b10 b5 b3", "b20 b15 b9 b4 b4", "b11 b9 b6 b3 b2"])  # 48, 52, 31
    assert scored(events)["points"] == [20, 30, 10]


def test_equal_distance_then_nearest_to_the_dealer_clockwise():
    # Dealer seat 1; seats 3 and 0 tie (neither deals). Clockwise from the dealer: 2, 3, 0.
    game = build(LOW, dealer=1)
    events = end_game(
        game, ["b20 b10 b10 b5 b3", "b1 b1 b2 b2 b7", "b4 b5 b6 b7 b8", "b20 b14 b9 b6 b3"]
    )  # 48, 13, 30, 52
    assert scored(events)["points"] == [20, 0, 10, 30]
    assert rank_by_distance({0: 48, 3: 52, 2: 30}, {0: 0, 2: 0, 3: 0}, dealer=1, players=4) == [3, 0, 2]


def test_match_goes_on_below_the_target():
    game = build(LOW, dealer=3)
    game.rng = RiggedRandom()
    end_game(game, ["b10 b9 b6 b4 b3", "b20 b19 b15 b10 b5", "h100 b14 b11 b8 b2", "b18 b17 b13 b12 b1"])
    assert not game.finished and game.winner() is None
    assert game.game_number == 2 and game.phase == "exchange"


def test_match_ends_when_someone_reaches_the_target_highest_total_wins():
    # Both seats 0 and 1 pass 110 in the same game: the higher total wins, not the first.
    game = build(LOW[:3], dealer=2, points=[100, 95, 0])
    events = end_game(game, ["b20 b10 b10 b5 b3", "b20 b15 b9 b4 b3", "b1 b1 b2 b2 b4"])  # 48, 51, 10
    assert scored(events)["points"] == [20, 30, 10]
    assert game.totals() == [120, 125, 10]
    assert game.finished and game.winner() == 1


def test_equal_match_totals_more_gold_in_the_last_hand_wins():
    game = build(LOW[:3], dealer=0, points=[90, 80, 0])
    events = end_game(game, ["b20 b15 b9 b5 b3", "g10 b20 b10 b5 b3", "b1 b1 b2 b2 b4"], last=0)  # 52, 48, 9
    assert scored(events)["points"] == [20, 30, 10]  # 48 with a gold card beats 52
    assert game.totals() == [110, 110, 10]
    # Equal totals: seat 1 had a gold card in the last hand, the dealer (seat 0) none.
    assert game.winner() == 1


def test_equal_match_totals_same_gold_the_dealer_then_clockwise():
    game = build(LOW[:3], dealer=1, points=[90, 80, 0])
    end_game(game, ["b20 b10 b10 b5 b3", "b20 b15 b9 b4 b3", "b1 b1 b2 b2 b4"])  # 48, 51, 10
    assert game.totals() == [110, 110, 10]
    assert game.winner() == 1  # the dealer
    game = build(LOW[:3], dealer=2, points=[80, 90, 0])
    end_game(game, ["b20 b15 b9 b4 b3", "b20 b10 b10 b5 b3", "b1 b1 b2 b2 b4"])  # 51, 48, 10
    assert game.totals() == [110, 110, 10]
    assert game.winner() == 0  # nearest the dealer (seat 2) clockwise: 0 before 1


def test_target_option_default_and_range():
    assert Bue.resolve_options({}) == {"target": 110}
    assert Bue.new(3, {}, 1).target == 110
    assert Bue.new(3, {"target": 30}, 1).target == 30
    for bad in (9, 1001):
        with pytest.raises(GameError):
            Bue.new(3, {"target": bad}, 1)
    with pytest.raises(GameError):
        Bue.new(3, {"rounds": 3}, 1)
    for players in (1, 11):
        with pytest.raises(GameError):
            Bue.new(players, {}, 1)


def test_a_lower_target_ends_the_match_after_one_game():
    game = build(LOW[:3], dealer=2, target=30)
    end_game(game, ["b20 b10 b10 b5 b3", "b20 b15 b9 b4 b3", "b1 b1 b2 b2 b4"])  # 48, 51, 10
    assert game.finished and game.winner() == 1 and game.totals() == [20, 30, 10]
