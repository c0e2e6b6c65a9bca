"""A person's click while three computers play as fast as they can in the same channel: how long
until the bot answers it, against the same click while the computers wait for the person (the
reference, in the same run).

Rummikub, the person against three computers (whose plays search the table, in a thread), in the
playground (``open_playground``: the bot's timers run on the wall clock, so the computers play on
while the person clicks). Each round: **My rack** while it is the person's turn (the reference),
then **Draw**, then **My rack** again and again while the three computers play their turns, until
the person's turn is back. The answer time is from the click to the bot's first response to the
interaction (a message, a deferral or an edit), on the wall clock.

``--pause 0.05`` rather than 0: SimCord runs one user action at a time and settles it, timers
due meanwhile included, so at pause 0 the three computers' moves all run inside the person's
Draw (measured too: "the person's Draw", answered before they start) and no click can fall among
them. 50 ms is far below any channel's limit (5 posts in 5 s).

What the simulation does not model: Discord's own latency and its rate limits (SimCord applies
none to a channel's posts here), so this measures the bot alone: its event loop, its database
and its threads, shared with the computers' moves and their announcements. A click that needs the
game's lock while a computer's move holds it (a move, not a look at the hand) is deferred at once
(``TableService.seated``), so Discord's 3 s never run out behind the computers.

    python bench/click_while_computers_play.py --rounds 8 --pause 0.05
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord

from bot.config import Settings
from bot.playground import playground_settings
from bot.playground.serve import open_playground

RESPONSES = ("send_message", "defer", "edit_message")


class AnswerClock:
    """The wall-clock moment of each interaction's first response, by interaction id."""

    def __init__(self) -> None:
        self.answered: dict[int, float] = {}
        for name in RESPONSES:
            setattr(
                discord.InteractionResponse, name, self._timed(getattr(discord.InteractionResponse, name))
            )

    def _timed(self, respond: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def timed(response: discord.InteractionResponse, *args: Any, **kwargs: Any) -> Any:
            self.answered.setdefault(response._parent.id, time.perf_counter())
            return await respond(response, *args, **kwargs)

        return timed

    def since(self, started: float) -> float:
        """The answer time of the one interaction answered after ``started``."""
        return min(at for at in self.answered.values() if at >= started) - started


async def measure(rounds: int, seed: int, pause: float) -> dict[str, list[float]]:
    folder = Path(tempfile.mkdtemp())
    os.environ["PLAYGROUND_DATABASE"] = str(folder / "playground.sqlite3")
    base = Settings(token=None, database="unused", dev_guild_id=None, log_level="WARNING", robot_pause=pause)
    settings = playground_settings(base)
    clock = AnswerClock()
    times: dict[str, list[float]] = {
        "computers waiting (reference)": [],
        "the person's Draw": [],
        "computers playing": [],
    }

    def persons_turn() -> bool:
        with sqlite3.connect(settings.database) as db:
            return bool(db.execute("SELECT COUNT(*) FROM timers WHERE kind = 'expire'").fetchone()[0])

    def table_id() -> int:
        with sqlite3.connect(settings.database) as db:
            return int(db.execute("SELECT message_id FROM games WHERE status = 'running'").fetchone()[0])

    async with open_playground(settings, seed_source=lambda: seed) as playground:
        you, channel = playground.world.people[0], playground.world.channel
        await you.slash(channel, "rummikub start", computers=3)
        await you.click(channel.last_message, label="Begin")

        async def click(label: str) -> float:
            table = next(message for message in channel.history() if message.id == table_id())
            started = time.perf_counter()
            await you.click(table, label=label)
            return clock.since(started)

        for _ in range(rounds):
            while not persons_turn():
                await asyncio.sleep(0.05)
            times["computers waiting (reference)"].append(await click("My rack"))
            times["the person's Draw"].append(await click("Draw"))
            while not persons_turn():
                times["computers playing"].append(await click("My rack"))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--pause", type=float, default=0.05, help="ROBOT_PAUSE, seconds")
    arguments = parser.parse_args()
    times = asyncio.run(measure(arguments.rounds, arguments.seed, arguments.pause))
    reference = statistics.median(times["computers waiting (reference)"])
    print("| My rack clicked while | clicks | median ms | p95 ms | max ms | median against the reference |")
    print("|---|---|---|---|---|---|")
    for name, values in times.items():
        if not values:
            print(f"| {name} | 0 | | | | |")
            continue
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        print(
            f"| {name} | {len(values)} | {1000 * statistics.median(values):.0f} | {1000 * p95:.0f} "
            f"| {1000 * max(values):.0f} | {statistics.median(values) / reference:.2f} |"
        )


if __name__ == "__main__":
    main()
