"""Committed moves per second with 1, 4 and 16 concurrent writers, SQLite against PostgreSQL.

A writer plays its own game: it commits moves, each a real Rummikub state with its timers and
publication, one after the other, as fast as the store takes them. The writers are shared out
among bot processes (``--processes``), each with one Store, as the bot shares one Store among
all its games: 1 process is one bot with many games moving at once, 2 are two shards' bots on one
database. All writers of a run start together and run for ``--seconds``. SQLite is a file in a
temporary folder; PostgreSQL a server started with pgserver, or the one ``--postgres`` names.
Each runs as the bot runs it: SQLite in WAL mode with ``synchronous = NORMAL`` (a commit is in
the log file, safe from a crash of the bot, not from a power cut), PostgreSQL with its default
durability (a commit is on disk before it returns).

    python -m bench.store_writers [--seconds 5] [--writers 1 4 16] [--processes 1 2] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

from bot.model import RUNNING, Publication
from bot.store import Commit, GameRow, Store
from games.core import Event
from games.rummikub import Rummikub
from tests import store_games

STATE = Rummikub.begin(2, Rummikub.resolve_options({}), seed=1)[0].to_json()
PUBLICATION = Publication([Event("rummikub.drew", {}, (0,))])


def move(number: int) -> Commit:
    return Commit(
        status=RUNNING,
        state=STATE,
        totals=[0, 0],
        timers=[
            (1 - number % 2, "remind", "draw,play", 1800.0),
            (1 - number % 2, "expire", "draw,play", 3600.0),
        ],
        publication=PUBLICATION,
        logged=(number % 2, {"type": "draw"}),
        changed_decisions=[0, 1],
    )


async def running_game(
    store: Store, channel: int, timers: Sequence[tuple[int, str, str, float]] = ()
) -> GameRow:
    """A two-player Rummikub game, begun, in ``channel``: what a writer commits moves to."""
    row = store_games.lobby_row("rummikub", channel=channel, guild=1, options={}, seed=1)
    game_id = await store_games.open_lobby(store, row, [(1, "anna", "en"), (2, "bruno", "en")])
    return await store_games.start(store, game_id, STATE, timers)


async def write_moves(store: Store, channel: int, seconds: float, start: asyncio.Event) -> int:
    game = await running_game(store, channel)
    await start.wait()
    committed = 0
    ends_at = time.perf_counter() + seconds
    while time.perf_counter() < ends_at:
        await store.games.commit(game, move(committed), now=time.time())
        game = replace(game, version=game.version + 1)
        committed += 1
    return committed


async def bot_process(database: str, channels: range, seconds: float, ready: Barrier) -> int:
    """One process's writers on its one Store; they start when every process is ready."""
    store = await Store.open(database)
    try:
        start = asyncio.Event()
        writers = [asyncio.create_task(write_moves(store, channel, seconds, start)) for channel in channels]
        while not all(await asyncio.gather(*(store.games.open_game_in(channel) for channel in channels))):
            await asyncio.sleep(0.01)
        await asyncio.to_thread(ready.wait)
        start.set()
        return sum(await asyncio.gather(*writers))
    finally:
        await store.close()


def run_process(database: str, channels: range, seconds: float, ready: Barrier, results: Queue) -> None:
    results.put(asyncio.run(bot_process(database, channels, seconds, ready)))


def moves_per_second(
    database: str, processes: int, writers: int, seconds: float, first_channel: int
) -> float:
    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(processes)
    results = context.Queue()
    share = writers // processes
    started = [
        context.Process(
            target=run_process,
            args=(
                database,
                range(first_channel + n * share, first_channel + (n + 1) * share),
                seconds,
                ready,
                results,
            ),
        )
        for n in range(processes)
    ]
    for process in started:
        process.start()
    committed = sum(results.get() for _ in started)
    for process in started:
        process.join()
    return committed / seconds


async def migrate(database: str) -> None:
    """Before the writers come: SQLite has one process migrate it."""
    await (await Store.open(database)).close()


@contextlib.contextmanager
def postgres_server(folder: Path, given: str | None) -> Iterator[str]:
    """The URL of ``given``, or of a pgserver of its own with its data in ``folder``, stopped on
    the way out (before ``folder`` is deleted)."""
    if given is not None:
        yield given
        return
    import pgserver

    data = folder / "pgdata"
    data.mkdir()
    with pgserver.get_server(data, cleanup_mode="stop") as server:
        yield server.get_uri()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--postgres", help="an empty PostgreSQL database (default: a pgserver of its own)")
    options = parser.parse_args()
    runs = [(p, w) for p in options.processes for w in options.writers if w % p == 0]
    with (
        tempfile.TemporaryDirectory(prefix="store-writers-") as folder,
        postgres_server(Path(folder), options.postgres) as postgres,
    ):
        databases = {"SQLite": str(Path(folder) / "bench.sqlite3"), "PostgreSQL": postgres}
        figures: dict[tuple[str, int, int], float] = {}
        for name, database in databases.items():
            asyncio.run(migrate(database))
            for number, (processes, writers) in enumerate(runs):
                figure = moves_per_second(database, processes, writers, options.seconds, 1000 * (number + 1))
                figures[name, processes, writers] = figure
                print(
                    f"{name:10} {processes} process(es) {writers:3} writer(s): {figure:7.0f} moves/s",
                    flush=True,
                )
    print()
    print("| processes | writers | " + " | ".join(f"{name} moves/s" for name in databases) + " |")
    print("|---|---|" + "---|" * len(databases))
    for processes, writers in runs:
        cells = " | ".join(f"{figures[name, processes, writers]:.0f}" for name in databases)
        print(f"| {processes} | {writers} | {cells} |")


if __name__ == "__main__":
    main()
