"""Running games: every move takes one path.

parse -> take the game's lock -> load from the database -> apply -> commit -> answer -> publish.
Memory holds nothing but locks; every step reads the state the database has.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter import GameAdapter, Rendered, Viewer, component_view, game_button
from bot.i18n import duration_text, language_of, t
from bot.records import score_chart
from bot.replies import language, reply
from bot.store import Commit, GameRow, SeatRow, StaleVersion, Store, TimerRow
from games.core import LEAVE, Event, Game, GameError, perform

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
CANNOT_DM = 50007


@dataclass
class Table:
    """One running game as loaded from the database."""

    row: GameRow
    seats: list[SeatRow]
    game: Game
    adapter: GameAdapter

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id and not s.gone), None)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def viewer(self, seat: int | None = None, language: str | None = None) -> Viewer:
        return Viewer(language or language_of(self.row.locale), self.names, seat)

    def mention(self, seat: int) -> str:
        return f"<@{self.seats[seat].user_id}>"

    def jump_url(self) -> str:
        return f"https://discord.com/channels/{self.row.guild_id}/{self.row.channel_id}/{self.row.message_id}"


def decision_key(actions: frozenset[str]) -> str:
    return ",".join(sorted(actions))


def plan_timers(
    to_act: Mapping[int, frozenset[str]], previous: Sequence[TimerRow], timeout: int, now: float
) -> list[tuple[int, str, str, float]]:
    """A reminder at half time and an expiry per deciding seat.

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
            planned.append((seat, "remind", decision, now + timeout / 2))
            planned.append((seat, "expire", decision, now + timeout))
    return planned


def truncate(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class TableService:
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    @property
    def store(self) -> Store:
        return self.bot.store

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks[game_id]

    # ------------------------------------------------------------------ loading

    async def load(self, game_id: int) -> Table:
        row = await self.store.game(game_id)
        if row is None or row.status != "running" or row.state is None:
            raise GameError("error.game_not_running")
        adapter = self.bot.adapters[row.kind]
        seats = await self.store.seats(game_id)
        return Table(row, seats, adapter.engine.from_json(row.state), adapter)

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
        lock = self.lock(game_id)
        if lock.locked() and not interaction.response.is_done():
            # Another move is being published: acknowledge now rather than miss Discord's 3 seconds.
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        async with lock:
            table = await self.load(game_id)
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise GameError("error.not_a_player")
            move = action(table, seat) if callable(action) else action
            before = table.game.required_to_act()
            events = await self._apply(table, seat, move, by_timeout=False)
            if answer is not None:
                await answer(table, events)
            elif not interaction.response.is_done():
                await interaction.response.send_message(
                    t(language(interaction), "common.done"), ephemeral=True
                )
            await self.publish(table, events, before, actor=seat)

    async def _apply(
        self, table: Table, seat: int, action: Mapping[str, Any], *, by_timeout: bool
    ) -> list[Event]:
        """Apply and commit; the engine leaves the state untouched when it refuses."""
        # In a thread: a Rummikub play may search for a while, and other channels go on meanwhile.
        events = await asyncio.to_thread(perform, table.game, seat, action)
        game = table.game
        gone = [seat] if action.get("type") == LEAVE else []
        now = self.now()
        change = Commit(
            seat=seat,
            action=dict(action),
            state=game.to_json(),
            totals=game.totals(),
            timers=plan_timers(
                game.required_to_act(), await self.store.timers(table.row.id), table.row.turn_timeout, now
            ),
            by_timeout=by_timeout,
            finished=game.finished,
            winner=game.winner(),
            gone=gone,
            round_ended=table.adapter.ends_round(events),
            feats=table.adapter.feats(events),
        )
        try:
            version = await self.store.commit(table.row, change, now)
        except StaleVersion:
            raise GameError("error.out_of_date") from None
        table.row = replace(
            table.row, version=version, state=change.state, status="finished" if game.finished else "running"
        )
        table.seats = await self.store.seats(table.row.id)
        self.bot.timers.poke()
        return events

    # ------------------------------------------------------------------ publishing

    async def publish(
        self,
        table: Table,
        events: list[Event],
        before: Mapping[int, frozenset[str]],
        prefix: str = "",
        show_hands: bool = False,
        actor: int | None = None,
    ) -> None:
        """Tell everyone what happened: the table, the channel, and each player privately.

        Seats with a new decision are called, except ``actor``, who has just played and is
        looking at the table (a turn of several steps would call them at each step).
        """
        channel_viewer = table.viewer()
        lines = [prefix] if prefix else []
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
        chart = await score_chart(self.store, table, events, embeds, channel_viewer)
        waiting_for = table.game.required_to_act()
        newly = [
            seat
            for seat, actions in sorted(waiting_for.items())
            if before.get(seat) != actions and seat != actor
        ]
        if newly:
            mentions = ", ".join(table.mention(seat) for seat in newly)
            lines.append(
                t(channel_viewer.language, "common.your_move", mentions=mentions, url=table.jump_url())
            )
        await self.refresh_table(table)
        channel = await self._channel(table.row.channel_id)
        if channel is not None and (lines or embeds):
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
            message = await channel.send(
                truncate("\n".join(lines)) if lines else None,
                embeds=embeds[:10],
                file=chart,
                view=view,
                allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
            )
            if table.game.finished:
                await self.store.set_results_message(table.row.id, message.id)
        await self._tell_players(table, events, newly, show_hands)

    async def refresh_table(self, table: Table) -> None:
        """Edit the one table message in place (or post it again if it was deleted)."""
        rendered = await asyncio.to_thread(
            table.adapter.table, table.game.view(None), table.viewer(), table.row.id
        )
        if table.game.finished:
            rendered.items = []
        channel = await self._channel(table.row.channel_id)
        if channel is None:
            return
        kwargs: dict[str, Any] = {"embeds": rendered.embeds, "view": rendered.view()}
        if table.row.message_id is not None:
            try:
                message = channel.get_partial_message(table.row.message_id)
                await message.edit(
                    content=None, attachments=[rendered.file] if rendered.file else [], **kwargs
                )
                return
            except discord.NotFound:
                log.info("table message of game %s is gone; posting it again", table.row.id)
                rendered = await asyncio.to_thread(
                    table.adapter.table, table.game.view(None), table.viewer(), table.row.id
                )
                kwargs = {"embeds": rendered.embeds, "view": rendered.view()}
        if rendered.file is not None:
            kwargs["file"] = rendered.file
        message = await channel.send(**kwargs)
        await self.store.set_message(table.row.id, message.id)
        table.row = replace(table.row, message_id=message.id)

    async def _tell_players(
        self, table: Table, events: list[Event], newly: Sequence[int], show_hands: bool
    ) -> None:
        private: dict[int, list[str]] = defaultdict(list)
        for event in events:
            for seat in event.seats or ():
                line = table.adapter.describe(event, table.viewer(seat, table.seats[seat].locale))
                if line:
                    private[seat].append(line)
        deliveries = []
        for seat_row in table.seats:
            seat = seat_row.seat
            with_hand = show_hands or seat in private
            if seat_row.gone or not (with_hand or seat in newly):
                continue
            viewer = table.viewer(seat, language_of(seat_row.locale))
            lines = list(private.get(seat, []))
            if seat in newly:
                lines.append(viewer.t("common.dm_your_move", url=table.jump_url()))
            rendered = None
            if with_hand:
                rendered = await asyncio.to_thread(
                    table.adapter.hand, table.game.view(seat), viewer, table.row.id
                )
            deliveries.append(self.direct_message(table, seat_row, "\n".join(lines), rendered))
        await asyncio.gather(*deliveries)

    async def direct_message(self, table: Table, seat: SeatRow, text: str, rendered: Rendered | None) -> None:
        """DM a player; if their DMs are closed, say so once in the channel and carry on."""
        try:
            user = self.bot.get_user(seat.user_id) or await self.bot.fetch_user(seat.user_id)
            kwargs: dict[str, Any] = {"content": truncate(text) if text else None}
            if rendered is not None:
                kwargs["embeds"] = rendered.embeds
                if rendered.file is not None:
                    kwargs["file"] = rendered.file
            await user.send(**kwargs)
        except discord.Forbidden as error:
            if error.code != CANNOT_DM:
                log.warning("DM to %s refused", seat.user_id, exc_info=True)
            if not seat.dm_notice_sent:
                await self.store.mark_dm_notice(table.row.id, seat.seat)
                channel = await self._channel(table.row.channel_id)
                if channel is not None:
                    await channel.send(
                        t(language_of(table.row.locale), "common.dm_closed", mention=f"<@{seat.user_id}>"),
                        allowed_mentions=discord.AllowedMentions(users=True),
                    )
        except discord.HTTPException:
            log.warning("DM to %s failed", seat.user_id, exc_info=True)

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is not reachable", channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    # ------------------------------------------------------------------ what players ask for

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        table, seat = await self.load_player(game_id, interaction.user.id)
        rendered = await asyncio.to_thread(
            table.adapter.hand, table.game.view(seat), table.viewer(seat, language(interaction)), game_id
        )
        await reply(interaction, embeds=rendered.embeds, file=rendered.file, view=rendered.view())

    async def show_table(self, interaction: discord.Interaction, game_id: int) -> None:
        table = await self.load(game_id)
        rendered = await asyncio.to_thread(
            table.adapter.table_copy,
            table.game.view(None),
            table.viewer(language=language(interaction)),
            game_id,
        )
        await reply(
            interaction,
            t(language(interaction), "common.table_link", url=table.jump_url()),
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
                + (" " + t(lang, "common.left_mark") if table.seats[seat].gone else "")
                for seat in order
            ),
        )
        target = table.row.options.get("target")
        if target:
            embed.set_footer(text=t(lang, "common.target", target=target))
        await reply(interaction, embeds=[embed])

    async def leave(self, interaction: discord.Interaction, game_id: int) -> None:
        await self.act(interaction, game_id, {"type": LEAVE})

    async def abort(self, interaction: discord.Interaction, game_id: int) -> None:
        async with self.lock(game_id):
            row = await self.store.game(game_id)
            if row is None or row.status not in ("lobby", "running"):
                raise GameError("error.game_not_running")
            member = interaction.user
            allowed = row.host_id == member.id or (
                isinstance(member, discord.Member)
                and isinstance(interaction.channel, discord.abc.GuildChannel | discord.Thread)
                and interaction.channel.permissions_for(member).manage_channels
            )
            if not allowed:
                raise GameError("error.abort_not_allowed")
            await self.store.end(game_id, "aborted")
            await reply(interaction, t(language(interaction), "common.aborted_ephemeral"))
            channel = await self._channel(row.channel_id)
            if channel is not None and row.message_id is not None:
                text = t(language_of(row.locale), "common.aborted", mention=member.mention)
                try:
                    await channel.get_partial_message(row.message_id).edit(content=text, view=None)
                except discord.NotFound:
                    await channel.send(text)
        self.bot.timers.poke()

    # ------------------------------------------------------------------ timers

    async def fire(self, timer: TimerRow) -> None:
        """A reminder or an expiry came due; stale timers are dropped quietly."""
        async with self.lock(timer.game_id):
            try:
                table = await self.load(timer.game_id)
            except GameError:
                await self.store.drop_timer(timer)
                return
            before = table.game.required_to_act()
            actions = before.get(timer.seat)
            if actions is None or decision_key(actions) != timer.decision:
                await self.store.drop_timer(timer)
                return
            viewer = table.viewer()
            if timer.kind == "remind":
                await self.store.drop_timer(timer)
                left = duration_text(viewer.language, table.row.turn_timeout // 2)
                channel = await self._channel(table.row.channel_id)
                if channel is not None:
                    await channel.send(
                        viewer.t(
                            "common.reminder",
                            mention=table.mention(timer.seat),
                            left=left,
                            url=table.jump_url(),
                        ),
                        allowed_mentions=discord.AllowedMentions(users=True),
                    )
                return
            action = table.game.default_action(timer.seat)
            events = await self._apply(table, timer.seat, action, by_timeout=True)
            prefix = viewer.t("common.timed_out", name=table.names[timer.seat])
            await self.publish(table, events, before, prefix=prefix)
