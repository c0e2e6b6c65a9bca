"""The playground: the real bot in SimCord's simulated Discord, served as a page on this machine
(SimCord's preview: loopback only, behind a secret address)."""

from __future__ import annotations

import importlib
import os
from dataclasses import replace
from pathlib import Path

from bot.config import Settings

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
    channels and messages new ids at each start, so yesterday's games would point at nothing."""
    database = Path(os.environ.get("PLAYGROUND_DATABASE", DATABASE))
    database.parent.mkdir(parents=True, exist_ok=True)
    for leftover in (database, *(database.with_name(database.name + end) for end in ("-wal", "-shm"))):
        leftover.unlink(missing_ok=True)
    return replace(settings, token=None, database=str(database), dev_guild_id=None, shard_count=None)
