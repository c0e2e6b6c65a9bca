"""SQLite through aiosqlite: one file, one connection, one writer at a time."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from graphlib import TopologicalSorter
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.backend import Backend, Executor, Row


class _Connection(Executor):
    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        async with self._db.execute(sql, parameters) as cursor:
            return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        async with self._db.execute(sql, parameters) as cursor:
            return list(await cursor.fetchall())


class SQLiteBackend(Backend):
    unique_violation = (sqlite3.IntegrityError,)

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = _Connection(connection)
        self._db = connection
        # One connection is shared by every coroutine: the lock keeps one coroutine's
        # statements out of another's transaction.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> SQLiteBackend:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        for pragma in ("journal_mode = WAL", "foreign_keys = ON", "busy_timeout = 5000"):
            async with connection.execute(f"PRAGMA {pragma}") as cursor:
                await cursor.fetchall()
        return cls(connection)

    @property
    def schema_fields(self) -> Mapping[str, str]:
        # INTEGER PRIMARY KEY is SQLite's rowid: numbered by the database, 64-bit.
        return {"auto_id": "INTEGER PRIMARY KEY"}

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        async with self._lock:
            # IMMEDIATE takes the write lock up front: a transaction that reads then writes
            # never finds another process's write in between.
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._connection
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        async with self._lock:
            return await self._connection.execute(sql, parameters)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self._lock:
            await self._connection.executemany(sql, rows)

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            return await self._connection.fetch(sql, parameters)

    async def schema_version(self) -> int:
        (row,) = await self.fetch("PRAGMA user_version")
        return int(row[0])

    async def migrate(self, migrations: Sequence[str]) -> None:
        current = await self.schema_version()
        async with self._lock:
            for number, script in enumerate(migrations[current:], start=current + 1):
                # The version bump runs in the same transaction as the migration.
                await self._db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")

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

    async def after_copy(self) -> None:
        """Nothing to do: SQLite numbers a new rowid past the largest one."""

    async def close(self) -> None:
        await self._db.close()
