"""The timers a game needs after a change, planned from its state alone: people's reminders and
expiries, computers' moves. Pure: the referee plans them, the store keeps them, one loop
(``bot.timers``) fires them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.model import Match, Timer, TimerRow
from games.core import Event

# The timer kinds: a reminder, a turn running out, a computer's move.
REMIND, EXPIRE, ROBOT_MOVE = "remind", "expire", "robot"


@dataclass(frozen=True)
class Pace:
    """How fast computers play: the pause before a computer moves, where its server chose none
    (``ROBOT_PAUSE``), and how long a move's outcome stays in view before a computer moves, where
    a game needs it (``VIEW_PAUSE``)."""

    robot_pause: float = 2.0
    view_pause: float = 5.0


def changed_decisions(
    before: Mapping[int, frozenset[str]], after: Mapping[int, frozenset[str]], actor: int | None
) -> list[int]:
    """Seats whose open decision began, ended or changed with this move: a click made before it
    is stale for them. A seat still facing the very decision it faced (a simultaneous reveal while
    others choose) keeps it; the seat that moved never does.
    """
    seats = set(before) | set(after) | ({actor} if actor is not None else set())
    return sorted(seat for seat in seats if seat == actor or before.get(seat) != after.get(seat))


def decision_key(actions: frozenset[str]) -> str:
    return ",".join(sorted(actions))


def plan_timers(
    to_act: Mapping[int, frozenset[str]],
    previous: Sequence[TimerRow],
    timeout: int,
    now: float,
    reminder_share: float = 0.5,
) -> list[Timer]:
    """A reminder after the share ``reminder_share`` of the turn (none at 0) and an expiry per
    deciding seat.

    A seat still facing the same decision keeps its deadline (a simultaneous reveal does
    not restart the clock of those who have not chosen yet); a reminder already sent is
    not sent again.
    """
    kept = {(timer.seat, timer.kind): timer for timer in previous}
    planned: list[Timer] = []
    for seat, actions in sorted(to_act.items()):
        decision = decision_key(actions)
        expiry = kept.get((seat, EXPIRE))
        if expiry is not None and expiry.decision == decision:
            planned.append((seat, EXPIRE, decision, expiry.due_at))
            reminder = kept.get((seat, REMIND))
            if reminder is not None:
                planned.append((seat, REMIND, decision, reminder.due_at))
        else:
            if reminder_share:
                planned.append((seat, REMIND, decision, now + timeout * reminder_share))
            planned.append((seat, EXPIRE, decision, now + timeout))
    return planned


def plan_robot_moves(
    to_act: Mapping[int, frozenset[str]],
    robots: Iterable[int],
    changed: Iterable[int],
    previous: Sequence[TimerRow],
    pause: float,
    now: float,
    hold: float = 0.0,
) -> list[Timer]:
    """A move timer per computer seat with a decision open, after a pause so people can follow;
    a computer whose decision did not change keeps the time it had. None is due before ``hold``
    seconds from now: what the move showed stays in view that long."""
    kept = {timer.seat: timer for timer in previous if timer.kind == ROBOT_MOVE}
    changed = set(changed)
    planned = []
    for seat in sorted(set(robots) & set(to_act)):
        decision = decision_key(to_act[seat])
        timer = kept.get(seat)
        keep = timer is not None and seat not in changed and timer.decision == decision
        due_at = timer.due_at if keep and timer else now + pause
        planned.append((seat, ROBOT_MOVE, decision, max(due_at, now + hold)))
    return planned


def plan(
    match: Match,
    previous: Sequence[TimerRow],
    changed: Iterable[int],
    now: float,
    pace: Pace,
    events: Sequence[Event] = (),
) -> list[Timer]:
    """Every timer the game needs now: people's reminders and expiries, computers' moves (held
    while the move's ``events`` must stay in view, see ``view_hold``)."""
    game, robots, row = match.game, match.robots, match.row
    people = {seat: actions for seat, actions in game.required_to_act().items() if seat not in robots}
    return plan_timers(people, previous, row.turn_timeout, now, row.reminder_share) + plan_robot_moves(
        game.to_act(),
        robots,
        changed,
        previous,
        row.computer_pause(pace.robot_pause),
        now,
        view_hold(match, events, pace),
    )


def view_hold(match: Match, events: Sequence[Event], pace: Pace) -> float:
    """How long the computers wait, from the move's commit, so that every person at the table
    has its outcome in view (``GameRules.kept_in_view``): the table message is edited right after
    the commit, its picture drawn with the move. No wait with no person to see it."""
    shown = any(event.key in match.rules.kept_in_view for event in events)
    watched = any(not seat.gone and not seat.played_by_computer for seat in match.seats)
    return pace.view_pause if shown and watched else 0.0
