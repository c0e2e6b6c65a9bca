"""The playground's pace: how long a person waits between their turns while computers play, per
game, against the same game paced as before (every step of a computer's turn a whole
``ROBOT_PAUSE``: the reference, measured in the same run).

Each game in the playground (its own process-less ``open_playground``), you against computers,
played to its end or to ``--turns`` of your turns: your moves are the game's default move, made
``--reaction`` seconds after your turn comes (your turn's timeout, set that short in the database;
no computer stands in). The wait is from the page's publication of your move to its publication
of the move after which it is your turn again: what the page makes you wait.

    python bench/playground_pace.py --pause 2.0 --turns 6
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import bot.playground.live
from bot import planning
from bot.config import Settings
from bot.playground import playground_settings
from bot.playground.serve import open_playground

# Each game as the issue played it: the computers, and options for a game of a few minutes.
GAMES: dict[str, tuple[int, dict[str, int]]] = {
    "bue": (3, {"target": 40}),
    "seriebum": (1, {"target": 40}),
    "rummikub": (2, {"rounds": 1}),
    "rumbugz": (2, {"rounds": 1}),
}
YOU = 0  # the seat of the person who started the game


def latest_action(database: str) -> tuple[int, int] | None:
    """The number and seat of the running game's latest action."""
    with sqlite3.connect(database) as db:
        row = db.execute(
            "SELECT number, seat FROM actions ORDER BY game_id DESC, number DESC LIMIT 1"
        ).fetchone()
    return None if row is None else (row[0], row[1])


def status(database: str) -> str:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT status FROM games ORDER BY id DESC LIMIT 1").fetchone()
    return "none" if row is None else row[0]


def your_turn_quickly(database: str, reaction: int) -> None:
    """Your turns time out after ``reaction`` seconds (the default move), with no reminder."""
    with sqlite3.connect(database) as db:
        (kept,) = db.execute("SELECT server_settings FROM games ORDER BY id DESC LIMIT 1").fetchone()
        kept = json.dumps({**json.loads(kept), "reminder": 0})
        db.execute("UPDATE games SET turn_timeout = ?, server_settings = ?", (reaction, kept))


def waits(shown: list[tuple[float, int, int]]) -> Iterator[float]:
    """From the page's publications (when, action number, its seat): for each of your moves that
    others follow, the time until the publication of the last of theirs before your next move."""
    first: dict[int, tuple[float, int]] = {}
    for at, number, seat in shown:
        first.setdefault(number, (at, seat))
    numbers = sorted(first)
    for index, number in enumerate(numbers[:-1]):
        if first[number][1] != YOU or first[numbers[index + 1]][1] == YOU:
            continue
        later = numbers[index + 1 :]
        yours = next((n for n in later if first[n][1] == YOU), None)
        if yours is None:
            return
        theirs = max(n for n in later if n < yours)
        yield first[theirs][0] - first[number][0]


async def play(game: str, pause: float, reaction: int, turns: int, seed: int) -> list[float]:
    computers, options = GAMES[game]
    folder = Path(tempfile.mkdtemp())
    os.environ["PLAYGROUND_DATABASE"] = str(folder / "playground.sqlite3")
    base = Settings(token=None, database="unused", dev_guild_id=None, log_level="WARNING", robot_pause=pause)
    settings = playground_settings(base)
    shown: list[tuple[float, int, int]] = []
    publish = bot.playground.live.publish

    def published(preview: object) -> None:
        publish(preview)  # type: ignore[arg-type]
        latest = latest_action(settings.database)
        if latest is not None:
            shown.append((time.monotonic(), *latest))

    bot.playground.live.publish = published
    try:
        async with open_playground(settings, seed_source=lambda: seed) as playground:
            you, channel = playground.world.people[0], playground.world.channel
            await you.slash(channel, f"{game} start", computers=computers, stand_in=False, **options)
            your_turn_quickly(settings.database, reaction)
            await you.click(channel.last_message, label="Begin")
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline and status(settings.database) == "running":
                if len(list(waits(shown))) >= turns:
                    break
                await asyncio.sleep(0.2)
    finally:
        bot.playground.live.publish = publish
    return list(waits(shown))[:turns]


def summary(measured: list[float], pause: float) -> str:
    if not measured:
        return "no turn measured"
    return (
        f"{min(measured):.1f} / {statistics.median(measured):.1f} / {max(measured):.1f} s "
        f"({statistics.median(measured) / pause:.2f} pauses)"
    )


async def measure(pause: float, reaction: int, turns: int, seed: int) -> None:
    print(f"ROBOT_PAUSE {pause:.1f} s; your move {reaction} s after your turn comes; seed {seed}")
    print("wait between your turns, min / median / max (median in pauses); reference: every step paced")
    print("| game | computers | paced as one turn | reference: each step a pause | median ratio |")
    print("|---|---|---|---|---|")
    for game, (computers, _) in GAMES.items():
        paced = await play(game, pause, reaction, turns, seed)
        share = planning.STEP_SHARE
        planning.STEP_SHARE = 1.0  # as before: each step of a computer's turn after a whole pause
        try:
            reference = await play(game, pause, reaction, turns, seed)
        finally:
            planning.STEP_SHARE = share
        ratio = (
            f"{statistics.median(paced) / statistics.median(reference):.2f}" if paced and reference else "-"
        )
        print(
            f"| {game} | {computers} | {summary(paced, pause)} | {summary(reference, pause)} | {ratio} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pause", type=float, default=2.0, help="ROBOT_PAUSE, seconds (the default: 2)")
    parser.add_argument("--reaction", type=int, default=1, help="seconds you take to move")
    parser.add_argument("--turns", type=int, default=6, help="your turns measured per game")
    parser.add_argument("--seed", type=int, default=2, help="the games' seed")
    arguments = parser.parse_args()
    asyncio.run(measure(arguments.pause, arguments.reaction, arguments.turns, arguments.seed))


if __name__ == "__main__":
    main()
