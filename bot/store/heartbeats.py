"""Each bot process's last sign of life, for a supervisor's health check (``python -m bot.health``).

Kept in the database rather than a file: a heartbeat written there says the database answered the
bot, it is found wherever the check runs (PostgreSQL may be on another machine), and the check
needs nothing but the bot's own configuration.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.backend import Backend


@dataclass(frozen=True)
class Heartbeat:
    at: float  # seconds since the epoch
    gateway: bool  # the process was connected to Discord's gateway then


class Heartbeats:
    def __init__(self, backend: Backend) -> None:
        self._db = backend

    async def beat(self, process: str, gateway: bool, now: float) -> None:
        """The process ``process`` is alive at ``now``, its gateway connected or not."""
        await self._db.execute(
            "INSERT INTO heartbeats (process, at, gateway) VALUES (?, ?, ?)"
            " ON CONFLICT (process) DO UPDATE SET at = excluded.at, gateway = excluded.gateway",
            (process, now, int(gateway)),
        )

    async def last(self, process: str) -> Heartbeat | None:
        """The process's last heartbeat; None if it never wrote one."""
        rows = await self._db.fetch("SELECT at, gateway FROM heartbeats WHERE process = ?", (process,))
        return Heartbeat(float(rows[0]["at"]), bool(rows[0]["gateway"])) if rows else None

    async def pending_announcements(self) -> int:
        """Publications committed and not yet delivered (the outbox), over every process."""
        rows = await self._db.fetch("SELECT COUNT(*) FROM outbox")
        return int(rows[0][0])
