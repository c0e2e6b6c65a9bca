"""The rows the store reads and writes: games, seats, timers, publications, results; what a move
changes (``Commit``, and of each seat ``SeatChange``, written from ``SEAT_WRITES`` alone); and how a
database row becomes one."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from string import Formatter
from typing import Any

from bot.ratings import Skill
from bot.store.backend import Row

# Each seat column a move may write, and how, from ``SeatChange.parameters()`` (each ``{name}``
# one of them; a NULL, or a 0, leaves the column as it was). The one place a seat's change is
# written to the database: ``SEAT_CHANGE`` and its parameters' order are derived from it.
SEAT_WRITES: tuple[tuple[str, str], ...] = (
    ("total", "COALESCE({total}, total)"),
    ("gone", "CASE WHEN {gone} = 1 THEN 1 ELSE gone END"),
    ("left_total", "CASE WHEN {gone} = 1 THEN COALESCE({total}, total) ELSE left_total END"),
    ("stand_in", "CASE WHEN {back} = 1 THEN NULL ELSE COALESCE({stand_in}, stand_in) END"),
    ("stood_in", "CASE WHEN {stood_in} = 1 THEN 1 ELSE stood_in END"),
    ("decision_since", "COALESCE({decision_since}, decision_since)"),
    ("robot_state", "CASE WHEN {back} = 1 THEN NULL ELSE COALESCE({robot_state}, robot_state) END"),
)


def _placeholders(writes: Sequence[tuple[str, str]]) -> tuple[str, tuple[str, ...]]:
    """The SET clause of ``writes`` with ``?`` placeholders, and the parameters' names in order."""
    names: list[str] = []
    assignments = []
    for column, expression in writes:
        parts = []
        for literal, name, _, _ in Formatter().parse(expression):
            parts.append(literal)
            if name is not None:
                parts.append("?")
                names.append(name)
        assignments.append(f"{column} = {''.join(parts)}")
    return ", ".join(assignments), tuple(names)


_SEAT_SETS, SEAT_CHANGE_PARAMETERS = _placeholders(SEAT_WRITES)
SEAT_CHANGE = f"UPDATE seats SET {_SEAT_SETS} WHERE game_id = ? AND seat = ?"


class ChannelBusy(Exception):
    """The channel already has an open game."""

    def __init__(self, game: GameRow) -> None:
        super().__init__(game.id)
        self.game = game


class StaleVersion(Exception):
    """Someone else changed the game first (a double click, a race with a timer)."""


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
    # Seconds left in the seat's bank when its decision began (None: the whole bank, or a time
    # per move).
    bank_left: float | None = None
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
class Standing:
    user_id: int
    name: str
    games: int
    wins: int
    points: int


@dataclass(frozen=True)
class Pending:
    """A publication still owed to players, and the parts of it already delivered."""

    game_id: int
    version: int
    publication: dict[str, Any]
    delivered: frozenset[str]


@dataclass(frozen=True)
class Snapshot:
    """A game as one read sees it: its row, seats and timers, and what it still owes players."""

    game: GameRow
    seats: list[SeatRow]
    timers: list[TimerRow]
    pending: list[Pending]


@dataclass(frozen=True)
class Score:
    """What a move, or a deal, scored: the match totals after it, and what it ended."""

    totals: Sequence[int]
    finished: bool = False
    winner: int | None = None
    # A game, round or manche ended: the match totals are kept as they stand.
    round_ended: bool = False
    feats: Sequence[tuple[int, str]] = ()  # (seat, feat), e.g. (2, "superbue")
    # False: the match, should this end it, counts for nobody's rating (see ``Commit.rated``).
    rated: bool = True


@dataclass(frozen=True)
class SeatChange:
    """What one move sets on one seat (``Commit.seat_changes``): in the database by
    ``SEAT_WRITES``, in memory by ``applied``. None, or False, leaves a column as it was."""

    total: int | None = None
    gone: bool = False  # the player left: the seat keeps the total it had
    stand_in: str | None = None  # a computer takes the seat, at this level
    back: bool = False  # the person is back: no stand-in, no computer's memory
    decision_since: int | None = None  # the version at which the seat's open decision began
    robot_state: dict[str, Any] | None = None  # a computer's memory after the move

    def parameters(self) -> dict[str, Any]:
        """The values ``SEAT_WRITES`` names."""
        return {
            "total": self.total,
            "gone": int(self.gone),
            "back": int(self.back),
            "stand_in": self.stand_in,
            "stood_in": int(self.stand_in is not None),
            "decision_since": self.decision_since,
            "robot_state": None if self.robot_state is None else json.dumps(self.robot_state),
        }

    def applied(self, seat: SeatRow) -> SeatRow:
        """``seat`` as the database has it once ``SEAT_WRITES`` wrote this change (a seat the
        change leaves as it was stays the row it was)."""
        total = seat.total if self.total is None else self.total
        written: dict[str, Any] = {}
        if total != seat.total:
            written["total"] = total
        if self.decision_since is not None:
            written["decision_since"] = self.decision_since
        if self.robot_state is not None:
            written["robot_state"] = self.robot_state
        if self.gone:
            written.update(gone=True, left_total=total)
        if self.stand_in is not None:
            written.update(stand_in=self.stand_in, stood_in=True)
        if self.back:
            written.update(stand_in=None, robot_state=None)
        return replace(seat, **written) if written else seat


@dataclass(frozen=True)
class Commit:
    """Everything one accepted action changes, written together."""

    seat: int
    action: dict[str, Any]
    state: dict[str, Any]
    totals: Sequence[int]
    timers: Sequence[tuple[int, str, str, float]]  # (seat, kind, decision, due_at)
    by_timeout: bool = False
    finished: bool = False
    winner: int | None = None
    gone: Iterable[int] = ()
    # Seats whose open decision began, ended or changed with this move.
    changed_decisions: Iterable[int] = ()
    # What players must be told of this move (see the outbox table).
    publication: dict[str, Any] | None = None
    # Each computer seat's memory after this move.
    robot_states: Mapping[int, dict[str, Any]] = field(default_factory=dict)
    # A game, round or manche ended with this action: the match totals are kept as they stand.
    round_ended: bool = False
    feats: Sequence[tuple[int, str]] = ()  # (seat, feat), e.g. (2, "superbue")
    # Seats a computer now plays for their person, by its level (the person left if ``gone`` too);
    # seats whose person is back, the computer gone.
    stand_ins: Mapping[int, str] = field(default_factory=dict)
    back: Iterable[int] = ()
    # How a computer that finished a match for a person who left is named in the results.
    stand_in_name: str = "🤖 {name}"
    # False: the match this ends counts for nobody's rating (a server that keeps computer players
    # out of rated matches).
    rated: bool = True

    def seat_changes(self, version: int) -> dict[int, SeatChange]:
        """What this change, committed at ``version``, sets on each seat it concerns."""
        gone, changed, back = set(self.gone), set(self.changed_decisions), set(self.back)
        concerned = {*range(len(self.totals)), *gone, *changed, *back, *self.stand_ins, *self.robot_states}
        return {
            seat: SeatChange(
                total=self.totals[seat] if seat < len(self.totals) else None,
                gone=seat in gone,
                stand_in=self.stand_ins.get(seat),
                back=seat in back,
                decision_since=version if seat in changed else None,
                robot_state=self.robot_states.get(seat),
            )
            for seat in sorted(concerned)
        }

    def seats_after(self, seats: Sequence[SeatRow], version: int) -> list[SeatRow]:
        """The seats as this change, committed at ``version``, leaves them (what ``Store.commit``
        writes to them), without reading them back."""
        changes = self.seat_changes(version)
        return [changes[seat.seat].applied(seat) if seat.seat in changes else seat for seat in seats]


@dataclass(frozen=True)
class RatedStanding:
    user_id: int
    name: str
    skill: Skill
    matches: int


@dataclass(frozen=True)
class PlayerRecord:
    """A player's finished matches on a board (one game, or all games when ``kind`` is None)."""

    name: str
    matches: int
    wins: int
    best_total: int


@dataclass(frozen=True)
class PastResult:
    game_id: int
    kind: str
    points: int
    won: bool
    finished_at: float


@dataclass(frozen=True)
class MatchSeat:
    name: str
    points: int
    won: bool
    gone: bool


@dataclass(frozen=True)
class FinishedMatch:
    game_id: int
    kind: str
    guild_id: int
    channel_id: int
    message_id: int | None  # the results message, or the table message for matches from before it was kept
    finished_at: float
    seats: list[MatchSeat]

    @property
    def jump_url(self) -> str | None:
        if self.message_id is None:
            return None
        return f"https://discord.com/channels/{self.guild_id}/{self.channel_id}/{self.message_id}"


@dataclass(frozen=True)
class Shards:
    """The Discord shards whose guilds' games this process runs (all of them by default).

    Every game belongs to one guild and every guild to one shard: Discord's rule is
    ``shard = (guild_id >> 22) % count``.
    """

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def condition(self) -> tuple[str, list[int]]:
        """SQL true for the games of these shards' guilds, and its parameters."""
        if self.count == 1:
            # Every game: no need to read each game's row (start-up and the timers would, otherwise).
            return "1 = 1", []
        placeholders = ", ".join("?" for _ in self.ids)
        return f"(guild_id >> 22) % ? IN ({placeholders})", [self.count, *self.ids]


ALL_SHARDS = Shards()


def _columns(row_type: type, row: Row, **decoded: Any) -> dict[str, Any]:
    """The row's columns named like ``row_type``'s fields; ``decoded`` replaces those kept as JSON or 0/1."""
    return {name: row[name] for name in _field_names(row_type)} | decoded


@cache
def _field_names(row_type: type) -> tuple[str, ...]:
    # Looked up once: ``fields`` works them out again on every call, for every row read.
    return tuple(field.name for field in fields(row_type))


def read_game(row: Row) -> GameRow:
    state = json.loads(row["state"]) if row["state"] else None
    return GameRow(
        **_columns(
            GameRow,
            row,
            options=json.loads(row["options"]),
            state=state,
            server_settings=json.loads(row["server_settings"]),
        )
    )


def read_seat(row: Row) -> SeatRow:
    decoded = {
        "gone": bool(row["gone"]),
        "dm_notice_sent": bool(row["dm_notice_sent"]),
        "stood_in": bool(row["stood_in"]),
        "robot_state": json.loads(row["robot_state"]) if row["robot_state"] else None,
        # The language the player chose, over their Discord's.
        "locale": row["preferred"] or row["locale"],
        "dm_hand": row["dm_hand"] is None or bool(row["dm_hand"]),
        "ping": row["ping"] is None or bool(row["ping"]),
    }
    return SeatRow(**_columns(SeatRow, row, **decoded))


def read_timer(row: Row) -> TimerRow:
    return TimerRow(**_columns(TimerRow, row))


def read_pending(row: Row) -> Pending:
    delivered = frozenset(json.loads(row["delivered"]))
    return Pending(row["game_id"], row["version"], json.loads(row["publication"]), delivered)
