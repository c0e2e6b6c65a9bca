"""The reference for a click's cost: a bare discord.py bot that answers a button with a fixed
reply and edits one message, and does nothing else (no database, no game, no image)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

BUTTON_ID = "bare:click"
BUTTON_LABEL = "Click"


class Panel(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.clicks = 0

    @discord.ui.button(label=BUTTON_LABEL, custom_id=BUTTON_ID)
    async def click(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.clicks += 1
        await interaction.response.send_message("Done", ephemeral=True)
        assert interaction.message is not None
        await interaction.message.edit(content=f"{self.clicks} clicks")


class BareBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True), max_messages=None)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="panel", description="Post the panel")
        async def panel(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("0 clicks", view=Panel())

    async def setup_hook(self) -> None:
        self.add_view(Panel())
        await self.tree.sync()
