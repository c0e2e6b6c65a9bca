"""A toy fifth game, added the way the recipe (docs/development.md) adds one, to prove the recipe: a
race to a target where each turn adds 1, 2 or 3. It lives with the tests and is registered only by them
(``tests/recipe/test_toy_game.py``); the shipped bot knows nothing of it."""

from __future__ import annotations

from bot.commands import GameHost, game_group
from tests.toy.adapter import ADAPTER

__all__ = ["ADAPTER", "setup"]


async def setup(bot: GameHost) -> None:
    bot.register(ADAPTER, game_group(bot, ADAPTER))
