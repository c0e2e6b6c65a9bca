"""A move's read of its game on PostgreSQL (``Games.snapshot``): its four queries in one
REPEATABLE READ, read-only transaction, as the store reads them, against the same four in a READ
COMMITTED transaction, as it read them before (each query its own snapshot).

One process, one game with two seats, two timers and one pending publication; the two reads in
turns within each round (the order rotating), so a noisy machine weighs on both alike; reads per
second, medians of the rounds, and their ratio.

    python -m bench.snapshot_read [--seconds 2] [--rounds 7] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from bench.store_writers import move, postgres_server, running_game
from bot.store import Store
from bot.store.backend import Row, Statement
from bot.store.postgres import PostgresBackend


async def read_committed(backend: PostgresBackend, queries: Sequence[Statement]) -> list[list[Row]]:
    """The read before: the four queries in PostgreSQL's default transaction."""
    async with backend.transaction() as db:
        return [await db.fetch(query.sql, query.parameters) for query in queries]


READS: dict[str, Callable[..., Awaitable[list[list[Row]]]]] = {
    "one snapshot (the store's)": PostgresBackend.fetch_many,
    "read committed (before)": read_committed,
}


async def reads_per_second(
    store: Store, game_id: int, read: Callable[..., Awaitable[list[list[Row]]]], seconds: float
) -> float:
    original = PostgresBackend.fetch_many
    PostgresBackend.fetch_many = read  # type: ignore[method-assign]
    try:
        count, ends_at = 0, time.perf_counter() + seconds
        while time.perf_counter() < ends_at:
            assert await store.games.snapshot(game_id) is not None
            count += 1
        return count / seconds
    finally:
        PostgresBackend.fetch_many = original  # type: ignore[method-assign]


async def measure(database: str, seconds: float, rounds: int) -> dict[str, list[float]]:
    store = await Store.open(database)
    try:
        game = await running_game(store, channel=1, timers=[(0, "remind", "draw", 1800.0)])
        # A move whose publication is still pending: the read finds a row in each of its tables.
        await store.games.commit(game, move(1), now=1.0)
        figures: dict[str, list[float]] = {name: [] for name in READS}
        names = list(READS)
        for number in range(rounds):
            for name in names[number % 2 :] + names[: number % 2]:
                figures[name].append(await reads_per_second(store, game.id, READS[name], seconds))
        return figures
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--postgres", help="an empty PostgreSQL database (default: a pgserver of its own)")
    options = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="snapshot-read-") as folder,
        postgres_server(Path(folder), options.postgres) as postgres,
    ):
        figures = asyncio.run(measure(postgres, options.seconds, options.rounds))
    medians = {name: statistics.median(values) for name, values in figures.items()}
    print("| read | reads/s (median) | rounds |")
    print("|---|---|---|")
    for name, values in figures.items():
        print(f"| {name} | {medians[name]:.0f} | {', '.join(f'{v:.0f}' for v in values)} |")
    before, after = medians["read committed (before)"], medians["one snapshot (the store's)"]
    print(f"\none snapshot / read committed: {after / before:.2f}")


if __name__ == "__main__":
    main()
