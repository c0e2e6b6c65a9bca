"""Stand-ins: a computer keeps the seat of a person who is away or gone (docs/playing.md,
"Rules every game shares").

A person who leaves a running game hands their seat, hand and points to a computer, which plays
on so the others can finish; one whose turns run out twice in a row gets a computer until they
act again. Either way the seat stays theirs in the game: only who decides its moves changes,
logged as an action of its own (``games.core.STAND_IN``, ``BACK``), and every move still takes
the one path of ``bot.tables``. What is here decides who, when and what is said; the referee
(``bot.referee``) rules with it. Pure: no Discord, no store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.model import SeatRow
from games.core import BACK, JSON, STAND_IN, TABLE_OPTIONS, Event

OPTION = "stand_in"
# The level a stand-in plays at when the table has no computer to take it from (as /start's).
DEFAULT_LEVEL = "hard"
# Turns in a row that run out before a computer stands in.
TIMED_OUT_TURNS = 2
# Events the channel and the players are told of (see bot/locales/standins.json).
LEFT = "standins.event.left"
AWAY = "standins.event.away"
BACK_EVENT = "standins.event.back"
BACK_PRIVATE = "standins.event.back_private"
NOBODY_LEFT = "standins.event.nobody_left"
NAME = "standins.name"


def enabled(options: Mapping[str, int]) -> bool:
    """Whether the game lets computers stand in (games from before the option have them)."""
    default = next(option.default for option in TABLE_OPTIONS if option.name == OPTION)
    return bool(options.get(OPTION, default))


def level(seats: Sequence[SeatRow]) -> str:
    """The game's computer level: that of the computers at the table, else /start's default."""
    return next((seat.robot for seat in seats if seat.robot is not None), DEFAULT_LEVEL)


def stand_in(level: str, *, left: bool) -> JSON:
    return {"type": STAND_IN, "level": level, "left": left}


def back() -> JSON:
    return {"type": BACK}


def people_besides(seats: Sequence[SeatRow], seat: int) -> bool:
    """Whether a person other than ``seat``'s still holds a seat (away counts: they may come back)."""
    return any(not row.is_robot and not row.gone for row in seats if row.seat != seat)


def away(seat: SeatRow) -> bool:
    """A computer plays for this seat's person until they act again."""
    return seat.stand_in is not None and not seat.gone


def turns_timed_out(moves: Sequence[tuple[int, bool]], seat: int) -> int:
    """How many of ``seat``'s turns in a row have run out, counting the one running out now.

    ``moves`` are (seat, by timeout) of every action since the seat last moved by itself. A turn
    is a run of the seat's own actions with no one else's between: a turn of two steps that both
    run out (RumBugz's draw then discard) is one turn.
    """
    runs = sum(
        1
        for index, (mover, _) in enumerate(moves)
        if mover == seat and (index == 0 or moves[index - 1][0] != seat)
    )
    still_in_a_turn = bool(moves) and moves[-1][0] == seat
    return runs if still_in_a_turn else runs + 1


def left_events(seat: SeatRow) -> list[Event]:
    return [Event(LEFT, {"name": seat.name})]


def away_events(seat: SeatRow) -> list[Event]:
    # Named without a ping for a player who asked for none.
    mention = f"<@{seat.user_id}>" if seat.ping else f"**{seat.name}**"
    return [Event(AWAY, {"name": seat.name, "mention": mention})]


def back_events(seat: SeatRow) -> list[Event]:
    """The channel's line, and the returning player's, whose DM brings their hand again."""
    return [Event(BACK_EVENT, {"name": seat.name}), Event(BACK_PRIVATE, {}, (seat.seat,))]


def nobody_left_events(seat: SeatRow) -> list[Event]:
    return [Event(NOBODY_LEFT, {"name": seat.name})]


def announces_away(events: Sequence[Event]) -> bool:
    return any(event.key == AWAY for event in events)
