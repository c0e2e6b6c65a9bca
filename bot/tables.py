"""Running games: every move takes one path.

parse -> take the game's lock -> load from the database -> apply -> commit, with what the move
must announce (the outbox) -> answer -> deliver the announcements. Memory holds nothing but
locks; every step reads the state the database has.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

import discord

from bot import community, metrics, standins
from bot.adapter import GameAdapter, Links, Rendered, Table, component_view, drawn_at, game_button
from bot.config import Settings
from bot.i18n import duration_text, language_of, t
from bot.records import ResultsChart, score_chart
from bot.refusals import CANNOT_DM, Refusal, due_for_repost, refusal, retire, transient
from bot.replays import match_animation
from bot.replies import language, reply
from bot.replies import replace as replace_panel
from bot.store import Commit, GameRow, Pending, Score, SeatRow, Snapshot, StaleVersion, Store, TimerRow
from games.core import BACK, LEAVE, STAND_IN, Event, GameError

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
# The outbox part naming a publication's channel message (DMs are "dm:<seat>").
CHANNEL_PART = "channel"
# The outbox part naming the score chart, added to the channel message by an edit once drawn.
CHART_PART = "chart"
# The timer kind of a computer's move.
ROBOT_MOVE = "robot"
# The outbox part naming the table message when it is posted anew (see ``_post_table``).
TABLE_PART = "table"
# The buttons of the question ``/<game> abort`` asks.
ABORT = "abort"
KEEP_PLAYING = "keep"


@dataclass(frozen=True)
class Drawing:
    """A picture to draw off the event loop: ``draw(*args)`` (see ``TableService.render_all``)."""

    draw: Callable[..., Rendered]
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Publication:
    """What players must be told after a committed move; saved in the outbox with the move.

    It is delivered from the state committed with it (the game's lock keeps any later move
    waiting until it is delivered), so it holds only what that state cannot tell: the events,
    who had to decide before, and the channel line's prefix.
    """

    events: list[Event]
    before: Mapping[int, frozenset[str]]
    prefix: str = ""
    show_hands: bool = False
    actor: int | None = None
    # Seats whose hand the move changed (see Game.hand): each is sent the new one.
    hands_changed: tuple[int, ...] = ()
    # The pictures it shows, drawn with the move (``TableService._draw_ahead``), by the version
    # drawn at and whose they are (None: the table). Never saved: one delivered after a restart
    # draws its own.
    pictures: Mapping[tuple[int, int | None], Rendered] = field(
        default_factory=dict, compare=False, repr=False
    )

    def to_json(self) -> dict[str, Any]:
        return {
            "events": [
                {"key": e.key, "params": e.params, "seats": None if e.seats is None else list(e.seats)}
                for e in self.events
            ],
            "before": {str(seat): sorted(actions) for seat, actions in self.before.items()},
            "prefix": self.prefix,
            "show_hands": self.show_hands,
            "actor": self.actor,
            "hands_changed": list(self.hands_changed),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Publication:
        return cls(
            events=[
                Event(e["key"], e["params"], None if e["seats"] is None else tuple(e["seats"]))
                for e in data["events"]
            ],
            before={int(seat): frozenset(actions) for seat, actions in data["before"].items()},
            prefix=data["prefix"],
            show_hands=data["show_hands"],
            actor=data["actor"],
            hands_changed=tuple(data.get("hands_changed", ())),
        )


def changed_decisions(
    before: Mapping[int, frozenset[str]], after: Mapping[int, frozenset[str]], actor: int | None
) -> list[int]:
    """Seats whose open decision began, ended or changed with this move: a click made before it
    is stale for them. A seat still facing the very decision it faced (a simultaneous reveal while
    others choose) keeps it; the seat that moved never does.
    """
    seats = set(before) | set(after) | ({actor} if actor is not None else set())
    return sorted(seat for seat in seats if seat == actor or before.get(seat) != after.get(seat))


def decision_key(actions: frozenset[str]) -> str:
    return ",".join(sorted(actions))


def plan_timers(
    to_act: Mapping[int, frozenset[str]],
    previous: Sequence[TimerRow],
    timeout: int,
    now: float,
    reminder_share: float = 0.5,
) -> list[tuple[int, str, str, float]]:
    """A reminder after the share ``reminder_share`` of the turn (none at 0) and an expiry per
    deciding seat.

    A seat still facing the same decision keeps its deadline (a simultaneous reveal does
    not restart the clock of those who have not chosen yet); a reminder already sent is
    not sent again.
    """
    kept = {(timer.seat, timer.kind): timer for timer in previous}
    planned: list[tuple[int, str, str, float]] = []
    for seat, actions in sorted(to_act.items()):
        decision = decision_key(actions)
        expiry = kept.get((seat, "expire"))
        if expiry is not None and expiry.decision == decision:
            planned.append((seat, "expire", decision, expiry.due_at))
            reminder = kept.get((seat, "remind"))
            if reminder is not None:
                planned.append((seat, "remind", decision, reminder.due_at))
        else:
            if reminder_share:
                planned.append((seat, "remind", decision, now + timeout * reminder_share))
            planned.append((seat, "expire", decision, now + timeout))
    return planned


class OutOfDate(GameError):
    """The commit was refused: the game moved on since it was read (see ``StaleVersion``)."""

    def __init__(self) -> None:
        super().__init__("error.out_of_date")


class GameLock(asyncio.Lock):
    """A game's lock, counting the times it was taken. Every write of this process to a running
    game's rows is made under it: a read made while it was free, if nobody has taken it since, still shows
    what this process has written of the game (see ``ClickRead``)."""

    def __init__(self) -> None:
        super().__init__()
        self.taken = 0

    async def acquire(self) -> Literal[True]:
        await super().acquire()
        self.taken += 1
        return True


@dataclass
class ClickRead:
    """A click's read of its game, made before the game's lock (``TableService.read``): its move
    plays from it, or its panel shows it, when nothing can have written the game since
    (``TableService.load_to_move``, ``TableService.load``)."""

    snapshot: Snapshot
    # How many times the game's lock had been taken when the read began (it was free then).
    taken: int
    # The table made of it, once one was (by the click's move, or its panel).
    table: Table | None = None


# The read of the click being handled, set around its adapter's work (see ``GameBot.on_game_component``).
click_read: ContextVar[ClickRead | None] = ContextVar("click_read", default=None)


class TableMovedOn(GameError):
    """A click made for a decision that is no longer open: the player is shown the table again."""

    def __init__(self) -> None:
        super().__init__("error.table_moved_on")


def check_fresh(seat: SeatRow) -> None:
    """Refuse a click drawn before its player's decision last changed (see ``drawn_at``)."""
    seen = drawn_at.get()
    if seen is not None and seen < seat.decision_since:
        raise TableMovedOn


def check_origin(interaction: discord.Interaction, row: GameRow, *, private: bool) -> None:
    """A game is played from its own channel; with ``private``, also from a player's own DMs
    (whose player the seat lookup then checks). Another server or channel never reaches it."""
    if interaction.guild_id is None:
        if private:
            return
    elif interaction.guild_id == row.guild_id and interaction.channel_id == row.channel_id:
        return
    raise GameError("error.wrong_channel")


def plan_robot_moves(
    to_act: Mapping[int, frozenset[str]],
    robots: Iterable[int],
    changed: Iterable[int],
    previous: Sequence[TimerRow],
    pause: float,
    now: float,
    hold: float = 0.0,
) -> list[tuple[int, str, str, float]]:
    """A move timer per computer seat with a decision open, after a pause so people can follow;
    a computer whose decision did not change keeps the time it had. None is due before ``hold``
    seconds from now: what the move showed stays in view that long (``GameAdapter.kept_in_view``)."""
    kept = {timer.seat: timer for timer in previous if timer.kind == ROBOT_MOVE}
    changed = set(changed)
    planned = []
    for seat in sorted(set(robots) & set(to_act)):
        decision = decision_key(to_act[seat])
        timer = kept.get(seat)
        keep = timer is not None and seat not in changed and timer.decision == decision
        due_at = timer.due_at if keep and timer else now + pause
        planned.append((seat, ROBOT_MOVE, decision, max(due_at, now + hold)))
    return planned


@dataclass(frozen=True)
class TableRepost:
    """The table being posted anew by a publication, recorded in its outbox parts before the post
    (``table:<old message id>``, and ``:gone`` when it was deleted): a delivery after a crash
    resumes it rather than edit the old message again."""

    old: int | None
    gone: bool = False

    def part(self) -> str:
        return f"{TABLE_PART}:{self.old or ''}" + (":gone" if self.gone else "")

    @classmethod
    def begun(cls, pending: Pending) -> TableRepost | None:
        prefix = f"{TABLE_PART}:"
        part = next((part for part in pending.delivered if part.startswith(prefix)), None)
        if part is None:
            return None
        old, _, gone = part.removeprefix(prefix).partition(":")
        return cls(int(old) if old else None, gone=bool(gone))


def part_nonce(row: GameRow, pending: Pending, part: str) -> str:
    """The nonce of one part of a publication: the same whenever the part is sent, before and after
    a restart, so Discord (which discord.py asks to enforce nonces) keeps only one message of a
    part sent again after a crash came between sending it and marking it sent. The game's random
    seed keeps a database made anew (same ids, same versions) from reusing a recent nonce.
    Discord's nonces are at most 25 characters: a 24-digit hexadecimal digest."""
    key = f"{pending.game_id}:{row.seed}:{pending.version}:{part}".encode()
    return hashlib.blake2b(key, digest_size=12).hexdigest()


# How long a player's DMs found closed (50007) are not tried again; their hand button, or joining
# a game, tries them at once.
DM_CLOSED_FOR = 6 * 3600.0


def dm_closed_recently(seat: SeatRow, now: float) -> bool:
    return seat.dm_closed_at is not None and now - seat.dm_closed_at < DM_CLOSED_FOR


# How long to wait before trying again announcements Discord could not take (its servers failed,
# or the network): soon, then less and less often, for about three hours in all.
RETRY_DELAYS = (5.0, 30.0, 120.0, 600.0, 1800.0, 3600.0, 3600.0)


class DeliveryDeferred(Exception):
    """Discord could not take a part of a publication now: the publication stays pending, the
    parts already sent marked, and is tried again later (``RETRY_DELAYS``)."""


@contextmanager
def refusal_logged(message: str, *args: object) -> Iterator[None]:
    """Around a send: Discord's refusal (a deleted channel, a lost permission, closed DMs) is
    logged and the publication goes on without it; a failure of Discord's defers the publication."""
    try:
        yield
    except Exception as error:
        if transient(error):
            raise DeliveryDeferred from error
        if not isinstance(error, discord.HTTPException):
            raise
        log.warning(message, *args, exc_info=True)


def truncate(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# The channels a game is played in: each sends, and points at one of its messages to edit it.
GameChannel = (
    discord.TextChannel
    | discord.Thread
    | discord.VoiceChannel
    | discord.StageChannel
    | discord.DMChannel
    | discord.PartialMessageable
)


class Messenger(Protocol):
    """How the service reaches Discord's channels and DMs: the client (or SimCord's)."""

    def get_channel(self, id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


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
        self.messenger = messenger
        # Told once each delivery is done: a page that shows channels by itself redraws then.
        self.after_delivery = after_delivery
        self.links = Links(settings.discord_links)
        self._locks: defaultdict[int, GameLock] = defaultdict(GameLock)
        self._retries: dict[int, asyncio.Task[None]] = {}
        self._store: Store | None = None
        self._timers: Timers | None = None

    def open(self, store: Store, timers: Timers) -> None:
        """The store to play from, and the timers to wake when a move writes new ones."""
        self._store, self._timers = store, timers

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
        table: Table,
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

    def view_hold(self, table: Table, events: Sequence[Event]) -> float:
        """How long the computers wait, from the move's commit, so that every person at the table
        has its outcome in view (``GameAdapter.kept_in_view``): the table message is edited right
        after the commit, its picture drawn with the move. No wait with no person to see it."""
        shown = any(event.key in table.adapter.kept_in_view for event in events)
        watched = any(not seat.gone and not seat.played_by_computer for seat in table.seats)
        return self.settings.view_pause if shown and watched else 0.0

    async def begin(self, row: GameRow, seats: list[SeatRow], adapter: GameAdapter) -> Publication:
        """Deal and save the running game with its timers and what its deal must announce; or
        the finished match, results and ratings included, when the deal itself decided it."""
        game, events = adapter.engine.begin(len(seats), row.options, row.seed)
        robots = {
            seat.seat: adapter.robot(seat.robot, row.seed * 16 + seat.seat) for seat in seats if seat.robot
        }
        table = Table(
            replace(row, status="running", version=1), seats, game, adapter, robots, links=self.links
        )
        publication = Publication(events, {}, show_hands=True)
        now = self.now()
        dealt = Score(
            game.totals(),
            game.finished,
            game.winner(),
            adapter.ends_round(events),
            adapter.feats(events),
            rated=community.rated(row.server_settings, seats),
        )
        await self.store.start(
            row.id,
            game.to_json(),
            self.plan(table, [], range(len(seats)), now),
            publication.to_json(),
            {seat: robot.to_json() for seat, robot in robots.items()},
            dealt=dealt,
            now=now,
        )
        self.poke_timers()
        return publication

    @staticmethod
    async def render(table: Table, draw: Callable[..., Rendered], *args: Any) -> Rendered:
        """Draw off the event loop, the components stamped with the version the picture shows."""
        (rendered,) = await TableService.render_all(table, [Drawing(draw, args)])
        return rendered

    @staticmethod
    async def render_all(table: Table, drawings: Sequence[Drawing]) -> list[Rendered]:
        """Several pictures drawn in one trip to a thread (one wake-up of the loop, not one each),
        in order, the components stamped as ``render`` stamps them."""

        def stamped() -> list[Rendered]:
            drawn_at.set(table.row.version)
            return [drawing.draw(*drawing.args) for drawing in drawings]

        # to_thread runs ``stamped`` in a copy of this context: the stamp does not leak out.
        return await asyncio.to_thread(stamped)

    @staticmethod
    def check_click(interaction: discord.Interaction, snapshot: Snapshot) -> None:
        """Before a panel opens: refuse a click from a table the player has seen move on."""
        if snapshot.game.status != "running":
            return
        seat = next((s for s in snapshot.seats if s.user_id == interaction.user.id), None)
        if seat is not None:
            check_fresh(seat)

    # ------------------------------------------------------------------ loading

    async def read(self, game_id: int) -> tuple[Snapshot | None, ClickRead | None]:
        """A click's read of its game, before the game's lock; with it, when the lock was free as
        the read began, what lets the click's move, or its panel, use it (``ClickRead``)."""
        lock = self._locks.get(game_id)
        free, taken = lock is None or not lock.locked(), lock.taken if lock is not None else 0
        snapshot = await self.store.snapshot(game_id)
        return snapshot, ClickRead(snapshot, taken) if free and snapshot is not None else None

    async def load(self, game_id: int, *, finished_too: bool = False) -> Table:
        """The game as it stands, to be shown: from the click's read when this process has written
        nothing of it since (``_unwritten_since``), as a panel's first step does."""
        read = click_read.get()
        if read is not None and self._unwritten_since(read, game_id, locked=False):
            read.table = self._table(read.snapshot, finished_too)
            return read.table
        return self._table(await self.store.snapshot(game_id), finished_too)

    async def load_to_move(self, game_id: int, read: ClickRead | None = None) -> Table:
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
        snapshot = await self.store.snapshot(game_id)
        if snapshot is not None and snapshot.pending:
            await self._deliver_all_pending(snapshot.pending)
            snapshot = await self.store.snapshot(game_id)
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

    def _table(self, snapshot: Snapshot | None, finished_too: bool = False) -> Table:
        statuses = ("running", "finished") if finished_too else ("running",)
        if snapshot is None or snapshot.game.status not in statuses or snapshot.game.state is None:
            raise GameError("error.game_not_running")
        row, adapter = snapshot.game, self.adapters[snapshot.game.kind]
        game = adapter.engine.from_json(snapshot.game.state)
        return Table(row, snapshot.seats, game, adapter, timers=snapshot.timers, links=self.links)

    async def load_player(self, game_id: int, user_id: int) -> tuple[Table, int]:
        """The game and the seat of the user acting in it; refused for anyone not playing."""
        table = await self.load(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise GameError("error.not_a_player")
        return table, seat

    async def game_in_channel(self, channel_id: int | None, kind: str | None = None) -> GameRow:
        row = await self.store.open_game_in(channel_id or 0)
        if row is None or (kind is not None and row.kind != kind):
            raise GameError("error.no_game_here")
        return row

    # ------------------------------------------------------------------ the one path

    async def act(
        self,
        interaction: discord.Interaction,
        game_id: int,
        action: Mapping[str, Any] | Callable[[Table, int], Mapping[str, Any]],
        answer: Callable[[Table, list[Event]], Awaitable[None]] | None = None,
    ) -> None:
        """Play a move for the user behind ``interaction``; ``action`` may be built from the loaded table."""
        read = click_read.get()
        async with self.seated(interaction, game_id, read) as (table, seat):
            try:
                publication = await self._move(table, seat, action, language(interaction))
            except OutOfDate:
                if read is None or read.table is not table or table.row is not read.snapshot.game:
                    raise
                # Another process moved the game after the click's read: read it again and
                # move from there, as if the click had come after its move.
                table = await self.load_to_move(game_id)
                seat = self._seat_of(table, interaction)
                publication = await self._move(table, seat, action, language(interaction))
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
        self, interaction: discord.Interaction, table: Table, publication: Publication
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
        table: Table,
        seat: int,
        action: Mapping[str, Any] | Callable[[Table, int], Mapping[str, Any]],
        lang: str,
    ) -> Publication:
        """The user's move from ``table``: checked, played and committed (``act``); a refusal
        names cards and tiles as the game's lines do, in ``lang``."""
        # A move of a player a computer stands in for gives them their seat back first.
        await self._come_back(table, seat)
        # A click queued behind another move acts only if its player still faces what they saw.
        check_fresh(table.seats[seat])
        try:
            move = action(table, seat) if callable(action) else action
            return await self._apply(table, seat, move, by_timeout=False)
        except GameError as error:
            table.adapter.name_codes(error, table.viewer(seat, lang))
            raise

    @staticmethod
    def _seat_of(table: Table, interaction: discord.Interaction) -> int:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise GameError("error.not_a_player")
        return seat

    @asynccontextmanager
    async def seated(
        self, interaction: discord.Interaction, game_id: int, read: ClickRead | None = None
    ) -> AsyncIterator[tuple[Table, int]]:
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

    async def _apply(
        self,
        table: Table,
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

        def move() -> tuple[Publication, Commit, Table]:
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
            return replace(publication, pictures=self._draw_ahead(after, publication)), change, after

        # In a thread: a Rummikub play may search for a while, and other channels go on meanwhile;
        # the pictures its publication shows are drawn there too, in the same trip.
        publication, change, after = await asyncio.to_thread(move)
        try:
            await self.store.commit(table.row, change, now)
        except StaleVersion:
            # Its pictures were drawn for nothing (rare: another process moved the game first).
            raise OutOfDate from None
        table.row, table.seats, table.timers = after.row, after.seats, after.timers
        metrics.move()
        self.poke_timers(min((due_at for *_, due_at in change.timers), default=None))
        return publication

    @staticmethod
    def _committed(table: Table, change: Commit) -> Table:
        """The table as committing ``change`` leaves it (at the version the commit gives)."""
        version = table.row.version + 1
        status = "finished" if change.finished else "running"
        row = replace(table.row, version=version, state=change.state, status=status)
        timers = [TimerRow(row.id, *timer) for timer in change.timers]
        return replace(table, row=row, seats=change.seats_after(table.seats, version), timers=timers)

    def _draw_ahead(self, table: Table, publication: Publication) -> dict[tuple[int, int | None], Rendered]:
        """In the move's thread, from ``table`` as its commit will leave it: the pictures
        ``_deliver`` shows when nothing of the publication is delivered yet (after every move
        but a restart's), the components stamped with the version the commit gives."""
        nothing_yet = Pending(table.row.id, table.row.version, {}, frozenset())
        try:
            called = self._called(table, publication)
            told = self._private_lines(table, publication.events, called, publication, nothing_yet)
            version = table.row.version
            drawn_at.set(version)
            drawings = {who: self._drawing(table, who) for who in (None, *told)}
            return {(version, who): drawing.draw(*drawing.args) for who, drawing in drawings.items()}
        except Exception:
            # Never a reason to refuse the move: the publication draws them, or fails, as it would.
            log.exception("pictures of game %s not drawn with its move", table.row.id)
            return {}

    @staticmethod
    def _hands(table: Table) -> dict[int, object]:
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
        for game_id in dict.fromkeys(pending.game_id for pending in await self.store.pending()):
            async with self.lock(game_id):
                snapshot = await self.store.snapshot(game_id)
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
            await self.store.delivered(pending)
            return True
        try:
            await self._deliver(table, Publication.from_json(pending.publication), pending)
        except DeliveryDeferred:
            self._deferred(pending.game_id)
            return False
        except Exception:
            log.exception("announcements of game %s version %s given up", pending.game_id, pending.version)
            await self.store.delivered(pending)
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
                    snapshot = await self.store.snapshot(game_id)
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
        table: Table,
        publication: Publication,
        pending: Pending | None = None,
        *,
        table_shown: bool = False,
    ) -> None:
        """``_deliver``, after a move: should Discord not take a part now, the publication stays
        pending and is tried again later (the move itself is saved and answered). With
        ``table_shown``, the click's answer showed the table already (``_answer_with_table``)."""
        try:
            await self._deliver(table, publication, pending, table_shown=table_shown)
        except DeliveryDeferred:
            self._deferred(table.row.id)

    async def _deliver(
        self,
        table: Table,
        publication: Publication,
        pending: Pending | None = None,
        *,
        table_shown: bool = False,
    ) -> None:
        """Tell everyone what happened: the table, the channel, and each player privately.

        Each part that must not be sent twice is marked in the outbox once sent; the table edit
        can be done again harmlessly. Seats with a new decision are called, except the actor, who
        has just played and is looking at the table (a turn of several steps would call them at
        each step).
        """
        if pending is None:
            pending = Pending(table.row.id, table.row.version, {}, frozenset())
        channel_viewer = table.viewer()
        events = publication.events
        lines = [publication.prefix] if publication.prefix else []
        lines += [
            line
            for event in events
            if event.seats is None
            if (line := table.adapter.describe(event, channel_viewer))
        ]
        embeds = [
            embed
            for event in events
            if event.seats is None
            if (embed := table.adapter.results(event, channel_viewer))
        ]
        # The chart's numbers are read now (the message keeps room for it); it is drawn last.
        chart = None
        if CHART_PART not in pending.delivered:
            chart = await score_chart(self.store, table, events, channel_viewer)
        if chart is not None:
            chart.make_room(embeds)
        newly = self._called(table, publication)
        told = self._private_lines(table, events, newly, publication, pending)
        hands = await self._pictures(table, publication, [*([] if table_shown else [None]), *told])
        if not table_shown:
            # The table first: every line and link below points to it, should it be posted anew.
            table_picture, *hands = hands
            posted_at = table.row.message_id
            pending = await self.refresh_table(table, table_picture, pending)
            if table.row.message_id != posted_at:
                told = self._private_lines(table, events, newly, publication, pending)
        if newly:
            mentions = ", ".join(table.mention(seat) for seat in newly)
            lines.append(
                t(
                    channel_viewer.language,
                    "common.your_move",
                    mentions=mentions,
                    table=table.link(channel_viewer.language),
                )
            )
        channel = await self.channel(table.row.channel_id)
        if channel is not None and (lines or embeds) and CHANNEL_PART not in pending.delivered:
            view = None
            if table.game.finished:
                rematch = t(channel_viewer.language, "common.rematch")
                view = component_view(
                    [
                        game_button(
                            table.row.id, "rematch", rematch, style=discord.ButtonStyle.success, emoji="🔁"
                        )
                    ]
                )
            elif standins.announces_away(events):
                back = t(channel_viewer.language, "standins.back")
                view = component_view([game_button(table.row.id, BACK, back, emoji="👋")])
            message = await self._send_safely(
                channel,
                truncate("\n".join(lines)) if lines else None,
                embeds=embeds[:10],
                view=view,
                allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
                nonce=part_nonce(table.row, pending, CHANNEL_PART),
            )
            if chart is not None or table.game.finished:
                # Where the chart goes, should a crash leave it undelivered: saved before the mark.
                results_id = message.id if message is not None else None
                await self.store.set_results_message(table.row.id, results_id)
                table.row = replace(table.row, results_message_id=results_id)
            # The last part sent needs no mark: deleting the publication right after says it all.
            if told or chart is not None:
                pending = await self.store.mark_delivered(pending, CHANNEL_PART)
        last = next(reversed(told), None)
        for (seat, private), hand in zip(told.items(), hands, strict=True):
            part = f"dm:{seat}"
            nonce = part_nonce(table.row, pending, part)
            await self.direct_message(table, table.seats[seat], "\n".join(private), hand, nonce)
            if seat != last or chart is not None:
                pending = await self.store.mark_delivered(pending, part)
        if chart is not None and channel is not None and table.row.results_message_id is not None:
            animation = await self._animation(table) if table.game.finished else None
            await self._add_chart(channel, table.row.results_message_id, chart, embeds, animation)
        await self.store.delivered(pending)
        if self.after_delivery is not None:
            self.after_delivery()

    async def _add_chart(
        self,
        channel: GameChannel,
        message_id: int,
        chart: ResultsChart,
        embeds: list[discord.Embed],
        animation: discord.File | None = None,
    ) -> None:
        """Edit the results message to show the chart, and the match's animation when it ended
        (``refusal_logged``)."""
        files = [await chart.draw(embeds), *([animation] if animation is not None else [])]
        with refusal_logged("could not add the chart to message %s", message_id):
            await channel.get_partial_message(message_id).edit(embeds=embeds[:10], attachments=files)

    async def _animation(self, table: Table) -> discord.File | None:
        """The finished match's table, round by round (``match_animation``): never a reason to
        hold its results up."""
        try:
            return await match_animation(
                self.store,
                table.adapter,
                table.row,
                table.seats,
                table.game.to_json(),
                language_of(table.row.locale),
            )
        except Exception:
            log.exception("no animation for the results of game %s", table.row.id)
            return None

    async def _send_safely(
        self, channel: discord.abc.Messageable, content: str | None, **kwargs: Any
    ) -> discord.Message | None:
        """Send to the channel; None if Discord refused (``refusal_logged``)."""
        with refusal_logged("could not post in channel %s", getattr(channel, "id", "?")):
            return await channel.send(content, **kwargs)
        return None

    async def refresh_table(self, table: Table, rendered: Rendered, pending: Pending) -> Pending:
        """Show ``rendered`` on the table message (``_refresh_table``); a refusal that posting anew
        cannot get round (a lost permission) is logged, and the next move draws the table again;
        one of Discord's failures defers the publication (``refusal_logged``)."""
        with refusal_logged("could not show the table of game %s", table.row.id):
            return await self._refresh_table(table, rendered, pending)
        return pending

    @classmethod
    def _drawing(cls, table: Table, whose: int | None) -> Drawing:
        """The table (None), or the hand of seat ``whose``."""
        return cls._table_drawing(table) if whose is None else cls._hand_drawing(table, whose)

    @staticmethod
    def _table_drawing(table: Table) -> Drawing:
        return Drawing(table.adapter.table, (table.game.view(None), table.viewer(), table.row.id))

    @staticmethod
    def _hand_drawing(table: Table, seat: int) -> Drawing:
        """The seat's hand as its DM shows it, in its player's language."""
        viewer = table.viewer(seat, language_of(table.seats[seat].locale))
        return Drawing(table.adapter.hand, (table.game.view(seat), viewer, table.row.id))

    async def _refresh_table(self, table: Table, rendered: Rendered, pending: Pending) -> Pending:
        """Edit the one table message in place; or post the table anew at the bottom of the
        channel, when it was deleted, when Discord refuses its edit (30046, the cap on edits of a
        message older than an hour, and the like), or before it would (``due_for_repost``)."""
        if table.game.finished:
            rendered.items = []
        if TABLE_PART in pending.delivered:  # posted anew for this publication already
            return pending
        channel = await self.channel(table.row.channel_id)
        if channel is None:
            return pending
        repost = TableRepost.begun(pending)
        if repost is None:
            old, gone = table.row.message_id, False
            if old is not None and due_for_repost(old, self.now()):
                log.info("table of game %s posted anew: its message is old", table.row.id)
            elif old is not None:
                try:
                    await channel.get_partial_message(old).edit(
                        content=None,
                        embeds=rendered.embeds,
                        attachments=[rendered.file] if rendered.file else [],
                        view=rendered.view(),
                    )
                    return pending
                except discord.HTTPException as error:
                    if refusal(error) not in (Refusal.GONE, Refusal.POST_ANEW):
                        raise
                    log.info("table of game %s posted anew: its edit was refused (%s)", table.row.id, error)
                    gone = refusal(error) is Refusal.GONE
                # The picture's file was read by the refused edit.
                (rendered,) = await self.render_all(table, [self._table_drawing(table)])
                if table.game.finished:
                    rendered.items = []
            repost = TableRepost(old, gone)
            # Decided before posting: a crash after it resumes this repost, never edits the old one.
            pending = await self.store.mark_delivered(pending, repost.part())
        return await self._post_table(channel, table, rendered, pending, repost)

    async def _post_table(
        self,
        channel: discord.abc.Messageable,
        table: Table,
        rendered: Rendered,
        pending: Pending,
        repost: TableRepost,
    ) -> Pending:
        """Post the table at the bottom of the channel, exactly once for this publication: a post
        sent again after a crash carries the same nonce (Discord answers it with the message it
        made), and one already saved is not sent again. The old message is retired once the new
        one is saved; from then on every line, link and stale click points to the new one."""
        if table.row.message_id in (repost.old, None):  # the new table is not saved yet
            kwargs: dict[str, Any] = {"embeds": rendered.embeds, "view": rendered.view()}
            if rendered.file is not None:
                kwargs["file"] = rendered.file
            message = await channel.send(nonce=part_nonce(table.row, pending, TABLE_PART), **kwargs)
            await self.store.set_message(table.row.id, message.id)
            table.row = replace(table.row, message_id=message.id)
        if repost.old is not None and not repost.gone:
            pointer = t(
                language_of(table.row.locale),
                "common.table_moved",
                table=table.link(language_of(table.row.locale)),
            )
            await retire(channel, repost.old, pointer)
        return await self.store.mark_delivered(pending, TABLE_PART)

    @staticmethod
    def _called(table: Table, publication: Publication) -> list[int]:
        """The people the move gave a decision they did not face, but its actor."""
        return [
            seat
            for seat, actions in sorted(table.game.required_to_act().items())
            if publication.before.get(seat) != actions
            and seat != publication.actor
            and seat not in table.robots
        ]

    async def _pictures(
        self, table: Table, publication: Publication, whose: Sequence[int | None]
    ) -> list[Rendered]:
        """The table's picture (None) and the hands of the seats ``whose`` names: those drawn with
        the move, and the others (all of them after a restart) drawn now, in one trip to a thread."""
        drawn = {who: publication.pictures.get((table.row.version, who)) for who in whose}
        missing = [who for who, rendered in drawn.items() if rendered is None]
        if missing:
            rendered = await self.render_all(table, [self._drawing(table, who) for who in missing])
            drawn.update(zip(missing, rendered, strict=True))
        return [picture for who in whose if (picture := drawn[who]) is not None]

    @staticmethod
    def _private_lines(
        table: Table, events: list[Event], newly: Sequence[int], publication: Publication, pending: Pending
    ) -> dict[int, list[str]]:
        """The players to DM, each with their lines: a DM only when their hand changed (the channel
        line already calls whoever must move), and never one already sent."""
        show_hands = publication.show_hands
        private: dict[int, list[str]] = defaultdict(list)
        for event in events:
            for seat in event.seats or ():
                line = table.adapter.describe(event, table.viewer(seat, table.seats[seat].locale))
                if line:
                    private[seat].append(line)
        told: dict[int, list[str]] = {}
        for seat_row in table.seats:
            seat = seat_row.seat
            # A player who keeps their hand to the hand button gets no DM.
            if not seat_row.dm_hand or seat_row.gone or seat_row.played_by_computer:
                continue
            if f"dm:{seat}" in pending.delivered:
                continue
            if show_hands or seat in private or seat in publication.hands_changed:
                told[seat] = private.get(seat, [])
                if seat in newly:
                    viewer = table.viewer(seat, language_of(seat_row.locale))
                    told[seat].append(viewer.t("common.dm_your_move", url=table.jump_url()))
        return told

    async def direct_message(
        self, table: Table, seat: SeatRow, text: str, hand: Rendered, nonce: str | None = None
    ) -> None:
        """DM a player their hand; if their DMs are closed (50007, and only that), say so once in
        the channel and carry on. DMs found closed are not tried again for a while
        (``DM_CLOSED_FOR``): Discord counts every refusal towards a ban of the bot. Its limits
        (40003, opening DMs too fast; 429) and failures defer the publication: the hand comes later."""
        if not dm_closed_recently(seat, self.now()) and await self._send_dm(seat, text, hand, nonce):
            return
        if not seat.dm_notice_sent:
            await self.store.mark_dm_notice(table.row.id, seat.seat)
            channel = await self.channel(table.row.channel_id)
            if channel is not None:
                mention = f"<@{seat.user_id}>"
                await self._send_safely(
                    channel,
                    t(language_of(table.row.locale), table.adapter.dm_closed_key, mention=mention),
                    allowed_mentions=discord.AllowedMentions(users=True),
                )

    async def _send_dm(self, seat: SeatRow, text: str, hand: Rendered, nonce: str | None) -> bool:
        """Send the DM; False if the player's DMs are closed (remembered, see ``direct_message``)."""
        kwargs: dict[str, Any] = {
            "content": truncate(text) if text else None,
            "embeds": hand.embeds,
            "nonce": nonce,
        }
        if hand.file is not None:
            kwargs["file"] = hand.file
        with refusal_logged("DM to %s refused", seat.user_id):
            try:
                await (await self._dm_channel(seat)).send(**kwargs)
            except discord.Forbidden as error:
                if error.code != CANNOT_DM:
                    raise
                await self.store.mark_dm_closed(seat.user_id, self.now())
                return False
        return True

    async def _dm_channel(self, seat: SeatRow) -> discord.abc.Messageable:
        """The player's DM channel: known from the database, or opened once and remembered."""
        if seat.dm_channel_id is not None:
            return self.messenger.get_partial_messageable(
                seat.dm_channel_id, type=discord.ChannelType.private
            )
        channel = await self.messenger.create_dm(discord.Object(id=seat.user_id))
        await self.store.set_dm_channel(seat.user_id, channel.id)
        return channel

    async def channel(self, channel_id: int) -> GameChannel | None:
        channel = self.messenger.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.messenger.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is not reachable", channel_id)
                return None
        return channel if isinstance(channel, GameChannel) else None

    # ------------------------------------------------------------------ what players ask for

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        table, seat = await self.load_player(game_id, interaction.user.id)
        if table.seats[seat].dm_closed_at is not None:
            # They look at their hand: the next one may come by DM again, should they have opened them.
            await self.store.forget_dm_closed(interaction.user.id)
        viewer = table.viewer(seat, language(interaction))
        rendered = await self.render(table, table.adapter.hand, table.game.view(seat), viewer, game_id)
        await reply(interaction, embeds=rendered.embeds, file=rendered.file, view=rendered.view())

    async def show_table(self, interaction: discord.Interaction, game_id: int, note: str = "") -> None:
        """The table, privately, with a link to the table message (and ``note`` above it)."""
        table = await self.load(game_id)
        lang = language(interaction)
        rendered = await self.render(
            table, table.adapter.table_copy, table.game.view(None), table.viewer(language=lang), game_id
        )
        # A link to the table message, where it can open; where not, this copy is the way to the table.
        link = t(lang, "common.table_link", url=table.jump_url()) if self.links.to_discord else ""
        await reply(
            interaction,
            "\n".join(line for line in (note, link) if line) or None,
            embeds=rendered.embeds,
            file=rendered.file,
            view=rendered.view(),
        )

    async def show_score(self, interaction: discord.Interaction, game_id: int) -> None:
        table = await self.load(game_id)
        lang = language(interaction)
        totals = table.game.totals()
        order = sorted(range(len(totals)), key=lambda seat: -totals[seat])
        embed = discord.Embed(
            title=t(lang, "common.score_title", game=t(lang, f"{table.row.kind}.title")),
            colour=table.adapter.colour,
            description="\n".join(
                t(lang, "common.score_line", name=table.names[seat], points=totals[seat])
                + (" " + t(lang, "common.left_mark") if table.seats[seat].out else "")
                for seat in order
            ),
        )
        target = table.row.options.get("target")
        if target:
            embed.set_footer(text=t(lang, "common.target", target=target))
        await reply(interaction, embeds=[embed])

    async def leave(self, interaction: discord.Interaction, game_id: int) -> None:
        """The player leaves: a computer takes their seat and plays on (when the game has stand-ins),
        or the seat is removed. With no person left at all, the game ends with no result: the
        computers leave too, until the game cannot go on."""
        async with self.seated(interaction, game_id) as (table, seat):
            leaver = table.seats[seat]
            if not standins.people_besides(table.seats, seat):
                moves: list[tuple[int, dict[str, Any], list[Event]]] = [
                    (seat, {"type": LEAVE}, standins.nobody_left_events(leaver))
                ]
                moves += [
                    (row.seat, {"type": LEAVE}, []) for row in table.seats if not row.out and row.seat != seat
                ]
            elif standins.enabled(table.row.options):
                level = leaver.stand_in or standins.level(table.seats)
                moves = [(seat, standins.stand_in(level, left=True), standins.left_events(leaver))]
            else:
                moves = [(seat, {"type": LEAVE}, [])]
            for number, (mover, action, told) in enumerate(moves):
                if table.game.finished:
                    break
                publication = await self._apply(table, mover, action, by_timeout=False, told=told)
                if number == 0:
                    await reply(interaction, t(language(interaction), "common.done"))
                await self.deliver(table, publication)

    async def back(self, interaction: discord.Interaction, game_id: int) -> None:
        """**Back**: the player a computer stands in for takes their seat again."""
        async with self.seated(interaction, game_id) as (table, seat):
            if not standins.away(table.seats[seat]):
                raise GameError("standins.error.not_away")
            publication = await self._hand_back(table, seat)
            await reply(interaction, t(language(interaction), "standins.welcome_back"))
            await self.deliver(table, publication)

    async def come_back_if_away(self, interaction: discord.Interaction, snapshot: Snapshot) -> None:
        """Any click of a player a computer stands in for gives them their seat back, before it is
        handled (a click the stand-in's moves made stale would otherwise never get through)."""
        mine = (row for row in snapshot.seats if row.user_id == interaction.user.id)
        if snapshot.game.status == "running" and any(standins.away(row) for row in mine):
            async with self.seated(interaction, snapshot.game.id) as (table, seat):
                await self._come_back(table, seat)

    async def _come_back(self, table: Table, seat: int) -> None:
        """Under the lock: if a computer stands in for ``seat``'s person, they take the seat again."""
        if standins.away(table.seats[seat]):
            await self.deliver(table, await self._hand_back(table, seat))

    async def _hand_back(self, table: Table, seat: int) -> Publication:
        """The computer standing in for ``seat``'s person gets up; their hand comes by DM again."""
        told = standins.back_events(table.seats[seat])
        return await self._apply(table, seat, standins.back(), by_timeout=False, told=told)

    @staticmethod
    def check_abort(interaction: discord.Interaction, row: GameRow | None) -> GameRow:
        """Whoever behind ``interaction`` may close the game: its host, or someone who may manage
        its channel, from that channel (so the permissions are that channel's)."""
        if row is None or row.status not in ("lobby", "running"):
            raise GameError("error.game_not_running")
        check_origin(interaction, row, private=False)
        if not (row.host_id == interaction.user.id or interaction.permissions.manage_channels):
            raise GameError("error.abort_not_allowed")
        return row

    async def ask_abort(self, interaction: discord.Interaction, game_id: int) -> None:
        """``/<game> abort``: whoever may close the game is asked, privately, to confirm it."""
        row = self.check_abort(interaction, await self.store.game(game_id))
        lang = language(interaction)
        confirm = game_button(
            row.id, ABORT, t(lang, "common.abort.confirm"), style=discord.ButtonStyle.danger, emoji="🛑"
        )
        keep = game_button(row.id, KEEP_PLAYING, t(lang, "common.abort.keep"), emoji="▶️")
        await reply(interaction, t(lang, "common.abort.question"), view=component_view([confirm, keep]))

    @staticmethod
    async def keep_playing(interaction: discord.Interaction) -> None:
        """**Keep playing** on the question: the question goes, the game goes on."""
        await replace_panel(interaction, t(language(interaction), "common.abort.kept"))

    async def abort(self, interaction: discord.Interaction, game_id: int) -> None:
        """Close the game at once, with no result: the question's **Abort**, or a lobby's **Cancel**
        (each checked again here: the game may have ended, or the click be forged)."""
        async with self.lock(game_id):
            row = self.check_abort(interaction, await self.store.game(game_id))
            member = interaction.user
            await self.store.end(game_id, "aborted")
            await replace_panel(interaction, t(language(interaction), "common.aborted_ephemeral"))
            channel = await self.channel(row.channel_id)
            if channel is not None and row.message_id is not None:
                text = t(language_of(row.locale), "common.aborted", mention=member.mention)
                try:
                    await channel.get_partial_message(row.message_id).edit(content=text, view=None)
                except discord.HTTPException as error:
                    # Gone, or one Discord will no longer edit (30046): said below instead.
                    log.info("game %s aborted: its table not edited (%s)", row.id, error)
                    # Discord failing now too: the table keeps its last picture, the game is over.
                    with (
                        suppress(DeliveryDeferred),
                        refusal_logged("could not say game %s was aborted", row.id),
                    ):
                        await channel.send(text)
        self.poke_timers()

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
                await self.store.drop_timer(timer)

    async def _fired(self, timer: TimerRow) -> None:
        try:
            table = await self.load_to_move(timer.game_id)
        except GameError:
            await self.store.drop_timer(timer)
            return
        deciding = table.game.to_act() if timer.kind == ROBOT_MOVE else table.game.required_to_act()
        actions = deciding.get(timer.seat)
        # A timer taken just before a seat changed hands is for whoever played it then.
        computers_timer = (timer.kind == ROBOT_MOVE) == (timer.seat in table.robots)
        if actions is None or decision_key(actions) != timer.decision or not computers_timer:
            await self.store.drop_timer(timer)
            return
        viewer = table.viewer()
        if timer.kind == ROBOT_MOVE:
            await self._robot_move(table, timer.seat)
            return
        if timer.kind == "remind":
            share = community.reminder_share(table.row.server_settings)
            left = duration_text(viewer.language, round(table.row.turn_timeout * (1 - share)))
            channel = await self.channel(table.row.channel_id)
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
                    await self.store.postpone_timer(timer, self.now() + RETRY_DELAYS[0])
                    self.poke_timers()
                    return
            await self.store.drop_timer(timer)
            return
        if standins.enabled(table.row.options) and await self._timed_out_again(table, timer.seat):
            # A computer plays this seat's moves, at its pace, until its player acts again.
            seat = table.seats[timer.seat]
            action = standins.stand_in(standins.level(table.seats), left=False)
            told = standins.away_events(seat)
            publication = await self._apply(table, timer.seat, action, by_timeout=True, told=told)
        else:
            action = table.game.default_action(timer.seat)
            prefix = viewer.t("common.timed_out", name=table.names[timer.seat])
            publication = await self._apply(table, timer.seat, action, by_timeout=True, prefix=prefix)
        await self.deliver(table, publication)

    async def _timed_out_again(self, table: Table, seat: int) -> bool:
        """Whether the turn running out now is the seat's second in a row to run out."""
        moves = await self.store.moves_since_own(table.row.id, seat)
        return standins.turns_timed_out(moves, seat) >= standins.TIMED_OUT_TURNS

    async def _robot_move(self, table: Table, seat: int) -> None:
        """A computer decides from its seat's view, off the event loop, and its move takes the
        path of any other. Should it ever fail, the referee's default move is played instead, so
        a computer never holds a game up."""
        view = table.game.view(seat)
        try:
            action = await asyncio.to_thread(table.robots[seat].decide, view)
            publication = await self._apply(table, seat, action, by_timeout=False)
        except Exception:
            log.exception("computer of game %s seat %s failed; playing the default move", table.row.id, seat)
            table = await self.load(table.row.id)
            publication = await self._apply(table, seat, table.game.default_action(seat), by_timeout=False)
        await self.deliver(table, publication)
