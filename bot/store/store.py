"""All SQL of the bot, written once for every database (see bot/store/backend.py).

The database is the truth. Every accepted action is appended to the game's action log
and the new state committed in one transaction, before the bot answers anyone.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from operator import attrgetter
from string import Formatter
from typing import Any

from bot.ratings import Skill, places, rate
from bot.store.backend import Backend, Executor, Row, Statement, WrongRowCount
from bot.store.community import CommunityStore
from bot.store.heartbeats import Heartbeats
from bot.store.schema import MIGRATIONS
from bot.store.sqlite import SQLiteBackend

# Both databases' integers are 64-bit signed: a larger id names no row.
MAX_ID = 2**63 - 1

# What a move reads of its game (see Store.snapshot).
GAME_QUERY = "SELECT * FROM games WHERE id = ?"
# With each player's preferences, read at each move: a player's change reaches their running games.
SEATS_QUERY = (
    "SELECT seats.*, dm_channels.channel_id AS dm_channel_id, closed_dms.closed_at AS dm_closed_at,"
    " player_preferences.language AS preferred, player_preferences.dm_hand, player_preferences.ping"
    " FROM seats"
    " LEFT JOIN dm_channels USING (user_id) LEFT JOIN closed_dms USING (user_id)"
    " LEFT JOIN player_preferences USING (user_id)"
    " WHERE game_id = ? ORDER BY seat"
)
TIMERS_QUERY = "SELECT * FROM timers WHERE game_id = ? ORDER BY due_at"
GAME_PENDING_QUERY = "SELECT * FROM outbox WHERE game_id = ? ORDER BY version"

# What a move writes (see Store.commit). Each statement is a hop to SQLite's thread or a round
# trip to PostgreSQL: a move sends one per table it changes (the timers excepted: they are
# deleted, then inserted).
MOVE = (
    "UPDATE games SET state = ?, version = ?, updated_at = ?"
    " WHERE id = ? AND version = ? AND status = 'running'"
)
FINISHING_MOVE = (
    "UPDATE games SET state = ?, version = ?, updated_at = ?, status = 'finished'"
    " WHERE id = ? AND version = ? AND status = 'running'"
)
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

# Each entry's latest rating on one board (server and game), and how many matches rated it.
LATEST_RATINGS = """
    WITH board AS (
        SELECT entry, mu, sigma, COUNT(*) OVER by_entry AS matches,
            ROW_NUMBER() OVER (by_entry ORDER BY finished_at DESC, game_id DESC) AS recency
        FROM ratings WHERE guild_id = ? AND kind = ?
        WINDOW by_entry AS (PARTITION BY entry)
    )
"""


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


# A due timer taken by one process is left to it this long (see the timers table); the process
# renews the lease while it works (see TimerService), so the lease is only how long another
# process waits for one that died without starting again.
TIMER_LEASE = 15.0
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def _columns(row_type: type, row: Row, **decoded: Any) -> dict[str, Any]:
    """The row's columns named like ``row_type``'s fields; ``decoded`` replaces those kept as JSON or 0/1."""
    return {name: row[name] for name in _field_names(row_type)} | decoded


@cache
def _field_names(row_type: type) -> tuple[str, ...]:
    # Looked up once: ``fields`` works them out again on every call, for every row read.
    return tuple(field.name for field in fields(row_type))


def _game(row: Row) -> GameRow:
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


def _seat(row: Row) -> SeatRow:
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


def _timer(row: Row) -> TimerRow:
    return TimerRow(**_columns(TimerRow, row))


def _pending(row: Row) -> Pending:
    delivered = frozenset(json.loads(row["delivered"]))
    return Pending(row["game_id"], row["version"], json.loads(row["publication"]), delivered)


async def open_backend(database: str) -> Backend:
    """The database ``database`` names (an SQLite file's path, or a ``postgresql://`` URL), as it is."""
    if database.startswith(POSTGRES_SCHEMES):
        # Imported here: a bot on SQLite never loads asyncpg (a tenth of a second at start-up).
        from bot.store.postgres import PostgresBackend

        return await PostgresBackend.open(database)
    return await SQLiteBackend.open(database)


class Store:
    def __init__(self, backend: Backend, shards: Shards = Shards()) -> None:
        self._db = backend
        self.shards = shards
        self.community = CommunityStore(backend)
        self.heartbeats = Heartbeats(backend)
        # Names this process's timer claims: one store is opened per process start.
        self.process_id = secrets.token_hex(8)

    @classmethod
    async def open(cls, database: str, shards: Shards = Shards()) -> Store:
        """The store in ``database``: an SQLite file's path, or a ``postgresql://`` URL; migrated."""
        backend = await open_backend(database)
        await backend.migrate([script.format_map(backend.schema_fields) for script in MIGRATIONS])
        store = cls(backend, shards)
        await store.rate_unrated_matches()
        return store

    @property
    def backend(self) -> Backend:
        return self._db

    async def close(self) -> None:
        await self._db.close()

    async def _write(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        await self._db.execute(sql, parameters)

    async def _value(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        rows = await self._db.fetch(sql, parameters)
        return rows[0][0] if rows else None

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    def _in_my_shards(self) -> tuple[str, list[int]]:
        """SQL true for the game ids of this process's shards, and its parameters."""
        condition, parameters = self.shards.condition()
        return f"game_id IN (SELECT id FROM games WHERE {condition})", parameters

    # ------------------------------------------------------------------ games

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        return await self._open_game_in(self._db, channel_id)

    @staticmethod
    async def _open_game_in(db: Executor, channel_id: int) -> GameRow | None:
        rows = await db.fetch(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        )
        return _game(rows[0]) if rows else None

    async def game(self, game_id: int) -> GameRow | None:
        """The game with this id; None for none, whatever number a forged id holds."""
        if not 0 < game_id <= MAX_ID:
            return None
        rows = await self._db.fetch(GAME_QUERY, (game_id,))
        return _game(rows[0]) if rows else None

    async def snapshot(self, game_id: int) -> Snapshot | None:
        """The game with its seats, timers and pending publications, in one read (a move needs
        them all); None for no such game."""
        if not 0 < game_id <= MAX_ID:
            return None
        games, seats, timers, pending = await self._db.fetch_many(
            [
                Statement(query, (game_id,))
                for query in (GAME_QUERY, SEATS_QUERY, TIMERS_QUERY, GAME_PENDING_QUERY)
            ]
        )
        if not games:
            return None
        # Ordered here, as the queries say: a backend that reads them as one statement (SQLite's
        # UNION ALL) need not keep each query's order.
        return Snapshot(
            _game(games[0]),
            sorted(map(_seat, seats), key=attrgetter("seat")),
            sorted(map(_timer, timers), key=attrgetter("due_at")),
            sorted(map(_pending, pending), key=attrgetter("version")),
        )

    async def running_games(self) -> list[GameRow]:
        """The running games of this process's shards."""
        condition, parameters = self.shards.condition()
        rows = await self._db.fetch(
            f"SELECT * FROM games WHERE status = 'running' AND {condition} ORDER BY id", parameters
        )
        return [_game(row) for row in rows]

    async def running_count(self) -> int:
        """How many running games this process's shards hold."""
        condition, parameters = self.shards.condition()
        return await self._value(
            f"SELECT COUNT(*) FROM games WHERE status = 'running' AND {condition}", parameters
        )

    async def create_lobby(
        self,
        *,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        host_locale: str,
        locale: str,
        options: dict[str, int],
        turn_timeout: int,
        seed: int,
        now: float,
        players: Sequence[tuple[int, str, str]] = (),
        server_settings: Mapping[str, Any] | None = None,
    ) -> int:
        """A new lobby with the host seated (and, for a rematch, the other players).

        Raises ChannelBusy when the channel already has an open game, however close two
        starts come: the check and the insert share one write transaction, and the index of
        open games per channel stops a second process's insert.
        """
        seated = [(host_id, host_name, host_locale)] + [player for player in players if player[0] != host_id]
        try:
            async with self._db.transaction() as db:
                busy = await self._open_game_in(db, channel_id)
                if busy:
                    raise ChannelBusy(busy)
                (row,) = await db.fetch(
                    "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, turn_timeout,"
                    " locale, seed, created_at, updated_at, server_settings)"
                    " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)"
                    " RETURNING id",
                    (
                        kind,
                        guild_id,
                        channel_id,
                        host_id,
                        json.dumps(options),
                        turn_timeout,
                        locale,
                        seed,
                        now,
                        now,
                        json.dumps(server_settings or {}),
                    ),
                )
                game_id: int = row["id"]
                await db.executemany(
                    "INSERT INTO seats (game_id, seat, user_id, name, locale) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, seat, *player) for seat, player in enumerate(seated)],
                )
        except self._db.unique_violation:
            busy = await self.open_game_in(channel_id)
            if busy is None:
                raise
            raise ChannelBusy(busy) from None
        return game_id

    async def set_message(self, game_id: int, message_id: int) -> None:
        await self._write("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id))

    async def seats(self, game_id: int) -> list[SeatRow]:
        return [_seat(row) for row in await self._db.fetch(SEATS_QUERY, (game_id,))]

    async def join(self, game_id: int, user_id: int, name: str, locale: str) -> None:
        await self._write(
            "INSERT INTO seats (game_id, seat, user_id, name, locale)"
            " VALUES (?, (SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE game_id = ?), ?, ?, ?)",
            (game_id, game_id, user_id, name, locale),
        )

    async def add_robot(self, game_id: int, level: str, name: str) -> None:
        """A computer takes the next seat; its user id is negative, one per computer of the game."""
        await self._write(
            "INSERT INTO seats (game_id, seat, user_id, name, locale, robot) VALUES (?,"
            " (SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE game_id = ?),"
            " (SELECT COALESCE(MIN(CASE WHEN user_id < 0 THEN user_id END), 0) - 1 FROM seats"
            " WHERE game_id = ?), ?, 'en', ?)",
            (game_id, game_id, game_id, name, level),
        )

    async def leave_lobby(self, game_id: int, user_id: int) -> None:
        async with self._db.transaction() as db:
            left = await db.fetch(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ? RETURNING seat", (game_id, user_id)
            )
            if not left:
                return
            # Keep seats dense so join order stays seating order. Through negative numbers: a
            # seat is unique at every row updated, whatever order the database updates them in.
            await db.execute(
                "UPDATE seats SET seat = -seat WHERE game_id = ? AND seat > ?", (game_id, left[0]["seat"])
            )
            await db.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", (game_id,))

    async def remember_locale(self, game_id: int, user_id: int, locale: str) -> None:
        await self._write(
            "UPDATE seats SET locale = ? WHERE game_id = ? AND user_id = ?", (locale, game_id, user_id)
        )

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        await self._write(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            (user_id, channel_id),
        )

    async def mark_dm_closed(self, user_id: int, now: float) -> None:
        await self._write(
            "INSERT INTO closed_dms (user_id, closed_at) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET closed_at = excluded.closed_at",
            (user_id, now),
        )

    async def forget_dm_closed(self, user_id: int) -> None:
        await self._write("DELETE FROM closed_dms WHERE user_id = ?", (user_id,))

    async def mark_dm_notice(self, game_id: int, seat: int) -> None:
        await self._write(
            "UPDATE seats SET dm_notice_sent = 1 WHERE game_id = ? AND seat = ?", (game_id, seat)
        )

    async def start(
        self,
        game_id: int,
        state: dict[str, Any],
        timers: Sequence[tuple[int, str, str, float]],
        publication: dict[str, Any] | None = None,
        robot_states: Mapping[int, dict[str, Any]] | None = None,
        *,
        dealt: Score | None = None,
        now: float = 0.0,
    ) -> None:
        """The lobby becomes a running game at version 1, with what its first deal must tell and
        its computers' first memory. ``dealt``: what the deal itself scored (a Bué dealt), recorded
        as a move's score is: the totals, feats and round totals, and when the deal decided the
        match, the game finished (at ``now``) and rated."""
        statements = [
            Statement(
                "UPDATE games SET status = 'running', state = ?, version = 1"
                " WHERE id = ? AND status = 'lobby'",
                (json.dumps(state), game_id),
                changes=1,
            ),
            Statement("UPDATE seats SET decision_since = 1 WHERE game_id = ?", (game_id,)),
            self._robot_states_statement(game_id, robot_states or {}),
            *self._timers_statements(game_id, timers),
        ]
        rated = False
        if dealt is not None:
            scored, rated = self._scoring_statements(game_id, dealt, now)
            statements += scored
        if publication is not None:
            statements.append(self._publication_statement(game_id, 1, publication))
        try:
            await self._db.run(statements, then=self._rating(game_id) if rated else None)
        except WrongRowCount:
            raise StaleVersion(game_id) from None

    async def end(self, game_id: int, status: str) -> None:
        """Close a lobby or a running game without a result (cancelled, aborted)."""
        async with self._db.transaction() as db:
            await db.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))
            await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))

    async def commit(self, game: GameRow, change: Commit, now: float) -> int:
        """Append the action, save the new state, totals and timers; returns the new version.

        Raises StaleVersion, changing nothing, if the game moved on since ``game`` was read,
        by this process or another: the version check and the update are one statement.
        """
        version = game.version + 1
        statements = [
            Statement(
                # The status is set only by the move that ends the game: its index's page would
                # otherwise be written at every move.
                FINISHING_MOVE if change.finished else MOVE,
                (json.dumps(change.state), version, now, game.id, game.version),
                changes=1,
            ),
            Statement(
                "INSERT INTO actions (game_id, number, seat, action, by_timeout, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game.id, version - 1, change.seat, json.dumps(change.action), int(change.by_timeout), now),
            ),
            self._seats_statement(game.id, version, change),
            *self._timers_statements(game.id, change.timers),
            self._feats_statement(game.id, change.feats),
        ]
        if change.publication is not None:
            statements.append(self._publication_statement(game.id, version, change.publication))
        if change.round_ended:
            statements.append(self._round_totals_statement(game.id))
        winner = change.winner if change.finished else None
        rated = winner is not None
        if winner is not None:
            statements += self._results_statements(game.id, winner, change.stand_in_name, now, change.rated)
        try:
            await self._db.run(statements, then=self._rating(game.id) if rated else None)
        except WrongRowCount:
            raise StaleVersion(game.id) from None
        return version

    @staticmethod
    def _scoring_statements(game_id: int, score: Score, now: float) -> tuple[list[Statement], bool]:
        """What a deal scored (see ``start``), as a move's commit records it: the seats' totals,
        feats, the match totals at the end of a game, and the results when it ended the match;
        and whether to rate it (after the statements, see ``_rating``)."""
        statements = [
            Statement(
                "UPDATE seats SET total = ? WHERE game_id = ? AND seat = ?",
                rows=[(total, game_id, seat) for seat, total in enumerate(score.totals)],
            ),
            Store._feats_statement(game_id, score.feats),
        ]
        if score.finished:
            statements.append(Statement("UPDATE games SET status = 'finished' WHERE id = ?", (game_id,)))
        if score.round_ended:
            statements.append(Store._round_totals_statement(game_id))
        winner = score.winner if score.finished else None
        if winner is not None:
            statements += Store._results_statements(game_id, winner, Commit.stand_in_name, now, score.rated)
        rated = winner is not None
        return statements, rated

    @staticmethod
    def _feats_statement(game_id: int, feats: Sequence[tuple[int, str]]) -> Statement:
        return Statement(
            "INSERT INTO feats (game_id, seat, feat, count) VALUES (?, ?, ?, 1)"
            " ON CONFLICT (game_id, seat, feat) DO UPDATE SET count = feats.count + 1",
            rows=[(game_id, seat, feat) for seat, feat in feats],
        )

    @staticmethod
    def _round_totals_statement(game_id: int) -> Statement:
        """The match totals as they stand, from the seats' totals written before it."""
        return Statement(
            "INSERT INTO round_totals (game_id, number, seat, total) SELECT game_id,"
            " (SELECT COALESCE(MAX(number), 0) + 1 FROM round_totals WHERE game_id = ?), seat, total"
            " FROM seats WHERE game_id = ?",
            (game_id, game_id),
        )

    @staticmethod
    def _rating(game_id: int) -> Callable[[Executor], Awaitable[None]]:
        """Rates the match in the transaction that finished it."""

        async def rate(db: Executor) -> None:
            await Store._rate_match(db, game_id)

        return rate

    @staticmethod
    def _results_statements(
        game_id: int, winner: int, stand_in_name: str, now: float, rated: bool = True
    ) -> list[Statement]:
        """A results row per seat for whoever holds it at the end, and one per person who left
        their seat to a stand-in.

        A computer's seat is rated as its level ('robot:hard'), with no user id; so is the
        computer that finished for a person who left, who is rated last with the total they
        had. A person a stand-in played for while they were away keeps the seat's result, unrated.
        A match that is not ``rated`` has every result unrated.
        """
        columns = (
            "INSERT INTO results (game_id, seat, guild_id, kind, entry, user_id, name, points, won, gone,"
            " rated, finished_at) SELECT game_id, seat, games.guild_id, games.kind,"
        )
        replaced = "gone = 1 AND stand_in IS NOT NULL"
        return [
            Statement(
                columns + " CASE WHEN robot IS NOT NULL THEN 'robot:' || robot"
                f" WHEN {replaced} THEN 'robot:' || stand_in ELSE 'user:' || user_id END,"
                f" CASE WHEN robot IS NULL AND NOT ({replaced}) THEN user_id END,"
                f" CASE WHEN {replaced} THEN REPLACE(CAST(? AS TEXT), '{{name}}', name) ELSE name END,"
                " total, CASE WHEN seat = ? THEN 1 ELSE 0 END,"
                " CASE WHEN stand_in IS NULL THEN gone ELSE 0 END,"
                " CASE WHEN CAST(? AS INTEGER) = 0 OR (stood_in = 1 AND gone = 0) THEN 0 ELSE 1 END,"
                " CAST(? AS DOUBLE PRECISION)"
                " FROM seats JOIN games ON games.id = seats.game_id WHERE game_id = ?",
                (stand_in_name, winner, int(rated), now, game_id),
            ),
            Statement(
                columns + " 'user:' || user_id, user_id, name, left_total, 0, 1, CAST(? AS INTEGER),"
                " CAST(? AS DOUBLE PRECISION) FROM seats JOIN games ON games.id = seats.game_id"
                f" WHERE game_id = ? AND {replaced}",
                (int(rated), now, game_id),
            ),
        ]

    async def round_totals(self, game_id: int) -> list[list[int]]:
        """The match totals per seat after each finished game, round or manche, in order."""
        rows = await self._db.fetch(
            "SELECT number, seat, total FROM round_totals WHERE game_id = ? ORDER BY number, seat", (game_id,)
        )
        by_number: dict[int, list[int]] = {}
        for row in rows:
            by_number.setdefault(row["number"], []).append(row["total"])
        return list(by_number.values())

    async def set_results_message(self, game_id: int, message_id: int | None) -> None:
        await self._write("UPDATE games SET results_message_id = ? WHERE id = ?", (message_id, game_id))

    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any]]]:
        rows = await self._db.fetch(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY number", (game_id,)
        )
        return [(row["seat"], json.loads(row["action"])) for row in rows]

    async def moves_since_own(self, game_id: int, seat: int) -> list[tuple[int, bool]]:
        """(seat, by timeout) of each action since ``seat`` last moved by itself, oldest first: what
        tells how many of its turns in a row ran out."""
        rows = await self._db.fetch(
            "SELECT seat, by_timeout FROM actions WHERE game_id = ? AND number > COALESCE((SELECT"
            " MAX(number) FROM actions WHERE game_id = ? AND seat = ? AND by_timeout = 0), -1)"
            " ORDER BY number",
            (game_id, game_id, seat),
        )
        return [(row["seat"], bool(row["by_timeout"])) for row in rows]

    @staticmethod
    def _seats_statement(game_id: int, version: int, change: Commit) -> Statement:
        """What the move changes of each seat (``SeatChange``), one row per seat it concerns."""
        rows = []
        for seat, seat_change in change.seat_changes(version).items():
            parameters = seat_change.parameters()
            rows.append((*(parameters[name] for name in SEAT_CHANGE_PARAMETERS), game_id, seat))
        return Statement(SEAT_CHANGE, rows=rows)

    @staticmethod
    def _robot_states_statement(game_id: int, states: Mapping[int, dict[str, Any]]) -> Statement:
        return Statement(
            "UPDATE seats SET robot_state = ? WHERE game_id = ? AND seat = ?",
            rows=[(json.dumps(state), game_id, seat) for seat, state in states.items()],
        )

    # ------------------------------------------------------------------ the outbox

    @staticmethod
    def _publication_statement(game_id: int, version: int, publication: dict[str, Any]) -> Statement:
        return Statement(
            "INSERT INTO outbox (game_id, version, publication) VALUES (?, ?, ?)",
            (game_id, version, json.dumps(publication)),
        )

    async def pending(self) -> list[Pending]:
        """Publications not yet fully delivered, of every game of this process's shards, oldest
        first (a move reads its own game's with the game: see ``snapshot``)."""
        in_my_shards, parameters = self._in_my_shards()
        rows = await self._db.fetch(
            f"SELECT * FROM outbox WHERE {in_my_shards} ORDER BY game_id, version", parameters
        )
        return [_pending(row) for row in rows]

    async def mark_delivered(self, pending: Pending, part: str) -> Pending:
        delivered = pending.delivered | {part}
        await self._write(
            "UPDATE outbox SET delivered = ? WHERE game_id = ? AND version = ?",
            (json.dumps(sorted(delivered)), pending.game_id, pending.version),
        )
        return replace(pending, delivered=delivered)

    async def delivered(self, pending: Pending) -> None:
        await self._write(
            "DELETE FROM outbox WHERE game_id = ? AND version = ?", (pending.game_id, pending.version)
        )

    # ------------------------------------------------------------------ timers

    @staticmethod
    def _timers_statements(game_id: int, timers: Sequence[tuple[int, str, str, float]]) -> list[Statement]:
        return [
            Statement("DELETE FROM timers WHERE game_id = ?", (game_id,)),
            Statement(
                "INSERT INTO timers (game_id, seat, kind, decision, due_at) VALUES (?, ?, ?, ?, ?)",
                rows=[(game_id, *timer) for timer in timers],
            ),
        ]

    async def timers(self, game_id: int) -> list[TimerRow]:
        return [_timer(row) for row in await self._db.fetch(TIMERS_QUERY, (game_id,))]

    async def due_timers(self, now: float) -> list[TimerRow]:
        """Takes the timers due by ``now`` in this process's shards that no other process holds.

        Each is claimed by this process for TIMER_LEASE seconds (renewed while it works, see
        ``renew_claims``): firing it replaces or drops it; if this process dies first, it takes
        them back when it starts again (``take_back_claims``), or another does when the lease ends.
        """
        in_my_shards, parameters = self._in_my_shards()
        async with self._db.transaction() as db:
            rows = await db.fetch(
                "UPDATE timers SET claimed_until = ?, claimed_by = ? WHERE (game_id, seat, kind) IN ("
                " SELECT game_id, seat, kind FROM timers"
                f" WHERE due_at <= ? AND COALESCE(claimed_until, 0) <= ? AND {in_my_shards}"
                f"{self._db.lock_rows})"
                " RETURNING *",
                (now + TIMER_LEASE, self.process_id, now, now, *parameters),
            )
        return sorted(map(_timer, rows), key=lambda timer: timer.due_at)

    async def renew_claims(self, timers: Sequence[TimerRow], now: float) -> None:
        """This process is still working on these timers it took: their lease runs from ``now``
        (a timer fired meanwhile is gone or replaced, unclaimed: left alone)."""
        await self._db.executemany(
            "UPDATE timers SET claimed_until = ?"
            " WHERE game_id = ? AND seat = ? AND kind = ? AND claimed_by = ?",
            [(now + TIMER_LEASE, timer.game_id, timer.seat, timer.kind, self.process_id) for timer in timers],
        )

    async def take_back_claims(self) -> None:
        """At start: claims on this process's shards' timers were made before it started, by a
        process now gone (shards belong to one process at a time): their timers are free again."""
        in_my_shards, parameters = self._in_my_shards()
        await self._write(
            "UPDATE timers SET claimed_until = NULL, claimed_by = NULL WHERE claimed_until IS NOT NULL"
            f" AND (claimed_by IS NULL OR claimed_by <> ?) AND {in_my_shards}",
            (self.process_id, *parameters),
        )

    async def next_due(self) -> float | None:
        """When a timer of this process's shards can next be taken: due, and not held by a lease."""
        in_my_shards, parameters = self._in_my_shards()
        return await self._value(
            "SELECT MIN(CASE WHEN claimed_until > due_at THEN claimed_until ELSE due_at END)"
            f" FROM timers WHERE {in_my_shards}",
            parameters,
        )

    async def postpone_timer(self, timer: TimerRow, due_at: float) -> None:
        """The timer fires again at ``due_at``, unclaimed (what it had to do could not be done now)."""
        await self._write(
            "UPDATE timers SET due_at = ?, claimed_until = NULL, claimed_by = NULL"
            " WHERE game_id = ? AND seat = ? AND kind = ?",
            (due_at, timer.game_id, timer.seat, timer.kind),
        )

    async def drop_timer(self, timer: TimerRow) -> None:
        await self._write(
            "DELETE FROM timers WHERE game_id = ? AND seat = ? AND kind = ?",
            (timer.game_id, timer.seat, timer.kind),
        )

    # ------------------------------------------------------------------ ratings

    @staticmethod
    async def _rate_match(db: Executor, game_id: int) -> None:
        """Rate a finished match from its results, after every match of its board finished before it."""
        seats = await db.fetch(
            "SELECT entry, points, won, gone, rated, guild_id, kind, finished_at FROM results"
            " WHERE game_id = ? ORDER BY seat, gone",
            (game_id,),
        )
        board = (seats[0]["guild_id"], seats[0]["kind"])
        rows = await db.fetch(LATEST_RATINGS + " SELECT entry, mu, sigma FROM board WHERE recency = 1", board)
        prior = {row["entry"]: Skill(row["mu"], row["sigma"]) for row in rows}
        order = places(
            [seat["points"] for seat in seats],
            [bool(seat["won"]) for seat in seats],
            [bool(seat["gone"]) for seat in seats],
        )
        rated = rate([(seat["entry"], place) for seat, place in zip(seats, order, strict=True)], prior)
        # Everyone's place counts for the others; an unrated entry's own rating stays as it was.
        unrated = {seat["entry"] for seat in seats if not seat["rated"]}
        await db.executemany(
            "INSERT INTO ratings (game_id, entry, guild_id, kind, mu, sigma, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, entry, *board, skill.mu, skill.sigma, seats[0]["finished_at"])
                for entry, skill in rated.items()
                if entry not in unrated
            ],
        )

    async def rate_unrated_matches(self) -> None:
        """Rate the matches that have results but no ratings (those finished before ratings existed).

        Ratings depend on the order of matches, so each board concerned is rated again from
        its first match, in the order they finished.
        """
        boards = await self._db.fetch(
            "SELECT DISTINCT guild_id, kind FROM results"
            " WHERE rated = 1 AND game_id NOT IN (SELECT game_id FROM ratings)"
        )
        for board in boards:
            key = (board["guild_id"], board["kind"])
            async with self._db.transaction() as db:
                await db.execute("DELETE FROM ratings WHERE guild_id = ? AND kind = ?", key)
                rows = await db.fetch(
                    "SELECT game_id FROM results WHERE guild_id = ? AND kind = ?"
                    " GROUP BY game_id ORDER BY MIN(finished_at), game_id",
                    key,
                )
                for game_id in (row["game_id"] for row in rows):
                    await self._rate_match(db, game_id)

    async def rating_board(self, guild_id: int, kind: str, limit: int = 10) -> list[RatedStanding]:
        """People by conservative rating (mu - 3 sigma); computer players are left out."""
        rows = await self._db.fetch(
            LATEST_RATINGS + " SELECT CAST(SUBSTR(entry, 6) AS BIGINT) AS user_id, mu, sigma, matches,"
            " (SELECT name FROM results WHERE results.entry = board.entry AND results.guild_id = ?"
            " ORDER BY finished_at DESC LIMIT 1) AS name"
            " FROM board WHERE recency = 1 AND entry LIKE 'user:%'"
            " ORDER BY mu - 3 * sigma DESC, matches DESC LIMIT ?",
            (guild_id, kind, guild_id, limit),
        )
        return [
            RatedStanding(row["user_id"], row["name"], Skill(row["mu"], row["sigma"]), row["matches"])
            for row in rows
        ]

    async def rating_history(self, guild_id: int, kind: str, entry: str) -> list[Skill]:
        """The entry's rating after each of its matches on the board, oldest first."""
        rows = await self._db.fetch(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND kind = ? AND entry = ?"
            " ORDER BY finished_at, game_id",
            (guild_id, kind, entry),
        )
        return [Skill(row["mu"], row["sigma"]) for row in rows]

    # ------------------------------------------------------------------ history and stats

    async def player_record(self, guild_id: int, user_id: int, kind: str | None) -> PlayerRecord | None:
        rows = await self._db.fetch(
            "SELECT (SELECT name FROM results AS latest WHERE latest.guild_id = ? AND latest.user_id = ?"
            " ORDER BY finished_at DESC LIMIT 1) AS name,"
            " COUNT(*) AS matches, SUM(won) AS wins, MAX(points) AS best_total"
            " FROM results WHERE guild_id = ? AND user_id = ? AND kind = COALESCE(?, kind)",
            (guild_id, user_id, guild_id, user_id, kind),
        )
        row = rows[0]
        if not row["matches"]:
            return None
        return PlayerRecord(row["name"], row["matches"], row["wins"], row["best_total"])

    async def kinds_played(self, guild_id: int, user_id: int) -> list[str]:
        rows = await self._db.fetch(
            "SELECT DISTINCT kind FROM results WHERE guild_id = ? AND user_id = ? ORDER BY kind",
            (guild_id, user_id),
        )
        return [row["kind"] for row in rows]

    async def last_results(
        self, guild_id: int, user_id: int, kind: str | None, limit: int = 5
    ) -> list[PastResult]:
        rows = await self._db.fetch(
            "SELECT game_id, kind, points, won, finished_at FROM results"
            " WHERE guild_id = ? AND user_id = ? AND kind = COALESCE(?, kind)"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            (guild_id, user_id, kind, limit),
        )
        return [
            PastResult(row["game_id"], row["kind"], row["points"], bool(row["won"]), row["finished_at"])
            for row in rows
        ]

    async def feat_counts(self, guild_id: int, user_id: int, kind: str) -> dict[str, int]:
        """How often the player made each feat in their finished matches of ``kind``."""
        rows = await self._db.fetch(
            "SELECT feat, SUM(count) AS total FROM feats JOIN results USING (game_id, seat)"
            " WHERE results.guild_id = ? AND results.user_id = ? AND results.kind = ? GROUP BY feat",
            (guild_id, user_id, kind),
        )
        return {row["feat"]: row["total"] for row in rows}

    async def points_per_round(self, guild_id: int, user_id: int, kind: str) -> float | None:
        """Match points over rounds played, for the matches whose rounds were kept."""
        rows = await self._db.fetch(
            "SELECT SUM(points) AS points, SUM(rounds) AS rounds FROM ("
            " SELECT results.points, (SELECT COUNT(DISTINCT number) FROM round_totals"
            " WHERE round_totals.game_id = results.game_id) AS rounds FROM results"
            " WHERE guild_id = ? AND user_id = ? AND kind = ?) AS played WHERE rounds > 0",
            (guild_id, user_id, kind),
        )
        row = rows[0]
        # float(): PostgreSQL sums a count as a Decimal.
        return float(row["points"]) / float(row["rounds"]) if row["rounds"] else None

    async def finished_matches(self, guild_id: int, kind: str | None, limit: int = 10) -> list[FinishedMatch]:
        """The board's last finished matches, newest first."""
        rows = await self._db.fetch(
            "SELECT results.game_id, results.kind, games.guild_id, games.channel_id,"
            " COALESCE(games.results_message_id, games.message_id) AS message_id, results.finished_at,"
            " results.name, results.points, results.won, results.gone"
            " FROM results JOIN games ON games.id = results.game_id"
            " WHERE results.game_id IN (SELECT game_id FROM results"
            " WHERE guild_id = ? AND kind = COALESCE(?, kind)"
            " GROUP BY game_id ORDER BY MIN(finished_at) DESC, game_id DESC LIMIT ?)"
            " ORDER BY results.finished_at DESC, results.game_id DESC, results.points DESC, results.seat",
            (guild_id, kind, limit),
        )
        matches: dict[int, FinishedMatch] = {}
        for row in rows:
            match = matches.setdefault(
                row["game_id"],
                FinishedMatch(
                    row["game_id"],
                    row["kind"],
                    row["guild_id"],
                    row["channel_id"],
                    row["message_id"],
                    row["finished_at"],
                    [],
                ),
            )
            match.seats.append(MatchSeat(row["name"], row["points"], bool(row["won"]), bool(row["gone"])))
        return list(matches.values())

    # ------------------------------------------------------------------ leaderboards

    async def leaderboard(self, guild_id: int, kind: str | None, limit: int = 10) -> list[Standing]:
        rows = await self._db.fetch(
            "SELECT user_id, (SELECT name FROM results AS latest WHERE latest.user_id = results.user_id"
            " AND latest.guild_id = ? ORDER BY finished_at DESC LIMIT 1) AS name,"
            " COUNT(*) AS games, SUM(won) AS wins, SUM(points) AS points"
            " FROM results WHERE guild_id = ? AND kind = COALESCE(?, kind) AND user_id IS NOT NULL"
            " GROUP BY user_id ORDER BY wins DESC, points DESC, games ASC LIMIT ?",
            (guild_id, guild_id, kind, limit),
        )
        return [
            Standing(row["user_id"], row["name"], row["games"], row["wins"], row["points"]) for row in rows
        ]
