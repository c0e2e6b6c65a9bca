"""What a player asks of a game, and how they are answered: a move (``Moves``, what a game's flows
play through), a look at their hand, the table or the score, leaving, coming back, closing the
game. Every change goes through the table service's one path (``TableService.act``) with an
``InteractionAsker``: the interaction's answer once the change is saved."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import discord

from bot.adapter import Click, DrawnAt, GameOrLobby, LoadedGame, component_view
from bot.clicks import check_origin, check_version
from bot.i18n import t
from bot.model import Match
from bot.referee import Abort, ComeBack, Leave, Play, check_abort
from bot.refusals import due_for_repost
from bot.replies import language, reply
from bot.replies import replace as replace_panel
from bot.store import GameRow, Snapshot
from bot.tables import Outcome, TableService
from games.core import JSON, Event, GameError

log = logging.getLogger(__name__)

# The buttons of the question ``/<game> abort`` asks.
ABORT = "abort"
KEEP_PLAYING = "keep"

# What answers a change once it is saved, from the game as it left it (a game's flows are given
# its ``LoadedGame``, a lobby's panel its ``Lobby``) and the change's events.
Then = Callable[[Any, list[Event]], Awaitable[None]]


class InteractionAsker:
    """A change asked by an interaction (a click, a command): made from its ``read`` of the game,
    checked with ``check``; answered by the kept message's own update when the click was on it
    (an interaction's response, which Discord does not count against the bot's limit), or posted
    as the answer (``post``: a new lobby), then by ``then``, else by ``saved`` (privately) or
    "Done"."""

    def __init__(
        self,
        interaction: discord.Interaction,
        *,
        read: Snapshot | None = None,
        check: Callable[[Snapshot], None] | None = None,
        then: Then | None = None,
        saved: str | None = None,
        post: bool = False,
    ) -> None:
        self.interaction = interaction
        self.read = read
        self._check = check
        self._then = then
        self._saved = saved
        self._post = post

    def check(self, snapshot: Snapshot) -> None:
        if self._check is not None:
            self._check(snapshot)

    async def waiting(self) -> None:
        response = self.interaction.response
        if response.is_done():
            return
        if self.interaction.type is discord.InteractionType.component:
            await response.defer()
        else:
            await response.defer(ephemeral=True, thinking=True)

    def refused(self, table: GameOrLobby, error: GameError) -> None:
        if isinstance(table, LoadedGame):
            viewer = table.viewer(table.seat_of(self.interaction.user.id), language(self.interaction))
            table.adapter.name_codes(error, viewer)

    async def answer(self, outcome: Outcome) -> int | None:
        shown = await self._show(outcome)
        table, lang = outcome.table, language(self.interaction)
        if self._then is not None:
            await self._then(table, outcome.events)
        elif shown is None:
            await reply(self.interaction, t(lang, self._saved) if self._saved else t(lang, "common.done"))
        return shown

    async def _show(self, outcome: Outcome) -> int | None:
        """The kept message (table or lobby) as the change left it, as the interaction's answer:
        an update of the message clicked, when it is the kept one, or a new message (``post``).
        Not for a message due to be posted anew. Its id once shown; None if not, and the picture
        marked spent if Discord refused it (the delivery draws it again)."""
        interaction, picture, table = self.interaction, outcome.picture, outcome.table
        message, response = interaction.message, interaction.response
        if picture is None:
            return None
        body: dict[str, Any] = {"content": picture.content, "embeds": picture.embeds, "view": picture.view()}
        try:
            if self._post and not response.is_done():
                posted: dict[str, Any] = {"embeds": picture.embeds}
                posted.update(files=[picture.file] if picture.file else [])
                if (view := picture.view()) is not None:
                    posted["view"] = view
                await response.send_message(picture.content, **posted)
                return (await interaction.original_response()).id
            deferred_update = response.type is discord.InteractionResponseType.deferred_message_update
            if (
                message is None
                or message.id != table.row.message_id
                or (response.is_done() and not deferred_update)
                or due_for_repost(message.id, discord.utils.utcnow().timestamp(), table.row.messages_after)
            ):
                return None
            body["attachments"] = [picture.file] if picture.file else []
            if response.is_done():
                await interaction.edit_original_response(**body)
            else:
                await response.edit_message(**body)
            return message.id
        except discord.HTTPException as error:
            log.info("game %s not shown by its click's answer (%s)", table.row.id, error)
            outcome.picture = None
            return None


class Moves:
    """What a game's flows ask of the table service (``bot.adapter.TableMoves``): its clicks and
    commands played through the one path, answered as the game says (``then``)."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.render = tables.render

    async def load(self, game_id: int, *, read: Snapshot | None = None) -> LoadedGame:
        return await self.tables.load(game_id, read=read)

    async def play(
        self, click: Click, action: JSON | Callable[[Match[Any], int], JSON], then: Then | None = None
    ) -> None:
        adapter = self.tables.adapters[click.read.game.kind]
        check = partial(check_version, click, adapter=adapter)
        asker = InteractionAsker(click.interaction, read=click.read, check=check, then=then)
        await self.tables.act(click.game_id, Play(click.user_id, action), asker)

    async def command(
        self,
        interaction: discord.Interaction,
        game_id: int,
        action: JSON | Callable[[Match[Any], int], JSON],
        then: Then | None = None,
    ) -> None:
        """A move typed as a command (``/rummikub play``): made from the game as it stands."""
        await self.tables.act(
            game_id, Play(interaction.user.id, action), InteractionAsker(interaction, then=then)
        )


async def show_hand(tables: TableService, interaction: discord.Interaction, game_id: int) -> None:
    """The player's hand, privately (``/<game> hand``, **My hand**)."""
    table = await tables.load(game_id)
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise GameError("error.not_a_player")
    if table.seats[seat].dm_closed_at is not None:
        # They look at their hand: the next one may come by DM again, should they have opened them.
        await tables.forget_dm_closed(interaction.user.id)
    viewer = table.viewer(seat, language(interaction))
    rendered = await tables.render(table.adapter.hand, table.game.view(seat), viewer, table.drawn_at)
    await reply(interaction, embeds=rendered.embeds, file=rendered.file, view=rendered.view())


async def show_table(
    tables: TableService,
    interaction: discord.Interaction,
    game_id: int,
    note: str = "",
    read: Snapshot | None = None,
) -> None:
    """The table, privately (from a click's ``read``), with a link to the table message (and
    ``note`` above it)."""
    table = await tables.load(game_id, read=read)
    lang = language(interaction)
    viewer = table.viewer(language=lang)
    rendered = await tables.render(table.adapter.table_copy, table.game.view(None), viewer, table.drawn_at)
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


async def leave(tables: TableService, interaction: discord.Interaction, row: GameRow) -> None:
    """``/<game> leave``: the player leaves a running game (``referee.Leave``), or gives up their
    lobby seat."""
    saved = "lobby.saved.leave" if row.status == "lobby" else "common.done"
    await tables.act(row.id, Leave(interaction.user.id), InteractionAsker(interaction, saved=saved))


async def back(tables: TableService, click: Click) -> None:
    """**Back**: the player a computer stands in for takes their seat again."""
    asker = InteractionAsker(click.interaction, saved="standins.welcome_back")
    await tables.act(click.game_id, ComeBack(click.user_id), asker)


async def come_back_if_away(
    tables: TableService, interaction: discord.Interaction, snapshot: Snapshot
) -> Snapshot:
    """Any click of a player a computer stands in for gives them their seat back, before it is
    handled (a click the stand-in's moves made stale would otherwise never get through); the game
    as it then stands."""
    mine = [row for row in snapshot.seats if row.user_id == interaction.user.id and not row.gone]
    if snapshot.game.status != "running" or not any(row.stand_in is not None for row in mine):
        return snapshot
    await tables.act(snapshot.game.id, ComeBack(interaction.user.id))
    return await tables.read(snapshot.game.id) or snapshot


def may_abort(interaction: discord.Interaction, row: GameRow | None) -> Abort:
    """The abort its asker may order: of a lobby or a running game, from its channel (whose
    permissions say who may manage it)."""
    if row is None:
        raise GameError("error.game_not_running")
    check_origin(interaction, row, private=False)
    abort = Abort(interaction.user.id, interaction.permissions.manage_channels)
    check_abort(row, abort)
    return abort


async def ask_abort(tables: TableService, interaction: discord.Interaction, row: GameRow) -> None:
    """``/<game> abort``: whoever may close the game is asked, privately, to confirm it."""
    may_abort(interaction, row)
    lang = language(interaction)
    at = DrawnAt(row.id)
    confirm = at.button(ABORT, t(lang, "common.abort.confirm"), style=discord.ButtonStyle.danger, emoji="🛑")
    keep = at.button(KEEP_PLAYING, t(lang, "common.abort.keep"), emoji="▶️")
    await reply(interaction, t(lang, "common.abort.question"), view=component_view([confirm, keep]))


async def keep_playing(interaction: discord.Interaction) -> None:
    """**Keep playing** on the question: the question goes, the game goes on."""
    await replace_panel(interaction, t(language(interaction), "common.abort.kept"))


async def abort(tables: TableService, click: Click) -> None:
    """Close the game at once, with no result: the question's **Abort**, or a lobby's **Cancel**
    (checked again by the referee: the game may have ended since, or the click be forged)."""
    interaction = click.interaction
    order = may_abort(interaction, click.read.game)

    async def closed(table: GameOrLobby, events: list[Event]) -> None:
        if interaction.message is None or interaction.message.id != table.row.message_id:
            await replace_panel(interaction, t(language(interaction), "common.aborted_ephemeral"))

    await tables.act(click.game_id, order, InteractionAsker(interaction, read=click.read, then=closed))
