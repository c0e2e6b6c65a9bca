"""Committed moves per second through ``Games.commit`` on SQLite: the store on aiosqlite, the same
statements in a bare aiosqlite loop, and the store on the hand-written thread it replaced.

One writer, one game, one process: each move is what the bot commits for a Rummikub Draw (a real
state as JSON, the action, both seats, the next seat's two timers, the outbox row), awaited to the
end of its transaction before the next begins, as the bot awaits it before answering.

- store: ``Games.commit`` through bot/store/sqlite.py (aiosqlite).
- bare: the statements the store sends for that move, written out in a loop over aiosqlite's own
  calls (BEGIN IMMEDIATE, one ``execute`` or ``executemany`` each, ``commit``): no Store, no lock,
  no ``Commit``, only the ``json.dumps`` the statements need. Before timing, the first moves of
  both are traced (SQLite's trace callback, parameters expanded) and must be identical.
- thread: ``Games.commit`` through bench/threaded_sqlite.py, a copy of the backend before issue 22
  (the connection's own thread fed by a queue, a move's whole transaction in one hop), with the
  same statements (traced and checked too).

Each runs on a fresh file migrated by the store, with the store's pragmas, in turns within each
round (the order rotating), so a noisy machine weighs on all alike; medians of the rounds.

    python -m bench.store_commit [--seconds 2] [--rounds 7]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import partial

import aiosqlite

from bench.store_writers import PUBLICATION, STATE, move, running_game
from bench.threaded_sqlite import ThreadedSQLiteBackend
from bot.model import RUNNING
from bot.store import MIGRATIONS, Store
from bot.store.games import MOVE
from bot.store.rows import SEAT_CHANGE
from bot.store.sqlite import PRAGMAS

# How many moves are traced and compared before the timing.
TRACED_MOVES = 5
# The CPU per move of each timed run, in the order they ran.
CPU_PER_MOVE: list[float] = []


async def threaded_store(database: str) -> Store:
    """What Store.open does, on the old backend."""
    backend = await ThreadedSQLiteBackend.open(database)
    await backend.migrate([script.format_map(backend.schema_fields) for script in MIGRATIONS])
    return Store(backend)


async def new_game(database: str) -> None:
    """A migrated file with one running game (id 1, version 1), the same for every variant."""
    store = await Store.open(database)
    await running_game(store, 1)
    await store.close()


async def timed(commit: Callable[[int], Awaitable[None]], seconds: float) -> float:
    """Moves per second; the process's CPU per move (every thread's) goes to ``CPU_PER_MOVE``."""
    committed = 0
    started, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        await commit(committed)
        committed += 1
    CPU_PER_MOVE.append((time.process_time() - cpu) / committed)
    return committed / (time.perf_counter() - started)


async def store_moves(store: Store, seconds: float, trace: list[str] | None = None) -> float:
    game = await store.games.game(1)
    assert game is not None

    async def commit(number: int) -> None:
        nonlocal game
        # A fixed clock while traced: the two traces must match to the byte.
        now = float(number) if trace is not None else time.time()
        await store.games.commit(game, move(number), now=now)
        game = replace(game, version=game.version + 1)

    if trace is not None:
        for number in range(TRACED_MOVES):
            await commit(number)
        return 0.0
    return await timed(commit, seconds)


async def bare_moves(db: aiosqlite.Connection, seconds: float, trace: list[str] | None = None) -> float:
    version = 1

    async def commit(number: int) -> None:
        nonlocal version
        change = move(number)
        assert change.logged is not None
        seat, action = change.logged
        now = float(number) if trace is not None else time.time()
        await db.execute("BEGIN IMMEDIATE")
        cursor = await db.execute(MOVE, (json.dumps(STATE), version + 1, now, 1, version, RUNNING))
        assert cursor.rowcount == 1
        # Per seat: total, gone (twice), total, back, stand-in, stood in, decision, back, memory, game, seat.
        await db.executemany(
            SEAT_CHANGE, [(0, 0, 0, 0, 0, None, 0, version + 1, 0, None, 1, seat) for seat in (0, 1)]
        )
        await db.execute("DELETE FROM timers WHERE game_id = ?", (1,))
        await db.executemany(
            "INSERT INTO timers (game_id, seat, kind, decision, due_at) VALUES (?, ?, ?, ?, ?)",
            [(1, *timer) for timer in change.timers],
        )
        await db.execute(
            "INSERT INTO outbox (game_id, version, publication) VALUES (?, ?, ?)",
            (1, version + 1, json.dumps(PUBLICATION.to_json())),
        )
        await db.execute(
            "INSERT INTO actions (game_id, number, seat, action, by_timeout, at) VALUES (?,"
            " (SELECT COALESCE(MAX(number), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?, ?)",
            (1, 1, seat, json.dumps(action), 0, now),
        )
        await db.commit()
        version += 1

    if trace is not None:
        for number in range(TRACED_MOVES):
            await commit(number)
        return 0.0
    return await timed(commit, seconds)


async def bare_connection(database: str) -> aiosqlite.Connection:
    db = await aiosqlite.connect(database, isolation_level=None)
    for pragma in PRAGMAS:
        await db.execute_fetchall(f"PRAGMA {pragma}")
    return db


async def run_store(
    database: str, seconds: float, open_store: Callable[[str], Awaitable[Store]] = Store.open
) -> float:
    await new_game(database)
    store = await open_store(database)
    try:
        return await store_moves(store, seconds)
    finally:
        await store.close()


async def run_bare(database: str, seconds: float) -> float:
    await new_game(database)
    db = await bare_connection(database)
    try:
        return await bare_moves(db, seconds)
    finally:
        await db.close()


async def traces(folder: str) -> dict[str, list[str]]:
    """The statements each variant sends for its first moves, as SQLite ran them."""
    traced: dict[str, list[str]] = {"store": [], "bare": [], "thread": []}
    await new_game(f"{folder}/trace-store.sqlite3")
    store = await Store.open(f"{folder}/trace-store.sqlite3")
    # Our own backend's connection (the bench's one peek inside it): the trace is SQLite's own.
    await store.backend._db.set_trace_callback(traced["store"].append)  # type: ignore[attr-defined]
    await store_moves(store, 0, traced["store"])
    await store.close()
    await new_game(f"{folder}/trace-bare.sqlite3")
    db = await bare_connection(f"{folder}/trace-bare.sqlite3")
    await db.set_trace_callback(traced["bare"].append)
    await bare_moves(db, 0, traced["bare"])
    await db.close()
    await new_game(f"{folder}/trace-thread.sqlite3")
    old = await threaded_store(f"{folder}/trace-thread.sqlite3")
    await old.backend.call(lambda db: db.set_trace_callback(traced["thread"].append))  # type: ignore[attr-defined]
    await store_moves(old, 0, traced["thread"])
    await old.close()
    # What the store reads to commit (its game) is not part of the move.
    return {name: [sql for sql in sent if not sql.startswith("SELECT")] for name, sent in traced.items()}


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    runners = {"store": run_store, "bare": run_bare, "thread": partial(run_store, open_store=threaded_store)}
    figures: dict[str, list[float]] = {name: [] for name in runners}
    cpu: dict[str, list[float]] = {name: [] for name in runners}
    with tempfile.TemporaryDirectory(prefix="store-commit-") as folder:
        traced = await traces(folder)
        assert traced["store"] == traced["bare"] == traced["thread"], traced
        per_move = len(traced["store"]) // TRACED_MOVES
        print(f"statements per move, identical in all three: {per_move} (executemany rows counted)")
        print("\n".join(f"    {sql[:100]}" for sql in traced["store"][:per_move]))
        for number in range(options.rounds):
            names = list(runners)
            names = names[number % len(names) :] + names[: number % len(names)]
            for name in names:
                database = f"{folder}/{name}-{number}.sqlite3"
                figures[name].append(await runners[name](database, options.seconds))
                cpu[name].append(CPU_PER_MOVE[-1])
            print(
                f"round {number + 1}: "
                + ", ".join(f"{name} {figures[name][-1]:6.0f}" for name in runners)
                + f" moves/s; store/bare {figures['store'][-1] / figures['bare'][-1]:.2f},"
                f" store/thread {figures['store'][-1] / figures['thread'][-1]:.2f}; CPU per move "
                + ", ".join(f"{name} {cpu[name][-1] * 1e6:.0f}" for name in runners)
                + " µs",
                flush=True,
            )
    medians = {name: statistics.median(values) for name, values in figures.items()}
    ratios = {
        other: statistics.median(
            mine / theirs for mine, theirs in zip(figures["store"], figures[other], strict=True)
        )
        for other in ("bare", "thread")
    }
    print(
        f"medians of {options.rounds} rounds: "
        + ", ".join(f"{name} {value:.0f} moves/s" for name, value in medians.items())
        + f"; median ratio store/bare {ratios['bare']:.2f}, store/thread {ratios['thread']:.2f}"
    )
    print(
        "median CPU per move (all threads): "
        + ", ".join(f"{name} {statistics.median(values) * 1e6:.0f} µs" for name, values in cpu.items())
    )


if __name__ == "__main__":
    asyncio.run(main())
