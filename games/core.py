"""The contract every rules engine follows.

An engine is pure: no Discord, no asyncio, no SQL, no clock and no global random.
The state of a whole match (every hand, manche or round up to the target) lives in
one object that can be saved to JSON and loaded back. Randomness comes from a
seeded stream owned by the state, so a game replays exactly from its seed and its
action log.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, TypeGuard

JSON = dict[str, Any]


class GameError(Exception):
    """An illegal action. ``key`` names a translated message; the state is unchanged."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Event:
    """Something that happened, told to the players.

    ``seats`` is None for a public event; otherwise only those seats may be told
    (for example the card a player received in an exchange).
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    seats: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)


@dataclass
class SeededRandom:
    """A random stream saved as (seed, draws): small in JSON and exactly replayable."""

    seed: int
    draws: int = 0

    def stream(self) -> random.Random:
        generator = random.Random(f"{self.seed}:{self.draws}")
        self.draws += 1
        return generator

    def shuffle(self, items: list[Any]) -> None:
        self.stream().shuffle(items)

    def randrange(self, stop: int) -> int:
        return self.stream().randrange(stop)

    def to_json(self) -> JSON:
        return {"seed": self.seed, "draws": self.draws}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeededRandom:
        return cls(seed=int(data["seed"]), draws=int(data["draws"]))


@dataclass(frozen=True)
class Option:
    """A game option a host may set when opening a lobby."""

    name: str
    default: int
    minimum: int
    maximum: int

    def check(self, value: int) -> int:
        if not self.minimum <= value <= self.maximum:
            raise GameError(
                "error.option_range", option=self.name, minimum=self.minimum, maximum=self.maximum
            )
        return value


def is_int(value: Any) -> TypeGuard[int]:
    """An int proper: JSON's true and false are ints to Python, never a seat, position or count here."""
    return isinstance(value, int) and not isinstance(value, bool)


def action_type(seat: Any, action: Any) -> str | None:
    """The "type" of an action from outside, once its envelope is sound.

    What every ``apply`` checks first, since an action and its seat come from players'
    input: the seat an int (True or 1.0 would pass for seat 1 and index the state), the
    action a mapping whose "type" is a string or missing. Anything else raises
    "error.bad_action". Whether the seat plays, and each type's fields, are the engine's.
    """
    if not is_int(seat) or not isinstance(action, Mapping):
        raise GameError("error.bad_action")
    kind = action.get("type")
    if kind is not None and not isinstance(kind, str):
        raise GameError("error.bad_action")
    return kind


def shown(value: Any, limit: int = 40) -> str:
    """A value from an action as short text for an error message, whatever JSON it is.

    ``str`` alone could raise (Python refuses to print an int of over 4,300 digits) or
    make a message of any length.
    """
    try:
        text = value if isinstance(value, str) else repr(value)
    except ValueError:
        text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


# Settings of the referee rather than of the rules, the same for every game: the bot reads them,
# engines let them through. ``stand_in``: a computer takes the seat of a player who leaves or is away.
TABLE_OPTIONS: tuple[Option, ...] = (Option("stand_in", 1, 0, 1),)


def resolve_table_options(given: Mapping[str, int]) -> dict[str, int]:
    """The referee's settings among ``given``, defaults filled in, after range checks."""
    return {
        option.name: option.check(int(given.get(option.name, option.default))) for option in TABLE_OPTIONS
    }


class Game(ABC):
    """One match of one game, from the first deal to the final result.

    Seats are 0..players-1 in join order. ``apply`` checks an action completely
    before changing anything, so a GameError always leaves the state untouched.
    """

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()

    @classmethod
    def resolve_options(cls, given: Mapping[str, int]) -> dict[str, int]:
        """The full option set: defaults, overridden by ``given`` after range checks."""
        known = {option.name: option for option in cls.options}
        unknown = set(given) - set(known) - {option.name for option in TABLE_OPTIONS}
        if unknown:
            raise GameError("error.option_unknown", option=sorted(unknown)[0])
        return {name: option.check(int(given.get(name, option.default))) for name, option in known.items()}

    @classmethod
    def new(cls, players: int, options: Mapping[str, int], seed: int) -> Self:
        """A new match; the first hand is already dealt."""
        return cls.begin(players, options, seed)[0]

    @classmethod
    @abstractmethod
    def begin(cls, players: int, options: Mapping[str, int], seed: int) -> tuple[Self, list[Event]]:
        """A new match and the events of its first deal (what each player was dealt, say)."""

    @classmethod
    def check_player_count(cls, players: int) -> None:
        """Refuse a match of a number of players the game is not for."""
        if not cls.min_players <= players <= cls.max_players:
            raise GameError(
                f"{cls.name}.error.player_count", minimum=cls.min_players, maximum=cls.max_players
            )

    @abstractmethod
    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Play ``action`` for ``seat``; raise GameError if it is not legal now."""

    @abstractmethod
    def to_act(self) -> dict[int, frozenset[str]]:
        """Seats that must decide now, each with the action types open to it.

        More than one seat means a simultaneous decision (Bué's reveal) or a
        decision outside the turn order (a BUM! choice, a bid).
        """

    def optional_actions(self) -> dict[int, frozenset[str]]:
        """The part of ``to_act()`` a seat may take but need not (a bid, say).

        A seat whose open actions are all optional is not waited for: no timer, no reminder.
        """
        return {}

    def required_to_act(self) -> dict[int, frozenset[str]]:
        """Seats the game waits for: those with at least one decision that is not optional."""
        optional = self.optional_actions()
        return {
            seat: actions
            for seat, actions in self.to_act().items()
            if actions - optional.get(seat, frozenset())
        }

    def turn_goes_on(self, seat: int) -> bool:
        """Whether ``seat``, having just acted, must decide again in the same turn (RumBugz's
        discard after its draw), rather than face a decision of its own: the rest of a turn
        whose time ran out is played by default at once. No turn has steps by default."""
        return False

    @abstractmethod
    def default_action(self, seat: int) -> JSON:
        """The action the referee plays for ``seat`` when its time runs out."""

    @abstractmethod
    def remove_player(self, seat: int) -> list[Event]:
        """The seat leaves: its cards are set aside and it scores 0 from now on."""

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see; ``None`` is the public table. Never another seat's secret."""

    def hand(self, seat: int) -> object:
        """What ``seat`` holds and alone sees, as a value to compare (None in a game without
        hands): when a move changes it, the player is sent the new hand. Read from the state,
        not from a view: it is compared for every person before and after every move."""
        return None

    @property
    @abstractmethod
    def finished(self) -> bool:
        """The match is over (target reached, or too few players left)."""

    @abstractmethod
    def totals(self) -> list[int]:
        """Match points per seat so far."""

    @abstractmethod
    def winner(self) -> int | None:
        """The winning seat once finished; None before, or when the match ended with no result."""

    @abstractmethod
    def to_json(self) -> JSON:
        """The whole state, JSON-serialisable."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The state saved by ``to_json``."""


LEAVE = "leave"
# Who plays a seat changes, the game does not: a computer stands in for the seat's person
# ({"type": "stand_in", "level": "hard", "left": true when the person left for good}), or the
# person is back ({"type": "back"}). Logged like moves, so the log tells who played what.
STAND_IN = "stand_in"
BACK = "back"


def perform(game: Game, seat: int, action: Mapping[str, Any]) -> list[Event]:
    """Apply one logged action; a seat leaving, or changing hands, is logged like any other action."""
    kind = action_type(seat, action)
    if kind == LEAVE:
        return game.remove_player(seat)
    if kind in (STAND_IN, BACK):
        return []
    return game.apply(seat, action)


def replay(
    kind: type[Game], players: int, options: Mapping[str, int], seed: int, log: list[tuple[int, JSON]]
) -> Game:
    """Rebuild a match from its seed and its action log."""
    game = kind.new(players, options, seed)
    for seat, action in log:
        perform(game, seat, action)
    return game
