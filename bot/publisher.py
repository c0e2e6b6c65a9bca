"""The delivery of what a committed move announces: the table message, the channel's lines, each
player's DM, the results' chart; each part sent once, crash or no crash (``DELIVERY``).

The table service (``bot.tables``) holds a ``Publisher``: it commits a move with its publication
in the outbox, under the game's lock, then has it delivered here; it keeps the retries of what
Discord could not take (``DeliveryDeferred``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import discord

from bot import metrics, standins
from bot.adapter import Rendered, Table, component_view, drawn_at, game_button
from bot.i18n import language_of, t
from bot.records import ResultsChart, score_chart
from bot.refusals import CANNOT_DM, Refusal, due_for_repost, refusal, retire, transient
from bot.replays import match_animation
from bot.store import GameRow, Pending, SeatRow, Store
from games.core import BACK, Event

log = logging.getLogger(__name__)


MESSAGE_LIMIT = 2000
# The outbox part naming a publication's channel message (DMs are "dm:<seat>").
CHANNEL_PART = "channel"
# The outbox part naming the score chart, added to the channel message by an edit once drawn.
CHART_PART = "chart"
# The outbox part naming the table message when it is posted anew (see ``_post_table``).
TABLE_PART = "table"


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
        metrics.discord_error(getattr(error, "status", type(error).__name__))
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
    async def render(table: Table, draw: Callable[..., Rendered], *args: Any) -> Rendered:
        """Draw off the event loop, the components stamped with the version the picture shows."""
        (rendered,) = await Publisher.render_all(table, [Drawing(draw, args)])
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

    def draw_ahead(self, table: Table, publication: Publication) -> dict[tuple[int, int | None], Rendered]:
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
