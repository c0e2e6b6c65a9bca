"""Persistence: one Store, written once, over SQLite (the default) or PostgreSQL."""

from bot.store.rows import (
    ChannelBusy,
    Commit,
    FinishedMatch,
    GameRow,
    MatchSeat,
    PastResult,
    Pending,
    PlayerRecord,
    RatedStanding,
    Score,
    SeatRow,
    Shards,
    Snapshot,
    StaleVersion,
    Standing,
    TimerRow,
)
from bot.store.schema import MIGRATIONS
from bot.store.seasons import Season
from bot.store.store import Store

__all__ = [
    "MIGRATIONS",
    "ChannelBusy",
    "Commit",
    "FinishedMatch",
    "GameRow",
    "MatchSeat",
    "PastResult",
    "Pending",
    "PlayerRecord",
    "RatedStanding",
    "Score",
    "Season",
    "SeatRow",
    "Shards",
    "Snapshot",
    "StaleVersion",
    "Standing",
    "Store",
    "TimerRow",
]
