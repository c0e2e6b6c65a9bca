"""The rows the store reads (games, seats and timers are ``bot.model``'s), how a database row becomes
one, and how a seat's change is written (``SEAT_WRITES`` alone)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import cache
from string import Formatter
from typing import Any

from bot.model import GameRow, SeatChange, SeatRow, TimerRow
from bot.ratings import Skill
from bot.store.backend import Row

# Each seat column a change may write, and how, from ``seat_parameters`` (each ``{name}``
# one of them; a NULL, or a 0, leaves the column as it was). The one place a seat's change is
# written to the database: ``SEAT_CHANGE`` and its parameters' order are derived from it.
SEAT_WRITES: tuple[tuple[str, str], ...] = (
    ("total", "COALESCE({total}, total)"),
    ("gone", "CASE WHEN {gone} = 1 THEN 1 ELSE gone END"),
    ("left_total", "CASE WHEN {gone} = 1 THEN COALESCE({total}, total) ELSE left_total END"),
    ("stand_in", "CASE WHEN {back} = 1 THEN NULL ELSE COALESCE({stand_in}, stand_in) END"),
    ("stood_in", "CASE WHEN {stood_in} = 1 THEN 1 ELSE stood_in END"),
    ("decision_since", "COALESCE({decision_since}, decision_since)"),
    ("waiting_since", "COALESCE({waiting_since}, waiting_since)"),
    ("robot_state", "CASE WHEN {back} = 1 THEN NULL ELSE COALESCE({robot_state}, robot_state) END"),
    ("decision_at", "COALESCE({decision_at}, decision_at)"),
    ("bank_left", "COALESCE({bank_left}, bank_left)"),
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


def seat_parameters(change: SeatChange) -> dict[str, Any]:
    """The values ``SEAT_WRITES`` names, for one seat's change."""
    return {
        "total": change.total,
        "gone": int(change.gone),
        "back": int(change.back),
        "stand_in": change.stand_in,
        "stood_in": int(change.stand_in is not None),
        "decision_since": change.decision_since,
        "robot_state": None if change.robot_state is None else json.dumps(change.robot_state),
        "decision_at": change.decision_at,
        "bank_left": change.bank_left,
        "waiting_since": change.waiting_since,
    }


class ChannelBusy(Exception):
    """The channel already has an open game."""

    def __init__(self, game: GameRow) -> None:
        super().__init__(game.id)
        self.game = game


class StaleVersion(Exception):
    """Someone else changed the game first (a double click, a race with a timer)."""


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
