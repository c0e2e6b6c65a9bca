"""``/season`` (a server's seasons, for Manage Server) and ``/tournament``."""

from __future__ import annotations

from typing import Protocol

import discord
from discord import app_commands

from bot.community import can_manage
from bot.i18n import described, t
from bot.records import discord_time
from bot.replies import language, reply
from bot.store import Season, Store
from bot.store.seasons import SeasonAlreadyRunning
from games.core import GameError

# A season's name: what the choices of /leaderboard and /stats show, with room for "(running)".
MAX_SEASON_NAME = 40
PAST_SEASONS_SHOWN = 10
SEASON_COLOUR = 0xF1C40F


class LeagueServices(Protocol):
    @property
    def store(self) -> Store: ...


def season_name(text: object) -> str:
    """A season's name as typed, on one line, checked (a forged interaction may send anything)."""
    name = " ".join(str(text or "").split())
    if not 0 < len(name) <= MAX_SEASON_NAME:
        raise GameError("season.error.name", maximum=MAX_SEASON_NAME)
    return name


def season_line(lang: str, season: Season) -> str:
    started = discord_time(season.started_at, "d")
    if season.ended_at is None:
        return t(lang, "season.line_running", name=season.name, started=started)
    return t(
        lang,
        "season.line_closed",
        name=season.name,
        started=started,
        ended=discord_time(season.ended_at, "d"),
    )


def check_manager(interaction: discord.Interaction) -> None:
    """Discord shows /season to Manage Server alone by default, but a server can open it to anyone."""
    if not can_manage(interaction):
        raise GameError("season.error.manage_server")


def season_group(services: LeagueServices) -> app_commands.Group:
    group = app_commands.Group(
        name="season",
        description=described("season.cmd"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @group.command(name="show", description=described("season.cmd.show"))
    async def show(interaction: discord.Interaction) -> None:
        check_manager(interaction)
        lang = language(interaction)
        seasons = await services.store.seasons.of_guild(interaction.guild_id or 0, PAST_SEASONS_SHOWN)
        lines = [season_line(lang, season) for season in seasons]
        if not seasons or not seasons[0].running:
            lines.insert(0, t(lang, "season.none_running"))
        embed = discord.Embed(
            title=t(lang, "season.title"),
            description="\n".join([*lines, "", t(lang, "season.how")]),
            colour=SEASON_COLOUR,
        )
        await reply(interaction, embeds=[embed])

    @group.command(name="start", description=described("season.cmd.start"))
    @app_commands.describe(name=described("season.cmd.start.name"))
    async def start(interaction: discord.Interaction, name: str) -> None:
        check_manager(interaction)
        lang = language(interaction)
        chosen = season_name(name)
        now = discord.utils.utcnow().timestamp()
        try:
            season, closed = await services.store.seasons.start(interaction.guild_id or 0, chosen, now)
        except SeasonAlreadyRunning:
            raise GameError("season.error.raced") from None
        text = t(lang, "season.started", name=season.name)
        if closed is not None:
            text += "\n" + t(lang, "season.closed_by_start", name=closed.name)
        # An embed: a season's name is the admins' text, and an embed pings nobody.
        await reply(
            interaction, embeds=[discord.Embed(description=text, colour=SEASON_COLOUR)], ephemeral=False
        )

    @group.command(name="end", description=described("season.cmd.end"))
    async def end(interaction: discord.Interaction) -> None:
        check_manager(interaction)
        lang = language(interaction)
        closed = await services.store.seasons.end(
            interaction.guild_id or 0, discord.utils.utcnow().timestamp()
        )
        if closed is None:
            raise GameError("season.error.none_running")
        text = t(lang, "season.ended", name=closed.name)
        await reply(
            interaction, embeds=[discord.Embed(description=text, colour=SEASON_COLOUR)], ephemeral=False
        )

    return group
