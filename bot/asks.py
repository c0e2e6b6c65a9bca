"""What a player asks of a running game besides a move of its own: their hand, the table, the
score, to leave, to take their seat back, to abort the game. Each goes through the table service's
one path (``TableService.seated``, ``apply``, ``deliver``)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import discord

from bot import standins
from bot.adapter import ClickRead, GameAdapter, component_view, drawn_at, game_button
from bot.clicks import TableMovedOn, check_click, check_origin
from bot.i18n import language_of, t
from bot.publisher import DeliveryDeferred, refusal_logged
from bot.replies import language, reply
from bot.replies import replace as replace_panel
from bot.store import GameRow, Snapshot
from bot.tables import TableService
from games.core import BACK, LEAVE, Event, GameError

log = logging.getLogger(__name__)

# The buttons of the question ``/<game> abort`` asks.
ABORT = "abort"
KEEP_PLAYING = "keep"


async def show_hand(tables: TableService, interaction: discord.Interaction, game_id: int) -> None:
    table, seat = await tables.load_player(game_id, interaction.user.id)
    if table.seats[seat].dm_closed_at is not None:
        # They look at their hand: the next one may come by DM again, should they have opened them.
        await tables.store.games.forget_dm_closed(interaction.user.id)
    viewer = table.viewer(seat, language(interaction))
    rendered = await tables.render(table, table.adapter.hand, table.game.view(seat), viewer, game_id)
    await reply(interaction, embeds=rendered.embeds, file=rendered.file, view=rendered.view())


async def show_table(
    tables: TableService,
    interaction: discord.Interaction,
    game_id: int,
    note: str = "",
    read: ClickRead | None = None,
) -> None:
    """The table, privately (from a click's ``read``, see ``TableService.load``), with a link to
    the table message (and ``note`` above it)."""
    table = await tables.load(game_id, read=read)
    lang = language(interaction)
    rendered = await tables.render(
        table, table.adapter.table_copy, table.game.view(None), table.viewer(language=lang), game_id
    )
    # A link to the table message, where it can open; where not, this copy is the way to the table.
    link = t(lang, "common.table_link", url=table.jump_url()) if tables.links.to_discord else ""
    await reply(
        interaction,
        "\n".join(line for line in (note, link) if line) or None,
        embeds=rendered.embeds,
        file=rendered.file,
        view=rendered.view(),
    )


async def show_score(tables: TableService, interaction: discord.Interaction, game_id: int) -> None:
    table = await tables.load(game_id)
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


async def leave(tables: TableService, interaction: discord.Interaction, game_id: int) -> None:
    """The player leaves: a computer takes their seat and plays on (when the game has stand-ins),
    or the seat is removed. With no person left at all, the game ends with no result: the
    computers leave too, until the game cannot go on."""
    async with tables.seated(interaction, game_id) as (table, seat):
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
            publication = await tables.apply(table, mover, action, by_timeout=False, told=told)
            if number == 0:
                await reply(interaction, t(language(interaction), "common.done"))
            await tables.deliver(table, publication)


async def back(tables: TableService, interaction: discord.Interaction, game_id: int) -> None:
    """**Back**: the player a computer stands in for takes their seat again."""
    async with tables.seated(interaction, game_id) as (table, seat):
        if not standins.away(table.seats[seat]):
            raise GameError("standins.error.not_away")
        publication = await tables.hand_back(table, seat)
        await reply(interaction, t(language(interaction), "standins.welcome_back"))
        await tables.deliver(table, publication)


async def come_back_if_away(
    tables: TableService, interaction: discord.Interaction, snapshot: Snapshot
) -> None:
    """Any click of a player a computer stands in for gives them their seat back, before it is
    handled (a click the stand-in's moves made stale would otherwise never get through)."""
    mine = (row for row in snapshot.seats if row.user_id == interaction.user.id)
    if snapshot.game.status == "running" and any(standins.away(row) for row in mine):
        async with tables.seated(interaction, snapshot.game.id) as (table, seat):
            await tables.come_back(table, seat)


def check_abort(interaction: discord.Interaction, row: GameRow | None) -> GameRow:
    """Whoever behind ``interaction`` may close the game: its host, or someone who may manage
    its channel, from that channel (so the permissions are that channel's)."""
    if row is None or row.status not in ("lobby", "running"):
        raise GameError("error.game_not_running")
    check_origin(interaction, row, private=False)
    if not (row.host_id == interaction.user.id or interaction.permissions.manage_channels):
        raise GameError("error.abort_not_allowed")
    return row


async def ask_abort(tables: TableService, interaction: discord.Interaction, game_id: int) -> None:
    """``/<game> abort``: whoever may close the game is asked, privately, to confirm it."""
    row = check_abort(interaction, await tables.store.games.game(game_id))
    lang = language(interaction)
    confirm = game_button(
        row.id, ABORT, t(lang, "common.abort.confirm"), style=discord.ButtonStyle.danger, emoji="🛑"
    )
    keep = game_button(row.id, KEEP_PLAYING, t(lang, "common.abort.keep"), emoji="▶️")
    await reply(interaction, t(lang, "common.abort.question"), view=component_view([confirm, keep]))


async def keep_playing(interaction: discord.Interaction) -> None:
    """**Keep playing** on the question: the question goes, the game goes on."""
    await replace_panel(interaction, t(language(interaction), "common.abort.kept"))


async def abort(tables: TableService, interaction: discord.Interaction, game_id: int) -> None:
    """Close the game at once, with no result: the question's **Abort**, or a lobby's **Cancel**
    (each checked again here: the game may have ended, or the click be forged)."""
    async with tables.lock(game_id):
        row = check_abort(interaction, await tables.store.games.game(game_id))
        member = interaction.user
        await tables.store.games.end(game_id, "aborted")
        await replace_panel(interaction, t(language(interaction), "common.aborted_ephemeral"))
        channel = await tables.publisher.channel(row.channel_id)
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
    tables.poke_timers()


@dataclass(frozen=True)
class GameClick:
    """A click on one of a game's buttons or selects, drawn at ``version``, with its read."""

    tables: TableService
    adapter: GameAdapter
    rematch: Callable[[discord.Interaction, GameRow], Awaitable[None]]
    interaction: discord.Interaction
    snapshot: Snapshot
    read: ClickRead | None
    version: int
    move: str
    arg: str
    values: list[str]

    @property
    def game_id(self) -> int:
        return self.snapshot.game.id


async def own_move(click: GameClick) -> None:
    """A game's own button or select, handed to its adapter with the click's read and the version
    its panel saw; one drawn before the player's decision changed shows the table again."""
    adapter, row = click.adapter, click.snapshot.game
    free = click.move in adapter.free_moves
    # A panel opened afresh shows the game as it stands: its click is as if from the table now.
    seen = None if free else row.version if click.move in adapter.current_moves else click.version
    # The panels the click draws are stamped with the version it saw (``drawn_at``).
    stamp = drawn_at.set(seen)
    try:
        if not free:
            check_click(click.interaction, click.snapshot, seen)
        await adapter.on_component(
            click.tables, click.interaction, row.id, click.move, click.arg, click.values, click.read, seen
        )
    except TableMovedOn:
        note = t(language(click.interaction), "error.table_moved_on")
        await show_table(click.tables, click.interaction, row.id, note, click.read)
    finally:
        drawn_at.reset(stamp)


@dataclass(frozen=True)
class Button:
    """What a click on a game's button does, and what is checked before: where it may come from
    (``private``: the game's channel, or also its player's DMs; None: it checks for itself), and
    whether a player a computer stands in for takes their seat back first."""

    answer: Callable[[GameClick], Awaitable[None]]
    private: bool | None
    comes_back: bool = False


# The buttons every game's messages share, by move; any other move is the game's own (``OWN``).
SHARED: Mapping[str, Button] = {
    "rematch": Button(lambda click: click.rematch(click.interaction, click.snapshot.game), private=False),
    ABORT: Button(lambda click: abort(click.tables, click.interaction, click.game_id), private=None),
    KEEP_PLAYING: Button(lambda click: keep_playing(click.interaction), private=None),
    BACK: Button(lambda click: back(click.tables, click.interaction, click.game_id), private=True),
    "hand": Button(
        lambda click: show_hand(click.tables, click.interaction, click.game_id), private=True, comes_back=True
    ),
}
OWN = Button(own_move, private=True, comes_back=True)


async def on_click(
    tables: TableService,
    adapters: Mapping[str, GameAdapter],
    rematch: Callable[[discord.Interaction, GameRow], Awaitable[None]],
    interaction: discord.Interaction,
    game_id: int,
    version: int,
    move: str,
    arg: str,
    values: list[str],
) -> None:
    """A click on one of a game's buttons or selects, drawn at ``version``: checked as its
    ``Button`` says, then answered by it."""
    snapshot, read = await tables.read(game_id)
    if snapshot is None or snapshot.game.kind not in adapters:
        raise GameError("error.game_not_running")
    button = SHARED.get(move, OWN)
    if button.private is not None:
        check_origin(interaction, snapshot.game, private=button.private)
    if button.comes_back:
        await come_back_if_away(tables, interaction, snapshot)
    adapter = adapters[snapshot.game.kind]
    click = GameClick(tables, adapter, rematch, interaction, snapshot, read, version, move, arg, values)
    await button.answer(click)
