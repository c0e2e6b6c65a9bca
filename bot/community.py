"""Running the bot for a community: each server's settings and each player's preferences.

A server's settings are read when a game starts (``at_start``) and what a running game needs of
them is kept with it (the game's ``server_settings``), so a change never alters a game under way.
A player's preferences follow them everywhere, running games included: the seats' rows are read
with them (``bot.store.SeatRow.dm_hand``, ``ping``, ``locale``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot import model
from bot.clock import (
    AWAY_WINDOW,
    DEFAULT_AWAY_DAYS,
    DEFAULT_MOVE,
    MAX_AWAY_DAYS,
    Clock,
    Span,
    away_ended,
    away_left,
    away_span,
    away_used,
    check_zone,
    current_away,
    parse_away,
    parse_clock,
    parse_quiet_hours,
)
from bot.i18n import LANGUAGES, t
from bot.store.community import CommunityStore, PlayerChoices, ServerChoices
from bot.time_text import clock_text
from bot.timekeeping import AwayStatus, away_allowance, setting_clock, turn_timeout_seconds
from games.core import Game, GameError, resolve_table_options

# A turn's reminder comes after this share of it, in percent (0: no reminder).
DEFAULT_REMINDER = model.DEFAULT_REMINDER
MAX_REMINDER = 90
MAX_COMPUTER_PAUSE = 60.0
# How long a player's chosen language is remembered before it is read again (another process
# may have changed it); a change made through this process is seen at once.
LANGUAGE_CACHE_SECONDS = 60.0
LANGUAGE_CACHE_SIZE = 10_000

# Words a yes/no game option may be written with (/preferences game_options, /tournament create).
YES_NO = {"on": 1, "yes": 1, "true": 1, "off": 0, "no": 0, "false": 0}
# The settings /settings shows, in its order.
SERVER_SETTINGS = (
    "language",
    "channels",
    "role",
    "turn_timeout",
    "reminder",
    "computers_rated",
    "stand_in",
    "computer_pause",
    "away_days",
    "tournament_role",
)


@dataclass(frozen=True)
class ServerSettings:
    """A server's settings, defaults filled in."""

    language: str | None  # None: the server's Discord language
    channels: tuple[int, ...]  # empty: every channel
    role_id: int | None
    turn_timeout: int
    reminder: int
    computers_rated: bool
    stand_in: bool
    computer_pause: float
    tournament_role_id: int | None  # who may create tournaments besides Manage Server
    clock_increment: int | None = None
    away_days: int = DEFAULT_AWAY_DAYS

    @property
    def clock(self) -> Clock:
        """New games' clock: ``turn_timeout`` per move, or a bank of it with the increment."""
        return Clock(self.turn_timeout, self.clock_increment)

    def kept(self) -> dict[str, Any]:
        """What a game keeps when it starts: what it needs while it runs."""
        return {
            "reminder": self.reminder,
            "computer_pause": self.computer_pause,
            "computers_rated": self.computers_rated,
            "role_id": self.role_id,
            "away_days": self.away_days,
        }


def channel_allowed(channel: Any, allowed: Sequence[int]) -> bool:
    """In an allowed channel, or a thread of one (every channel when none is named)."""
    if not allowed:
        return True
    parent = getattr(channel, "parent_id", None) if isinstance(channel, discord.Thread) else None
    return getattr(channel, "id", None) in allowed or parent in allowed


def has_role(member: Any, role_id: int | None) -> bool:
    if role_id is None:
        return True
    roles = getattr(member, "roles", None) or ()
    return any(role.id == role_id for role in roles)


def can_organise(interaction: discord.Interaction, settings: ServerSettings) -> bool:
    """Whether the member may create a tournament: Manage Server, or the role the server names."""
    return can_manage(interaction) or (
        settings.tournament_role_id is not None and has_role(interaction.user, settings.tournament_role_id)
    )


def can_manage(interaction: discord.Interaction) -> bool:
    """Manage Server, as Discord computed it for this interaction (Discord's default permission
    on /settings is only a default: a server's admins can open the command to anyone)."""
    permissions = interaction.permissions
    return interaction.guild_id is not None and (permissions.manage_guild or permissions.administrator)


class Community:
    """Reads and writes the settings and preferences, checking every value first."""

    def __init__(self, store: Callable[[], CommunityStore], robot_pause: float) -> None:
        # The store is opened after the service is made (the bot's setup_hook).
        self._store = store
        self.robot_pause = robot_pause
        self._languages: dict[int, tuple[str | None, float]] = {}

    # ------------------------------------------------------------------ servers

    async def server(self, guild: discord.Guild | None, guild_id: int) -> tuple[ServerSettings, list[str]]:
        """The server's settings, and the notes on a channel or role named that is gone since
        (ignored: left out of the settings)."""
        return self.resolved(await self._store().server(guild_id), guild)

    def defaults(self) -> ServerSettings:
        """Every setting at its default, as a server that never chose anything has them."""
        return self.resolved(ServerChoices(), None)[0]

    def resolved(
        self, choices: ServerChoices, guild: discord.Guild | None
    ) -> tuple[ServerSettings, list[str]]:
        notes: list[str] = []
        channels = choices.channels or ()
        role, organisers = choices.role_id, choices.tournament_role_id
        if guild is not None:
            gone = [channel for channel in channels if guild.get_channel_or_thread(channel) is None]
            if gone:
                notes.append("settings.note.channel_gone")
                channels = tuple(channel for channel in channels if channel not in gone)
            if role is not None and guild.get_role(role) is None:
                notes.append("settings.note.role_gone")
                role = None
            if organisers is not None and guild.get_role(organisers) is None:
                notes.append("settings.note.tournament_role_gone")
                organisers = None
        settings = ServerSettings(
            language=choices.language,
            channels=tuple(channels),
            role_id=role,
            turn_timeout=choices.turn_timeout or DEFAULT_MOVE,
            reminder=DEFAULT_REMINDER if choices.reminder is None else choices.reminder,
            computers_rated=True if choices.computers_rated is None else choices.computers_rated,
            stand_in=True if choices.stand_in is None else choices.stand_in,
            computer_pause=self.robot_pause if choices.computer_pause is None else choices.computer_pause,
            clock_increment=choices.clock_increment if choices.turn_timeout else None,
            away_days=DEFAULT_AWAY_DAYS if choices.away_days is None else choices.away_days,
            tournament_role_id=organisers,
        )
        return settings, notes

    async def choices(self, guild_id: int) -> ServerChoices:
        return await self._store().server(guild_id)

    async def at_start(self, interaction: discord.Interaction) -> ServerSettings:
        """The settings a game starting now follows; refused where a setting forbids it."""
        settings, _ = await self.server(interaction.guild, interaction.guild_id or 0)
        if not channel_allowed(interaction.channel, settings.channels):
            channels = ", ".join(f"<#{channel}>" for channel in settings.channels)
            raise GameError("settings.refused.channel", channels=channels)
        check_role(interaction.user, settings.role_id)
        return settings

    async def set_server(self, interaction: discord.Interaction, name: str, value: Any) -> None:
        """One setting changed, by a member with Manage Server; ``value`` None: its default."""
        if not can_manage(interaction):
            raise GameError("settings.error.manage_server")
        guild_id = interaction.guild_id or 0
        if name == "channels":
            await self._store().set_server(guild_id, "channels", value or None)
        elif name == "role":
            await self._store().set_server(guild_id, "role_id", value)
        elif name in ("clock", "turn_timeout"):
            # One clock, kept in two columns as a game keeps it; turn_timeout is its time per move.
            clock = None if value is None else setting_clock(name, str(value))
            await self._store().set_server_columns(
                guild_id,
                {
                    "turn_timeout": None if clock is None else clock.seconds,
                    "clock_increment": None if clock is None else clock.increment,
                },
            )
        elif name == "tournament_role":
            await self._store().set_server(guild_id, "tournament_role_id", value)
        elif name in SERVER_SETTINGS:
            await self._store().set_server(guild_id, name, checked_setting(name, value))
        else:
            raise GameError("error.forged_options")

    # ------------------------------------------------------------------ players

    async def player(self, user_id: int) -> PlayerChoices:
        return await self._store().player(user_id)

    async def set_player(self, user_id: int, name: str, value: Any) -> None:
        if name == "language":
            if value is not None and value not in LANGUAGES:
                raise GameError("error.forged_options")
            self._languages[user_id] = (value, time.monotonic())
        elif name in ("dm_hand", "ping"):
            value = checked_flag(value)
        elif name == "time_zone":
            value = None if value is None else check_zone(str(value))
        elif name == "quiet_hours":
            value = None if value is None else parse_quiet_hours(str(value)).text()
        elif name != "game_options":
            raise GameError("error.forged_options")
        await self._store().set_player(user_id, name, value)

    # ------------------------------------------------------------------ away time

    async def away_spans(self, user_id: int, now: float, automatic: bool = False) -> list[Span]:
        """The player's spans of ``/away`` that count now (``automatic``: the away days used for
        their games as time ran out): those of the last 30 days, and the one they are in."""
        spans = await self._store().away_spans(user_id, now - AWAY_WINDOW, automatic)
        return [Span(*span) for span in spans]

    async def allowance(self, user_id: int, guild: discord.Guild | None, guild_id: int | None) -> int:
        """The player's away days, asked in ``guild_id`` (None: in DMs), see ``away_allowance``."""
        here = None if guild_id is None else (await self.server(guild, guild_id))[0].away_days
        return away_allowance(here, await self._store().running_games_settings(user_id))

    async def away(self, user_id: int, now: float, allowance: int) -> AwayStatus:
        spans = await self.away_spans(user_id, now)
        every = [*spans, *await self.away_spans(user_id, now, automatic=True)]
        return AwayStatus(
            current_away(now, spans), away_used(now, every), away_left(now, every, allowance), allowance
        )

    async def go_away(
        self, user_id: int, duration: str, now: float, allowance: int
    ) -> tuple[Span | None, Span]:
        """``/away <duration>``: the player's last span before (None: none), and the span they are
        now away in (one that ends now for ``off``), written; refused beyond their ``allowance`` of
        days, nothing written."""
        spans = await self.away_spans(user_id, now)
        seconds = parse_away(duration)
        if seconds is None:
            span = away_ended(now, spans)
        else:
            automatic = await self.away_spans(user_id, now, automatic=True)
            span = away_span(now, seconds, spans, allowance, automatic)
        last = await self._store().last_away(user_id)
        await self._store().set_away(user_id, span.starts, span.ends)
        return (Span(*last) if last is not None else None), span

    async def dms_closed(self, user_id: int) -> bool:
        return await self._store().dms_closed(user_id)

    async def language(self, user_id: int) -> str | None:
        """The language the player chose for the bot's answers to them; None: their Discord's."""
        known = self._languages.get(user_id)
        if known is not None and time.monotonic() - known[1] < LANGUAGE_CACHE_SECONDS:
            return known[0]
        chosen = (await self._store().player(user_id)).language
        if len(self._languages) >= LANGUAGE_CACHE_SIZE:
            self._languages.clear()
        self._languages[user_id] = (chosen, time.monotonic())
        return chosen


def parse_game_options(engine: type[Game], text: str) -> dict[str, int]:
    """``target=150 rounds=2 stand_in=off turn_timeout=12h`` (or ``clock=3d+12h``), each checked as
    /start checks it."""
    given: dict[str, int] = {}
    clock: Clock | None = None
    for word in text.replace(",", " ").split():
        name, equals, value = word.partition("=")
        name, value = name.strip().lower(), value.strip().lower()
        if not equals or not name or not value:
            raise GameError("preferences.error.options_unreadable", text=word[:40])
        if name in ("turn_timeout", "clock"):
            clock = parse_clock(value) if name == "clock" else Clock(turn_timeout_seconds(value))
            continue
        number = YES_NO.get(value, value)
        if not isinstance(number, int) and not str(number).lstrip("-").isdigit():
            raise GameError("preferences.error.options_unreadable", text=word[:40])
        given[name] = int(number)
    resolved = engine.resolve_options(given) | resolve_table_options(given)
    chosen = {name: resolved[name] for name in given}
    if clock is not None:
        # Kept as a game keeps its clock (``bot.timekeeping.split_clock`` reads it back).
        chosen["turn_timeout"] = clock.seconds
        if clock.increment is not None:
            chosen["clock_increment"] = clock.increment
    return chosen


def check_role(member: Any, role_id: int | None) -> None:
    if not has_role(member, role_id):
        raise GameError("settings.refused.role", role=f"<@&{role_id}>")


def checked_flag(value: Any) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise GameError("error.forged_options")


def checked_setting(name: str, value: Any) -> Any:
    """A setting's value, refused unless usable (a forged interaction may send anything)."""
    if value is None:
        return None
    if name == "language":
        if value not in LANGUAGES:
            raise GameError("error.forged_options")
        return value
    if name == "turn_timeout":
        return turn_timeout_seconds(str(value))
    if name == "away_days":
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_AWAY_DAYS:
            raise GameError("time.error.away_days", maximum=MAX_AWAY_DAYS)
        return value
    if name == "reminder":
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_REMINDER:
            raise GameError("settings.error.reminder", maximum=MAX_REMINDER)
        return value
    if name == "computer_pause":
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or not 0 <= value <= MAX_COMPUTER_PAUSE
        ):
            raise GameError("settings.error.computer_pause", maximum=int(MAX_COMPUTER_PAUSE))
        return float(value)
    return checked_flag(value)


def setting_text(lang: str, name: str, settings: ServerSettings) -> str:
    """A setting's value as /settings shows it."""
    if name == "language":
        return t(lang, f"settings.language.{settings.language or 'discord'}")
    if name == "channels":
        if not settings.channels:
            return t(lang, "settings.every_channel")
        return ", ".join(f"<#{channel}>" for channel in settings.channels)
    if name == "role":
        return t(lang, "settings.no_role") if settings.role_id is None else f"<@&{settings.role_id}>"
    if name == "tournament_role":
        role = settings.tournament_role_id
        return t(lang, "settings.manage_server_only") if role is None else f"<@&{role}>"
    if name == "turn_timeout":
        return clock_text(lang, settings.clock)
    if name == "away_days":
        return t(lang, "time.away_days", count=settings.away_days)
    if name == "reminder":
        if settings.reminder == 0:
            return t(lang, "settings.no_reminder")
        return t(lang, "settings.reminder_at", percent=settings.reminder)
    if name == "computer_pause":
        return t(lang, "settings.seconds", seconds=f"{settings.computer_pause:g}")
    return t(lang, "settings.on" if getattr(settings, name) else "settings.off")
