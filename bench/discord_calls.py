"""The REST calls a move makes, by route, and those Discord counts against the bot's global limit.

Discord allows a bot token 50 requests a second in all (its global limit); interaction responses
and follow-ups (``/interactions/...``, ``/webhooks/<app>/<token>/...``) are not counted against it.
Every call the real bot makes is read from SimCord's request log while the tests' drivers play:

- a Rummikub Draw, clicked on the table;
- a Bué exchange with the deck (the panel, the card, the deck: three interactions);
- a Serie Bum! pair (the two flips that take it);
- a RumBugz discard (its panel, then the Bug: two interactions);

each with the bot as it is and with the click on the table answered as before (the table edited
by the delivery), in the same run. Then the invalid requests (401, 403, 429 answers, which
Discord counts towards banning the bot's address for a while) of a Bué match whose person has
closed their DMs, with closed DMs remembered (as now) and tried at every hand (as before).

    python -m bench.discord_calls
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import replace
from typing import Any

import simcord
from simcord.http import client as simcord_client

from bot import publisher as publisher_module
from bot.client import GameBot, bot_for
from bot.config import Settings
from bot.playground.world import close_dms
from bot.tables import TableService
from tests.bot.bue_driver import BueDriver
from tests.bot.seriebum_driver import Flip, MemoryPlayers, SerieBumDriver
from tests.bot.test_computers import computer_seats
from tests.bot.test_rumbugz_play import RumBugzDriver, oracle_move
from tests.bot.test_rummikub_play import RummikubDriver

GLOBAL_LIMIT = 50  # requests a second per bot token, interaction answers aside
UNCOUNTED = ("/interactions/", "/webhooks/")


NAMED = {
    "channels": "{channel}",
    "messages": "{message}",
    "interactions": "{interaction}",
    "webhooks": "{app}",
}


def route(method: str, path: str) -> str:
    """The call's route, its ids and tokens replaced by what they name."""
    parts = path.strip("/").split("/")
    named = [
        "{token}"
        if part.startswith("simcord_")
        else NAMED.get(parts[index - 1], "{id}")
        if part.isdigit()
        else part
        for index, part in enumerate(parts)
    ]
    return f"{method} /" + "/".join(named)


class Calls:
    """The REST calls made between two points of the log, by route."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.start = len(env.backend.http_requests)

    def routes(self) -> Counter[str]:
        return Counter(
            route(entry.method, entry.path) for entry in self.env.backend.http_requests[self.start :]
        )


def make_bot(database: str, **settings: Any) -> GameBot:
    seeds = itertools.count(1000)
    defaults = Settings(token=None, database=database, dev_guild_id=None, log_level="WARNING")
    return bot_for(replace(defaults, **settings), seed_source=lambda: next(seeds))


@contextlib.asynccontextmanager
async def running(**settings: Any) -> AsyncIterator[Any]:
    with tempfile.TemporaryDirectory() as folder:
        made = make_bot(f"{folder}/games.sqlite3", **settings)
        try:
            async with simcord.run(made) as env:
                yield env
        finally:
            made.timers.stop()
            await made.store.close()


@contextlib.contextmanager
def answered_as_before() -> Iterator[None]:
    """The click on the table answered as before this issue: the delivery edits the table."""

    async def not_by_the_answer(*args: Any) -> None:
        return None

    original = TableService._answer_with_table
    TableService._answer_with_table = not_by_the_answer  # type: ignore[method-assign]
    try:
        yield
    finally:
        TableService._answer_with_table = original  # type: ignore[method-assign]


# ---------------------------------------------------------------------- a move's calls


async def rummikub_draw(env: Any) -> Counter[str]:
    driver = RummikubDriver(env, "")
    driver.database = env.bot.settings.database
    await driver.open()
    for _ in range(2):  # every player's DM channel is known after their first DM
        await driver.members[driver.state().turn].click(driver.table_message(), label="Draw")
    calls = Calls(env)
    await driver.members[driver.state().turn].click(driver.table_message(), label="Draw")
    return calls.routes()


async def bue_exchange(env: Any) -> Counter[str]:
    driver = BueDriver(env, env.bot.settings.database, players=3)
    await driver.open()
    calls = Calls(env)
    await driver.exchange_with_deck(driver.state().turn, 0)
    return calls.routes()


async def seriebum_pair(env: Any) -> Counter[str]:
    env.bot.seed_source = lambda: 2
    driver = SerieBumDriver(env, env.bot.settings.database)
    await driver.open(target=10)
    players = MemoryPlayers()
    flips: list[Counter[str]] = []
    while driver.status() == "running":
        move = players.next(driver.state())
        calls, lines = Calls(env), len(list(driver.channel.history()))
        await driver.play(move)
        if isinstance(move, Flip):
            flips.append(calls.routes())
        new = " ".join(message.content for message in list(driver.channel.history())[lines:])
        if isinstance(move, Flip) and " takes " in new and "series" in new:
            return flips[-2] + flips[-1]
    raise AssertionError("no pair was taken")


async def rumbugz_discard(env: Any) -> Counter[str]:
    driver = RumBugzDriver(env, env.bot.settings.database, players=3)
    await driver.open(rounds=1)
    while not driver.state().finished:
        seat, action = oracle_move(driver.state())
        calls = Calls(env)
        await driver.play(seat, action)
        if action["type"] == "discard":
            return calls.routes()
    raise AssertionError("nobody discarded")


MOVES: dict[str, Callable[[Any], Awaitable[Counter[str]]]] = {
    "Rummikub Draw (a click on the table)": rummikub_draw,
    "Bué exchange with the deck (3 interactions)": bue_exchange,
    "Serie Bum! pair (its two flips)": seriebum_pair,
    "RumBugz discard (2 interactions)": rumbugz_discard,
}


async def move_calls(play: Callable[[Any], Awaitable[Counter[str]]]) -> Counter[str]:
    async with running() as env:
        return await play(env)


def print_move(name: str, now: Counter[str], before: Counter[str]) -> tuple[int, int]:
    def counted(routes: Counter[str]) -> int:
        return sum(n for r, n in routes.items() if not r.split(" ", 1)[1].startswith(UNCOUNTED))

    print(f"\n{name}: {counted(now)} counted (before: {counted(before)}), {sum(now.values())} in all")
    for name_, n in sorted(now.items()):
        tag = "not counted" if name_.split(" ", 1)[1].startswith(UNCOUNTED) else "counted"
        print(f"  {n} x {name_}  ({tag}; before: {before.get(name_, 0)})")
    for name_, n in sorted(before.items()):
        if name_ not in now:
            print(f"  0 x {name_}  (before: {n})")
    return counted(now), counted(before)


# ---------------------------------------------------------------------- closed DMs


async def invalid_requests_of_a_match(remember: bool) -> tuple[int, int]:
    """(401/403/429 answers, moves) of a Bué match of a person with closed DMs and two computers."""
    refused: Counter[int] = Counter()
    raise_for = simcord_client._raise_for

    def counting(error: Any) -> None:
        refused[error.status] += 1
        raise_for(error)

    simcord_client._raise_for = counting  # type: ignore[assignment]
    if not remember:
        publisher_module.DM_CLOSED_FOR = 0.0
    try:
        async with running(robot_pause=1.0) as env:
            driver = BueDriver(env, env.bot.settings.database, players=1)
            host = driver.members[0]
            await host.slash(driver.channel, "bue start", computers=2, target=60)
            driver.game_id = driver.query("SELECT MAX(id) FROM games")[0][0]
            await host.click(driver.channel.last_message, label="Begin")
            close_dms(env, host)
            rng = random.Random(5)
            robots = computer_seats(driver)
            for _ in range(2000):
                if driver.status() != "running":
                    break
                if set(driver.state().to_act()) <= robots:
                    await env.advance_time(1.1)
                else:
                    await driver.play_one(rng)
            moves = driver.query("SELECT COUNT(*) FROM actions")[0][0]
    finally:
        simcord_client._raise_for = raise_for  # type: ignore[assignment]
        publisher_module.DM_CLOSED_FOR = 6 * 3600.0
    return sum(refused[status] for status in (401, 403, 429)), moves


# ---------------------------------------------------------------------- report


async def main() -> None:
    logging.basicConfig(level=logging.ERROR)
    print("REST calls per move (counted: against the global limit of 50 a second)")
    rates = {}
    for name, play in MOVES.items():
        now = await move_calls(play)
        with answered_as_before():
            before = await move_calls(play)
        counted, counted_before = print_move(name, now, before)
        rates[name] = (counted, counted_before)
    print("\nMoves a second one token carries at the global limit (50 requests/s):")
    for name, (counted, before) in rates.items():
        print(f"  {name}: {GLOBAL_LIMIT / counted:.1f} (before: {GLOBAL_LIMIT / before:.1f})")

    remembered, moves = await invalid_requests_of_a_match(remember=True)
    every_time, moves_before = await invalid_requests_of_a_match(remember=False)
    print(
        "\nInvalid requests (401/403/429) of a Bué match to 60, one person with closed DMs, two computers:"
        f"\n  closed DMs remembered: {remembered} in {moves} moves;"
        f" tried at every hand (before): {every_time} in {moves_before} moves"
    )


if __name__ == "__main__":
    asyncio.run(main())
