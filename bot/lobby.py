"""Opening a game: a start command (or a **Rematch**) opens a lobby, whose clicks seat players and
computers and begin the game, each through the one path of every change (``bot.referee``'s lobby
orders, ``TableService.act``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

import discord

from bot.adapter import Click, DrawnAt, GameAdapter, component_view
from bot.asks import InteractionAsker
from bot.community import Community
from bot.i18n import language_of, t
from bot.lobby_message import computer_menus, computer_name
from bot.model import LOBBY, GameRow, Lobby, NewSeat
from bot.planning import Pace
from bot.referee import AddComputer, Context, Deal, Join, Leave, Order, RemoveComputer, opening_seats
from bot.replies import language, show_panel
from bot.store import ChannelBusy
from bot.tables import TableService
from bot.timekeeping import game_clock, opening_clock, split_clock
from games.core import Event, GameError, resolve_table_options

log = logging.getLogger(__name__)


def message_url(row: GameRow) -> str:
    return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id or ''}"


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
        players: Sequence[NewSeat] = (),
        robots: Sequence[str] = (),
        clock: str | None = None,
    ) -> None:
        """Open a lobby in the interaction's channel, posted as its answer, or say which game
        already runs there; ``players`` are seated after the host, then computers of the
        ``robots`` levels; its clock ``clock`` (as /start takes it), else ``turn_timeout``, else the
        host's, else the server's."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise GameError("error.guild_only")
        # Read once, here: the game keeps what it needs of them (a change later leaves it be).
        server = await self.community.at_start(interaction)
        user = interaction.user
        hosts_clock, hosts = split_clock(
            (await self.community.player(user.id)).game_options.get(adapter.name, {})
        )
        timing = opening_clock(clock, turn_timeout, hosts_clock, server.clock)
        given = (
            {"stand_in": int(server.stand_in)} | hosts | {k: v for k, v in options.items() if v is not None}
        )
        channel_lang = server.language or language_of(interaction.guild_locale or interaction.locale)
        row = GameRow.opening(
            adapter.name,
            interaction.guild_id,
            interaction.channel_id,
            user.id,
            adapter.engine.resolve_options(given) | resolve_table_options(given),
            timing.seconds,
            channel_lang,
            self.seed_source(),
            server.kept(),
            timing.increment,
        )
        host = NewSeat(user.id, user.display_name, str(interaction.locale))
        people = [host, *(player for player in players if player.user_id != user.id)]
        context = Context(0.0, Pace(), computer_name=computer_name(channel_lang))
        seats = opening_seats(people, robots, adapter.engine.max_players, context)
        try:
            await self.tables.open_lobby(row, seats, InteractionAsker(interaction, post=True))
        except ChannelBusy as busy:
            game = t(language(interaction), f"{busy.game.kind}.title")
            where = self.tables.links.table(language(interaction), busy.game.kind, message_url(busy.game))
            raise GameError("error.channel_busy", game=game, table=where) from None

    async def rematch(self, click: Click) -> None:
        """**Rematch** under a finished match: a new lobby with its players seated, and its computers."""
        interaction, row, seats = click.interaction, click.read.game, click.read.seats
        if not any(seat.user_id == interaction.user.id for seat in seats):
            raise GameError("error.not_a_player")
        players = [
            NewSeat(seat.user_id, seat.name, seat.locale)
            for seat in seats
            if not seat.gone and not seat.is_robot
        ]
        robots = [seat.robot for seat in seats if seat.robot is not None]
        await self.open(
            interaction, self.adapters[row.kind], row.options, None, players, robots, game_clock(row).text()
        )

    async def change(self, click: Click, order: Order, saved: str) -> None:
        """A lobby's change (a seat taken or given up, a computer added or removed, the deal),
        answered by the lobby as it now stands when the click was on it, else privately with
        what was saved (key ``saved``)."""
        asker = InteractionAsker(click.interaction, read=click.read, saved=saved)
        await self.tables.act(click.game_id, order, asker)

    async def join(self, click: Click) -> None:
        interaction = click.interaction
        user = interaction.user
        roles = frozenset(role.id for role in getattr(user, "roles", ()))
        # Joining a game tries their DMs again, should they have been found closed.
        await self.tables.forget_dm_closed(user.id)
        order = Join(NewSeat(user.id, user.display_name, str(interaction.locale)), roles)
        await self.change(click, order, "lobby.saved.join")

    async def leave(self, click: Click) -> None:
        await self.change(click, Leave(click.user_id), "lobby.saved.leave")

    async def begin(self, click: Click) -> None:
        await self.change(click, Deal(click.user_id), "common.done")

    async def computer_added(self, click: Click) -> None:
        order = AddComputer(click.user_id, "".join(click.values[:1]))
        await self._computers_changed(click, order, "add")

    async def computer_removed(self, click: Click) -> None:
        order = RemoveComputer(click.user_id, "".join(click.values[:1]))
        await self._computers_changed(click, order, "remove")

    async def computers(self, click: Click) -> None:
        """The host's panel of computer players: a menu to add one at a level, one to remove one."""
        interaction, snapshot = click.interaction, click.read
        row = snapshot.game
        if row.status != LOBBY:
            raise GameError("error.lobby_closed")
        if interaction.user.id != row.host_id:
            raise GameError("error.host_only_computers")
        lang = language(interaction)
        maximum = self.adapters[row.kind].engine.max_players
        panel = component_view(computer_menus(DrawnAt(row.id, row.version), snapshot.seats, maximum, lang))
        await show_panel(interaction, t(lang, "lobby.computers_panel"), view=panel)

    async def _computers_changed(self, click: Click, order: Order, move: str) -> None:
        """A computer added or removed from the host's panel: the panel shows what was saved and
        its menus as they now are; the lobby message follows by its delivery."""
        interaction, snapshot = click.interaction, click.read
        lang = language(interaction)
        maximum = self.adapters[snapshot.game.kind].engine.max_players

        async def panel(lobby: Lobby[GameAdapter], events: list[Event]) -> None:
            robots = sum(seat.is_robot for seat in lobby.seats)
            menus = computer_menus(DrawnAt(lobby.row.id, lobby.row.version), lobby.seats, maximum, lang)
            text = t(lang, f"lobby.saved.{move}_computer", count=robots)
            await show_panel(interaction, text, view=component_view(menus))

        await self.tables.act(click.game_id, order, InteractionAsker(interaction, read=snapshot, then=panel))
