"""The REST calls a move makes, by route, and those Discord counts against the bot's global limit.

Discord allows a bot token 50 requests a second in all (its global limit); interaction responses
and follow-ups (``/interactions/...``, ``/webhooks/<app>/<token>/...``) are not counted against it.
Every call the real bot makes is read from SimCord's request log while the tests' drivers play
every move of a match of each game, filed by the kind of move (its action's type, and whether it
was clicked on the table or from a private panel), with the bot as it is and, the reference, with
no click's token kept (the table edited by the channel's counted route after a move made from a
panel), in the same run.
Then the invalid requests (401, 403, 429 answers, which Discord counts towards banning the bot's
address for a while) of a Bué match whose person has closed their DMs, with closed DMs remembered
(as now) and tried at every hand (as before).

    python -m bench.discord_calls
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import logging
import random
import statistics
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import replace
from typing import Any

import simcord
from simcord.http import client as simcord_client

from bot import publisher as publisher_module
from bot.click_tokens import ClickTokens
from bot.client import GameBot, bot_for
from bot.config import Settings
from bot.playground.world import close_dms
from tests.bot.bue_driver import BueDriver
from tests.bot.seriebum_driver import MemoryPlayers, SerieBumDriver
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
def no_click_tokens() -> Iterator[None]:
    """The reference: no click's token kept (as before issue 37's), the table's edits after a move
    from a panel or by a computer made by the channel's counted route."""

    def kept_none(self: ClickTokens, interaction: Any) -> None:
        return None

    original = ClickTokens.hold
    ClickTokens.hold = kept_none  # type: ignore[method-assign]
    try:
        yield
    finally:
        ClickTokens.hold = original  # type: ignore[method-assign]


# ---------------------------------------------------------------------- a move's calls


def counted(routes: Counter[str]) -> int:
    return sum(n for name, n in routes.items() if not name.split(" ", 1)[1].startswith(UNCOUNTED))


class Moves:
    """The REST calls of each move of a match, by the kind of move (its action's type, and how it
    was clicked), as the drivers play it through the real bot."""

    def __init__(self, env: Any, driver: Any) -> None:
        self.env, self.driver = env, driver
        self.by_kind: dict[str, list[Counter[str]]] = {}

    async def play(self, kind: str, move: Callable[[], Awaitable[Any]]) -> None:
        """Play ``move``; its calls are filed under ``kind`` and the types its log added."""
        logged = self.driver.query("SELECT COUNT(*) FROM actions")[0][0]
        calls = Calls(self.env)
        await move()
        types = [
            json.loads(action)["type"]
            for (action,) in self.driver.query("SELECT action FROM actions ORDER BY rowid")[logged:]
        ]
        self.by_kind.setdefault(f"{kind}: {'+'.join(types) or 'nothing'}", []).append(calls.routes())


async def bue_moves(env: Any) -> Moves:
    driver = BueDriver(env, env.bot.settings.database, players=3)
    await driver.open(target=60)
    moves, rng = Moves(env, driver), random.Random(3)
    while driver.status() == "running" and sum(map(len, moves.by_kind.values())) < 40:
        await moves.play("Bué, from its panels", lambda: driver.play_one(rng))
    return moves


async def seriebum_moves(env: Any) -> Moves:
    env.bot.seed_source = lambda: 2
    driver = SerieBumDriver(env, env.bot.settings.database)
    await driver.open(target=10)
    moves, players = Moves(env, driver), MemoryPlayers()
    while driver.status() == "running" and sum(map(len, moves.by_kind.values())) < 40:
        move = players.next(driver.state())
        await moves.play("Serie Bum!, from its panels", lambda move=move: driver.play(move))
    return moves


async def rummikub_moves(env: Any) -> Moves:
    driver = RummikubDriver(env, env.bot.settings.database)
    await driver.open()
    moves = Moves(env, driver)
    while driver.status() == "running" and sum(map(len, moves.by_kind.values())) < 40:
        game = driver.state()
        seat, play = game.turn, game.best_play(game.turn)
        if play:
            laid = functools.partial(driver.play_with_buttons, seat, play["tiles"])
            await moves.play("Rummikub, from its panel", laid)
        else:
            draw = functools.partial(driver.members[seat].click, driver.table_message(), label="Draw")
            await moves.play("Rummikub, on the table", draw)
    return moves


async def rumbugz_moves(env: Any) -> Moves:
    driver = RumBugzDriver(env, env.bot.settings.database, players=3)
    await driver.open(rounds=1)
    moves = Moves(env, driver)
    while not driver.state().finished and sum(map(len, moves.by_kind.values())) < 60:
        seat, action = oracle_move(driver.state())
        where = "on the table" if action["type"] in ("draw", "bid", "decline") else "from its panels"
        await moves.play(f"RumBugz, {where}", lambda seat=seat, action=action: driver.play(seat, action))
    return moves


GAMES: dict[str, Callable[[Any], Awaitable[Moves]]] = {
    "bue": bue_moves,
    "seriebum": seriebum_moves,
    "rummikub": rummikub_moves,
    "rumbugz": rumbugz_moves,
}


async def game_calls(play: Callable[[Any], Awaitable[Moves]]) -> dict[str, list[Counter[str]]]:
    async with running() as env:
        return (await play(env)).by_kind


def print_kinds(now: dict[str, list[Counter[str]]], before: dict[str, list[Counter[str]]]) -> None:
    """Each kind of move: its counted calls (most, median), against the reference's, and its routes."""
    for kind, calls in sorted(now.items()):
        each = sorted(counted(routes) for routes in calls)
        earlier = sorted(counted(routes) for routes in before.get(kind, []))
        print(
            f"\n{kind} ({len(calls)} moves): counted most {each[-1]}, median {statistics.median(each):g}"
            + (f" (before: most {earlier[-1]}, median {statistics.median(earlier):g})" if earlier else "")
            + f"; {GLOBAL_LIMIT / statistics.median(each):.1f} a second per token"
            * bool(statistics.median(each))
        )
        routes = sum(calls, Counter())
        for name, n in sorted(routes.items()):
            tag = "not counted" if name.split(" ", 1)[1].startswith(UNCOUNTED) else "counted"
            print(f"  {n / len(calls):.2f} x {name}  ({tag})")


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
    print("REST calls per move, by kind of move (counted: against the global limit of 50 a second)")
    for play in GAMES.values():
        now = await game_calls(play)
        with no_click_tokens():
            before = await game_calls(play)
        print_kinds(now, before)

    remembered, moves = await invalid_requests_of_a_match(remember=True)
    every_time, moves_before = await invalid_requests_of_a_match(remember=False)
    print(
        "\nInvalid requests (401/403/429) of a Bué match to 60, one person with closed DMs, two computers:"
        f"\n  closed DMs remembered: {remembered} in {moves} moves;"
        f" tried at every hand (before): {every_time} in {moves_before} moves"
    )


if __name__ == "__main__":
    asyncio.run(main())
