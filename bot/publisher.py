"""The delivery of what a committed change announces: the message the game keeps up to date (its
table, or its lobby), the channel's lines, each player's DM, the results' chart; each part sent
once, crash or no crash (``DELIVERY``), and what Discord could not take tried again later.

The table service (``bot.tables``) commits a change with its publication in the outbox, under the
game's lock, then has it delivered here. What a crash left undelivered is delivered at start, or
before the game's next change (``settled``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Protocol

import discord

from bot import standins
from bot.adapter import (
    DrawnAt,
    GameAdapter,
    GameOrLobby,
    Links,
    LoadedGame,
    Rendered,
    component_view,
    loaded,
)
from bot.click_tokens import ClickTokens
from bot.clock import is_quiet
from bot.i18n import language_of, t
from bot.lobby_message import lobby_message
from bot.model import ABORTED, RUNNING, Lobby, Publication
from bot.outbox import CHANNEL_PART, CHART_PART, DM_PART, TABLE_PART, TableRepost, part_nonce
from bot.planning import EXPIRE
from bot.recap import RECAP_AFTER, since_own_move
from bot.records import ResultsChart, score_chart
from bot.refusals import CANNOT_DM, Refusal, due_for_repost, refusal, retire, transient
from bot.replays import match_animation
from bot.replies import truncate
from bot.store import Pending, SeatRow, Snapshot, Store
from bot.time_text import add_clock
from bot.timekeeping import player_time
from bot.traffic import Traffic
from games.core import BACK, GameError

log = logging.getLogger(__name__)

# How long a player's DMs found closed (50007) are not tried again; their hand button, or joining
# a game, tries them at once.
DM_CLOSED_FOR = 6 * 3600.0

# How long to wait before trying again announcements Discord could not take (its servers failed,
# its limits, or the network): soon, then less and less often, for about three hours in all.
RETRY_DELAYS = (5.0, 30.0, 120.0, 600.0, 1800.0, 3600.0, 3600.0)

# What a change's pictures are, drawn with it (``draw_ahead``): by the version drawn at and whose
# they are (None: the message the game keeps, its table or lobby).
Pictures = Mapping[tuple[int, int | None], Rendered]


def dm_closed_recently(seat: SeatRow, now: float) -> bool:
    return seat.dm_closed_at is not None and now - seat.dm_closed_at < DM_CLOSED_FOR


class DeliveryDeferred(Exception):
    """Discord could not take a part of a publication now: the publication stays pending, the
    parts already sent marked, and is tried again later (``RETRY_DELAYS``)."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause

    def __str__(self) -> str:
        cause = self.cause
        if isinstance(cause, discord.HTTPException):
            return f"{cause.status} {cause.code or ''}".strip()
        return type(cause).__name__


@contextmanager
def refusal_logged(message: str, *args: object) -> Iterator[None]:
    """Around a send: Discord's refusal (a deleted channel, a lost permission, closed DMs) is
    logged and the publication goes on without it; a failure of Discord's defers the publication."""
    try:
        yield
    except Exception as error:
        if transient(error):
            raise DeliveryDeferred(error) from error
        if not isinstance(error, discord.HTTPException):
            raise
        log.warning(message + " (%s %s)", *args, error.status, error.code)


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


@dataclass(frozen=True)
class Drawing:
    """A picture to draw off the event loop: ``draw(*args)``."""

    draw: Callable[..., Rendered]
    args: tuple[Any, ...]


@dataclass
class Delivery:
    """One publication being delivered: what it announces, the pictures drawn with its change,
    its outbox row as the parts mark it (``pending``), and what each part finds out for the parts
    after it (each part works out what it sends, as it comes to send it)."""

    table: GameOrLobby
    publication: Publication
    pending: Pending
    pictures: Pictures
    # True when the click's answer showed the kept message already.
    shown: bool
    # The results' embeds, and the chart of the match totals that the chart's part adds to them.
    embeds: list[discord.Embed] = field(default_factory=list)
    chart: ResultsChart | None = None
    # The seats called to move, and those told privately with their lines.
    newly: list[int] = field(default_factory=list)
    told: dict[int, list[str]] = field(default_factory=dict)
    channel: GameChannel | None = None


class Publisher:
    """Delivers committed publications through the ``messenger``, marking in the store's outbox
    each part sent (``DELIVERY``); given the store once the bot has opened it (``open``). A
    publication Discord could not take is tried again later, under its game's lock (``locks``)."""

    def __init__(
        self,
        messenger: Messenger,
        now: Callable[[], float],
        adapters: Mapping[str, GameAdapter],
        links: Links,
        locks: Callable[[int], asyncio.Lock],
        after_delivery: Callable[[], None] | None = None,
        traffic: Traffic | None = None,
    ) -> None:
        self.messenger = messenger
        # The messages posted under each table since it was shown (a busy channel's is posted anew).
        self.traffic = traffic or Traffic()
        self.now = now
        self.adapters = adapters
        self.links = links
        self.locks = locks
        # Told once each delivery is done: a page that shows channels by itself redraws then.
        self.after_delivery = after_delivery
        # The kept messages' edits go through a click's token when one is fresh (uncounted).
        self.tokens = ClickTokens(now)
        self._store: Store | None = None
        self._retries: dict[int, asyncio.Task[None]] = {}

    def open(self, store: Store) -> None:
        self._store = store

    def close(self) -> None:
        """Stop trying again what Discord could not take: it stays pending, for the next start."""
        for task in self._retries.values():
            task.cancel()

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the publisher delivers through a store: open it first")
        return self._store

    # ------------------------------------------------------------------ drawing

    @staticmethod
    async def render(draw: Callable[..., Rendered], *args: Any) -> Rendered:
        """Draw off the event loop."""
        (rendered,) = await Publisher.render_all([Drawing(draw, args)])
        return rendered

    @staticmethod
    async def render_all(drawings: Sequence[Drawing]) -> list[Rendered]:
        """Several pictures drawn in one trip to a thread (one wake-up of the loop, not one each)."""

        def drawn() -> list[Rendered]:
            return [drawing.draw(*drawing.args) for drawing in drawings]

        return await asyncio.to_thread(drawn)

    def draw_ahead(
        self, table: GameOrLobby, publication: Publication
    ) -> dict[tuple[int, int | None], Rendered]:
        """In the change's thread, from ``table`` as its commit leaves it: the pictures its
        delivery shows when nothing of it is delivered yet (after every change but a restart's)."""
        nothing_yet = Pending(table.row.id, table.row.version, {}, frozenset())
        try:
            told = self._private_lines(table, publication, self._called(table, publication), nothing_yet)
            drawings = {who: self._drawing(table, publication, who) for who in (None, *told)}
            return {
                (table.row.version, who): drawing.draw(*drawing.args) for who, drawing in drawings.items()
            }
        except Exception:
            # Never a reason to refuse the change: the publication draws them, or fails, as it would.
            log.exception("pictures of game %s not drawn with its change", table.row.id)
            return {}

    def _drawing(self, table: GameOrLobby, publication: Publication, whose: int | None) -> Drawing:
        """The message the game keeps (None), or the hand of seat ``whose``."""
        if whose is not None and isinstance(table, LoadedGame):
            viewer = table.viewer(whose, language_of(table.seats[whose].locale))
            return Drawing(table.adapter.hand, (table.game.view(whose), viewer, table.drawn_at))
        return Drawing(self._kept_message, (table, publication))

    def _kept_message(self, table: GameOrLobby, publication: Publication) -> Rendered:
        """The table (no buttons once the match is over), the lobby, or either closed."""
        lang = language_of(table.row.locale)
        if table.row.status == ABORTED:
            lines = [t(lang, event.key, **event.params) for event in publication.events]
            return Rendered([], content="\n".join(lines) or None)
        if isinstance(table, Lobby):
            return lobby_message(table, lang)
        rendered = table.adapter.table(table.game.view(None), table.viewer(), table.drawn_at)
        if table.game.finished:
            rendered.items = []
        elif rendered.embeds:
            add_clock(rendered.embeds[0], lang, table.row, table.seats, table.timers, self.now())
        return rendered

    # ------------------------------------------------------------------ delivering

    async def deliver(
        self,
        table: GameOrLobby,
        publication: Publication,
        *,
        pending: Pending | None = None,
        pictures: Pictures | None = None,
        shown: bool = False,
    ) -> None:
        """Tell everyone what happened: each part of ``DELIVERY`` in its order, then the
        publication deleted from the outbox; what Discord could not take now, later. With
        ``shown``, the click's answer showed the kept message already."""
        try:
            await self._deliver(table, publication, pending, pictures or {}, shown)
        except DeliveryDeferred as deferred:
            self._defer(table.row.id, deferred)

    async def _deliver(
        self,
        table: GameOrLobby,
        publication: Publication,
        pending: Pending | None,
        pictures: Pictures,
        shown: bool,
    ) -> None:
        pending = pending or Pending(table.row.id, table.row.version, {}, frozenset())
        delivery = Delivery(table, publication, pending, pictures, shown)
        for step in DELIVERY:
            await step.send(self, delivery)
        await self.store.outbox.delivered(delivery.pending)
        if self.after_delivery is not None:
            self.after_delivery()

    async def settled(self, snapshot: Snapshot) -> Snapshot:
        """Under the game's lock, before its next change: what a crash or Discord left undelivered,
        delivered in order, and the game read again (nearly always, there was nothing). What is
        pending is read again under the lock: a change that held it may have delivered it since."""
        if not snapshot.pending:
            return snapshot
        fresh = await self.store.games.snapshot(snapshot.game.id)
        if fresh is None or not fresh.pending:
            return fresh or snapshot
        await self._deliver_all(fresh.pending)
        return await self.store.games.snapshot(snapshot.game.id) or fresh

    async def deliver_pending(self) -> None:
        """At start-up: deliver what a crash left undelivered, each game's read again under its
        lock (a timer or a click may have delivered it meanwhile, and moved on)."""
        for game_id in dict.fromkeys(pending.game_id for pending in await self.store.outbox.pending()):
            async with self.locks(game_id):
                snapshot = await self.store.games.snapshot(game_id)
                await self._deliver_all(snapshot.pending if snapshot is not None else ())

    async def _deliver_all(self, pendings: Sequence[Pending]) -> bool:
        """A game's pending publications, in order, under its lock; False if Discord could not
        take one now (it and the later ones are tried again later). One that fails otherwise is
        given up, logged, rather than hold its game up (every later change would try it first)."""
        for pending in pendings:
            snapshot = await self.store.games.snapshot(pending.game_id)
            try:
                if snapshot is None:
                    raise GameError("error.game_not_running")
                table = loaded(snapshot, self.adapters, self.links)
                await self._deliver(table, Publication.from_json(pending.publication), pending, {}, False)
            except DeliveryDeferred as deferred:
                self._defer(pending.game_id, deferred)
                return False
            except Exception:
                log.exception(
                    "announcements of game %s version %s given up", pending.game_id, pending.version
                )
                await self.store.outbox.delivered(pending)
        return True

    def _defer(self, game_id: int, deferred: DeliveryDeferred) -> None:
        """Announcements Discord could not take now (one line: it happens, and is no bug): the
        game's pending ones are tried again later."""
        log.warning("announcements of game %s deferred: Discord answered %s", game_id, deferred)
        if game_id not in self._retries:
            self._retries[game_id] = asyncio.create_task(self._retry(game_id), name=f"retry-{game_id}")

    async def _retry(self, game_id: int) -> None:
        try:
            for delay in RETRY_DELAYS:
                await asyncio.sleep(delay)
                async with self.locks(game_id):
                    snapshot = await self.store.games.snapshot(game_id)
                    if await self._deliver_all(snapshot.pending if snapshot is not None else ()):
                        return
            log.error("announcements of game %s still pending after %d tries", game_id, len(RETRY_DELAYS))
        except Exception:
            log.exception("could not try the announcements of game %s again", game_id)
        finally:
            del self._retries[game_id]

    @staticmethod
    def _reminder(table: LoadedGame, seat: int, lang: str) -> str:
        """The line reminding ``seat`` of its move, with its deadline as each reader's clock shows it."""
        deadline = next(
            (timer.due_at for timer in table.timers if timer.seat == seat and timer.kind == EXPIRE), None
        )
        when = discord.utils.format_dt(
            datetime.fromtimestamp(deadline, UTC) if deadline is not None else discord.utils.utcnow(), "R"
        )
        key = "common.reminder" if table.row.reminder_share == 0.5 else "settings.reminder"
        return t(lang, key, mention=table.mention(seat), deadline=when, table=table.link(lang))

    async def _send_kept(self, delivery: Delivery) -> None:
        """The kept message first: every line and link below points to it, should it be posted anew."""
        table, publication = delivery.table, delivery.publication
        if delivery.shown:  # the click's answer showed it
            self._counted(table)
            return
        (kept,) = await self._pictures(table, publication, delivery.pictures, [None])
        delivery.pending = await self._show_kept(table, kept, publication, delivery.pending)

    async def _send_lines(self, delivery: Delivery) -> None:
        """The channel's lines and results, calling whoever must move now."""
        table, publication, pending = delivery.table, delivery.publication, delivery.pending
        if not isinstance(table, LoadedGame) or table.row.status == ABORTED:
            return  # a lobby, or a closed game: its kept message says it all
        viewer = table.viewer()
        public = [event for event in publication.events if event.seats is None]
        lines = [line for event in public if (line := table.adapter.describe(event, viewer))]
        lines += [self._reminder(table, seat, viewer.language) for seat in publication.reminded]
        delivery.embeds = [embed for event in public if (embed := table.adapter.results(event, viewer))]
        # The chart's numbers are read now (the message keeps room for it); it is drawn last.
        if CHART_PART not in pending.delivered:
            delivery.chart = await score_chart(self.store, table, publication.events, viewer)
        if delivery.chart is not None:
            delivery.chart.make_room(delivery.embeds)
        delivery.newly = self._called(table, publication)
        recaps = await self._recaps(table, delivery.newly, publication, pending)
        delivery.told = self._private_lines(table, publication, delivery.newly, pending, recaps)
        if delivery.newly:
            # Those in their quiet hours named, not pinged: a timer pings them as the hours end.
            hushed = publication.hushed
            mentions = ", ".join(
                f"**{table.names[seat]}**" if seat in hushed else table.mention(seat)
                for seat in delivery.newly
            )
            lines.append(viewer.t("common.your_move", mentions=mentions, table=table.link(viewer.language)))
        channel = delivery.channel = await self.channel(table.row.channel_id)
        if channel is None or not (lines or delivery.embeds) or CHANNEL_PART in pending.delivered:
            return
        view = None
        at = DrawnAt(table.row.id)
        if table.game.finished:
            rematch = viewer.t("common.rematch")
            view = component_view(
                [at.button("rematch", rematch, style=discord.ButtonStyle.success, emoji="🔁")]
            )
        elif standins.announces_away(publication.events):
            view = component_view([at.button(BACK, viewer.t("standins.back"), emoji="👋")])
        message = await self._send_safely(
            channel,
            truncate("\n".join(lines)) if lines else None,
            embeds=delivery.embeds[:10],
            view=view,
            allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
            nonce=part_nonce(table.row, pending, CHANNEL_PART),
        )
        if delivery.chart is not None or table.game.finished:
            # Where the chart goes, should a crash leave it undelivered: saved before the mark.
            results_id = message.id if message is not None else None
            await self.store.games.set_results_message(table.row.id, results_id)
            table.row = replace(table.row, results_message_id=results_id)
        if delivery.told or delivery.chart is not None:
            delivery.pending = await self.store.outbox.mark_delivered(pending, CHANNEL_PART)

    async def _send_hands(self, delivery: Delivery) -> None:
        """Each player told privately, with their hand (drawn with the change, or now)."""
        table, told = delivery.table, delivery.told
        hands = await self._pictures(table, delivery.publication, delivery.pictures, list(told))
        last = next(reversed(told), None)
        for (seat, private), hand in zip(told.items(), hands, strict=True):
            part = f"{DM_PART}{seat}"
            nonce = part_nonce(table.row, delivery.pending, part)
            await self.direct_message(table, table.seats[seat], "\n".join(private), hand, nonce)
            if seat != last or delivery.chart is not None:
                delivery.pending = await self.store.outbox.mark_delivered(delivery.pending, part)

    async def _send_chart(self, delivery: Delivery) -> None:
        """The results' chart, and the match's animation once it ended, on the results message."""
        table, chart, channel = delivery.table, delivery.chart, delivery.channel
        if chart is None or channel is None or table.row.results_message_id is None:
            return
        assert isinstance(table, LoadedGame)
        animation = await self._animation(table) if table.game.finished else None
        await self._add_chart(channel, table.row.results_message_id, chart, delivery.embeds, animation)

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

    async def _animation(self, table: LoadedGame) -> discord.File | None:
        """The finished match's table, round by round (``match_animation``): never a reason to
        hold its results up."""
        try:
            lang = language_of(table.row.locale)
            return await match_animation(
                self.store, table.adapter, table.row, table.seats, table.game.to_json(), lang
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

    # ------------------------------------------------------------------ the kept message

    async def _show_kept(
        self, table: GameOrLobby, rendered: Rendered, publication: Publication, pending: Pending
    ) -> Pending:
        """Edit the kept message in place; or post it anew at the bottom of the channel, when it
        was deleted, when Discord refuses its edit (30046, the cap on edits of a message older than
        an hour, and the like), or before it would (``due_for_repost``). A refusal that posting
        anew cannot get round (a lost permission) is logged, and the next change draws it again."""
        with refusal_logged("could not show the message of game %s", table.row.id):
            if TABLE_PART in pending.delivered:  # posted anew for this publication already
                return pending
            channel = await self.channel(table.row.channel_id)
            if channel is None:
                return pending
            repost = TableRepost.begun(pending)
            if repost is None:
                old, gone = table.row.message_id, False
                if old is not None and not due_for_repost(old, self.now(), self.traffic.after(table.row)):
                    try:
                        await self._edit_kept(channel, old, table, publication, rendered)
                        self._counted(table)
                        return pending
                    except discord.HTTPException as error:
                        if refusal(error) not in (Refusal.GONE, Refusal.POST_ANEW):
                            raise
                        gone = refusal(error) is Refusal.GONE
                    # The picture's file was read by the refused edit.
                    (rendered,) = await self.render_all([self._drawing(table, publication, None)])
                log.info("message of game %s posted anew", table.row.id)
                repost = TableRepost(old, gone)
                # Decided before posting: a crash after it resumes this repost, never edits the old one.
                pending = await self.store.outbox.mark_delivered(pending, repost.part())
            return await self._post_kept(channel, table, rendered, pending, repost)
        return pending

    async def _edit_kept(
        self,
        channel: GameChannel,
        message_id: int,
        table: GameOrLobby,
        publication: Publication,
        rendered: Rendered,
    ) -> None:
        """Through a click's token when one is fresh (uncounted), else by the channel's edit."""
        if self.tokens.holds(message_id):
            if await self.tokens.edit(message_id, **_body(rendered)):
                return
            # Refused: the picture's file was read by the edit.
            (rendered,) = await self.render_all([self._drawing(table, publication, None)])
        await channel.get_partial_message(message_id).edit(**_body(rendered))

    async def _post_kept(
        self,
        channel: GameChannel,
        table: GameOrLobby,
        rendered: Rendered,
        pending: Pending,
        repost: TableRepost,
    ) -> Pending:
        """Post the kept message at the bottom of the channel, exactly once for this publication:
        a post sent again after a crash carries the same nonce (Discord answers it with the message
        it made), and one already saved is not sent again. The old message is then retired (tried
        again like any part, until done); from then on every line, link and stale click points to
        the new one."""
        if table.row.message_id in (repost.old, None):  # the new message is not saved yet
            body = _body(rendered)
            files = body.pop("attachments")
            message = await channel.send(
                nonce=part_nonce(table.row, pending, TABLE_PART), files=files, **body
            )
            await self.store.games.set_message(table.row.id, message.id)
            table.row = replace(table.row, message_id=message.id)
        self._counted(table)
        if repost.old is not None and not repost.gone:
            await retire(channel, repost.old, self._pointer(table, message_url(table)))
        return await self.store.outbox.mark_delivered(pending, TABLE_PART)

    def _counted(self, table: GameOrLobby) -> None:
        """The messages posted under a running game's table are counted from its kept message."""
        if table.row.status == RUNNING and table.row.message_id is not None:
            self.traffic.watch(table.row.channel_id, table.row.message_id)
        else:
            self.traffic.forget(table.row.channel_id)

    def _pointer(self, table: GameOrLobby, url: str) -> str:
        """What the old message says once retired: where the new one is."""
        lang = language_of(table.row.locale)
        if isinstance(table, LoadedGame):
            return t(lang, "common.table_moved", table=table.link(lang))
        # Where Discord's pages cannot open (the playground), no link: the lobby is just below.
        return t(lang, "lobby.moved", url=url) if self.links.to_discord else t(lang, "lobby.moved_below")

    # ------------------------------------------------------------------ who is told what

    @staticmethod
    def _called(table: GameOrLobby, publication: Publication) -> list[int]:
        """The people the change gave a decision they did not face, but its actor."""
        if not isinstance(table, LoadedGame) or table.row.status == ABORTED:
            return []
        return [
            seat
            for seat, actions in sorted(table.game.required_to_act().items())
            if (publication.before.get(seat) != actions or seat in publication.pinged)
            and seat != publication.actor
            and seat not in table.robots
        ]

    async def _recaps(
        self, table: GameOrLobby, newly: Sequence[int], publication: Publication, pending: Pending
    ) -> dict[int, list[str]]:
        """For each person called to move who takes DMs (now, not in their quiet hours) and was
        gone a while (``RECAP_AFTER``), in their language: what happened since their last move,
        from their seat's view. Never a reason to hold the announcement up."""
        if not isinstance(table, LoadedGame) or table.row.status == ABORTED:
            return {}
        now, started = self.now(), table.row.started_at
        if started is None or now - started < RECAP_AFTER:
            return {}  # nobody was gone that long yet (no log read at the moves of a quick game)
        recaps = {}
        for seat in newly:
            row = table.seats[seat]
            if seat in publication.hushed or not row.dm_hand or f"{DM_PART}{seat}" in pending.delivered:
                continue
            viewer = table.viewer(seat, language_of(row.locale))
            try:
                told = await since_own_move(
                    self.store, table.adapter, table.row, table.seats, viewer, now=now, gone_for=RECAP_AFTER
                )
            except Exception:
                log.exception("no recap for seat %s of game %s", seat, table.row.id)
                continue
            if told is not None and told.lines:
                recaps[seat] = [viewer.t("time.recap.heading"), told.text(viewer)]
        return recaps

    async def _pictures(
        self, table: GameOrLobby, publication: Publication, pictures: Pictures, whose: Sequence[int | None]
    ) -> list[Rendered]:
        """The kept message (None) and the hands of the seats ``whose`` names: those drawn with the
        change, and the others (all of them after a restart) drawn now, in one trip to a thread."""
        drawn = {who: pictures.get((table.row.version, who)) for who in whose}
        missing = [who for who, rendered in drawn.items() if rendered is None]
        if missing:
            rendered = await self.render_all([self._drawing(table, publication, who) for who in missing])
            drawn.update(zip(missing, rendered, strict=True))
        return [picture for who in whose if (picture := drawn[who]) is not None]

    @staticmethod
    def _private_lines(
        table: GameOrLobby,
        publication: Publication,
        newly: Sequence[int],
        pending: Pending,
        recaps: Mapping[int, Sequence[str]] | None = None,
    ) -> dict[int, list[str]]:
        """The players to DM, each with their lines: a DM only when their hand changed, or to tell
        one called to move what happened since their last move (the channel line already calls
        whoever must move), and never one already sent."""
        recaps = recaps or {}
        if not isinstance(table, LoadedGame) or table.row.status == ABORTED:
            return {}
        private: dict[int, list[str]] = defaultdict(list)
        for event in publication.events:
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
            if f"{DM_PART}{seat}" in pending.delivered:
                continue
            if (
                publication.show_hands
                or seat in private
                or seat in publication.hands_changed
                or seat in recaps
            ):
                told[seat] = [*private.get(seat, []), *recaps.get(seat, ())]
                if seat in newly and seat not in publication.hushed:
                    viewer = table.viewer(seat, language_of(seat_row.locale))
                    told[seat].append(viewer.t("common.dm_your_move", url=table.jump_url()))
        return told

    async def direct_message(
        self, table: GameOrLobby, seat: SeatRow, text: str, hand: Rendered, nonce: str | None = None
    ) -> None:
        """DM a player their hand; if their DMs are closed (50007, and only that), say so once in
        the channel and carry on. DMs found closed are not tried again for a while
        (``DM_CLOSED_FOR``): Discord counts every refusal towards a ban of the bot. Its limits
        (40003, opening DMs too fast; 429) and failures defer the publication: the hand comes later."""
        if not dm_closed_recently(seat, self.now()) and await self._send_dm(seat, text, hand, nonce):
            return
        if not seat.dm_notice_sent:
            await self.store.games.mark_dm_notice(table.row.id, seat.seat)
            channel = await self.channel(table.row.channel_id)
            if channel is not None:
                mention = f"<@{seat.user_id}>"
                await self._send_safely(
                    channel,
                    t(language_of(table.row.locale), table.rules.dm_closed_key, mention=mention),
                    allowed_mentions=discord.AllowedMentions(users=True),
                )

    async def _send_dm(self, seat: SeatRow, text: str, hand: Rendered, nonce: str | None) -> bool:
        """Send the DM; False if the player's DMs are closed (remembered, see ``direct_message``).
        One that comes in their quiet hours makes no sound (Discord's silent messages)."""
        kwargs: dict[str, Any] = {
            "content": truncate(text) if text else None,
            "embeds": hand.embeds,
            "nonce": nonce,
            "silent": is_quiet(self.now(), player_time(seat)),
        }
        if hand.file is not None:
            kwargs["file"] = hand.file
        with refusal_logged("DM to %s refused", seat.user_id):
            try:
                await (await self._dm_channel(seat)).send(**kwargs)
            except discord.Forbidden as error:
                if error.code != CANNOT_DM:
                    raise
                await self.store.games.mark_dm_closed(seat.user_id, self.now())
                return False
        return True

    async def _dm_channel(self, seat: SeatRow) -> discord.abc.Messageable:
        """The player's DM channel: known from the database, or opened once and remembered."""
        if seat.dm_channel_id is not None:
            return self.messenger.get_partial_messageable(
                seat.dm_channel_id, type=discord.ChannelType.private
            )
        channel = await self.messenger.create_dm(discord.Object(id=seat.user_id))
        await self.store.games.set_dm_channel(seat.user_id, channel.id)
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


def _body(rendered: Rendered) -> dict[str, Any]:
    """What a message shows, as an edit sets it whole."""
    return {
        "content": rendered.content,
        "embeds": rendered.embeds,
        "attachments": [rendered.file] if rendered.file else [],
        "view": rendered.view(),
    }


def message_url(table: GameOrLobby) -> str:
    return f"https://discord.com/channels/{table.row.guild_id}/{table.row.channel_id}/{table.row.message_id}"


@dataclass(frozen=True)
class DeliveryStep:
    """One part of a delivery: what it sends, and when the outbox marks it sent, so that a
    delivery resumed after a crash sends nothing twice."""

    part: str
    sends: str
    marked: str
    send: Callable[[Publisher, Delivery], Awaitable[None]]


# A delivery's parts in their crash-safe order. Every part sent with a nonce (``part_nonce``):
# sent again after a crash that came before its mark, Discord keeps one message. The last part
# sent needs no mark: the publication deleted right after it says it all.
DELIVERY: tuple[DeliveryStep, ...] = (
    DeliveryStep(
        TABLE_PART,
        "the kept message (the table, or the lobby): edited, or posted anew at the bottom of the channel"
        " and the old one retired",
        "an edit never (done again harmlessly); a repost as 'table:<old id>' before it is posted, "
        "then 'table' once the new message is saved and the old one retired",
        Publisher._send_kept,
    ),
    DeliveryStep(
        CHANNEL_PART,
        "the channel's lines and results, calling who must move (they link to the table)",
        "after it is sent, the results message saved before the mark; not when it is the last part",
        Publisher._send_lines,
    ),
    DeliveryStep(
        DM_PART,
        "each player's hand by DM, with their private lines",
        "after each DM, but the last part sent",
        Publisher._send_hands,
    ),
    DeliveryStep(
        CHART_PART,
        "the score chart (and a finished match's animation), by an edit of the results message",
        "never: always the last part",
        Publisher._send_chart,
    ),
)
