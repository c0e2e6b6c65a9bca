"""The playground's event loop: the bot attached to a simulated Discord, and the page."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from simcord import Env, Preview

from bot.client import bot_for
from bot.config import Settings
from bot.i18n import DEFAULT_LANGUAGE
from bot.playground.live import Redraw, WallClock, keep_wall_time, start_clock_today
from bot.playground.page import SeenControls
from bot.playground.typed import TypedCommands
from bot.playground.world import DISCORD_LOCALES, World, build_world, language_command, welcome

# The longest a click may keep the bot busy (the Rummikub solver, a picture) before the page
# reports a timeout; SimCord's default, 5 s, is short on a busy machine.
SETTLE_SECONDS = 60.0
BOT_NAME = "Tabletop"


def local_timezone() -> str:
    """This machine's time zone name, for the times on the page (UTC when it has none)."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    with contextlib.suppress(OSError):
        candidates.append(str(Path("/etc/localtime").resolve()).partition("zoneinfo/")[2])
    for name in candidates:
        with contextlib.suppress(ZoneInfoNotFoundError, ValueError):
            if name:
                ZoneInfo(name)
                return name
    return "UTC"


@dataclass(frozen=True)
class Playground:
    env: Env
    world: World
    preview: Preview


@contextlib.asynccontextmanager
async def open_playground(
    settings: Settings, language: str = DEFAULT_LANGUAGE, **bot_options: Any
) -> AsyncIterator[Playground]:
    """The bot attached to a new simulated Discord in ``language``, its page served; all closed
    on the way out."""
    redraw, clock = Redraw(), WallClock()
    bot = bot_for(settings, after_delivery=redraw.delivered, timer_sleep=clock.sleep, **bot_options)
    # check_errors is for tests; here the bot's own handlers answer every error.
    env = Env(bot, check_errors=False, settle_timeout=SETTLE_SECONDS)
    clock.attach(env)
    # SimCord names every bot TestBot; the page shows this name on each of its messages.
    env.backend.bot_user.name = BOT_NAME
    start_clock_today(env)
    # Built before the bot starts, so that the bot's commands, set as it starts, include the
    # world's own (its language).
    world = build_world(env, language)
    bot.tree.add_command(language_command(world))
    TypedCommands(env, bot, world, redraw.delivered)
    await env.start()
    try:
        with env.time_context():
            await welcome(world)
            preview = env.preview(
                world.channel,
                viewers=world.people,
                layout="channel",
                locale=DISCORD_LOCALES[language],
                timezone=local_timezone(),
            )
            SeenControls(preview)  # hooks itself into the page's publications and clicks
            async with preview:
                helpers = [asyncio.create_task(redraw.run(preview)), asyncio.create_task(keep_wall_time(env))]
                try:
                    yield Playground(env, world, preview)
                finally:
                    for helper in helpers:
                        helper.cancel()
                    await asyncio.gather(*helpers, return_exceptions=True)
    finally:
        await env.shutdown()
        await bot.close()


async def serve(settings: Settings, language: str, ready: Callable[[str], None]) -> None:
    """Run until the page's "End preview session" or a cancellation (Ctrl-C); ``ready`` is
    given the page's secret address."""
    async with open_playground(settings, language) as playground:
        ready(playground.preview.url)
        await playground.preview.wait_closed()
