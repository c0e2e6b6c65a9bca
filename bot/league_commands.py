"""``/season`` (a server's seasons, for Manage Server) and ``/tournament``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import discord
from discord import app_commands

from bot.adapter import GameAdapter
from bot.community import can_manage
from bot.i18n import described, t
from bot.pairing import FORMATS, SWISS
from bot.records import discord_time, game_choices
from bot.replies import language, reply
from bot.store import Season, Store
from bot.store.seasons import SeasonAlreadyRunning
from bot.tournaments import MAX_ROUNDS, TournamentService
from games.core import GameError

# A season's name: what the choices of /leaderboard and /stats show, with room for "(running)".
MAX_SEASON_NAME = 40
PAST_SEASONS_SHOWN = 10
SEASON_COLOUR = 0xF1C40F


class LeagueServices(Protocol):
    @property
    def store(self) -> Store: ...


class TournamentServices(Protocol):
    @property
    def adapters(self) -> Mapping[str, GameAdapter]: ...

    @property
    def tournaments(self) -> TournamentService: ...


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


def chosen(value: object) -> str:
    """A choice's value as sent (a forged interaction may send any JSON)."""
    return str(value.value if isinstance(value, app_commands.Choice) else value)


def whole(value: object) -> int | None:
    """A number option as sent: Discord checks the ranges it shows, a forged interaction may not."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameError("error.forged_options")
    return value


def tournament_group(services: TournamentServices) -> app_commands.Group:
    group = app_commands.Group(name="tournament", description=described("tournament.cmd"), guild_only=True)
    formats = [
        app_commands.Choice(name=described(f"tournament.format.{name}"), value=name) for name in FORMATS
    ]

    @group.command(name="create", description=described("tournament.cmd.create"))
    @app_commands.describe(
        game=described("tournament.cmd.create.game"),
        seats=described("tournament.cmd.create.seats"),
        format=described("tournament.cmd.create.format"),
        rounds=described("tournament.cmd.create.rounds"),
        clock=described("tournament.cmd.create.clock"),
        options=described("tournament.cmd.create.options"),
    )
    @app_commands.choices(game=game_choices(services.adapters), format=formats)
    async def create(
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        seats: app_commands.Range[int, 2, 10],
        format: app_commands.Choice[str] | None = None,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
        clock: str | None = None,
        options: str | None = None,
    ) -> None:
        seat_count = whole(seats)
        await services.tournaments.create(
            interaction,
            chosen(game),
            seat_count if seat_count is not None else 0,
            chosen(format) if format is not None else SWISS,
            whole(rounds),
            None if clock is None else str(clock),
            None if options is None else str(options),
        )

    @group.command(name="standings", description=described("tournament.cmd.standings"))
    async def standings(interaction: discord.Interaction) -> None:
        await services.tournaments.show_standings(interaction)

    @group.command(name="drop", description=described("tournament.cmd.drop"))
    @app_commands.describe(player=described("tournament.cmd.drop.player"))
    async def drop(interaction: discord.Interaction, player: discord.User | None = None) -> None:
        if player is not None and not isinstance(player, discord.abc.User):
            raise GameError("stats.error.unknown_player")
        await services.tournaments.drop(interaction, player)

    @group.command(name="close", description=described("tournament.cmd.close"))
    @app_commands.describe(table=described("tournament.cmd.close.table"))
    async def close(interaction: discord.Interaction, table: app_commands.Range[int, 1, 500]) -> None:
        number = whole(table)
        await services.tournaments.close_table(interaction, number if number is not None else 0)

    @group.command(name="cancel", description=described("tournament.cmd.cancel"))
    async def cancel(interaction: discord.Interaction) -> None:
        await services.tournaments.cancel(interaction)

    return group
