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


def _total(cards: Sequence[Card], targets: dict[int, int]) -> int:
    # An x0 aimed at an x2 cancels it; otherwise each multiplier acts on its own target.
    cancelled = {target for source, target in targets.items() if cards[source].kind == "x0"}
    factor = [1] * len(cards)
    for source, target in targets.items():
        if source in cancelled:
            continue
        factor[target] *= 2 if cards[source].kind == "x2" else 0
    return sum(card.value * factor[index] for index, card in enumerate(cards))


def best_value(cards: Sequence[Card]) -> HandValue:
    """Exactly 50 if any choice of multiplier targets gives it, else the total closest to 50.

    Two multipliers never act on the same card. Between equally close totals the lower
    one is kept, so the choice is deterministic.
    """
    sources = [index for index, card in enumerate(cards) if card.is_multiplier]
    best: tuple[int, int, HandValue] | None = None
    choices = [[t for t in range(len(cards)) if t != source] for source in sources]
    for picked in product(*choices):
        if len(set(picked)) != len(picked):
            continue
        targets = dict(zip(sources, picked, strict=True))
        value = HandValue(_total(cards, targets), targets)
        key = (value.distance, value.total)
        if best is None or key < best[:2]:
            best = (*key, value)
    if best is None:  # a hand of multipliers alone with nowhere to act
        return HandValue(0, {})
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
