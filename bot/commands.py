"""Slash commands every game shares, and /help, the leaderboard, /stats and /history."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol

import discord
from discord import app_commands

from bot import asks
from bot.adapter import GameAdapter, TableMoves, component_view
from bot.community import Community
from bot.i18n import described, t
from bot.lobby import Lobbies
from bot.records import (
    chosen_season,
    decimal,
    game_choices,
    history_embed,
    nothing_yet,
    season_choices,
    stats_embed,
    with_season,
)
from bot.replays import open_button
from bot.replies import claim, language, prefer, reply, report_error
from bot.store import Season, Store
from bot.tables import TableService
from games.core import TABLE_OPTIONS, GameError, Option
from games.robots import LEVELS


class Services(Protocol):
    """What the commands work with: the services the bot holds once it has started."""

    @property
    def store(self) -> Store: ...

    @property
    def moves(self) -> TableMoves: ...

    @property
    def adapters(self) -> Mapping[str, GameAdapter]: ...

    @property
    def tables(self) -> TableService: ...

    @property
    def lobbies(self) -> Lobbies: ...


class GameHost(Services, Protocol):
    """What a game's extension plugs into (its ``setup``): its adapter and its command group."""

    def register(self, adapter: GameAdapter, group: app_commands.Group) -> None: ...


async def game_here(tables: TableService, interaction: discord.Interaction, kind: str) -> int:
    """The id of this channel's running game of ``kind``."""
    row = await tables.game_in_channel(interaction.channel_id, kind)
    if row.status != "running":
        raise GameError("error.game_not_started")
    return row.id


# The option types discord.py reads as ids (user, channel, role, mentionable, attachment) while it
# parses an interaction, before any handler: a forged value that is not one would fail unanswered.
# Other values reach the commands as sent, and they read them defensively.
SNOWFLAKE_OPTIONS = (6, 7, 8, 9, 11)
MAX_SNOWFLAKE = 2**63 - 1  # the largest id a database integer holds


def well_formed(option_type: int, value: object) -> bool:
    """Whether ``value`` is one discord.py can parse for an option of ``option_type``."""
    if option_type not in SNOWFLAKE_OPTIONS:
        return True
    if isinstance(value, bool) or not isinstance(value, str | int):
        return False
    return str(value).isdigit() and 0 < int(value) <= MAX_SNOWFLAKE


def options_well_formed(options: object) -> bool:
    """Whether every option of an interaction's data (subcommands included) is ``well_formed``.
    An option being typed for autocompletion comes as text, whatever its type."""
    if not isinstance(options, list):
        return options is None
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("type"), int):
            return False
        if option["type"] in (1, 2):  # a subcommand or a group of them
            if not options_well_formed(option.get("options")):
                return False
        elif not option.get("focused") and not well_formed(option["type"], option.get("value")):
            return False
    return True


class Preferring(Protocol):
    """The bot, as the command tree sees it: where each user's chosen language is kept."""

    @property
    def community(self) -> Community: ...


class GameTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Refuse ids that are not ids before discord.py parses them."""
        claim(interaction)
        preferring: Preferring = self.client  # type: ignore[assignment]
        prefer(interaction, await preferring.community.language(interaction.user.id))
        data: Any = interaction.data or {}
        if options_well_formed(data.get("options")):
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await report_error(interaction, GameError("error.forged_options"))
        return False


def option_type(option: Option) -> Any:
    """How Discord offers an engine option: a yes/no for one from 0 to 1, else a number in its range."""
    if (option.minimum, option.maximum) == (0, 1):
        return bool
    return app_commands.Range[int, option.minimum, option.maximum]


def option_number(name: str, value: object) -> int | None:
    """An option as the engine takes it: a number (a yes/no comes as a bool). Discord checks the
    type of what people type, but a forged interaction may send anything."""
    if value is None or isinstance(value, int):
        return None if value is None else int(value)
    raise GameError("error.option_unreadable", option=name)


def optional(name: str, annotation: Any) -> inspect.Parameter:
    """A slash command option that may be left out (None)."""
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation | None)


def start_callback(services: Services, adapter: GameAdapter) -> Callable[..., Coroutine[Any, Any, None]]:
    """``/<game> start``: the game's ``start_options``, then the clock (a turn timeout, or any clock);
    opens the lobby.

    discord.py reads each option's type, range and description from the callback when the command
    is made, so the callback's signature is built here, from the engine's options.
    """

    async def start(
        interaction: discord.Interaction,
        turn_timeout: str | None = None,
        clock: str | None = None,
        computers: int | None = None,
        computer_level: str | None = None,
        **options: int | None,
    ) -> None:
        given = {name: option_number(name, value) for name, value in options.items()}
        level = computer_level or "hard"
        if level not in LEVELS:
            raise GameError("error.robot_level", level=level)
        count = option_number("computers", computers) or 0
        await services.lobbies.open(
            interaction,
            adapter,
            given,
            # str(): a forged interaction may send any JSON type for the option.
            None if turn_timeout is None else str(turn_timeout),
            robots=[level] * min(max(count, 0), adapter.engine.max_players - 1),
            clock=None if clock is None else str(clock),
        )

    engine_options = {option.name: option for option in adapter.engine.options}
    start.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(
                "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
            ),
            *(optional(name, option_type(engine_options[name])) for name in adapter.start_options),
            *(optional(option.name, option_type(option)) for option in TABLE_OPTIONS),
            optional("turn_timeout", str),
            optional("clock", str),
            optional("computers", app_commands.Range[int, 0, adapter.engine.max_players - 1]),
            optional("computer_level", str),
        ]
    )
    descriptions = {
        **adapter.start_options,
        **{option.name: f"cmd.option.{option.name}" for option in TABLE_OPTIONS},
        "turn_timeout": "cmd.option.turn_timeout",
        "clock": "cmd.option.clock",
        "computers": "cmd.option.computers",
        "computer_level": "cmd.option.computer_level",
    }
    levels = [app_commands.Choice(name=described(f"lobby.level.{level}"), value=level) for level in LEVELS]
    described_start = app_commands.describe(**{name: described(key) for name, key in descriptions.items()})
    return app_commands.choices(computer_level=levels)(described_start(start))


def game_group(services: Services, adapter: GameAdapter) -> app_commands.Group:
    """``/<game> start|hand|table|score|rules|leave|abort``; a game may add commands of its own."""
    group = app_commands.Group(
        name=adapter.name, description=described(f"{adapter.name}.cmd.group"), guild_only=True
    )
    tables = services.tables
    kind = adapter.name

    @group.command(name="hand", description=described("cmd.hand"))
    async def hand(interaction: discord.Interaction) -> None:
        await asks.show_hand(tables, interaction, await game_here(tables, interaction, kind))

    @group.command(name="table", description=described("cmd.table"))
    async def table(interaction: discord.Interaction) -> None:
        await asks.show_table(tables, interaction, await game_here(tables, interaction, kind))

    @group.command(name="score", description=described("cmd.score"))
    async def score(interaction: discord.Interaction) -> None:
        await asks.show_score(tables, interaction, await game_here(tables, interaction, kind))

    @group.command(name="rules", description=described("cmd.rules"))
    async def rules(interaction: discord.Interaction) -> None:
        lang = language(interaction)
        embed = discord.Embed(
            title=t(lang, f"{adapter.name}.title"),
            description=t(lang, f"{adapter.name}.rules"),
            colour=adapter.colour,
        )
        await reply(interaction, embeds=[embed])

    @group.command(name="leave", description=described("cmd.leave"))
    async def leave(interaction: discord.Interaction) -> None:
        row = await tables.game_in_channel(interaction.channel_id, adapter.name)
        await asks.leave(tables, interaction, row)

    @group.command(name="abort", description=described("cmd.abort"))
    async def abort(interaction: discord.Interaction) -> None:
        await asks.ask_abort(tables, interaction, await tables.game_in_channel(interaction.channel_id, kind))

    # The callback's parameters are the game's options, built as the bot starts (its __signature__):
    # no static type states them.
    start = group.command(name="start", description=described(f"{kind}.cmd.start"))
    start(start_callback(services, adapter))  # type: ignore[arg-type]
    return group


def rank_mark(index: int) -> str:
    medals = ["🥇", "🥈", "🥉"]
    return medals[index] if index < len(medals) else f"{index + 1}."


async def rating_lines(
    services: Services, guild_id: int, kind: str | None, lang: str, season: Season | None
) -> list[str]:
    """The leaderboard by conservative rating; ratings are per game, so a game must be chosen."""
    if kind is None:
        raise GameError("stats.error.rating_needs_game")
    standings = await services.store.records.rating_board(
        guild_id, kind, season_id=season.id if season else None
    )
    return [
        t(
            lang,
            "stats.leaderboard_rating_line",
            rank=rank_mark(index),
            name=standing.name,
            rating=decimal(lang, standing.skill.conservative),
            matches=standing.matches,
        )
        for index, standing in enumerate(standings)
    ]


async def win_lines(
    services: Services, guild_id: int, kind: str | None, lang: str, season: Season | None
) -> list[str]:
    """Wins and matches, ranked by wins; points only in one game's board: they are on different
    scales in different games (a Bué match is won at 110, a Rummikub round costs what is left)."""
    standings = await services.store.records.leaderboard(
        guild_id, kind, season_id=season.id if season else None
    )
    if kind is None:
        standings = sorted(standings, key=lambda standing: (-standing.wins, standing.games))
    return [
        t(
            lang,
            "common.leaderboard_line" if kind is None else "stats.leaderboard_line_points",
            rank=rank_mark(index),
            name=standing.name,
            wins=standing.wins,
            matches=standing.games,
            points=standing.points,
        )
        for index, standing in enumerate(standings)
    ]


def season_autocomplete(
    services: Services,
) -> Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
    """The ``season`` option's choices: all time and the server's seasons."""

    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await season_choices(
            services.store, interaction.guild_id or 0, language(interaction), str(current or "")
        )

    return complete


def leaderboard_command(services: Services) -> app_commands.Command:
    orders = [
        app_commands.Choice(name=described("stats.order.wins"), value="wins"),
        app_commands.Choice(name=described("stats.order.rating"), value="rating"),
    ]

    @app_commands.command(name="leaderboard", description=described("cmd.leaderboard"))
    @app_commands.describe(
        game=described("cmd.leaderboard.game"),
        order=described("stats.cmd.order"),
        season=described("season.cmd.option"),
    )
    @app_commands.choices(game=game_choices(services.adapters), order=orders)
    @app_commands.autocomplete(season=season_autocomplete(services))
    @app_commands.guild_only()
    async def leaderboard(
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        order: app_commands.Choice[str] | None = None,
        season: str | None = None,
    ) -> None:
        lang = language(interaction)
        kind = game.value if game else None
        guild_id = interaction.guild_id or 0
        shown = await chosen_season(services.store, guild_id, season)
        by_rating = order is not None and order.value == "rating"
        lines = await (rating_lines if by_rating else win_lines)(services, guild_id, kind, lang, shown)
        if not lines:
            if shown is not None:
                raise nothing_yet(
                    services.adapters, lang, "season.leaderboard_empty", kind, season=shown.name
                )
            raise nothing_yet(services.adapters, lang, "common.leaderboard_empty", kind)
        title = t(
            lang,
            "common.leaderboard_title",
            game=t(lang, f"{kind}.title") if kind else t(lang, "common.all_games"),
        )
        embed = discord.Embed(title=with_season(title, shown), description="\n".join(lines), colour=0xF1C40F)
        await reply(interaction, embeds=[embed], ephemeral=False)

    return leaderboard


def stats_command(services: Services) -> app_commands.Command:
    @app_commands.command(name="stats", description=described("stats.cmd"))
    @app_commands.describe(
        player=described("stats.cmd.player"),
        game=described("cmd.leaderboard.game"),
        season=described("season.cmd.option"),
    )
    @app_commands.choices(game=game_choices(services.adapters))
    @app_commands.autocomplete(season=season_autocomplete(services))
    @app_commands.guild_only()
    async def stats(
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
        season: str | None = None,
    ) -> None:
        # Discord resolves the player it offers; a forged id comes as a bare Object, or not a user.
        if player is not None and not isinstance(player, discord.abc.User):
            raise GameError("stats.error.unknown_player")
        guild_id = interaction.guild_id or 0
        embed, chart = await stats_embed(
            services.store,
            services.adapters,
            guild_id,
            player or interaction.user,
            game.value if game else None,
            language(interaction),
            await chosen_season(services.store, guild_id, season),
        )
        await reply(interaction, embeds=[embed], file=chart, ephemeral=False)

    return stats


def history_command(services: Services) -> app_commands.Command:
    @app_commands.command(name="history", description=described("stats.cmd.history"))
    @app_commands.describe(game=described("cmd.leaderboard.game"))
    @app_commands.choices(game=game_choices(services.adapters))
    @app_commands.guild_only()
    async def history(interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        lang = language(interaction)
        kind = game.value if game else None
        matches = await services.store.records.finished_matches(interaction.guild_id or 0, kind)
        if not matches:
            raise nothing_yet(services.adapters, lang, "stats.error.no_history", kind)
        # A button per entry opens its replay, privately, for whoever clicks it.
        replays = [
            open_button(match.game_id, t(lang, "replay.history_button", number=number))
            for number, match in enumerate(matches, start=1)
        ]
        embed = history_embed(lang, kind, matches, services.tables.links.to_discord)
        await reply(interaction, embeds=[embed], view=component_view(replays), ephemeral=False)

    return history


def help_embed(adapters: Mapping[str, GameAdapter], lang: str) -> discord.Embed:
    """What a newcomer needs: each game (its players, what it is, how to start it), how a game is
    played in a channel, where the scores are, and the server's seasons and tournaments."""
    embed = discord.Embed(title=t(lang, "help.title"), description=t(lang, "help.intro"), colour=0x5865F2)
    for kind, adapter in adapters.items():
        fewest, most = adapter.engine.min_players, adapter.engine.max_players
        players = (
            t(lang, "help.players_exactly", count=fewest)
            if fewest == most
            else t(lang, "help.players", minimum=fewest, maximum=most)
        )
        embed.add_field(
            name=f"{t(lang, f'{kind}.title')} · {players}",
            value=f"{t(lang, f'{kind}.cmd.group')}\n{t(lang, 'help.game_commands', game=kind)}",
            inline=False,
        )
    embed.add_field(name=t(lang, "help.playing_name"), value=t(lang, "help.playing"), inline=False)
    embed.add_field(name=t(lang, "help.scores_name"), value=t(lang, "help.scores"), inline=False)
    embed.add_field(name=t(lang, "help.league_name"), value=t(lang, "help.league"), inline=False)
    return embed


def help_command(services: Services) -> app_commands.Command:
    # Not guild-only: a player may ask in the bot's DMs, where their hands arrive.
    @app_commands.command(name="help", description=described("help.cmd"))
    async def help(interaction: discord.Interaction) -> None:
        await reply(interaction, embeds=[help_embed(services.adapters, language(interaction))])

    return help
