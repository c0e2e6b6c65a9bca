"""Where the real bot's CPU goes in one interaction of a scenario of ``interaction_cost.py``.

    python -m bench.cost_account rummikub --clicks 60
    python -m bench.cost_account bue --exchanges 20

A timed pass splits the bot's CPU per interaction by thread: the event loop's (less SimCord's
share, as ``interaction_cost.py`` takes it off), the threads drawing pictures and charts, and the
other threads (aiosqlite's, the move's own ``to_thread``). A profiled pass then splits the loop
thread's part by what the time was spent in: each function's own time, less the driver's
fraction of it, grouped by area, as shares of that part.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import tempfile
import time
from collections import Counter
from typing import Any

from bench.interaction_cost import Function, Meter, driver_fractions, driver_share, one_pass

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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("scenario", choices=tuple(SCENARIO_INTERACTION))
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--exchanges", type=int, default=20)
    options = parser.parse_args()
    options.games = 0
    name = SCENARIO_INTERACTION[options.scenario]
    profile = cProfile.Profile(time.thread_time)
    with tempfile.TemporaryDirectory(prefix="cost-account-") as folder:
        timed = asyncio.run(one_pass(options.scenario, options, f"{folder}/timed.sqlite3", Meter()))
        asyncio.run(one_pass(options.scenario, options, f"{folder}/p.sqlite3", Meter(profile=profile)))
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


if __name__ == "__main__":
    main()
