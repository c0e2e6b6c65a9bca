"""Running games: every move takes one path.

parse -> take the game's lock -> load from the database -> apply -> commit, with what the move
must announce (the outbox) -> answer -> deliver the announcements. Memory holds nothing but
locks; every step reads the state the database has.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, Protocol

import discord

from bot import community, metrics, standins
from bot.adapter import ClickRead, GameAdapter, Links, LoadedGame, Rendered, drawn_at
from bot.clicks import GameLock, OutOfDate, check_fresh
from bot.config import Settings
from bot.i18n import duration_text, language_of, t
from bot.outbox import Publication
from bot.publisher import DeliveryDeferred, Messenger, Publisher, refusal_logged
from bot.refusals import due_for_repost
from bot.replies import language, reply
from bot.store import Commit, GameRow, Pending, Snapshot, StaleVersion, Store, TimerRow
from bot.timers import ROBOT_MOVE, changed_decisions, decision_key, plan_robot_moves, plan_timers
from games.core import BACK, LEAVE, STAND_IN, Event, GameError

log = logging.getLogger(__name__)


# How long to wait before trying again announcements Discord could not take (its servers failed,
# or the network): soon, then less and less often, for about three hours in all.
RETRY_DELAYS = (5.0, 30.0, 120.0, 600.0, 1800.0, 3600.0, 3600.0)


class Timers(Protocol):
    """The timers' loop (``bot.timers.TimerService``), woken when a move writes new timers."""

    def poke(self, earliest: float | None = None) -> None: ...


class TableService:
    """Runs the games: given the games it knows, the settings and a way to send, then the store
    and the timers' wake-up once the bot has opened them (``open``)."""

    def __init__(
        self,
        adapters: Mapping[str, GameAdapter],
        settings: Settings,
        messenger: Messenger,
        after_delivery: Callable[[], None] | None = None,
    ) -> None:
        self.adapters = adapters
        self.settings = settings
        self.publisher = Publisher(messenger, self.now, after_delivery)
        self.links = Links(settings.discord_links)
        self._locks: defaultdict[int, GameLock] = defaultdict(GameLock)
        self._retries: dict[int, asyncio.Task[None]] = {}
        self._store: Store | None = None
        self._timers: Timers | None = None

    def open(self, store: Store, timers: Timers) -> None:
        """The store to play from, and the timers to wake when a move writes new ones."""
        self._store, self._timers = store, timers
        self.publisher.open(store)

    def close(self) -> None:
        """Stop trying again what Discord could not take: it stays pending, for the next start."""
        for task in self._retries.values():
            task.cancel()

    def poke_timers(self, earliest: float | None = None) -> None:
        if self._timers is not None:
            self._timers.poke(earliest)

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the table service plays from a store: open it first")
        return self._store

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()

    def lock(self, game_id: int) -> GameLock:
        return self._locks[game_id]

    def plan(
        self,
        table: LoadedGame,
        previous: Sequence[TimerRow],
        changed: Iterable[int],
        now: float,
        events: Sequence[Event] = (),
    ) -> list[tuple[int, str, str, float]]:
        """Every timer the game needs now: people's reminders and expiries, computers' moves
        (held while the move's ``events`` must stay in view, see ``view_hold``)."""
        game, robots = table.game, table.robots
        people = {seat: actions for seat, actions in game.required_to_act().items() if seat not in robots}
        kept = table.row.server_settings
        pause = community.computer_pause(kept, self.settings.robot_pause)
        return plan_timers(
            people, previous, table.row.turn_timeout, now, community.reminder_share(kept)
        ) + plan_robot_moves(
            game.to_act(), robots, changed, previous, pause, now, self.view_hold(table, events)
        )

    def view_hold(self, table: LoadedGame, events: Sequence[Event]) -> float:
        """How long the computers wait, from the move's commit, so that every person at the table
        has its outcome in view (``GameAdapter.kept_in_view``): the table message is edited right
        after the commit, its picture drawn with the move. No wait with no person to see it."""
        shown = any(event.key in table.adapter.kept_in_view for event in events)
        watched = any(not seat.gone and not seat.played_by_computer for seat in table.seats)
        return self.settings.view_pause if shown and watched else 0.0

    @staticmethod
    async def render(table: LoadedGame, draw: Callable[..., Rendered], *args: Any) -> Rendered:
        """A panel's picture, drawn as the publisher draws (``Publisher.render``)."""
        return await Publisher.render(table, draw, *args)

    # ------------------------------------------------------------------ loading

    async def read(self, game_id: int) -> tuple[Snapshot | None, ClickRead | None]:
        """A click's read of its game, before the game's lock; with it, when the lock was free as
        the read began, what lets the click's move, or its panel, use it (``ClickRead``)."""
        lock = self._locks.get(game_id)
        free, taken = lock is None or not lock.locked(), lock.taken if lock is not None else 0
        snapshot = await self.store.games.snapshot(game_id)
        return snapshot, ClickRead(snapshot, taken) if free and snapshot is not None else None

    async def load(
        self, game_id: int, *, finished_too: bool = False, read: ClickRead | None = None
    ) -> LoadedGame:
        """The game as it stands, to be shown: from the click's ``read`` when this process has
        written nothing of it since (``_unwritten_since``), as a panel's first step does."""
        if read is not None and self._unwritten_since(read, game_id, locked=False):
            read.table = self._table(read.snapshot, finished_too)
            return read.table
        return self._table(await self.store.games.snapshot(game_id), finished_too)

    async def load_to_move(self, game_id: int, read: ClickRead | None = None) -> LoadedGame:
        """Under the game's lock, before a move: the game, once anything a crash left undelivered
        is delivered (one read when nothing was, as nearly always). The click's ``read`` is
        played from when nothing can have written the game since, and no read is made.

        Nothing can have, when the game owed nothing (every write of a delivery comes before
        its publication is deleted) and nobody took the game's lock since the read began (it
        was free then): this process writes a running game's rows under its lock alone. Another
        process, sharing the database during a restart, takes no lock of ours: its moves are
        stopped by the commit's version check (see ``act``), as they are after a read under the
        lock; its other writes (a timer dropped) can land between a read and the commit either
        way."""
        if read is not None and self._unwritten_since(read, game_id, locked=True):
            read.table = self._table(read.snapshot)
            return read.table
        snapshot = await self.store.games.snapshot(game_id)
        if snapshot is not None and snapshot.pending:
            await self._deliver_all_pending(snapshot.pending)
            snapshot = await self.store.games.snapshot(game_id)
        return self._table(snapshot)

    def _unwritten_since(self, read: ClickRead, game_id: int, *, locked: bool) -> bool:
        """Whether the click's ``read``, not yet made a table of (one table a read: a table's
        game is changed by a move), is still the game as this process wrote it: nobody took the
        game's lock since it began but the caller, if ``locked`` (see ``load_to_move``)."""
        snapshot = read.snapshot
        lock = self._locks.get(game_id)
        taken = lock.taken if lock is not None else 0
        return (
            read.table is None
            and snapshot.game.id == game_id
            and not snapshot.pending
            and taken == read.taken + locked
        )

    def _table(self, snapshot: Snapshot | None, finished_too: bool = False) -> LoadedGame:
        statuses = ("running", "finished") if finished_too else ("running",)
        if snapshot is None or snapshot.game.status not in statuses or snapshot.game.state is None:
            raise GameError("error.game_not_running")
        row, adapter = snapshot.game, self.adapters[snapshot.game.kind]
        game = adapter.engine.from_json(snapshot.game.state)
        return LoadedGame(row, snapshot.seats, game, adapter, timers=snapshot.timers, links=self.links)

    async def load_player(
        self, game_id: int, user_id: int, read: ClickRead | None = None
    ) -> tuple[LoadedGame, int]:
        """The game (from the click's ``read``, see ``load``) and the seat of the user acting in
        it; refused for anyone not playing."""
        table = await self.load(game_id, read=read)
        seat = table.seat_of(user_id)
        if seat is None:
            raise GameError("error.not_a_player")
        return table, seat

    async def game_in_channel(self, channel_id: int | None, kind: str | None = None) -> GameRow:
        row = await self.store.games.open_game_in(channel_id or 0)
        if row is None or (kind is not None and row.kind != kind):
            raise GameError("error.no_game_here")
        return row

    # ------------------------------------------------------------------ the one path

    async def act(
        self,
        interaction: discord.Interaction,
        game_id: int,
        action: Mapping[str, Any] | Callable[[LoadedGame, int], Mapping[str, Any]],
        answer: Callable[[LoadedGame, list[Event]], Awaitable[None]] | None = None,
        *,
        read: ClickRead | None = None,
        seen: int | None = None,
    ) -> None:
        """Play a move for the user behind ``interaction``; ``action`` may be built from the loaded
        table. A click's move plays from its ``read`` when it can (``load_to_move``), and is refused
        when its player's decision changed since the version ``seen`` (``check_fresh``)."""
        async with self.seated(interaction, game_id, read) as (table, seat):
            try:
                publication = await self._move(table, seat, action, language(interaction), seen)
            except OutOfDate:
                if read is None or read.table is not table or table.row is not read.snapshot.game:
                    raise
                # Another process moved the game after the click's read: read it again and
                # move from there, as if the click had come after its move.
                table = await self.load_to_move(game_id)
                seat = self._seat_of(table, interaction)
                publication = await self._move(table, seat, action, language(interaction), seen)
            # What the answer shows next (a panel's next step) answers the decision the move opened.
            drawn_at.set(table.row.version)
            shown = await self._answer_with_table(interaction, table, publication)
            if shown is False:
                # The refused answer read the picture's file: the delivery draws the table again.
                publication = replace(publication, pictures=self._hands_only(publication))
            if answer is not None:
                await answer(table, publication.events)
            elif shown or not interaction.response.is_done():
                await reply(interaction, t(language(interaction), "common.done"))
            await self.deliver(table, publication, table_shown=bool(shown))

    async def _answer_with_table(
        self, interaction: discord.Interaction, table: LoadedGame, publication: Publication
    ) -> bool | None:
        """Answer a click on the table message with the table's own update, the move shown: an
        interaction response (or the edit of a deferred one), which Discord does not count against
        the bot's global limit, where the table's edit by the delivery is counted. What the click
        otherwise answers comes after it, as a follow-up. Not for a table due to be posted anew.
        True once shown; None if not tried; False if Discord refused it."""
        message, response = interaction.message, interaction.response
        picture = publication.pictures.get((table.row.version, None))
        deferred_update = response.type is discord.InteractionResponseType.deferred_message_update
        if (
            picture is None
            or message is None
            or message.id != table.row.message_id
            or (response.is_done() and not deferred_update)
            or due_for_repost(message.id, self.now())
        ):
            return None
        if table.game.finished:
            picture.items = []
        body: dict[str, Any] = {
            "content": None,
            "embeds": picture.embeds,
            "attachments": [picture.file] if picture.file else [],
            "view": picture.view(),
        }
        try:
            if response.is_done():
                await interaction.edit_original_response(**body)
            else:
                await response.edit_message(**body)
        except discord.HTTPException as error:
            log.info("table of game %s not shown by the click's answer (%s)", table.row.id, error)
            return False
        return True

    @staticmethod
    def _hands_only(publication: Publication) -> dict[tuple[int, int | None], Rendered]:
        return {key: picture for key, picture in publication.pictures.items() if key[1] is not None}

    async def _move(
        self,
        table: LoadedGame,
        seat: int,
        action: Mapping[str, Any] | Callable[[LoadedGame, int], Mapping[str, Any]],
        lang: str,
        seen: int | None,
    ) -> Publication:
        """The user's move from ``table``: checked (drawn at ``seen``), played and committed
        (``act``); a refusal names cards and tiles as the game's lines do, in ``lang``."""
        # A move of a player a computer stands in for gives them their seat back first.
        await self.come_back(table, seat)
        # A click queued behind another move acts only if its player still faces what they saw.
        check_fresh(table.seats[seat], seen)
        try:
            move = action(table, seat) if callable(action) else action
            return await self.apply(table, seat, move, by_timeout=False)
        except GameError as error:
            table.adapter.name_codes(error, table.viewer(seat, lang))
            raise

    @staticmethod
    def _seat_of(table: LoadedGame, interaction: discord.Interaction) -> int:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise GameError("error.not_a_player")
        return seat

    @asynccontextmanager
    async def seated(
        self, interaction: discord.Interaction, game_id: int, read: ClickRead | None = None
    ) -> AsyncIterator[tuple[LoadedGame, int]]:
        """Under the game's lock, once what is pending is delivered: the game (from the click's
        ``read`` when it can be, see ``load_to_move``) and the seat of the user behind
        ``interaction``; refused for anyone not playing."""
        lock = self.lock(game_id)
        if lock.locked() and not interaction.response.is_done():
            # Another move is being published: acknowledge now rather than miss Discord's 3 seconds.
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        async with lock:
            table = await self.load_to_move(game_id, read)
            yield table, self._seat_of(table, interaction)

    async def apply(
        self,
        table: LoadedGame,
        seat: int,
        action: Mapping[str, Any],
        *,
        by_timeout: bool,
        prefix: str = "",
        told: Sequence[Event] = (),
    ) -> Publication:
        """Apply and commit, with what the move must publish (its events, then ``told``); the engine
        leaves the state untouched when it refuses."""
        game = table.game
        deciding, waited_for = game.to_act(), game.required_to_act()
        hands_before = self._hands(table)
        now = self.now()

        def move() -> tuple[Publication, Commit, LoadedGame]:
            events = [*table.play(seat, action), *told]
            hands_after = self._hands(table)
            changed_hands = tuple(who for who, hand in hands_after.items() if hands_before.get(who) != hand)
            # A seat that timed out did not look at the table: it is called like anyone else.
            publication = Publication(
                events, waited_for, prefix, actor=None if by_timeout else seat, hands_changed=changed_hands
            )
            kind = action.get("type")
            left = kind == LEAVE or (kind == STAND_IN and bool(action.get("left")))
            # Who plays a seat changing is no move in the game: the seat's open decision stays as drawn.
            handing_over = kind in (STAND_IN, BACK)
            changed = changed_decisions(deciding, game.to_act(), None if handing_over else seat)
            change = Commit(
                seat=seat,
                action=dict(action),
                state=game.to_json(),
                totals=game.totals(),
                timers=self.plan(table, table.timers, changed, now, events),
                by_timeout=by_timeout,
                finished=game.finished,
                winner=game.winner(),
                gone=[seat] if left else [],
                changed_decisions=changed,
                publication=publication.to_json(),
                robot_states={robot_seat: robot.to_json() for robot_seat, robot in table.robots.items()},
                round_ended=table.adapter.ends_round(events),
                feats=table.adapter.feats(events),
                stand_ins={seat: str(action["level"])} if kind == STAND_IN else {},
                back=[seat] if kind == BACK else [],
                stand_in_name=t(language_of(table.row.locale), standins.NAME, name="{name}"),
                rated=community.rated(table.row.server_settings, table.seats),
            )
            after = self._committed(table, change)
            return replace(publication, pictures=self.publisher.draw_ahead(after, publication)), change, after

        # In a thread: a Rummikub play may search for a while, and other channels go on meanwhile;
        # the pictures its publication shows are drawn there too, in the same trip.
        publication, change, after = await asyncio.to_thread(move)
        try:
            await self.store.games.commit(table.row, change, now)
        except StaleVersion:
            # Its pictures were drawn for nothing (rare: another process moved the game first).
            raise OutOfDate from None
        table.row, table.seats, table.timers = after.row, after.seats, after.timers
        metrics.move()
        self.poke_timers(min((due_at for *_, due_at in change.timers), default=None))
        return publication

    @staticmethod
    def _committed(table: LoadedGame, change: Commit) -> LoadedGame:
        """The table as committing ``change`` leaves it (at the version the commit gives)."""
        version = table.row.version + 1
        status = "finished" if change.finished else "running"
        row = replace(table.row, version=version, state=change.state, status=status)
        timers = [TimerRow(row.id, *timer) for timer in change.timers]
        return replace(table, row=row, seats=change.seats_after(table.seats, version), timers=timers)

    @staticmethod
    def _hands(table: LoadedGame) -> dict[int, object]:
        """What each person holds (see Game.hand)."""
        return {
            seat.seat: table.game.hand(seat.seat)
            for seat in table.seats
            if not seat.gone and not seat.is_robot
        }

    # ------------------------------------------------------------------ publishing

    async def deliver_pending(self) -> None:
        """At start-up: deliver what a crash left undelivered.

        Each game's publications are read again under its lock: a timer or a click may have
        delivered them meanwhile (and moved on), and a publication read before would be sent again,
        told against a later state.
        """
        for game_id in dict.fromkeys(pending.game_id for pending in await self.store.outbox.pending()):
            async with self.lock(game_id):
                snapshot = await self.store.games.snapshot(game_id)
                await self._deliver_all_pending(snapshot.pending if snapshot is not None else ())

    async def _deliver_all_pending(self, pendings: Sequence[Pending]) -> bool:
        """A game's pending publications, in order, under its lock; False if Discord could not
        take one now (it and the later ones are tried again later)."""
        for pending in pendings:
            if not await self._deliver_pending(pending):
                return False
        return True

    async def _deliver_pending(self, pending: Pending) -> bool:
        """One pending publication; False if Discord could not take it now. One that fails
        otherwise is given up, logged, rather than hold its game up (every later move would try
        it first)."""
        try:
            table = await self.load(pending.game_id, finished_too=True)
        except GameError:  # aborted since: nothing left to tell
            await self.store.outbox.delivered(pending)
            return True
        try:
            await self.publisher.deliver(table, Publication.from_json(pending.publication), pending)
        except DeliveryDeferred:
            self._deferred(pending.game_id)
            return False
        except Exception:
            log.exception("announcements of game %s version %s given up", pending.game_id, pending.version)
            await self.store.outbox.delivered(pending)
        return True

    def _deferred(self, game_id: int) -> None:
        """Announcements Discord could not take now: try the game's pending ones again later."""
        log.warning("announcements of game %s deferred: Discord did not take them", game_id, exc_info=True)
        if game_id not in self._retries:
            self._retries[game_id] = asyncio.create_task(self._retry(game_id), name=f"retry-{game_id}")

    async def _retry(self, game_id: int) -> None:
        try:
            for delay in RETRY_DELAYS:
                await asyncio.sleep(delay)
                async with self.lock(game_id):
                    snapshot = await self.store.games.snapshot(game_id)
                    pendings = snapshot.pending if snapshot is not None else ()
                    if await self._deliver_all_pending(pendings):
                        return
            log.error("announcements of game %s still pending after %d tries", game_id, len(RETRY_DELAYS))
        except Exception:
            log.exception("could not try the announcements of game %s again", game_id)
        finally:
            del self._retries[game_id]

    async def deliver(
        self,
        table: LoadedGame,
        publication: Publication,
        pending: Pending | None = None,
        *,
        table_shown: bool = False,
    ) -> None:
        """``Publisher.deliver``, after a move: should Discord not take a part now, the publication stays
        pending and is tried again later (the move itself is saved and answered). With
        ``table_shown``, the click's answer showed the table already (``_answer_with_table``)."""
        try:
            await self.publisher.deliver(table, publication, pending, table_shown=table_shown)
        except DeliveryDeferred:
            self._deferred(table.row.id)

    # ------------------------------------------------------------------ seats handed back

    async def come_back(self, table: LoadedGame, seat: int) -> None:
        """Under the lock: if a computer stands in for ``seat``'s person, they take the seat again."""
        if standins.away(table.seats[seat]):
            await self.deliver(table, await self.hand_back(table, seat))

    async def hand_back(self, table: LoadedGame, seat: int) -> Publication:
        """The computer standing in for ``seat``'s person gets up; their hand comes by DM again."""
        told = standins.back_events(table.seats[seat])
        return await self.apply(table, seat, standins.back(), by_timeout=False, told=told)

    # ------------------------------------------------------------------ timers

    async def fire(self, timer: TimerRow) -> None:
        """A reminder, an expiry or a computer's move came due; stale timers are dropped quietly.
        One whose firing fails is logged and dropped, still under the game's lock, where every
        write of this process to a running game's rows is made (see ``GameLock``)."""
        async with self.lock(timer.game_id):
            try:
                await self._fired(timer)
            except Exception:
                log.exception("timer %s failed; dropping it", timer)
                await self.store.timers.drop_timer(timer)

    async def _fired(self, timer: TimerRow) -> None:
        try:
            table = await self.load_to_move(timer.game_id)
        except GameError:
            await self.store.timers.drop_timer(timer)
            return
        deciding = table.game.to_act() if timer.kind == ROBOT_MOVE else table.game.required_to_act()
        actions = deciding.get(timer.seat)
        # A timer taken just before a seat changed hands is for whoever played it then.
        computers_timer = (timer.kind == ROBOT_MOVE) == (timer.seat in table.robots)
        if actions is None or decision_key(actions) != timer.decision or not computers_timer:
            await self.store.timers.drop_timer(timer)
            return
        viewer = table.viewer()
        if timer.kind == ROBOT_MOVE:
            await self._robot_move(table, timer.seat)
            return
        if timer.kind == "remind":
            share = community.reminder_share(table.row.server_settings)
            left = duration_text(viewer.language, round(table.row.turn_timeout * (1 - share)))
            channel = await self.publisher.channel(table.row.channel_id)
            if channel is not None:
                try:
                    with refusal_logged("reminder of game %s not posted", table.row.id):
                        await channel.send(
                            viewer.t(
                                # "Half your time is gone" says it all at the default share.
                                "common.reminder"
                                if share == community.DEFAULT_REMINDER / 100
                                else "settings.reminder",
                                mention=table.mention(timer.seat),
                                left=left,
                                table=table.link(viewer.language),
                            ),
                            allowed_mentions=discord.AllowedMentions(users=True),
                        )
                except DeliveryDeferred:
                    # Discord could not take it now (its limits, its servers): it comes shortly.
                    log.warning("reminder of game %s deferred", table.row.id)
                    await self.store.timers.postpone_timer(timer, self.now() + RETRY_DELAYS[0])
                    self.poke_timers()
                    return
            await self.store.timers.drop_timer(timer)
            return
        if standins.enabled(table.row.options) and await self._timed_out_again(table, timer.seat):
            # A computer plays this seat's moves, at its pace, until its player acts again.
            seat = table.seats[timer.seat]
            action = standins.stand_in(standins.level(table.seats), left=False)
            told = standins.away_events(seat)
            publication = await self.apply(table, timer.seat, action, by_timeout=True, told=told)
        else:
            action = table.game.default_action(timer.seat)
            prefix = viewer.t("common.timed_out", name=table.names[timer.seat])
            publication = await self.apply(table, timer.seat, action, by_timeout=True, prefix=prefix)
        await self.deliver(table, publication)

    async def _timed_out_again(self, table: LoadedGame, seat: int) -> bool:
        """Whether the turn running out now is the seat's second in a row to run out."""
        moves = await self.store.games.moves_since_own(table.row.id, seat)
        return standins.turns_timed_out(moves, seat) >= standins.TIMED_OUT_TURNS

    async def _robot_move(self, table: LoadedGame, seat: int) -> None:
        """A computer decides from its seat's view, off the event loop, and its move takes the
        path of any other. Should it ever fail, the referee's default move is played instead, so
        a computer never holds a game up."""
        view = table.game.view(seat)
        try:
            action = await asyncio.to_thread(table.robots[seat].decide, view)
            publication = await self.apply(table, seat, action, by_timeout=False)
        except Exception:
            log.exception("computer of game %s seat %s failed; playing the default move", table.row.id, seat)
            table = await self.load(table.row.id)
            publication = await self.apply(table, seat, table.game.default_action(seat), by_timeout=False)
        await self.deliver(table, publication)
