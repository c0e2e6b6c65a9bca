"""SQLite through aiosqlite: one file, one connection, one writer at a time.

Every statement is one hop to aiosqlite's thread (its public API runs one statement per call),
so the store sends as few as SQL allows: a move's commit is BEGIN, its statements, COMMIT.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import threading
import weakref
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from graphlib import TopologicalSorter
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.backend import Backend, Executor, Row, Statement, WrongRowCount

# Connections not closed yet: see _stop_at_exit.
_open_connections: weakref.WeakSet[aiosqlite.Connection] = weakref.WeakSet()


def _stop_at_exit() -> None:
    """aiosqlite's thread is not a daemon: a store left open (a crash before the bot's close)
    would keep the process from ever exiting. The main thread is done when the interpreter
    begins to wait for the other threads; each connection's thread is then told to stop (it
    closes its connection first: SQLite rolls back what was not committed)."""
    threading.main_thread().join()
    for connection in list(_open_connections):
        connection.stop()


@functools.cache
def _watch_exit() -> None:
    """One watcher for the process, started with its first connection."""
    threading.Thread(target=_stop_at_exit, name="sqlite-exit", daemon=True).start()


# WAL lets readers go on while a move commits; NORMAL syncs at checkpoints rather than at every
# commit, which in WAL mode still survives a crash of the bot (a power cut may lose the last moves).
PRAGMAS = ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON", "busy_timeout = 5000")


class _Statements(Executor):
    """The connection's statements, each one hop; the backend decides when they may run."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        # Not closed: closing a cursor is one more hop, and a finished statement holds nothing.
        return (await self._db.execute(sql, parameters)).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        return await self._db.execute_fetchall(sql, parameters)  # type: ignore[return-value]

    async def run(self, statements: Sequence[Statement]) -> None:
        for statement in statements:
            if statement.rows is not None:
                if statement.rows:
                    await self._db.executemany(statement.sql, statement.rows)
                continue
            changed = await self.execute(statement.sql, statement.parameters)
            if statement.changes is not None and changed != statement.changes:
                raise WrongRowCount(statement.sql)


class SQLiteBackend(Backend):
    unique_violation = (sqlite3.IntegrityError,)

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._statements = _Statements(connection)
        # One connection is shared by every coroutine: each call takes the lock, so no coroutine's
        # statement lands inside another's open transaction.
        self._lock = asyncio.Lock()
        # The columns of each query read by fetch_many, by its SQL.
        self._columns: dict[str, tuple[str, ...]] = {}

    @classmethod
    async def open(cls, path: str) -> SQLiteBackend:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # No implicit transactions: a statement on its own commits, a transaction says BEGIN.
        connection = await aiosqlite.connect(path, isolation_level=None)
        _open_connections.add(connection)
        _watch_exit()
        try:
            connection.row_factory = aiosqlite.Row
            for pragma in PRAGMAS:
                await connection.execute_fetchall(f"PRAGMA {pragma}")
        except BaseException:
            await connection.close()
            raise
        return cls(connection)

    @property
    def schema_fields(self) -> Mapping[str, str]:
        # INTEGER PRIMARY KEY is SQLite's rowid: numbered by the database, 64-bit.
        return {"auto_id": "INTEGER PRIMARY KEY"}

    @asynccontextmanager
    async def _holding(self, begin: str) -> AsyncIterator[Executor]:
        """The lock, and a transaction that commits if the block ends well and otherwise rolls
        back. aiosqlite queues a call as it is made and runs its queue in order: a ROLLBACK asked
        for when the block is cancelled mid-statement runs before whatever follows the lock's
        release, even if this coroutine is cancelled again while it waits for it."""
        async with self._lock:
            try:
                await self._db.execute(begin)
                yield self._statements
            except BaseException:
                # A no-op when BEGIN itself failed: sqlite3 rolls back only an open transaction.
                await self._db.rollback()
                raise
            try:
                await self._db.commit()
            except BaseException:
                # A COMMIT that failed (a busy or full disk) leaves the transaction open.
                await self._db.rollback()
                raise

    def transaction(self) -> AbstractAsyncContextManager[Executor]:
        # IMMEDIATE takes the write lock up front: a transaction that reads then writes never
        # finds another process's write in between.
        return self._holding("BEGIN IMMEDIATE")

    async def fetch_many(self, queries: Sequence[Statement]) -> list[list[Row]]:
        """The queries as one statement: one hop, and one snapshot of the database without a
        transaction around it (a SELECT reads from one). Each query's rows are an arm of a
        UNION ALL, led by the query's number and padded to the widest query's columns, then told
        apart again here. A compound SELECT need not keep its arms' order: callers order the rows
        (see ``Games.snapshot``)."""
        async with self._lock:
            try:
                names, rows = await self._fetch_merged(queries)
            except sqlite3.OperationalError:
                # Arms of unequal widths: another process added columns since they were learnt.
                self._columns.clear()
                names, rows = await self._fetch_merged(queries)
        found: list[list[Row]] = [[] for _ in queries]
        for row in rows:
            number = row[0]
            # Not strict: the padding past the query's own columns is left out.
            found[number].append(dict(zip(names[number], row[1:], strict=False)))
        return found

    async def _fetch_merged(
        self, queries: Sequence[Statement]
    ) -> tuple[list[tuple[str, ...]], Iterable[sqlite3.Row]]:
        names = [await self._column_names(query) for query in queries]
        width = max(map(len, names))
        merged = " UNION ALL ".join(
            f"SELECT {number}, *{', NULL' * (width - len(columns))} FROM ({query.sql})"
            for number, (query, columns) in enumerate(zip(queries, names, strict=True))
        )
        parameters = [parameter for query in queries for parameter in query.parameters]
        return names, await self._db.execute_fetchall(merged, parameters)

    async def _column_names(self, query: Statement) -> tuple[str, ...]:
        """The columns a query returns; learnt once per query, from a run that returns no row."""
        names = self._columns.get(query.sql)
        if names is None:
            cursor = await self._db.execute(f"SELECT * FROM ({query.sql}) LIMIT 0", query.parameters)
            names = self._columns[query.sql] = tuple(column[0] for column in cursor.description)
            await cursor.close()
        return names

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        async with self._lock:
            return await self._statements.execute(sql, parameters)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self._lock:
            await self._statements.executemany(sql, rows)

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            return await self._statements.fetch(sql, parameters)

    async def schema_version(self) -> int:
        (row,) = await self.fetch("PRAGMA user_version")
        return int(row[0])

    async def migrate(self, migrations: Sequence[str]) -> None:
        current = await self.schema_version()
        async with self._lock:
            for number, script in enumerate(migrations[current:], start=current + 1):
                # The version bump runs in the same transaction as the migration.
                try:
                    await self._db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
                except BaseException:
                    await self._db.rollback()
                    raise

    async def tables(self) -> list[str]:
        """The database's tables, each after the tables it references (the order to copy them in)."""
        names = [
            row[0]
            for row in await self.fetch(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        references = {
            name: {row["table"] for row in await self.fetch(f'PRAGMA foreign_key_list("{name}")')}
            for name in names
        }
        return list(TopologicalSorter(references).static_order())

    async def after_copy(self, db: Executor) -> None:
        """Nothing to do: SQLite numbers a new rowid past the largest one."""

    async def close(self) -> None:
        # After the transaction under way, if any: closing would roll it back.
        async with self._lock:
            await self._db.close()
        _open_connections.discard(self._db)
