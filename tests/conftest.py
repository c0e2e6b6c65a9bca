"""Shared fixtures: the real bot, on a temporary database, with seeded deals."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from bot.client import GameBot
from bot.config import Settings


@pytest.fixture
def database_path(tmp_path) -> str:
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def make_bot(database_path) -> Callable[[], GameBot]:
    """A fresh bot on the same database: call it again to simulate a restart."""
    seeds = itertools.count(1000)

    def make() -> GameBot:
        settings = Settings(token=None, database_path=database_path, dev_guild_id=None, log_level="INFO")
        return GameBot(settings, seed_source=lambda: next(seeds))

    return make


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()
