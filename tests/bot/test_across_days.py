"""Games played across days, through the real bot with SimCord's clock moved across them: quiet
hours in Rome and New York over a week of Bué (no deadline, no reminder and no ping in anyone's
night), a time bank that grows, caps and runs out, /away over a weekend and away days used when
time runs out, a game where everyone is away, the recap in the call to move, and a busy channel's
table posted anew at the bottom; a restart in the middle of each.

The oracle of who is asleep when is worked out from the zone database, not by the bot's own
functions (tests/bot/across_days.py)."""

from __future__ import annotations

import random
import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.refusals import REPOST_AFTER
from bot.traffic import SAVE_EVERY
from tests.bot.across_days import (
    DAY,
    HOUR,
    PEOPLE,
    asleep,
    at,
    awake_again,
    calls_in,
    living,
    now,
    said,
    timers,
)
from tests.bot.bue_driver import BueDriver
from tests.bot.test_rummikub_play import RummikubDriver
from tests.bot.test_turns import private, text_of


async def test_a_week_of_bue_between_rome_and_new_york_never_reaches_anyone_in_their_quiet_hours(
    simcord_env, database, make_bot
):
    driver = BueDriver(simcord_env, database, players=4)
    await living(driver, PEOPLE)
    await driver.open(target=1000, turn_timeout="12h")
    ids = {seat: member.id for seat, member in enumerate(driver.members)}
    rng = random.Random(38)
    start, steps, timed_out = now(simcord_env), 0, 0
    while now(simcord_env) < start + 7 * DAY and driver.status() == "running":
        steps += 1
        if steps == 30:
            await simcord_env.restart_bot(make_bot())
        # No deadline, reminder or held ping is ever planned in its player's quiet hours.
        for seat, kind, due in timers(driver, "expire", "remind", "ping"):
            assert not asleep(due, seat), (seat, kind, datetime.fromtimestamp(due, ZoneInfo(PEOPLE[seat][0])))
        expiries = timers(driver, "expire")
        if not expiries:  # nobody has a decision with a deadline: an optional one waits
            await driver.play_one(rng)
            continue
        seat, _, due = expiries[0]
        # The player comes back some time later: before their deadline, awake, they move.
        later = now(simcord_env) + rng.uniform(600, 12 * HOUR)
        if later < due and not asleep(later, seat):
            await simcord_env.advance_time(later - now(simcord_env))
            if seat in driver.state().to_act():
                await driver.play_one(rng, seat)
        else:
            timed_out += later >= due
            await simcord_env.advance_time(min(later, due + 1) - now(simcord_env))
    assert steps > 40 and timed_out > 3, (steps, timed_out)  # a week of moves, some timeouts

    history = list(driver.channel.history())
    for message in history:
        for seat, user in ids.items():
            if f"<@{user}>" in (message.content or ""):
                assert not asleep(at(message), seat), message.content  # nobody is pinged asleep
    for seat in ids:
        for dm in driver.dm_messages(seat):
            # A DM in the night (a hand dealt while asleep) makes no sound.
            assert dm.flags.suppress_notifications == asleep(at(dm), seat), dm.content
    # A player called to move in their night is named, not pinged, then pinged once as it ends
    # (unless a later call came first: their decision changed meanwhile).
    messages = sorted(history, key=at)
    calls = [(at(message), called) for message in messages for called in calls_in(message.content or "")]
    held = 0
    for time, called in calls:
        for seat, member in enumerate(driver.members):
            if f"**{member.name}**" not in called:
                continue
            awake = awake_again(time, seat)
            again = [when for when, who in calls if time < when <= awake and f"**{member.name}**" in who]
            if awake > now(simcord_env) or again:
                continue  # the week ended first, or a new decision of theirs was called meanwhile
            held += 1
            pinged = [when for when, who in calls if time < when and f"<@{member.id}>" in who]
            assert pinged and pinged[0] == awake and pinged.count(awake) == 1
    assert held >= 2


async def test_a_time_bank_grows_caps_and_runs_out(simcord_env, database, make_bot):
    driver = RummikubDriver(simcord_env, database)
    await driver.open(clock="2h+1h")
    anna, bruno = (driver.members[seat] for seat in (0, 1))
    first = driver.state().turn
    if first == 1:  # Anna to move first, for the figures below
        await bruno.click(driver.table_message(), label="Draw")

    def bank(seat: int) -> float | None:
        return driver.query(
            "SELECT bank_left FROM seats WHERE game_id = ? AND seat = ?", driver.game_id, seat
        )[0][0]

    def clock_field() -> str:
        fields = {field.name: field.value for field in driver.table_message().embeds[0].fields}
        return fields["⏳ Clock"]

    await simcord_env.advance_time(1.5 * HOUR)
    await anna.click(driver.table_message(), label="Draw")
    assert bank(0) == 1.5 * HOUR  # 2 h less 1 h 30 used, plus 1 h
    assert "**anna** · bank 1 h 30 min" in clock_field()
    ((due,),) = driver.query("SELECT due_at FROM timers WHERE seat = 1 AND kind = 'expire'")
    assert f"**bruno** · to decide, time runs out <t:{int(due)}:R>" in clock_field()
    await simcord_env.advance_time(10 * 60)
    await bruno.click(driver.table_message(), label="Draw")
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(10 * 60)
    await anna.click(driver.table_message(), label="Draw")
    assert bank(0) == 2 * HOUR  # 1 h 30 less 10 min, plus 1 h: capped at the bank's start
    assert bank(1) == 2 * HOUR

    # Bruno lets his bank run out: the rules' default move (a draw), then a stand-in after two.
    await simcord_env.advance_time(2 * HOUR + 1)
    assert "**bruno** ran out of time" in text_of_channel(driver)
    assert bank(1) == 1 * HOUR  # nothing left, plus the move's hour
    await anna.click(driver.table_message(), label="Draw")
    await simcord_env.advance_time(1 * HOUR + 1)
    assert driver.query("SELECT stand_in FROM seats WHERE seat = 1")[0][0] is not None
    assert "your time ran out twice in a row" in text_of_channel(driver)


def text_of_channel(driver: Any) -> str:
    return "\n".join(message.content or "" for message in driver.channel.history())


async def two_games_of_anna(env: Any, database: str) -> tuple[RummikubDriver, RummikubDriver]:
    """Anna in two Rummikub games of two channels, on the default clock (a day per move), her move
    in both."""
    first = RummikubDriver(env, database)
    await first.open()
    second = RummikubDriver(env, database)
    second.guild = first.guild
    second.channel = first.guild.create_text_channel("more-games")
    second.members = [first.members[0], first.guild.add_member(env.create_user("carla"))]
    await second.open()
    for driver in (first, second):
        if driver.state().turn != 0:
            await driver.members[1].click(driver.table_message(), label="Draw")
    return first, second


async def test_away_over_a_weekend_then_away_days_used_as_time_runs_out_each_told_once(
    simcord_env, database, make_bot
):
    first, second = await two_games_of_anna(simcord_env, database)
    anna = first.members[0]
    ((due_before,),) = first.query(
        "SELECT due_at FROM timers WHERE game_id = ? AND kind = 'expire'", first.game_id
    )
    away = await anna.slash(first.channel, "away", duration="2d")
    assert private(away) and "You're away until" in text_of(away)
    for driver in (first, second):
        assert said(driver, "**anna** is away until") == 1
    # Her clocks stop while away: her deadline moves on by the two days.
    ((due,),) = first.query("SELECT due_at FROM timers WHERE game_id = ? AND kind = 'expire'", first.game_id)
    assert due == due_before + 2 * DAY
    turns = await anna.slash(first.channel, "turns")
    assert "Away until <t:" in turns.response.embeds[0].fields[-1].value

    # Back on Sunday night, she plays her other game, not this one: each time her time runs out
    # here, one of her away days is used (7 in 30 days, 2 taken), until none is left; then the
    # timeout does what it did. Her other game is not held up by them.
    await simcord_env.advance_time(2 * DAY - 60)
    await anna.click(second.table_message(), label="Draw")
    await simcord_env.advance_time(due - now(simcord_env) + 1)
    assert said(first, "**anna**'s time ran out: one of their away days is used") == 1
    await simcord_env.restart_bot(make_bot())
    for _ in range(5):
        ((due,),) = first.query(
            "SELECT due_at FROM timers WHERE game_id = ? AND kind = 'expire'", first.game_id
        )
        await simcord_env.advance_time(due - now(simcord_env) + 1)
    assert said(first, "**anna**'s time ran out: one of their away days is used") == 5
    assert said(first, "**anna** ran out of time") == 1
    spans = first.query(
        "SELECT ends_at - starts_at, automatic FROM away_spans WHERE user_id = ? ORDER BY starts_at", anna.id
    )
    assert sum(length for length, _ in spans) == 7 * DAY  # every away day accounted for
    assert [automatic for _, automatic in spans] == [0, 1, 1, 1, 1, 1]
    assert said(second, "**anna** is away until") == 1
    assert said(second, "**anna**'s time ran out") == 0
    left = await anna.slash(first.channel, "preferences show")
    assert "left: 0 (of 7 days)" in left.response.embeds[0].fields[-1].value


async def test_a_game_where_everyone_is_away_says_so_and_waits(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    anna, bruno = driver.members
    await anna.slash(driver.channel, "away", duration="3d")
    assert said(driver, "Everyone at this table is away") == 0
    await bruno.slash(driver.channel, "away", duration="2d")
    assert said(driver, "Everyone at this table is away") == 1
    version = driver.version()
    await simcord_env.advance_time(2 * DAY - 60)
    assert driver.version() == version  # nothing happens while everyone is away
    back = await bruno.slash(driver.channel, "away", duration="off")
    assert private(back) and said(driver, "**bruno** is back") == 1


async def test_a_call_to_move_in_the_night_is_held_and_brings_the_recap(simcord_env, database, make_bot):
    driver = RummikubDriver(simcord_env, database)
    anna, bruno = driver.members
    await living(driver, {0: PEOPLE[0]})
    await driver.open(turn_timeout="2d")
    if driver.state().turn == 0:
        await anna.click(driver.table_message(), label="Draw")
    named = said(driver, "**anna**: your move")  # dealt at 01:00 in Rome, she may have been called
    # Bruno moves at 23:30 in Rome, a day after Anna's last move: she is named, not pinged.
    await simcord_env.advance_time(22.5 * HOUR - now(simcord_env) % DAY)
    await bruno.click(driver.table_message(), label="Draw")
    assert said(driver, "**anna**: your move") == named + 1 and said(driver, f"<@{anna.id}>") == 0
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(8.5 * HOUR - 60)
    assert said(driver, f"<@{anna.id}>") == 0
    await simcord_env.advance_time(61)  # 08:00 in Rome
    assert said(driver, f"<@{anna.id}>: your move") == 1
    (dm,) = [m for m in driver.dm_messages(0) if "Since your last move" in (m.content or "")]
    assert "**bruno** drew a tile" in dm.content and "You drew" not in dm.content
    assert not dm.flags.suppress_notifications
    await simcord_env.advance_time(HOUR)
    assert said(driver, f"<@{anna.id}>: your move") == 1  # once


async def test_a_busy_channel_brings_the_table_down_to_its_last_messages(simcord_env, database, make_bot):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    table = driver.table_id()
    chatter = driver.members[1]
    said_first = [await chatter.send(driver.channel, f"chat {n}") for n in range(REPOST_AFTER - SAVE_EVERY)]
    seat = driver.state().turn
    await driver.members[seat].click(driver.table_message(), label="Draw")
    assert driver.table_id() == table  # not yet buried
    await simcord_env.restart_bot(make_bot())  # the count is kept across it
    said_then = [await chatter.send(driver.channel, f"more chat {n}") for n in range(SAVE_EVERY)]
    seat = driver.state().turn
    await driver.members[seat].click(driver.table_message(), label="Draw")
    assert driver.table_id() > max(message.id for message in [*said_first, *said_then])  # at the bottom
    old = next(m for m in driver.channel.history() if m.id == table)
    assert re.search("table moved", old.content or "") and not old.embeds
    assert driver.query("SELECT messages_after FROM games WHERE id = ?", driver.game_id) == [(0,)]
