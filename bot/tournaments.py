"""Tournaments: ``/tournament`` and the sign-up message (**Join**, **Leave**, **Computers**,
**Begin**), the organiser's commands and each entrant's; the rounds themselves are
``bot.tournament_rounds``'s."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, Protocol

import discord

from bot import pairing, standins, tournament_views
from bot.adapter import GameAdapter, component_view
from bot.community import (
    Community,
    can_organise,
    channel_allowed,
    check_role,
    parse_game_options,
    turn_timeout_seconds,
)
from bot.i18n import language_of, t
from bot.model import kept_role
from bot.pairing import FORMATS, ROUND_ROBIN
from bot.referee import Abort
from bot.replies import chosen_values, language, reply, show_panel
from bot.store.tournaments import (
    RUNNING,
    SIGNUP,
    AlreadyEntered,
    EntrantRow,
    NewTournament,
    TournamentRow,
    Tournaments,
)
from bot.tables import TableService
from bot.tournament_rounds import Rounds, plan_tables
from bot.tournament_views import late_entry_open, signup_embed
from games.core import GameError, resolve_table_options
from games.robots import LEVELS

log = logging.getLogger(__name__)

MAX_ROUNDS = 20
MAX_ENTRANTS = 1000


# ---------------------------------------------------------------------- buttons


class TournamentHost(Protocol):
    """The bot a tournament's click reaches (``interaction.client``)."""

    @property
    def tournaments(self) -> TournamentService: ...

    async def guard(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None: ...


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tourney:(?P<tournament>\d{1,19}):(?P<move>[a-z]{1,10})",
):
    MOVES: tuple[tuple[str, discord.ButtonStyle, str], ...] = (
        ("join", discord.ButtonStyle.success, "✋"),
        ("leave", discord.ButtonStyle.secondary, "🚪"),
        ("computers", discord.ButtonStyle.secondary, "🤖"),
        ("begin", discord.ButtonStyle.primary, "▶️"),
    )

    def __init__(self, tournament_id: int, move: str, label: str = "", emoji: str | None = None) -> None:
        self.tournament_id = tournament_id
        self.move = move
        style = next((style for name, style, _ in self.MOVES if name == move), discord.ButtonStyle.secondary)
        super().__init__(
            discord.ui.Button(
                label=label or move, style=style, emoji=emoji, custom_id=f"tourney:{tournament_id}:{move}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        return cls(int(match["tournament"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        host: TournamentHost = interaction.client  # type: ignore[assignment]
        await host.guard(interaction, host.tournaments.click(interaction, self.tournament_id, self.move))


class TournamentSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tourneysel:(?P<tournament>\d{1,19}):(?P<move>[a-z]{1,10})",
):
    """The organiser's menus of computer entrants: add one at a level, or remove one."""

    def __init__(
        self,
        tournament_id: int,
        move: str,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str = "",
    ) -> None:
        self.tournament_id = tournament_id
        self.move = move
        super().__init__(
            discord.ui.Select(
                custom_id=f"tourneysel:{tournament_id}:{move}",
                options=list(options) or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentSelect:
        return cls(int(match["tournament"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        host: TournamentHost = interaction.client  # type: ignore[assignment]
        chosen = next(iter(chosen_values(interaction)), "")
        work = host.tournaments.computers(interaction, self.tournament_id, self.move, chosen)
        await host.guard(interaction, work)


def signup_view(tournament: TournamentRow, language: str) -> discord.ui.View:
    """The sign-up message's buttons: all of them while it is open; Join (late entries) and
    Leave during round 1 of a Swiss tournament; Leave (to drop out) after that; none at the end."""
    moves: list[str] = []
    if tournament.status == SIGNUP:
        moves = ["join", "leave", "computers", "begin"]
    elif tournament.status == RUNNING:
        moves = ["join", "leave"] if late_entry_open(tournament) else ["leave"]
    emojis = {name: emoji for name, _, emoji in TournamentButton.MOVES}
    return component_view(
        [
            TournamentButton(tournament.id, move, t(language, f"tournament.button.{move}"), emojis[move])
            for move in moves
        ]
    )


def computer_name(language: str, level: str, entrants: Sequence[EntrantRow]) -> str:
    number = sum(entrant.is_robot for entrant in entrants) + 1
    return t(language, "lobby.computer_name", number=number, level=t(language, f"lobby.level.{level}"))


# ---------------------------------------------------------------------- the service


class TournamentService:
    """Runs the tournaments of this process's shards: given the table service (the games and
    their channels), the games' Discord sides, the server's settings, a seed source, and the
    tournaments' store once the bot has opened it."""

    def __init__(
        self,
        tables: TableService,
        adapters: Mapping[str, GameAdapter],
        community: Community,
        seed_source: Callable[[], int],
        store: Callable[[], Tournaments],
    ) -> None:
        self.tables = tables
        self.adapters = adapters
        self.community = community
        self.seed_source = seed_source
        self._store = store
        self.rounds = Rounds(tables, adapters, store, self._refresh_signup)

    @property
    def store(self) -> Tournaments:
        return self._store()

    # ------------------------------------------------------------------ creating

    async def create(
        self,
        interaction: discord.Interaction,
        kind: str,
        seats: int,
        form: str,
        rounds: int | None,
        clock: str | None,
        options: str | None,
    ) -> None:
        """``/tournament create``: every choice checked before anything is saved, then the sign-up
        message posted."""
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            raise GameError("error.guild_only")
        adapter = self.adapters.get(kind)
        if adapter is None or form not in FORMATS:
            raise GameError("error.forged_options")
        if isinstance(interaction.channel, discord.Thread):
            raise GameError("tournament.error.thread")
        server, _ = await self.community.server(interaction.guild, guild_id)
        if not channel_allowed(interaction.channel, server.channels):
            channels = ", ".join(f"<#{channel}>" for channel in server.channels)
            raise GameError("settings.refused.channel", channels=channels)
        if not can_organise(interaction, server):
            raise GameError("tournament.error.organiser")
        engine = adapter.engine
        if not engine.min_players <= seats <= engine.max_players:
            raise GameError("tournament.error.seats", minimum=engine.min_players, maximum=engine.max_players)
        if form == ROUND_ROBIN:
            if rounds is not None:
                raise GameError("tournament.error.round_robin_rounds")
        elif rounds is None or not 1 <= rounds <= MAX_ROUNDS:
            raise GameError("tournament.error.rounds", maximum=MAX_ROUNDS)
        given = parse_game_options(engine, options or "")
        typed_clock = given.pop("turn_timeout", None)
        timeout = turn_timeout_seconds(clock, typed_clock or server.turn_timeout)
        given = {"stand_in": int(server.stand_in)} | given
        resolved = engine.resolve_options(given) | resolve_table_options(given)
        locale = server.language or language_of(interaction.guild_locale or interaction.locale)
        tournament_id = await self.store.create(
            NewTournament(
                guild_id,
                channel_id,
                interaction.user.id,
                kind,
                form,
                seats,
                rounds or 0,
                resolved,
                timeout,
                locale,
                self.seed_source(),
                server.kept(),
                self.tables.now(),
            )
        )
        tournament = await self.store.tournament(tournament_id)
        if tournament is None:
            raise GameError("tournament.error.unknown")
        try:
            await interaction.response.send_message(
                embed=self._signup_embed(tournament, []), view=signup_view(tournament, tournament.locale)
            )
            message = await interaction.original_response()
        except discord.HTTPException:
            # No sign-up message, no way in: the tournament goes with it.
            await self.store.cancel(tournament_id)
            raise
        await self.store.set_message(tournament_id, message.id)

    def _signup_embed(self, tournament: TournamentRow, entrants: Sequence[EntrantRow]) -> discord.Embed:
        adapter = self.adapters[tournament.kind]
        own = {option.name for option in adapter.engine.options}
        rules = {name: value for name, value in tournament.options.items() if name in own}
        options = adapter.settings(rules, tournament.locale)
        return signup_embed(tournament.locale, tournament, entrants, options, adapter.colour)

    # ------------------------------------------------------------------ sign-up clicks

    async def _here(self, interaction: discord.Interaction, tournament_id: int) -> TournamentRow:
        """The tournament a click on its sign-up message names: refused unless it is this server's
        and the click comes from its channel."""
        tournament = await self.store.tournament(tournament_id)
        if tournament is None:
            raise GameError("tournament.error.unknown")
        if interaction.guild_id != tournament.guild_id or interaction.channel_id != tournament.channel_id:
            raise GameError("tournament.error.elsewhere")
        return tournament

    async def click(self, interaction: discord.Interaction, tournament_id: int, move: str) -> None:
        """**Join**, **Leave**, **Computers** and **Begin** on the sign-up message."""
        if move == "computers":
            await self.computers(interaction, tournament_id, "panel", "")
            return
        async with self.rounds.lock(tournament_id):
            tournament = await self._here(interaction, tournament_id)
            entrants = await self.store.entrants(tournament_id)
            user = interaction.user
            mine = next((entrant for entrant in entrants if entrant.user_id == user.id), None)
            begun = False
            if move == "join":
                await self._join(interaction, tournament, entrants, mine)
            elif move == "leave":
                await self._leave(tournament, mine)
            elif move == "begin":
                begun = await self._begin(interaction, tournament, entrants)
            else:
                raise GameError("error.unknown_action")
            if move != "begin":
                await self._answer_with_signup(interaction, tournament, f"tournament.saved.{move}")
        if move == "begin" and begun:
            await self._refresh_signup(await self.store.tournament(tournament_id) or tournament)
            await self.rounds.advance(tournament_id)

    async def _join(
        self,
        interaction: discord.Interaction,
        tournament: TournamentRow,
        entrants: Sequence[EntrantRow],
        mine: EntrantRow | None,
    ) -> None:
        if tournament.status not in (SIGNUP, RUNNING) or (
            tournament.status == RUNNING and not late_entry_open(tournament)
        ):
            raise GameError("tournament.error.join_closed")
        if mine is not None:
            raise GameError("tournament.error.already_entered")
        check_role(interaction.user, kept_role(tournament.server_settings))
        if len(entrants) >= MAX_ENTRANTS:
            raise GameError("tournament.error.full", maximum=MAX_ENTRANTS)
        user = interaction.user
        try:
            await self.store.enter(
                tournament.id, user.id, user.display_name, str(interaction.locale), tournament.round
            )
        except AlreadyEntered:
            raise GameError("tournament.error.already_entered") from None
        # Entering tries their DMs again, should they have been found closed.
        await self.tables.forget_dm_closed(user.id)

    async def _leave(self, tournament: TournamentRow, mine: EntrantRow | None) -> None:
        """Leaving before the start withdraws; after it, drops out: not paired after this round."""
        if mine is None or mine.dropped_round is not None:
            raise GameError("tournament.error.not_entered")
        if tournament.status == SIGNUP:
            await self.store.withdraw(tournament.id, mine.entrant)
        elif tournament.status == RUNNING:
            await self.store.drop(tournament.id, mine.entrant, tournament.round)
        else:
            raise GameError("tournament.error.over")

    async def _begin(
        self, interaction: discord.Interaction, tournament: TournamentRow, entrants: Sequence[EntrantRow]
    ) -> bool:
        """Round 1 paired and saved with the tournament's start; its tables start after the lock."""
        if interaction.user.id != tournament.organiser_id:
            raise GameError("tournament.error.organiser_only")
        if tournament.status != SIGNUP:
            raise GameError("tournament.error.begun")
        engine = self.adapters[tournament.kind].engine
        needed = max(tournament.seats, engine.min_players)
        if len(entrants) < needed:
            raise GameError("tournament.error.too_few", minimum=needed)
        # Pairing a round robin's every round may take a moment: acknowledged first.
        await interaction.response.defer()
        numbers = [entrant.entrant for entrant in entrants]
        rounds, schedule = tournament.rounds, None
        if tournament.format == ROUND_ROBIN:
            plans = await asyncio.to_thread(
                pairing.round_robin, numbers, tournament.seats, engine.min_players, tournament.seed
            )
            if len(plans) > MAX_ROUNDS:
                raise GameError("tournament.error.round_robin_long", rounds=len(plans), maximum=MAX_ROUNDS)
            rounds, schedule = len(plans), [plan_tables(plan) for plan in plans]
            first = plans[0]
        else:
            first = await asyncio.to_thread(
                pairing.swiss_round,
                1,
                numbers,
                set(numbers),
                [],
                [],
                tournament.seats,
                engine.min_players,
                tournament.seed,
            )
        paired = await self.store.pair_round(
            tournament.id, 1, plan_tables(first), rounds=rounds, schedule=schedule
        )
        if not paired:
            raise GameError("tournament.error.begun")
        return True

    async def _answer_with_signup(
        self, interaction: discord.Interaction, tournament: TournamentRow, saved: str
    ) -> None:
        """Answer a click with the sign-up message as it now stands; should Discord refuse to edit
        it, the click is told what was saved."""
        tournament = await self.store.tournament(tournament.id) or tournament
        entrants = await self.store.entrants(tournament.id)
        try:
            await interaction.response.edit_message(
                embed=self._signup_embed(tournament, entrants),
                view=signup_view(tournament, tournament.locale),
            )
        except discord.HTTPException as error:
            log.info("sign-up of tournament %s not redrawn by its click (%s)", tournament.id, error)
            await show_panel(interaction, t(language(interaction), saved))

    async def computers(
        self, interaction: discord.Interaction, tournament_id: int, move: str, chosen: str
    ) -> None:
        """The organiser's panel of computer entrants: ``add`` one at level ``chosen``, ``remove``
        the one numbered ``chosen``, or just show the ``panel``; the sign-up message follows."""
        async with self.rounds.lock(tournament_id):
            tournament = await self._here(interaction, tournament_id)
            if interaction.user.id != tournament.organiser_id:
                raise GameError("tournament.error.organiser_only")
            if tournament.status != SIGNUP:
                raise GameError("tournament.error.begun")
            entrants = await self.store.entrants(tournament_id)
            if move == "add":
                if chosen not in LEVELS:
                    raise GameError("error.robot_level", level=chosen)
                if len(entrants) >= MAX_ENTRANTS:
                    raise GameError("tournament.error.full", maximum=MAX_ENTRANTS)
                name = computer_name(tournament.locale, chosen, entrants)
                await self.store.add_computer(tournament_id, chosen, name)
            elif move == "remove":
                robot = next((e for e in entrants if e.is_robot and str(e.entrant) == chosen), None)
                if robot is None:
                    raise GameError("error.out_of_date")
                await self.store.withdraw(tournament_id, robot.entrant)
            elif move != "panel":
                raise GameError("error.unknown_action")
            entrants = await self.store.entrants(tournament_id)
            lang = language(interaction)
            levels = [
                discord.SelectOption(label=t(lang, f"lobby.level.{level}"), value=level) for level in LEVELS
            ]
            menus: list[discord.ui.Item[Any]] = [
                TournamentSelect(tournament_id, "add", levels, t(lang, "lobby.computer_add"))
            ]
            robots = [
                discord.SelectOption(label=entrant.name, value=str(entrant.entrant))
                for entrant in entrants
                if entrant.is_robot
            ][:25]
            if robots:
                menus.append(
                    TournamentSelect(tournament_id, "remove", robots, t(lang, "lobby.computer_remove"))
                )
            count = sum(entrant.is_robot for entrant in entrants)
            text = t(lang, "tournament.computers_panel", count=count)
            await show_panel(interaction, text, view=component_view(menus))
            if move != "panel":
                await self._refresh_signup(tournament, entrants)

    async def _refresh_signup(
        self, tournament: TournamentRow, entrants: Sequence[EntrantRow] | None = None
    ) -> None:
        """Redraw the sign-up message after a change saved elsewhere; Discord refusing it is logged."""
        if tournament.message_id is None:
            return
        channel = await self.tables.channel(tournament.channel_id)
        if channel is None:
            return
        if entrants is None:
            entrants = await self.store.entrants(tournament.id)
        try:
            await channel.get_partial_message(tournament.message_id).edit(
                embed=self._signup_embed(tournament, entrants),
                view=signup_view(tournament, tournament.locale),
            )
        except discord.HTTPException as error:
            log.info("sign-up of tournament %s not redrawn (%s)", tournament.id, error)

    # ------------------------------------------------------------------ commands

    async def of_channel(self, interaction: discord.Interaction) -> TournamentRow:
        """The tournament of the channel, or of the channel a table's thread is in."""
        channel = interaction.channel
        channel_id = interaction.channel_id or 0
        if isinstance(channel, discord.Thread) and channel.parent_id is not None:
            channel_id = channel.parent_id
        tournament = await self.store.in_channel(channel_id)
        if tournament is None or tournament.guild_id != interaction.guild_id:
            raise GameError("tournament.error.none_here")
        return tournament

    async def show_standings(self, interaction: discord.Interaction) -> None:
        """``/tournament standings``: privately, with the asker's own line wherever they stand."""
        tournament = await self.of_channel(interaction)
        entrants = await self.store.entrants(tournament.id)
        tables = await self.store.tables(tournament.id)
        mine = next((e.entrant for e in entrants if e.user_id == interaction.user.id), None)
        lang = language(interaction)
        embeds = await asyncio.to_thread(
            tournament_views.standings_embeds, lang, tournament, entrants, tables, highlight=mine
        )
        await reply(interaction, embeds=embeds)

    async def drop(self, interaction: discord.Interaction, player: discord.abc.User | None) -> None:
        """``/tournament drop``: an entrant drops out (not paired after this round); the organiser
        may drop a player who missed two moves in a row in this round (a computer plays for them)."""
        tournament = await self.of_channel(interaction)
        async with self.rounds.lock(tournament.id):
            tournament = await self.store.tournament(tournament.id) or tournament
            if tournament.status not in (SIGNUP, RUNNING):
                raise GameError("tournament.error.over")
            entrants = await self.store.entrants(tournament.id)
            target = interaction.user if player is None else player
            entrant = next((e for e in entrants if e.user_id == target.id and e.dropped_round is None), None)
            if entrant is None:
                raise GameError("tournament.error.not_entered")
            if player is not None and player.id != interaction.user.id:
                if interaction.user.id != tournament.organiser_id:
                    raise GameError("tournament.error.organiser_only")
                if not await self._missed_two(tournament, entrant):
                    raise GameError("tournament.error.not_missing", name=entrant.name)
            if tournament.status == SIGNUP:
                await self.store.withdraw(tournament.id, entrant.entrant)
            else:
                await self.store.drop(tournament.id, entrant.entrant, tournament.round)
            await reply(interaction, t(language(interaction), "tournament.dropped", name=entrant.name))
            await self._refresh_signup(tournament)

    async def _missed_two(self, tournament: TournamentRow, entrant: EntrantRow) -> bool:
        """Whether the entrant's turns ran out twice in a row at their table of this round: a
        computer then plays for them (a stand-in away, or one that did)."""
        tables = await self.store.tables(tournament.id)
        table = next(
            (
                x
                for x in tables
                if x.round == tournament.round and entrant.entrant in x.entrants and x.game_id
            ),
            None,
        )
        if table is None or table.game_id is None:
            return False
        game = await self.tables.read(table.game_id)
        if game is None:
            return False
        seat = game.seats[table.entrants.index(entrant.entrant)]
        return standins.away(seat) or seat.stood_in

    async def close_table(self, interaction: discord.Interaction, number: int) -> None:
        """``/tournament close``: the organiser closes a late table of this round (its game aborted,
        as its host, through the one path of every change); its totals as they stand decide its
        places, and the game's end moves the tournament on (``Rounds.game_over``)."""
        tournament = await self.of_channel(interaction)
        if interaction.user.id != tournament.organiser_id:
            raise GameError("tournament.error.organiser_only")
        if tournament.status != RUNNING:
            raise GameError("tournament.error.not_running")
        tables = await self.store.tables(tournament.id)
        table = next((x for x in tables if x.round == tournament.round and x.number == number), None)
        if table is None or table.is_bye:
            raise GameError("tournament.error.no_table", number=number)
        if table.over or table.game_id is None:
            raise GameError("tournament.error.table_over", number=number)
        await self.tables.act(table.game_id, Abort(interaction.user.id, manager=True))
        await reply(
            interaction, t(language(interaction), "tournament.closed", number=number), ephemeral=False
        )

    async def cancel(self, interaction: discord.Interaction) -> None:
        """``/tournament cancel``: the organiser (or Manage Server) ends it; games under way go on alone."""
        tournament = await self.of_channel(interaction)
        async with self.rounds.lock(tournament.id):
            if interaction.user.id != tournament.organiser_id and not can_organise(
                interaction, (await self.community.server(interaction.guild, tournament.guild_id))[0]
            ):
                raise GameError("tournament.error.organiser_only")
            if not await self.store.cancel(tournament.id):
                raise GameError("tournament.error.over")
            await reply(interaction, t(language(interaction), "tournament.cancelled"), ephemeral=False)
            cancelled = await self.store.tournament(tournament.id) or tournament
            await self._refresh_signup(cancelled)
