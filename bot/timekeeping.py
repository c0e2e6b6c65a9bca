"""A game's clock and a player's time as the bot reads them from its rows: what the lobby, the
commands and the timers' planner use of ``bot.clock`` (which is pure, and knows no row).

- a game's clock (``game_clock``), a host's (``split_clock``), a new game's (``opening_clock``);
- a seat's player's time (``player_time``), its new decision's deadline and reminder
  (``decision_timers``), its bank once a decision is over (``bank_after_decision``);
- a player's away days (``away_allowance``) and where they stand (``AwayStatus``, ``away_text``);
- clocks and away time as players read them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.clock import (
    DEFAULT_AWAY_DAYS,
    DEFAULT_MOVE,
    MOVE_MAX,
    MOVE_MIN,
    Clock,
    PlayerTime,
    Span,
    charged,
    check_zone,
    deadline,
    parse_clock,
    parse_quiet_hours,
    reminder_at,
)
from bot.i18n import discord_time, duration_text, parse_duration, t
from bot.store import GameRow, SeatRow
from games.core import GameError

# The player's game options that are its clock, rather than the game's rules (``split_clock``).
CLOCK_OPTIONS = ("turn_timeout", "clock_increment")


def turn_timeout_seconds(text: str | None, default: int = DEFAULT_MOVE) -> int:
    """A turn timeout as players type it ("12h"), checked; ``default`` when none is given."""
    if text is None:
        return default
    try:
        seconds = parse_duration(text)
    except ValueError:
        raise GameError("error.timeout_unreadable", text=text) from None
    if not MOVE_MIN <= seconds <= MOVE_MAX:
        raise GameError("error.timeout_range")
    return seconds


def kept_away_days(kept: Mapping[str, Any]) -> int:
    """The away days per 30 days of a game's server when it started (the default for games from
    before the setting)."""
    return int(kept.get("away_days", DEFAULT_AWAY_DAYS))


def away_allowance(here: int | None, games: Iterable[Mapping[str, Any]]) -> int:
    """A player's away days: the fewest that the server they ask in (``here``; None in DMs) and
    the servers of their running games (each game's kept settings) allow, so no server's limit
    is escaped by asking in another; the default when none applies."""
    allowed = [kept_away_days(kept) for kept in games]
    if here is not None:
        allowed.append(here)
    return min(allowed, default=DEFAULT_AWAY_DAYS)


def game_clock(row: GameRow) -> Clock:
    """A game's clock, as it keeps it (see ``bot.clock.Clock``)."""
    return Clock(row.turn_timeout, row.clock_increment)


def player_time(seat: SeatRow) -> PlayerTime:
    """What a seat's deadlines depend on of its player: their time zone and quiet hours (ignored
    without a zone, or one the zone database no longer knows) and their last away span."""
    zone = quiet = None
    if seat.time_zone is not None and seat.quiet_hours is not None:
        try:
            zone, quiet = check_zone(seat.time_zone), parse_quiet_hours(seat.quiet_hours)
        except GameError:
            zone = quiet = None
    away: tuple[Span, ...] = ()
    if seat.away_from is not None and seat.away_until is not None:
        away = (Span(seat.away_from, seat.away_until),)
    return PlayerTime(zone, quiet, away)


def decision_timers(now: float, row: GameRow, seat: SeatRow, share: float) -> tuple[float, float | None]:
    """When a seat's decision that begins at ``now`` runs out, and when to remind its player (None:
    no reminder): from the game's clock, the seat's bank and its player's time (the timers'
    planner's one call for a new decision; ``share``: ``reminder_share`` of the game)."""
    clock, player = game_clock(row), player_time(seat)
    due = deadline(now, clock, seat.bank_left, player)
    return due, reminder_at(now, clock.time_for(seat.bank_left), due, share, player)


def bank_after_decision(row: GameRow, seat: SeatRow, began: float, now: float, moved: bool) -> float | None:
    """The seat's bank once its decision, open since ``began``, is over at ``now`` (``moved``: by a
    move of its own, the referee's on a timeout included): what the commit writes to
    ``seats.bank_left``; None for a game on a time per move. Time away is not charged."""
    used = charged(began, now, player_time(seat).away)
    return game_clock(row).bank_after(seat.bank_left, used, moved)


def split_clock(options: Mapping[str, int]) -> tuple[Clock | None, dict[str, int]]:
    """A host's game options (``/preferences game_options``): their clock, if they chose one, and
    the game's own options."""
    rules = {name: value for name, value in options.items() if name not in CLOCK_OPTIONS}
    if "turn_timeout" not in options:
        return None, rules
    return Clock(options["turn_timeout"], options.get("clock_increment")), rules


def opening_clock(clock: str | None, turn_timeout: str | None, hosts: Clock | None, server: Clock) -> Clock:
    """The clock of a game opening: its start command's ``clock``, else its ``turn_timeout`` (a
    time per move), else the host's own (``split_clock``), else the server's; checked."""
    if clock is not None:
        return parse_clock(clock)
    if turn_timeout is not None:
        return Clock(turn_timeout_seconds(turn_timeout))
    return hosts or server


def clock_text(lang: str, clock: Clock) -> str:
    """A clock as players read it: ``24 h``, or ``a bank of 3 d, +12 h after each move``."""
    if clock.increment is None:
        return duration_text(lang, clock.seconds)
    if not clock.increment:
        return t(lang, "time.clock.bank_only", bank=duration_text(lang, clock.seconds))
    increment = duration_text(lang, clock.increment)
    return t(lang, "time.clock.bank", bank=duration_text(lang, clock.seconds), increment=increment)


def clock_line(lang: str, clock: Clock) -> str:
    """The lobby's line about the game's clock."""
    if clock.increment is None:
        return t(lang, "lobby.timeout", duration=duration_text(lang, clock.seconds))
    return t(lang, "time.lobby.clock", clock=clock_text(lang, clock))


@dataclass(frozen=True)
class AwayStatus:
    """A player's away time: the span they are in (if any), the seconds spent away in the last
    30 days and what is left of their ``allowance`` (days)."""

    current: Span | None
    used: float
    left: float
    allowance: int


def setting_clock(name: str, text: str) -> Clock:
    """``/settings clock`` (any clock) or ``/settings turn_timeout`` (a time per move), checked."""
    return parse_clock(text) if name == "clock" else Clock(turn_timeout_seconds(text))


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
