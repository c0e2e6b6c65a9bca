"""The toy's computer: it wins when it can, and otherwise leaves the next player no win."""

from __future__ import annotations

from games.core import JSON
from games.robots import Robot
from tests.toy.engine import AMOUNTS


class RaceRobot(Robot):
    game = "toy"

    def decide(self, view: JSON) -> JSON:
        left = view["target"] - view["total"]
        amount = left if left in AMOUNTS else (left % 4 or self.random.choice(AMOUNTS))
        return {"type": "add", "amount": amount}
