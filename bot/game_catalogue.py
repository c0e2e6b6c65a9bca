"""The games the bot plays, one extension each (``bot/games/<game>/``): a list of names that
imports nothing, so the offline replayer finds a game without the Discord client."""

from __future__ import annotations

GAME_EXTENSIONS: tuple[str, ...] = (
    "bot.games.bue",
    "bot.games.seriebum",
    "bot.games.rummikub",
    "bot.games.rumbugz",
)
