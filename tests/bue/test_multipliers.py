"""x2 and x0 in the holder's best interest (docs/rules/bue.md: x2 and x0)."""

import random

import pytest

from games.bue.cards import DECK
from games.bue.scoring import best_value

from .helpers import Cards, build, parse


def hand(spec):
    cards = Cards()
    return [DECK[cards.take(code)] for code, _ in parse(spec)]


def test_multipliers_count_zero_themselves():
    assert [card.value for card in hand("x2 x0")] == [0, 0]
    # x0 cancels the 100; the x0 itself adds nothing: 20 + 20 + 10.
    assert best_value(hand("h100 x0 b20 b20 b10")).total == 50


def test_x2_doubles_the_card_that_makes_exactly_50():
    value = best_value(hand("b20 b10 b5 b5 x2"))
    assert value.total == 50 and value.multipliers == {4: 1}
    value = best_value(hand("b12 b13 b5 b7 x2"))  # 37: only doubling the 13 gives 50
    assert value.total == 50 and value.multipliers == {4: 1}


def test_x0_cancels_the_card_that_makes_exactly_50():
    value = best_value(hand("b20 b20 b10 h100 x0"))
    assert value.total == 50 and value.multipliers == {4: 3}
    value = best_value(hand("b20 b19 b11 b3 x0"))  # 53: cancelling the 3 gives 50
    assert value.total == 50 and value.multipliers == {4: 3}


def test_a_multiplier_must_be_applied_otherwise_the_closest_total():
    # Without the x0 the hand would be 49; it must cancel a card: the 3 leaves 46.
    assert best_value(hand("b20 b15 b11 b3 x0")).total == 46
    # Without the x2 the hand would be 49; doubling the 3 gives 52, closer than 55 or 69.
    assert best_value(hand("b20 b20 b6 b3 x2")).total == 52


def test_the_closest_total_above_or_below_50():
    assert best_value(hand("b20 b20 b9 b8 x0")).total == 49  # 57 - 8: 49 beats 48
    assert best_value(hand("b1 b2 b3 b4 x2")).total == 14  # far below: still the closest
    assert best_value(hand("h100 h100 b20 b1 x2")).total == 222


def test_two_multipliers_never_act_on_the_same_card():
    # Both x2 on the 10 would give 40 + 9 + 1 = 50; they must double two different cards.
    value = best_value(hand("b10 b9 b1 x2 x2"))
    assert value.total != 50
    assert value.total == 39  # the 10 and the 9 doubled
    assert len(set(value.multipliers.values())) == len(value.multipliers)


def test_x0_may_cancel_an_x2():
    # 20 + 17 + 13 = 50, but the x2 must double a card: the x0 cancels the x2 instead
    # (doubling one card and cancelling another never gives 50: the values all differ).
    value = best_value(hand("b20 b17 b13 x2 x0"))
    assert value.total == 50 and value.multipliers[4] == 3


def test_two_x0_cancel_two_cards():
    assert best_value(hand("h100 h100 x0 x0 b20")).total == 20


def test_the_holders_view_shows_the_best_choice():
    game = build(["b20 b10 b6 b4 b1", "b12 b13 b5 b7 x2", "b11 b12 b13 b14 b15"], dealer=2)
    assert game.view(1)["best"] == {"total": 50, "multipliers": {"4": 1}}
    assert game.view(0)["best"] == {"total": 41, "multipliers": {}}
    assert "best" not in game.view(None)


def apply_choice(cards, targets):
    """The hand's total when each multiplier acts as ``targets`` says (x0 on an x2 cancels it)."""
    cancelled = {t for s, t in targets.items() if cards[s].kind == "x0" and cards[t].kind == "x2"}
    factor = [1] * len(cards)
    for source, target in targets.items():
        if source not in cancelled:
            factor[target] *= 2 if cards[source].kind == "x2" else 0
    return sum(card.value * f for card, f in zip(cards, factor, strict=True))


def test_the_choice_shown_gives_the_total_shown():
    # At most one x0 here, so every multiplier has a card to act on.
    rnd = random.Random(7)
    x2, x0 = [c for c in DECK if c.kind == "x2"], [c for c in DECK if c.kind == "x0"]
    others = [card for card in DECK if not card.is_multiplier]
    for _ in range(3000):
        picked = rnd.sample(x2, rnd.randint(0, 2)) + rnd.sample(x0, rnd.randint(0, 1))
        cards = picked + rnd.sample(others, 5 - len(picked))
        rnd.shuffle(cards)
        value = best_value(cards)
        sources = {i for i, card in enumerate(cards) if card.is_multiplier}
        cancelled = {
            t for s, t in value.multipliers.items() if cards[s].kind == "x0" and cards[t].kind == "x2"
        }
        # Every multiplier acts, except an x2 cancelled by an x0 and one with no free card left.
        idle = sources - cancelled - set(value.multipliers)
        numbered = {i for i, card in enumerate(cards) if not card.is_multiplier}
        assert all(numbered <= set(value.multipliers.values()) for _ in idle)
        assert len(set(value.multipliers.values())) == len(value.multipliers)  # never the same card
        assert all(source != target for source, target in value.multipliers.items())
        assert apply_choice(cards, value.multipliers) == value.total, (cards, value)


@pytest.mark.parametrize(
    ("codes", "total"),
    [
        # A multiplier never acts on another multiplier, except an x0 cancelling an x2.
        ("b20 b20 b5 x2 x2", 70),
        ("b20 b20 b10 x0 x0", 20),
        # x0 cancels the x2 (which then acts on nothing) rather than zeroing the 5.
        ("b5 x0 x0 h100 x2", 5),
        ("x2 x2 x0 x0 b5", 5),
    ],
)
def test_multipliers_act_only_on_numbered_cards_or_an_x0_on_an_x2(codes, total):
    assert best_value(hand(codes)).total == total
