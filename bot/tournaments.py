"""Tournaments: a sign-up message, then rounds of tables, each table an ordinary game in a thread
of the tournament's channel, paired by ``bot.pairing`` and followed by a standings message.

The database is the truth, as for a move. A round is paired once (its tables written with the
round in one transaction); each table then starts in steps, each recorded before the next: the
message its thread is made from (sent with a nonce: sent again after a crash, Discord keeps one),
the thread (Discord refuses a second thread on one message), the game (made and tied to its table
in one transaction, then dealt through ``start_table``). ``advance`` does whatever is due, from
the rows alone, so a restart (``resume``) or a second report of one game's end goes on from where
things stand and repeats nothing.

A game's end reaches its tournament through ``game_over``, which the store calls once a finishing
(or aborting) commit is saved (``Games.game_over``); the reaction runs in a task of its own, under
the tournament's lock, never under a game's.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import re
from collections import defaultdict
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import discord

from bot import charts, standins
from bot.adapter import GameAdapter, component_view
from bot.community import (
    Community,
    can_organise,
    channel_allowed,
    check_role,
    kept_role,
    parse_game_options,
    turn_timeout_seconds,
)
from bot.i18n import language_of, t
from bot.lobby import begin
from bot.pairing import FORMATS, ROUND_ROBIN, RoundPlan, round_robin, swiss_round, without_dropped
from bot.ratings import places
from bot.refusals import Refusal, refusal
from bot.replays import open_button
from bot.replies import chosen_values, language, reply, show_panel
from bot.store import Store
from bot.store.games import Lobby
from bot.store.tournaments import (
    RUNNING,
    SIGNUP,
    AlreadyEntered,
    EntrantRow,
    NewTournament,
    TableRow,
    TournamentRow,
)
from bot.tables import TableService
from bot.tournament_views import (
    current_standings,
    field_of,
    final_chart,
    signup_embed,
    standings_embeds,
    starter_text,
    thread_name,
)
from games.core import GameError, resolve_table_options
from games.robots import LEVELS

log = logging.getLogger(__name__)

MAX_ROUNDS = 20
MAX_ENTRANTS = 1000
# Discord's code for "a thread has already been created for this message".
THREAD_EXISTS = 160004
# Buttons a message holds (five rows of five): the final standings' replays come in messages of these.
BUTTONS_PER_MESSAGE = 25
STANDINGS_CHART_FILE = "standings.png"
# How long to wait before trying again a step Discord could not take (its servers, its limits).
RETRY_DELAYS = (5.0, 30.0, 120.0, 600.0, 1800.0, 3600.0)


def step_nonce(tournament: TournamentRow, step: str) -> str:
    """The nonce of one message a tournament posts (a table's call, a round's standings): the same
    whenever it is sent, before and after a restart; the seed keeps a database made anew from
    reusing a recent one. Discord's nonces are at most 25 characters."""
    key = f"tournament:{tournament.id}:{tournament.seed}:{step}".encode()
    return hashlib.blake2b(key, digest_size=12).hexdigest()


def table_seed(tournament: TournamentRow, table: TableRow) -> int:
    """A table's deal, from the tournament's seed: a tournament replays from its seed alone."""
    key = f"{tournament.seed}:{table.round}:{table.number}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=4).digest(), "big") >> 1


# ---------------------------------------------------------------------- a table's start


@dataclass(frozen=True)
class TableGame:
    """A tournament's table as a game: where it is played and who sits where."""

    tournament: TournamentRow
    table: TableRow
    thread_id: int
    seated: Sequence[tuple[int, str, str, str | None]]  # user id, name, locale, a computer's level


async def start_table(tables: TableService, adapter: GameAdapter, game: TableGame) -> int:
    """Start a table's game with today's API, once, whatever crash came before: the game made with
    its seats and tied to its table in one transaction (or the one made before), dealt under its
    lock by ``lobby.begin`` (state, timers and what the deal announces, in one commit) and its
    deal delivered (``TableService.deliver``). A game dealt already is left to the outbox, which
    delivers whatever a crash left pending."""
    tournament, table = game.tournament, game.table
    lobby = Lobby(
        tournament.kind,
        tournament.guild_id,
        game.thread_id,
        tournament.organiser_id,
        tournament.options,
        tournament.turn_timeout,
        tournament.locale,
        table_seed(tournament, table),
        tables.now(),
    )
    game_id = await tables.store.tournaments.table_game(
        tournament.id, table.round, table.number, lobby, game.seated, tournament.server_settings
    )
    async with tables.lock(game_id):
        row = await tables.store.games.game(game_id)
        if row is None or row.status != "lobby":
            return game_id
        publication = await begin(tables, row, await tables.store.games.seats(game_id), adapter)
        await tables.deliver(await tables.load(game_id, finished_too=True), publication)
    return game_id


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


def late_entry_open(tournament: TournamentRow) -> bool:
    """Late entries are taken until round 2 begins, in a Swiss tournament."""
    return tournament.status == RUNNING and tournament.round == 1 and tournament.format != ROUND_ROBIN


def computer_name(language: str, level: str, entrants: Sequence[EntrantRow]) -> str:
    number = sum(entrant.is_robot for entrant in entrants) + 1
    return t(language, "lobby.computer_name", number=number, level=t(language, f"lobby.level.{level}"))


# ---------------------------------------------------------------------- the service


class TournamentService:
    """Runs the tournaments of this process's shards: given the table service (the store, the
    games' locks and delivery), the games, the server's settings and a seed source."""

    def __init__(
        self,
        tables: TableService,
        adapters: Mapping[str, GameAdapter],
        community: Community,
        seed_source: Callable[[], int],
    ) -> None:
        self.tables = tables
        self.adapters = adapters
        self.community = community
        self.seed_source = seed_source
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def store(self) -> Store:
        return self.tables.store

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()

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
        tournament_id = await self.store.tournaments.create(
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
        tournament = await self.store.tournaments.tournament(tournament_id)
        if tournament is None:
            raise GameError("tournament.error.unknown")
        await interaction.response.send_message(
            embed=self._signup_embed(tournament, []), view=signup_view(tournament, tournament.locale)
        )
        message = await interaction.original_response()
        await self.store.tournaments.set_message(tournament_id, message.id)

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
        tournament = await self.store.tournaments.tournament(tournament_id)
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
        async with self._locks[tournament_id]:
            tournament = await self._here(interaction, tournament_id)
            entrants = await self.store.tournaments.entrants(tournament_id)
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
            await self._refresh_signup(await self.store.tournaments.tournament(tournament_id) or tournament)
            await self.advance(tournament_id)

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
            await self.store.tournaments.enter(
                tournament.id, user.id, user.display_name, str(interaction.locale), tournament.round
            )
        except AlreadyEntered:
            raise GameError("tournament.error.already_entered") from None
        # Entering tries their DMs again, should they have been found closed.
        await self.store.games.forget_dm_closed(user.id)

    async def _leave(self, tournament: TournamentRow, mine: EntrantRow | None) -> None:
        """Leaving before the start withdraws; after it, drops out: not paired after this round."""
        if mine is None or mine.dropped_round is not None:
            raise GameError("tournament.error.not_entered")
        if tournament.status == SIGNUP:
            await self.store.tournaments.withdraw(tournament.id, mine.entrant)
        elif tournament.status == RUNNING:
            await self.store.tournaments.drop(tournament.id, mine.entrant, tournament.round)
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
        numbers = [entrant.entrant for entrant in entrants]
        rounds, schedule = tournament.rounds, None
        if tournament.format == ROUND_ROBIN:
            plans = await asyncio.to_thread(
                round_robin, numbers, tournament.seats, engine.min_players, tournament.seed
            )
            if len(plans) > MAX_ROUNDS:
                raise GameError("tournament.error.round_robin_long", rounds=len(plans), maximum=MAX_ROUNDS)
            rounds, schedule = len(plans), [plan_tables(plan) for plan in plans]
            first = plans[0]
        else:
            first = await asyncio.to_thread(
                swiss_round,
                1,
                numbers,
                set(numbers),
                [],
                [],
                tournament.seats,
                engine.min_players,
                tournament.seed,
            )
        await interaction.response.defer()
        paired = await self.store.tournaments.pair_round(
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
        tournament = await self.store.tournaments.tournament(tournament.id) or tournament
        entrants = await self.store.tournaments.entrants(tournament.id)
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
        async with self._locks[tournament_id]:
            tournament = await self._here(interaction, tournament_id)
            if interaction.user.id != tournament.organiser_id:
                raise GameError("tournament.error.organiser_only")
            if tournament.status != SIGNUP:
                raise GameError("tournament.error.begun")
            entrants = await self.store.tournaments.entrants(tournament_id)
            if move == "add":
                if chosen not in LEVELS:
                    raise GameError("error.robot_level", level=chosen)
                if len(entrants) >= MAX_ENTRANTS:
                    raise GameError("tournament.error.full", maximum=MAX_ENTRANTS)
                name = computer_name(tournament.locale, chosen, entrants)
                await self.store.tournaments.add_computer(tournament_id, chosen, name)
            elif move == "remove":
                robot = next((e for e in entrants if e.is_robot and str(e.entrant) == chosen), None)
                if robot is None:
                    raise GameError("error.out_of_date")
                await self.store.tournaments.withdraw(tournament_id, robot.entrant)
            elif move != "panel":
                raise GameError("error.unknown_action")
            entrants = await self.store.tournaments.entrants(tournament_id)
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
        channel = await self.tables.publisher.channel(tournament.channel_id)
        if channel is None:
            return
        if entrants is None:
            entrants = await self.store.tournaments.entrants(tournament.id)
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
        tournament = await self.store.tournaments.in_channel(channel_id)
        if tournament is None or tournament.guild_id != interaction.guild_id:
            raise GameError("tournament.error.none_here")
        return tournament

    async def show_standings(self, interaction: discord.Interaction) -> None:
        """``/tournament standings``: privately, with the asker's own line wherever they stand."""
        tournament = await self.of_channel(interaction)
        entrants = await self.store.tournaments.entrants(tournament.id)
        tables = await self.store.tournaments.tables(tournament.id)
        mine = next((e.entrant for e in entrants if e.user_id == interaction.user.id), None)
        embeds = standings_embeds(language(interaction), tournament, entrants, tables, highlight=mine)
        await reply(interaction, embeds=embeds)

    async def drop(self, interaction: discord.Interaction, player: discord.abc.User | None) -> None:
        """``/tournament drop``: an entrant drops out (not paired after this round); the organiser
        may drop a player who missed two moves in a row in this round (a computer plays for them)."""
        tournament = await self.of_channel(interaction)
        async with self._locks[tournament.id]:
            tournament = await self.store.tournaments.tournament(tournament.id) or tournament
            if tournament.status not in (SIGNUP, RUNNING):
                raise GameError("tournament.error.over")
            entrants = await self.store.tournaments.entrants(tournament.id)
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
                await self.store.tournaments.withdraw(tournament.id, entrant.entrant)
            else:
                await self.store.tournaments.drop(tournament.id, entrant.entrant, tournament.round)
            await reply(interaction, t(language(interaction), "tournament.dropped", name=entrant.name))
            await self._refresh_signup(tournament)

    async def _missed_two(self, tournament: TournamentRow, entrant: EntrantRow) -> bool:
        """Whether the entrant's turns ran out twice in a row at their table of this round: a
        computer then plays for them (a stand-in away, or one that did)."""
        tables = await self.store.tournaments.tables(tournament.id)
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
        seat = (await self.store.games.seats(table.game_id))[table.entrants.index(entrant.entrant)]
        return standins.away(seat) or seat.stood_in

    async def close_table(self, interaction: discord.Interaction, number: int) -> None:
        """``/tournament close``: the organiser closes a late table of this round; its totals as
        they stand decide its places, and the next round can begin."""
        tournament = await self.of_channel(interaction)
        if interaction.user.id != tournament.organiser_id:
            raise GameError("tournament.error.organiser_only")
        if tournament.status != RUNNING:
            raise GameError("tournament.error.not_running")
        tables = await self.store.tournaments.tables(tournament.id)
        table = next((x for x in tables if x.round == tournament.round and x.number == number), None)
        if table is None or table.is_bye:
            raise GameError("tournament.error.no_table", number=number)
        if table.over or table.game_id is None:
            raise GameError("tournament.error.table_over", number=number)
        async with self.tables.lock(table.game_id):
            row = await self.store.games.game(table.game_id)
            if row is not None and row.status in ("lobby", "running"):
                await self.store.games.end(table.game_id, "aborted")
        self.tables.poke_timers()
        await reply(
            interaction, t(language(interaction), "tournament.closed", number=number), ephemeral=False
        )
        thread = await self.tables.publisher.channel(table.thread_id or 0)
        if thread is not None:
            try:
                await thread.send(t(tournament.locale, "tournament.closed_here"))
            except discord.HTTPException as error:
                log.info("table %s of tournament %s not told it closed (%s)", number, tournament.id, error)
        await self.advance(tournament.id)

    async def cancel(self, interaction: discord.Interaction) -> None:
        """``/tournament cancel``: the organiser (or Manage Server) ends it; games under way go on alone."""
        tournament = await self.of_channel(interaction)
        async with self._locks[tournament.id]:
            if interaction.user.id != tournament.organiser_id and not can_organise(
                interaction, (await self.community.server(interaction.guild, tournament.guild_id))[0]
            ):
                raise GameError("tournament.error.organiser_only")
            if not await self.store.tournaments.cancel(tournament.id):
                raise GameError("tournament.error.over")
            await reply(interaction, t(language(interaction), "tournament.cancelled"), ephemeral=False)
            cancelled = await self.store.tournaments.tournament(tournament.id) or tournament
            await self._refresh_signup(cancelled)

    # ------------------------------------------------------------------ rounds

    def game_over(self, game_id: int) -> None:
        """A game ended (its end is saved): if it is a tournament's table, the tournament goes on,
        in a task of its own (this is called under the game's lock)."""
        task = asyncio.get_running_loop().create_task(self._after_game(game_id), name=f"tournament-{game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _after_game(self, game_id: int) -> None:
        found = await self.store.tournaments.of_game(game_id)
        if found is not None:
            await self.advance(found[0])

    async def resume(self) -> None:
        """At start-up: every running tournament of this process's shards goes on from its rows."""
        for tournament in await self.store.tournaments.under_way():
            if tournament.status == RUNNING:
                await self.advance(tournament.id)

    async def advance(self, tournament_id: int, attempt: int = 0) -> None:
        """Do whatever is due (see ``_advance``); should Discord not take a step now, try again later."""
        try:
            async with self._locks[tournament_id]:
                await self._advance(tournament_id)
        except GameError as error:
            # Its channel out of reach: nothing to do until someone puts it back.
            log.warning("tournament %s cannot go on: %s", tournament_id, error.key)
        except Exception as error:
            if refusal(error) is not Refusal.LATER or attempt >= len(RETRY_DELAYS):
                log.exception("tournament %s could not go on", tournament_id)
                return
            log.warning("tournament %s waits for Discord (%s)", tournament_id, error)
            task = asyncio.get_running_loop().create_task(self._later(tournament_id, attempt))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _later(self, tournament_id: int, attempt: int) -> None:
        await asyncio.sleep(RETRY_DELAYS[attempt])
        await self.advance(tournament_id, attempt + 1)

    async def _advance(self, tournament_id: int) -> None:
        """Under the tournament's lock, from its rows: start the round's tables not started, keep
        the result of each ended game, show the standings; once every table of the round is over,
        pair the next round (or end the tournament) and go on with it."""
        while True:
            tournament = await self.store.tournaments.tournament(tournament_id)
            if tournament is None or tournament.status != RUNNING:
                return
            entrants = await self.store.tournaments.entrants(tournament_id)
            by_number = {entrant.entrant: entrant for entrant in entrants}
            this_round = [
                x for x in await self.store.tournaments.tables(tournament_id) if x.round == tournament.round
            ]
            for table in this_round:
                if not table.is_bye:
                    await self._start(tournament, table, by_number)
            for table in this_round:
                if not table.over and table.game_id is not None:
                    await self._record(tournament, table)
            tables = await self.store.tournaments.tables(tournament_id)
            await self._show_standings(tournament, entrants, tables)
            if not all(x.over for x in tables if x.round == tournament.round):
                return
            plan = await self._next_round(tournament, entrants, tables)
            if plan is None:
                await self._finish(tournament, entrants, tables)
                return
            await self.store.tournaments.pair_round(tournament_id, tournament.round + 1, plan_tables(plan))
            if tournament.round == 1:
                await self._refresh_signup(replace(tournament, round=2), entrants)

    async def _start(
        self, tournament: TournamentRow, table: TableRow, entrants: Mapping[int, EntrantRow]
    ) -> None:
        """A table's start, step by step, each step saved before the next (see the module's docstring)."""
        if table.game_id is not None:
            row = await self.store.games.game(table.game_id)
            if row is not None and row.status != "lobby":
                return
        channel = await self.tables.publisher.channel(tournament.channel_id)
        if channel is None:
            raise GameError("tournament.error.channel_gone")
        starter = table.starter_message_id
        if starter is None:
            message = await channel.send(
                starter_text(tournament.locale, tournament, table, entrants),
                allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
                nonce=step_nonce(tournament, f"table:{table.round}:{table.number}"),
            )
            starter = message.id
            await self.store.tournaments.set_starter(tournament.id, table.round, table.number, starter)
        thread_id = table.thread_id
        if thread_id is None:
            try:
                thread = await channel.get_partial_message(starter).create_thread(
                    name=thread_name(tournament.locale, table)
                )
                thread_id = thread.id
            except discord.HTTPException as error:
                if error.code != THREAD_EXISTS:
                    raise
                # Made before a crash: a thread made from a message has the message's id.
                thread_id = starter
            await self.store.tournaments.set_thread(tournament.id, table.round, table.number, thread_id)
        seated = [
            (entrants[e].user_id, entrants[e].name, entrants[e].locale, entrants[e].robot)
            for e in table.entrants
        ]
        await start_table(
            self.tables, self.adapters[tournament.kind], TableGame(tournament, table, thread_id, seated)
        )

    async def _record(self, tournament: TournamentRow, table: TableRow) -> None:
        """The places of a table whose game ended: its winner first, then by totals; a seat whose
        player left with nobody in it last; a game closed early (aborted) by its totals alone."""
        assert table.game_id is not None
        row = await self.store.games.game(table.game_id)
        if row is None or row.status not in ("finished", "aborted"):
            return
        seats = await self.store.games.seats(table.game_id)
        winner = await self.store.tournaments.winner_seat(table.game_id)
        order = places(
            [seat.total for seat in seats],
            [seat.seat == winner for seat in seats],
            [seat.out for seat in seats],
        )
        await self.store.tournaments.table_over(
            tournament.id,
            table.round,
            table.number,
            order,
            [seat.total for seat in seats],
            [seat.stand_in is not None or seat.stood_in for seat in seats],
            closed=row.status == "aborted",
        )

    async def _next_round(
        self, tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[TableRow]
    ) -> RoundPlan | None:
        """The next round's tables and byes, paired off the event loop; None when the last round is
        over, or too few entrants are left to seat a table."""
        if tournament.round >= tournament.rounds:
            return None
        engine = self.adapters[tournament.kind].engine
        active = {entrant.entrant for entrant in entrants if entrant.dropped_round is None}
        if len(active) < engine.min_players:
            return None
        number = tournament.round + 1
        if tournament.format == ROUND_ROBIN and tournament.schedule is not None:
            planned = tournament.schedule[tournament.round]
            plan = RoundPlan(
                tuple(tuple(x) for x in planned if len(x) > 1), tuple(x[0] for x in planned if len(x) == 1)
            )
            return without_dropped(plan, active, engine.min_players)
        field = field_of(entrants, tables)
        return await asyncio.to_thread(
            swiss_round,
            number,
            field.entrants,
            active,
            field.tables,
            field.byes,
            tournament.seats,
            engine.min_players,
            tournament.seed,
        )

    async def _show_standings(
        self, tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[TableRow]
    ) -> None:
        """The round's standings message: posted once per round, edited in place as tables end; a
        message Discord will no longer edit (or gone) is posted anew."""
        channel = await self.tables.publisher.channel(tournament.channel_id)
        if channel is None:
            return
        embeds = standings_embeds(tournament.locale, tournament, entrants, tables)
        if tournament.standings_message_id is not None:
            try:
                await channel.get_partial_message(tournament.standings_message_id).edit(embeds=embeds)
                return
            except discord.HTTPException as error:
                if refusal(error) not in (Refusal.GONE, Refusal.POST_ANEW):
                    raise
        message = await channel.send(
            embeds=embeds,
            nonce=step_nonce(tournament, f"standings:{tournament.round}:{tournament.standings_message_id}"),
        )
        await self.store.tournaments.set_standings_message(tournament.id, message.id)

    async def _finish(
        self, tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[TableRow]
    ) -> None:
        """The final standings with their chart, drawn off the event loop, and a replay button for
        every table that was played to its end; then the tournament is over."""
        channel = await self.tables.publisher.channel(tournament.channel_id)
        final = replace(tournament, status="finished")
        if channel is not None:
            lang = tournament.locale
            embeds = standings_embeds(lang, final, entrants, tables)
            png = await asyncio.to_thread(charts.draw_scores, final_chart(lang, final, entrants, tables))
            embeds[0].set_image(url=f"attachment://{STANDINGS_CHART_FILE}")
            replays = [
                open_button(
                    table.game_id, t(lang, "tournament.replay_button", round=table.round, number=table.number)
                )
                for table in tables
                if table.game_id is not None and not table.closed and not table.is_bye
            ]
            chunks = [
                replays[i : i + BUTTONS_PER_MESSAGE] for i in range(0, len(replays), BUTTONS_PER_MESSAGE)
            ]
            field = field_of(entrants, tables)
            winner = field.names[current_standings(field, tournament.seats)[0].entrant]
            await channel.send(
                t(lang, "tournament.final", winner=winner),
                embeds=embeds,
                file=discord.File(io.BytesIO(png), filename=STANDINGS_CHART_FILE),
                view=component_view(chunks[0] if chunks else []),
                nonce=step_nonce(tournament, "final"),
            )
            for index, chunk in enumerate(chunks[1:], start=1):
                await channel.send(
                    t(lang, "tournament.more_replays"),
                    view=component_view(chunk),
                    nonce=step_nonce(tournament, f"final:{index}"),
                )
        await self.store.tournaments.finish(tournament.id)
        await self._refresh_signup(final, entrants)


def plan_tables(plan: RoundPlan) -> list[list[int]]:
    """A round's tables as the store keeps them, its byes last as tables of one."""
    return [list(table) for table in plan.tables] + [[entrant] for entrant in plan.byes]
