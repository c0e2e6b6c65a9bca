"""What keeps the page live: a redraw after each of the bot's deliveries, and a wall clock."""

from __future__ import annotations

import asyncio
import contextvars
from datetime import UTC, datetime

from simcord import Env, Preview

from bot.playground.page import publish

# How often the simulated clock catches up with the wall clock (it only moves by itself when a
# timer fires). Dates on the page are at most this late.
CLOCK_STEP = 1.0


class Redraw:
    """The page redraws only when told (``page.publish``): the bot tells ``delivered`` after each
    delivery, computers' moves and timers included, and ``run`` redraws once per burst."""

    def __init__(self) -> None:
        self._wanted = asyncio.Event()

    def delivered(self) -> None:
        """The bot's ``after_delivery``: runs inside the bot's work, so it only asks."""
        self._wanted.set()

    async def run(self, preview: Preview) -> None:
        while True:
            await self._wanted.wait()
            self._wanted.clear()
            publish(preview)


def start_clock_today(env: Env) -> None:
    """SimCord's clock starts on 2026-01-01 and has no setting for that: before the bot starts,
    move it on to now, so the page shows today's dates (no-op if now is before its epoch)."""
    catch_up(env)


def catch_up(env: Env) -> None:
    behind = (datetime.now(UTC) - env.now()).total_seconds()
    if behind > 0:
        env.backend.advance_clock(behind)


async def keep_wall_time(env: Env) -> None:
    """The timers (a computer's pause, a turn's reminder) already fire at wall-clock pace: SimCord
    runs a pending timer at its real instant. Between them the simulated clock stands still;
    this keeps the message times on the page right."""
    while True:
        await asyncio.sleep(CLOCK_STEP)
        catch_up(env)


class WallClock:
    """How the bot's timers wait in the playground (``GameBot``'s ``timer_sleep``): on the wall
    clock, outside SimCord's simulation.

    A timer the bot schedules is, for SimCord, work of the bot's in progress: a click, or a redraw,
    waits for it to be done (``Preview.refresh`` settles), and when it fires SimCord advances the
    simulation until the bot rests again, which it does not while computers play one another. So
    the page froze through every computer's pause and showed all their moves at once. Here the
    timers' loop waits on an alarm of the playground's own, declared an external wait: the page
    shows each computer's move as it is delivered, at ``ROBOT_PAUSE``'s pace."""

    def __init__(self) -> None:
        self._env: Env | None = None

    def attach(self, env: Env) -> None:
        self._env = env

    async def sleep(self, seconds: float) -> None:
        if self._env is None:
            raise RuntimeError("the wall clock runs the timers of a simulated Discord: attach it first")
        env, loop = self._env, asyncio.get_running_loop()
        rung: asyncio.Future[None] = loop.create_future()

        def ring() -> None:
            catch_up(env)  # the timers' loop reads the simulated clock: it shows the time it rang
            if not rung.done():
                rung.set_result(None)

        # Scheduled from a context of its own: SimCord counts a timer scheduled from the bot's
        # context as the bot's work, and this one is the playground's.
        alarm = contextvars.Context().run(loop.call_later, seconds, ring)
        try:
            await env.external_wait(rung, reason="the playground's wall clock: the next timer's due time")
        finally:
            alarm.cancel()
