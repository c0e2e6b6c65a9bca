"""Configuration from the environment (and a .env file beside the bot, if there is one)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from dotenv import load_dotenv

from bot.store import Shards

DEFAULT_DATABASE = "data/tabletop.sqlite3"
# How often a running bot writes its heartbeat: python -m bot.health wants one of the last minute.
HEARTBEAT_SECONDS = 20.0


@dataclass(frozen=True)
class Settings:
    token: str | None
    # An SQLite file's path, or a postgresql:// URL.
    database: str
    dev_guild_id: int | None
    log_level: str
    # Seconds a computer player waits before it moves, so people can follow.
    robot_pause: float = 2.0
    # Seconds people have a move's outcome in view before a computer moves, when the game asks for
    # it (``GameAdapter.kept_in_view``: Serie Bum!'s tiles covered again, a memory game).
    view_pause: float = 5.0
    # Whether messages link to Discord's pages (a table message): where they cannot open (the
    # playground's page), a message names the command that shows the table instead (``Links``).
    discord_links: bool = True
    # Discord's shard count and this process's shards; None runs one unsharded client.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # The loopback port of the Prometheus metrics (the metrics extra); None: no metrics served.
    metrics_port: int | None = None
    # How often the process writes its heartbeat (python -m bot.health wants one of the last minute);
    # None: once, at start. Settings made in code (a test, SimCord's simulated clock) have None, and
    # the bot's configuration (``from_env``) HEARTBEAT_SECONDS.
    heartbeat_seconds: float | None = None
    # Every game's deal drawn from this seed, for the same deals again (a bug report reproduced, a
    # demonstration, a test of the playground); None: deals as random as they come.
    deal_seed: int | None = None

    def __post_init__(self) -> None:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT: how many shards there are in all")
        if self.shard_count is not None and not all(
            0 <= shard < self.shard_count for shard in self.shard_ids or ()
        ):
            raise ValueError(f"SHARD_IDS must be between 0 and SHARD_COUNT - 1 ({self.shard_count - 1})")

    @property
    def process_name(self) -> str:
        """Names this process's heartbeat (see bot/health.py): by the shards it holds, which only it
        holds, so a process started again with the same configuration takes its name back."""
        if self.shard_count is None:
            return "all"
        return f"shards {','.join(map(str, self.shards.ids))} of {self.shard_count}"

    @property
    def shards(self) -> Shards:
        """The shards whose games this process runs."""
        if self.shard_count is None:
            return Shards()
        return Shards(self.shard_count, self.shard_ids or tuple(range(self.shard_count)))

    @classmethod
    def from_env(cls) -> Settings:
        load_dotenv()
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        count = os.environ.get("SHARD_COUNT", "").strip()
        ids = os.environ.get("SHARD_IDS", "").strip()
        port = os.environ.get("METRICS_PORT", "").strip()
        deal_seed = os.environ.get("DEAL_SEED", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database=os.environ.get("DATABASE_URL", "").strip()
            or os.environ.get("DATABASE_PATH", "").strip()
            or DEFAULT_DATABASE,
            dev_guild_id=int(guild) if guild.isdigit() else None,
            log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            robot_pause=float(os.environ.get("ROBOT_PAUSE", "").strip() or 2.0),
            view_pause=float(os.environ.get("VIEW_PAUSE", "").strip() or 5.0),
            shard_count=int(count) if count else None,
            shard_ids=tuple(int(shard) for shard in ids.split(",")) if ids else None,
            metrics_port=int(port) if port else None,
            heartbeat_seconds=HEARTBEAT_SECONDS,
            deal_seed=int(deal_seed) if deal_seed else None,
        )
