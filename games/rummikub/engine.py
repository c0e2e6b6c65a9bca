"""Rummikub: a match of rounds (rules: rummikub.it.txt and docs/rules/rummikub.md).

Tile codes (views, events, actions): colour letter + number, ``k`` black, ``r`` red,
``b`` blue, ``o`` orange (``"r7"``, ``"k13"``); ``"j"`` is a joker. See ``tiles.py``.

Actions (JSON):
- ``{"type": "play", "tiles": ["r7", "r8", "j"]}``: lay these rack tiles. ``tiles`` may also
  be the text a player typed (``"r7 r8 j"``). The first play of a player is the initial
  meld: the tiles alone form new sets worth 30 or more and the table is not touched.
  After it, the engine rearranges the table to hold every old tile plus these, changing
  as few sets as it can, or refuses with a GameError that says why.
- ``{"type": "draw"}``: take one tile from the pool and end the turn; with the pool
  empty it is a pass.

Options: ``rounds`` (default 1) rounds are played; or, when ``target`` is above 0, rounds
go on until a player's total reaches the target (``rounds`` is then ignored). ``hints``
(0/1) tells the bot whether it may show players ``best_play``.

Rulings this engine decides where the rules are silent: a blocked round (empty pool,
everyone passed) tied on the lowest rack goes to fewer tiles, then to turn order from the
round's first player; equal top totals when the match would end play one more round; a
player who leaves cannot win; at the end of a round the racks are shown to everyone
(``last_round``), as they are counted on the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Self

from games.core import JSON, Event, Game, GameError, Option, SeededRandom, action_type, shown
from games.rummikub.solver import Objective, best_play, lay_out, lay_out_initial_meld
from games.rummikub.tiles import (
    ALL_TILES,
    RACK_SIZE,
    missing_from,
    parse_tile,
    parse_tiles,
    rack_value,
    sorted_tiles,
)

PLAY = "play"
DRAW = "draw"
TURN_ACTIONS = frozenset({PLAY, DRAW})


def in_set_order(tiles: Sequence[str], sets: Sequence[Sequence[str]]) -> list[str]:
    """``tiles`` in the order they stand in ``sets`` (each copy of a code counted once); any not
    there come last, as given."""
    left = Counter(tiles)
    ordered = []
    for code in (code for tiles_of_set in sets for code in tiles_of_set):
        if left[code]:
            left[code] -= 1
            ordered.append(code)
    return ordered + list(left.elements())


@dataclass
class Rummikub(Game):
    name: ClassVar[str] = "rummikub"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option("rounds", 1, 1, 20),
        Option("target", 0, 0, 1000),
        Option("hints", 0, 0, 1),
    )

    players: int
    rounds: int
    target: int
    hints: int
    rng: SeededRandom
    active: list[bool]
    points: list[int]
    round: int = 0
    first_seat: int = 0
    turn: int = 0
    racks: list[list[str]] = field(default_factory=list)
    pool: list[str] = field(default_factory=list)
    table: list[list[str]] = field(default_factory=list)
    melded: list[bool] = field(default_factory=list)
    passes: int = 0  # turns in a row without a play since the pool ran out
    changed: list[int] = field(default_factory=list)  # sets new or changed by the last play
    last_player: int | None = None
    set_aside: list[str] = field(default_factory=list)
    last_round: JSON | None = None
    over: bool = False
    result: int | None = None

    # ------------------------------------------------------------------ creation

    @classmethod
    def begin(cls, players: int, options: Mapping[str, int], seed: int) -> tuple[Self, list[Event]]:
        cls.check_player_count(players)
        resolved = cls.resolve_options(options)
        rng = SeededRandom(seed)
        game = cls(
            players=players,
            rounds=resolved["rounds"],
            target=resolved["target"],
            hints=resolved["hints"],
            rng=rng,
            active=[True] * players,
            points=[0] * players,
        )
        game.first_seat = rng.randrange(players)
        game._deal()
        return game, []

    def _deal(self) -> None:
        self.round += 1
        tiles = list(ALL_TILES)
        self.rng.shuffle(tiles)
        self.racks = [[] for _ in range(self.players)]
        for seat in self._seats_from(self.first_seat):
            self.racks[seat] = [tiles.pop() for _ in range(RACK_SIZE)]
        self.pool = tiles
        self.table = []
        self.melded = [False] * self.players
        self.passes = 0
        self.changed = []
        self.last_player = None
        self.set_aside = []
        self.turn = self.first_seat

    # ------------------------------------------------------------------ helpers

    def _seats_from(self, first: int) -> list[int]:
        """Active seats in turn order starting at ``first``."""
        return [s for s in ((first + i) % self.players for i in range(self.players)) if self.active[s]]

    def _next_active(self, seat: int) -> int:
        return self._seats_from((seat + 1) % self.players)[0]

    # ------------------------------------------------------------------ queries

    @property
    def finished(self) -> bool:
        return self.over

    def totals(self) -> list[int]:
        return list(self.points)

    def winner(self) -> int | None:
        return self.result

    def to_act(self) -> dict[int, frozenset[str]]:
        return {} if self.over else {self.turn: TURN_ACTIONS}

    def default_action(self, seat: int) -> JSON:
        return {"type": DRAW}

    def best_play(self, seat: int, objective: Objective = Objective.TILES) -> JSON | None:
        """The play laying the most tiles (or rack value) for ``seat`` now, as an action, or None.

        What the bot shows as a hint when the ``hints`` option is on, and what a computer
        player can play.
        """
        layout = best_play(
            self.racks[seat], self.table, initial_meld=not self.melded[seat], objective=objective
        )
        return None if layout is None else {"type": PLAY, "tiles": list(layout.tiles)}

    def legal_actions(self, seat: int) -> list[JSON]:
        """Draw, and the best plays (most tiles, most value) if any; empty when it is not ``seat``'s turn.

        Any other set of rack tiles may be legal too: ``apply`` decides.
        """
        if seat not in self.to_act():
            return []
        actions: list[JSON] = [{"type": DRAW}]
        for objective in Objective:
            play = self.best_play(seat, objective)
            if play is not None and play not in actions:
                actions.append(play)
        return actions

    # ------------------------------------------------------------------ actions

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        # A seat of True or 0.0 would equal the seat in turn and index the racks.
        kind = action_type(seat, action)
        if self.over:
            raise GameError("rummikub.error.game_over")
        if seat != self.turn:
            raise GameError("rummikub.error.not_your_turn")
        if kind == DRAW:
            return self._draw(seat)
        if kind == PLAY:
            return self._play(seat, self._named_tiles(action.get("tiles")))
        raise GameError("rummikub.error.unknown_action", action=shown(kind))

    @staticmethod
    def _named_tiles(given: Any) -> list[str]:
        if isinstance(given, str):
            return parse_tiles(given)
        if not isinstance(given, list) or not all(isinstance(code, str) for code in given):
            raise GameError("rummikub.error.bad_action")
        if not given:
            raise GameError("rummikub.error.no_tiles")
        return [parse_tile(code) for code in given]

    def _draw(self, seat: int) -> list[Event]:
        if not self.pool:
            self.passes += 1
            events = [Event("rummikub.event.passed", {"seat": seat})]
            if self.passes >= len(self._seats_from(0)):
                return events + self._end_round(self._lowest_rack(), blocked=True)
            self.turn = self._next_active(seat)
            return events
        tile = self.pool.pop()
        self.racks[seat].append(tile)
        self.turn = self._next_active(seat)
        return [
            Event("rummikub.event.drew", {"seat": seat, "pool": len(self.pool)}),
            Event("rummikub.event.drew_tile", {"seat": seat, "tile": tile}, seats=(seat,)),
        ]

    def _play(self, seat: int, tiles: list[str]) -> list[Event]:
        missing = missing_from(self.racks[seat], tiles)
        if missing is not None:
            raise GameError("rummikub.error.not_on_rack", tile=missing)
        if self.melded[seat]:
            layout = lay_out(self.table, tiles)
            event = Event(
                "rummikub.event.played",
                {"seat": seat, "tiles": tiles, "changed": list(layout.changed), "broken": layout.broken},
            )
        else:
            layout = lay_out_initial_meld(tiles, self.table)
            event = Event(
                "rummikub.event.initial_meld",
                {"seat": seat, "tiles": tiles, "changed": list(layout.changed), "value": layout.meld_value},
            )
        # Told in the order of the sets they went into, as the table shows them.
        changed_sets = [layout.table[index] for index in sorted(layout.changed)]
        event = replace(event, params={**event.params, "tiles": in_set_order(tiles, changed_sets)})
        rack = list(self.racks[seat])
        for code in tiles:
            rack.remove(code)
        self.racks[seat] = rack
        self.table = [list(s) for s in layout.table]
        self.changed = list(layout.changed)
        self.last_player = seat
        self.melded[seat] = True
        self.passes = 0
        events = [event]
        if not rack:
            events.append(Event("rummikub.event.rummikub", {"seat": seat}))
            return events + self._end_round(seat, blocked=False)
        self.turn = self._next_active(seat)
        return events

    def _lowest_rack(self) -> int:
        """Who wins a blocked round: the lowest rack value; ties go to fewer tiles, then turn order."""
        order = self._seats_from(self.first_seat)
        return min(order, key=lambda s: (rack_value(self.racks[s]), len(self.racks[s]), order.index(s)))

    # ------------------------------------------------------------------ scoring

    def _end_round(self, winner: int, blocked: bool) -> list[Event]:
        values = [rack_value(rack) if self.active[s] else 0 for s, rack in enumerate(self.racks)]
        base = values[winner] if blocked else 0
        points = [0] * self.players
        for seat in self._seats_from(0):
            if seat != winner:
                points[seat] = -(values[seat] - base)
                points[winner] += values[seat] - base
        self.points = [total + gained for total, gained in zip(self.points, points, strict=True)]
        self.last_round = {
            "round": self.round,
            "winner": winner,
            "blocked": blocked,
            "points": points,
            "racks": [sorted_tiles(rack) for rack in self.racks],
        }
        key = "rummikub.event.round_blocked" if blocked else "rummikub.event.round_won"
        events = [
            Event(key, {"seat": winner, "round": self.round, "points": points, "totals": list(self.points)})
        ]
        return events + self._next_round_or_end()

    def _match_leader(self) -> int | None:
        """The single highest total among active seats, if the match can end now."""
        seats = self._seats_from(0)
        best = max(self.points[s] for s in seats)
        leaders = [s for s in seats if self.points[s] == best]
        if len(leaders) > 1:
            return None
        done = best >= self.target if self.target else self.round >= self.rounds
        return leaders[0] if done else None

    def _next_round_or_end(self) -> list[Event]:
        leader = self._match_leader()
        if leader is not None:
            self.over, self.result = True, leader
            return [Event("rummikub.event.match_won", {"seat": leader, "totals": list(self.points)})]
        self.first_seat = self._next_active(self.first_seat)
        self._deal()
        return [Event("rummikub.event.round_started", {"round": self.round, "seat": self.first_seat})]

    # ------------------------------------------------------------------ leaving

    def remove_player(self, seat: int) -> list[Event]:
        if self.over or not 0 <= seat < self.players or not self.active[seat]:
            raise GameError("rummikub.error.not_in_game")
        self.active[seat] = False
        self.set_aside += self.racks[seat]
        self.racks[seat] = []
        self.passes = 0
        events = [Event("rummikub.event.player_removed", {"seat": seat})]
        if len(self._seats_from(0)) < self.min_players:
            self.over, self.result = True, None
            return [*events, Event("rummikub.event.match_abandoned")]
        if self.turn == seat:
            self.turn = self._next_active(seat)
        return events

    # ------------------------------------------------------------------ views

    def hand(self, seat: int) -> object:
        # Sorted: the rack as any order of its tiles (the view sorts it for showing).
        return sorted(self.racks[seat]) if 0 <= seat < self.players else None

    def view(self, seat: int | None) -> JSON:
        acting = self.to_act()
        view: JSON = {
            "game": self.name,
            "me": seat,
            "players": self.players,
            "active": list(self.active),
            "round": self.round,
            "rounds": self.rounds,
            "target": self.target,
            "hints": self.hints,
            "totals": list(self.points),
            "first_seat": self.first_seat,
            "turn": None if self.over else self.turn,
            "can": sorted(acting.get(seat, ())) if seat is not None else [],
            "table": [list(s) for s in self.table],
            "changed_sets": list(self.changed),
            "last_player": self.last_player,
            "pool": len(self.pool),
            "racks": [len(rack) for rack in self.racks],
            "melded": list(self.melded),
            "passes": self.passes,
            "set_aside": len(self.set_aside),
            "last_round": _copy(self.last_round),
            "finished": self.over,
            "winner": self.result,
        }
        if seat is not None and 0 <= seat < self.players:
            view["rack"] = sorted_tiles(self.racks[seat])
            view["rack_value"] = rack_value(self.racks[seat])
        return view

    # ------------------------------------------------------------------ saving

    def to_json(self) -> JSON:
        # Copies, not the live lists: a saved state must not change with later play.
        return {
            "players": self.players,
            "rounds": self.rounds,
            "target": self.target,
            "hints": self.hints,
            "rng": self.rng.to_json(),
            "active": list(self.active),
            "points": list(self.points),
            "round": self.round,
            "first_seat": self.first_seat,
            "turn": self.turn,
            "racks": [list(rack) for rack in self.racks],
            "pool": list(self.pool),
            "table": [list(s) for s in self.table],
            "melded": list(self.melded),
            "passes": self.passes,
            "changed": list(self.changed),
            "last_player": self.last_player,
            "set_aside": list(self.set_aside),
            "last_round": _copy(self.last_round),
            "over": self.over,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(
            players=data["players"],
            rounds=data["rounds"],
            target=data["target"],
            hints=data["hints"],
            rng=SeededRandom.from_json(data["rng"]),
            active=list(data["active"]),
            points=list(data["points"]),
            round=data["round"],
            first_seat=data["first_seat"],
            turn=data["turn"],
            racks=[list(rack) for rack in data["racks"]],
            pool=list(data["pool"]),
            table=[list(s) for s in data["table"]],
            melded=list(data["melded"]),
            passes=data["passes"],
            changed=list(data["changed"]),
            last_player=data["last_player"],
            set_aside=list(data["set_aside"]),
            last_round=_copy(data["last_round"]),
            over=data["over"],
            result=data["result"],
        )


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data."""
    if isinstance(value, Mapping):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [_copy(item) for item in value]
    return value
