"""A click's staleness: the read it plays from, the version its panel was drawn at, the game's lock
that tells whether the read still stands, and the channel it may come from."""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

import discord

from bot.adapter import Table, drawn_at
from bot.store import GameRow, SeatRow, Snapshot
from games.core import GameError


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
