"""Clocks, deadlines and away time as players read them: every deadline a Discord timestamp
(``bot.i18n.discord_time``, which discord.py's ``format_dt`` writes), every duration in the
reader's words; and the table's clock, the one field every game's table shows it in."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.clock import Clock, current_away
from bot.i18n import discord_time, duration_text, t
from bot.model import GameRow, SeatRow, TimerRow
from bot.planning import EXPIRE
from bot.timekeeping import AwayStatus, game_clock, player_time


def clock_text(lang: str, clock: Clock) -> str:
    """A clock as players read it: ``24 h``, or ``a bank of 3 d, +12 h after each move``."""
    if clock.increment is None:
        return duration_text(lang, clock.seconds)
    if not clock.increment:
        return t(lang, "time.clock.bank_only", bank=duration_text(lang, clock.seconds))
    increment = duration_text(lang, clock.increment)
    return t(lang, "time.clock.bank", bank=duration_text(lang, clock.seconds), increment=increment)


def clock_line(lang: str, clock: Clock) -> str:
    """The lobby's line about the game's clock (a rule of the game, not a deadline yet)."""
    if clock.increment is None:
        return t(lang, "lobby.timeout", duration=duration_text(lang, clock.seconds))
    return t(lang, "time.lobby.clock", clock=clock_text(lang, clock))


def away_text(lang: str, away: AwayStatus) -> str:
    """Where a player's away time stands: away until when, if they are; used and left."""
    lines = []
    if away.current is not None:
        ends = away.current.ends
        lines.append(t(lang, "time.away.until", until=discord_time(ends), relative=discord_time(ends, "R")))
    lines.append(
        t(
            lang,
            "time.away.days",
            used=duration_text(lang, int(away.used)),
            left=duration_text(lang, int(away.left)) if away.left >= 60 else "0",
            days=away.allowance,
        )
    )
    return "\n".join(lines)


def clock_lines(
    lang: str, row: GameRow, seats: Sequence[SeatRow], timers: Sequence[TimerRow], now: float
) -> list[str]:
    """The table's clock, a line per person it concerns: the deadline of each one to decide, who is
    away and until when, and on a bank each other player's bank; nothing for a computer."""
    bank = game_clock(row).is_bank
    due = {timer.seat: timer.due_at for timer in timers if timer.kind == EXPIRE}
    lines = []
    for seat in seats:
        if seat.gone or seat.played_by_computer:
            continue
        away = current_away(now, player_time(seat).away)
        parts = []
        if seat.seat in due:
            parts.append(t(lang, "time.table.due", deadline=discord_time(due[seat.seat], "R")))
        elif bank:
            left = game_clock(row).time_for(seat.bank_left)
            parts.append(t(lang, "time.table.bank", bank=duration_text(lang, int(left))))
        if away is not None:
            parts.append(t(lang, "time.table.away", until=discord_time(away.ends, "R")))
        if parts:
            lines.append(f"**{seat.name}** · " + " · ".join(parts))
    return lines


# Discord's most fields in an embed, and characters in a field's value.
MOST_FIELDS, FIELD_LIMIT = 25, 1024


def add_clock(
    embed: discord.Embed,
    lang: str,
    row: GameRow,
    seats: Sequence[SeatRow],
    timers: Sequence[TimerRow],
    now: float,
) -> None:
    """The table's clock (``clock_lines``) as a field of its embed, the same for every game."""
    lines = clock_lines(lang, row, seats, timers, now)
    if lines and len(embed.fields) < MOST_FIELDS:
        value = "\n".join(lines)
        if len(value) > FIELD_LIMIT:
            value = value[: FIELD_LIMIT - 1] + "…"
        embed.add_field(name=t(lang, "time.table.clock"), value=value, inline=False)
