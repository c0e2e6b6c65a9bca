"""Persistence: one Store, written once, over SQLite (the default) or PostgreSQL."""

from bot.model import Commit, GameRow, LobbyChange, SeatRow, TimerRow
from bot.store.rows import (
    ChannelBusy,
    FinishedMatch,
    MatchSeat,
    PastResult,
    Pending,
    PlayerRecord,
    RatedStanding,
    Shards,
    Snapshot,
    StaleVersion,
    Standing,
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
    "LobbyChange",
    "MatchSeat",
    "PastResult",
    "Pending",
    "PlayerRecord",
    "RatedStanding",
    "Season",
    "SeatRow",
    "Shards",
    "Snapshot",
    "StaleVersion",
    "Standing",
    "Store",
    "TimerRow",
]
