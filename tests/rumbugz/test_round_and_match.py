"""Empty bag, end of round, scoring and the match (docs/rules/rumbugz.md: bag, scoring, match)."""

from __future__ import annotations

import pytest

from games.rumbugz import RumBugz

from .positions import FOUR_KINDS, arrange, assert_conserved


def bag_into_pile(game: RumBugz) -> None:
    """Empty the bag under the discard pile, keeping the pile's top."""
    game.discard_pile = game.bag + game.discard_pile
    game.bag = []


def keys(events: list) -> list[str]:
    return [event.key for event in events]


def test_an_empty_bag_is_refilled_from_the_discard_pile_except_its_top() -> None:
    game = arrange(2, {0: ["1a"], 1: ["3a"]}, discard=["5a", "6a"], turn=1, phase="draw")
    bag_into_pile(game)
    pile = len(game.discard_pile)
    events = game.apply(1, {"type": "draw", "source": "bag"})
    assert game.discard_pile == ["6a"]
    assert len(game.bag) == pile - 2
    assert len(game.hands[1]) == 2
    refilled = next(event for event in events if event.key == "rumbugz.event.bag_refilled")
    assert refilled.params == {"count": pile - 1, "left": 2}
    assert game.view(None)["refills_left"] == 2
    assert_conserved(game)


@pytest.mark.parametrize(("refills_done", "pile_kept"), [(0, False), (3, True)])
def test_when_no_bug_can_be_drawn_the_lowest_hand_wins(refills_done: int, pile_kept: bool) -> None:
    """No refill possible: the pile holds only its top, or the refills of the round are used up."""
    game = arrange(3, {0: ["1a", "12a"], 1: ["5a", "Pa"], 2: ["3b", "4b"]})
    if pile_kept:
        bag_into_pile(game)
    else:
        game.set_aside, game.bag = game.bag, []  # out of play for this test
    game.refills_done = refills_done
    events = game.apply(0, {"type": "discard", "bug": "12a"})
    assert keys(events)[:3] == [
        "rumbugz.event.discarded",
        "rumbugz.event.bag_exhausted",
        "rumbugz.event.round_won",
    ]
    assert events[2].params == {"seat": 0, "points": 20 + 7, "round": 1}
    assert game.totals() == [27, 0, 0]
    assert game.round_number == 2
    assert game.last_round == {"round": 1, "winners": [0], "points": 27, "hand_values": [1, 20, 7]}


def test_replacements_that_run_dry_end_the_round() -> None:
    game = arrange(2, {0: ["1a", "2b", "3b", "4a", "9a"], 1: ["Pa"]}, bag_top=["6b", "6c"])
    game.set_aside, game.bag = game.bag[:-2], game.bag[-2:]
    game.apply(
        0, {"type": "lay", "kind": "simple", "bugz": [{"bug": code} for code in ("1a", "2b", "3b", "4a")]}
    )
    events = game.apply(0, {"type": "discard", "bug": "9a"})
    drew = next(event for event in events if event.key == "rumbugz.event.drew_bag")
    assert drew.params == {"seat": 0, "count": 2}
    assert "rumbugz.event.bag_exhausted" in keys(events)
    assert game.last_round is not None and game.last_round["hand_values"] == [12, 15]
    assert game.totals() == [15, 0]


def test_tied_lowest_hands_share_the_round() -> None:
    game = arrange(3, {0: ["2b", "3b", "12a"], 1: ["1b", "4b"], 2: ["12b"]})
    game.set_aside, game.bag = game.bag, []
    game.apply(0, {"type": "discard", "bug": "12a"})
    assert game.totals() == [12, 12, 0]
    assert game.last_round is not None and game.last_round["winners"] == [0, 1]


def go_out(game: RumBugz) -> list:
    """Seat 0 (all four kinds, one Bug in hand) discards its last Bug."""
    return game.apply(0, {"type": "discard", "bug": game.hands[0][0]})


def test_the_next_round_rotates_the_starter_and_collects_every_bug() -> None:
    game = arrange(3, {0: ["9b"], 1: ["12a"], 2: ["3b"]}, table=FOUR_KINDS)
    game.starter = 1
    events = go_out(game)
    assert "rumbugz.event.round_started" in keys(events)
    assert game.round_number == 2
    assert game.starter == 2 and game.turn == 2 and game.phase == "draw"
    assert game.start_draw == []
    assert game.table == [] and game.discard_pile == []
    assert [len(hand) for hand in game.hands] == [6, 6, 6]
    assert game.completed == [[], [], []]
    dealt = [event for event in events if event.key == "rumbugz.event.dealt"]
    assert sorted(event.seats for event in dealt) == [(0,), (1,), (2,)]
    assert_conserved(game)


def test_a_match_is_three_rounds_by_default_and_the_highest_total_wins() -> None:
    game = arrange(2, {0: ["9b"], 1: ["12a"]}, table=FOUR_KINDS)
    game.round_number = 3
    game.totals_by_seat = [0, 40]
    events = go_out(game)
    assert game.finished
    assert game.winner() == 1
    assert game.totals() == [12, 40]
    assert keys(events)[-1] == "rumbugz.event.match_won"
    assert game.to_act() == {}


def test_the_rounds_setting() -> None:
    game = arrange(2, {0: ["9b"], 1: ["12a"]}, table=FOUR_KINDS, options={"rounds": 5})
    game.round_number = 3
    go_out(game)
    assert not game.finished and game.round_number == 4


def test_a_points_target_replaces_the_round_count() -> None:
    game = arrange(2, {0: ["9b"], 1: ["12a"]}, table=FOUR_KINDS, options={"target": 30})
    game.round_number = 3
    game.totals_by_seat = [10, 25]
    go_out(game)
    assert not game.finished and game.round_number == 4
    game = arrange(2, {0: ["9b"], 1: ["12a"]}, table=FOUR_KINDS, options={"target": 30})
    game.totals_by_seat = [20, 25]
    go_out(game)
    assert game.finished and game.winner() == 0 and game.totals() == [32, 25]


def test_equal_leading_totals_play_another_round() -> None:
    game = arrange(2, {0: ["9b"], 1: ["12a"]}, table=FOUR_KINDS)
    game.round_number = 3
    game.totals_by_seat = [14, 26]
    events = go_out(game)
    assert "rumbugz.event.tie_break" in keys(events)
    assert not game.finished and game.round_number == 4
