"""One loop runs every due reminder and expiry; the due times live in the database."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.store import TimerRow
from bot.store.timers import TIMER_LEASE, TimerStore

log = logging.getLogger(__name__)

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
