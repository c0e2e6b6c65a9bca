"""Time in a game played across days, as pure functions: no Discord, no store, no clock of its own
(every function is given ``now``), so a test moves time across days and zones at will.

- A game's **clock** (``Clock``): a time per move (``24h``, as the turn timeout always was), or a
  bank per player with what each of their moves adds back (``3d+12h``, Board Game Arena's
  turn-based clock), never above the bank's start.
- A player's **time**: their time zone (IANA, from ``zoneinfo`` and the ``tzdata`` package), their
  quiet hours in it (``23-08``) and their away spans (``/away``).
- ``deadline``: when a seat's decision runs out, from all of those; ``after_quiet``: when a ping
  or a reminder may reach the player.
- Away days: how much of a player's allowance (``away_days`` per ``AWAY_WINDOW``) is used, and
  what an ``/away`` means for each of their games.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from games.core import GameError

MINUTE, HOUR, DAY = 60, 3600, 86400

# A time per move, as /start's turn_timeout always took it: from a minute (a quick game at one
# table) to a week (a correspondence game whose players play once a day, with room to spare).
MOVE_MIN, MOVE_MAX = MINUTE, 7 * DAY
DEFAULT_MOVE = DAY
# A bank from a minute to 30 days: a month is Little Golem's and Pente.org's longest game clock,
# and the longest a match can stand still waiting on one player before their time runs out.
BANK_MIN, BANK_MAX = MINUTE, 30 * DAY
# What a move adds: nothing (a plain bank) up to a week, and never more than the bank itself (the
# bank never exceeds its start, so more would be lost).
INCREMENT_MAX = 7 * DAY
# A good value of each, for the refusals' examples.
CLOCK_EXAMPLE = "3d+12h"
QUIET_EXAMPLE = "23-08"
ZONE_EXAMPLE = "Europe/Rome"
AWAY_EXAMPLE = "2d"

# Quiet hours: up to 14 hours, the longest night's sleep with room to spare, so that at least ten
# hours of each day remain for the player's deadlines and reminders.
QUIET_MAX = 14 * 60

# Away days: ``away_days`` (a server's setting) per 30 days, counted on a window sliding with the
# present, in seconds spent away (3 hours away is an eighth of a day, not a day).
AWAY_WINDOW = 30 * DAY
DEFAULT_AWAY_DAYS = 7
MAX_AWAY_DAYS = 30
# An away day used automatically when a player's time runs out: a day, or what is left of their
# allowance, if an hour at least (less would only have the expiry come back within the hour).
AUTOMATIC_AWAY = DAY
AUTOMATIC_AWAY_MIN = HOUR
# What ends an away span in ``/away`` (the command's autocomplete offers the first).
AWAY_OFF = ("off", "0", "no", "stop")

# Discord's most choices in an autocomplete answer.
CHOICES_LIMIT = 25
# Zones offered before anything is typed: those of the bot's languages first, then the most
# populous of each continent.
POPULAR_ZONES = (
    "Europe/Rome",
    "Europe/Paris",
    "Europe/London",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Toronto",
    "America/Montreal",
    "America/Sao_Paulo",
    "America/Mexico_City",
    "America/Argentina/Buenos_Aires",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Brussels",
    "Europe/Zurich",
    "Europe/Lisbon",
    "Europe/Athens",
    "Africa/Casablanca",
    "Africa/Lagos",
    "Asia/Kolkata",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
)


# ---------------------------------------------------------------------- durations


def compact(seconds: int) -> str:
    """A duration as players type it: ``3d12h``, ``30m``; ``0h`` for none."""
    days, rest = divmod(max(0, int(seconds)), DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // MINUTE
    text = "".join(f"{count}{unit}" for count, unit in ((days, "d"), (hours, "h"), (minutes, "m")) if count)
    return text or "0h"


def parse_duration(text: str) -> int:
    """'24h', '90m', '2d 3h', '45' (minutes) -> seconds, the units in each language the bot speaks
    (Italian's 'g' for giorni, French's 'j' for jours); ValueError when unreadable."""
    units = {"d": 86400, "g": 86400, "j": 86400, "h": 3600, "m": 60, "min": 60}
    total = 0
    number = ""
    cleaned = text.strip().lower().replace(" ", "")
    if cleaned.isdigit():
        return int(cleaned) * 60
    index = 0
    while index < len(cleaned):
        char = cleaned[index]
        if char.isdigit():
            number += char
            index += 1
            continue
        unit = "min" if cleaned.startswith("min", index) else char
        if unit not in units or not number:
            raise ValueError(text)
        total += int(number) * units[unit]
        number = ""
        index += len(unit)
    if number:
        raise ValueError(text)
    return total


def _duration(text: str) -> int:
    """``parse_duration``, refusing an empty text (which it reads as nothing)."""
    if not text.strip():
        raise ValueError(text)
    return parse_duration(text)


# ---------------------------------------------------------------------- the clock


@dataclass(frozen=True)
class Clock:
    """A game's clock: ``seconds`` per move (``increment`` None), or a bank of ``seconds`` per
    player to which each of their moves adds ``increment``, never above ``seconds``.

    A game keeps it as ``games.turn_timeout`` (the time per move, or the bank's start) and
    ``games.clock_increment`` (None for a time per move)."""

    seconds: int = DEFAULT_MOVE
    increment: int | None = None

    @property
    def is_bank(self) -> bool:
        return self.increment is not None

    def text(self) -> str:
        """As players type it: ``1d``, ``30m``, ``3d+12h``."""
        if self.increment is None:
            return compact(self.seconds)
        return f"{compact(self.seconds)}+{compact(self.increment)}"

    def time_for(self, left: float | None) -> float:
        """The time a seat's clock has from when it (re)started: ``left`` (what its bank held then,
        or what was left of a decision's time when an away span stopped it), never more than the
        clock's full time; None: the full time (the time per move, or the whole bank)."""
        if left is None:
            return float(self.seconds)
        return min(max(left, 0.0), float(self.seconds))

    def bank_after(self, left: float | None, used: float, moved: bool) -> float:
        """What a seat's clock holds for its next decision once one that took ``used`` seconds
        (``charged``) is over. On a bank: what was left, less ``used`` (never below nothing: time
        ran out), plus the increment when the seat moved (a move the referee played for it on a
        timeout too, or a player whose time ran out would run out again at once), never above the
        bank's start. On a time per move: the full time again."""
        if self.increment is None:
            return float(self.seconds)
        remaining = max(self.time_for(left) - max(used, 0.0), 0.0)
        if moved:
            remaining += self.increment
        return min(remaining, float(self.seconds))


def parse_clock(text: str) -> Clock:
    """``24h`` (a time per move), ``3d+12h`` (a bank and what each move adds), checked; a refusal
    says how to write one."""
    cleaned = str(text).strip().lower()
    bank, plus, increment = cleaned.partition("+")
    try:
        seconds = _duration(bank)
        added = _duration(increment) if plus else None
    except ValueError:
        raise GameError("time.error.clock_unreadable", text=str(text)[:40], example=CLOCK_EXAMPLE) from None
    if added is None:
        if not MOVE_MIN <= seconds <= MOVE_MAX:
            raise GameError("time.error.clock_range", example=CLOCK_EXAMPLE)
    elif not (BANK_MIN <= seconds <= BANK_MAX and 0 <= added <= min(INCREMENT_MAX, seconds)):
        raise GameError("time.error.clock_range", example=CLOCK_EXAMPLE)
    return Clock(seconds, added)


# ---------------------------------------------------------------------- spans and quiet hours


@dataclass(frozen=True, order=True)
class Span:
    """A stretch of time, from ``starts`` (included) to ``ends`` (excluded), as timestamps."""

    starts: float
    ends: float

    def holds(self, instant: float) -> bool:
        return self.starts <= instant < self.ends

    def overlap(self, starts: float, ends: float) -> float:
        """How much of ``[starts, ends)`` this span covers."""
        return max(0.0, min(self.ends, ends) - max(self.starts, starts))

    @property
    def length(self) -> float:
        return max(0.0, self.ends - self.starts)


def merged(spans: Iterable[Span]) -> list[Span]:
    """The spans in order, those that touch or overlap made one."""
    result: list[Span] = []
    for span in sorted(span for span in spans if span.ends > span.starts):
        if result and span.starts <= result[-1].ends:
            result[-1] = Span(result[-1].starts, max(result[-1].ends, span.ends))
        else:
            result.append(span)
    return result


QUIET_PATTERN = re.compile(r"^\s*(\d{1,2})(?::?(\d{2}))?\s*[-–]\s*(\d{1,2})(?::?(\d{2}))?\s*$")


@dataclass(frozen=True)
class QuietHours:
    """Hours of the day (in the player's time zone) in which nobody pings, reminds or times them
    out, as minutes after midnight; ``starts`` after ``ends`` for a span across midnight."""

    starts: int
    ends: int

    def text(self) -> str:
        """As players type it: ``23-08``, ``22:30-07``."""
        return f"{_clock_time(self.starts)}-{_clock_time(self.ends)}"

    @property
    def minutes(self) -> int:
        return (self.ends - self.starts) % (24 * 60)

    def holds(self, minute_of_day: float) -> bool:
        if self.starts < self.ends:
            return self.starts <= minute_of_day < self.ends
        return minute_of_day >= self.starts or minute_of_day < self.ends


def _clock_time(minute: int) -> str:
    hours, minutes = divmod(minute, 60)
    return f"{hours:02d}" if not minutes else f"{hours:02d}:{minutes:02d}"


def parse_quiet_hours(text: str) -> QuietHours:
    """``23-08`` or ``22:30-07:00`` (a span across midnight or within a day), checked."""
    found = QUIET_PATTERN.match(str(text))
    if found is None:
        raise GameError("time.error.quiet_unreadable", text=str(text)[:40], example=QUIET_EXAMPLE)
    first_hour, first_minute, last_hour, last_minute = (int(part or 0) for part in found.groups())
    # 24 is midnight at the end of the day: "22-24".
    if max(first_hour, last_hour) > 24 or max(first_minute, last_minute) > 59:
        raise GameError("time.error.quiet_unreadable", text=str(text)[:40], example=QUIET_EXAMPLE)
    hours = QuietHours((first_hour * 60 + first_minute) % 1440, (last_hour * 60 + last_minute) % 1440)
    if hours.minutes == 0 or hours.minutes > QUIET_MAX:
        raise GameError("time.error.quiet_range", hours=QUIET_MAX // 60, example=QUIET_EXAMPLE)
    return hours


# ---------------------------------------------------------------------- time zones


@cache
def zone_names() -> tuple[str, ...]:
    """Every zone the database knows by its IANA name (the system's, else the tzdata package's),
    without the copies the system keeps for other uses."""
    return tuple(
        sorted(
            name
            for name in available_timezones()
            if not name.startswith(("posix/", "right/")) and name not in ("localtime", "Factory")
        )
    )


@cache
def _zones_by_folded_name() -> dict[str, str]:
    return {_folded(name): name for name in zone_names()}


def _folded(text: str) -> str:
    return "_".join(str(text).strip().split()).casefold()


def check_zone(text: str) -> str:
    """The IANA name of the zone ``text`` names (any case, spaces for underscores); refused with
    an example when the database knows none."""
    name = _zones_by_folded_name().get(_folded(text))
    if name is None:
        raise GameError("time.error.zone", text=str(text)[:60], example=ZONE_EXAMPLE)
    return name


def zone_choices(typed: str, limit: int = CHOICES_LIMIT) -> list[str]:
    """The zones matching what a player typed so far, best first: the whole name, then the city's
    name, then a name or a city beginning with it, then any that contains it; the popular zones
    when nothing is typed yet."""
    wanted = _folded(typed)
    if not wanted:
        known = set(zone_names())
        return [name for name in POPULAR_ZONES if name in known][:limit]
    ranked = []
    for name in zone_names():
        folded = name.casefold()
        city = folded.rsplit("/", 1)[-1]
        if folded == wanted:
            rank = 0
        elif city == wanted:
            rank = 1
        elif folded.startswith(wanted):
            rank = 2
        elif city.startswith(wanted):
            rank = 3
        elif wanted in folded:
            rank = 4
        else:
            continue
        ranked.append((rank, len(name), name))
    return [name for *_, name in sorted(ranked)[:limit]]


def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def wall_time(instant: float, zone: str) -> datetime:
    """The zone's wall clock at ``instant``, without the zone (for comparing with what players type)."""
    return datetime.fromtimestamp(instant, _zone(zone)).replace(tzinfo=None)


def _first_reading(wall: datetime, zone: str, after: float) -> float:
    """The first instant after ``after`` at which the zone's wall clock reads ``wall`` or later.

    A wall time read twice (the hour repeated when clocks go back) is its first reading after
    ``after``; one that never happens (the hour skipped when clocks go forward) is the jump over
    it, the instant its wall clock passes it."""
    readings = sorted({wall.replace(tzinfo=_zone(zone), fold=fold).timestamp() for fold in (0, 1)})
    for reading in readings:
        if reading > after and wall_time(reading, zone) == wall:
            return reading
    # Skipped: the jump lies between the two readings zoneinfo offers (the offsets before and
    # after it); found to the second (zones jump on whole seconds).
    low, high = int(readings[0]), int(readings[-1]) + 1
    while high - low > 1:
        middle = (low + high) // 2
        if wall_time(middle, zone) >= wall:
            high = middle
        else:
            low = middle
    return max(float(high), after)


# ---------------------------------------------------------------------- a player's time


@dataclass(frozen=True)
class PlayerTime:
    """What a seat's deadlines depend on besides the game's clock: the player's time zone (None:
    none chosen, and then their quiet hours are not known either), quiet hours and away spans."""

    zone: str | None = None
    quiet: QuietHours | None = None
    away: tuple[Span, ...] = field(default=())

    def away_with(self, span: Span) -> PlayerTime:
        """The same player, away during ``span`` too."""
        return replace(self, away=tuple(merged([*self.away, span])))


def is_quiet(instant: float, player: PlayerTime) -> bool:
    if player.zone is None or player.quiet is None:
        return False
    wall = wall_time(instant, player.zone)
    return player.quiet.holds(wall.hour * 60 + wall.minute + (wall.second + wall.microsecond / 1e6) / 60)


def quiet_end(instant: float, player: PlayerTime) -> float:
    """When the player's quiet hours that hold ``instant`` end (``instant`` if they do not hold it)."""
    if player.zone is None or player.quiet is None or not is_quiet(instant, player):
        return instant
    quiet = player.quiet
    wall = wall_time(instant, player.zone)
    day: date = wall.date()
    if quiet.starts > quiet.ends and wall.hour * 60 + wall.minute >= quiet.starts:
        day += timedelta(days=1)  # the evening part of a span across midnight ends tomorrow
    ends = datetime.combine(day, time(quiet.ends // 60, quiet.ends % 60))
    return _first_reading(ends, player.zone, instant)


def after_quiet(instant: float, player: PlayerTime) -> float:
    """When a ping or a reminder due at ``instant`` may reach the player: then, or when their
    quiet hours end."""
    return quiet_end(instant, player)


def charged(starts: float, ends: float, away: Iterable[Span]) -> float:
    """The time from ``starts`` to ``ends`` that counts against a player: the time away does not."""
    if ends <= starts:
        return 0.0
    return max(0.0, (ends - starts) - sum(span.overlap(starts, ends) for span in merged(away)))


def _clock_runs_out(now: float, time_left: float, away: Sequence[Span]) -> float:
    """When ``time_left`` of the player's time has run from ``now``, the clock stopped while away."""
    instant, left = now, max(time_left, 0.0)
    for span in merged(away):
        if span.ends <= instant:
            continue
        if span.starts > instant:
            if instant + left <= span.starts:
                return instant + left
            left -= span.starts - instant
        instant = span.ends
    return instant + left


# A deadline steps past at most an away span and quiet hours a few times over (an away span ending
# in quiet hours, their end in another away span): this bounds the loop whatever the data.
MOST_STEPS = 64


def deadline_after(now: float, time_left: float, player: PlayerTime) -> float:
    """When a decision with ``time_left`` of the player's time runs out: the clock stops while they
    are away, and a deadline that would fall while they are away or in their quiet hours moves to
    the end of it, so nobody is timed out asleep or away."""
    instant = _clock_runs_out(now, time_left, player.away)
    for _ in range(MOST_STEPS):
        moved = quiet_end(instant, player)
        for span in player.away:
            if span.holds(moved):
                moved = span.ends
        if moved == instant:
            break
        instant = moved
    return instant


def deadline(now: float, clock: Clock, bank_left: float | None, player: PlayerTime) -> float:
    """When a seat's decision that begins at ``now`` runs out: the game's clock (a time per move,
    or the seat's bank ``bank_left``, None for the whole bank) and the player's time (away spans,
    time zone, quiet hours), see ``deadline_after``."""
    return deadline_after(now, clock.time_for(bank_left), player)


def reminder_at(now: float, time_left: float, due: float, share: float, player: PlayerTime) -> float | None:
    """When to remind a player whose decision began at ``now`` with ``time_left`` of their time,
    running out at ``due``: once the share ``share`` of that time is used, out of their quiet hours
    and away spans (as a deadline would be); None when no reminder is due (a share of 0) or it
    could only come at the deadline or after it."""
    if share <= 0:
        return None
    at = deadline_after(now, share * time_left, player)
    return at if at < due else None


# ---------------------------------------------------------------------- away days


def away_used(now: float, spans: Iterable[Span]) -> float:
    """Seconds spent away in the ``AWAY_WINDOW`` up to ``now``."""
    return sum(span.overlap(now - AWAY_WINDOW, now) for span in merged(spans))


def away_booked(now: float, spans: Iterable[Span]) -> float:
    """Seconds of away time still to come (the rest of the span the player is in)."""
    return sum(span.overlap(now, span.ends) for span in merged(spans))


def away_left(now: float, spans: Iterable[Span], away_days: int) -> float:
    """What is left of an allowance of ``away_days`` days: neither spent in the window nor booked."""
    spans = list(spans)
    return max(0.0, away_days * DAY - away_used(now, spans) - away_booked(now, spans))


def current_away(now: float, spans: Iterable[Span]) -> Span | None:
    """The span the player is away in at ``now``, if any."""
    return next((span for span in merged(spans) if span.holds(now)), None)


def parse_away(text: str) -> int | None:
    """``/away``'s duration (``2d``, ``3h``) in seconds, or None for one of ``AWAY_OFF``."""
    cleaned = str(text).strip().lower()
    if cleaned in AWAY_OFF:
        return None
    try:
        seconds = _duration(cleaned)
    except ValueError:
        raise GameError("time.error.away_unreadable", text=str(text)[:40], example=AWAY_EXAMPLE) from None
    if seconds < MINUTE:
        raise GameError("time.error.away_unreadable", text=str(text)[:40], example=AWAY_EXAMPLE)
    return seconds


def away_span(
    now: float, seconds: int, spans: Sequence[Span], away_days: int, automatic: Sequence[Span] = ()
) -> Span:
    """The span an ``/away`` of ``seconds`` makes: from now (or from the start of the span the
    player is already in, which it ends anew), refused beyond what is left of ``away_days``, which
    the away days used for a game as time ran out there (``automatic``) count against too."""
    current = current_away(now, spans)
    earlier = [span for span in spans if span != current]
    if current is not None:
        earlier.append(Span(current.starts, now))
    spent = away_used(now, [*earlier, *automatic]) + away_booked(now, automatic)
    if spent + seconds > away_days * DAY:
        left = max(0.0, away_days * DAY - spent)
        raise GameError(
            "time.error.away_too_long",
            asked=compact(seconds),
            left=compact(int(left)),
            days=away_days,
            example=AWAY_EXAMPLE,
        )
    return Span(current.starts if current is not None else now, now + seconds)


def away_ended(now: float, spans: Sequence[Span]) -> Span:
    """The span the player is in, ended now (``/away off``); refused when they are not away."""
    current = current_away(now, spans)
    if current is None:
        raise GameError("time.error.not_away")
    return Span(current.starts, now)


def automatic_away(now: float, spans: Sequence[Span], away_days: int) -> Span | None:
    """The away span a player's running-out time uses, if they have any away time left: a day
    (``AUTOMATIC_AWAY``), or what is left of their allowance, if an hour at least."""
    left = away_left(now, spans, away_days)
    if left < AUTOMATIC_AWAY_MIN:
        return None
    return Span(now, now + min(float(AUTOMATIC_AWAY), left))


@dataclass(frozen=True)
class SeatedGame:
    """One of a player's running games, as an ``/away`` concerns it: its id, and the deadline of
    the decision it waits on them for (None: it waits on others)."""

    game_id: int
    deadline: float | None


@dataclass(frozen=True)
class AwayEffect:
    """What a change of a player's away time means for one of their games: the deadline of their
    decision, moved (None: the game does not wait on them, only its channel is told)."""

    game_id: int
    deadline: float | None


def away_effects(
    now: float, before: PlayerTime, after: PlayerTime, games: Iterable[SeatedGame]
) -> list[AwayEffect]:
    """What a player's away time changing from ``before`` to ``after`` (an ``/away``, an ``/away
    off``, an away day used automatically) means for each of their games: a decision waiting on
    them keeps the time it had left (its clock stopped while away), counted from now."""
    effects = []
    for game in games:
        moved = None
        if game.deadline is not None:
            left = charged(now, game.deadline, before.away)
            moved = deadline_after(now, left, after)
        effects.append(AwayEffect(game.game_id, moved))
    return effects
