"""The toy's rules: players take turns adding 1, 2 or 3 to a running total; whoever brings it to
the target wins the match."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from games.core import JSON, Event, Game, GameError, Option, action_type, is_int

AMOUNTS = (1, 2, 3)


class Race(Game):
    name = "toy"
    min_players = 2
    max_players = 4
    options = (Option("target", 10, 5, 30),)

    def __init__(self, players: int, target: int, total: int = 0, turn: int = 0) -> None:
        self.players, self.target, self.total, self.turn = players, target, total, turn
        self.active = [True] * players
        self.won_by: int | None = None
        self.over = False

    @classmethod
    def begin(cls, players: int, options: Mapping[str, int], seed: int) -> tuple[Self, list[Event]]:
        cls.check_player_count(players)
        game = cls(players, cls.resolve_options(options)["target"])
        return game, [Event("toy.event.begun", {"seat": 0, "target": game.target})]

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        if action_type(seat, action) != "add":
            raise GameError("error.unknown_action")
        if self.over or seat != self.turn:
            raise GameError("error.not_your_turn")
        amount = action.get("amount")
        if not is_int(amount) or amount not in AMOUNTS:
            raise GameError("toy.error.amount")
        self.total = min(self.target, self.total + amount)
        events = [Event("toy.event.added", {"seat": seat, "amount": amount, "total": self.total})]
        if self.total == self.target:
            self.over, self.won_by = True, seat
            return [*events, Event("toy.event.won", {"seat": seat})]
        self._pass_turn()
        return events

    def _pass_turn(self) -> None:
        self.turn = next(
            seat
            for step in range(1, self.players + 1)
            if self.active[seat := (self.turn + step) % self.players]
        )

    def to_act(self) -> dict[int, frozenset[str]]:
        return {} if self.over else {self.turn: frozenset({"add"})}

    def default_action(self, seat: int) -> JSON:
        return {"type": "add", "amount": 1}

    def remove_player(self, seat: int) -> list[Event]:
        self.active[seat] = False
        if sum(self.active) < 2:
            self.over = True
        elif seat == self.turn:
            self._pass_turn()
        return [Event("toy.event.left", {"seat": seat})]

    def view(self, seat: int | None) -> JSON:
        return {"me": seat, **self.to_json()}

    @property
    def finished(self) -> bool:
        return self.over

    def totals(self) -> list[int]:
        return [1 if seat == self.won_by else 0 for seat in range(self.players)]

    def winner(self) -> int | None:
        return self.won_by

    def to_json(self) -> JSON:
        return {
            "players": self.players,
            "target": self.target,
            "total": self.total,
            "turn": self.turn,
            "active": self.active,
            "won_by": self.won_by,
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        game = cls(data["players"], data["target"], data["total"], data["turn"])
        game.active, game.won_by, game.over = list(data["active"]), data["won_by"], data["over"]
        return game
