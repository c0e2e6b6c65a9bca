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

from bot.store.backend import Backend, Statement

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
    "clock_increment",
    "away_days",
    "tournament_role_id",
)
# What a player's running games kept of their servers' settings, read from /turns' index.
RUNNING_GAMES_SETTINGS = "SELECT games.server_settings FROM seats JOIN games ON games.id = seats.game_id"
IN_PLAY = "seats.in_play = 1 AND seats.gone = 0 AND games.status = 'running'"
PLAYER_COLUMNS = ("language", "dm_hand", "ping", "game_options", "time_zone", "quiet_hours")


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
    # With turn_timeout, the clock of new games, as a game keeps it (``bot.clock.Clock``).
    clock_increment: int | None = None
    away_days: int | None = None
    tournament_role_id: int | None = None


@dataclass(frozen=True)
class PlayerChoices:
    """What a player chose; None for each preference left at its default."""

    language: str | None = None
    dm_hand: bool | None = None
    ping: bool | None = None
    # The start options of the games they host, by game (``{"bue": {"target": 150}}``).
    game_options: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    time_zone: str | None = None  # an IANA name
    quiet_hours: str | None = None  # "23-08", in their time zone


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
            clock_increment=row["clock_increment"],
            away_days=row["away_days"],
            tournament_role_id=row["tournament_role_id"],
        )

    async def set_server(self, guild_id: int, name: str, value: Any) -> None:
        """Set one setting (None: back to its default)."""
        await self.set_server_columns(guild_id, {name: value})

    async def set_server_columns(self, guild_id: int, chosen: Mapping[str, Any]) -> None:
        """Set the columns of one setting kept in several (the clock: its time and its increment)."""
        await self._choose("guild_settings", "guild_id", SERVER_COLUMNS, guild_id, chosen)

    async def _choose(
        self, table: str, key: str, columns: tuple[str, ...], owner: int, chosen: Mapping[str, Any]
    ) -> None:
        """Set the columns ``chosen`` names of ``owner``'s row in ``table``, made if it is not there
        yet, in one statement; only ``columns`` reach the SQL."""
        unknown = set(chosen) - set(columns)
        if unknown or not chosen:
            raise ValueError(sorted(unknown))
        names = list(chosen)
        await self._db.execute(
            f"INSERT INTO {table} ({key}, {', '.join(names)}) VALUES (?{', ?' * len(names)})"
            f" ON CONFLICT ({key}) DO UPDATE SET " + ", ".join(f"{name} = excluded.{name}" for name in names),
            (owner, *(_encoded(name, value) for name, value in chosen.items())),
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
            time_zone=row["time_zone"],
            quiet_hours=row["quiet_hours"],
        )

    async def set_player(self, user_id: int, name: str, value: Any) -> None:
        """Set one preference (None: back to its default)."""
        await self._choose("player_preferences", "user_id", PLAYER_COLUMNS, user_id, {name: value})

    async def running_games_settings(self, user_id: int) -> list[dict[str, Any]]:
        """What each running game the player sits in kept of its server's settings (its away days)."""
        rows = await self._db.fetch(
            f"{RUNNING_GAMES_SETTINGS} WHERE seats.user_id = ? AND {IN_PLAY}", (user_id,)
        )
        return [json.loads(row["server_settings"]) for row in rows]

    # ------------------------------------------------------------------ away spans

    async def away_of_seat(
        self, game_id: int, seat: int, since: float
    ) -> tuple[list[tuple[float, float]], list[dict[str, Any]]]:
        """What an expiry of the seat needs of its player, in one read: their away spans that end
        after ``since``, and what each of their running games kept of its server's settings."""
        player = "(SELECT user_id FROM seats WHERE game_id = ? AND seat = ?)"
        spans, games = await self._db.fetch_many(
            [
                Statement(
                    f"SELECT starts_at, ends_at FROM away_spans WHERE user_id = {player} AND ends_at > ?"
                    " ORDER BY starts_at",
                    (game_id, seat, since),
                ),
                Statement(
                    f"{RUNNING_GAMES_SETTINGS} WHERE seats.user_id = {player} AND {IN_PLAY}", (game_id, seat)
                ),
            ]
        )
        return [(row["starts_at"], row["ends_at"]) for row in spans], [
            json.loads(row["server_settings"]) for row in games
        ]

    async def away_spans(
        self, user_id: int, since: float, automatic: bool = False
    ) -> list[tuple[float, float]]:
        """(start, end) of the player's spans of ``/away`` (``automatic``: of the away days used for
        their games as time ran out) that end after ``since``, oldest first."""
        rows = await self._db.fetch(
            "SELECT starts_at, ends_at FROM away_spans WHERE user_id = ? AND ends_at > ? AND automatic = ?"
            " ORDER BY starts_at",
            (user_id, since, int(automatic)),
        )
        return [(row["starts_at"], row["ends_at"]) for row in rows]

    async def set_away(self, user_id: int, starts: float, ends: float) -> None:
        """The player is away from ``starts`` to ``ends`` (``away_statements``), in one transaction."""
        await self._db.run(self.away_statements(user_id, starts, ends))

    async def last_away(self, user_id: int) -> tuple[float, float] | None:
        """The player's last span of ``/away``, as the seats' read has it (None: none)."""
        rows = await self._db.fetch(
            "SELECT away_from, away_until FROM player_preferences WHERE user_id = ?", (user_id,)
        )
        if not rows or rows[0]["away_from"] is None or rows[0]["away_until"] is None:
            return None
        return rows[0]["away_from"], rows[0]["away_until"]

    @staticmethod
    def away_statements(
        user_id: int, starts: float, ends: float, *, automatic: bool = False
    ) -> list[Statement]:
        """The player is away from ``starts`` to ``ends``: a new span, or the one that began at
        ``starts`` ended anew (an ``/away`` while away, or ``/away off``); a span ended as it began
        is gone. The player's last span is kept with their preferences too, by the same statements
        (the seats' read takes it from there). ``automatic``: an away day used for one game as
        their time ran out there: it counts against their away days, and stops no other game."""
        span = (
            Statement("DELETE FROM away_spans WHERE user_id = ? AND starts_at = ?", (user_id, starts))
            if ends <= starts
            else Statement(
                "INSERT INTO away_spans (user_id, starts_at, ends_at, automatic) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (user_id, starts_at) DO UPDATE SET ends_at = excluded.ends_at",
                (user_id, starts, ends, int(automatic)),
            )
        )
        if automatic:
            return [span]
        last = (
            "(SELECT {} FROM away_spans WHERE user_id = ? AND automatic = 0 ORDER BY starts_at DESC LIMIT 1)"
        )
        kept = Statement(
            f"INSERT INTO player_preferences (user_id, away_from, away_until)"
            f" VALUES (?, {last.format('starts_at')}, {last.format('ends_at')})"
            " ON CONFLICT (user_id) DO UPDATE"
            " SET away_from = excluded.away_from, away_until = excluded.away_until",
            (user_id, user_id, user_id),
        )
        return [span, kept]

    async def dms_closed(self, user_id: int) -> bool:
        """Whether the player's DMs refused the bot when it last tried them (``closed_dms``)."""
        return bool(await self._db.fetch("SELECT 1 FROM closed_dms WHERE user_id = ?", (user_id,)))
