"""Where the real bot's CPU goes in one interaction of a scenario of ``interaction_cost.py``.

    python -m bench.cost_account rummikub --clicks 60 [--functions 40]
    python -m bench.cost_account bue --exchanges 20

A timed pass splits the bot's CPU per interaction by thread: the event loop's (less SimCord's
share, as ``interaction_cost.py`` takes it off), the threads drawing pictures and charts, and the
other threads (aiosqlite's, the move's own ``to_thread``). A profiled pass then splits the loop
thread's part by what the time was spent in: each function's own time, less the driver's
fraction of it, grouped by area, as shares of that part (and, with ``--functions``, the
functions themselves). A third pass counts, per interaction, the trips to a thread
(each call aiosqlite runs on its thread, each ``asyncio.to_thread``), with the last
interaction's in order, the reads of the game (``Games.snapshot``), the pictures asked for,
drawn, and drawn with bytes already sent (a picture drawn again for nothing), and the score
charts drawn. Last, what a trip, and a read of
the game, cost alone (see ``trip_cost``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import hashlib
import pstats
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

import bot.charts
import bot.render
from bench.interaction_cost import Function, Meter, driver_fractions, driver_share, one_pass
from bench.store_writers import running_game
from bot.store import Store
from bot.store.games import Games

SCENARIO_INTERACTION = {"rummikub": "Rummikub Draw", "bue": "Bué exchange"}
# What the event loop runs for every hop to a thread and back: its own turns, the self-pipe
# that wakes it, and the C methods it calls.
LOOP_METHODS = (
    "<method 'run' of '_contextvars.Context' objects>",
    "<method 'poll' of 'select.epoll' objects>",
    "<method 'recv' of '_socket.socket' objects>",
    "<method 'set_result' of '_asyncio.Future' objects>",
    "<method 'put_nowait' of '_queue.SimpleQueue' objects>",
)


def area(function: Function) -> str:
    filename, _, name = function
    if "/discord/" in filename:
        return "discord.py: bodies from Embed, View and File objects, answers parsed into Message"
    if "aiosqlite" in filename or "/bot/store/" in filename:
        return "the store and aiosqlite on the loop: statements sent, rows read"
    if "asyncio" in filename or "selectors" in filename or name in LOOP_METHODS:
        return "the event loop: a wake-up and a task step for every hop to a thread"
    if "/json/" in filename or "_json" in name:
        return "json: the state and outbox written, pictures' cache keys"
    if "/games/" in filename and "/bot/" not in filename:
        return "the engine on the loop: state read, views"
    if "/bot/" in filename:
        return "the bot's own code: the move's path, embeds and buttons, texts"
    return "Python's library otherwise: dataclasses, string formatting, copies"


@dataclass
class Trips:
    """What the interactions of a pass sent to threads and drew, counted as they happen."""

    counts: Counter[str] = field(default_factory=Counter)
    trips: list[str] = field(default_factory=list)  # every trip, in order: what it ran
    sent: set[bytes] = field(default_factory=set)  # the digests of the pictures drawn so far

    @contextlib.contextmanager
    def counting(self) -> Iterator[None]:
        """Counts while the block runs, by wrapping what makes a trip or a picture."""
        execute, to_thread, png = aiosqlite.Connection._execute, asyncio.to_thread, bot.render.PICTURES.png
        draw_scores, snapshot = bot.charts.draw_scores, Games.snapshot

        def statement(
            connection: aiosqlite.Connection, function: Callable[..., Any], *args: Any, **kwargs: Any
        ) -> Any:
            # Every call aiosqlite runs on its thread goes through here (the bench's only use of it).
            sql = args[0] if args and isinstance(args[0], str) else function.__name__
            self.trips.append(f"aiosqlite: {' '.join(sql.split())[:90]}")
            self.counts["trips to aiosqlite's thread"] += 1
            return execute(connection, function, *args, **kwargs)

        async def counted_to_thread(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
            self.trips.append(f"to_thread: {getattr(function, '__qualname__', function)}")
            self.counts["trips by asyncio.to_thread"] += 1
            return await to_thread(function, *args, **kwargs)

        def counted_png(key: str, draw: Callable[[], bytes]) -> bytes:
            self.counts["pictures asked for"] += 1

            def drawn() -> bytes:
                encoded = draw()
                self.counts["pictures drawn"] += 1
                digest = hashlib.sha256(encoded).digest()
                if digest in self.sent:
                    self.counts["pictures drawn with bytes already drawn"] += 1
                self.sent.add(digest)
                return encoded

            return png(key, drawn)

        async def counted_snapshot(store: Store, game_id: int) -> Any:
            self.counts["reads of the game (Games.snapshot)"] += 1
            return await snapshot(store, game_id)

        def counted_chart(chart: Any) -> bytes:
            self.counts["score charts drawn"] += 1
            return draw_scores(chart)

        aiosqlite.Connection._execute = statement  # type: ignore[method-assign]
        asyncio.to_thread = counted_to_thread
        bot.render.PICTURES.png = counted_png  # type: ignore[method-assign]
        bot.charts.draw_scores = counted_chart
        Games.snapshot = counted_snapshot  # type: ignore[method-assign]
        try:
            yield
        finally:
            aiosqlite.Connection._execute = execute  # type: ignore[method-assign]
            asyncio.to_thread = to_thread
            bot.render.PICTURES.png = png  # type: ignore[method-assign]
            bot.charts.draw_scores = draw_scores
            Games.snapshot = snapshot  # type: ignore[method-assign]


@dataclass
class CountingMeter(Meter):
    """A meter that also counts each interaction's trips and pictures (see ``Trips``)."""

    trips: Trips = field(default_factory=Trips)
    interactions: Counter[str] = field(default_factory=Counter)
    last: dict[str, list[str]] = field(default_factory=dict)  # the last interaction's trips, by name

    @contextlib.contextmanager
    def interaction(self, *names: str) -> Iterator[None]:
        self.trips.trips = []
        with super().interaction(*names), self.trips.counting():
            yield
        for name in names:
            self.interactions[name] += 1
            self.last[name] = self.trips.trips


async def trip_cost(folder: str, calls: int = 2000) -> dict[str, tuple[float, float]]:
    """CPU per call in µs, of every thread and of the loop's: a no-op ``asyncio.to_thread``,
    aiosqlite's ``SELECT 1``, and one read of a running two-player Rummikub game
    (``Games.snapshot``, the read a click makes before the game's lock and again under it), each
    awaited alone as a move awaits them."""
    store = await Store.open(f"{folder}/alone.sqlite3")
    game = await running_game(store, 1, [(0, "expire", "draw,play", time.time() + 86_400)])
    connection = await aiosqlite.connect(":memory:", isolation_level=None)
    work: dict[str, Callable[[], Awaitable[Any]]] = {
        "asyncio.to_thread of a no-op": lambda: asyncio.to_thread(int),
        "aiosqlite's SELECT 1": lambda: connection.execute_fetchall("SELECT 1"),
        "Games.snapshot of a running game": lambda: store.games.snapshot(game.id),
    }
    spent = {}
    try:
        for what, call in work.items():
            process, thread = time.process_time(), time.thread_time()
            for _ in range(calls):
                await call()
            process, thread = time.process_time() - process, time.thread_time() - thread
            spent[what] = (1e6 * process / calls, 1e6 * thread / calls)
    finally:
        await connection.close()
        await store.close()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("scenario", choices=tuple(SCENARIO_INTERACTION))
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--exchanges", type=int, default=20)
    parser.add_argument(
        "--functions", type=int, default=0, help="also list this many functions by their own time"
    )
    options = parser.parse_args()
    options.games = 0
    name = SCENARIO_INTERACTION[options.scenario]
    profile = cProfile.Profile(time.thread_time)
    with tempfile.TemporaryDirectory(prefix="cost-account-") as folder:
        timed = asyncio.run(one_pass(options.scenario, options, f"{folder}/timed.sqlite3", Meter()))
        asyncio.run(one_pass(options.scenario, options, f"{folder}/p.sqlite3", Meter(profile=profile)))
        # The passes before drew the same pictures (the same seeds): drawn again, not from memory.
        bot.render.PICTURES.clear()
        counted = CountingMeter()
        asyncio.run(one_pass(options.scenario, options, f"{folder}/c.sqlite3", counted))
        alone = asyncio.run(trip_cost(folder))
    cost = timed.costs[name]
    per = 1000 / cost.interactions
    share = driver_share(profile)
    loop = cost.loop_thread * (1 - share) * per
    drawing = cost.drawing * per
    others = (cost.process - cost.loop_thread - cost.drawing) * per
    print(
        f"{name}: bot CPU {loop + drawing + others:.2f} ms per interaction (driver taken off:"
        f" {cost.loop_thread * share * per:.2f} ms) = event loop's thread {loop:.2f}"
        f" + drawing threads {drawing:.2f} + other threads (aiosqlite's, the move's) {others:.2f}"
    )
    stats: dict[Function, Any] = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    driver = driver_fractions(stats)
    areas: Counter[str] = Counter()
    for function, row in stats.items():
        areas[area(function)] += row[2] * (1 - driver[function])
    total = sum(areas.values())
    print(f"\n| ms of the loop thread's {loop:.2f} | spent in |\n|---|---|")
    for spent_in, seconds in areas.most_common():
        print(f"| {seconds / total * loop:.2f} | {spent_in} |")
    if options.functions:
        print(f"\n| ms of the loop thread's {loop:.2f} | calls | function (its own time) |\n|---|---|---|")
        owns = sorted(
            ((row[2] * (1 - driver[function]), row[1], function) for function, row in stats.items()),
            key=lambda own: -own[0],
        )
        for seconds, calls, (filename, line, function_name) in owns[: options.functions]:
            where = filename.split("site-packages/")[-1].split("/lib/python3")[-1]
            where = where.removeprefix(str(Path.cwd()) + "/")
            print(
                f"| {seconds / total * loop:.3f} | {calls / cost.interactions:.1f}"
                f" | {where}:{line} {function_name} |"
            )
    interactions = counted.interactions[name]
    print(f"\nPer interaction ({interactions} counted, in a pass of their own):")
    for what, count in counted.trips.counts.items():
        print(f"- {what}: {count / interactions:.2f}")
    print(f"\nThe last {name}'s trips to a thread, in order:")
    for trip in counted.last[name]:
        print(f"- {trip}")
    print("\nAlone, CPU per call (µs), every thread / the loop's:")
    for what, (process, thread) in alone.items():
        print(f"- {what}: {process:.1f} / {thread:.1f}")


if __name__ == "__main__":
    main()
