"""Bué's hard play remembers where it parked cards (a swap leaves the card it gave where it knows
it), counts on taking one back for a sure Bué, and weighs the odds a gift completes the other
seat's Bué."""

from collections import Counter

import pytest

from games.bue.cards import DECK
from games.bue.planner import HUNDRED, Planner, token
from games.bue.robot import BueRobot
from games.bue.stakes import match_stakes
from games.bue.strategy import Seat, TablePlan, park_chance, parked_cards

from .helpers import build


def test_a_parked_card_that_makes_50_for_a_hidden_card_is_a_sure_bue_if_it_stays():
    hidden = (12, 11, 9, 8, 1)  # 41: giving the 1 for a parked 10 makes 50
    assert park_chance((), hidden, ((1, 0, 10),), {1: 0.4}) == pytest.approx(0.4)
    assert park_chance((), hidden, ((1, 0, 15),), {1: 0.4}) == 0.0
    # Two parked cards that would each do, in two hands: either may stay.
    both = park_chance((), hidden, ((1, 0, 10), (2, 3, 10)), {1: 0.4, 2: 0.5})
    assert both == pytest.approx(1 - 0.6 * 0.5)
    # Face-up cards count in the sum but cannot be given.
    assert park_chance((12, 11, 9, 8), (1,), ((1, 0, 10),), {1: 0.4}) == pytest.approx(0.4)
    assert park_chance((12, 11, 9, 1), (8,), ((1, 0, 10),), {1: 0.4}) == 0.0


def test_hard_keeps_hidden_the_card_it_would_give_for_its_parked_card():
    # 14 + 13 + 6 + 11 + 15 = 59: giving the 14 for the 5 parked in seat 1's hand makes 50.
    game = build(["b14 b13 b6 b11 b15", "b5 b2 b3 b6 h100"], round=2, phase="reveal")
    view = game.view(0)
    forgetful = BueRobot("hard", 0).decide(view)
    assert forgetful == {"type": "reveal", "position": 0}  # the 14, without the parked 5
    parked = BueRobot("hard", 0, {"known": {"1": {"0": "b5"}}}).decide(view)
    assert parked["type"] == "reveal" and parked["position"] != 0


def test_hard_takes_back_its_parked_card_for_a_bue():
    game = build(["b14 b13* b6 b11 b15", "b5 b2 b3 b6 h100"], round=2, dealer=1)
    action = BueRobot("hard", 0, {"known": {"1": {"0": "b5"}}}).decide(game.view(0))
    assert action == {"type": "swap", "give": 0, "target": 1, "take": 0}


def plan_for(hands, worlds=(), **position):
    game = build(hands, **position)
    view = game.view(0)
    hand = view["hands"][0]
    pool = Counter(token(card.code) for card in DECK)
    hidden_at = [p for p, slot in enumerate(hand) if not slot["revealed"]]
    seat = Seat(
        tuple(token(slot["card"]) for slot in hand if slot["revealed"]),
        tuple(token(hand[p]["card"]) for p in hidden_at),
        hidden_at,
    )
    return TablePlan(view, Planner(match_stakes(view), pool, pool), seat, list(worlds), False)


def test_a_swap_parks_the_card_given_where_the_card_taken_was():
    plan = plan_for(["b12 b11 b9 b8 b1", "b5 b2 b3 b6 h100", "b1 b2 b3 b4 b5"])
    known = {2: {1: "b7"}, 1: {0: "b15"}}
    assert parked_cards(known) == ((1, 0, 15), (2, 1, 7))
    swap = {"type": "swap", "give": 4, "target": 1, "take": 0}
    assert plan.parked_after(swap, known) == ((1, 0, 1), (2, 1, 7))
    assert plan.parked_after({"type": "deck", "give": 4}, known) == ((1, 0, 15), (2, 1, 7))


def test_a_gift_is_dangerous_as_likely_as_the_target_needs_it():
    # Round 2: seat 1 has exchanged from its hand, so it likely keeps four cards one from 50.
    plan = plan_for(["b12 b11 b9 b8 b1", "b5* b2 b3 b6 h100"], round=2)
    give_12, give_1 = 0, 4
    assert plan.gift_danger(1, give_12) > 0
    # A card the target's face-up cards leave no room for completes nothing.
    plan = plan_for(["b12 b11 b9 b8 b1", "b20* b19* b2 b3 h100"], round=3)
    assert plan.gift_danger(1, give_12) == 0.0
    assert plan.gift_danger(1, give_1) > 0
    # A hundred never makes 50 without a multiplier.
    plan = plan_for(["h100 b11 b9 b8 b1", "b5* b2 b3 b6 b7"], round=2)
    assert plan.seat.hidden[0] == HUNDRED and plan.gift_danger(1, 0) == 0.0
