"""One loop runs every due reminder and expiry; the due times live in the database."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence

import discord

from bot.store import TimerRow
from bot.store.timers import TIMER_LEASE, TimerStore

log = logging.getLogger(__name__)

# The timer kind of a computer's move.
ROBOT_MOVE = "robot"

# How the loop waits for the next due timer: asyncio's sleep, or the playground's wall clock.
Sleep = Callable[[float], Awaitable[None]]

# Claims are renewed well before their lease ends, so a slow query never lets one lapse.
RENEW_EVERY = TIMER_LEASE / 3


class TimerService:
    """Sleeps until the earliest due timer, runs what is due, and repeats.

    ``poke`` after any change to the timers: a sleeping loop is restarted so it sees an
    earlier deadline; a busy one re-reads the table before it sleeps again.
    """

    def __init__(
        self, store: TimerStore, fire: Callable[[TimerRow], Awaitable[None]], sleep: Sleep = asyncio.sleep
    ) -> None:
        self._store = store
        self._fire = fire
        self._sleep = sleep
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._wakes_at: float | None = None
        self._changes = 0
        self._stopped = False

    def poke(self, earliest: float | None = None) -> None:
        """``earliest``: the first due time among the timers just written, when known. A loop
        asleep until no later than that is left asleep: it reads the table again when it wakes,
        and a move costs no timer query. Once stopped, nothing starts the loop again: a move
        committed while the process shuts down would otherwise claim timers after its successor
        took its claims back, leaving them held for a lease by a process about to be gone."""
        if self._stopped:
            return
        self._changes += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="game-timers")
        elif self._sleeping and (earliest is None or self._wakes_at is None or earliest < self._wakes_at):
            self._task.cancel()
            self._task = asyncio.get_running_loop().create_task(self._run(), name="game-timers")

    def stop(self) -> None:
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _fire_all(self, timers: list[TimerRow]) -> None:
        """Fire the timers this process claimed, renewing its claims while it works (a computer
        may think, a move may wait for the game's lock)."""
        renewing = asyncio.get_running_loop().create_task(self._renew_claims(timers), name="timer-claims")
        try:
            for timer in timers:
                try:
                    await self._fire(timer)
                except Exception:
                    # ``fire`` drops a timer that fails under its game's lock; this is for one that
                    # failed even so (the database), so that it never fires again and again.
                    log.exception("timer %s failed; dropping it", timer)
                    await self._store.drop_timer(timer)
        finally:
            renewing.cancel()

    async def _renew_claims(self, timers: list[TimerRow]) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                await self._store.renew_claims(timers, discord.utils.utcnow().timestamp())
            except Exception:
                log.exception("could not renew this process's timer claims")

    async def _run(self) -> None:
        while True:
            seen = self._changes
            now = discord.utils.utcnow().timestamp()
            claimed = await self._store.due_timers(now)
            if claimed:
                await self._fire_all(claimed)
            due = await self._store.next_due()
            if self._changes != seen:
                continue
            if due is None:
                return
            delay = due - discord.utils.utcnow().timestamp()
            if delay <= 0:
                continue
            self._sleeping, self._wakes_at = True, due
            try:
                await self._sleep(delay)
            finally:
                self._sleeping = False


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
) -> list[tuple[int, str, str, float]]:
    """A reminder after the share ``reminder_share`` of the turn (none at 0) and an expiry per
    deciding seat.

    A seat still facing the same decision keeps its deadline (a simultaneous reveal does
    not restart the clock of those who have not chosen yet); a reminder already sent is
    not sent again.
    """
    kept = {(timer.seat, timer.kind): timer for timer in previous}
    planned: list[tuple[int, str, str, float]] = []
    for seat, actions in sorted(to_act.items()):
        decision = decision_key(actions)
        expiry = kept.get((seat, "expire"))
        if expiry is not None and expiry.decision == decision:
            planned.append((seat, "expire", decision, expiry.due_at))
            reminder = kept.get((seat, "remind"))
            if reminder is not None:
                planned.append((seat, "remind", decision, reminder.due_at))
        else:
            if reminder_share:
                planned.append((seat, "remind", decision, now + timeout * reminder_share))
            planned.append((seat, "expire", decision, now + timeout))
    return planned


def plan_robot_moves(
    to_act: Mapping[int, frozenset[str]],
    robots: Iterable[int],
    changed: Iterable[int],
    previous: Sequence[TimerRow],
    pause: float,
    now: float,
    hold: float = 0.0,
) -> list[tuple[int, str, str, float]]:
    """A move timer per computer seat with a decision open, after a pause so people can follow;
    a computer whose decision did not change keeps the time it had. None is due before ``hold``
    seconds from now: what the move showed stays in view that long (``GameAdapter.kept_in_view``)."""
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
