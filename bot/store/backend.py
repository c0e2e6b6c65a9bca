"""What the Store asks of a database: run SQL, in transactions, and apply migrations.

Queries are written once, with ``?`` placeholders, in the Store; a backend owns only what
differs between databases: connecting, transactions, placeholders, the dialect bits below.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, NamedTuple, Protocol


class Row(Protocol):
    """A row as both drivers give it (sqlite3's Row, asyncpg's Record): by column name, or by
    position for a query's single value."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Statement(NamedTuple):
    """One statement of a batch the backend may send to the database in one go (a tuple: a move
    builds a dozen of them, and a frozen dataclass costs several times as much to make)."""

    sql: str
    parameters: Sequence[Any] = ()
    # A statement run once per row gets its rows of parameters here instead.
    rows: Sequence[Sequence[Any]] | None = None
    # The number of rows it must change: any other rolls the whole transaction back.
    changes: int | None = None


class WrongRowCount(Exception):
    """A statement of a batch changed another number of rows than it had to; nothing was written."""


class Executor(Protocol):
    """Runs statements: inside one transaction, or each statement on its own."""

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]: ...

    async def run(self, statements: Sequence[Statement]) -> None:
        """Run the statements in order (raises WrongRowCount, see Statement.changes)."""


class Backend(ABC):
    """One database; every statement run on it directly commits on its own."""

    # Ends a SELECT of rows that exactly one process may take (the due timers): locks what it
    # returns and passes over what another transaction holds. Empty where writers take turns.
    lock_rows: str = ""
    # Raised when a statement breaks a unique constraint or index.
    unique_violation: tuple[type[Exception], ...] = ()

    @property
    @abstractmethod
    def schema_fields(self) -> Mapping[str, str]:
        """The column types the migrations leave to the dialect (see bot/store/schema.py)."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Executor]:
        """Statements that commit together, or not at all if the block raises."""

    async def run(
        self, statements: Sequence[Statement], then: Callable[[Executor], Awaitable[None]] | None = None
    ) -> None:
        """The statements in one transaction, followed in it by ``then`` if given (what needs
        answers from the database to go on)."""
        async with self.transaction() as db:
            await db.run(statements)
            if then is not None:
                await then(db)

    @abstractmethod
    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int: ...

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def fetch_many(self, queries: Sequence[Statement]) -> list[list[Row]]:
        """The rows of several queries, read from one snapshot of the database: a commit landing
        while they are read shows in all of them or in none."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def migrate(self, migrations: Sequence[str]) -> None:
        """Apply the migrations past the schema's version, each with its version bump."""

    @abstractmethod
    async def after_copy(self, db: Executor) -> None:
        """Rows were copied in with their ids in the transaction ``db``: in it, the next id the
        database numbers is set to follow them."""

    @abstractmethod
    async def close(self) -> None: ...
