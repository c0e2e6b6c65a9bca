"""Configuration from the environment (and a .env file beside the bot, if there is one)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from dotenv import load_dotenv

DEFAULT_DATABASE = "data/tabletop.sqlite3"


@dataclass(frozen=True)
class Settings:
    token: str | None
    database_path: str
    dev_guild_id: int | None
    log_level: str
    # Seconds a computer player waits before it moves, so people can follow.
    robot_pause: float = 2.0

    @classmethod
    def from_env(cls) -> Settings:
        load_dotenv()
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE,
            dev_guild_id=int(guild) if guild.isdigit() else None,
            log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            robot_pause=float(os.environ.get("ROBOT_PAUSE", "").strip() or 2.0),
        )
