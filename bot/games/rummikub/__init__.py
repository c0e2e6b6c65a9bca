"""Rummikub in Discord: the table and racks as images, playing by naming rack tiles."""

from __future__ import annotations

from collections import Counter

import discord
from discord import app_commands

from bot.commands import GameHost, game_group, game_here
from bot.games.rummikub.adapter import ADAPTER, DRAW, drew, play_action, played
from bot.games.rummikub.table import SELECT_LIMIT
from bot.i18n import described
from games.core import GameError
from games.rummikub.tiles import parse_tiles, sorted_tiles

__all__ = ["ADAPTER", "setup"]


async def setup(bot: GameHost) -> None:
    group = game_group(bot, ADAPTER)
    tables, moves = bot.tables, bot.moves

    async def running_game(interaction: discord.Interaction) -> int:
        return await game_here(tables, interaction, ADAPTER.name)

    @group.command(name="play", description=described("rummikub.cmd.play"))
    @app_commands.describe(tiles=described("rummikub.cmd.option.tiles"))
    async def play(interaction: discord.Interaction, tiles: str) -> None:
        # str(): a forged interaction may send any JSON type for the option.
        codes = parse_tiles(str(tiles).replace(".", " "))
        game_id = await running_game(interaction)
        await moves.command(interaction, game_id, play_action(codes), played(interaction, codes))

    @play.autocomplete("tiles")
    async def rack_tiles(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Suggest what was typed plus one more tile still on the player's rack."""
        try:
            table = await tables.load(await running_game(interaction))
        except GameError:
            return []
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return []
        typed = current.strip().split()
        remaining: Counter[str] = Counter(table.game.view(seat)["rack"])
        complete = []
        for token in typed[:-1] if typed and not current.endswith(" ") else typed:
            remaining[token.lower()] -= 1
            complete.append(token.lower())
        prefix = "" if not typed or current.endswith(" ") else typed[-1].lower()
        options = [
            code for code in dict.fromkeys(sorted_tiles(remaining.elements())) if code.startswith(prefix)
        ]
        return [
            app_commands.Choice(name=" ".join([*complete, code]), value=" ".join([*complete, code]))
            for code in options[:SELECT_LIMIT]
        ]

    @group.command(name="draw", description=described("rummikub.cmd.draw"))
    async def draw(interaction: discord.Interaction) -> None:
        await moves.command(interaction, await running_game(interaction), DRAW, drew(interaction))

    bot.register(ADAPTER, group)
