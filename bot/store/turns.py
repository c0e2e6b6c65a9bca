"""A player's turns across every server (``/turns``): the running games they sit in, those waiting
on a decision of theirs first, read from an index; and a game's log as the recap reads it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.store.concern import MAX_ID, Concern

# Most games /turns reads for one player: more than anyone plays at once, and within what its
# answer can show and step through.
MOST_TURNS = 100

# From the player's seats in running games (the partial index ``seats_in_play``: finished games
# and those they left are not in it), each joined by key to its game (its status checked again),
# and its expiry timer (the decision waiting on the seat, and its deadline); the seat's own row
# says when its clock started (``decision_at``). No other seat, and no other game, is read.
TURNS_QUERY = (
    "SELECT games.id AS game_id, games.kind, games.guild_id, games.channel_id, games.message_id,"
    " seats.seat, seats.stand_in, timers.decision, timers.due_at,"
    " COALESCE(seats.waiting_since, seats.decision_at, games.updated_at) AS waiting_since,"
    " (SELECT MIN(others.due_at) FROM timers others WHERE others.game_id = seats.game_id"
    " AND others.kind = 'expire') AS next_due"
    " FROM seats JOIN games ON games.id = seats.game_id"
    " LEFT JOIN timers ON timers.game_id = seats.game_id AND timers.seat = seats.seat"
    " AND timers.kind = 'expire'"
    " WHERE seats.user_id = ? AND seats.in_play = 1 AND seats.gone = 0 AND games.status = 'running'"
    " ORDER BY timers.due_at IS NULL, waiting_since, games.id"
    " LIMIT ?"
)


@dataclass(frozen=True)
class Turn:
    """One running game of a player's: where it is, their seat, and what it waits on."""

    game_id: int
    kind: str
    guild_id: int
    channel_id: int
    message_id: int | None
    seat: int
    stand_in: str | None  # a computer plays the seat for them meanwhile
    decision: str | None  # the actions open to them (``bot.timers.decision_key``); None: not waited on
    due_at: float | None  # when their decision runs out
    waiting_since: float  # when the seat's open decision (or its last one) began
    next_due: float | None  # the game's first deadline, whoever's it is

    @property
    def waits_on_them(self) -> bool:
        return self.decision is not None

    @property
    def jump_url(self) -> str:
        return f"https://discord.com/channels/{self.guild_id}/{self.channel_id}/{self.message_id or ''}"


@dataclass(frozen=True)
class Logged:
    """One action of a game's log: who, what, whether the referee played it on a timeout, and when."""

    seat: int
    action: dict[str, Any]
    by_timeout: bool
    at: float


class Turns(Concern):
    """Every process answers ``/turns`` for any player: it reads games of every shard (the
    database is shared), and writes nothing."""

    async def of_player(self, user_id: int, limit: int = MOST_TURNS) -> list[Turn]:
        """The player's running games: those waiting on them, the longest-waiting first, then the
        others, the longest-waiting first too."""
        if not 0 < user_id <= MAX_ID:
            return []
        rows = await self._db.fetch(TURNS_QUERY, (user_id, limit))
        return [Turn(**{name: row[name] for name in Turn.__dataclass_fields__}) for row in rows]

    async def log(self, game_id: int) -> list[Logged]:
        rows = await self._db.fetch(
            "SELECT seat, action, by_timeout, at FROM actions WHERE game_id = ? ORDER BY number", (game_id,)
        )
        return [
            Logged(row["seat"], json.loads(row["action"]), bool(row["by_timeout"]), row["at"]) for row in rows
        ]
