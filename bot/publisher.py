"""The delivery of what a committed move announces: the table message, the channel's lines, each
player's DM, the results' chart; each part sent once, crash or no crash (``DELIVERY``).

The table service (``bot.tables``) holds a ``Publisher``: it commits a move with its publication
in the outbox, under the game's lock, then has it delivered here; it keeps the retries of what
Discord could not take (``DeliveryDeferred``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Protocol

import discord

from bot import standins
from bot.adapter import LoadedGame, Rendered, Viewer, component_view, drawn_at, game_button
from bot.i18n import language_of, t
from bot.outbox import CHANNEL_PART, CHART_PART, DM_PART, TABLE_PART, Publication, TableRepost, part_nonce
from bot.records import ResultsChart, score_chart
from bot.refusals import CANNOT_DM, Refusal, due_for_repost, refusal, retire, transient
from bot.replays import match_animation
from bot.store import Pending, SeatRow, Store
from games.core import BACK, Event

log = logging.getLogger(__name__)


MESSAGE_LIMIT = 2000


@dataclass(frozen=True)
class Drawing:
    """A picture to draw off the event loop: ``draw(*args)`` (see ``TableService.render_all``)."""

    draw: Callable[..., Rendered]
    args: tuple[Any, ...]


# How long a player's DMs found closed (50007) are not tried again; their hand button, or joining
# a game, tries them at once.
DM_CLOSED_FOR = 6 * 3600.0


def dm_closed_recently(seat: SeatRow, now: float) -> bool:
    return seat.dm_closed_at is not None and now - seat.dm_closed_at < DM_CLOSED_FOR


class DeliveryDeferred(Exception):
    """Discord could not take a part of a publication now: the publication stays pending, the
    parts already sent marked, and is tried again later (``bot.tables.RETRY_DELAYS``)."""


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


@dataclass
class Delivery:
    """One publication being delivered: what its parts send, read and drawn before any is sent,
    and its outbox row as the parts mark it (``pending``)."""

    table: LoadedGame
    publication: Publication
    pending: Pending
    viewer: Viewer
    lines: list[str]
    embeds: list[discord.Embed]
    chart: ResultsChart | None
    # The seats called to move, and those told privately with their lines.
    newly: list[int]
    told: dict[int, list[str]]
    # None when the click's answer showed the table already.
    table_picture: Rendered | None
    hands: list[Rendered]
    channel: GameChannel | None = None


class Publisher:
    """Delivers a committed move's publication through the ``messenger``, marking in the store's
    outbox each part sent (``DELIVERY``); given the store once the bot has opened it (``open``)."""

    def __init__(
        self,
        messenger: Messenger,
        now: Callable[[], float],
        after_delivery: Callable[[], None] | None = None,
    ) -> None:
        self.messenger = messenger
        self.now = now
        # Told once each delivery is done: a page that shows channels by itself redraws then.
        self.after_delivery = after_delivery
        self._store: Store | None = None

    def open(self, store: Store) -> None:
        self._store = store

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the publisher delivers through a store: open it first")
        return self._store

    @staticmethod
    async def render(table: LoadedGame, draw: Callable[..., Rendered], *args: Any) -> Rendered:
        """Draw off the event loop, the components stamped with the version the picture shows."""
        (rendered,) = await Publisher.render_all(table, [Drawing(draw, args)])
        return rendered

    @staticmethod
    async def render_all(table: LoadedGame, drawings: Sequence[Drawing]) -> list[Rendered]:
        """Several pictures drawn in one trip to a thread (one wake-up of the loop, not one each),
        in order, the components stamped as ``render`` stamps them."""

        def stamped() -> list[Rendered]:
            drawn_at.set(table.row.version)
            return [drawing.draw(*drawing.args) for drawing in drawings]

        # to_thread runs ``stamped`` in a copy of this context: the stamp does not leak out.
        return await asyncio.to_thread(stamped)

    def draw_ahead(
        self, table: LoadedGame, publication: Publication
    ) -> dict[tuple[int, int | None], Rendered]:
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

    async def deliver(
        self,
        table: LoadedGame,
        publication: Publication,
        pending: Pending | None = None,
        *,
        table_shown: bool = False,
    ) -> None:
        """Tell everyone what happened: each part of ``DELIVERY`` in its order, then the
        publication deleted from the outbox. With ``table_shown``, the click's answer showed the
        table already. Seats with a new decision are called, except the actor, who has just played
        and is looking at the table (a turn of several steps would call them at each step)."""
        delivery = await self._prepared(table, publication, pending, table_shown)
        for step in DELIVERY:
            await step.send(self, delivery)
        await self.store.outbox.delivered(delivery.pending)
        if self.after_delivery is not None:
            self.after_delivery()

    async def _prepared(
        self, table: LoadedGame, publication: Publication, pending: Pending | None, table_shown: bool
    ) -> Delivery:
        """What the parts send, read and drawn before any is sent."""
        if pending is None:
            pending = Pending(table.row.id, table.row.version, {}, frozenset())
        viewer = table.viewer()
        events = publication.events
        lines = [publication.prefix] if publication.prefix else []
        lines += [
            line for event in events if event.seats is None if (line := table.adapter.describe(event, viewer))
        ]
        embeds = [
            embed
            for event in events
            if event.seats is None
            if (embed := table.adapter.results(event, viewer))
        ]
        # The chart's numbers are read now (the message keeps room for it); it is drawn last.
        chart = None
        if CHART_PART not in pending.delivered:
            chart = await score_chart(self.store, table, events, viewer)
        if chart is not None:
            chart.make_room(embeds)
        newly = self._called(table, publication)
        told = self._private_lines(table, events, newly, publication, pending)
        pictures = await self._pictures(table, publication, [*([] if table_shown else [None]), *told])
        table_picture = None if table_shown else pictures.pop(0)
        return Delivery(
            table, publication, pending, viewer, lines, embeds, chart, newly, told, table_picture, pictures
        )

    async def _send_table(self, delivery: Delivery) -> None:
        """The table first: every line and link below points to it, should it be posted anew."""
        table, publication = delivery.table, delivery.publication
        if delivery.table_picture is None:
            return
        posted_at = table.row.message_id
        delivery.pending = await self.refresh_table(table, delivery.table_picture, delivery.pending)
        if table.row.message_id != posted_at:
            delivery.told = self._private_lines(
                table, publication.events, delivery.newly, publication, delivery.pending
            )

    async def _send_lines(self, delivery: Delivery) -> None:
        """The channel's lines and results, calling whoever must move now."""
        table, viewer, lines, embeds = delivery.table, delivery.viewer, delivery.lines, delivery.embeds
        if delivery.newly:
            mentions = ", ".join(table.mention(seat) for seat in delivery.newly)
            link = table.link(viewer.language)
            lines.append(t(viewer.language, "common.your_move", mentions=mentions, table=link))
        channel = delivery.channel = await self.channel(table.row.channel_id)
        if channel is None or not (lines or embeds) or CHANNEL_PART in delivery.pending.delivered:
            return
        view = None
        events = delivery.publication.events
        if table.game.finished:
            rematch = t(viewer.language, "common.rematch")
            view = component_view(
                [game_button(table.row.id, "rematch", rematch, style=discord.ButtonStyle.success, emoji="🔁")]
            )
        elif standins.announces_away(events):
            back = t(viewer.language, "standins.back")
            view = component_view([game_button(table.row.id, BACK, back, emoji="👋")])
        message = await self._send_safely(
            channel,
            truncate("\n".join(lines)) if lines else None,
            embeds=embeds[:10],
            view=view,
            allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
            nonce=part_nonce(table.row, delivery.pending, CHANNEL_PART),
        )
        if delivery.chart is not None or table.game.finished:
            # Where the chart goes, should a crash leave it undelivered: saved before the mark.
            results_id = message.id if message is not None else None
            await self.store.games.set_results_message(table.row.id, results_id)
            table.row = replace(table.row, results_message_id=results_id)
        if delivery.told or delivery.chart is not None:
            delivery.pending = await self.store.outbox.mark_delivered(delivery.pending, CHANNEL_PART)

    async def _send_hands(self, delivery: Delivery) -> None:
        """Each player told privately, with their hand."""
        table = delivery.table
        last = next(reversed(delivery.told), None)
        for (seat, private), hand in zip(delivery.told.items(), delivery.hands, strict=True):
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

    async def refresh_table(self, table: LoadedGame, rendered: Rendered, pending: Pending) -> Pending:
        """Show ``rendered`` on the table message (``_refresh_table``); a refusal that posting anew
        cannot get round (a lost permission) is logged, and the next move draws the table again;
        one of Discord's failures defers the publication (``refusal_logged``)."""
        with refusal_logged("could not show the table of game %s", table.row.id):
            return await self._refresh_table(table, rendered, pending)
        return pending

    @classmethod
    def _drawing(cls, table: LoadedGame, whose: int | None) -> Drawing:
        """The table (None), or the hand of seat ``whose``."""
        return cls._table_drawing(table) if whose is None else cls._hand_drawing(table, whose)

    @staticmethod
    def _table_drawing(table: LoadedGame) -> Drawing:
        return Drawing(table.adapter.table, (table.game.view(None), table.viewer(), table.row.id))

    @staticmethod
    def _hand_drawing(table: LoadedGame, seat: int) -> Drawing:
        """The seat's hand as its DM shows it, in its player's language."""
        viewer = table.viewer(seat, language_of(table.seats[seat].locale))
        return Drawing(table.adapter.hand, (table.game.view(seat), viewer, table.row.id))

    async def _refresh_table(self, table: LoadedGame, rendered: Rendered, pending: Pending) -> Pending:
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
            pending = await self.store.outbox.mark_delivered(pending, repost.part())
        return await self._post_table(channel, table, rendered, pending, repost)

    async def _post_table(
        self,
        channel: discord.abc.Messageable,
        table: LoadedGame,
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
            await self.store.games.set_message(table.row.id, message.id)
            table.row = replace(table.row, message_id=message.id)
        if repost.old is not None and not repost.gone:
            pointer = t(
                language_of(table.row.locale),
                "common.table_moved",
                table=table.link(language_of(table.row.locale)),
            )
            await retire(channel, repost.old, pointer)
        return await self.store.outbox.mark_delivered(pending, TABLE_PART)

    @staticmethod
    def _called(table: LoadedGame, publication: Publication) -> list[int]:
        """The people the move gave a decision they did not face, but its actor."""
        return [
            seat
            for seat, actions in sorted(table.game.required_to_act().items())
            if publication.before.get(seat) != actions
            and seat != publication.actor
            and seat not in table.robots
        ]

    async def _pictures(
        self, table: LoadedGame, publication: Publication, whose: Sequence[int | None]
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
        table: LoadedGame,
        events: list[Event],
        newly: Sequence[int],
        publication: Publication,
        pending: Pending,
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
            if f"{DM_PART}{seat}" in pending.delivered:
                continue
            if show_hands or seat in private or seat in publication.hands_changed:
                told[seat] = private.get(seat, [])
                if seat in newly:
                    viewer = table.viewer(seat, language_of(seat_row.locale))
                    told[seat].append(viewer.t("common.dm_your_move", url=table.jump_url()))
        return told

    async def direct_message(
        self, table: LoadedGame, seat: SeatRow, text: str, hand: Rendered, nonce: str | None = None
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


@dataclass(frozen=True)
class Step:
    """One part of a delivery: what it sends, and when the outbox marks it sent, so that a
    delivery resumed after a crash sends nothing twice."""

    part: str
    sends: str
    marked: str
    send: Callable[[Publisher, Delivery], Awaitable[None]]


# A delivery's parts in their crash-safe order. Every part sent with a nonce (``part_nonce``):
# sent again after a crash that came before its mark, Discord keeps one message. The last part
# sent needs no mark: the publication deleted right after it says it all.
DELIVERY: tuple[Step, ...] = (
    Step(
        TABLE_PART,
        "the table message: edited, or posted anew at the bottom of the channel",
        "an edit never (done again harmlessly); a repost as 'table:<old id>' before it is posted, "
        "then 'table' once the new message is saved",
        Publisher._send_table,
    ),
    Step(
        CHANNEL_PART,
        "the channel's lines and results, calling who must move (they link to the table)",
        "after it is sent, the results message saved before the mark; not when it is the last part",
        Publisher._send_lines,
    ),
    Step(
        DM_PART,
        "each player's hand by DM, with their private lines",
        "after each DM, but the last part sent",
        Publisher._send_hands,
    ),
    Step(
        CHART_PART,
        "the score chart (and a finished match's animation), by an edit of the results message",
        "never: always the last part",
        Publisher._send_chart,
    ),
)
