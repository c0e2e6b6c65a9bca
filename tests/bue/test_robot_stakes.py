"""Bué's hard play weighs a game's outcomes by the match: points while no outcome can end it,
the odds of winning the match near the target (``games.bue.stakes``)."""

import pytest

from games.bue.scoring import BUE_POINTS
from games.bue.stakes import match_stakes, points_stakes
from games.bue.strategy import World

from .test_robot_parking import plan_for


def view_of(totals, target=110):
    return {"active": [True] * len(totals), "me": 0, "totals": list(totals), "target": target}


def test_while_no_outcome_can_end_the_match_the_stakes_are_points_minus_the_others_average():
    stakes = match_stakes(view_of([40, 30, 55, 0]))
    assert stakes == points_stakes(4, 4, 0, (True,) * 4)
    assert stakes.loss == pytest.approx((0, 50 / 3, 50 / 3, 50 / 3))
    # 30, 20, 10, 0 points: each place's points times four, less the 60 given out, over three.
    assert stakes.places == pytest.approx((20, 20 / 3, -20 / 3, -20))
    assert match_stakes(view_of([50, 10])).places == pytest.approx((30, -30))


def test_near_the_target_a_place_that_wins_the_match_is_worth_a_bue():
    # At 90 of 110, a first or second place (30 or 20) wins: nobody else can pass 110 then.
    stakes = match_stakes(view_of([90, 70, 40, 30]))
    assert stakes.places[0] == pytest.approx(BUE_POINTS)
    assert stakes.places[1] == pytest.approx(BUE_POINTS)
    assert stakes.places[2] < stakes.places[1]


def test_a_bue_costs_more_by_the_seat_it_would_make_win():
    stakes = match_stakes(view_of([70, 90, 40, 30]))
    assert stakes.loss[1] > stakes.loss[2] > 0
    assert stakes.loss[1] > 50 / 3 > stakes.loss[3]


def test_the_stakes_are_the_same_at_every_call():
    view = view_of([85, 95, 20])
    first = match_stakes(view)
    match_stakes.__globals__["_match_stakes"].cache_clear()
    assert match_stakes(view) == first


def test_hard_would_rather_swap_with_the_seat_a_bue_helps_least():
    # Seats 1 and 2 show the same cards and hold the same in the one world sampled; a swap
    # gives either the 10 with the same odds of completing a Bué. Seat 1 is at 100 of 110
    # (a Bué wins it the match), seat 2 at 0.
    hands = ["b12 b11 b9 b8 b10", "b5* b2 b3 b6 b7", "b5* b2 b3 b6 b7"]
    world = World({1: {1: 13, 2: 14, 3: 15, 4: 16}, 2: {1: 13, 2: 14, 3: 15, 4: 16}})
    give = 4
    swaps = [{"type": "swap", "give": give, "target": target, "take": 1} for target in (1, 2)]
    even = plan_for(hands, [world], round=2, dealer=2, points=[20, 20, 0])
    assert even.gift_danger(1, give) == even.gift_danger(2, give) > 0
    assert even.score(swaps[0], {}) == pytest.approx(even.score(swaps[1], {}))
    leader = plan_for(hands, [world], round=2, dealer=2, points=[20, 100, 0])
    assert leader.score(swaps[0], {}) < leader.score(swaps[1], {})
