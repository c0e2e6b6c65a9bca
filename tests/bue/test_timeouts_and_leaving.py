"""Turn timeouts and players leaving (docs/playing.md, "Rules every game shares"; docs/rules/bue.md,
"When time runs out")."""

import pytest

from games.core import LEAVE, GameError, perform

from .helpers import RiggedRandom, assert_58, build, code_of, deck_exchange, end_game, find, snapshot

FOUR = ["b1 b2 b3 b4 b5", "b1 b2 b3 b4 b6", "b5 b6 b7 b7 b8", "b8 b9 b9 g6 g7"]
ROUND_END = ["b10 b9 b6 b4 b3", "b20 b19 b15 b10 b5", "h100 b14 b11 b8 b2", "b18 b17 b13 b12 b1"]


# ------------------------------------------------------------------ timeouts


def test_timeout_exchange_puts_the_card_furthest_from_50_on_the_discard():
    game = build(["b20 b20 b5 h100 b3", "b1 b2 b3 b4 b6", "b11 b12 b13 b14 b15"], dealer=2)
    action = game.default_action(0)
    assert action == {"type": "deck", "give": 3}  # without the 100: 48
    events = game.apply(0, action)
    assert find(events, "bue.event.exchanged_deck")[0].params == {"seat": 0, "card": "h100"}


def test_timeout_exchange_never_gives_a_revealed_card():
    game = build(["b20 b20 b5 h100* b3", "b1 b2 b3 b4 b6", "b11 b12 b13 b14 b15"], dealer=2, round=2)
    assert game.default_action(0) == {"type": "deck", "give": 0}  # a 20: 128 is the closest left


def test_timeout_exchange_with_no_deck_left_swaps_the_same_card():
    game = build(["b20 b20 b5 h100 b3", "b1 b2 b3 b4 b6", "b11 b12 b13 b14 b15"], dealer=2, fill_deck=False)
    action = game.default_action(0)
    assert action["type"] == "swap" and action["give"] == 3
    game.apply(0, action)


def test_timeout_reveal_shows_the_hidden_card_with_the_lowest_value():
    game = build(
        ["b7 b1* b9 b3 b12", "b1 b2 b3 b4 b6", "b11 b12 b13 b14 b15"], dealer=2, phase="reveal", round=2
    )
    assert game.default_action(0) == {"type": "reveal", "position": 3}
    assert game.default_action(2) == {"type": "reveal", "position": 0}
    game.apply(0, game.default_action(0))


def test_timeout_only_for_a_seat_that_must_decide():
    game = build(FOUR, dealer=3)
    for seat in (1, 2, 3):
        with pytest.raises(GameError):
            game.default_action(seat)
    game.apply(0, game.default_action(0))
    assert game.turn == 1


# ------------------------------------------------------------------ leaving


def test_a_player_leaving_on_their_turn_sets_cards_aside_and_play_goes_on():
    game = build(FOUR, dealer=3)
    hand = [slot.card for slot in game.hands[0]]
    events = game.remove_player(0)
    assert [(e.key, e.params, e.seats) for e in events] == [("bue.event.player_left", {"seat": 0}, None)]
    assert game.active == [False, True, True, True]
    assert game.hands[0] == [] and game.set_aside == hand
    assert_58(game)
    assert game.turn == 1 and not game.finished
    assert game.view(None)["active"] == [False, True, True, True]
    before = snapshot(game)
    with pytest.raises(GameError):
        game.apply(0, {"type": "shuffle"})
    with pytest.raises(GameError):
        game.apply(1, {"type": "swap", "give": 0, "target": 0, "take": 0})
    assert snapshot(game) == before
    assert all(move.get("target") != 0 for move in game.legal_exchanges(1))


def test_a_player_who_left_scores_0_from_then_on_and_gets_no_cards():
    game = build(FOUR, dealer=3, points=[20, 0, 0, 0])
    game.rng = RiggedRandom()
    game.remove_player(1)
    events = end_game(game, ["b10 b9 b6 b4 b3", None, "h100 b14 b11 b8 b2", "b18 b17 b13 b12 b1"])
    [scored] = find(events, "bue.event.game_scored")
    assert scored.params["points"] == [20, 0, 10, 30]  # three left: 30 / 20 / 10 among them
    assert game.totals() == [40, 0, 10, 30]
    assert game.hands[1] == [] and all(len(game.hands[s]) == 5 for s in (0, 2, 3))
    assert_58(game)


def test_a_player_who_left_cannot_win_the_match():
    game = build(FOUR, dealer=3, points=[100, 0, 0, 0], target=30)
    game.remove_player(0)
    end_game(game, [None, "b20 b19 b15 b10 b5", "h100 b14 b11 b8 b2", "b18 b17 b13 b12 b1"])
    assert game.finished and game.winner() == 3  # 61 is the closest of the three left


def test_the_dealer_leaving_keeps_the_exchange_order_and_the_rotation():
    game = build(FOUR, dealer=2, turn=0, exchanged=[3])
    assert game._exchange_order() == [3, 0, 1, 2]
    game.remove_player(2)
    assert game._exchange_order() == [3, 0, 1]
    assert game.turn == 0
    deck_exchange(game, 0, 4)
    deck_exchange(game, 1, 4)
    assert game.phase == "reveal"
    game.rng = RiggedRandom()
    end_game(game, ["b10 b9 b6 b4 b3", "b20 b19 b15 b10 b5", None, "b18 b17 b13 b12 b1"])
    assert game.game_number == 2
    assert game.dealer == 3  # the seat after the one who dealt and left
    assert game._exchange_order() == [0, 1, 3]


def test_leaving_during_the_reveal_completes_it_once_the_others_have_chosen():
    game = build(FOUR, dealer=3, phase="reveal")
    for seat in (0, 1, 3):
        game.apply(seat, {"type": "reveal", "position": 0})
    events = game.remove_player(2)
    [shown] = find(events, "bue.event.revealed")
    assert shown.params == {"cards": {"0": "b1", "1": "b1", "3": "b8"}}
    assert game.round == 2 and game.phase == "exchange" and game.turn == 0


def test_fewer_than_two_players_left_ends_the_match_with_no_result():
    game = build(FOUR[:3], dealer=2, points=[30, 20, 10])
    game.remove_player(2)
    assert not game.finished
    events = game.remove_player(0)
    assert "bue.event.match_abandoned" in [e.key for e in events]
    assert game.finished and game.winner() is None
    assert game.to_act() == {}
    with pytest.raises(GameError):
        game.apply(1, {"type": "shuffle"})
    with pytest.raises(GameError):
        game.remove_player(1)
    assert_58(game)


def test_leaving_is_logged_like_an_action_and_refused_for_a_seat_not_playing():
    game = build(FOUR, dealer=3)
    perform(game, 2, {"type": LEAVE})
    assert game.active[2] is False
    before = snapshot(game)
    for seat in (2, 4, -1):
        with pytest.raises(GameError):
            perform(game, seat, {"type": LEAVE})
        assert snapshot(game) == before


def test_leaving_keeps_each_card_accounted_for():
    game = build(FOUR, dealer=3, discard=["b20"], deck=["b19"])
    deck_exchange(game, 0, 0)
    game.remove_player(1)
    assert game.hands[1] == []
    assert sorted(code_of(c) for c in game.set_aside) == sorted(["b1", "b2", "b3", "b4", "b6"])
    assert_58(game)
