"""Shared fixtures: the real bot, on a temporary database, with seeded deals."""

from __future__ import annotations

import asyncio
import importlib
import itertools
import sys
import tempfile
import uuid
import warnings
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.client import GameBot, bot_for
from bot.config import Settings
from bot.game_catalogue import GAME_EXTENSIONS
from bot.store import Store


@pytest.fixture(scope="session")
def postgres_server(testrun_uid) -> Any:
    """One PostgreSQL server for the whole run, started from the pgserver package.

    The xdist workers share it: each asks pgserver for the server in the same data folder and
    the first one starts it (pgserver runs it as its own system user when we are root, which
    PostgreSQL requires); the last one to finish stops it and deletes the folder. The folder is
    not under pytest's temporary folder, which only its owner may enter.
    """
    with warnings.catch_warnings():
        # platformdirs warns about an unset XDG_RUNTIME_DIR (CI, containers); pgserver copes.
        warnings.simplefilter("ignore")
        import pgserver

    data = Path(tempfile.gettempdir()) / f"tabletop-postgres-{testrun_uid}"
    # Made here, as the workers may come together: pgserver would insist on making it itself.
    data.mkdir(exist_ok=True)
    server = pgserver.get_server(data, cleanup_mode="delete")
    # Durability buys nothing in a throwaway test server, and fsync is what makes it slow.
    server.psql("ALTER SYSTEM SET fsync = off; ALTER SYSTEM SET synchronous_commit = off;")
    server.psql("SELECT pg_reload_conf();")
    return server


@pytest.fixture
def postgres_database(postgres_server) -> Iterator[str]:
    """The URL of a new, empty database on the test server."""
    name = f"test_{uuid.uuid4().hex}"
    postgres_server.psql(f'CREATE DATABASE "{name}";')
    url = urlsplit(postgres_server.get_uri())
    yield urlunsplit(url._replace(path=f"/{name}"))
    postgres_server.psql(f'DROP DATABASE "{name}" WITH (FORCE);')


BACKENDS = ("sqlite", "postgresql")


def database_for(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database on the backend ``request.param`` names: an SQLite file's path, or a URL."""
    if request.param == "postgresql":
        return request.getfixturevalue("postgres_database")
    return str(tmp_path / "games.sqlite3")


@pytest.fixture(params=["sqlite"])
def database(request, tmp_path) -> str:
    """Where the bot keeps its games: SQLite, or whichever backend a test parametrizes
    (``@pytest.mark.parametrize("database", BACKENDS, indirect=True)``)."""
    return database_for(request, tmp_path)


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    """The store, opened on the test's database (both backends where a module's ``database``
    fixture has ``params=BACKENDS``)."""
    opened = await Store.open(database)
    yield opened
    await opened.close()


# Work that takes milliseconds: on the event loop it would hold every other channel up.
SLOW_WORK = (
    ("bot.render", "_encoded"),  # drawing and encoding a picture
    ("bot.charts", "draw_scores"),
    ("bot.charts", "draw_ratings"),
    ("games.rummikub.engine", "best_play"),  # the solver, for a hint or a play
    ("games.rummikub.engine", "lay_out"),
    ("games.rummikub.engine", "lay_out_initial_meld"),
    ("games.rummikub.robot", "best_play"),
    ("bot.pairing", "swiss_round"),  # a round's pairing (the Dutch system's search, at two seats)
    ("bot.pairing", "round_robin"),
    ("bot.tournament_views", "standings_embeds"),  # a tournament's standings worked out
)


BOT_FOLDER = str(Path(__file__).resolve().parent.parent / "bot")


def called_by_the_bot() -> bool:
    """Whether the bot's own code is on the stack (tests may well work out a play themselves)."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.startswith(BOT_FOLDER):
            return True
        frame = frame.f_back
    return False


def watch_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The slow work the bot did on an event loop's thread from now on, by name (it must stay
    empty)."""
    done_on_the_loop: list[str] = []

    def watched(work: Callable[..., Any], what: str) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # a worker thread: where it belongs
                pass
            else:
                if called_by_the_bot():
                    done_on_the_loop.append(what)
            return work(*args, **kwargs)

        return run

    for module_name, name in SLOW_WORK:
        module = importlib.import_module(module_name)
        monkeypatch.setattr(module, name, watched(getattr(module, name), f"{module_name}.{name}"))
    return done_on_the_loop


@pytest.fixture
async def make_bot(database, monkeypatch) -> AsyncIterator[Callable[[], GameBot]]:
    """A fresh bot on the same database: call it again to simulate a restart.

    SimCord detaches bots without closing them; their stores are closed here, or the
    database threads would outlive a failed test and keep the test run from exiting.
    Whatever the test plays, nothing may be drawn, encoded or solved on the event loop.
    """
    done_on_the_loop = watch_the_event_loop(monkeypatch)
    seeds = itertools.count(1000)
    made: list[GameBot] = []

    def make(
        database: str = database, extensions: Sequence[str] = GAME_EXTENSIONS, **settings: Any
    ) -> GameBot:
        """``settings`` adds to the test's: ``shard_count``, ``shard_ids``; ``extensions``, the
        games it loads."""
        defaults = Settings(token=None, database=database, dev_guild_id=None, log_level="INFO")
        bot = bot_for(replace(defaults, **settings), seed_source=lambda: next(seeds), extensions=extensions)
        made.append(bot)
        return made[-1]

    yield make
    for bot in made:
        if hasattr(bot, "timers"):
            bot.timers.stop()
        if hasattr(bot, "store"):
            await bot.store.close()
    assert not done_on_the_loop, f"done on the event loop: {sorted(set(done_on_the_loop))}"


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()
