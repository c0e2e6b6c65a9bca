"""The engine contract: JSON round trip, untouched state on errors, views, timeouts, leaving."""

from __future__ import annotations

import json
import random

import pytest

from games.core import GameError
from games.rumbugz import RumBugz

from .positions import FOUR_KINDS, arrange, assert_conserved, codes_in, hidden_from, seq


def random_steps(game: RumBugz, rng: random.Random, steps: int) -> list[tuple[int, dict]]:
    played = []
    for _ in range(steps):
        if game.finished:
            break
        seat = rng.choice(sorted(game.to_act()))
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        played.append((seat, action))
    return played


def test_begin_tells_the_starting_draw_and_each_seat_its_own_bugz() -> None:
    game, events = RumBugz.begin(4, {}, seed=3)
    assert game.to_json() == RumBugz.new(4, {}, seed=3).to_json()
    draws = [event for event in events if event.key.startswith("rumbugz.event.start_draw")]
    assert len(draws) == len(game.start_draw)
    dealt = {event.seats: event.params["bugz"] for event in events if event.key == "rumbugz.event.dealt"}
    assert dealt == {(seat,): game.hands[seat] for seat in range(4)}
    assert all(not codes_in(event.params) for event in events if event.seats is None)


def test_json_round_trip_is_exact_and_plays_on_identically() -> None:
    rng = random.Random(11)
    game = RumBugz.new(4, {"rounds": 2}, seed=11)
    random_steps(game, rng, 150)
    saved = game.to_json()
    json.dumps(saved)
    copy_game = RumBugz.from_json(json.loads(json.dumps(saved)))
    assert copy_game.to_json() == saved
    for seat in [None, 0, 1, 2, 3]:
        assert copy_game.view(seat) == game.view(seat)
    follow = random.Random(5)
    for seat, action in random_steps(game, follow, 300):
        copy_game.apply(seat, action)
    assert copy_game.to_json() == game.to_json()


@pytest.mark.parametrize(
    ("seat", "action", "key"),
    [
        (0, {"type": "teleport"}, "rumbugz.error.unknown_action"),
        (0, {"source": "bag"}, "rumbugz.error.unknown_action"),
        (5, {"type": "discard", "bug": "9b"}, "rumbugz.error.not_playing"),
        (1, {"type": "discard", "bug": "12a"}, "rumbugz.error.not_your_turn"),
        (0, {"type": "draw", "source": "bag"}, "rumbugz.error.wrong_step"),
        (0, {"type": "discard", "bug": "12a"}, "rumbugz.error.not_in_hand"),
        (0, {"type": "discard", "bug": "13a"}, "rumbugz.error.unknown_bug"),
        (0, {"type": "discard"}, "rumbugz.error.unknown_bug"),
        (0, {"type": "lay", "kind": "match"}, "rumbugz.error.malformed"),
        (0, {"type": "lay", "kind": "match", "bugz": ["9b"]}, "rumbugz.error.malformed"),
        (0, {"type": "change", "sequence": 1, "add": seq("9b"), "remove": "4a"}, "rumbugz.error.malformed"),
        (0, {"type": "change", "sequence": True, "add": seq("9b")}, "rumbugz.error.unknown_sequence"),
        (0, {"type": "change", "sequence": 1, "add": seq(("Pa", True))}, "rumbugz.error.plyt_value"),
        (0, {"type": "bid"}, "rumbugz.error.cannot_bid"),
    ],
)
def test_illegal_actions_leave_the_state_untouched(seat: int, action: dict, key: str) -> None:
    game = arrange(2, {0: ["9b", "3d", "Pa"], 1: ["12a"]}, table=FOUR_KINDS, discard=["6b"])
    before = game.to_json()
    with pytest.raises(GameError) as error:
        game.apply(seat, action)
    assert error.value.key == key
    assert game.to_json() == before


def test_nothing_is_accepted_once_the_match_is_over() -> None:
    game = arrange(2, {0: ["9b"], 1: ["12a"]}, table=FOUR_KINDS)
    game.round_number = 3
    game.apply(0, {"type": "discard", "bug": "9b"})
    assert game.finished
    for call in (lambda: game.apply(1, {"type": "draw", "source": "bag"}), lambda: game.remove_player(1)):
        with pytest.raises(GameError) as error:
            call()
        assert error.value.key == "rumbugz.error.match_over"


def test_views_show_only_the_own_hand_and_counts_of_the_others() -> None:
    game = arrange(3, {0: ["9b", "Pa"], 1: ["12a", "1b", "2b"], 2: ["3b"]}, table=FOUR_KINDS, discard=["6b"])
    public = game.view(None)
    assert "hand" not in public
    assert public["hand_counts"] == [2, 3, 1]
    assert public["discard_top"] == "6b" and public["discard_count"] == 1
    assert public["bag_count"] == len(game.bag)
    assert public["to_act"] == [["change", "discard", "lay"], [], []]
    assert public["completed"][0] == ["simple", "double", "triple", "match"]
    mine = game.view(1)
    assert mine["hand"] == ["1b", "2b", "12a"] and mine["hand_value"] == 15
    for seat in (None, 0, 1, 2):
        assert not codes_in(game.view(seat)) & hidden_from(game, seat)


def _clear_all(data: object) -> None:
    """Empty every list and dict in a JSON value, innermost first."""
    if isinstance(data, dict):
        for value in data.values():
            _clear_all(value)
        data.clear()
    elif isinstance(data, list):
        for value in data:
            _clear_all(value)
        data.clear()


def test_views_and_the_saved_state_share_nothing_with_the_game() -> None:
    game = arrange(4, {0: ["9b", "12a"], 1: ["1b"], 2: ["2b"], 3: ["3b"]}, table=FOUR_KINDS, discard=["6b"])
    game.apply(0, {"type": "discard", "bug": "9b"})
    game.apply(2, {"type": "bid"})
    game.last_round = {"round": 1, "winners": [3], "points": 7, "hand_values": [7, 0, 0, 0]}
    saved = json.loads(json.dumps(game.to_json()))
    for data in (game.view(None), game.view(2), game.to_json()):
        _clear_all(data)
    assert game.to_json() == saved


def test_to_act_offers_change_and_lay_whatever_the_hand_and_legal_actions_only_possible_ones() -> None:
    play = frozenset({"discard", "change", "lay"})

    def offered(game: RumBugz) -> set[str]:
        return {action["type"] for action in game.legal_actions(0)}

    game = arrange(2, {0: ["12c", "1b"], 1: ["2b"]}, table=[(0, "simple", ["4a", "5a", "6a", "7a"])])
    assert game.to_act() == {0: play} and offered(game) == {"discard"}
    game = arrange(2, {0: ["8b", "1b"], 1: ["2b"]}, table=[(0, "simple", ["4a", "5a", "6a", "7a"])])
    assert game.to_act() == {0: play} and offered(game) == {"discard", "change"}
    game = arrange(
        2, {0: ["8b", "1b", "2b", "3b"], 1: ["2c"]}, table=[(1, "simple", ["4a", "5a", "6a", "7a"])]
    )
    assert game.to_act() == {0: play} and offered(game) == {"discard"}
    game.hands[0].append("Pa")
    assert game.to_act() == {0: play} and offered(game) == {"discard", "lay"}


def test_every_listed_legal_action_is_legal() -> None:
    rng = random.Random(2)
    for seed in range(4):
        game = RumBugz.new(3 + seed % 3, {}, seed)
        for _ in range(100):
            if game.finished:
                break
            for seat in game.to_act():
                for action in game.legal_actions(seat):
                    trial = RumBugz.from_json(game.to_json())
                    trial.apply(seat, action)
                    assert_conserved(trial)
            seat = rng.choice(sorted(game.to_act()))
            game.apply(seat, rng.choice(game.legal_actions(seat)))


def test_legal_actions_offer_the_rulebook_changes() -> None:
    game = arrange(
        2,
        {0: ["7b", "12a", "Pb"], 1: ["1b"]},
        table=[(0, "simple", ["3a", "4a", "5a", "6a"]), (1, "triple", ["3b", "6b", "9b", ("Pa", 12)])],
    )
    changes = [action for action in game.legal_actions(0) if action["type"] == "change"]
    assert {"type": "change", "sequence": 1, "add": [{"bug": "7b"}], "remove": ["3a"]} in changes
    assert {"type": "change", "sequence": 2, "add": [{"bug": "12a"}], "remove": ["Pa"]} in changes
    assert {"type": "change", "sequence": 1, "add": [{"bug": "Pb", "value": 2}], "remove": []} in changes


def test_timeout_defaults() -> None:
    game = arrange(4, {0: ["3d", "9b", "Pa"], 1: ["12a"], 2: ["1b"], 3: ["2b"]}, table=FOUR_KINDS)
    assert game.default_action(0) == {"type": "discard", "bug": "Pa"}
    game = arrange(4, {0: ["3d", "12b", "Pa"], 1: ["12a"], 2: ["1b"], 3: ["2b"]}, options={"plyt_value": 5})
    assert game.default_action(0) == {"type": "discard", "bug": "12b"}
    game.apply(0, game.default_action(0))
    assert game.default_action(1) == {"type": "draw", "source": "bag"}
    assert game.default_action(2) == {"type": "decline"}
    with pytest.raises(GameError):
        game.default_action(0)
    game.apply(1, game.default_action(1))
    assert game.default_action(1)["type"] == "discard"


def test_a_removed_player_is_set_aside_and_the_turn_moves_on() -> None:
    game = arrange(3, {0: ["9b", "1b"], 1: ["12a", "Pb"], 2: ["3b"]}, table=FOUR_KINDS, discard=["6b"])
    events = game.remove_player(0)
    assert [event.key for event in events] == ["rumbugz.event.player_removed"]
    assert game.hands[0] == [] and sorted(game.set_aside) == ["1b", "9b"]
    assert game.turn == 1 and game.phase == "draw"
    assert len(game.table) == 4
    assert_conserved(game)
    with pytest.raises(GameError) as error:
        game.apply(0, {"type": "bid"})
    assert error.value.key == "rumbugz.error.not_playing"
    # Two players left: no more bids; the removed seat scores nothing from now on.
    game.apply(1, {"type": "draw", "source": "discard"})
    game.apply(1, {"type": "discard", "bug": "12a"})
    assert game.bids is None
    game.totals_by_seat = [50, 0, 0]
    game.round_number = 3
    game.hands[2] = ["12a"]
    game.discard_pile.remove("12a")
    game.completed[2] = ["simple", "double", "triple", "match"]
    game.phase = "play"
    game.turn = 2
    game.apply(2, {"type": "discard", "bug": "12a"})
    assert game.finished and game.winner() == 2
    assert game.totals()[0] == 50


def test_removing_a_bidder_or_the_discarder_keeps_the_window_right() -> None:
    game = arrange(5, {seat: [f"{seat + 1}b"] for seat in range(5)} | {0: ["9b", "12a"]})
    game.apply(0, {"type": "discard", "bug": "9b"})
    game.apply(3, {"type": "bid"})
    game.remove_player(3)
    assert game.bids is not None and game.bids.bidders == [] and 3 not in game.to_act()
    game.remove_player(0)
    assert game.to_act() == {
        1: frozenset({"draw"}),
        2: frozenset({"bid", "decline"}),
        4: frozenset({"bid", "decline"}),
    }
    game.remove_player(2)
    assert game.bids is None


def test_too_few_players_left_ends_the_match_with_no_result() -> None:
    game = RumBugz.new(2, {}, seed=4)
    events = game.remove_player(1)
    assert [event.key for event in events] == ["rumbugz.event.player_removed", "rumbugz.event.no_result"]
    assert game.finished and game.winner() is None
    assert game.to_act() == {}
    assert_conserved(game)


def test_options() -> None:
    assert [option.name for option in RumBugz.options] == ["rounds", "target", "plyt_value", "refills"]
    assert RumBugz.new(2, {}, seed=1).settings == {"rounds": 3, "target": 0, "plyt_value": 15, "refills": 3}
    with pytest.raises(GameError):
        RumBugz.new(2, {"rounds": 0}, seed=1)
    with pytest.raises(GameError):
        RumBugz.new(2, {"colour": 1}, seed=1)
