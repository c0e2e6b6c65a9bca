"""The contract every computer player follows.

A robot plays one seat. It is pure like the engines: it decides from that seat's view
(``Game.view(seat)``, the same one the seat's DMs are drawn from) and from what it chose to
remember of earlier views, never from the raw state, so it cannot cheat. Its randomness is
a seeded stream saved with it, so a match with robots replays exactly.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from games.core import JSON, Event, Game, GameError, SeededRandom

LEVELS = ("easy", "hard")


class Robot(ABC):
    """A computer player for one seat of one game, at one level."""

    game: ClassVar[str]

    def __init__(self, level: str, seed: int, memory: JSON | None = None) -> None:
        if level not in LEVELS:
            raise GameError("error.robot_level", level=level)
        self.level = level
        self.random = SeededRandom(seed)
        self.memory: JSON = memory if memory is not None else {}

    def observe(self, view: JSON, events: Sequence[Event]) -> None:  # noqa: B027 - most robots remember nothing
        """Called after every action of the match, the robot's own included, with the seat's
        view after it and the events that seat was told. Keep in ``memory`` what a player
        would remember (Serie Bum!'s flipped tiles, say)."""

    @abstractmethod
    def decide(self, view: JSON) -> JSON:
        """One action for the seat, legal now: the seat is in ``to_act()``."""

    def to_json(self) -> JSON:
        return {"level": self.level, "random": self.random.to_json(), "memory": self.memory}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        robot = cls(str(data["level"]), 0, dict(data["memory"]))
        robot.random = SeededRandom.from_json(data["random"])
        return robot


def play_out(game: Game, robots: Sequence[Robot], max_actions: int = 100_000) -> int:
    """Play ``game`` to its end with one robot per seat; returns the number of actions.

    The seat asked is the lowest one with a decision open (a simultaneous decision is taken
    seat by seat); after every action each robot observes its own seat's view and events.
    """
    for count in range(max_actions):
        deciding = game.to_act()
        if game.finished or not deciding:
            return count
        seat = min(deciding)
        events = game.apply(seat, robots[seat].decide(game.view(seat)))
        for other, robot in enumerate(robots):
            robot.observe(game.view(other), [event for event in events if event.visible_to(other)])
    raise RuntimeError(f"no end after {max_actions} actions")
