"""Persistent buttons and selects for every game: the custom_id carries the game and the move.

``gm:<game>:<version>:<move>:<argument>`` for buttons, ``gs:...`` for selects; ``version`` is the
game version the component was drawn at (see ``adapter.drawn_at``). They keep working after a
restart because nothing about them lives in memory. Ids are bounded so a forged one cannot name
a number the database cannot hold.
"""

from __future__ import annotations

import re
from collections.abc import Coroutine
from typing import Any, Protocol

import discord

from bot.replies import Matched, chosen_values


class ComponentHost(Protocol):
    """The bot a game's click reaches (``interaction.client``): what runs the move, and its guard
    that answers any error."""

    async def on_game_component(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        move: str,
        arg: str,
        values: list[str],
    ) -> None: ...

    async def guard(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None: ...


TEMPLATE = r"(?P<game>\d{1,19}):(?P<version>\d{1,19}):(?P<move>\w{1,40}):(?P<arg>.*)"


def _dispatch(interaction: discord.Interaction, match: re.Match[str]) -> Any:
    bot: ComponentHost = interaction.client  # type: ignore[assignment]
    values = chosen_values(interaction)
    work = bot.on_game_component(
        interaction, int(match["game"]), int(match["version"]), match["move"], match["arg"], values
    )
    return bot.guard(interaction, work)


class GameButton(Matched, template="gm:" + TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.match)


class GameSelect(Matched, template="gs:" + TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.match)
