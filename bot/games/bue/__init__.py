"""Bué in Discord: the table, private hands, and the exchange and reveal flows."""

from __future__ import annotations

from bot.commands import GameHost, game_group
from bot.games.bue.adapter import ADAPTER

__all__ = ["ADAPTER", "setup"]


async def setup(bot: GameHost) -> None:
    bot.register(ADAPTER, game_group(bot, ADAPTER))
