"""Committed moves per second through ``Store.commit`` on SQLite, against a bare aiosqlite loop.

One writer, one game, one process: each move is what the bot commits (a real Rummikub state as
JSON, the action, totals, the next seat's two timers, the outbox row), awaited to the end of its
transaction before the next begins, as the bot awaits it before answering. The reference is the
least a move could cost through aiosqlite: a loop inserting the same state's JSON and committing,
one row per transaction, on a file with the store's own pragmas. Both run in the same process, in
turns (store, reference, store, ...), so a noisy machine weighs on both alike.

    python -m bench.store_commit [--seconds 3] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from dataclasses import replace

import aiosqlite

from bench.store_writers import STATE, move, running_game
from bot.store import Store
from bot.store.sqlite import PRAGMAS


async def store_moves(database: str, seconds: float) -> float:
    store = await Store.open(database)
    try:
        game = await running_game(store, 1)
        committed = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            version = await store.commit(game, move(committed), now=time.time())
            game = replace(game, version=version)
            committed += 1
        return committed / (time.perf_counter() - started)
    finally:
        await store.close()


async def bare_moves(database: str, seconds: float) -> float:
    async with aiosqlite.connect(database) as db:
        for pragma in PRAGMAS:
            await (await db.execute(f"PRAGMA {pragma}")).fetchall()
        await db.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY, state TEXT NOT NULL)")
        await db.commit()
        committed = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            # json.dumps too: the store serialises each move's state, so the reference does as well.
            await db.execute("INSERT INTO moves (state) VALUES (?)", (json.dumps(STATE),))
            await db.commit()
            committed += 1
        return committed / (time.perf_counter() - started)


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    store_figures, bare_figures = [], []
    with tempfile.TemporaryDirectory(prefix="store-commit-") as folder:
        for number in range(options.rounds):
            store_figures.append(await store_moves(f"{folder}/store-{number}.sqlite3", options.seconds))
            bare_figures.append(await bare_moves(f"{folder}/bare-{number}.sqlite3", options.seconds))
            print(
                f"round {number + 1}: Store.commit {store_figures[-1]:6.0f} moves/s,"
                f" bare aiosqlite {bare_figures[-1]:6.0f} moves/s,"
                f" ratio {store_figures[-1] / bare_figures[-1]:.2f}",
                flush=True,
            )
    best_store, best_bare = max(store_figures), max(bare_figures)
    print(
        f"best of {options.rounds}: Store.commit {best_store:.0f} moves/s, bare aiosqlite {best_bare:.0f}"
        f" moves/s, ratio {best_store / best_bare:.2f}"
    )
    ratios = [mine / bare for mine, bare in zip(store_figures, bare_figures, strict=True)]
    print(f"median of the rounds' ratios: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    asyncio.run(main())
