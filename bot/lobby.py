"""Opening a game: the lobby message with Join, Leave, Begin and Cancel, shared by every game."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

import discord

from bot import asks, community, standins
from bot.adapter import GameAdapter, LoadedGame, component_view
from bot.clicks import check_origin
from bot.community import Community, check_role, kept_role
from bot.i18n import language_of, t
from bot.outbox import Publication
from bot.refusals import Refusal, due_for_repost, refusal, retire
from bot.replies import chosen_values, language, show_panel
from bot.store import ChannelBusy, GameRow, Score, SeatRow
from bot.tables import TableService
from bot.timekeeping import clock_line, game_clock, opening_clock, split_clock
from games.core import GameError, resolve_table_options
from games.robots import LEVELS

log = logging.getLogger(__name__)


def message_url(row: GameRow) -> str:
    return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id or ''}"


def lobby_embed(adapter: GameAdapter, row: GameRow, seats: Sequence[SeatRow], lang: str) -> discord.Embed:
    engine = adapter.engine
    embed = discord.Embed(
        title=t(lang, "lobby.title", game=t(lang, f"{adapter.name}.title")),
        description=t(lang, "lobby.description", minimum=engine.min_players, maximum=engine.max_players),
        colour=adapter.colour,
    )
    players = "\n".join(
        f"{seat.seat + 1}. "
        # Names, not mentions: an embed pings nobody, and a mention in an embed shows as a raw
        # "<@id>" wherever the member is not known (a phone that has not loaded them, the playground).
        + seat.name
        + (" 👑" if seat.user_id == row.host_id else "")
        for seat in seats
    )
    embed.add_field(
        name=t(lang, "lobby.players", count=len(seats), maximum=engine.max_players),
        value=players or "—",
        inline=False,
    )
    own = {option.name for option in engine.options}
    rules = {name: value for name, value in row.options.items() if name in own}
    settings = adapter.settings(rules, lang)
    settings.append(t(lang, "standins.lobby.on" if standins.enabled(row.options) else "standins.lobby.off"))
    settings.append(clock_line(lang, game_clock(row)))
    if not community.rated(row.server_settings, seats):
        settings.append(t(lang, "settings.lobby.unrated"))
    embed.add_field(name=t(lang, "lobby.settings"), value="\n".join(settings), inline=False)
    return embed


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"lobby:(?P<game>\d{1,19}):(?P<move>[a-z]{1,10})"
):
    MOVES: tuple[tuple[str, discord.ButtonStyle, str], ...] = (
        ("join", discord.ButtonStyle.success, "✋"),
        ("leave", discord.ButtonStyle.secondary, "🚪"),
        ("begin", discord.ButtonStyle.primary, "▶️"),
        ("cancel", discord.ButtonStyle.danger, "✖️"),
        ("computers", discord.ButtonStyle.secondary, "🤖"),
    )

    def __init__(
        self,
        game_id: int,
        move: str,
        label: str = "",
        style: discord.ButtonStyle | None = None,
        emoji: str | None = None,
    ) -> None:
        self.game_id = game_id
        self.move = move
        super().__init__(
            discord.ui.Button(
                label=label or move,
                style=style or discord.ButtonStyle.secondary,
                emoji=emoji,
                custom_id=f"lobby:{game_id}:{move}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["game"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: LobbyHost = interaction.client  # type: ignore[assignment]
        await bot.guard(interaction, bot.lobbies.handle(interaction, self.game_id, self.move))


class LobbySelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"lobbysel:(?P<game>\d{1,19}):(?P<move>[a-z]{1,10})",
):
    """The host's menus for the lobby's computer players: add one at a level, or remove one."""

    def __init__(
        self, game_id: int, move: str, options: Sequence[discord.SelectOption] = (), placeholder: str = ""
    ) -> None:
        self.game_id = game_id
        self.move = move
        super().__init__(
            discord.ui.Select(
                custom_id=f"lobbysel:{game_id}:{move}",
                options=list(options) or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbySelect:
        return cls(int(match["game"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: LobbyHost = interaction.client  # type: ignore[assignment]
        chosen = next(iter(chosen_values(interaction)), "")
        await bot.guard(interaction, bot.lobbies.computers(interaction, self.game_id, self.move, chosen))


def robot_name(locale: str, level: str, seats: Sequence[SeatRow]) -> str:
    """ "🤖 Computer 2 (hard)": the robot mark, a number among the lobby's computers, the level."""
    lang = language_of(locale)
    number = sum(seat.is_robot for seat in seats) + 1
    return t(lang, "lobby.computer_name", number=number, level=t(lang, f"lobby.level.{level}"))


def computer_menus(
    game_id: int, seats: Sequence[SeatRow], maximum: int, lang: str
) -> list[discord.ui.Item[Any]]:
    """A menu to add a computer at a level (while seats are free), one to remove a computer."""
    menus: list[discord.ui.Item[Any]] = []
    if len(seats) < maximum:
        levels = [
            discord.SelectOption(label=t(lang, f"lobby.level.{level}"), value=level) for level in LEVELS
        ]
        menus.append(LobbySelect(game_id, "add", levels, t(lang, "lobby.computer_add")))
    robots = [discord.SelectOption(label=seat.name, value=str(seat.seat)) for seat in seats if seat.is_robot]
    if robots:
        menus.append(LobbySelect(game_id, "remove", robots, t(lang, "lobby.computer_remove")))
    return menus


def lobby_view(game_id: int, lang: str) -> discord.ui.View:
    return component_view(
        [
            LobbyButton(game_id, move, t(lang, f"lobby.{move}"), style, emoji)
            for move, style, emoji in LobbyButton.MOVES
        ]
    )


class LobbyHost(Protocol):
    """The bot a lobby click reaches (``interaction.client``): its lobbies, and its guard that
    answers any error."""

    @property
    def lobbies(self) -> Lobbies: ...

    async def guard(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None: ...


class Lobbies:
    """Lobbies: opened by a start command, filled by clicks, begun as a running game."""

    def __init__(
        self,
        tables: TableService,
        adapters: Mapping[str, GameAdapter],
        seed_source: Callable[[], int],
        community: Community,
    ) -> None:
        self.tables = tables
        self.adapters = adapters
        self.seed_source = seed_source
        self.community = community

    async def open(
        self,
        interaction: discord.Interaction,
        adapter: GameAdapter,
        options: Mapping[str, int | None],
        turn_timeout: str | None,
        players: Sequence[tuple[int, str, str]] = (),
        robots: Sequence[str] = (),
        clock: str | None = None,
    ) -> None:
        """Open a lobby in the interaction's channel, or say which game already runs there;
        ``players`` are seated after the host, then computers of the ``robots`` levels; its clock
        ``clock`` (as /start takes it), else ``turn_timeout``, else the host's, else the server's."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise GameError("error.guild_only")
        # Read once, here: the game keeps what it needs of them (a change later leaves it be).
        server = await self.community.at_start(interaction)
        user = interaction.user
        hosts_clock, hosts = split_clock(
            (await self.community.player(user.id)).game_options.get(adapter.name, {})
        )
        given = (
            {"stand_in": int(server.stand_in)} | hosts | {k: v for k, v in options.items() if v is not None}
        )
        resolved = adapter.engine.resolve_options(given) | resolve_table_options(given)
        timing = opening_clock(clock, turn_timeout, hosts_clock, server.clock)
        channel_lang = server.language or language_of(interaction.guild_locale or interaction.locale)
        try:
            game_id = await self.tables.store.games.create_lobby(
                kind=adapter.name,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=user.id,
                host_name=user.display_name,
                host_locale=str(interaction.locale),
                locale=channel_lang,
                options=resolved,
                turn_timeout=timing.seconds,
                clock_increment=timing.increment,
                seed=self.seed_source(),
                now=discord.utils.utcnow().timestamp(),
                players=players,
                server_settings=server.kept(),
            )
        except ChannelBusy as busy:
            game = t(language(interaction), f"{busy.game.kind}.title")
            where = self.tables.links.table(language(interaction), busy.game.kind, message_url(busy.game))
            raise GameError("error.channel_busy", game=game, table=where) from None
        seats = await self.tables.store.games.seats(game_id)
        for level in robots[: adapter.engine.max_players - len(seats)]:
            await self.tables.store.games.add_robot(game_id, level, robot_name(channel_lang, level, seats))
            seats = await self.tables.store.games.seats(game_id)
        row = await self.tables.store.games.game(game_id)
        if row is None:  # aborted meanwhile
            raise GameError("error.game_not_running")
        await interaction.response.send_message(
            embed=lobby_embed(adapter, row, seats, channel_lang), view=lobby_view(game_id, channel_lang)
        )
        message = await interaction.original_response()
        await self.tables.store.games.set_message(game_id, message.id)

    async def handle(self, interaction: discord.Interaction, game_id: int, move: str) -> None:
        if move == "cancel":
            # Closing a lobby is closing a game: abort takes the game's lock itself.
            await asks.abort(self.tables, interaction, game_id)
            return
        if move == "computers":
            await self.computers(interaction, game_id, "panel", "")
            return
        async with self.tables.lock(game_id):
            row = await self.tables.store.games.game(game_id)
            if row is None or row.status != "lobby":
                raise GameError("error.lobby_closed")
            check_origin(interaction, row, private=False)
            adapter = self.adapters[row.kind]
            seats = await self.tables.store.games.seats(game_id)
            user = interaction.user
            seated = any(seat.user_id == user.id for seat in seats)
            if move == "join":
                if seated:
                    raise GameError("error.already_joined")
                check_role(user, kept_role(row.server_settings))
                if len(seats) >= adapter.engine.max_players:
                    raise GameError("error.lobby_full", maximum=adapter.engine.max_players)
                await self.tables.store.games.join(
                    game_id, user.id, user.display_name, str(interaction.locale)
                )
                # Joining a game tries their DMs again, should they have been found closed.
                await self.tables.store.games.forget_dm_closed(user.id)
            elif move == "leave":
                if not seated:
                    raise GameError("error.not_in_lobby")
                if user.id == row.host_id:
                    raise GameError("error.host_cannot_leave")
                await self.tables.store.games.leave_lobby(game_id, user.id)
            elif move == "begin":
                if user.id != row.host_id:
                    raise GameError("error.host_only")
                if len(seats) < adapter.engine.min_players:
                    raise GameError("error.not_enough_players", minimum=adapter.engine.min_players)
                await self._begin(interaction, row, adapter, seats)
                return
            else:
                raise GameError("error.unknown_action")
            seats = await self.tables.store.games.seats(game_id)
            await self._answer_with_lobby(interaction, row, adapter, seats, f"lobby.saved.{move}")

    async def _answer_with_lobby(
        self,
        interaction: discord.Interaction,
        row: GameRow,
        adapter: GameAdapter,
        seats: Sequence[SeatRow],
        saved: str,
    ) -> None:
        """Answer a lobby click with the lobby as it now stands; should Discord refuse to edit it,
        the click is told what was saved (key ``saved``) and the lobby is redrawn (``_refresh``)."""
        embed = lobby_embed(adapter, row, seats, language_of(row.locale))
        now = discord.utils.utcnow().timestamp()
        if row.message_id is not None and not due_for_repost(row.message_id, now):
            try:
                await interaction.response.edit_message(embed=embed)
                return
            except discord.HTTPException as error:
                log.info("lobby of game %s not redrawn by its click (%s)", row.id, error)
        await show_panel(interaction, t(language(interaction), saved))
        await self._refresh(row, adapter, seats)

    async def computers(self, interaction: discord.Interaction, game_id: int, move: str, chosen: str) -> None:
        """The host's panel of computer players: ``add`` one at level ``chosen``, ``remove`` the one
        in seat ``chosen``, or just show the ``panel``. The lobby message follows each change."""
        async with self.tables.lock(game_id):
            row = await self.tables.store.games.game(game_id)
            if row is None or row.status != "lobby":
                raise GameError("error.lobby_closed")
            check_origin(interaction, row, private=False)
            if interaction.user.id != row.host_id:
                raise GameError("error.host_only_computers")
            adapter = self.adapters[row.kind]
            seats = await self.tables.store.games.seats(game_id)
            if move == "add":
                if chosen not in LEVELS:
                    raise GameError("error.robot_level", level=chosen)
                if len(seats) >= adapter.engine.max_players:
                    raise GameError("error.lobby_full", maximum=adapter.engine.max_players)
                await self.tables.store.games.add_robot(
                    game_id, chosen, robot_name(row.locale, chosen, seats)
                )
            elif move == "remove":
                robot = next((seat for seat in seats if seat.is_robot and str(seat.seat) == chosen), None)
                if robot is None:
                    raise GameError("error.out_of_date")
                await self.tables.store.games.leave_lobby(game_id, robot.user_id)
            elif move != "panel":
                raise GameError("error.unknown_action")
            seats = await self.tables.store.games.seats(game_id)
            lang = language(interaction)
            panel = component_view(computer_menus(game_id, seats, adapter.engine.max_players, lang))
            text = t(lang, "lobby.computers_panel")
            if move != "panel":
                # What was saved, whatever becomes of the lobby message's redrawing.
                text = t(lang, f"lobby.saved.{move}_computer", count=sum(seat.is_robot for seat in seats))
            await show_panel(interaction, text, view=panel)
            if move != "panel" and row.message_id is not None:
                await self._refresh(row, adapter, seats)

    async def _refresh(self, row: GameRow, adapter: GameAdapter, seats: Sequence[SeatRow]) -> None:
        """Redraw the lobby message after a saved change. Discord refusing it never makes the change
        an error: a lobby it will no longer edit (30046), or one older than the table's rule
        (``due_for_repost``), is posted anew at the bottom of the channel and the old one retired;
        one it cannot reach now shows the change at the next."""
        channel = await self.tables.publisher.channel(row.channel_id)
        if channel is None or row.message_id is None:
            return
        lang = language_of(row.locale)
        embed = lobby_embed(adapter, row, seats, lang)
        old: int | None = row.message_id
        try:
            if not due_for_repost(row.message_id, discord.utils.utcnow().timestamp()):
                try:
                    await channel.get_partial_message(row.message_id).edit(embed=embed)
                    return
                except discord.HTTPException as error:
                    if refusal(error) not in (Refusal.GONE, Refusal.POST_ANEW):
                        raise
                    old = None if refusal(error) is Refusal.GONE else old
            message = await channel.send(embed=embed, view=lobby_view(row.id, lang))
        except Exception as error:
            if refusal(error) is None:
                raise
            log.warning("lobby of game %s not redrawn (%s); the next change redraws it", row.id, error)
            return
        if old is not None:
            # Where Discord's pages cannot open (the playground), no link: the lobby is just below.
            moved = (
                t(lang, "lobby.moved", url=message.jump_url)
                if self.tables.links.to_discord
                else t(lang, "lobby.moved_below")
            )
            await retire(channel, old, moved)
        await self.tables.store.games.set_message(row.id, message.id)

    async def _begin(
        self, interaction: discord.Interaction, row: GameRow, adapter: GameAdapter, seats: Sequence[SeatRow]
    ) -> None:
        tables = self.tables
        publication = await begin(tables, row, list(seats), adapter)
        await interaction.response.defer()
        # Finished too: a deal may decide the match (a Bué dealt).
        await tables.deliver(await tables.load(row.id, finished_too=True), publication)

    async def rematch(self, interaction: discord.Interaction, row: GameRow) -> None:
        seats = await self.tables.store.games.seats(row.id)
        if not any(seat.user_id == interaction.user.id for seat in seats):
            raise GameError("error.not_a_player")
        players = [
            (seat.user_id, seat.name, seat.locale) for seat in seats if not seat.gone and not seat.is_robot
        ]
        await self.open(
            interaction,
            self.adapters[row.kind],
            row.options,
            None,
            players=players,
            robots=[seat.robot for seat in seats if seat.robot is not None],
            clock=game_clock(row).text(),
        )


async def begin(
    tables: TableService, row: GameRow, seats: list[SeatRow], adapter: GameAdapter
) -> Publication:
    """Deal and save the running game with its timers and what its deal must announce; or
    the finished match, results and ratings included, when the deal itself decided it."""
    game, events = adapter.engine.begin(len(seats), row.options, row.seed)
    robots = {seat.seat: adapter.robot(seat.robot, row.seed * 16 + seat.seat) for seat in seats if seat.robot}
    table = LoadedGame(
        replace(row, status="running", version=1), seats, game, adapter, robots, links=tables.links
    )
    publication = Publication(events, {}, show_hands=True)
    now = tables.now()
    dealt = Score(
        game.totals(),
        game.finished,
        game.winner(),
        adapter.ends_round(events),
        adapter.feats(events),
        rated=community.rated(row.server_settings, seats),
    )
    await tables.store.games.start(
        row.id,
        game.to_json(),
        tables.plan(table, [], range(len(seats)), now),
        publication.to_json(),
        {seat: robot.to_json() for seat, robot in robots.items()},
        dealt=dealt,
        now=now,
    )
    tables.poke_timers()
    return publication
