"""The rows' side of time, pure: the planner's pings held through quiet hours, the banks a change
leaves, and the count of messages under a table (``bot.traffic``) with when it posts the table
anew."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import discord

from bot.model import GameRow, SeatRow, TimerRow
from bot.planning import plan_people, started_clocks
from bot.refusals import REPOST_AFTER, due_for_repost
from bot.timekeeping import banks_after
from bot.traffic import SAVE_EVERY, Traffic

HOUR = 3600
EXCHANGE = frozenset({"deck", "swap"})
REVEAL = frozenset({"reveal"})
# 2026-01-05 23:30 in Rome (22:30 UTC): in Anna's quiet hours, which end at 08:00 (07:00 UTC).
NIGHT = datetime(2026, 1, 5, 22, 30, tzinfo=UTC).timestamp()
MORNING = datetime(2026, 1, 6, 7, 0, tzinfo=UTC).timestamp()


def row_of(timeout: int, increment: int | None = None) -> GameRow:
    return GameRow(
        1, "bue", 5, 10, 1, "running", {}, timeout, "en", 1, None, 3, None, clock_increment=increment
    )


def anna(**fields: object) -> SeatRow:
    seat = SeatRow(0, 1, "anna", "en", 0, False, False, time_zone="Europe/Rome", quiet_hours="23-08")
    return replace(seat, **fields)


def test_a_decision_that_comes_in_quiet_hours_holds_its_ping_until_they_end_and_sends_it_once():
    row = row_of(12 * HOUR)
    planned = plan_people(row, [anna()], {0: EXCHANGE}, [], NIGHT)
    assert (0, "ping", "deck,swap", MORNING) in planned
    # The clock runs through the night: the deadline at 11:30, 12 h on, out of the quiet hours; the
    # reminder at half time, 05:30, in them, would move to their end: the ping calls her then.
    assert planned == [(0, "expire", "deck,swap", NIGHT + 12 * HOUR), (0, "ping", "deck,swap", MORNING)]
    assert started_clocks([], planned) == [0]
    kept = [TimerRow(1, *timer) for timer in planned if timer[1] != "ping"]  # the ping was sent
    again = plan_people(row, [anna(decision_at=NIGHT)], {0: EXCHANGE}, kept, MORNING)
    assert again == [(0, "expire", "deck,swap", NIGHT + 12 * HOUR)]
    assert started_clocks(kept, again) == []
    # With a longer clock, the reminder comes after the ping, on its own.
    longer = plan_people(row_of(24 * HOUR), [anna()], {0: EXCHANGE}, [], NIGHT)
    assert (0, "remind", "deck,swap", NIGHT + 12 * HOUR) in longer
    # Without quiet hours (no time zone), no ping is held.
    plain = plan_people(row, [anna(time_zone=None)], {0: EXCHANGE}, [], NIGHT)
    assert [kind for _, kind, _, _ in plain] == ["expire", "remind"]


def test_banks_after_a_change_charge_the_time_used_and_give_the_mover_its_increment():
    row = row_of(2 * HOUR, HOUR)
    seats = [
        anna(decision_at=0.0, bank_left=1.5 * HOUR),
        SeatRow(1, 2, "bruno", "en", 0, False, False, decision_at=0.0),
        SeatRow(2, -1, "🤖", "en", 0, False, False, robot="hard", decision_at=0.0),
    ]
    before = {0: EXCHANGE, 1: REVEAL, 2: REVEAL}
    after = {1: EXCHANGE, 2: EXCHANGE}
    # Anna moved after half an hour: 1 h 30 less 30 min, plus an hour. Bruno's decision changed
    # under him: charged, nothing added. The computer keeps no bank.
    assert banks_after(row, seats, before, after, 0, HOUR / 2) == {0: 2 * HOUR, 1: 1.5 * HOUR}
    # A decision that stays as it was is not charged yet.
    assert banks_after(row, seats, before, {0: EXCHANGE, 1: REVEAL}, None, HOUR) == {}
    # On a time per move, a decision over leaves the full time for the next one.
    assert banks_after(row_of(2 * HOUR), seats, before, after, 0, HOUR) == {0: 2 * HOUR, 1: 2 * HOUR}


def test_the_messages_under_a_table_are_counted_saved_every_few_and_post_it_anew():
    traffic = Traffic()
    row = replace(row_of(HOUR), message_id=100, messages_after=0)
    assert traffic.posted(10, 101) == 0  # no table known in that channel yet
    traffic.watch(10, 100)
    assert traffic.posted(10, 99) == 0  # older than the table
    saved = [traffic.posted(10, 101 + number) for number in range(2 * SAVE_EVERY + 1)]
    assert saved == ([0] * (SAVE_EVERY - 1) + [SAVE_EVERY]) * 2 + [0]
    assert traffic.after(replace(row, messages_after=2 * SAVE_EVERY)) == 2 * SAVE_EVERY + 1
    traffic.watch(10, 200)  # posted anew: counted from it
    assert traffic.after(replace(row, message_id=200)) == 0
    traffic.forget(10)
    assert traffic.posted(10, 300) == 0
    young = discord.utils.time_snowflake(datetime(2026, 1, 1, tzinfo=UTC))
    now = datetime(2026, 1, 1, 0, 5, tzinfo=UTC).timestamp()
    assert not due_for_repost(young, now, REPOST_AFTER - 1)
    assert due_for_repost(young, now, REPOST_AFTER)
