"""A tournament's rounds: each paired once, its tables started once, the standings kept up to date
as their games end, the next round paired when all are over, and the final standings at the end.

The database is the truth, as for a move. A round is paired once (its tables written with the
round in one transaction); each table then starts in steps, each recorded before the next: the
message its thread is made from (sent with a nonce: sent again after a crash, Discord keeps one),
the thread (Discord refuses a second thread on one message), the game (made and tied to its table
in one transaction, then dealt through the one path of every change: ``start_table``).
``Rounds.advance`` does whatever is due, from the rows alone, so a restart (``resume``) or a second
report of one game's end goes on from where things stand and repeats nothing.

A game's end reaches its tournament through ``Rounds.game_over``, which the table service calls
once the change that ends a game (finished, or aborted) is committed; the reaction runs in a task
of its own, under the tournament's lock, never under a game's. A crash between that commit and the
reaction loses nothing: ``Rounds.resume`` goes on from the rows at start.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import discord

from bot import charts, pairing, tournament_views
from bot.adapter import GameAdapter, component_view
from bot.i18n import t
from bot.model import ABORTED, LOBBY, GameRow, NewSeat
from bot.outbox import stable_nonce
from bot.pairing import ROUND_ROBIN, RoundPlan, without_dropped
from bot.planning import Pace
from bot.ratings import places
from bot.referee import Context, Deal, opening_seats
from bot.refusals import Refusal, refusal
from bot.replays import open_button
from bot.store.tournaments import RUNNING, EntrantRow, TableRow, TournamentRow, Tournaments
from bot.tables import ENDED, Nobody, TableService
from bot.tournament_views import (
    current_standings,
    field_of,
    final_chart,
    starter_text,
    thread_name,
)
from games.core import GameError

log = logging.getLogger(__name__)

# Discord's code for "a thread has already been created for this message".
THREAD_EXISTS = 160004
# Buttons a message holds (five rows of five): the final standings' replays come in messages of these.
BUTTONS_PER_MESSAGE = 25
STANDINGS_CHART_FILE = "standings.png"
# How long to wait before trying again a step Discord could not take (its servers, its limits).
RETRY_DELAYS = (5.0, 30.0, 120.0, 600.0, 1800.0, 3600.0)


def step_nonce(tournament: TournamentRow, step: str) -> str:
    """The nonce of one message a tournament posts (a table's call, a round's standings): the same
    whenever it is sent, before and after a restart (``stable_nonce``); the seed keeps a database
    made anew from reusing a recent one."""
    return stable_nonce("tournament", tournament.id, tournament.seed, step)


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
    seated: Sequence[NewSeat]  # by seat; a computer's with its level


async def start_table(
    tables: TableService, tournaments: Tournaments, adapter: GameAdapter, game: TableGame
) -> int:
    """Start a table's game once, whatever crash came before: made with its seats and tied to its
    table in one transaction (unless made before), then dealt by its host, the organiser, through
    the one path of every change (``TableService.act``: the deal committed with what it announces,
    then published). A game dealt already is left to the outbox, which delivers whatever a crash
    left pending."""
    tournament, table = game.tournament, game.table
    read = None
    if table.game_id is None:
        row = GameRow.opening(
            tournament.kind,
            tournament.guild_id,
            game.thread_id,
            tournament.organiser_id,
            dict(tournament.options),
            tournament.turn_timeout,
            tournament.locale,
            table_seed(tournament, table),
            dict(tournament.server_settings),
        )
        # Every entrant is named already (a computer too): no seat is added to them.
        seats = opening_seats(game.seated, (), adapter.engine.max_players, Context(0.0, Pace()))
        tie = tournaments.tie(tournament.id, table.round, table.number)
        game_id = await tables.open_table(row, seats, tie)
    else:
        game_id = table.game_id
        read = await tables.read(game_id)
        if read is None or read.game.status != LOBBY:
            return game_id
    await tables.act(game_id, Deal(tournament.organiser_id), Nobody(read))
    return game_id


# ---------------------------------------------------------------------- the rounds


class Rounds:
    """Runs the rounds of this process's shards' tournaments: given the table service (the games
    and their channels), the games' Discord sides, the tournaments' store once the bot has opened
    it, and what to call when the sign-up message must change (late entries closing, the end)."""

    def __init__(
        self,
        tables: TableService,
        adapters: Mapping[str, GameAdapter],
        store: Callable[[], Tournaments],
        signup_changed: Callable[[TournamentRow], Awaitable[None]],
    ) -> None:
        self.tables = tables
        self.adapters = adapters
        self._store = store
        self.signup_changed = signup_changed
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def store(self) -> Tournaments:
        return self._store()

    def lock(self, tournament_id: int) -> asyncio.Lock:
        """The tournament's lock: every change of its rows is made under it."""
        return self._locks[tournament_id]

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def game_over(self, game_id: int) -> None:
        """A game ended (its end is saved): if it is a tournament's table, the tournament goes on,
        in a task of its own (this is called under the game's lock)."""
        task = asyncio.get_running_loop().create_task(self._after_game(game_id), name=f"tournament-{game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _after_game(self, game_id: int) -> None:
        found = await self.store.of_game(game_id)
        if found is not None:
            await self.advance(found[0])

    async def resume(self) -> None:
        """At start-up: every running tournament of this process's shards goes on from its rows."""
        for tournament in await self.store.under_way():
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
            tournament = await self.store.tournament(tournament_id)
            if tournament is None or tournament.status != RUNNING:
                return
            entrants = await self.store.entrants(tournament_id)
            by_number = {entrant.entrant: entrant for entrant in entrants}
            this_round = [x for x in await self.store.tables(tournament_id) if x.round == tournament.round]
            for table in this_round:
                if not table.is_bye:
                    await self._start(tournament, table, by_number)
            for table in this_round:
                if not table.over and table.game_id is not None:
                    await self._record(tournament, table)
            tables = await self.store.tables(tournament_id)
            await self._show_standings(tournament, entrants, tables)
            if not all(x.over for x in tables if x.round == tournament.round):
                return
            plan = await self._next_round(tournament, entrants, tables)
            if plan is None:
                await self._finish(tournament, entrants, tables)
                return
            await self.store.pair_round(tournament_id, tournament.round + 1, plan_tables(plan))
            if tournament.round == 1:
                await self.signup_changed(replace(tournament, round=2))

    async def _start(
        self, tournament: TournamentRow, table: TableRow, entrants: Mapping[int, EntrantRow]
    ) -> None:
        """A table's start, step by step, each step saved before the next (see the module's
        docstring); a table whose game was made goes on from it (dealt, if a crash came first)."""
        thread_id = table.thread_id
        if table.game_id is None:
            thread_id = await self._thread(tournament, table, entrants)
        assert thread_id is not None  # a table's game is made in its thread
        seated = [
            NewSeat(entrants[e].user_id, entrants[e].name, entrants[e].locale, entrants[e].robot)
            for e in table.entrants
        ]
        adapter = self.adapters[tournament.kind]
        await start_table(self.tables, self.store, adapter, TableGame(tournament, table, thread_id, seated))

    async def _thread(
        self, tournament: TournamentRow, table: TableRow, entrants: Mapping[int, EntrantRow]
    ) -> int:
        """The table's thread, made from a message calling its players (each step once)."""
        channel = await self.tables.channel(tournament.channel_id)
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
            await self.store.set_starter(tournament.id, table.round, table.number, starter)
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
            await self.store.set_thread(tournament.id, table.round, table.number, thread_id)
        return thread_id

    async def _record(self, tournament: TournamentRow, table: TableRow) -> None:
        """The places of a table whose game ended: its winner first, then by totals; a seat whose
        player left with nobody in it last; a game closed early (aborted) by its totals alone."""
        assert table.game_id is not None
        game = await self.tables.read(table.game_id)
        if game is None or game.game.status not in ENDED:
            return
        seats = game.seats
        winner = await self.store.winner_seat(table.game_id)
        order = places(
            [seat.total for seat in seats],
            [seat.seat == winner for seat in seats],
            [seat.out for seat in seats],
        )
        await self.store.table_over(
            tournament.id,
            table.round,
            table.number,
            order,
            [seat.total for seat in seats],
            [seat.stand_in is not None or seat.stood_in for seat in seats],
            closed=game.game.status == ABORTED,
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
            pairing.swiss_round,
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
        channel = await self.tables.channel(tournament.channel_id)
        if channel is None:
            return
        # Off the event loop: the standings of a few hundred entrants take milliseconds to work out.
        embeds = await asyncio.to_thread(
            tournament_views.standings_embeds, tournament.locale, tournament, entrants, tables
        )
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
        await self.store.set_standings_message(tournament.id, message.id)

    async def _finish(
        self, tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[TableRow]
    ) -> None:
        """The final standings with their chart, drawn off the event loop, and a replay button for
        every table that was played to its end; then the tournament is over."""
        channel = await self.tables.channel(tournament.channel_id)
        final = replace(tournament, status="finished")
        if channel is not None:
            lang = tournament.locale
            embeds = await asyncio.to_thread(tournament_views.standings_embeds, lang, final, entrants, tables)
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
        await self.store.finish(tournament.id)
        await self.signup_changed(final)


def plan_tables(plan: RoundPlan) -> list[list[int]]:
    """A round's tables as the store keeps them, its byes last as tables of one."""
    return [list(table) for table in plan.tables] + [[entrant] for entrant in plan.byes]
