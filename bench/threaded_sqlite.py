"""The SQLite backend as it was before issue 22 (commit 01a1d51), kept only for
bench/store_commit.py to compare against: a hand-written connection thread fed by a queue, a
move's whole commit in one hop; only the table order of a copy (``tables``) is left out. The bot
runs bot/store/sqlite.py (aiosqlite).

SQLite on a thread of its own: one file, one connection, one writer at a time.

Every call from the event loop is one hop to the connection's thread, whatever it runs: a
query with its rows, or a whole batch of statements with its transaction. A move's commit is one
hop (aiosqlite, used before, took two to three hops per statement and offers no public way to run
several statements in one).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from queue import SimpleQueue
from threading import Thread
from typing import Any, TypeVar

from bot.store.backend import Backend, Executor, Row, Statement, WrongRowCount

Result = TypeVar("Result")

# WAL lets readers go on while a move commits; NORMAL syncs at checkpoints rather than at every
# commit, which in WAL mode still survives a crash of the bot (a power cut may lose the last moves).
PRAGMAS = ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON", "busy_timeout = 5000")


def _fetch(db: sqlite3.Connection, sql: str, parameters: Sequence[Any]) -> list[Row]:
    return db.execute(sql, parameters).fetchall()


def _execute(db: sqlite3.Connection, sql: str, parameters: Sequence[Any]) -> int:
    return db.execute(sql, parameters).rowcount


def _executemany(db: sqlite3.Connection, sql: str, rows: Iterable[Sequence[Any]]) -> None:
    db.executemany(sql, rows)


def _fetch_many(db: sqlite3.Connection, queries: Sequence[Statement]) -> list[list[Row]]:
    # A read transaction: every query sees the same snapshot.
    db.execute("BEGIN")
    try:
        return [_fetch(db, query.sql, query.parameters) for query in queries]
    finally:
        db.execute("COMMIT")


def run_statements(db: sqlite3.Connection, statements: Sequence[Statement]) -> None:
    for statement in statements:
        if statement.rows is not None:
            if statement.rows:
                db.executemany(statement.sql, statement.rows)
            continue
        changed = _execute(db, statement.sql, statement.parameters)
        if statement.changes is not None and changed != statement.changes:
            raise WrongRowCount(statement.sql)


def _answer(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the caller was cancelled
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class _ConnectionThread:
    """The one thread the connection is used on. Work comes in a queue and its answer goes back to
    the caller's loop: lighter than an executor's futures, and a hop is most of a move's commit."""

    def __init__(self) -> None:
        self._calls: SimpleQueue[tuple[asyncio.Future[Any], Callable[[], Any]] | None] = SimpleQueue()
        # A daemon: a store left open does not keep the process alive (SQLite survives the cut).
        Thread(target=self._serve, name="sqlite", daemon=True).start()

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            future, work = call
            try:
                result, error = work(), None
            except BaseException as failure:
                result, error = None, failure
            future.get_loop().call_soon_threadsafe(_answer, future, result, error)

    async def call(self, work: Callable[[], Result]) -> Result:
        future: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self._calls.put((future, work))
        return await future

    def stop(self) -> None:
        self._calls.put(None)


def connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.row_factory = sqlite3.Row
    for pragma in PRAGMAS:
        db.execute(f"PRAGMA {pragma}").fetchall()
    return db


class _Transaction(Executor):
    """The statements of one transaction; BEGIN goes with the first of them, in the same hop."""

    def __init__(self, backend: ThreadedSQLiteBackend) -> None:
        self._backend = backend
        self.begun = False

    async def _call(self, work: Callable[..., Result], *args: Any) -> Result:
        if self.begun:
            return await self._backend.call(work, *args)

        def begin_then(db: sqlite3.Connection, *arguments: Any) -> Result:
            # IMMEDIATE takes the write lock up front: a transaction that reads then writes
            # never finds another process's write in between.
            db.execute("BEGIN IMMEDIATE")
            self.begun = True
            return work(db, *arguments)

        return await self._backend.call(begin_then, *args)

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        return await self._call(_execute, sql, parameters)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._call(_executemany, sql, list(rows))

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        return await self._call(_fetch, sql, parameters)

    async def run(self, statements: Sequence[Statement]) -> None:
        await self._call(run_statements, statements)


class ThreadedSQLiteBackend(Backend):
    unique_violation = (sqlite3.IntegrityError,)

    def __init__(self, thread: _ConnectionThread) -> None:
        # The connection lives on this one thread and is only ever used there.
        self._thread = thread
        self._db: sqlite3.Connection | None = None
        # One connection is shared by every coroutine: the lock keeps one coroutine's
        # statements out of another's transaction.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> ThreadedSQLiteBackend:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        thread = _ConnectionThread()
        backend = cls(thread)
        backend._db = await thread.call(lambda: connect(path))
        return backend

    async def call(self, work: Callable[..., Result], *args: Any) -> Result:
        """``work(connection, *args)`` on the connection's thread: one hop."""

        def on_thread() -> Result:
            assert self._db is not None
            return work(self._db, *args)

        return await self._thread.call(on_thread)

    @property
    def schema_fields(self) -> Mapping[str, str]:
        # INTEGER PRIMARY KEY is SQLite's rowid: numbered by the database, 64-bit.
        return {"auto_id": "INTEGER PRIMARY KEY"}

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        async with self._lock:
            transaction = _Transaction(self)
            try:
                yield transaction
            except BaseException:
                if transaction.begun:
                    await self.call(_execute, "ROLLBACK", ())
                raise
            if transaction.begun:
                await self.call(_execute, "COMMIT", ())

    async def run(
        self, statements: Sequence[Statement], then: Callable[[Executor], Awaitable[None]] | None = None
    ) -> None:
        if then is not None:
            await super().run(statements, then)
            return

        def in_one_transaction(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            try:
                run_statements(db, statements)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

        async with self._lock:
            await self.call(in_one_transaction)

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        async with self._lock:
            return await self.call(_execute, sql, parameters)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self._lock:
            await self.call(_executemany, sql, list(rows))

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            return await self.call(_fetch, sql, parameters)

    async def fetch_many(self, queries: Sequence[Statement]) -> list[list[Row]]:
        async with self._lock:
            return await self.call(_fetch_many, queries)

    async def schema_version(self) -> int:
        (row,) = await self.fetch("PRAGMA user_version")
        return int(row[0])

    async def migrate(self, migrations: Sequence[str]) -> None:
        current = await self.schema_version()
        async with self._lock:
            for number, script in enumerate(migrations[current:], start=current + 1):
                # The version bump runs in the same transaction as the migration.
                await self.call(
                    lambda db, script, number: db.executescript(
                        f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;"
                    ),
                    script,
                    number,
                )

    async def after_copy(self, db: Executor) -> None:
        """Nothing to do: SQLite numbers a new rowid past the largest one."""

    async def close(self) -> None:
        if self._db is not None:
            await self.call(lambda db: db.close())
            self._db = None
        self._thread.stop()
