"""The playground: the real bot in SimCord's simulated Discord, served as a page on this machine
(SimCord's preview: loopback only, behind a secret address)."""

from __future__ import annotations

import importlib
import os
from dataclasses import replace
from pathlib import Path

from bot.config import Settings
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES

DATABASE = "data/playground.sqlite3"
# simcord[preview]: what the page needs beyond the bot (the `playground` extra installs them).
PACKAGES = ("simcord", "aiohttp", "markdown_it", "linkify_it", "regex", "av")


def missing_packages() -> list[str]:
    missing = []
    for name in PACKAGES:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def playground_settings(settings: Settings) -> Settings:
    """The bot's settings with the playground's own database, emptied: SimCord gives its users,
    channels and messages new ids at each start, so yesterday's games would point at nothing. No
    links to Discord's pages: the page cannot open them (messages name ``/<game> table`` instead)."""
    database = Path(os.environ.get("PLAYGROUND_DATABASE", DATABASE))
    database.parent.mkdir(parents=True, exist_ok=True)
    for leftover in (database, *(database.with_name(database.name + end) for end in ("-wal", "-shm"))):
        leftover.unlink(missing_ok=True)
    # One heartbeat, at start: SimCord's clock jumps to today as the playground opens, and a beat
    # every 20 s would be played over all the days between.
    return replace(
        settings,
        token=None,
        database=str(database),
        dev_guild_id=None,
        shard_count=None,
        heartbeat_seconds=None,
        discord_links=False,
    )


def playground_language(chosen: str | None) -> str:
    """The playground's language: ``chosen`` (``--language``), else ``PLAYGROUND_LANGUAGE``, else
    English; ValueError for any other than "en", "it" and "fr"."""
    language = (chosen or os.environ.get("PLAYGROUND_LANGUAGE", "")).strip().lower() or DEFAULT_LANGUAGE
    if language not in LANGUAGES:
        raise ValueError(f"the playground's language is one of {', '.join(LANGUAGES)}, not {language!r}")
    return language
