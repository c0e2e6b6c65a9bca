"""A server's seasons: one runs at a time; a match counts in the season running when its game was
opened, if it finished before that season ended (``Records.results_statements``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.backend import Row
from bot.store.concern import MAX_ID, Concern


@dataclass(frozen=True)
class Season:
    id: int
    guild_id: int
    name: str
    started_at: float
    ended_at: float | None  # None while it runs

    @property
    def running(self) -> bool:
        return self.ended_at is None


def read_season(row: Row) -> Season:
    return Season(row["id"], row["guild_id"], row["name"], row["started_at"], row["ended_at"])


class SeasonAlreadyRunning(Exception):
    """Another process opened a season for the server at the same moment."""


class Seasons(Concern):
    async def running(self, guild_id: int) -> Season | None:
        rows = await self._db.fetch(
            "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        )
        return read_season(rows[0]) if rows else None

    async def season(self, guild_id: int, season_id: int) -> Season | None:
        """The server's season with this id; None for another server's, or none."""
        if not 0 < season_id <= MAX_ID:
            return None
        rows = await self._db.fetch(
            "SELECT * FROM seasons WHERE id = ? AND guild_id = ?", (season_id, guild_id)
        )
        return read_season(rows[0]) if rows else None

    async def of_guild(self, guild_id: int, limit: int = 25) -> list[Season]:
        """The server's seasons, the newest first."""
        rows = await self._db.fetch(
            "SELECT * FROM seasons WHERE guild_id = ? ORDER BY started_at DESC, id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [read_season(row) for row in rows]

    async def start(self, guild_id: int, name: str, now: float) -> tuple[Season, Season | None]:
        """A new season, the running one (if any) closed at the same moment in the same
        transaction; returns the new season and the one it closed."""
        try:
            async with self._db.transaction() as db:
                closed = await db.fetch(
                    "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND ended_at IS NULL RETURNING *",
                    (now, guild_id),
                )
                (row,) = await db.fetch(
                    "INSERT INTO seasons (guild_id, name, started_at) VALUES (?, ?, ?) RETURNING *",
                    (guild_id, name, now),
                )
        except self._db.unique_violation:
            raise SeasonAlreadyRunning(guild_id) from None
        return read_season(row), read_season(closed[0]) if closed else None

    async def end(self, guild_id: int, now: float) -> Season | None:
        """Close the running season; None when none ran."""
        rows = await self._db.fetch(
            "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND ended_at IS NULL RETURNING *",
            (now, guild_id),
        )
        return read_season(rows[0]) if rows else None
