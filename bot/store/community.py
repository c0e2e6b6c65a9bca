"""A server's settings and each player's preferences.

What is stored is what was chosen: a NULL column is a setting left at its default, which the
service (``bot.community``) fills in, so a default changed in a new version reaches every server
that never chose otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.store.backend import Backend

# The columns a setting or a preference is written to, by name: nothing else reaches the SQL.
SERVER_COLUMNS = (
    "language",
    "channels",
    "role_id",
    "turn_timeout",
    "reminder",
    "computers_rated",
    "stand_in",
    "computer_pause",
    "tournament_role_id",
)
PLAYER_COLUMNS = ("language", "dm_hand", "ping", "game_options")


@dataclass(frozen=True)
class ServerChoices:
    """What a server's admins chose; None for each setting left at its default."""

    language: str | None = None
    channels: tuple[int, ...] | None = None
    role_id: int | None = None
    turn_timeout: int | None = None
    reminder: int | None = None
    computers_rated: bool | None = None
    stand_in: bool | None = None
    computer_pause: float | None = None
    tournament_role_id: int | None = None


@dataclass(frozen=True)
class PlayerChoices:
    """What a player chose; None for each preference left at its default."""

    language: str | None = None
    dm_hand: bool | None = None
    ping: bool | None = None
    # The start options of the games they host, by game (``{"bue": {"target": 150}}``).
    game_options: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _encoded(name: str, value: Any) -> Any:
    """A setting's value as its column keeps it (lists and maps as JSON, flags as 0/1)."""
    if value is None:
        return None
    if name in ("channels", "game_options"):
        return json.dumps(list(value) if name == "channels" else value)
    return int(value) if isinstance(value, bool) else value


class CommunityStore:
    """Settings and preferences over the store's backend (composed by ``Store``)."""

    def __init__(self, backend: Backend) -> None:
        self._db = backend

    async def server(self, guild_id: int) -> ServerChoices:
        rows = await self._db.fetch("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if not rows:
            return ServerChoices()
        row = rows[0]
        channels = row["channels"]
        return ServerChoices(
            language=row["language"],
            channels=None if channels is None else tuple(json.loads(channels)),
            role_id=row["role_id"],
            turn_timeout=row["turn_timeout"],
            reminder=row["reminder"],
            computers_rated=_flag(row["computers_rated"]),
            stand_in=_flag(row["stand_in"]),
            computer_pause=row["computer_pause"],
            tournament_role_id=row["tournament_role_id"],
        )

    async def set_server(self, guild_id: int, name: str, value: Any) -> None:
        """Set one setting (None: back to its default)."""
        await self._choose("guild_settings", "guild_id", SERVER_COLUMNS, guild_id, name, value)

    async def _choose(
        self, table: str, key: str, columns: tuple[str, ...], owner: int, name: str, value: Any
    ) -> None:
        """Set column ``name`` of ``owner``'s row in ``table``, made if it is not there yet; only
        one of ``columns`` reaches the SQL."""
        if name not in columns:
            raise ValueError(name)
        await self._db.execute(
            f"INSERT INTO {table} ({key}, {name}) VALUES (?, ?)"
            f" ON CONFLICT ({key}) DO UPDATE SET {name} = excluded.{name}",
            (owner, _encoded(name, value)),
        )

    async def player(self, user_id: int) -> PlayerChoices:
        rows = await self._db.fetch("SELECT * FROM player_preferences WHERE user_id = ?", (user_id,))
        if not rows:
            return PlayerChoices()
        row = rows[0]
        return PlayerChoices(
            language=row["language"],
            dm_hand=_flag(row["dm_hand"]),
            ping=_flag(row["ping"]),
            game_options=json.loads(row["game_options"]) if row["game_options"] else {},
        )

    async def set_player(self, user_id: int, name: str, value: Any) -> None:
        """Set one preference (None: back to its default)."""
        await self._choose("player_preferences", "user_id", PLAYER_COLUMNS, user_id, name, value)
