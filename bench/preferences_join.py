"""The seats' read with each player's preferences (``SEATS_QUERY``: read at every move, so a
player's change reaches their running games; their time zone, quiet hours and last away span
too), against the same read without them (the reference, as it was before ``/preferences``), on
SQLite, the default database.

A two-seat game; the read timed with no preferences stored, then with ``--players`` stored
(the game's two players among them, so the join finds theirs). The reads take turns within each
round (the order rotating) so a noisy machine weighs on all alike; reads per second, medians of
the rounds, and each against the reference.

    python -m bench.preferences_join [--seconds 1] [--rounds 5] [--players 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.store_writers import running_game
from bot.store import Store
from bot.store.games import SEATS_QUERY

REFERENCE = "without the join (reference)"
# The seats' read as it was before /preferences (and the players' time zones and away spans).
WITHOUT_PREFERENCES = (
    "SELECT seats.*, dm_channels.channel_id AS dm_channel_id, closed_dms.closed_at AS dm_closed_at"
    " FROM seats LEFT JOIN dm_channels USING (user_id) LEFT JOIN closed_dms USING (user_id)"
    " WHERE game_id = ? ORDER BY seat"
)


async def reads_per_second(store: Store, sql: str, game_id: int, seconds: float) -> float:
    count, ends_at = 0, time.perf_counter() + seconds
    while time.perf_counter() < ends_at:
        assert len(await store.backend.fetch(sql, (game_id,))) == 2
        count += 1
    return count / seconds


async def rounds_of(
    store: Store, reads: dict[str, str], game_id: int, seconds: float, rounds: int
) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {name: [] for name in reads}
    names = list(reads)
    for number in range(rounds):
        for name in names[number % 2 :] + names[: number % 2]:
            figures[name].append(await reads_per_second(store, reads[name], game_id, seconds))
    return figures


async def measure(database: str, seconds: float, rounds: int, players: int) -> list[dict[str, list[float]]]:
    """The two phases, each with its own reference: no preferences stored, then ``players``."""
    store = await Store.open(database)
    try:
        game = await running_game(store, channel=1)
        plan = await store.backend.fetch(f"EXPLAIN QUERY PLAN {SEATS_QUERY}", (game.id,))
        print("query plan:", "; ".join(str(row[3]) for row in plan))
        none_stored = await rounds_of(
            store,
            {REFERENCE: WITHOUT_PREFERENCES, "with it, none stored": SEATS_QUERY},
            game.id,
            seconds,
            rounds,
        )
        seated = [user_id for (user_id,) in await store.backend.fetch("SELECT user_id FROM seats")]
        others = [user_id for user_id in range(10**6, 10**6 + players) if user_id not in seated]
        await store.backend.executemany(
            "INSERT INTO player_preferences (user_id, language, ping) VALUES (?, ?, ?)",
            [(user_id, "it", 0) for user_id in [*seated, *others][:players]],
        )
        many_stored = await rounds_of(
            store,
            {REFERENCE: WITHOUT_PREFERENCES, f"with it, {players:,} stored": SEATS_QUERY},
            game.id,
            seconds,
            rounds,
        )
        return [none_stored, many_stored]
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=100_000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="preferences-join-") as folder:
        database = str(Path(folder) / "bench.sqlite3")
        figures = asyncio.run(measure(database, options.seconds, options.rounds, options.players))
    print("| seats read | reads/s (median) | against the reference of its phase |")
    print("|---|---|---|")
    for phase in figures:
        medians = {name: statistics.median(values) for name, values in phase.items()}
        for name, median in medians.items():
            print(f"| {name} | {median:.0f} | {median / medians[REFERENCE]:.2f} |")


if __name__ == "__main__":
    main()
