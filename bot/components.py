"""Persistent buttons and selects for every game: the custom_id carries the game and the move.

``gm:<game>:<move>:<argument>`` for buttons, ``gs:<game>:<move>:<argument>`` for selects.
They keep working after a restart because nothing about them lives in memory.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.client import GameBot


async def _dispatch(
    interaction: discord.Interaction, game_id: int, move: str, arg: str, values: list[str]
) -> None:
    bot: GameBot = interaction.client  # type: ignore[assignment]
    await bot.guard(interaction, bot.on_game_component(interaction, game_id, move, arg, values))


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gm:(?P<game>\d+):(?P<move>\w+):(?P<arg>.*)"
):
    def __init__(self, button: discord.ui.Button[Any], game_id: int, move: str, arg: str) -> None:
        super().__init__(button)
        self.game_id, self.move, self.arg = game_id, move, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(item, int(match["game"]), match["move"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.game_id, self.move, self.arg, [])


class GameSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"gs:(?P<game>\d+):(?P<move>\w+):(?P<arg>.*)"
):
    def __init__(self, select: discord.ui.Select[Any], game_id: int, move: str, arg: str) -> None:
        super().__init__(select)
        self.game_id, self.move, self.arg = game_id, move, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> GameSelect:
        return cls(item, int(match["game"]), match["move"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.game_id, self.move, self.arg, list(self.item.values))
