"""``/settings`` (a server's, for Manage Server) and ``/preferences`` (each player's own).

One subcommand per setting, each changing that one alone and leaving out its value going back to
the default: Discord then offers each setting's own picker (a channel, a role, a number in its
range, yes or no), checks it before sending, and an admin reads what they change in the command
itself; a select and a modal would offer only text fields for most of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.adapter import GameAdapter
from bot.clock import MAX_AWAY_DAYS, zone_choices
from bot.community import (
    MAX_COMPUTER_PAUSE,
    MAX_REMINDER,
    SERVER_SETTINGS,
    Community,
    ServerSettings,
    can_manage,
    parse_game_options,
    setting_text,
)
from bot.i18n import LANGUAGES, described, duration_text, t
from bot.records import game_choices
from bot.replies import language, prefer, reply
from bot.store.community import PlayerChoices
from bot.time_text import away_text
from bot.timekeeping import split_clock
from games.core import GameError

# A language choice naming Discord's own (a setting or preference back to its default).
DISCORD_LANGUAGE = "discord"


class CommunityServices(Protocol):
    """What the two commands work with."""

    @property
    def community(self) -> Community: ...

    @property
    def adapters(self) -> Mapping[str, GameAdapter]: ...


def language_choices(namespace: str) -> list[app_commands.Choice[str]]:
    """Discord's language, or one of ours, named in ``namespace``'s words (settings, preferences)."""
    return [
        app_commands.Choice(name=described(f"{namespace}.language.{value}"), value=value)
        for value in (DISCORD_LANGUAGE, *LANGUAGES)
    ]


def chosen_language(value: object) -> str | None:
    """A language choice as stored (None: Discord's); a forged one is refused."""
    text = value.value if isinstance(value, app_commands.Choice) else value
    if text == DISCORD_LANGUAGE:
        return None
    if text not in LANGUAGES:
        raise GameError("error.forged_options")
    return str(text)


def settings_embed(
    lang: str, settings: ServerSettings, defaults: ServerSettings, notes: list[str]
) -> discord.Embed:
    embed = discord.Embed(
        title=t(lang, "settings.title"),
        description="\n".join([*(f"⚠️ {t(lang, note)}" for note in notes), t(lang, "settings.how")]),
        colour=0x5865F2,
    )
    for name in SERVER_SETTINGS:
        value = setting_text(lang, name, settings)
        default = t(lang, "settings.default", value=setting_text(lang, name, defaults))
        embed.add_field(name=t(lang, f"settings.name.{name}"), value=f"{value}\n-# {default}", inline=False)
    return embed


async def show_settings(
    services: CommunityServices, interaction: discord.Interaction, note: str = ""
) -> None:
    if not can_manage(interaction):
        raise GameError("settings.error.manage_server")
    lang = language(interaction)
    community = services.community
    settings, notes = await community.server(interaction.guild, interaction.guild_id or 0)
    embed = settings_embed(lang, settings, community.defaults(), notes)
    await reply(interaction, note or None, embeds=[embed])


def settings_group(services: CommunityServices) -> app_commands.Group:
    group = app_commands.Group(
        name="settings",
        description=described("settings.cmd"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    async def change(interaction: discord.Interaction, name: str, value: Any) -> None:
        await services.community.set_server(interaction, name, value)
        lang = language(interaction)
        done = t(lang, "settings.changed", setting=t(lang, f"settings.name.{name}"))
        await show_settings(services, interaction, f"✅ {done}")

    @group.command(name="show", description=described("settings.cmd.show"))
    async def show(interaction: discord.Interaction) -> None:
        await show_settings(services, interaction)

    @group.command(name="language", description=described("settings.cmd.language"))
    @app_commands.describe(value=described("settings.cmd.language.value"))
    @app_commands.choices(value=language_choices("settings"))
    async def language_setting(
        interaction: discord.Interaction, value: app_commands.Choice[str] | None = None
    ) -> None:
        await change(interaction, "language", None if value is None else chosen_language(value))

    actions = [
        app_commands.Choice(name=described(f"settings.action.{action}"), value=action)
        for action in ("add", "remove", "every")
    ]

    @group.command(name="channels", description=described("settings.cmd.channels"))
    @app_commands.describe(
        action=described("settings.cmd.channels.action"), channel=described("settings.cmd.channels.channel")
    )
    @app_commands.choices(action=actions)
    async def channels(
        interaction: discord.Interaction,
        action: app_commands.Choice[str],
        channel: discord.TextChannel | None = None,
    ) -> None:
        if not can_manage(interaction):
            raise GameError("settings.error.manage_server")
        current = list((await services.community.choices(interaction.guild_id or 0)).channels or ())
        if action.value == "every":
            await change(interaction, "channels", None)
            return
        if channel is None or action.value not in ("add", "remove"):
            raise GameError("settings.error.channel_needed")
        if getattr(channel, "guild", None) is None or channel.guild.id != interaction.guild_id:
            raise GameError("settings.error.elsewhere")
        if action.value == "add" and channel.id not in current:
            current.append(channel.id)
        elif action.value == "remove" and channel.id in current:
            current.remove(channel.id)
        await change(interaction, "channels", current)

    @group.command(name="role", description=described("settings.cmd.role"))
    @app_commands.describe(role=described("settings.cmd.role.role"))
    async def role(interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        if role is not None and (not isinstance(role, discord.Role) or role.guild.id != interaction.guild_id):
            raise GameError("settings.error.elsewhere")
        # @everyone is every member: no role needed.
        await change(interaction, "role", None if role is None or role.is_default() else role.id)

    @group.command(name="tournament_role", description=described("settings.cmd.tournament_role"))
    @app_commands.describe(role=described("settings.cmd.tournament_role.role"))
    async def tournament_role(interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        if role is not None and (not isinstance(role, discord.Role) or role.guild.id != interaction.guild_id):
            raise GameError("settings.error.elsewhere")
        # @everyone: anyone may organise.
        await change(interaction, "tournament_role", None if role is None else role.id)

    @group.command(name="turn_timeout", description=described("settings.cmd.turn_timeout"))
    @app_commands.describe(value=described("cmd.option.turn_timeout"))
    async def turn_timeout(interaction: discord.Interaction, value: str | None = None) -> None:
        await change(interaction, "turn_timeout", value)

    @group.command(name="clock", description=described("settings.cmd.clock"))
    @app_commands.describe(value=described("cmd.option.clock"))
    async def clock(interaction: discord.Interaction, value: str | None = None) -> None:
        await change(interaction, "clock", value)

    @group.command(name="away_days", description=described("settings.cmd.away_days"))
    @app_commands.describe(days=described("settings.cmd.away_days.days"))
    async def away_days(
        interaction: discord.Interaction, days: app_commands.Range[int, 0, MAX_AWAY_DAYS] | None = None
    ) -> None:
        await change(interaction, "away_days", days)

    @group.command(name="reminder", description=described("settings.cmd.reminder"))
    @app_commands.describe(percent=described("settings.cmd.reminder.percent"))
    async def reminder(
        interaction: discord.Interaction, percent: app_commands.Range[int, 0, MAX_REMINDER] | None = None
    ) -> None:
        await change(interaction, "reminder", percent)

    def yes_or_no(name: str) -> None:
        """``/settings <name>``: a setting that is on or off."""

        @group.command(name=name, description=described(f"settings.cmd.{name}"))
        @app_commands.describe(value=described("settings.cmd.yes_no"))
        async def setting(interaction: discord.Interaction, value: bool | None = None) -> None:
            await change(interaction, name, value)

    yes_or_no("computers_rated")
    yes_or_no("stand_in")

    @group.command(name="computer_pause", description=described("settings.cmd.computer_pause"))
    @app_commands.describe(seconds=described("settings.cmd.computer_pause.seconds"))
    async def pause(
        interaction: discord.Interaction,
        seconds: app_commands.Range[float, 0.0, MAX_COMPUTER_PAUSE] | None = None,
    ) -> None:
        await change(interaction, "computer_pause", seconds)

    return group


# ---------------------------------------------------------------------- preferences


def game_options_text(lang: str, options: Mapping[str, int]) -> str:
    clock, rules = split_clock(options)
    words = [f"{name}={value}" for name, value in rules.items()]
    if clock is not None:
        # A time per move as it always read; a bank as it is typed.
        words.append(
            f"clock={clock.text()}" if clock.is_bank else f"turn_timeout={duration_text(lang, clock.seconds)}"
        )
    return " ".join(words)


async def preferences_embed(services: CommunityServices, interaction: discord.Interaction) -> discord.Embed:
    lang, user_id = language(interaction), interaction.user.id
    choices = await services.community.player(user_id)
    embed = discord.Embed(
        title=t(lang, "preferences.title"), description=t(lang, "preferences.how"), colour=0x5865F2
    )
    language_value = t(lang, f"preferences.language.{choices.language or DISCORD_LANGUAGE}")
    embed.add_field(name=t(lang, "preferences.name.language"), value=language_value, inline=False)
    dm = (
        "off"
        if choices.dm_hand is False
        else "closed"
        if await services.community.dms_closed(user_id)
        else "on"
    )
    embed.add_field(
        name=t(lang, "preferences.name.dm_hand"), value=t(lang, f"preferences.dm_hand.{dm}"), inline=False
    )
    ping = "on" if choices.ping is not False else "off"
    embed.add_field(
        name=t(lang, "preferences.name.ping"), value=t(lang, f"preferences.ping.{ping}"), inline=False
    )
    games = [
        f"{t(lang, f'{kind}.title')}: `{game_options_text(lang, options)}`"
        for kind, options in choices.game_options.items()
        if options and kind in services.adapters
    ]
    embed.add_field(
        name=t(lang, "preferences.name.game_options"),
        value="\n".join(games) or t(lang, "preferences.no_options"),
        inline=False,
    )
    await add_time_fields(services.community, embed, interaction, choices)
    return embed


async def add_time_fields(
    community: Community, embed: discord.Embed, interaction: discord.Interaction, choices: PlayerChoices
) -> None:
    """The player's time zone, quiet hours and away days (in use, and left here)."""
    lang = language(interaction)
    zone = choices.time_zone or t(lang, "time.preferences.no_zone")
    embed.add_field(name=t(lang, "preferences.name.timezone"), value=zone, inline=False)
    quiet = choices.quiet_hours or t(lang, "time.preferences.no_quiet")
    if choices.quiet_hours and not choices.time_zone:
        quiet += "\n-# " + t(lang, "time.preferences.quiet_needs_zone")
    embed.add_field(name=t(lang, "preferences.name.quiet_hours"), value=quiet, inline=False)
    now = discord.utils.utcnow().timestamp()
    user_id = interaction.user.id
    allowance = await community.allowance(user_id, interaction.guild, interaction.guild_id)
    away = await community.away(user_id, now, allowance)
    embed.add_field(name=t(lang, "preferences.name.away"), value=away_text(lang, away), inline=False)


def preferences_group(services: CommunityServices) -> app_commands.Group:
    # Not guild-only: a player's preferences are the same in every server, and in the bot's DMs.
    group = app_commands.Group(name="preferences", description=described("preferences.cmd"))
    community = services.community

    async def changed(interaction: discord.Interaction, name: str) -> None:
        lang = language(interaction)
        embed = await preferences_embed(services, interaction)
        done = t(lang, "preferences.changed", preference=t(lang, f"preferences.name.{name}"))
        await reply(interaction, f"✅ {done}", embeds=[embed])

    @group.command(name="show", description=described("preferences.cmd.show"))
    async def show(interaction: discord.Interaction) -> None:
        await reply(interaction, embeds=[await preferences_embed(services, interaction)])

    @group.command(name="language", description=described("preferences.cmd.language"))
    @app_commands.describe(value=described("preferences.cmd.language.value"))
    @app_commands.choices(value=language_choices("preferences"))
    async def language_preference(
        interaction: discord.Interaction, value: app_commands.Choice[str] | None = None
    ) -> None:
        chosen = None if value is None else chosen_language(value)
        await community.set_player(interaction.user.id, "language", chosen)
        # This answer already speaks it.
        prefer(interaction, chosen)
        await changed(interaction, "language")

    @group.command(name="dm_hand", description=described("preferences.cmd.dm_hand"))
    @app_commands.describe(value=described("settings.cmd.yes_no"))
    async def dm_hand(interaction: discord.Interaction, value: bool | None = None) -> None:
        await community.set_player(interaction.user.id, "dm_hand", value)
        await changed(interaction, "dm_hand")

    @group.command(name="ping", description=described("preferences.cmd.ping"))
    @app_commands.describe(value=described("settings.cmd.yes_no"))
    async def ping(interaction: discord.Interaction, value: bool | None = None) -> None:
        await community.set_player(interaction.user.id, "ping", value)
        await changed(interaction, "ping")

    @group.command(name="timezone", description=described("preferences.cmd.timezone"))
    @app_commands.describe(value=described("preferences.cmd.timezone.value"))
    async def timezone(interaction: discord.Interaction, value: str | None = None) -> None:
        await community.set_player(interaction.user.id, "time_zone", value)
        await changed(interaction, "timezone")

    @timezone.autocomplete("value")
    async def zones(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=name) for name in zone_choices(str(current))]

    @group.command(name="quiet_hours", description=described("preferences.cmd.quiet_hours"))
    @app_commands.describe(value=described("preferences.cmd.quiet_hours.value"))
    async def quiet_hours(interaction: discord.Interaction, value: str | None = None) -> None:
        await community.set_player(interaction.user.id, "quiet_hours", value)
        await changed(interaction, "quiet_hours")

    @group.command(name="game_options", description=described("preferences.cmd.game_options"))
    @app_commands.describe(
        game=described("preferences.cmd.game_options.game"),
        options=described("preferences.cmd.game_options.options"),
    )
    @app_commands.choices(game=game_choices(services.adapters))
    async def game_options(
        interaction: discord.Interaction, game: app_commands.Choice[str], options: str | None = None
    ) -> None:
        adapter = services.adapters.get(str(game.value))
        if adapter is None:
            raise GameError("error.forged_options")
        chosen = parse_game_options(adapter.engine, str(options)) if options is not None else {}
        every = dict((await community.player(interaction.user.id)).game_options)
        every[adapter.name] = chosen
        await community.set_player(
            interaction.user.id, "game_options", {kind: value for kind, value in every.items() if value}
        )
        await changed(interaction, "game_options")

    return group
