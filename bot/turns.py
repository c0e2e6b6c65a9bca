"""``/turns``: a player's running games across every server, those waiting on them first (the
longest-waiting first), with **Next** to step through them and **What happened** for the recap of
each; and ``/away``, which stops their clocks for a while.

Both answer privately, in any server or in the bot's DMs. ``/turns`` reads the store's index of a
player's seats (``bot.store.turns``), never every game; its buttons carry the player and the game
(``turns:<player>:<game>:<n|r>``), so they work after a restart, and anyone else's click, or a
forged one, is refused.
"""

from __future__ import annotations

from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.adapter import GameAdapter, LoadedGame, loaded
from bot.clock import AWAY_OFF, Span
from bot.community import Community
from bot.i18n import described, discord_time, t
from bot.recap import since_own_move
from bot.records import game_title
from bot.referee import Away
from bot.replies import Matched, language, reply, show_panel
from bot.store import Store
from bot.store.turns import Turn
from bot.tables import TableService
from bot.time_text import away_text
from games.core import GameError

TEMPLATE = r"turns:(?P<user>\d{1,19}):(?P<game>\d{1,19}):(?P<which>[nr])"
NEXT, RECAP = "n", "r"
# The most games each part of the list shows (the Next button still reaches every one).
LISTED = 12
# What each game waits on, by the action types its seat may take (``Game.required_to_act``): the
# first of the game's words whose actions are open names it (``turns.decision.<game>.<word>``).
DECISIONS: Mapping[str, Sequence[tuple[str, frozenset[str]]]] = {
    "bue": (("reveal", frozenset({"reveal"})), ("exchange", frozenset({"deck", "swap"}))),
    "seriebum": (
        ("bum", frozenset({"bum"})),
        ("steal", frozenset({"steal"})),
        ("place", frozenset({"place"})),
        ("flip", frozenset({"flip"})),
        ("rearrange", frozenset({"end_turn"})),
    ),
    "rummikub": (("move", frozenset({"play", "draw"})),),
    "rumbugz": (
        ("bid", frozenset({"bid", "decline"})),
        ("draw", frozenset({"draw"})),
        ("play", frozenset({"lay", "change"})),
        ("discard", frozenset({"discard"})),
    ),
}
# What /away's duration offers as it is typed.
AWAY_SUGGESTIONS = ("1d", "2d", "3d", "12h", AWAY_OFF[0])


class TurnsHost(Protocol):
    """The bot, as /turns and its buttons use it (``interaction.client`` for a click)."""

    @property
    def store(self) -> Store: ...

    @property
    def adapters(self) -> Mapping[str, GameAdapter]: ...

    @property
    def community(self) -> Community: ...

    @property
    def tables(self) -> TableService: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    async def guard(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None: ...


def decision_text(lang: str, kind: str, decision: str) -> str:
    """What a game waits on, in its own words (a move, a reveal, a bid)."""
    actions = frozenset(decision.split(","))
    for word, opens in DECISIONS.get(kind, ()):
        if actions & opens:
            return t(lang, f"turns.decision.{kind}.{word}")
    return t(lang, "turns.decision.move")


def turn_line(host: TurnsHost, lang: str, turn: Turn) -> str:
    """A game of the list: which, where, what it waits on and until when, and its table."""
    guild = host.get_guild(turn.guild_id)
    where = t(
        lang,
        "turns.where",
        game=game_title(lang, turn.kind),
        server=guild.name if guild is not None else t(lang, "turns.unknown_server"),
        channel=f"<#{turn.channel_id}>",
    )
    if turn.decision is not None and turn.due_at is not None:
        state = t(
            lang,
            "turns.yours",
            what=decision_text(lang, turn.kind, turn.decision),
            deadline=discord_time(turn.due_at, "R"),
        )
    elif turn.stand_in is not None:
        state = t(lang, "turns.stand_in")
    elif turn.next_due is not None:
        state = t(lang, "turns.others", deadline=discord_time(turn.next_due, "R"))
    else:
        state = t(lang, "turns.others_no_deadline")
    table = host.tables.links.table(lang, turn.kind, turn.jump_url)
    return f"{where} · {state} · {table}"


def turns_embed(host: TurnsHost, lang: str, turns: Sequence[Turn], focus: int, away: str) -> discord.Embed:
    """Every game of the list, the one in focus marked, and the player's away days."""
    embed = discord.Embed(title=t(lang, "turns.title"), colour=0x5865F2)
    parts = (
        ("turns.waiting_on_you", [index for index, turn in enumerate(turns) if turn.waits_on_them]),
        ("turns.waiting_on_others", [index for index, turn in enumerate(turns) if not turn.waits_on_them]),
    )
    for key, indexes in parts:
        if not indexes:
            continue
        lines = [
            ("▶️ " if index == focus else "• ") + turn_line(host, lang, turns[index])
            for index in indexes[:LISTED]
        ]
        if len(indexes) > LISTED:
            lines.append(t(lang, "turns.more", count=len(indexes) - LISTED))
        embed.add_field(name=t(lang, key, count=len(indexes)), value="\n".join(lines)[:1024], inline=False)
    embed.add_field(name=t(lang, "preferences.name.away"), value=away, inline=False)
    return embed


def turns_view(user_id: int, turns: Sequence[Turn], focus: int, lang: str) -> discord.ui.View:
    """**Next** (to the game after the one in focus; none after the last) and **What happened**."""
    view = discord.ui.View(timeout=None)
    game_id = turns[focus].game_id
    view.add_item(
        discord.ui.Button(
            label=t(lang, "turns.button.next"),
            emoji="⏭️",
            style=discord.ButtonStyle.primary,
            disabled=focus >= len(turns) - 1,
            custom_id=f"turns:{user_id}:{game_id}:{NEXT}",
        )
    )
    view.add_item(
        discord.ui.Button(
            label=t(lang, "turns.button.recap"), emoji="📜", custom_id=f"turns:{user_id}:{game_id}:{RECAP}"
        )
    )
    view.stop()
    return view


async def show_turns(host: TurnsHost, interaction: discord.Interaction, after: int | None = None) -> None:
    """The player's games, the first in focus, or the one after game ``after`` (Next)."""
    lang, user_id = language(interaction), interaction.user.id
    turns = await host.store.turns.of_player(user_id)
    focus = 0
    if after is not None:
        index = next((index for index, turn in enumerate(turns) if turn.game_id == after), None)
        if index is None:
            raise GameError("turns.error.not_running")
        focus = min(index + 1, len(turns) - 1)
    now = discord.utils.utcnow().timestamp()
    allowance = await host.community.allowance(user_id, interaction.guild, interaction.guild_id)
    away = away_text(lang, await host.community.away(user_id, now, allowance))
    if not turns:
        await reply(interaction, t(lang, "turns.none"), embeds=[discord.Embed(description=away)])
        return
    waiting = sum(turn.waits_on_them for turn in turns)
    heading = t(lang, "turns.heading", count=waiting, position=focus + 1, total=len(turns))
    content = f"{heading}\n{turn_line(host, lang, turns[focus])}"
    embed = turns_embed(host, lang, turns, focus, away)
    await show_panel(interaction, content, embeds=[embed], view=turns_view(user_id, turns, focus, lang))


async def show_recap(host: TurnsHost, interaction: discord.Interaction, game_id: int) -> None:
    """What happened in one of the player's running games since their last own move, privately."""
    lang, user_id = language(interaction), interaction.user.id
    snapshot = await host.tables.read(game_id)
    table = loaded(snapshot, host.adapters, host.tables.links) if snapshot is not None else None
    seat = table.seat_of(user_id) if isinstance(table, LoadedGame) else None
    if not isinstance(table, LoadedGame) or table.row.status != "running" or seat is None:
        raise GameError("turns.error.not_running")
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    row, viewer = table.row, table.viewer(seat, lang)
    try:
        told = await since_own_move(host.store, table.adapter, row, table.seats, viewer)
    except Exception as error:  # a log an engine no longer plays (see bot.replays.CannotReplay)
        raise GameError("turns.error.no_recap") from error
    text = told.text(viewer) if told is not None else ""
    heading = t(lang, "turns.recap.title", game=game_title(lang, row.kind))
    await reply(interaction, f"{heading}\n{text}"[:2000])


class TurnsButton(Matched, template=TEMPLATE):
    """**Next** and **What happened** of a /turns answer: only for the player it was made for."""

    async def callback(self, interaction: discord.Interaction) -> None:
        host: TurnsHost = interaction.client  # type: ignore[assignment]
        await host.guard(interaction, self._answer(host, interaction))

    async def _answer(self, host: TurnsHost, interaction: discord.Interaction) -> None:
        if int(self.match["user"]) != interaction.user.id:
            raise GameError("turns.error.not_yours")
        game_id = int(self.match["game"])
        if self.match["which"] == NEXT:
            await show_turns(host, interaction, after=game_id)
        else:
            await show_recap(host, interaction, game_id)


def turns_command(host: TurnsHost) -> app_commands.Command:
    # Not guild-only: a player's games across every server, asked anywhere, their DMs included.
    @app_commands.command(name="turns", description=described("turns.cmd"))
    async def turns(interaction: discord.Interaction) -> None:
        await show_turns(host, interaction)

    return turns


async def away_everywhere(host: TurnsHost, user_id: int, before: Span | None) -> None:
    """Each running game the player sits in takes their away time's change (``before``: their last
    span before it), by the one path: told in its channel, their clock stopped or running again."""
    for turn in await host.store.turns.of_player(user_id):
        try:
            await host.tables.act(turn.game_id, Away(user_id, before))
        except GameError:
            continue  # over, or left, since it was read


def away_command(host: TurnsHost) -> app_commands.Command:
    @app_commands.command(name="away", description=described("turns.cmd.away"))
    @app_commands.describe(duration=described("turns.cmd.away.duration"))
    async def away(interaction: discord.Interaction, duration: str) -> None:
        lang, user_id = language(interaction), interaction.user.id
        community = host.community
        now = discord.utils.utcnow().timestamp()
        allowance = await community.allowance(user_id, interaction.guild, interaction.guild_id)
        before, span = await community.go_away(user_id, str(duration), now, allowance)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        await away_everywhere(host, user_id, before)
        if span.ends > now:
            done = t(
                lang, "turns.away.set", until=discord_time(span.ends), relative=discord_time(span.ends, "R")
            )
        else:
            done = t(lang, "turns.away.back")
        status = away_text(lang, await community.away(user_id, now, allowance))
        await reply(interaction, f"✅ {done}\n{status}")

    @away.autocomplete("duration")
    async def durations(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = str(current).strip().lower()
        return [
            app_commands.Choice(name=value, value=value)
            for value in AWAY_SUGGESTIONS
            if value.startswith(typed)
        ]

    return away
