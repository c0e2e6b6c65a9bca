"""All SQL of the bot: one SQLite file through aiosqlite.

The database is the truth. Every accepted action is appended to the game's action log
and the new state committed in one transaction, before the bot answers anyone.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import aiosqlite

from bot.ratings import Skill, places, rate

# Numbered migrations: index i brings the schema from user_version i to i + 1.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'aborted')),
        options TEXT NOT NULL,
        turn_timeout INTEGER NOT NULL,
        locale TEXT NOT NULL,
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        message_id INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'running');
    CREATE INDEX games_by_status ON games (status);

    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        locale TEXT NOT NULL,
        total INTEGER NOT NULL DEFAULT 0,
        gone INTEGER NOT NULL DEFAULT 0,
        dm_notice_sent INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );

    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        by_timeout INTEGER NOT NULL DEFAULT 0,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, number)
    );

    CREATE TABLE timers (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('remind', 'expire')),
        decision TEXT NOT NULL,
        due_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat, kind)
    );
    CREATE INDEX timers_by_due ON timers (due_at);

    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        guild_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        points INTEGER NOT NULL,
        won INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_by_board ON results (guild_id, kind);
    """,
    """
    -- The version at which each seat's open decision last changed: a click drawn before it is stale.
    ALTER TABLE seats ADD COLUMN decision_since INTEGER NOT NULL DEFAULT 0;

    -- What a committed move must still tell players (the transactional outbox): written with the
    -- move, delivered after it, deleted once delivered; ``delivered`` lists the parts already sent.
    CREATE TABLE outbox (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        publication TEXT NOT NULL,
        delivered TEXT NOT NULL DEFAULT '[]',
        PRIMARY KEY (game_id, version)
    );
    """,
    """
    -- Computer players: a seat with a level is a computer; robot_state is its memory and random
    -- stream. Their user ids are negative, never a Discord id.
    ALTER TABLE seats ADD COLUMN robot TEXT;
    ALTER TABLE seats ADD COLUMN robot_state TEXT;

    -- A third kind of timer: a computer's move, due after its pause.
    CREATE TABLE timers_new (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('remind', 'expire', 'robot')),
        decision TEXT NOT NULL,
        due_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat, kind)
    );
    INSERT INTO timers_new SELECT * FROM timers;
    DROP TABLE timers;
    ALTER TABLE timers_new RENAME TO timers;
    CREATE INDEX timers_by_due ON timers (due_at);

    -- Each player's DM channel, so a DM is one request, not a user fetch and a channel opening first.
    CREATE TABLE dm_channels (
        user_id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL
    );
    """,
    # After the game: a results row per seat (an entry is a person or a computer level), the
    # match totals after each game/round/manche, feats (Bué, SuperBué), skill ratings, and
    # the results message /history links to.
    """
    CREATE TABLE seat_results (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        entry TEXT NOT NULL,  -- who is rated: 'user:<id>', or 'robot:<level>' with a NULL user_id
        user_id INTEGER,
        name TEXT NOT NULL,
        points INTEGER NOT NULL,
        won INTEGER NOT NULL,
        gone INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    INSERT INTO seat_results
        SELECT results.game_id, seats.seat, results.guild_id, results.kind, 'user:' || results.user_id,
            results.user_id, results.name, results.points, results.won, seats.gone, results.finished_at
        FROM results JOIN seats ON seats.game_id = results.game_id AND seats.user_id = results.user_id;
    DROP TABLE results;
    ALTER TABLE seat_results RENAME TO results;
    CREATE INDEX results_by_board ON results (guild_id, kind, finished_at);
    CREATE INDEX results_by_user ON results (guild_id, user_id, finished_at);

    CREATE TABLE round_totals (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        total INTEGER NOT NULL,
        PRIMARY KEY (game_id, number, seat)
    );

    CREATE TABLE feats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        feat TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat, feat)
    );

    CREATE TABLE ratings (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        entry TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, entry)
    );
    CREATE INDEX ratings_by_board ON ratings (guild_id, kind, entry, finished_at);

    ALTER TABLE games ADD COLUMN results_message_id INTEGER;
    """,
)

OPEN_STATUSES = ("lobby", "running")
# SQLite's integers are 64-bit signed: a larger id names no row.
MAX_ID = 2**63 - 1

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

    @property
    def is_robot(self) -> bool:
        return self.robot is not None


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


def _columns(row_type: type, row: aiosqlite.Row, **decoded: Any) -> dict[str, Any]:
    """The row's columns named like ``row_type``'s fields; ``decoded`` replaces those kept as JSON or 0/1."""
    return {field.name: row[field.name] for field in fields(row_type)} | decoded


def _game(row: aiosqlite.Row) -> GameRow:
    state = json.loads(row["state"]) if row["state"] else None
    return GameRow(**_columns(GameRow, row, options=json.loads(row["options"]), state=state))


def _seat(row: aiosqlite.Row) -> SeatRow:
    decoded = {
        "gone": bool(row["gone"]),
        "dm_notice_sent": bool(row["dm_notice_sent"]),
        "robot_state": json.loads(row["robot_state"]) if row["robot_state"] else None,
    }
    return SeatRow(**_columns(SeatRow, row, **decoded))


class Store:
    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        # One connection is shared by every coroutine: the lock keeps one coroutine's
        # statements out of another's transaction.
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _write(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        async with self._lock:
            await self._db.execute(sql, parameters)

    async def _rows(self, sql: str, parameters: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        async with self._lock, self._db.execute(sql, parameters) as cursor:
            return list(await cursor.fetchall())

    async def _value(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        rows = await self._rows(sql, parameters)
        return rows[0][0] if rows else None

    @classmethod
    async def open(cls, path: str) -> Store:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        for pragma in ("journal_mode = WAL", "foreign_keys = ON", "busy_timeout = 5000"):
            async with connection.execute(f"PRAGMA {pragma}") as cursor:
                await cursor.fetchall()
        store = cls(connection)
        await store._migrate()
        await store.rate_unrated_matches()
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            # The version bump runs in the same transaction as the migration.
            await self._db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")

    async def schema_version(self) -> int:
        return int(await self._value("PRAGMA user_version") or 0)

    # ------------------------------------------------------------------ games

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        async with self._lock:
            return await self._open_game_in(self._db, channel_id)

    @staticmethod
    async def _open_game_in(db: aiosqlite.Connection, channel_id: int) -> GameRow | None:
        async with db.execute(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return _game(row) if row else None

    async def game(self, game_id: int) -> GameRow | None:
        """The game with this id; None for none, whatever number a forged id holds."""
        if not 0 < game_id <= MAX_ID:
            return None
        rows = await self._rows("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def running_games(self) -> list[GameRow]:
        return [
            _game(row) for row in await self._rows("SELECT * FROM games WHERE status = 'running' ORDER BY id")
        ]

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
    ) -> int:
        """A new lobby with the host seated (and, for a rematch, the other players).

        Raises ChannelBusy when the channel already has an open game, however close two
        starts come: the check and the insert share one write transaction.
        """
        async with self._transaction() as db:
            busy = await self._open_game_in(db, channel_id)
            if busy:
                raise ChannelBusy(busy)
            cursor = await db.execute(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, turn_timeout,"
                " locale, seed, created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
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
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            seated = [(host_id, host_name, host_locale)]
            seated += [player for player in players if player[0] != host_id]
            await db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name, locale) VALUES (?, ?, ?, ?, ?)",
                [(game_id, seat, *player) for seat, player in enumerate(seated)],
            )
        return game_id

    async def set_message(self, game_id: int, message_id: int) -> None:
        await self._write("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id))

    async def seats(self, game_id: int) -> list[SeatRow]:
        return [
            _seat(row)
            for row in await self._rows(
                "SELECT seats.*, dm_channels.channel_id AS dm_channel_id FROM seats"
                " LEFT JOIN dm_channels USING (user_id) WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        ]

    async def join(self, game_id: int, user_id: int, name: str, locale: str) -> None:
        await self._write(
            "INSERT INTO seats (game_id, seat, user_id, name, locale)"
            " SELECT ?, COALESCE(MAX(seat) + 1, 0), ?, ?, ? FROM seats WHERE game_id = ?",
            (game_id, user_id, name, locale, game_id),
        )

    async def add_robot(self, game_id: int, level: str, name: str) -> None:
        """A computer takes the next seat; its user id is negative, one per computer of the game."""
        await self._write(
            "INSERT INTO seats (game_id, seat, user_id, name, locale, robot)"
            " SELECT ?, COALESCE(MAX(seat) + 1, 0), MIN(MIN(user_id), 0) - 1, ?, 'en', ? FROM seats"
            " WHERE game_id = ?",
            (game_id, name, level, game_id),
        )

    async def leave_lobby(self, game_id: int, user_id: int) -> None:
        async with self._transaction() as db:
            await db.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            # Keep seats dense so join order stays seating order.
            await db.execute(
                "UPDATE seats SET seat = (SELECT COUNT(*) FROM seats AS earlier"
                " WHERE earlier.game_id = seats.game_id AND earlier.seat < seats.seat) WHERE game_id = ?",
                (game_id,),
            )

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
    ) -> None:
        """The lobby becomes a running game at version 1, with what its first deal must tell and
        its computers' first memory."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'running', state = ?, version = 1"
                " WHERE id = ? AND status = 'lobby'",
                (json.dumps(state), game_id),
            )
            if cursor.rowcount != 1:
                raise StaleVersion(game_id)
            await db.execute("UPDATE seats SET decision_since = 1 WHERE game_id = ?", (game_id,))
            await self._write_robot_states(db, game_id, robot_states or {})
            await self._write_timers(db, game_id, timers)
            if publication is not None:
                await self._write_publication(db, game_id, 1, publication)

    async def end(self, game_id: int, status: str) -> None:
        """Close a lobby or a running game without a result (cancelled, aborted)."""
        async with self._transaction() as db:
            await db.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))
            await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))

    async def commit(self, game: GameRow, change: Commit, now: float) -> int:
        """Append the action, save the new state, totals and timers; returns the new version.

        Raises StaleVersion, changing nothing, if the game moved on since ``game`` was read.
        """
        async with self._transaction() as db:
            version = game.version + 1
            cursor = await db.execute(
                "UPDATE games SET state = ?, version = ?, updated_at = ?, status = ?"
                " WHERE id = ? AND version = ? AND status = 'running'",
                (
                    json.dumps(change.state),
                    version,
                    now,
                    "finished" if change.finished else "running",
                    game.id,
                    game.version,
                ),
            )
            if cursor.rowcount != 1:
                raise StaleVersion(game.id)
            await db.execute(
                "INSERT INTO actions (game_id, number, seat, action, by_timeout, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game.id, version - 1, change.seat, json.dumps(change.action), int(change.by_timeout), now),
            )
            await db.executemany(
                "UPDATE seats SET total = ? WHERE game_id = ? AND seat = ?",
                [(total, game.id, seat) for seat, total in enumerate(change.totals)],
            )
            await db.executemany(
                "UPDATE seats SET gone = 1 WHERE game_id = ? AND seat = ?",
                [(game.id, seat) for seat in change.gone],
            )
            await db.executemany(
                "UPDATE seats SET decision_since = ? WHERE game_id = ? AND seat = ?",
                [(version, game.id, seat) for seat in change.changed_decisions],
            )
            await self._write_robot_states(db, game.id, change.robot_states)
            await self._write_timers(db, game.id, change.timers)
            if change.publication is not None:
                await self._write_publication(db, game.id, version, change.publication)
            if change.round_ended:
                await self._keep_round_totals(db, game.id, change.totals)
            await db.executemany(
                "INSERT INTO feats (game_id, seat, feat, count) VALUES (?, ?, ?, 1)"
                " ON CONFLICT (game_id, seat, feat) DO UPDATE SET count = count + 1",
                [(game.id, seat, feat) for seat, feat in change.feats],
            )
            if change.finished and change.winner is not None:
                # A computer's seat is rated as its level ('robot:hard'), with no user id.
                await db.execute(
                    "INSERT INTO results (game_id, seat, guild_id, kind, entry, user_id, name, points, won,"
                    " gone, finished_at) SELECT ?, seat, ?, ?,"
                    " CASE WHEN robot IS NULL THEN 'user:' || user_id ELSE 'robot:' || robot END,"
                    " CASE WHEN robot IS NULL THEN user_id END, name, total, seat = ?, gone, ?"
                    " FROM seats WHERE game_id = ?",
                    (game.id, game.guild_id, game.kind, change.winner, now, game.id),
                )
                await self._rate_match(db, game.id)
        return version

    @staticmethod
    async def _keep_round_totals(db: aiosqlite.Connection, game_id: int, totals: Sequence[int]) -> None:
        async with db.execute(
            "SELECT COALESCE(MAX(number), 0) + 1 FROM round_totals WHERE game_id = ?", (game_id,)
        ) as cursor:
            (number,) = await cursor.fetchone() or (1,)
        await db.executemany(
            "INSERT INTO round_totals (game_id, number, seat, total) VALUES (?, ?, ?, ?)",
            [(game_id, number, seat, total) for seat, total in enumerate(totals)],
        )

    async def round_totals(self, game_id: int) -> list[list[int]]:
        """The match totals per seat after each finished game, round or manche, in order."""
        rows = await self._rows(
            "SELECT number, seat, total FROM round_totals WHERE game_id = ? ORDER BY number, seat", (game_id,)
        )
        by_number: dict[int, list[int]] = {}
        for row in rows:
            by_number.setdefault(row["number"], []).append(row["total"])
        return list(by_number.values())

    async def set_results_message(self, game_id: int, message_id: int) -> None:
        await self._write("UPDATE games SET results_message_id = ? WHERE id = ?", (message_id, game_id))

    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any]]]:
        rows = await self._rows(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY number", (game_id,)
        )
        return [(row["seat"], json.loads(row["action"])) for row in rows]

    @staticmethod
    async def _write_robot_states(
        db: aiosqlite.Connection, game_id: int, states: Mapping[int, dict[str, Any]]
    ) -> None:
        await db.executemany(
            "UPDATE seats SET robot_state = ? WHERE game_id = ? AND seat = ?",
            [(json.dumps(state), game_id, seat) for seat, state in states.items()],
        )

    # ------------------------------------------------------------------ the outbox

    @staticmethod
    async def _write_publication(
        db: aiosqlite.Connection, game_id: int, version: int, publication: dict[str, Any]
    ) -> None:
        await db.execute(
            "INSERT INTO outbox (game_id, version, publication) VALUES (?, ?, ?)",
            (game_id, version, json.dumps(publication)),
        )

    async def pending(self, game_id: int | None = None) -> list[Pending]:
        """Publications not yet fully delivered, oldest first (of one game, or of every game)."""
        rows = await self._rows(
            "SELECT * FROM outbox WHERE ? IS NULL OR game_id = ? ORDER BY game_id, version",
            (game_id, game_id),
        )
        return [
            Pending(
                row["game_id"],
                row["version"],
                json.loads(row["publication"]),
                frozenset(json.loads(row["delivered"])),
            )
            for row in rows
        ]

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
    async def _write_timers(
        db: aiosqlite.Connection, game_id: int, timers: Sequence[tuple[int, str, str, float]]
    ) -> None:
        await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        await db.executemany(
            "INSERT INTO timers (game_id, seat, kind, decision, due_at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, *timer) for timer in timers],
        )

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self._rows("SELECT * FROM timers WHERE game_id = ? ORDER BY due_at", (game_id,))
        return [TimerRow(**dict(row)) for row in rows]

    async def due_timers(self, now: float) -> list[TimerRow]:
        rows = await self._rows("SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at", (now,))
        return [TimerRow(**dict(row)) for row in rows]

    async def next_due(self) -> float | None:
        return await self._value("SELECT MIN(due_at) FROM timers")

    async def drop_timer(self, timer: TimerRow) -> None:
        await self._write(
            "DELETE FROM timers WHERE game_id = ? AND seat = ? AND kind = ?",
            (timer.game_id, timer.seat, timer.kind),
        )

    # ------------------------------------------------------------------ ratings

    @staticmethod
    async def _rate_match(db: aiosqlite.Connection, game_id: int) -> None:
        """Rate a finished match from its results, after every match of its board finished before it."""
        async with db.execute(
            "SELECT entry, points, won, gone, guild_id, kind, finished_at FROM results"
            " WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ) as cursor:
            seats = list(await cursor.fetchall())
        board = (seats[0]["guild_id"], seats[0]["kind"])
        async with db.execute(
            LATEST_RATINGS + " SELECT entry, mu, sigma FROM board WHERE recency = 1", board
        ) as cursor:
            prior = {row["entry"]: Skill(row["mu"], row["sigma"]) for row in await cursor.fetchall()}
        order = places(
            [seat["points"] for seat in seats],
            [bool(seat["won"]) for seat in seats],
            [bool(seat["gone"]) for seat in seats],
        )
        rated = rate([(seat["entry"], place) for seat, place in zip(seats, order, strict=True)], prior)
        await db.executemany(
            "INSERT INTO ratings (game_id, entry, guild_id, kind, mu, sigma, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, entry, *board, skill.mu, skill.sigma, seats[0]["finished_at"])
                for entry, skill in rated.items()
            ],
        )

    async def rate_unrated_matches(self) -> None:
        """Rate the matches that have results but no ratings (those finished before ratings existed).

        Ratings depend on the order of matches, so each board concerned is rated again from
        its first match, in the order they finished.
        """
        boards = await self._rows(
            "SELECT DISTINCT guild_id, kind FROM results WHERE game_id NOT IN (SELECT game_id FROM ratings)"
        )
        for board in boards:
            key = (board["guild_id"], board["kind"])
            async with self._transaction() as db:
                await db.execute("DELETE FROM ratings WHERE guild_id = ? AND kind = ?", key)
                async with db.execute(
                    "SELECT game_id FROM results WHERE guild_id = ? AND kind = ?"
                    " GROUP BY game_id ORDER BY MIN(finished_at), game_id",
                    key,
                ) as cursor:
                    matches = [row["game_id"] for row in await cursor.fetchall()]
                for game_id in matches:
                    await self._rate_match(db, game_id)

    async def rating_board(self, guild_id: int, kind: str, limit: int = 10) -> list[RatedStanding]:
        """People by conservative rating (mu - 3 sigma); computer players are left out."""
        rows = await self._rows(
            LATEST_RATINGS + " SELECT CAST(SUBSTR(entry, 6) AS INTEGER) AS user_id, mu, sigma, matches,"
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
        rows = await self._rows(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND kind = ? AND entry = ?"
            " ORDER BY finished_at, game_id",
            (guild_id, kind, entry),
        )
        return [Skill(row["mu"], row["sigma"]) for row in rows]

    # ------------------------------------------------------------------ history and stats

    async def player_record(self, guild_id: int, user_id: int, kind: str | None) -> PlayerRecord | None:
        rows = await self._rows(
            "SELECT (SELECT name FROM results AS latest WHERE latest.guild_id = ? AND latest.user_id = ?"
            " ORDER BY finished_at DESC LIMIT 1) AS name,"
            " COUNT(*) AS matches, SUM(won) AS wins, MAX(points) AS best_total"
            " FROM results WHERE guild_id = ? AND user_id = ? AND (? IS NULL OR kind = ?)",
            (guild_id, user_id, guild_id, user_id, kind, kind),
        )
        row = rows[0]
        if not row["matches"]:
            return None
        return PlayerRecord(row["name"], row["matches"], row["wins"], row["best_total"])

    async def kinds_played(self, guild_id: int, user_id: int) -> list[str]:
        rows = await self._rows(
            "SELECT DISTINCT kind FROM results WHERE guild_id = ? AND user_id = ? ORDER BY kind",
            (guild_id, user_id),
        )
        return [row["kind"] for row in rows]

    async def last_results(
        self, guild_id: int, user_id: int, kind: str | None, limit: int = 5
    ) -> list[PastResult]:
        rows = await self._rows(
            "SELECT game_id, kind, points, won, finished_at FROM results"
            " WHERE guild_id = ? AND user_id = ? AND (? IS NULL OR kind = ?)"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            (guild_id, user_id, kind, kind, limit),
        )
        return [
            PastResult(row["game_id"], row["kind"], row["points"], bool(row["won"]), row["finished_at"])
            for row in rows
        ]

    async def feat_counts(self, guild_id: int, user_id: int, kind: str) -> dict[str, int]:
        """How often the player made each feat in their finished matches of ``kind``."""
        rows = await self._rows(
            "SELECT feat, SUM(count) AS total FROM feats JOIN results USING (game_id, seat)"
            " WHERE results.guild_id = ? AND results.user_id = ? AND results.kind = ? GROUP BY feat",
            (guild_id, user_id, kind),
        )
        return {row["feat"]: row["total"] for row in rows}

    async def points_per_round(self, guild_id: int, user_id: int, kind: str) -> float | None:
        """Match points over rounds played, for the matches whose rounds were kept."""
        rows = await self._rows(
            "SELECT SUM(points) AS points, SUM(rounds) AS rounds FROM ("
            " SELECT results.points, (SELECT COUNT(DISTINCT number) FROM round_totals"
            " WHERE round_totals.game_id = results.game_id) AS rounds FROM results"
            " WHERE guild_id = ? AND user_id = ? AND kind = ?) WHERE rounds > 0",
            (guild_id, user_id, kind),
        )
        row = rows[0]
        return row["points"] / row["rounds"] if row["rounds"] else None

    async def finished_matches(self, guild_id: int, kind: str | None, limit: int = 10) -> list[FinishedMatch]:
        """The board's last finished matches, newest first."""
        rows = await self._rows(
            "SELECT results.game_id, results.kind, games.guild_id, games.channel_id,"
            " COALESCE(games.results_message_id, games.message_id) AS message_id, results.finished_at,"
            " results.name, results.points, results.won, results.gone"
            " FROM results JOIN games ON games.id = results.game_id"
            " WHERE results.game_id IN (SELECT game_id FROM results"
            " WHERE guild_id = ? AND (? IS NULL OR kind = ?)"
            " GROUP BY game_id ORDER BY MIN(finished_at) DESC, game_id DESC LIMIT ?)"
            " ORDER BY results.finished_at DESC, results.game_id DESC, results.points DESC, results.seat",
            (guild_id, kind, kind, limit),
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
        rows = await self._rows(
            "SELECT user_id, (SELECT name FROM results AS latest WHERE latest.user_id = results.user_id"
            " AND latest.guild_id = results.guild_id ORDER BY finished_at DESC LIMIT 1) AS name,"
            " COUNT(*) AS games, SUM(won) AS wins, SUM(points) AS points"
            " FROM results WHERE guild_id = ? AND (? IS NULL OR kind = ?) AND user_id IS NOT NULL"
            " GROUP BY user_id ORDER BY wins DESC, points DESC, games ASC LIMIT ?",
            (guild_id, kind, kind, limit),
        )
        return [
            Standing(row["user_id"], row["name"], row["games"], row["wins"], row["points"]) for row in rows
        ]
