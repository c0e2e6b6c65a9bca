"""Hand values with x2/x0 applied in the holder's best interest, and the hand ranking."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from games.bue.cards import Card

BUE = 50
BUE_POINTS = 50
SUPERBUE_POINTS = 70
PLACE_POINTS = (30, 20, 10)
TWO_PLAYER_POINTS = (30,)


@dataclass(frozen=True)
class HandValue:
    total: int
    # position of each multiplier -> position of the card it acts on
    multipliers: dict[int, int]

    @property
    def distance(self) -> int:
        return abs(self.total - BUE)


def _candidates(cards: Sequence[Card], source: int) -> list[int]:
    """What a multiplier may act on: a numbered card, or (for an x0 only) an x2 to cancel it."""
    allowed = {"x0": ("blue", "gold", "hundred", "x2"), "x2": ("blue", "gold", "hundred")}[cards[source].kind]
    return [index for index, card in enumerate(cards) if index != source and card.kind in allowed]


def _legal(cards: Sequence[Card], targets: dict[int, int | None]) -> bool:
    """Distinct targets; a cancelled x2 acts on nothing; every other multiplier acts if it can."""
    cancelled = {
        target for source, target in targets.items() if cards[source].kind == "x0" and target is not None
    }
    cancelled &= {index for index, card in enumerate(cards) if card.kind == "x2"}
    active = {source: target for source, target in targets.items() if source not in cancelled}
    if any(targets[source] is not None for source in cancelled):
        return False
    used = [target for target in active.values() if target is not None]
    if len(used) != len(set(used)):
        return False
    # A multiplier may stay idle only when every card it could act on is taken.
    return all(
        target is not None or set(_candidates(cards, source)) <= set(used)
        for source, target in active.items()
    )


def _total(cards: Sequence[Card], targets: dict[int, int | None]) -> int:
    factor = [1] * len(cards)
    for source, target in targets.items():
        if target is not None and cards[target].kind != "x2":
            factor[target] *= 2 if cards[source].kind == "x2" else 0
    return sum(card.value * factor[index] for index, card in enumerate(cards))


def best_value(cards: Sequence[Card]) -> HandValue:
    """Exactly 50 if any legal choice of multiplier targets gives it, else the total closest to 50.

    A multiplier must act on one other card of the hand; two never act on the same card;
    an x0 may cancel an x2, which then acts on nothing. Between equally close totals the
    lower one is kept, so the choice is deterministic.
    """
    sources = [index for index, card in enumerate(cards) if card.is_multiplier]
    best: tuple[int, int, HandValue] | None = None
    choices = [[*_candidates(cards, source), None] for source in sources]
    for picked in product(*choices):
        targets = dict(zip(sources, picked, strict=True))
        if not _legal(cards, targets):
            continue
        acting = {source: target for source, target in targets.items() if target is not None}
        value = HandValue(_total(cards, targets), acting)
        key = (value.distance, value.total)
        if best is None or key < best[:2]:
            best = (*key, value)
    assert best is not None  # leaving every multiplier idle is legal when nothing else is
    return best[2]


def gold_count(cards: Sequence[Card]) -> int:
    return sum(card.kind == "gold" for card in cards)


def is_superbue(cards: Sequence[Card]) -> bool:
    return (
        len(cards) == 5 and all(card.kind == "gold" for card in cards) and sum(c.value for c in cards) == BUE
    )


def tie_order(seats: Sequence[int], dealer: int, players: int, gold: dict[int, int]) -> list[int]:
    """More gold cards first; then the dealer; then nearest the dealer going clockwise."""
    return sorted(seats, key=lambda seat: (-gold[seat], (seat - dealer) % players))


def rank_by_distance(sums: dict[int, int], gold: dict[int, int], dealer: int, players: int) -> list[int]:
    """Seats from closest to 50 to furthest, ties broken by the tie rule."""
    return sorted(sums, key=lambda seat: (abs(sums[seat] - BUE), -gold[seat], (seat - dealer) % players))


def place_points(ranking: Sequence[int]) -> dict[int, int]:
    """30/20/10 to the three closest; with two players only the closest scores (30)."""
    points = TWO_PLAYER_POINTS if len(ranking) == 2 else PLACE_POINTS
    return {seat: (points[place] if place < len(points) else 0) for place, seat in enumerate(ranking)}
