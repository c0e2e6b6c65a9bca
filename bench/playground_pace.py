"""The playground's pace: how long a click keeps the page waiting while computers play, and when
each computer's move is published to the page, against ``ROBOT_PAUSE`` (the reference).

RumBugz against two computers in the playground (its own process-less ``open_playground``): the
person's **Begin**, then every page publication (``Preview.refresh``) until the person's turn comes.
With the page frozen, the click lasts the computers' whole sequence and their moves come in one
publication; played at their pace, the click is answered at once and each move is published about
one pause after the one before.

    python bench/playground_pace.py --pause 1.0 --seed 2
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sqlite3
import tempfile
import time
from pathlib import Path

import simcord

from bot.config import Settings
from bot.playground import playground_settings
from bot.playground.serve import open_playground


async def measure(pause: float, seed: int) -> None:
    folder = Path(tempfile.mkdtemp())
    os.environ["PLAYGROUND_DATABASE"] = str(folder / "playground.sqlite3")
    base = Settings(token=None, database="unused", dev_guild_id=None, log_level="WARNING", robot_pause=pause)
    settings = playground_settings(base)
    published: list[tuple[float, int]] = []
    real_refresh = simcord.Preview.refresh
    started = time.monotonic()

    def version() -> int:
        with sqlite3.connect(settings.database) as db:
            return db.execute("SELECT COALESCE(MAX(version), 0) FROM games").fetchone()[0]

    async def counted(preview: simcord.Preview) -> None:
        await real_refresh(preview)
        published.append((time.monotonic() - started, version()))

    simcord.Preview.refresh = counted  # type: ignore[method-assign]
    async with open_playground(settings, seed_source=lambda: seed) as playground:
        you, channel = playground.world.people[0], playground.world.channel
        await you.slash(channel, "rumbugz start", computers=2)
        started = time.monotonic()
        await you.click(channel.last_message, label="Begin")
        click = time.monotonic() - started
        begun = version()
        for _ in range(int(60 / 0.1)):
            await asyncio.sleep(0.1)
            if (
                published
                and published[-1][1] > begun + 2
                and time.monotonic() - started > published[-1][0] + 3 * pause
            ):
                break
    moves = sorted({(round(at, 2), shown) for at, shown in published if shown > begun})
    print(f"ROBOT_PAUSE {pause:.1f} s; Begin answered after {click:.2f} s ({click / pause:.2f} pauses)")
    print("page publications after it (s since Begin: game version shown):")
    print(", ".join(f"{at:.2f}: v{shown}" for at, shown in moves))
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(moves) if b[1] > a[1]]
    if gaps:
        print(
            f"between publications of new moves: {min(gaps):.2f} to {max(gaps):.2f} s "
            f"({min(gaps) / pause:.2f} to {max(gaps) / pause:.2f} pauses)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pause", type=float, default=1.0, help="ROBOT_PAUSE, seconds")
    parser.add_argument("--seed", type=int, default=2, help="the game's seed (2: the computers start)")
    arguments = parser.parse_args()
    asyncio.run(measure(arguments.pause, arguments.seed))


if __name__ == "__main__":
    main()
