"""Start-up time of the bot with 1 and with 10,000 stored running games.

From the bot's creation to READY through SimCord (``setup_hook``: the store opened and migrated,
the games' extensions loaded, the commands synced, the running games resumed), then until the
start-up tasks it leaves (the timers' first look at the database, the delivery of what a crash
left pending) have settled. Each start runs in a process of its own on a copy of its database,
the two sizes in turns, so a noisy machine weighs on both alike; CPU time (``process_time``) and
wall time are reported, the median of the rounds.

    python -m bench.startup [--games 10000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import shutil
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

import simcord

from bench.interaction_cost import real_bot, store_running_games


async def start(database: str) -> tuple[float, float]:
    """CPU and wall seconds from the bot's creation to ready and settled."""
    wall, cpu = time.perf_counter(), time.process_time()
    made = real_bot(database)
    try:
        async with simcord.run(made) as env:
            await env.settle()
            return time.process_time() - cpu, time.perf_counter() - wall
    finally:
        made.timers.stop()
        await made.store.close()


def start_in_process(database: str) -> tuple[float, float]:
    return asyncio.run(start(database))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    sizes = (1, options.games)
    spawn = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="startup-") as folder:
        for size in sizes:
            asyncio.run(store_running_games(f"{folder}/{size}.sqlite3", size))
        figures: dict[int, list[tuple[float, float]]] = {size: [] for size in sizes}
        for number in range(options.rounds):
            for size in sizes:
                copy = f"{folder}/{size}-{number}.sqlite3"
                shutil.copy(f"{folder}/{size}.sqlite3", copy)
                with ProcessPoolExecutor(1, mp_context=spawn) as process:
                    figures[size].append(process.submit(start_in_process, copy).result())
                cpu, wall = figures[size][-1]
                print(
                    f"round {number + 1}: {size:6} games: CPU {cpu * 1000:7.1f} ms,"
                    f" wall {wall * 1000:7.1f} ms"
                )
    medians = {
        size: (statistics.median(c for c, _ in runs), statistics.median(w for _, w in runs))
        for size, runs in figures.items()
    }
    print("\n| running games stored | CPU ms (median) | wall ms (median) |\n|---|---|---|")
    for size, (cpu, wall) in medians.items():
        print(f"| {size} | {cpu * 1000:.1f} | {wall * 1000:.1f} |")
    (one_cpu, one_wall), (many_cpu, many_wall) = medians[1], medians[options.games]
    print(f"\n{options.games} games / 1 game: CPU {many_cpu / one_cpu:.2f}, wall {many_wall / one_wall:.2f}")


if __name__ == "__main__":
    main()
