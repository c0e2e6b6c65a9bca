"""``/turns`` read from its index (``Turns.of_player``) with 100,000 stored games and 1,000 players,
against one game's read (``Games.snapshot``, what every move reads) in the same run, on SQLite and
on PostgreSQL; with each database's plan of the query.

The games: ``--games`` of them, ``--running`` percent running (the rest finished), two to four
seats each among ``--players`` players, four actions each; a running game has an expiry timer on
the seat it waits on. Each round times ``--reads`` reads of each kind in turns (the order
rotating), a random player's /turns and a random running game's snapshot; per-read medians of the
rounds, and their ratio.

    python -m bench.turns_index [--games 100000] [--players 1000] [--running 5] [--reads 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bench.store_writers import postgres_server
from bot.store import Store
from bot.store.turns import TURNS_QUERY

BATCH = 20_000


async def fill(store: Store, games: int, players: int, running: float, seed: int = 1) -> list[int]:
    """The stored games, as rows written in batches; the running games' ids."""
    rng = random.Random(seed)
    game_rows, seat_rows, action_rows, timer_rows, running_ids = [], [], [], [], []
    for game_id in range(1, games + 1):
        is_running = rng.random() < running
        status = "running" if is_running else "finished"
        created = 1_700_000_000.0 + game_id * 60
        game_rows.append(
            (
                game_id,
                "rummikub",
                1 + game_id % 50,
                10_000 + game_id,
                1,
                status,
                "{}",
                86400,
                "en",
                game_id,
                "{}",
                5,
                1000 + game_id,
                created,
                created,
                "{}",
                created + 30,
            )
        )
        seated = rng.sample(range(1, players + 1), rng.randint(2, 4))
        to_move = rng.randrange(len(seated))
        for seat, user_id in enumerate(seated):
            # The seat to move's clock started with the last action; the others' with the one before.
            decision_since = 5 if seat == to_move else 4
            decision_at = created + 60 * (decision_since - 1)
            seat_rows.append(
                (game_id, seat, user_id, f"p{user_id}", "en", decision_since, decision_at, int(is_running))
            )
        for number in range(1, 5):
            action_rows.append(
                (game_id, number, number % len(seated), '{"type": "draw"}', created + 60 * number)
            )
        if is_running:
            running_ids.append(game_id)
            timer_rows.append((game_id, to_move, "expire", "draw,play", created + 86400))
    inserts = [
        (
            "INSERT INTO games (id, kind, guild_id, channel_id, host_id, status, options, turn_timeout,"
            " locale, seed, state, version, message_id, created_at, updated_at, server_settings, started_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        ),
        (
            "INSERT INTO seats (game_id, seat, user_id, name, locale, decision_since, decision_at, in_play)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            seat_rows,
        ),
        ("INSERT INTO actions (game_id, number, seat, action, at) VALUES (?, ?, ?, ?, ?)", action_rows),
        ("INSERT INTO timers (game_id, seat, kind, decision, due_at) VALUES (?, ?, ?, ?, ?)", timer_rows),
    ]
    for sql, rows in inserts:
        for start in range(0, len(rows), BATCH):
            await store.backend.executemany(sql, rows[start : start + BATCH])
    return running_ids


async def per_read(read: Callable[[], Awaitable[object]], reads: int) -> float:
    """Microseconds per read, over ``reads`` of them."""
    started = time.perf_counter()
    for _ in range(reads):
        await read()
    return (time.perf_counter() - started) / reads * 1e6


async def plan(store: Store, postgres: bool) -> str:
    if postgres:
        # The plan for a player's value, as the server runs it.
        rows = await store.backend.fetch(
            "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + TURNS_QUERY.replace("?", "7", 1).replace("?", "100")
        )
        return "\n".join(str(row[0]) for row in rows)
    rows = await store.backend.fetch(f"EXPLAIN QUERY PLAN {TURNS_QUERY}", (7, 100))
    return "\n".join(f"{'  ' * (row[1] > 0)}{row[3]}" for row in rows)


async def measure(
    database: str, postgres: bool, games: int, players: int, running: float, reads: int, rounds: int
) -> tuple[dict[str, list[float]], str, float]:
    store = await Store.open(database)
    try:
        started = time.perf_counter()
        running_ids = await fill(store, games, players, running)
        filled = time.perf_counter() - started
        if postgres:
            # What autovacuum does soon after a bulk load, on a server in use: the planner's statistics.
            await store.backend.fetch("ANALYZE")
        rng = random.Random(2)
        kinds: dict[str, Callable[[], Awaitable[object]]] = {
            "/turns of a player (the index)": lambda: store.turns.of_player(rng.randint(1, players)),
            "one game's snapshot (reference)": lambda: store.games.snapshot(rng.choice(running_ids)),
        }
        figures: dict[str, list[float]] = {name: [] for name in kinds}
        names = list(kinds)
        for number in range(rounds):
            for name in names[number % 2 :] + names[: number % 2]:
                figures[name].append(await per_read(kinds[name], reads))
        sample = await store.turns.of_player(7)
        print(
            f"  player 7: {len(sample)} running games, {sum(t.waits_on_them for t in sample)} waiting on them"
        )
        return figures, await plan(store, postgres), filled
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--running", type=float, default=5.0, help="percent of the games running")
    parser.add_argument("--reads", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--postgres", help="an empty PostgreSQL database (default: a pgserver of its own)")
    options = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="turns-index-") as folder,
        postgres_server(Path(folder), options.postgres) as postgres_url,
    ):
        for backend, database in (
            ("SQLite", str(Path(folder) / "bench.sqlite3")),
            ("PostgreSQL", postgres_url),
        ):
            print(f"{backend}: filling {options.games:,} games…")
            figures, query_plan, filled = asyncio.run(
                measure(
                    database,
                    backend == "PostgreSQL",
                    options.games,
                    options.players,
                    options.running / 100,
                    options.reads,
                    options.rounds,
                )
            )
            medians = {name: statistics.median(values) for name, values in figures.items()}
            reference = medians["one game's snapshot (reference)"]
            print(f"  filled in {filled:.1f} s")
            print("| read | µs per read (median) | rounds | against the snapshot |")
            print("|---|---|---|---|")
            for name, values in figures.items():
                rounds_text = ", ".join(f"{value:.0f}" for value in values)
                print(f"| {name} | {medians[name]:.0f} | {rounds_text} | {medians[name] / reference:.2f} |")
            print(f"\n{backend} plan:\n{query_plan}\n")


if __name__ == "__main__":
    main()
