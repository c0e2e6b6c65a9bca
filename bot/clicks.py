"""A click's checks, made once where it arrives: the channel it may come from, and the version its
custom id carries against its player's decision. The game's own legality is the referee's
(``bot.referee``); the commit's version check is the database's guarantee, not a third check."""

from __future__ import annotations

import discord

from bot.adapter import Click, GameAdapter
from bot.model import RUNNING, GameRow
from bot.store import Snapshot
from games.core import GameError


class OutOfDate(GameError):
    """The commit was refused twice: the game moved on since it was read (see ``StaleVersion``)."""

    def __init__(self) -> None:
        super().__init__("error.out_of_date")


class TableMovedOn(GameError):
    """A click made for a decision that is no longer open: the player is shown the table again."""

    def __init__(self) -> None:
        super().__init__("error.table_moved_on")


def check_version(click: Click, snapshot: Snapshot, *, adapter: GameAdapter) -> None:
    """Refuse a click drawn (at ``click.version``) before its player's decision last changed. A
    move that answers no decision (``free_moves``), or one opening a panel on the game as it stands
    (``current_moves``), any version may make."""
    if click.move in adapter.free_moves or click.move in adapter.current_moves:
        return
    if snapshot.game.status != RUNNING:
        return
    seat = next((s for s in snapshot.seats if s.user_id == click.user_id and not s.gone), None)
    if seat is not None and click.version < seat.decision_since:
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
