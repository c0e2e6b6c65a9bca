"""Engine properties: refusals change nothing, JSON round-trips, replay from seed and log."""

import json
import random

import pytest

from games.bue import Bue
from games.core import GameError, perform, replay

from .helpers import build, play_random, snapshot, swap

HANDS = ["h100 b1* b2 b3 b5", "b4 b7 b8 b9 b10", "b11 b12* b13 b14 b15"]


def swapped_back():
    game = build(HANDS, dealer=2, round=2)
    swap(game, 0, 0, 1, 0)
    return game


def reveal_chosen():
    game = build(HANDS, dealer=2, round=2, phase="reveal")
    game.apply(0, {"type": "reveal", "position": 2})
    return game


def left():
    game = build([*HANDS, "b16 b17 b18 b19 b20"], dealer=3)
    game.remove_player(2)
    return game


def over():
    game = build(HANDS[:2], dealer=1)
    game.remove_player(1)
    return game


def no_deck():
    return build(HANDS, dealer=2, fill_deck=False)


def plain():
    return build(HANDS, dealer=2, round=2)


ILLEGAL = [
    (plain, 1, {"type": "deck", "give": 0}, "error.not_your_turn"),
    (plain, 3, {"type": "deck", "give": 0}, "error.not_a_player"),
    (plain, -1, {"type": "shuffle"}, "error.not_a_player"),
    (plain, 0, {"type": "reveal", "position": 0}, "bue.error.not_reveal_time"),
    (plain, 0, {"type": "fold"}, "error.unknown_action"),
    (plain, 0, {}, "error.unknown_action"),
    (plain, 0, {"type": "deck"}, "bue.error.no_such_card"),
    (plain, 0, {"type": "deck", "give": 1}, "bue.error.card_revealed"),
    (plain, 0, {"type": "deck", "give": -1}, "bue.error.no_such_card"),
    (plain, 0, {"type": "deck", "give": 1.0}, "bue.error.no_such_card"),
    (plain, 0, {"type": "deck", "give": "2"}, "bue.error.no_such_card"),
    (plain, 0, {"type": "swap", "give": 0, "target": 2, "take": 1}, "bue.error.card_revealed"),
    (plain, 0, {"type": "swap", "give": 0, "target": 0, "take": 2}, "bue.error.swap_with_self"),
    (plain, 0, {"type": "swap", "give": 0, "target": 9, "take": 2}, "bue.error.no_such_player"),
    (plain, 0, {"type": "swap", "give": 0, "take": 2}, "bue.error.no_such_player"),
    (plain, 0, {"type": "swap", "give": 0, "target": 1}, "bue.error.no_such_card"),
    (plain, 0, {"type": "swap", "give": 0, "target": False, "take": 2}, "bue.error.no_such_player"),
    (swapped_back, 1, {"type": "swap", "give": 0, "target": 0, "take": 0}, "bue.error.swap_back"),
    (reveal_chosen, 0, {"type": "reveal", "position": 3}, "bue.error.not_reveal_time"),
    (reveal_chosen, 1, {"type": "reveal", "position": 9}, "bue.error.no_such_card"),
    (reveal_chosen, 1, {"type": "deck", "give": 0}, "error.not_your_turn"),
    (left, 2, {"type": "shuffle"}, "error.not_a_player"),
    (left, 0, {"type": "swap", "give": 0, "target": 2, "take": 0}, "bue.error.no_such_player"),
    (over, 0, {"type": "shuffle"}, "error.game_over"),
    (over, 0, {"type": "leave"}, "error.not_a_player"),
    (no_deck, 0, {"type": "deck", "give": 0}, "bue.error.deck_empty"),
]


@pytest.mark.parametrize(("make", "seat", "action", "key"), ILLEGAL)
def test_illegal_actions_raise_game_error_and_leave_the_state_unchanged(make, seat, action, key):
    game = make()
    before = snapshot(game)
    views = [game.view(s) for s in (None, *range(game.players))]
    with pytest.raises(GameError) as error:
        perform(game, seat, action)
    assert error.value.key == key
    assert snapshot(game) == before
    assert [game.view(s) for s in (None, *range(game.players))] == views


def test_to_json_is_a_snapshot_that_later_play_does_not_change():
    game = Bue.new(4, {}, seed=5)
    saved = game.to_json()
    copy = json.loads(json.dumps(saved))
    seat = game.turn
    game.apply(seat, {"type": "deck", "give": 0})
    assert saved == copy
    assert Bue.from_json(saved).to_json() == copy


def clone(game):
    return Bue.from_json(json.loads(json.dumps(game.to_json())))


@pytest.mark.parametrize("seed", range(12))
def test_from_json_round_trips_and_plays_on_identically(seed):
    rnd = random.Random(seed)
    game = Bue.new(2 + seed % 9, {}, seed)
    for _ in range(rnd.randrange(5, 120)):
        if game.finished:
            break
        play_random(game, rnd)
    copy = clone(game)
    assert copy.to_json() == game.to_json()
    assert all(copy.view(s) == game.view(s) for s in (None, *range(game.players)))
    moves = random.Random(seed + 1000)
    while not game.finished:
        seat, action, events = play_random(game, moves)
        assert perform(copy, seat, action) == events
        assert copy.to_json() == game.to_json()
    assert copy.finished and copy.winner() == game.winner() and copy.totals() == game.totals()


@pytest.mark.parametrize("seed", range(12))
def test_replay_from_seed_and_action_log_reproduces_the_state(seed):
    rnd = random.Random(seed)
    players = 2 + seed % 9
    options = {"target": rnd.choice([30, 60, 110])}
    game = Bue.new(players, options, seed)
    log = []
    while not game.finished:
        seat, action, _ = play_random(game, rnd, leave_rate=0.002)
        log.append((seat, action))
    again = replay(Bue, players, options, seed, log)
    assert again.to_json() == game.to_json()
    assert again.winner() == game.winner() and again.finished
    # Part of the log replays to the state at that point as well.
    middle = len(log) // 2
    partial = replay(Bue, players, options, seed, log[:middle])
    for seat, action in log[middle:]:
        perform(partial, seat, action)
    assert partial.to_json() == game.to_json()
