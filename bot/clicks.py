"""A click's staleness: the read it plays from, the version its panel was drawn at, the game's lock
that tells whether the read still stands, and the channel it may come from."""

from __future__ import annotations

import asyncio
from typing import Literal

import discord

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


class TableMovedOn(GameError):
    """A click made for a decision that is no longer open: the player is shown the table again."""

    def __init__(self) -> None:
        super().__init__("error.table_moved_on")


def check_fresh(seat: SeatRow, seen: int | None) -> None:
    """Refuse a click drawn at version ``seen`` (None: a click any version may make) before its
    player's decision last changed."""
    if seen is not None and seen < seat.decision_since:
        raise TableMovedOn


def check_click(interaction: discord.Interaction, snapshot: Snapshot, seen: int | None) -> None:
    """Before a panel opens: refuse a click drawn at ``seen`` from a table since moved on."""
    if snapshot.game.status != "running":
        return
    seat = next((s for s in snapshot.seats if s.user_id == interaction.user.id), None)
    if seat is not None:
        check_fresh(seat, seen)


def check_origin(interaction: discord.Interaction, row: GameRow, *, private: bool) -> None:
    """A game is played from its own channel; with ``private``, also from a player's own DMs
    (whose player the seat lookup then checks). Another server or channel never reaches it."""
    if interaction.guild_id is None:
        if private:
            return
    elif interaction.guild_id == row.guild_id and interaction.channel_id == row.channel_id:
        return
    raise GameError("error.wrong_channel")
