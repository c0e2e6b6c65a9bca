"""Issue 38's "done when": a week of the four games at once on two servers, through the real bot
with SimCord's clock moved across it.

Anna, Bruno, Carla and Dario live in Rome and New York, with quiet hours. In the first server they
play Bué together, and Carla and Anna Rummikub; in the second, Dario and Anna Serie Bum!, and
Bruno, Dario and Anna RumBugz. Each comes back to a game at a random (seeded) time, awake, and
moves if their deadline has not passed; Anna is quick, Carla slow. Bruno is away over the weekend;
the bot restarts midweek. At the end: nobody was pinged in their quiet hours, no deadline or
reminder was planned in them, nobody was timed out with away days left and every away day used is
told once and stored, every recap received hides what its reader could not see, and ``/turns``
lists Anna's games of both servers, the longest waiting first, each time it is asked.

The oracles are the zone database (tests/bot/across_days.py), the store, and the games played
again from their logs."""

from __future__ import annotations

import asyncio
import json
import math
import random
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import discord

from bot.games.bue.adapter import ADAPTER as BUE
from bot.games.rumbugz.adapter import ADAPTER as RUMBUGZ
from bot.games.rummikub.adapter import ADAPTER as RUMMIKUB
from bot.games.seriebum.adapter import ADAPTER as SERIEBUM
from bot.i18n import t
from bot.replays import MatchRecord, SeatEntry, replayed
from bot.store.turns import Logged
from tests.bot.across_days import (
    DAY,
    HOUR,
    NEW_YORK,
    PEOPLE,
    asleep,
    at,
    awake_again,
    living,
    now,
    timers,
)
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import NAMES, TableDriver
from tests.bot.recap_secrets import CODES, Secrets, assert_recap_keeps_secrets, seat_views
from tests.bot.seriebum_driver import MemoryPlayers, SerieBumDriver
from tests.bot.test_rumbugz_play import RumBugzDriver, oracle_move
from tests.bot.test_rummikub_play import RummikubDriver
from tests.bot.test_turns import private

ANNA, BRUNO, CARLA, DARIO = range(4)
# How long each person may take to come back to a game, at most (they move when they come back,
# awake, if their deadline has not passed): Anna is never late, Carla often.
PATIENCE = {ANNA: 3 * HOUR, BRUNO: 8 * HOUR, CARLA: 30 * HOUR, DARIO: 16 * HOUR}
# Each server's away days per 30 days: a player's are the fewest of their games' servers.
AWAY_DAYS = {"north": 3, "south": 2}
ADAPTERS = {adapter.name: adapter for adapter in (BUE, SERIEBUM, RUMMIKUB, RUMBUGZ)}
Move = Callable[[random.Random, int], Awaitable[None]]


@dataclass
class Table:
    """A game of the week: its driver, how its players move, and who sits where (``PEOPLE``'s keys)."""

    driver: TableDriver[Any]
    move: Move
    people: list[int]


def bue_moves(driver: BueDriver) -> Move:
    return lambda rng, seat: driver.play_one(rng, seat)


def rummikub_moves(driver: RummikubDriver) -> Move:
    async def move(rng: random.Random, seat: int) -> None:
        play = driver.state().best_play(seat)
        member = driver.members[seat]
        if play is None:
            await member.click(driver.table_message(), label="Draw")
        else:
            await member.slash(driver.channel, "rummikub play", tiles=" ".join(play["tiles"]))

    return move


def seriebum_moves(driver: SerieBumDriver) -> Move:
    players = MemoryPlayers()

    async def move(rng: random.Random, seat: int) -> None:
        driver.panels.clear()  # a panel opened before a timeout or a restart is out of date
        await driver.play(players.next(driver.state()))

    return move


def rumbugz_moves(driver: RumBugzDriver) -> Move:
    async def move(rng: random.Random, seat: int) -> None:
        bidder, action = oracle_move(driver.state())
        if bidder != seat:  # someone else would bid for the discard: the player draws meanwhile
            action = {"type": "draw", "source": "bag"}
        await driver.play(seat, action)

    return move


def recorded(driver: TableDriver[Any], game_id: int) -> tuple[MatchRecord, list[Logged]]:
    """The game as the store keeps it: its record (to play it again) and its log."""
    ((kind, options, seed),) = driver.query("SELECT kind, options, seed FROM games WHERE id = ?", game_id)
    names = driver.query("SELECT name FROM seats WHERE game_id = ? ORDER BY seat", game_id)
    log = [
        Logged(seat, json.loads(action), bool(by_timeout), when)
        for seat, action, by_timeout, when in driver.query(
            "SELECT seat, action, by_timeout, at FROM actions WHERE game_id = ? ORDER BY number", game_id
        )
    ]
    seats = [SeatEntry(name) for (name,) in names]
    return MatchRecord(
        kind, json.loads(options), seed, seats, [(item.seat, item.action) for item in log]
    ), log


def decision_began(driver: TableDriver[Any], seat: int) -> float:
    """When the decision the game waits on ``seat`` for began: the action after which the seat's
    open actions last changed, found by playing the game again from its log."""
    match, log = recorded(driver, driver.game_id)
    ((since,),) = driver.query("SELECT started_at FROM games WHERE id = ?", driver.game_id)
    previous = None
    for position, (game, _) in enumerate(replayed(driver.engine, match)):
        deciding = game.required_to_act().get(seat)
        if deciding != previous and position:
            since = log[position - 1].at
        previous = deciding
    return float(since)


def recaps_keep_secrets(driver: TableDriver[Any], received: list[tuple[int, float, str]]) -> Secrets:
    """Each recap received by a seat of the game (``received``: the seat, when, the DM's text)
    checked against the game played again up to the moves logged by then."""
    match, log = recorded(driver, driver.game_id)
    adapter, codes = ADAPTERS[match.kind], CODES[match.kind]
    views = seat_views(adapter, match, codes)
    secrets = Secrets()
    for seat, when, content in received:
        # A message's time is its snowflake's, to the millisecond below the move's it follows.
        cut = sum(logged.at <= when + 0.001 for logged in log)
        found = assert_recap_keeps_secrets(adapter, match, log, views, codes, cut, seat, content)
        secrets.private_told += found.private_told
        secrets.hidden_kept += found.hidden_kept
    return secrets


def away_for(spans: list[tuple[float, float, int]], before: float) -> float:
    """The time a person's away spans that began by ``before`` cover, overlaps counted once."""
    covered, reach = 0.0, -math.inf
    for starts, ends, _ in sorted(span for span in spans if span[0] <= before):
        covered += max(0.0, ends - max(starts, reach))
        reach = max(reach, ends)
    return covered


def comes_back(rng: random.Random, person: int, instant: float, due: float) -> float | None:
    """When ``person`` next comes to a game (awake), or None when their deadline comes first."""
    later = instant + rng.uniform(600, PATIENCE[person])
    if asleep(later, person):
        later = awake_again(later, person) + rng.uniform(0, HOUR)
    return later if later < due else None


def weekend(instant: float) -> bool:
    """Friday evening in New York, Bruno's time to say he is away."""
    wall = datetime.fromtimestamp(instant, ZoneInfo(NEW_YORK))
    return wall.weekday() == 4 and wall.hour >= 18


async def check_turns(tables: list[Table], anna: dict[str, Any], channels: dict[str, Any]) -> list[int]:
    """``/turns`` asked by Anna in each server: the same list, her games waiting on her from both
    servers, the longest waiting first (by the oracle's reckoning); the channels listed."""
    waiting = []
    for table in tables:
        seat = table.people.index(ANNA)
        if any(who == seat for who, _, _ in timers(table.driver, "expire")):
            # The game played again off the event loop, as the bot would (the Rummikub solver).
            began = await asyncio.to_thread(decision_began, table.driver, seat)
            waiting.append((began, table.driver.game_id, table.driver.channel.id))
    expected = [channel for _, _, channel in sorted(waiting)]
    answers = [await anna[server].slash(channels[server], "turns") for server in ("north", "south")]
    assert all(private(answer) for answer in answers)
    listed = [answer.response.embeds[0].fields[0].value for answer in answers]
    assert listed[0] == listed[1]
    assert [int(channel) for channel in re.findall(r"<#(\d+)>", listed[0])] == expected, listed[0]
    return expected


async def test_a_week_of_four_games_on_two_servers_between_rome_and_new_york(simcord_env, database, make_bot):
    env = simcord_env
    # The week starts on a Monday, 07:00 UTC (08:00 in Rome, 02:00 in New York).
    today = env.now()
    monday = datetime(today.year, today.month, today.day, 7, tzinfo=UTC).timestamp()
    monday += ((7 - today.weekday()) % 7 or 7) * DAY
    await env.advance_time(monday - now(env))

    servers = {name: env.create_guild(name) for name in AWAY_DAYS}
    users = [env.create_user(name) for name in NAMES[:4]]
    members = {name: [guild.add_member(user) for user in users] for name, guild in servers.items()}
    north, south = members["north"], members["south"]
    bue = BueDriver(env, database, guild=servers["north"], members=north)
    rummikub = RummikubDriver(env, database, guild=servers["north"], members=[north[CARLA], north[ANNA]])
    seriebum = SerieBumDriver(env, database, guild=servers["south"], members=[south[DARIO], south[ANNA]])
    rumbugz = RumBugzDriver(
        env, database, guild=servers["south"], members=[south[BRUNO], south[DARIO], south[ANNA]]
    )
    channels = {"north": bue.channel, "south": seriebum.channel}
    for name, guild in servers.items():
        admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
        admin = guild.add_member(env.create_user(f"admin of {name}"), roles=[admins])
        await admin.slash(channels[name], "settings away_days", days=AWAY_DAYS[name])
    await living(bue, PEOPLE)
    await bue.open(target=1000)
    await rummikub.open(rounds=5)
    await seriebum.open()
    await rumbugz.open()
    tables = [
        Table(bue, bue_moves(bue), [ANNA, BRUNO, CARLA, DARIO]),
        Table(rummikub, rummikub_moves(rummikub), [CARLA, ANNA]),
        Table(seriebum, seriebum_moves(seriebum), [DARIO, ANNA]),
        Table(rumbugz, rumbugz_moves(rumbugz), [BRUNO, DARIO, ANNA]),
    ]

    rng = random.Random(38)
    start = now(env)
    plans: dict[tuple[int, int, float], float | None] = {}
    moves = planned_timers = 0
    restarted = away = False
    turns_checked: list[list[int]] = []
    while now(env) < start + 7 * DAY:
        if not restarted and now(env) > start + 3.5 * DAY:
            await env.restart_bot(make_bot())
            restarted = True
        if not away and weekend(now(env)) and not asleep(now(env), BRUNO):
            gone = await bue.members[BRUNO].slash(bue.channel, "away", duration="2d")
            assert private(gone) and "You're away until" in gone.response.content
            away = True
        # No deadline, reminder or held ping is ever planned in its player's quiet hours.
        deadlines: dict[tuple[int, int, float], int] = {}
        for index, table in enumerate(tables):
            if table.driver.status() != "running":
                continue
            for seat, kind, due in timers(table.driver, "expire", "remind", "ping"):
                person = table.people[seat]
                assert not asleep(due, person), (NAMES[person], kind, datetime.fromtimestamp(due, UTC))
                planned_timers += 1
                if kind == "expire":
                    deadlines[index, seat, due] = person
        # Now and then, Anna asks where she is waited on (each new set of her games waiting, once).
        anna_waits = {
            tables[index].driver.guild for (index, seat, _), who in deadlines.items() if who == ANNA
        }
        if len(anna_waits) == 2 and len(turns_checked) < 4:
            anna = {name: members[name][ANNA] for name in servers}
            listed = await check_turns(tables, anna, channels)
            if listed not in turns_checked:
                turns_checked.append(listed)
        for key, person in deadlines.items():
            if key not in plans:
                plans[key] = comes_back(rng, person, now(env), key[2])
        coming = sorted((when, key) for key, when in plans.items() if key in deadlines and when is not None)
        if not coming:  # everyone waited on is late: time runs out
            await env.advance_time(
                min((due for *_, due in deadlines), default=now(env) + 6 * HOUR) - now(env) + 1
            )
            continue
        when, (index, seat, due) = coming[0]
        await env.advance_time(max(0.0, when - now(env)))
        del plans[index, seat, due]  # the same decision may wait on them again (a second flip)
        table = tables[index]
        if (seat, "expire", due) in timers(table.driver, "expire") and table.driver.status() == "running":
            await table.move(rng, seat)
            moves += 1
    assert restarted and away and moves > 40, (moves, restarted, away)
    assert all(table.driver.status() == "running" for table in tables)
    assert len(turns_checked) >= 2, turns_checked

    ids = {user.id: person for person, user in enumerate(users)}
    # Nobody is pinged in their quiet hours, in a channel or by a DM that makes a sound.
    for table in tables:
        for message in table.driver.channel.history():
            for user, person in ids.items():
                if f"<@{user}>" in (message.content or ""):
                    assert not asleep(at(message), person), (NAMES[person], message.content)
    for person, user in enumerate(users):
        for dm in user.dm_channel.history():
            assert dm.flags.suppress_notifications or not asleep(at(dm), person), (NAMES[person], dm.content)

    # Nobody timed out (the rules' default move, or a stand-in) with away days left.
    spans = {
        person: bue.query(
            "SELECT starts_at, ends_at, automatic FROM away_spans WHERE user_id = ? ORDER BY starts_at",
            user.id,
        )
        for person, user in enumerate(users)
    }
    allowance = {
        person: min(AWAY_DAYS[table.driver.guild.name] for table in tables if person in table.people)
        for person in spans
    }
    timed_out = 0
    for table in tables:
        _, log = recorded(table.driver, table.driver.game_id)
        for logged in log:
            if logged.by_timeout:
                person = table.people[logged.seat]
                used = away_for(spans[person], logged.at)
                assert allowance[person] * DAY - used < HOUR, (NAMES[person], logged)
                timed_out += 1
    # Every away day is accounted for: each used as time ran out is told once, in its game's channel,
    # and the days told are the days the store counts; none beyond the person's allowance.
    notice = re.compile(r"\*\*(\w+)\*\*'s time ran out: one of their away days is used, until <t:(\d+)")
    told = Counter(
        (table.driver.channel.id, name, int(until), at(message))
        for table in tables
        for message in table.driver.channel.history()
        for name, until in notice.findall(message.content or "")
    )
    assert set(told.values()) == {1}, told
    # Two games running out at one instant use the same day of the person's (one span, as the
    # bot counts time away, not games): told in each game.
    stored = {
        (NAMES[person], int(ends))
        for person, rows in spans.items()
        for _, ends, automatic in rows
        if automatic
    }
    assert {(name, until) for _, name, until, _ in told} == stored
    assert len(told) >= 2
    for person, rows in spans.items():
        assert away_for(rows, math.inf) <= allowance[person] * DAY, (NAMES[person], rows)
    assert [automatic for *_, automatic in spans[BRUNO]][:1] == [0]  # his weekend away
    assert timed_out > 0

    # Every recap a player received hides what their seat could not see.
    heading = t("en", "time.recap.heading")
    secrets, recaps = Secrets(), Counter[str]()
    for table in tables:
        received = [
            (seat, at(dm), dm.content)
            for seat, person in enumerate(table.people)
            for dm in users[person].dm_channel.history()
            if heading in (dm.content or "") and f"/{table.driver.channel.id}/" in dm.content
        ]
        found = await asyncio.to_thread(recaps_keep_secrets, table.driver, received)
        secrets.private_told += found.private_told
        secrets.hidden_kept += found.hidden_kept
        recaps[table.driver.engine.name] += len(received)
    assert len(recaps) >= 3 and secrets.hidden_kept > 0, (recaps, secrets)
    assert planned_timers > 100
