"""A game as the bot keeps it, as plain data: its row, its seats and timers, what a change of it
writes (``Commit``, ``LobbyChange``) and announces (``Publication``), and the running game loaded
from them (``Match``). Pure: no Discord, no database, no clock; the store reads and writes these,
the referee (``bot.referee``) decides them, the Discord side shows them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Generic, TypeVar

from games.core import BACK, STAND_IN, Event, Game, perform
from games.robots import Robot

# A game's status: a lobby fills, a running game is played, and it ends finished or aborted.
LOBBY, RUNNING, FINISHED, ABORTED = "lobby", "running", "finished", "aborted"
OPEN = (LOBBY, RUNNING)

# What a game keeps of its server's settings when it starts (``GameRow.server_settings``), and
# their defaults for games from before a setting existed.
DEFAULT_REMINDER = 50  # percent of a turn

# One planned timer: (seat, kind, decision, due_at).
Timer = tuple[int, str, str, float]


def kept_role(server_settings: Mapping[str, Any]) -> int | None:
    """The role a server asked of players, as a game (or a tournament) kept its settings; None: none."""
    role = server_settings.get("role_id")
    return int(role) if role is not None else None


@dataclass(frozen=True)
class GameRow:
    id: int
    kind: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    options: dict[str, int]
    turn_timeout: int
    locale: str
    seed: int
    state: dict[str, Any] | None
    version: int
    message_id: int | None
    # The message with the results of the game's last finished game, round or manche.
    results_message_id: int | None = None
    # What the game kept of its server's settings when it started (see bot/community.py).
    server_settings: dict[str, Any] = field(default_factory=dict)
    # With an increment, ``turn_timeout`` is each player's bank (see ``bot.clock.Clock``).
    clock_increment: int | None = None
    started_at: float | None = None  # when the first deal was made
    # Messages posted in its channel after its kept message, as last saved (``bot.traffic``).
    messages_after: int = 0

    @classmethod
    def opening(
        cls,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: dict[str, int],
        turn_timeout: int,
        locale: str,
        seed: int,
        server_settings: dict[str, Any],
        clock_increment: int | None = None,
    ) -> GameRow:
        """A lobby as it is to be opened: its id the database's to give, its message Discord's; its
        clock ``turn_timeout`` per move, or a bank of it with ``clock_increment``."""
        return cls(
            0,
            kind,
            guild_id,
            channel_id,
            host_id,
            LOBBY,
            options,
            turn_timeout,
            locale,
            seed,
            None,
            0,
            None,
            server_settings=server_settings,
            clock_increment=clock_increment,
        )

    @property
    def reminder_share(self) -> float:
        """The share of a turn after which its player is reminded (0: never)."""
        return float(self.server_settings.get("reminder", DEFAULT_REMINDER)) / 100

    def computer_pause(self, default: float) -> float:
        """Seconds a computer waits before it moves: the server's, else ``default``."""
        return float(self.server_settings.get("computer_pause", default))

    @property
    def role_id(self) -> int | None:
        """The role its server asked of players when it opened, if any."""
        return kept_role(self.server_settings)

    def rated(self, seats: Sequence[SeatRow]) -> bool:
        """Whether the match counts for ratings: not one with computer players, when its server
        said so."""
        return bool(self.server_settings.get("computers_rated", True)) or not any(
            seat.is_robot for seat in seats
        )


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int
    name: str
    locale: str
    total: int
    gone: bool
    dm_notice_sent: bool
    decision_since: int = 0
    robot: str | None = None  # a computer's level; None for a person
    robot_state: dict[str, Any] | None = None
    dm_channel_id: int | None = None
    stand_in: str | None = None  # the level of a computer playing for the seat's person, away or gone
    stood_in: bool = False  # one played while the person was away: the match is not rated for them
    left_total: int | None = None  # the total the seat had when its player left
    dm_closed_at: float | None = None  # when a DM to its person was last refused as closed (50007)
    dm_hand: bool = True  # the player's preference: their hand by DM (else the hand button only)
    ping: bool = True  # the player's preference: pinged when it is their move (else named)
    # When the seat's clock last started (its decision's deadline counts from then; later than now
    # while an away day holds it), and the time it had then: what its bank held, or what an away
    # span left of its decision's time (None: the clock's full time).
    decision_at: float | None = None
    bank_left: float | None = None
    waiting_since: float | None = None  # when its open decision began (/turns' order)
    # The player's time zone and quiet hours ("23-08"), and their last away span (see bot.clock).
    time_zone: str | None = None
    quiet_hours: str | None = None
    away_from: float | None = None
    away_until: float | None = None

    @property
    def is_robot(self) -> bool:
        return self.robot is not None

    @property
    def played_by_computer(self) -> bool:
        """A computer decides this seat's moves: a computer player, or one standing in."""
        return self.is_robot or self.stand_in is not None

    @property
    def out(self) -> bool:
        """Nobody plays this seat any more: its player left and no computer took it."""
        return self.gone and self.stand_in is None


@dataclass(frozen=True)
class TimerRow:
    game_id: int
    seat: int
    kind: str
    decision: str
    due_at: float


@dataclass(frozen=True)
class Publication:
    """What players must be told after a commit; saved in the outbox with it, delivered from the
    state committed with it (the game's lock keeps any later change waiting until it is), so it
    holds only what that state cannot tell."""

    events: list[Event] = field(default_factory=list)
    # Who had to decide what before the change: those with a new decision are called.
    before: Mapping[int, frozenset[str]] = field(default_factory=dict)
    show_hands: bool = False
    actor: int | None = None
    # Seats whose hand the change altered (see Game.hand): each is sent the new one.
    hands_changed: tuple[int, ...] = ()
    # Seats reminded of their move, with the time they have left.
    reminded: tuple[int, ...] = ()
    # Seats called to move in their quiet hours: named, not pinged (a timer pings them once the
    # hours end); and seats pinged now that they ended.
    hushed: tuple[int, ...] = ()
    pinged: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "events": [
                {"key": e.key, "params": e.params, "seats": None if e.seats is None else list(e.seats)}
                for e in self.events
            ],
            "before": {str(seat): sorted(actions) for seat, actions in self.before.items()},
            "show_hands": self.show_hands,
            "actor": self.actor,
            "hands_changed": list(self.hands_changed),
            "reminded": list(self.reminded),
            "hushed": list(self.hushed),
            "pinged": list(self.pinged),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Publication:
        return cls(
            events=[
                Event(e["key"], e["params"], None if e["seats"] is None else tuple(e["seats"]))
                for e in data["events"]
            ],
            before={int(seat): frozenset(actions) for seat, actions in data["before"].items()},
            show_hands=data["show_hands"],
            actor=data["actor"],
            hands_changed=tuple(data.get("hands_changed", ())),
            reminded=tuple(data.get("reminded", ())),
            hushed=tuple(data.get("hushed", ())),
            pinged=tuple(data.get("pinged", ())),
        )


@dataclass(frozen=True)
class SeatChange:
    """What one change sets on one seat (``Commit.seat_changes``): in the database by the store's
    ``SEAT_WRITES``, in memory by ``applied``. None, or False, leaves a column as it was."""

    total: int | None = None
    gone: bool = False  # the player left: the seat keeps the total it had
    stand_in: str | None = None  # a computer takes the seat, at this level
    back: bool = False  # the person is back: no stand-in, no computer's memory
    decision_since: int | None = None  # the version at which the seat's open decision began
    robot_state: dict[str, Any] | None = None  # a computer's memory after the change
    decision_at: float | None = None  # the seat's clock starts anew then
    bank_left: float | None = None  # the time it then has (see ``SeatRow.bank_left``)
    waiting_since: float | None = None  # its new decision began then

    def applied(self, seat: SeatRow) -> SeatRow:
        """``seat`` as the database has it once this change is written (a seat the change leaves
        as it was stays the row it was)."""
        total = seat.total if self.total is None else self.total
        written: dict[str, Any] = {}
        if total != seat.total:
            written["total"] = total
        if self.decision_since is not None:
            written["decision_since"] = self.decision_since
        if self.robot_state is not None:
            written["robot_state"] = self.robot_state
        if self.decision_at is not None:
            written["decision_at"] = self.decision_at
        if self.bank_left is not None:
            written["bank_left"] = self.bank_left
        if self.waiting_since is not None:
            written["waiting_since"] = self.waiting_since
        if self.gone:
            written.update(gone=True, left_total=total)
        if self.stand_in is not None:
            written.update(stand_in=self.stand_in, stood_in=True)
        if self.back:
            written.update(stand_in=None, robot_state=None)
        return replace(seat, **written) if written else seat


@dataclass(frozen=True)
class Commit:
    """Everything one change of a running game writes together, in one transaction: the game's
    row (made from its version, to ``status``), the action logged, the seats, every timer, what
    it announces (the outbox) and what it scores (the records)."""

    status: str
    state: dict[str, Any]
    totals: Sequence[int]
    timers: Sequence[Timer]
    publication: Publication
    # (seat, action) appended to the game's log; None for what no replay plays (the deal, a
    # reminder, an abort).
    logged: tuple[int, dict[str, Any]] | None = None
    by_timeout: bool = False
    winner: int | None = None
    gone: Iterable[int] = ()
    # Seats whose open decision began, ended or changed: a click drawn before is stale for them.
    changed_decisions: Iterable[int] = ()
    # Each computer seat's memory after the change.
    robot_states: Mapping[int, dict[str, Any]] = field(default_factory=dict)
    # A game, round or manche ended with this change: the match totals are kept as they stand.
    round_ended: bool = False
    feats: Sequence[tuple[int, str]] = ()  # (seat, feat), e.g. (2, "superbue")
    # Seats a computer now plays for their person, by its level (the person left if ``gone`` too);
    # seats whose person is back, the computer gone.
    stand_ins: Mapping[int, str] = field(default_factory=dict)
    back: Iterable[int] = ()
    # How a computer that finished a match for a person who left is named in the results.
    stand_in_name: str = "🤖 {name}"
    # False: the match this ends counts for nobody's rating.
    rated: bool = True
    # Seats whose clock starts anew with this change, and when (``bot.planning.started_clocks``; an
    # away span changed); seats whose clock's time changed (a decision over, an away span), and
    # what it then holds.
    clocks_started: Mapping[int, float] = field(default_factory=dict)
    banks: Mapping[int, float] = field(default_factory=dict)
    # An away day used as a player's time ran out: (user id, from, until), written with the change
    # (it counts against their away days).
    away: tuple[int, float, float] | None = None

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    def seat_changes(self, version: int) -> dict[int, SeatChange]:
        """What this change, committed at ``version``, sets on each seat it concerns."""
        gone, changed, back = set(self.gone), set(self.changed_decisions), set(self.back)
        concerned = {
            *range(len(self.totals)),
            *gone,
            *changed,
            *back,
            *self.stand_ins,
            *self.robot_states,
            *self.clocks_started,
            *self.banks,
        }
        return {
            seat: SeatChange(
                total=self.totals[seat] if seat < len(self.totals) else None,
                gone=seat in gone,
                stand_in=self.stand_ins.get(seat),
                back=seat in back,
                decision_since=version if seat in changed else None,
                robot_state=self.robot_states.get(seat),
                decision_at=self.clocks_started.get(seat),
                bank_left=self.banks.get(seat),
                # A new decision's clock starts as it begins; away time restarts a clock alone.
                waiting_since=self.clocks_started.get(seat) if seat in changed else None,
            )
            for seat in sorted(concerned)
        }

    def seats_after(self, seats: Sequence[SeatRow], version: int) -> list[SeatRow]:
        """The seats as this change, committed at ``version``, leaves them, without reading them back."""
        changes = self.seat_changes(version)
        return [changes[seat.seat].applied(seat) if seat.seat in changes else seat for seat in seats]


@dataclass(frozen=True)
class NewSeat:
    """Who takes a lobby's next seat: a person, or a computer at a level (its id the store's)."""

    user_id: int
    name: str
    locale: str
    robot: str | None = None


@dataclass(frozen=True)
class LobbyChange:
    """A lobby's change, written with its announcement (the lobby redrawn) in one transaction: its
    seats as they now are (one taken or given up, a computer added or removed), or the lobby
    closed (``status`` aborted)."""

    publication: Publication
    seats: Sequence[SeatRow]
    status: str = LOBBY


class GameRules:
    """What the referee knows of a game beyond its engine: its computer player and what some of
    its events mean (a game's Discord side declares them: ``bot.adapter.GameAdapter``)."""

    engine: ClassVar[type[Game]]
    robot: ClassVar[type[Robot]]
    # Events that close a game, round or manche: the match totals are kept after each.
    round_end_events: ClassVar[frozenset[str]] = frozenset()
    # Events whose outcome people need in view before a computer moves (Serie Bum!'s tiles covered
    # again): the computers' next moves wait until it has been shown a while.
    kept_in_view: ClassVar[frozenset[str]] = frozenset()
    # Events that count as a feat for /stats, by the feat's name (Bué's "bue", say).
    feat_events: ClassVar[Mapping[str, str]] = {}

    @property
    def name(self) -> str:
        return self.engine.name

    def ends_round(self, events: Sequence[Event]) -> bool:
        return any(event.key in self.round_end_events for event in events)

    def feats(self, events: Sequence[Event]) -> list[tuple[int, str]]:
        """(seat, feat) for each feat among ``events``."""
        return [
            (event.params["seat"], self.feat_events[event.key])
            for event in events
            if event.key in self.feat_events
        ]


RulesT = TypeVar("RulesT", bound=GameRules)
EngineT = TypeVar("EngineT", bound=Game)


@dataclass
class Match(Generic[RulesT]):
    """One running (or finished) game as loaded: its row, seats, engine state and timers, and the
    computers playing a seat (their own, or one they stand in for), as they remember the game."""

    row: GameRow
    seats: list[SeatRow]
    game: Game
    rules: RulesT
    robots: dict[int, Robot] = field(default_factory=dict)
    timers: list[TimerRow] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.robots:
            self.robots = {
                seat.seat: self.rules.robot.from_json(seat.robot_state)
                for seat in self.seats
                if seat.robot_state is not None and (seat.stand_in is not None or not seat.gone)
            }

    def play(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Apply one logged action; every computer then looks at what its seat now sees. A stand-in
        sits down, or gets up for the person who is back, with the action that logs it."""
        events = perform(self.game, seat, action)
        kind = action.get("type")
        if kind == STAND_IN and seat not in self.robots:
            # Seeded from the game and the moment, so the log replays it.
            seed = (self.row.seed * 16 + seat) * 4096 + self.row.version
            self.robots[seat] = self.rules.robot(str(action["level"]), seed)
        elif kind == BACK:
            self.robots.pop(seat, None)
        for robot_seat, robot in self.robots.items():
            robot.observe(
                self.game.view(robot_seat), [event for event in events if event.visible_to(robot_seat)]
            )
        return events

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id and not s.gone), None)

    def restore(self) -> None:
        """Back to the game and the computers' memories as loaded (a move failed half-way)."""
        assert self.row.state is not None
        self.game = type(self.game).from_json(self.row.state)
        self.robots = {}
        self.__post_init__()

    def engine(self, kind: type[EngineT]) -> EngineT:
        """The game as its own engine's class, for what only that game offers."""
        if not isinstance(self.game, kind):
            raise TypeError(f"game {self.row.id} runs {type(self.game).__name__}, not {kind.__name__}")
        return self.game

    def copy(self) -> Match[RulesT]:
        """A copy whose later moves leave this one as it is (its game and computers copied)."""
        game = type(self.game).from_json(self.game.to_json())
        robots = {seat: type(robot).from_json(robot.to_json()) for seat, robot in self.robots.items()}
        return replace(self, game=game, robots=robots, seats=list(self.seats), timers=list(self.timers))


@dataclass
class Lobby(Generic[RulesT]):
    """A game still gathering its players."""

    row: GameRow
    seats: list[SeatRow]
    rules: RulesT
