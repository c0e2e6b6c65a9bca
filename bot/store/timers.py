"""Timers: reminders, expiries and computers' moves, claimed by one process at a time."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from bot.store.backend import Backend, Statement
from bot.store.concern import Concern
from bot.store.rows import (
    Shards,
    TimerRow,
    read_timer,
)

# A due timer taken by one process is left to it this long (see the timers table); the process
# renews the lease while it works (see TimerService), so the lease is only how long another
# process waits for one that died without starting again.
TIMER_LEASE = 15.0
TIMERS_QUERY = "SELECT * FROM timers WHERE game_id = ? ORDER BY due_at"


class TimerStore(Concern):
    def __init__(self, db: Backend, shards: Shards) -> None:
        super().__init__(db, shards)
        # Names this process's timer claims: one store is opened per process start.
        self.process_id = secrets.token_hex(8)

    @staticmethod
    def statements(game_id: int, timers: Sequence[tuple[int, str, str, float]]) -> list[Statement]:
        return [
            Statement("DELETE FROM timers WHERE game_id = ?", (game_id,)),
            Statement(
                "INSERT INTO timers (game_id, seat, kind, decision, due_at) VALUES (?, ?, ?, ?, ?)",
                rows=[(game_id, *timer) for timer in timers],
            ),
        ]

    async def timers(self, game_id: int) -> list[TimerRow]:
        return [read_timer(row) for row in await self._db.fetch(TIMERS_QUERY, (game_id,))]

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
        return sorted(map(read_timer, rows), key=lambda timer: timer.due_at)

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

    async def drop_timer(self, timer: TimerRow) -> None:
        """The timer as it was taken; not one planned since in its place."""
        await self._write(
            "DELETE FROM timers WHERE game_id = ? AND seat = ? AND kind = ? AND due_at = ?",
            (timer.game_id, timer.seat, timer.kind, timer.due_at),
        )
