"""Bids for the discard with 3 or more players (docs/rules/rumbugz.md: bids)."""

from __future__ import annotations

import pytest

from games.core import GameError
from games.rumbugz import RumBugz

from .positions import arrange, assert_conserved


def after_discard(players: int, discarder: int, bag_top: tuple[str, ...] = ()) -> RumBugz:
    """``discarder`` has just discarded the 9a; the next seat is about to draw."""
    hands = {seat: [f"{seat + 1}a", f"{seat + 1}b"] for seat in range(players)}
    hands[discarder] = ["12a", "12b", "9a"]
    game = arrange(players, hands, turn=discarder, bag_top=bag_top)
    game.apply(discarder, {"type": "discard", "bug": "9a"})
    return game


def test_no_bids_with_two_players() -> None:
    game = after_discard(2, 0)
    assert game.bids is None
    assert game.to_act() == {1: frozenset({"draw"})}
    with pytest.raises(GameError) as error:
        game.apply(0, {"type": "bid"})
    assert error.value.key == "rumbugz.error.cannot_bid"


def test_everyone_but_the_discarder_and_the_next_player_may_bid() -> None:
    game = after_discard(5, 1)
    assert game.to_act() == {
        2: frozenset({"draw"}),
        3: frozenset({"bid", "decline"}),
        4: frozenset({"bid", "decline"}),
        0: frozenset({"bid", "decline"}),
    }
    # Bids are optional: they need no timer, and the timeout answer is not to bid.
    assert game.optional_actions() == {seat: frozenset({"bid", "decline"}) for seat in (0, 3, 4)}
    assert game.default_action(3) == {"type": "decline"}
    for seat in (1, 2):
        before = game.to_json()
        with pytest.raises(GameError) as error:
            game.apply(seat, {"type": "bid"})
        assert error.value.key == "rumbugz.error.cannot_bid"
        assert game.to_json() == before


def test_the_first_bidder_after_the_next_player_wins_with_bidders_on_both_sides() -> None:
    """Seat 1 discards, seat 2 is next; seat 0 bids first, seat 4 later: seat 4 comes first
    in seat order after seat 2 (3, 4, 0), so seat 4 takes the discard and a Bug from the bag."""
    game = after_discard(5, 1, bag_top=("11a", "Pa"))
    game.apply(0, {"type": "bid"})
    game.apply(4, {"type": "bid"})
    game.apply(3, {"type": "decline"})
    assert game.view(None)["bids"] == {"eligible": [3, 4, 0], "bidders": [0, 4], "declined": [3]}
    hand_before = {seat: list(game.hands[seat]) for seat in (0, 3)}
    events = game.apply(2, {"type": "draw", "source": "bag"})
    assert "11a" in game.hands[2]
    assert sorted(game.hands[4]) == sorted(["5a", "5b", "9a", "Pa"])
    assert {seat: game.hands[seat] for seat in (0, 3)} == hand_before
    won = next(event for event in events if event.key == "rumbugz.event.bid_won")
    assert won.params == {"seat": 4, "bug": "9a"}
    private = [event for event in events if event.seats is not None]
    assert {event.seats for event in private} == {(2,), (4,)}
    # The next player goes on with the turn; the window is closed.
    assert game.bids is None
    assert game.to_act() == {2: frozenset({"change", "lay", "discard"})}
    assert game.discard_pile == []
    assert_conserved(game)


def test_a_bidder_before_the_discarder_wins_when_alone() -> None:
    game = after_discard(5, 1, bag_top=("11a", "11b"))
    game.apply(0, {"type": "bid"})
    game.apply(2, {"type": "draw", "source": "bag"})
    assert sorted(game.hands[0]) == sorted(["1a", "1b", "9a", "11b"])


def test_seat_order_not_bid_order_decides() -> None:
    game = after_discard(6, 4, bag_top=("11a", "11b"))
    game.apply(3, {"type": "bid"})
    game.apply(1, {"type": "bid"})
    game.apply(0, {"type": "bid"})
    game.apply(5, {"type": "draw", "source": "bag"})
    assert "9a" in game.hands[0]
    assert "9a" not in game.hands[1] + game.hands[3]


def test_bids_lapse_when_the_next_player_takes_the_discard() -> None:
    game = after_discard(4, 0)
    game.apply(2, {"type": "bid"})
    events = game.apply(1, {"type": "draw", "source": "discard"})
    assert "9a" in game.hands[1]
    assert game.hands[2] == ["3a", "3b"]
    assert [event.key for event in events] == ["rumbugz.event.took_discard", "rumbugz.event.bids_lapsed"]


def test_the_next_players_draw_closes_the_window() -> None:
    game = after_discard(3, 0)
    assert game.to_act() == {1: frozenset({"draw"}), 2: frozenset({"bid", "decline"})}
    game.apply(1, {"type": "draw", "source": "bag"})
    with pytest.raises(GameError) as error:
        game.apply(2, {"type": "bid"})
    assert error.value.key == "rumbugz.error.cannot_bid"
    assert game.hands[2] == ["3a", "3b"]


def test_one_answer_per_seat() -> None:
    game = after_discard(4, 0)
    game.apply(2, {"type": "bid"})
    for action in ({"type": "bid"}, {"type": "decline"}):
        with pytest.raises(GameError) as error:
            game.apply(2, action)
        assert error.value.key == "rumbugz.error.already_answered"
    game.apply(3, {"type": "decline"})
    assert game.to_act() == {1: frozenset({"draw"})}


def test_no_window_without_a_discard() -> None:
    game = arrange(
        4,
        {0: ["8a"], 1: ["1a"], 2: ["2a"], 3: ["3a"]},
        table=[(0, "simple", ["4a", "5a", "6a", "7a"])],
        discard=["11a"],
    )
    game.apply(0, {"type": "change", "sequence": 1, "add": [{"bug": "8a"}]})
    assert game.bids is None
    assert game.to_act() == {1: frozenset({"draw"})}
