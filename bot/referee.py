"""The referee: the one place where a change of a game is decided and checked, whatever asks for
it (a click, a command, a timer): the deal, every move, a player leaving or coming back, a
computer standing in, a reminder, a turn running out, an abort, and a lobby's seats.

Given the game as loaded and an order, ``rule`` returns the rulings that carry it out, in order:
each one change to commit (``Commit`` or ``LobbyChange``, with what it announces and the timers
the game then needs) and the game as that change leaves it. A refused order raises a GameError
and leaves the game untouched. Pure: no Discord, no store, no clock (the time is the order's
``Context``); ``pyproject.toml``'s contracts say so.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot import planning, standins, timekeeping
from bot.clock import DAY, PlayerTime, Span, automatic_away, current_away
from bot.model import (
    ABORTED,
    FINISHED,
    LOBBY,
    RUNNING,
    Commit,
    Lobby,
    LobbyChange,
    Match,
    NewSeat,
    Publication,
    SeatRow,
    Timer,
    TimerRow,
)
from bot.planning import EXPIRE, PING, REMIND, ROBOT_MOVE, Pace
from games.core import BACK, JSON, LEAVE, STAND_IN, Event, GameError
from games.robots import LEVELS

log = logging.getLogger(__name__)

# The channel's lines of what the referee decides beyond a game's own events.
TIMED_OUT = "common.timed_out"
ABORTED_EVENT = "common.aborted"
AWAY, BACK_FROM_AWAY = "time.event.away", "time.event.back"
AWAY_DAY_USED, EVERYONE_AWAY = "time.event.away_day", "time.event.everyone_away"

# An away day is used as a player's time runs out only in a game played across days: one whose
# clock gives a day or more. On a quicker clock it would hold the others up far longer than a turn.
AWAY_DAYS_FROM = DAY
# A timer due this long before the time its seat's rows now give it (an away span, quiet hours or
# a time zone chosen since it was planned) is planned again rather than acted on.
SLACK = 1.0

# A person's move, or a function of the game and the mover's seat that builds it (a panel's
# choice read against the game as it stands).
Action = JSON | Callable[[Match[Any], int], JSON]


@dataclass(frozen=True)
class Context:
    """What the referee is told beside the game: the time, the computers' pace, and two names it
    cannot word itself (they are the channel's language's)."""

    now: float
    pace: Pace
    # How a computer that finished a match for a person who left is named in the results.
    stand_in_name: str = "🤖 {name}"
    # A lobby's computer: its number among the lobby's computers, and its level.
    computer_name: Callable[[int, str], str] = lambda number, level: f"🤖 {number} ({level})"


# ---------------------------------------------------------------------- orders


@dataclass(frozen=True)
class Play:
    """A person's move."""

    user_id: int
    action: Action


@dataclass(frozen=True)
class Leave:
    """A person leaves: a lobby's seat, or a running game's (a computer may take it)."""

    user_id: int


@dataclass(frozen=True)
class ComeBack:
    """A person a computer stands in for takes their seat again."""

    user_id: int


@dataclass(frozen=True)
class Abort:
    """Close the game with no result; ``manager``: the asker may manage the game's channel."""

    user_id: int
    manager: bool


@dataclass(frozen=True)
class Due:
    """A timer came due. For an expiry, ``turns_timed_out``: how many of the seat's turns in a row
    ran out, counting this one (see ``standins.turns_timed_out``); and the player's away spans of
    the last 30 days and their away days, for one to be used if they have any left."""

    timer: TimerRow
    turns_timed_out: int = 1
    away_spans: tuple[Span, ...] = ()
    away_days: int = 0


@dataclass(frozen=True)
class Away:
    """A person's away time changed (``/away``, ``/away off``): told in the channel, their clock
    stopped or running again. The seats' read has their span as it now is; ``before``: their last
    one before the change (None: none)."""

    user_id: int
    before: Span | None = None


@dataclass(frozen=True)
class Join:
    """A person takes a lobby's next seat; ``roles``: theirs in the game's server."""

    seat: NewSeat
    roles: frozenset[int] = frozenset()


@dataclass(frozen=True)
class AddComputer:
    """The host seats a computer at ``level`` (as chosen: checked here)."""

    user_id: int
    level: str


@dataclass(frozen=True)
class RemoveComputer:
    """The host removes the computer in seat ``seat`` (as chosen: checked here)."""

    user_id: int
    seat: str


@dataclass(frozen=True)
class Deal:
    """The host begins the game: the lobby is dealt."""

    user_id: int


Order = Play | Leave | ComeBack | Abort | Due | Away | Join | AddComputer | RemoveComputer | Deal


@dataclass(frozen=True)
class Ruling:
    """One change to commit, and the game as it leaves it (at the next version)."""

    change: Commit | LobbyChange
    after: Match[Any] | Lobby[Any]

    @property
    def publication(self) -> Publication:
        return self.change.publication


# ---------------------------------------------------------------------- the referee


def rule(table: Match[Any] | Lobby[Any], order: Order, context: Context) -> list[Ruling]:
    """The rulings that carry ``order`` out on ``table``, in order (none: nothing to do, as for
    a timer whose decision has passed). ``table`` is played on: a running game's state ends as
    the last ruling leaves it."""
    if isinstance(table, Lobby):
        return [_lobby_ruling(table, order, context)]
    if table.row.status != RUNNING:
        raise GameError("error.game_not_running")
    if isinstance(order, Abort):
        check_abort(table.row, order)
        return [_closed(table, order, context)]
    if isinstance(order, Due):
        return _due(table, order, context)
    if isinstance(order, Away):
        before = PlayerTime(away=() if order.before is None else (order.before,))
        return [_away(table, _seat(table, order.user_id), context, before)]
    if not isinstance(order, Play | Leave | ComeBack):
        raise GameError("error.lobby_closed")
    seat = _seat(table, order.user_id)
    rulings = []
    if standins.away(table.seats[seat]) and not isinstance(order, Leave):
        # Any act of a person a computer stands in for gives them their seat back first.
        rulings.append(
            _move(table, seat, standins.back(), context, told=standins.back_events(table.seats[seat]))
        )
    elif isinstance(order, ComeBack):
        raise GameError("standins.error.not_away")
    if isinstance(order, Play):
        action = order.action(table, seat) if callable(order.action) else order.action
        rulings.append(_move(table, seat, action, context, actor=seat))
    elif isinstance(order, Leave):
        rulings += _leave(table, seat, context)
    return _kept_apart(rulings)


def check_abort(row: Any, order: Abort) -> None:
    """Whoever may close the game: its host, or someone who may manage its channel."""
    if row.status not in (LOBBY, RUNNING):
        raise GameError("error.game_not_running")
    if not (row.host_id == order.user_id or order.manager):
        raise GameError("error.abort_not_allowed")


def _seat(table: Match[Any], user_id: int) -> int:
    seat = table.seat_of(user_id)
    if seat is None:
        raise GameError("error.not_a_player")
    return seat


def _kept_apart(rulings: list[Ruling]) -> list[Ruling]:
    """Each ruling's ``after`` as its change left it (a delivery reads the game it announces): the
    moves were played on one game, which the last ruling keeps; those before it get theirs back
    from what they commit."""
    return [
        replace(ruling, after=_as_committed(ruling.after, ruling.change))
        if number < len(rulings) - 1
        else ruling
        for number, ruling in enumerate(rulings)
    ]


def _as_committed(table: Match[Any] | Lobby[Any], change: Commit | LobbyChange) -> Match[Any] | Lobby[Any]:
    if not isinstance(table, Match) or not isinstance(change, Commit):
        return table
    robots = {seat: table.rules.robot.from_json(state) for seat, state in change.robot_states.items()}
    return replace(table, game=table.rules.engine.from_json(change.state), robots=robots)


def _move(
    table: Match[Any],
    seat: int,
    action: Mapping[str, Any],
    context: Context,
    *,
    actor: int | None = None,
    by_timeout: bool = False,
    told: Sequence[Event] = (),
) -> Ruling:
    """Play ``action`` for ``seat`` (refused by the engine, the game is untouched) and commit it,
    with what it announces and the timers it leaves; ``actor``: who clicked (not called to move
    by the channel: they are looking at the table)."""
    game = table.game
    deciding, waited_for = game.to_act(), game.required_to_act()
    hands_before = _hands(table)
    events = [*table.play(seat, action), *told]
    hands_after = _hands(table)
    changed_hands = tuple(who for who, hand in hands_after.items() if hands_before.get(who) != hand)
    kind = action.get("type")
    left = kind == LEAVE or (kind == STAND_IN and bool(action.get("left")))
    # Who plays a seat changing is no move in the game: the seat's open decision stays as drawn.
    handing_over = kind in (STAND_IN, BACK)
    changed = planning.changed_decisions(deciding, game.to_act(), None if handing_over else seat)
    changed = sorted({*changed, *changed_hands})
    mover = None if handing_over else seat
    banks = timekeeping.banks_after(
        table.row, table.seats, waited_for, game.required_to_act(), mover, context.now
    )
    # The seat's next decision is a further step of the turn it just moved in (``turn_goes_on``).
    stepping = seat if not handing_over and game.turn_goes_on(seat) else None
    if by_timeout and stepping is not None:
        # The rest of a turn whose time ran out has no time left: it is played by default at once,
        # each step a move of its own (a RumBugz draw then its discard; Serie Bum!'s two flips),
        # and the others wait one time limit, not one per step.
        banks[seat] = 0.0
    timers, started, hushed = _planned(table, changed, context, events, banks, stepping=stepping)
    publication = Publication(events, waited_for, actor=actor, hands_changed=changed_hands, hushed=hushed)
    commit = Commit(
        status=FINISHED if game.finished else RUNNING,
        state=game.to_json(),
        totals=game.totals(),
        timers=timers,
        publication=publication,
        logged=(seat, dict(action)),
        by_timeout=by_timeout,
        winner=game.winner(),
        gone=[seat] if left else [],
        changed_decisions=changed,
        robot_states={robot_seat: robot.to_json() for robot_seat, robot in table.robots.items()},
        round_ended=table.rules.ends_round(events),
        feats=table.rules.feats(events),
        stand_ins={seat: str(action["level"])} if kind == STAND_IN else {},
        back=[seat] if kind == BACK else [],
        stand_in_name=context.stand_in_name,
        rated=table.row.rated(table.seats),
        clocks_started=started,
        banks=banks,
    )
    return _committed(table, commit)


def _planned(
    table: Match[Any],
    changed: Sequence[int],
    context: Context,
    events: Sequence[Event] = (),
    banks: Mapping[int, float] | None = None,
    restarts: Mapping[int, float] | None = None,
    stepping: int | None = None,
) -> tuple[list[Timer], dict[int, float], tuple[int, ...]]:
    """The timers the game needs after a change, its seats' clocks first set to what ``banks`` and
    ``restarts`` say: the seats whose clock starts (at ``restarts``' time, else now), and those
    called in their quiet hours (their ping held); ``stepping``: the seat whose turn goes on, see
    ``planning.plan``."""
    banks, restarts = banks or {}, restarts or {}
    seats = [
        replace(
            seat,
            bank_left=banks.get(seat.seat, seat.bank_left),
            decision_at=restarts.get(seat.seat, seat.decision_at),
        )
        for seat in table.seats
    ]
    timers = planning.plan(
        replace(table, seats=seats), table.timers, changed, context.now, context.pace, events, stepping
    )
    started = planning.started_clocks(table.timers, timers)
    hushed = tuple(seat for seat, kind, *_ in timers if kind == PING and seat in started)
    return timers, dict.fromkeys(started, context.now) | dict(restarts), hushed


def _committed(table: Match[Any], commit: Commit) -> Ruling:
    """The ruling of ``commit``, with the game as it leaves it; ``table`` follows it (its next
    move is played from there)."""
    version = table.row.version + 1
    table.row = replace(table.row, version=version, status=commit.status, state=commit.state)
    table.seats = commit.seats_after(table.seats, version)
    table.timers = [TimerRow(table.row.id, *timer) for timer in commit.timers]
    return Ruling(commit, replace(table))


def _hands(table: Match[Any]) -> dict[int, object]:
    """What each person holds (see Game.hand)."""
    return {
        seat.seat: table.game.hand(seat.seat) for seat in table.seats if not seat.gone and not seat.is_robot
    }


def _leave(table: Match[Any], seat: int, context: Context) -> list[Ruling]:
    """The player leaves: a computer takes their seat and plays on (when the game has stand-ins),
    or the seat is removed. With no person left at all, the game ends with no result: the
    computers leave too, until the game cannot go on."""
    leaver = table.seats[seat]
    if standins.people_besides(table.seats, seat):
        if standins.enabled(table.row.options):
            level = leaver.stand_in or standins.level(table.seats)
            return [
                _move(
                    table,
                    seat,
                    standins.stand_in(level, left=True),
                    context,
                    told=standins.left_events(leaver),
                )
            ]
        return [_move(table, seat, {"type": LEAVE}, context)]
    rulings = [_move(table, seat, {"type": LEAVE}, context, told=standins.nobody_left_events(leaver))]
    for other in [row.seat for row in table.seats if not row.out and row.seat != seat]:
        if table.game.finished:
            break
        rulings.append(_move(table, other, {"type": LEAVE}, context))
    return rulings


def _due(table: Match[Any], order: Due, context: Context) -> list[Ruling]:
    """A reminder, an expiry or a computer's move came due; nothing for a timer whose decision
    has passed, or one taken just before its seat changed hands (it is for whoever played it then)."""
    timer = order.timer
    deciding = table.game.to_act() if timer.kind == ROBOT_MOVE else table.game.required_to_act()
    actions = deciding.get(timer.seat)
    computers_timer = (timer.kind == ROBOT_MOVE) == (timer.seat in table.robots)
    if actions is None or planning.decision_key(actions) != timer.decision or not computers_timer:
        return []
    if timer.kind == ROBOT_MOVE:
        return [_robot_move(table, timer.seat, context)]
    replanned = _replanned(table, timer, context)
    if replanned is not None:
        return [replanned]
    if timer.kind in (REMIND, PING):
        return [_reminded(table, timer, context)]
    seat = table.seats[timer.seat]
    day = automatic_away(context.now, order.away_spans, order.away_days)
    if day is not None and timekeeping.game_clock(table.row).seconds >= AWAY_DAYS_FROM:
        return [_away(table, timer.seat, context, day=day)]
    if standins.enabled(table.row.options) and order.turns_timed_out >= standins.TIMED_OUT_TURNS:
        # A computer plays this seat's moves, at its pace, until its player acts again.
        action = standins.stand_in(standins.level(table.seats), left=False)
        told = standins.away_events(seat)
    else:
        action = table.game.default_action(timer.seat)
        told = [Event(TIMED_OUT, {"name": seat.name})]
    return [_move(table, timer.seat, action, context, by_timeout=True, told=told)]


def _robot_move(table: Match[Any], seat: int, context: Context) -> Ruling:
    """A computer decides from its seat's view alone. Should it ever fail, the default move is
    played instead, from the game as it was loaded, so a computer never holds a game up."""
    try:
        return _move(table, seat, table.robots[seat].decide(table.game.view(seat)), context)
    except Exception:
        log.exception("computer of game %s seat %s failed; playing the default move", table.row.id, seat)
        table.restore()
        return _move(table, seat, table.game.default_action(seat), context)


def _reminded(table: Match[Any], timer: TimerRow, context: Context) -> Ruling:
    """The seat is reminded of its move, or called to it now that its quiet hours are over:
    nothing of the game changes but that timer."""
    timers = [(t.seat, t.kind, t.decision, t.due_at) for t in table.timers if t != timer]
    called = (timer.seat,)
    publication = Publication(
        before=table.game.required_to_act(),
        reminded=called if timer.kind == REMIND else (),
        pinged=called if timer.kind == PING else (),
    )
    return _committed(table, _unchanged(table, timers, publication))


def _unchanged(table: Match[Any], timers: Sequence[Timer], publication: Publication, **change: Any) -> Commit:
    """A change that leaves the game as it is: its timers and what it tells (``change``: more)."""
    return Commit(RUNNING, table.game.to_json(), table.game.totals(), timers, publication, **change)


def _replanned(table: Match[Any], timer: TimerRow, context: Context) -> Ruling | None:
    """A person's timer whose time moved since it was planned (its player went away, or chose quiet
    hours or a time zone, and no change of this game planned it again): planned again, not acted
    on. None when it is due indeed."""
    timers = planning.plan(table, table.timers, (), context.now, context.pace)
    due = next((at for seat, kind, _, at in timers if (seat, kind) == (timer.seat, timer.kind)), None)
    if due is None or due <= max(timer.due_at, context.now) + SLACK:
        return None
    return _committed(table, _unchanged(table, timers, Publication(before=table.game.required_to_act())))


def _away(
    table: Match[Any], seat: int, context: Context, before: PlayerTime | None = None, day: Span | None = None
) -> Ruling:
    """A person's away time changed (``before``: as it was), or an away day of theirs is used as
    their time runs out (``day``, written with the change, counted against their away days): told
    in the channel (and that the game waits, when every person is away), their running clock
    restarted with what it had left (after an away day: nothing, once the day is over), the timers
    planned anew from it."""
    row = table.seats[seat]
    restarts: dict[int, float] = {}
    left: dict[int, float] = {}
    if any(timer.seat == seat and timer.kind == EXPIRE for timer in table.timers):
        if day is not None:
            restarts[seat], left[seat] = day.ends, 0.0
        else:
            was = before or timekeeping.player_time(row)
            restarts[seat], left[seat] = context.now, timekeeping.time_left(table.row, row, was, context.now)
    away = current_away(context.now, timekeeping.player_time(row).away)
    if day is not None:
        events = [Event(AWAY_DAY_USED, {"name": row.name, "until_at": day.ends})]
    elif away is not None:
        events = [Event(AWAY, {"name": row.name, "until_at": away.ends})]
    else:
        events = [Event(BACK_FROM_AWAY, {"name": row.name})]
    back = _everyone_away(table.seats, context.now)
    if back is not None:
        events.append(Event(EVERYONE_AWAY, {"until_at": back}))
    timers, started, hushed = _planned(table, (), context, banks=left, restarts=restarts)
    publication = Publication(events, table.game.required_to_act(), hushed=hushed)
    taken = None if day is None else (row.user_id, day.starts, day.ends)
    change = _unchanged(table, timers, publication, clocks_started=started, banks=left, away=taken)
    return _committed(table, change)


def _everyone_away(seats: Sequence[SeatRow], now: float) -> float | None:
    """When the first person of the game is back, if every person at it is away now; else None."""
    people = [seat for seat in seats if not seat.gone and not seat.played_by_computer]
    returns = [current_away(now, timekeeping.player_time(seat).away) for seat in people]
    if not people or any(span is None for span in returns):
        return None
    return min(span.ends for span in returns if span is not None)


def _closed(table: Match[Any], order: Abort, context: Context) -> Ruling:
    """The game closed at once, with no result: no timer, nothing more to play."""
    commit = Commit(
        status=ABORTED,
        state=table.game.to_json(),
        totals=table.game.totals(),
        timers=[],
        publication=Publication([Event(ABORTED_EVENT, {"mention": f"<@{order.user_id}>"})]),
    )
    return _committed(table, commit)


# ---------------------------------------------------------------------- lobbies


def _lobby_ruling(lobby: Lobby[Any], order: Order, context: Context) -> Ruling:
    """A lobby's change: a seat taken or given up, a computer added or removed, the lobby closed,
    or the deal (which makes it a running game)."""
    row, seats, engine = lobby.row, lobby.seats, lobby.rules.engine
    if row.status != LOBBY:
        raise GameError("error.lobby_closed")
    if isinstance(order, Abort):
        check_abort(row, order)
        closed = Publication([Event(ABORTED_EVENT, {"mention": f"<@{order.user_id}>"})])
        after_row = replace(row, version=row.version + 1, status=ABORTED)
        return Ruling(LobbyChange(closed, list(seats), ABORTED), replace(lobby, row=after_row))
    if isinstance(order, Deal):
        _check_host(row, order.user_id, "error.host_only")
        if len(seats) < engine.min_players:
            raise GameError("error.not_enough_players", minimum=engine.min_players)
        return deal(lobby, context)
    seated = any(seat.user_id == getattr(order, "user_id", None) for seat in seats)
    if isinstance(order, Join):
        if any(seat.user_id == order.seat.user_id for seat in seats):
            raise GameError("error.already_joined")
        if row.role_id is not None and row.role_id not in order.roles:
            raise GameError("settings.refused.role", role=f"<@&{row.role_id}>")
        after = [*seats, _new_seat(len(seats), order.seat)]
    elif isinstance(order, Leave):
        if not seated:
            raise GameError("error.not_in_lobby")
        if order.user_id == row.host_id:
            raise GameError("error.host_cannot_leave")
        after = _renumbered([seat for seat in seats if seat.user_id != order.user_id])
    elif isinstance(order, AddComputer):
        _check_host(row, order.user_id, "error.host_only_computers")
        after = _with_computer(seats, order.level, context)
    elif isinstance(order, RemoveComputer):
        _check_host(row, order.user_id, "error.host_only_computers")
        robot = next((seat for seat in seats if seat.is_robot and str(seat.seat) == order.seat), None)
        if robot is None:
            raise GameError("error.out_of_date")
        after = _renumbered([seat for seat in seats if seat is not robot])
    else:
        raise GameError("error.unknown_action")
    if len(after) > engine.max_players:
        raise GameError("error.lobby_full", maximum=engine.max_players)
    after_row = replace(row, version=row.version + 1)
    return Ruling(LobbyChange(Publication(), after), replace(lobby, row=after_row, seats=after))


def opening_seats(
    people: Sequence[NewSeat], levels: Sequence[str], maximum: int, context: Context
) -> list[SeatRow]:
    """A new lobby's seats: its ``people`` (the host first), then computers at ``levels``, as
    many as there is room for."""
    seats = [_new_seat(number, person) for number, person in enumerate(people)]
    for level in levels[: max(maximum - len(seats), 0)]:
        seats = _with_computer(seats, level, context)
    return seats


def _with_computer(seats: Sequence[SeatRow], level: str, context: Context) -> list[SeatRow]:
    """A computer at ``level`` in the next seat, numbered among the lobby's computers; its user id
    negative, one per computer of the game."""
    if level not in LEVELS:
        raise GameError("error.robot_level", level=level)
    robots = [seat.user_id for seat in seats if seat.is_robot]
    name = context.computer_name(len(robots) + 1, level)
    return [*seats, _new_seat(len(seats), NewSeat(min([0, *robots]) - 1, name, "en", level))]


def _check_host(row: Any, user_id: int, refusal: str) -> None:
    if user_id != row.host_id:
        raise GameError(refusal)


def _new_seat(number: int, seat: NewSeat) -> SeatRow:
    return SeatRow(number, seat.user_id, seat.name, seat.locale, 0, False, False, robot=seat.robot)


def _renumbered(seats: Sequence[SeatRow]) -> list[SeatRow]:
    """Seats kept dense, so join order stays seating order."""
    return [replace(seat, seat=number) for number, seat in enumerate(seats)]


def deal(lobby: Lobby[Any], context: Context) -> Ruling:
    """Deal and start the game, with its timers and what its deal announces (every hand); or
    finish the match, results and ratings included, when the deal itself decided it (a Bué dealt)."""
    row, seats, rules = lobby.row, list(lobby.seats), lobby.rules
    game, events = rules.engine.begin(len(seats), row.options, row.seed)
    robots = {seat.seat: rules.robot(seat.robot, row.seed * 16 + seat.seat) for seat in seats if seat.robot}
    table: Match[Any] = Match(replace(row, status=RUNNING), seats, game, rules, robots)
    everyone = range(len(seats))
    timers, started, hushed = _planned(table, everyone, context)
    commit = Commit(
        status=FINISHED if game.finished else RUNNING,
        state=game.to_json(),
        totals=game.totals(),
        timers=timers,
        publication=Publication(events, show_hands=True, hushed=hushed),
        winner=game.winner(),
        changed_decisions=everyone,
        robot_states={seat: robot.to_json() for seat, robot in robots.items()},
        round_ended=rules.ends_round(events),
        feats=rules.feats(events),
        stand_in_name=context.stand_in_name,
        rated=row.rated(seats),
        clocks_started=started,
    )
    return _committed(table, commit)
