"""All SQL of the bot, written once for every database (see bot/store/backend.py), by concern:
games and their moves (``games.py``), the outbox, timers, records and ratings, a server's
settings and players' preferences (``community.py``), heartbeats, the application commands last
synced; ``Store`` composes them over one backend.

The database is the truth. Every accepted action is appended to the game's action log
and the new state committed in one transaction, before the bot answers anyone.
"""

from __future__ import annotations

from bot.store.backend import Backend
from bot.store.command_syncs import CommandSyncs
from bot.store.community import CommunityStore
from bot.store.games import Games
from bot.store.heartbeats import Heartbeats
from bot.store.outbox import Outbox
from bot.store.records import Records
from bot.store.rows import ALL_SHARDS, Shards
from bot.store.schema import MIGRATIONS
from bot.store.seasons import Seasons
from bot.store.sqlite import SQLiteBackend
from bot.store.timers import TimerStore
from bot.store.tournaments import Tournaments
from bot.store.turns import Turns

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


async def open_backend(database: str) -> Backend:
    """The database ``database`` names (an SQLite file's path, or a ``postgresql://`` URL), as it is."""
    if database.startswith(POSTGRES_SCHEMES):
        # Imported here: a bot on SQLite never loads asyncpg (a tenth of a second at start-up).
        from bot.store.postgres import PostgresBackend

        return await PostgresBackend.open(database)
    return await SQLiteBackend.open(database)


class Store:
    """The database, by concern: ``games``, ``outbox``, ``timers``, ``records``, ``seasons``,
    ``tournaments``, ``community``, ``heartbeats``, ``command_syncs``, ``turns`` (a player's games
    across servers), each over the same backend."""

    def __init__(self, backend: Backend, shards: Shards = ALL_SHARDS) -> None:
        self._db = backend
        self.games = Games(backend, shards)
        self.outbox = Outbox(backend, shards)
        self.timers = TimerStore(backend, shards)
        self.records = Records(backend, shards)
        self.seasons = Seasons(backend, shards)
        self.tournaments = Tournaments(backend, shards)
        self.community = CommunityStore(backend)
        self.heartbeats = Heartbeats(backend)
        self.command_syncs = CommandSyncs(backend)
        self.turns = Turns(backend, shards)

    @classmethod
    async def open(cls, database: str, shards: Shards = ALL_SHARDS) -> Store:
        """The store in ``database``: an SQLite file's path, or a ``postgresql://`` URL; migrated."""
        backend = await open_backend(database)
        await backend.migrate([script.format_map(backend.schema_fields) for script in MIGRATIONS])
        store = cls(backend, shards)
        await store.records.rate_unrated_matches()
        return store

    @property
    def backend(self) -> Backend:
        return self._db

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        return await self._db.schema_version()
