"""The timers a game needs after a change, planned from its state alone: people's reminders,
expiries and pings held through their quiet hours (each person's times from their clock and their
time, ``bot.timekeeping``), computers' moves. Pure: the referee plans them, the store keeps them,
one loop (``bot.timers``) fires them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.clock import after_quiet
from bot.model import GameRow, Match, SeatRow, Timer, TimerRow
from bot.timekeeping import decision_timers, player_time
from games.core import Event

# The timer kinds: a reminder, a turn running out, a computer's move, a call to move held through
# the player's quiet hours.
REMIND, EXPIRE, ROBOT_MOVE, PING = "remind", "expire", "robot", "ping"

# A computer's turn of several steps (RumBugz's draw, changes, lays and discard; Serie Bum!'s
# flips) is paced as one: a whole pause before its first step, this share of it before each next
# one. The steps still come one by one, at a pace a person reads, and a person waits a pause per
# computer's turn, not per step.
STEP_SHARE = 0.25


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


def plan_people(
    row: GameRow,
    seats: Sequence[SeatRow],
    to_act: Mapping[int, frozenset[str]],
    previous: Sequence[TimerRow],
    now: float,
    reminder_share: float = 0.5,
) -> list[Timer]:
    """Per deciding person: an expiry, a reminder once the share ``reminder_share`` of their time
    is used (none at 0), and a ping due as their quiet hours end when the decision came in them
    (``bot.clock``: no deadline and no reminder falls in them either).

    A seat still facing the same decision keeps the clock it started with (a simultaneous reveal
    does not restart the clock of those who have not chosen yet): its times are worked out again
    from when it started (``SeatRow.decision_at``), so an away span, a time zone or quiet hours
    chosen since move them. A reminder or a ping already sent is not sent again."""
    kept = {(timer.seat, timer.kind): timer for timer in previous}
    planned: list[Timer] = []
    for seat, actions in sorted(to_act.items()):
        decision = decision_key(actions)
        expiry = kept.get((seat, EXPIRE))
        same = expiry is not None and expiry.decision == decision
        began = seats[seat].decision_at if same else now
        if began is None:  # a clock started before clocks were kept: its deadline stays
            planned += [
                (seat, kind, decision, timer.due_at) for (at, kind), timer in kept.items() if at == seat
            ]
            continue
        due, reminder = decision_timers(began, row, seats[seat], reminder_share)
        planned.append((seat, EXPIRE, decision, due))
        ping = after_quiet(began, player_time(seats[seat]))
        held = (seat, PING) in kept if same else ping > began
        if held:
            planned.append((seat, PING, decision, ping))
        # A reminder that would come with the held ping, or before it, is the ping's to make.
        if reminder is not None and (not same or (seat, REMIND) in kept) and not (held and reminder <= ping):
            planned.append((seat, REMIND, decision, reminder))
    return planned


def started_clocks(previous: Sequence[TimerRow], planned: Sequence[Timer]) -> list[int]:
    """The seats whose clock starts with this plan: an expiry that is not the one they had."""
    had = {(timer.seat, timer.decision) for timer in previous if timer.kind == EXPIRE}
    return [seat for seat, kind, decision, _ in planned if kind == EXPIRE and (seat, decision) not in had]


def plan_robot_moves(
    to_act: Mapping[int, frozenset[str]],
    robots: Iterable[int],
    changed: Iterable[int],
    previous: Sequence[TimerRow],
    pause: float,
    now: float,
    hold: float = 0.0,
    stepping: int | None = None,
) -> list[Timer]:
    """A move timer per computer seat with a decision open, after a pause so people can follow;
    a computer whose turn goes on (``stepping``, see ``Game.turn_goes_on``) takes its next step
    after a share of it (``STEP_SHARE``); a computer whose decision did not change keeps the time
    it had. None is due before ``hold`` seconds from now: what the move showed stays in view that
    long."""
    kept = {timer.seat: timer for timer in previous if timer.kind == ROBOT_MOVE}
    changed = set(changed)
    planned = []
    for seat in sorted(set(robots) & set(to_act)):
        decision = decision_key(to_act[seat])
        timer = kept.get(seat)
        keep = timer is not None and seat not in changed and timer.decision == decision
        wait = pause * STEP_SHARE if seat == stepping else pause
        due_at = timer.due_at if keep and timer else now + wait
        planned.append((seat, ROBOT_MOVE, decision, max(due_at, now + hold)))
    return planned


def plan(
    match: Match,
    previous: Sequence[TimerRow],
    changed: Iterable[int],
    now: float,
    pace: Pace,
    events: Sequence[Event] = (),
    stepping: int | None = None,
) -> list[Timer]:
    """Every timer the game needs now: people's reminders and expiries, computers' moves (held
    while the move's ``events`` must stay in view, see ``view_hold``; the next step of a turn that
    goes on sooner, see ``plan_robot_moves``)."""
    game, robots, row = match.game, match.robots, match.row
    people = {seat: actions for seat, actions in game.required_to_act().items() if seat not in robots}
    return plan_people(row, match.seats, people, previous, now, row.reminder_share) + plan_robot_moves(
        game.to_act(),
        robots,
        changed,
        previous,
        row.computer_pause(pace.robot_pause),
        now,
        view_hold(match, events, pace),
        stepping,
    )


def view_hold(match: Match, events: Sequence[Event], pace: Pace) -> float:
    """How long the computers wait, from the move's commit, so that every person at the table
    has its outcome in view (``GameRules.kept_in_view``): the table message is edited right after
    the commit, its picture drawn with the move. No wait with no person to see it."""
    shown = any(event.key in match.rules.kept_in_view for event in events)
    watched = any(not seat.gone and not seat.played_by_computer for seat in match.seats)
    return pace.view_pause if shown and watched else 0.0
