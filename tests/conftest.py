"""Shared fixtures: the real bot, on a temporary database, with seeded deals."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable

import pytest

from bot.client import GameBot
from bot.config import Settings


@pytest.fixture
def database_path(tmp_path) -> str:
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
async def make_bot(database_path) -> AsyncIterator[Callable[[], GameBot]]:
    """A fresh bot on the same database: call it again to simulate a restart.

    SimCord detaches bots without closing them; their stores are closed here, or the
    database threads would outlive a failed test and keep the test run from exiting.
    """
    seeds = itertools.count(1000)
    made: list[GameBot] = []

    def make() -> GameBot:
        settings = Settings(token=None, database_path=database_path, dev_guild_id=None, log_level="INFO")
        made.append(GameBot(settings, seed_source=lambda: next(seeds)))
        return made[-1]

    yield make
    for bot in made:
        if hasattr(bot, "timers"):
            bot.timers.stop()
        if hasattr(bot, "store"):
            await bot.store.close()


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()
