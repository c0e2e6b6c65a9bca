"""Running games: every change a game makes takes one path.

take the game's lock -> load (from the asker's own read when it can) -> the referee rules
(``bot.referee``, pure) -> one commit per ruling (state, log, outbox, timers) -> answer the asker
-> publish (``bot.publisher``). The deal, moves, leaving, coming back, stand-ins, reminders,
timeouts, aborts and a lobby's seats all take it; memory holds nothing but locks.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, Protocol

import discord

from bot import metrics, referee, standins
from bot.adapter import GameAdapter, GameOrLobby, Links, LoadedGame, Rendered, as_loaded, loaded
from bot.clicks import OutOfDate
from bot.clock import AWAY_WINDOW, Span
from bot.config import Settings
from bot.i18n import language_of, t
from bot.lobby_message import computer_name
from bot.model import ABORTED, FINISHED, Commit, GameRow, LobbyChange, Publication, SeatRow
from bot.planning import EXPIRE, Pace
from bot.publisher import GameChannel, Messenger, Pictures, Publisher
from bot.referee import Context, Due, Order
from bot.store import Snapshot, StaleVersion, Store, TimerRow
from bot.store.games import Tie
from bot.timekeeping import away_allowance
from bot.traffic import Traffic
from games.core import Event, GameError

log = logging.getLogger(__name__)

# A game's statuses once it ended: the change that sets one is its last.
ENDED = (FINISHED, ABORTED)


class Timers(Protocol):
    """The timers' loop (``bot.timers.TimerService``), woken when a change writes new timers."""

    def poke(self, earliest: float | None = None) -> None: ...


@dataclass
class Outcome:
    """What a change did, for its asker's answer: the game as it left it, every event, and the
    kept message (table or lobby) drawn with it, when it was."""

    table: GameOrLobby
    events: list[Event]
    picture: Rendered | None = None


class Asker(Protocol):
    """Who asked for a change, and how they are answered: an interaction's, or nobody (a timer)."""

    # The game as read when the ask arrived: the change is made from it, when it can be.
    read: Snapshot | None

    def check(self, snapshot: Snapshot) -> None:
        """Refuse an ask made for a decision that is no longer open (a click's version)."""

    async def waiting(self) -> None:
        """The game's lock is taken: acknowledge now rather than miss Discord's 3 seconds."""

    async def answer(self, outcome: Outcome) -> int | None:
        """Answer, once the change is saved; the id of the kept message if the answer showed it."""

    def refused(self, table: GameOrLobby, error: GameError) -> None:
        """A refusal, worded for the asker (its cards and tiles named as the game names them)."""


@dataclass
class Nobody:
    """A timer's ask: nobody to answer."""

    read: Snapshot | None = field(default=None)

    def check(self, snapshot: Snapshot) -> None:
        return None

    async def waiting(self) -> None:
        return None

    async def answer(self, outcome: Outcome) -> int | None:
        return None

    def refused(self, table: GameOrLobby, error: GameError) -> None:
        return None


class Made(NamedTuple):
    """A ruling's change, and the game as it leaves it, as its messages show it."""

    change: Commit | LobbyChange
    after: GameOrLobby

    @property
    def publication(self) -> Publication:
        return self.change.publication


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
        self.links = Links(settings.discord_links)
        self.pace = Pace(settings.robot_pause, settings.view_pause)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.traffic = Traffic()
        self.publisher = Publisher(
            messenger, self.now, adapters, self.links, self.lock, after_delivery, self.traffic
        )
        self._store: Store | None = None
        self._timers: Timers | None = None
        self._game_ended: Callable[[int], None] | None = None

    def open(self, store: Store, timers: Timers, game_ended: Callable[[int], None] | None = None) -> None:
        """The store to play from, the timers to wake when a change writes new ones, and who is
        told the id of each game whose end (finished or aborted) was just saved: a tournament's
        table goes on (it must not wait: it is told under the game's lock)."""
        self._store, self._timers, self._game_ended = store, timers, game_ended
        self.publisher.open(store)

    def close(self) -> None:
        """Stop trying again what Discord could not take: it stays pending, for the next start."""
        self.publisher.close()

    async def resume(self) -> None:
        """At start-up, once the channels are known: the messages under each table counted, and
        what a crash left undelivered, delivered."""
        for channel_id, message_id in await self.store.games.kept_messages():
            self.traffic.watch(channel_id, message_id)
        await self.publisher.deliver_pending()

    async def message_posted(self, channel_id: int, message_id: int) -> None:
        """A message was posted in a channel: one more under its game's table, if it has one
        (saved every few, see ``bot.traffic``)."""
        count = self.traffic.posted(channel_id, message_id)
        if count:
            await self.store.games.count_messages(channel_id, count, message_id)

    async def running_count(self) -> int:
        """How many running games this process's shards hold."""
        return await self.store.games.running_count()

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the table service plays from a store: open it first")
        return self._store

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks[game_id]

    # ------------------------------------------------------------------ reading

    async def read(self, game_id: int) -> Snapshot | None:
        """A click's read of its game, before the game's lock: its change is made from it."""
        return await self.store.games.snapshot(game_id)

    async def load(
        self, game_id: int, *, read: Snapshot | None = None, finished_too: bool = False
    ) -> LoadedGame:
        """The game as it stands (a click's ``read`` of it, when given), to be shown."""
        snapshot = read or await self.store.games.snapshot(game_id)
        table = loaded(snapshot, self.adapters, self.links) if snapshot is not None else None
        statuses = ("running", "finished") if finished_too else ("running",)
        if not isinstance(table, LoadedGame) or table.row.status not in statuses:
            raise GameError("error.game_not_running")
        return table

    async def game_in_channel(self, channel_id: int | None, kind: str | None = None) -> GameRow:
        row = await self.store.games.open_game_in(channel_id or 0)
        if row is None or (kind is not None and row.kind != kind):
            raise GameError("error.no_game_here")
        return row

    # ------------------------------------------------------------------ the one path

    async def act(self, game_id: int, order: Order, asker: Asker | None = None) -> bool:
        """Carry ``order`` out on the game: under its lock, from the asker's read of it when
        nothing moved it since (else it is read again, as if asked now), ruled, committed,
        answered, then published. False when there was nothing to do."""
        asker = asker or Nobody()
        lock = self.lock(game_id)
        # An ask that waits for another change is made from the game as that change leaves it.
        waits = lock.locked()
        if waits:
            await asker.waiting()
        async with lock:
            made, pictures = await self._ruled(game_id, order, asker, None if waits else asker.read)
            if not made:
                return False
            last = made[-1].after
            events = [event for change in made for event in change.publication.events]
            outcome = Outcome(last, events, pictures.get((last.row.version, None)))
            await self._answered(asker, outcome, pictures, *made)
        return True

    async def _answered(self, asker: Asker, outcome: Outcome, pictures: Pictures, *made: Made) -> None:
        """Answer the asker, then publish each ruling (the kept message not again if the answer
        showed it; drawn again if the answer spent its picture in vain)."""
        shown = await asker.answer(outcome)
        table = outcome.table
        if shown is not None and shown != table.row.message_id:
            await self.store.games.set_message(table.row.id, shown)
            table.row = replace(table.row, message_id=shown)
        if outcome.picture is None:
            pictures = {key: picture for key, picture in pictures.items() if key[1] is not None}
        for change in made:
            await self.publisher.deliver(
                change.after, change.publication, pictures=pictures, shown=shown is not None
            )

    async def _ruled(
        self, game_id: int, order: Order, asker: Asker, read: Snapshot | None
    ) -> tuple[list[Made], Pictures]:
        """The rulings, committed, and their pictures: from ``read``, or, when another process
        moved the game after it, from a new one (once)."""
        for attempt in (1, 2):
            snapshot = read if read is not None else await self.store.games.snapshot(game_id)
            if snapshot is None:
                raise GameError("error.game_not_running")
            snapshot = await self.publisher.settled(snapshot)
            if snapshot is not asker.read:
                # Not the read the ask was checked on as it arrived: it is checked now, as if it came now.
                asker.check(snapshot)
            table = loaded(snapshot, self.adapters, self.links)
            before = table.row  # the referee plays on ``table``: its row ends as the last change leaves it
            try:
                # In a thread: a Rummikub play may search for a while, and other channels go on meanwhile;
                # the pictures the change shows are drawn in the same trip.
                made, pictures = await asyncio.to_thread(self._rule, table, order)
            except GameError as error:
                asker.refused(table, error)
                raise
            try:
                await self._commit(before, made)
            except StaleVersion:
                if attempt == 2:
                    raise OutOfDate from None
                read = None
                continue
            return made, pictures
        raise AssertionError("unreachable")

    def _rule(self, table: GameOrLobby, order: Order) -> tuple[list[Made], Pictures]:
        """The referee's rulings, with the games they leave as messages show them, and their
        pictures (drawn in the same trip to a thread)."""
        lang = language_of(table.row.locale)
        context = Context(self.now(), self.pace, t(lang, standins.NAME, name="{name}"), computer_name(lang))
        rulings = referee.rule(table, order, context)
        made = [Made(ruling.change, as_loaded(ruling.after, self.links)) for ruling in rulings]
        pictures: dict[tuple[int, int | None], Rendered] = {}
        for change in made:
            pictures.update(self.publisher.draw_ahead(change.after, change.publication))
        return made, pictures

    async def _commit(self, row: GameRow, made: Sequence[Made]) -> None:
        """Each ruling's change, in order, each from the version the one before left."""
        now = self.now()
        for change in made:
            if isinstance(change.change, Commit):
                await self.store.games.commit(row, change.change, now)
                if change.change.logged is not None:
                    metrics.move()
            else:
                await self.store.games.commit_lobby(row, change.change, now)
            row = change.after.row
            if row.status in ENDED and self._game_ended is not None:
                self._game_ended(row.id)
        if self._timers is not None:
            due = [
                at for change in made if isinstance(change.change, Commit) for *_, at in change.change.timers
            ]
            self._timers.poke(min(due, default=None))

    # ------------------------------------------------------------------ lobbies

    async def open_lobby(self, row: GameRow, seats: Sequence[SeatRow], asker: Asker) -> int:
        """A new lobby (``row`` as it is to be; its id the database's) with its seats, saved with
        its announcement, then posted as the asker's answer when it can be, else in its channel;
        ChannelBusy if the channel already has an open game."""
        game_id = await self.store.games.create_lobby(row, seats, Publication(), self.now())
        async with self.lock(game_id):
            snapshot = await self.store.games.snapshot(game_id)
            if snapshot is None or snapshot.game.status != "lobby":  # aborted meanwhile
                raise GameError("error.game_not_running")
            lobby = loaded(snapshot, self.adapters, self.links)
            opened = Made(LobbyChange(Publication(), lobby.seats), lobby)
            pictures = await asyncio.to_thread(self.publisher.draw_ahead, lobby, opened.publication)
            await self._answered(asker, Outcome(lobby, [], pictures.get((0, None))), pictures, opened)
        return game_id

    async def open_table(self, row: GameRow, seats: Sequence[SeatRow], tie: Tie) -> int:
        """A game to be dealt at once by its host (a tournament's table): ``row`` with its seats
        (computers alone may play it), announcing nothing until its deal, and another concern's
        row tied to it (``tie``), in one transaction; its id."""
        return await self.store.games.create_lobby(row, seats, None, self.now(), tie)

    # ------------------------------------------------------------------ timers

    async def fire(self, timer: TimerRow) -> None:
        """A reminder, an expiry or a computer's move came due: the referee says what it does
        (nothing, for a timer whose decision has passed, which is dropped). One whose firing
        fails is logged and dropped."""
        try:
            order = await expiry(self.store, timer, self.now()) if timer.kind == EXPIRE else Due(timer)
            if await self.act(timer.game_id, order):
                return  # its change planned the timers that follow
        except GameError:
            pass  # the game is over, or no longer this timer's
        except Exception:
            log.exception("timer %s failed; dropping it", timer)
        await self.store.timers.drop_timer(timer)

    # ------------------------------------------------------------------ drawing

    @staticmethod
    async def render(draw: Callable[..., Rendered], *args: Any) -> Rendered:
        """A panel's picture, drawn off the event loop."""
        return await Publisher.render(draw, *args)

    async def channel(self, channel_id: int) -> GameChannel | None:
        """A channel games are played in (a tournament's, a table's thread); None out of reach."""
        return await self.publisher.channel(channel_id)

    def answered(self, interaction: discord.Interaction) -> None:
        """A click is answered: when the answer updated the public message it was on, its token
        edits that message from now on, uncounted (``bot.click_tokens``)."""
        self.publisher.tokens.hold(interaction)

    async def forget_dm_closed(self, user_id: int) -> None:
        """The player looks at their hand, or joins a game: their DMs are tried again."""
        await self.store.games.forget_dm_closed(user_id)


async def expiry(store: Store, timer: TimerRow, now: float) -> Due:
    """An expiry, with what the referee needs to know besides its game: how many of the seat's
    turns in a row ran out, and its player's away days (one is used first, if any is left)."""
    moves = await store.games.moves_since_own(timer.game_id, timer.seat)
    spans, games = await store.community.away_of_seat(timer.game_id, timer.seat, now - AWAY_WINDOW)
    away = tuple(Span(*span) for span in spans)
    return Due(timer, standins.turns_timed_out(moves, timer.seat), away, away_allowance(None, games))
