"""Bué's deck as one data table (docs/rules/bue.md marks the composition provisional).

Card codes used in views and events: ``b7`` blue 7, ``g12`` gold 12, ``h100`` a
100 card, ``x2`` and ``x0`` the multipliers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["blue", "gold", "hundred", "x2", "x0"]

# (kind, values, copies of each value)
DECK_COMPOSITION: tuple[tuple[Kind, tuple[int, ...], int], ...] = (
    ("blue", tuple(range(1, 21)), 2),
    ("gold", tuple(range(6, 16)), 1),
    ("hundred", (100,), 4),
    ("x2", (0,), 2),
    ("x0", (0,), 2),
)

_CODE_PREFIX: dict[Kind, str] = {"blue": "b", "gold": "g", "hundred": "h"}


@dataclass(frozen=True)
class Card:
    id: int
    kind: Kind
    value: int

    @property
    def code(self) -> str:
        if self.kind in ("x2", "x0"):
            return self.kind
        return f"{_CODE_PREFIX[self.kind]}{self.value}"

    @property
    def is_multiplier(self) -> bool:
        return self.kind in ("x2", "x0")

    @property
    def face(self) -> str:
        """What the card says, as the no-swap-back rule compares values (a gold 12 is a 12)."""
        return self.kind if self.is_multiplier else str(self.value)


def build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for kind, values, copies in DECK_COMPOSITION:
        for value in values:
            for _ in range(copies):
                cards.append(Card(len(cards), kind, value))
    return tuple(cards)


DECK: tuple[Card, ...] = build_deck()
DECK_SIZE = len(DECK)
