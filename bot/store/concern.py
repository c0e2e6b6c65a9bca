"""What each of the store's concerns shares: the backend, this process's shards, two shorthands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.backend import Backend
from bot.store.rows import Shards

# Both databases' integers are 64-bit signed: a larger id names no row.
MAX_ID = 2**63 - 1


class Concern:
    """One concern's queries (games, the outbox, timers, records) over the backend they all share,
    composed by ``Store``."""

    def __init__(self, db: Backend, shards: Shards) -> None:
        self._db = db
        self.shards = shards

    async def _write(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        await self._db.execute(sql, parameters)

    async def _value(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        rows = await self._db.fetch(sql, parameters)
        return rows[0][0] if rows else None

    def _in_my_shards(self) -> tuple[str, list[int]]:
        """SQL true for the game ids of this process's shards, and its parameters."""
        condition, parameters = self.shards.condition()
        return f"game_id IN (SELECT id FROM games WHERE {condition})", parameters
