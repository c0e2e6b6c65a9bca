"""A game's clock and a player's time as the rows hold them: what the planner, the referee, the
lobby and the commands use of ``bot.clock`` (which is pure, and knows no row). Pure too: no
Discord, no store, no clock of its own.

- a game's clock (``game_clock``), a host's (``split_clock``), a new game's (``opening_clock``);
- a seat's player's time (``player_time``); its decision's deadline and reminder, counted from
  when its clock started (``decision_timers``); what its clock holds once a decision is over
  (``bank_after``), or when its player's away time changes (``time_left``);
- a player's away days (``away_allowance``, ``AwayStatus``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
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
    parse_duration,
    parse_quiet_hours,
    reminder_at,
)
from bot.model import GameRow, SeatRow
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
    """A player's away days: the fewest that the server they ask in (``here``; None in DMs, or for
    a time running out) and the servers of their running games (each game's kept settings) allow,
    so no server's limit is escaped by asking in another; the default when none applies."""
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


def away_from_to(seat: SeatRow, span: Span) -> SeatRow:
    """The seat as its read shows it once its player is away during ``span`` (their last span)."""
    return replace(seat, away_from=span.starts, away_until=span.ends)


def decision_timers(began: float, row: GameRow, seat: SeatRow, share: float) -> tuple[float, float | None]:
    """When a seat's decision whose clock started at ``began`` runs out, and when to remind its
    player (None: no reminder): from the game's clock, the seat's bank then and its player's time
    as it is now (an away span, a zone or quiet hours chosen since move it); ``share``: the game's
    ``reminder_share``. The same rows always give the same times: a plan made again keeps them."""
    clock, player = game_clock(row), player_time(seat)
    due = deadline(began, clock, seat.bank_left, player)
    return due, reminder_at(began, clock.time_for(seat.bank_left), due, share, player)


def bank_after(row: GameRow, seat: SeatRow, now: float, moved: bool) -> float:
    """What the seat's clock holds for its next decision once the one it started at
    ``seat.decision_at`` is over at ``now`` (``moved``: by a move of its own, the referee's on a
    timeout included): on a bank, what is left of it with the increment; on a time per move, the
    full time. Time away is not charged."""
    began = seat.decision_at if seat.decision_at is not None else now
    return game_clock(row).bank_after(seat.bank_left, charged(began, now, player_time(seat).away), moved)


def banks_after(
    row: GameRow,
    seats: Sequence[SeatRow],
    before: Mapping[int, frozenset[str]],
    after: Mapping[int, frozenset[str]],
    mover: int | None,
    now: float,
) -> dict[int, float]:
    """What each person's clock holds for their next decision once a change ended or changed the
    one they faced (``before``, then ``after``: what each seat had to decide), ``mover`` the seat
    that moved. A seat still facing the same decision (a turn of two steps) keeps its clock
    running, charged once as that decision ends; a seat a computer plays keeps none."""
    return {
        seat: bank_after(row, seats[seat], now, moved=seat == mover)
        for seat, actions in before.items()
        if after.get(seat) != actions and not seats[seat].played_by_computer
    }


def time_left(row: GameRow, seat: SeatRow, before: PlayerTime, now: float) -> float:
    """What the seat's running clock has left at ``now``, its player's time as it was (``before``):
    what it restarts with when their away time changes, so that only the away time from then on
    counts for it (the seats' read knows a player's last span alone)."""
    began = seat.decision_at if seat.decision_at is not None else now
    return max(game_clock(row).time_for(seat.bank_left) - charged(began, now, before.away), 0.0)


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


def setting_clock(name: str, text: str) -> Clock:
    """``/settings clock`` (any clock) or ``/settings turn_timeout`` (a time per move), checked."""
    return parse_clock(text) if name == "clock" else Clock(turn_timeout_seconds(text))


@dataclass(frozen=True)
class AwayStatus:
    """A player's away time: the span they are in (if any), the seconds spent away in the last
    30 days and what is left of their ``allowance`` (days)."""

    current: Span | None
    used: float
    left: float
    allowance: int
