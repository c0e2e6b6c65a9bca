"""``/replay`` and the replay panel's buttons and select: a finished match, privately, position by
position. The panel's state (the match, the position, whether every hand shows) is all in its
custom ids, so a panel keeps working after a restart."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.adapter import number
from bot.i18n import described, t
from bot.replays import BUTTON_TEMPLATE, EXPORT, SELECT_TEMPLATE, ReplayService
from bot.replies import Matched, chosen_values, language, reply, show_panel
from games.core import GameError

MATCH_ID_DIGITS = 19


class ReplayHost(Protocol):
    """The bot a replay's click reaches (``interaction.client``)."""

    @property
    def replays(self) -> ReplayService: ...

    async def guard(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None: ...


def match_id(text: object) -> int:
    """The match chosen in ``/replay``: the id its autocomplete offers; anything else is unknown."""
    value = str(text).strip()
    if not (value.isascii() and value.isdigit() and len(value) <= MATCH_ID_DIGITS):
        raise GameError("replay.error.unknown")
    return int(value)


async def acknowledge(interaction: discord.Interaction) -> None:
    """Tell Discord the answer is coming (a match not replayed yet is replayed first): the panel
    clicked is edited later, or a private answer follows."""
    if interaction.response.is_done():
        return
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def show(
    replays: ReplayService, interaction: discord.Interaction, game_id: int, step: int, hands: bool
) -> None:
    """The position ``step`` of the match, replacing the replay panel clicked, or as a new private
    answer (from ``/replay`` or a /history entry)."""
    row, seats = await replays.finished(interaction.guild_id, game_id)
    if not replays.cached(game_id):
        await acknowledge(interaction)
    panel = await replays.panel(row, seats, step, hands, interaction.user.id, language(interaction))
    await show_panel(interaction, panel.content, embeds=panel.embeds, file=panel.file, view=panel.view)


async def export(replays: ReplayService, interaction: discord.Interaction, game_id: int) -> None:
    """The match as a JSON file, in a private answer of its own."""
    row, seats = await replays.finished(interaction.guild_id, game_id)
    if not replays.cached(game_id):
        await interaction.response.defer(ephemeral=True, thinking=True)
    file = await replays.export(row, seats)
    await reply(interaction, t(language(interaction), "replay.export_note", file=file.filename), file=file)


class ReplayButton(Matched, template=BUTTON_TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        host: ReplayHost = interaction.client  # type: ignore[assignment]
        game_id = int(self.match["game"])
        if self.match["which"] == EXPORT:
            work = export(host.replays, interaction, game_id)
        else:
            step, hands = int(self.match["step"]), self.match["hands"] == "1"
            work = show(host.replays, interaction, game_id, step, hands)
        await host.guard(interaction, work)


class ReplaySelect(Matched, template=SELECT_TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        host: ReplayHost = interaction.client  # type: ignore[assignment]
        await host.guard(interaction, self._jump(host.replays, interaction))

    async def _jump(self, replays: ReplayService, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction)
        step = number(values[0] if values else "")
        await show(replays, interaction, int(self.match["game"]), step, self.match["hands"] == "1")


class ReplayServices(Protocol):
    @property
    def replays(self) -> ReplayService: ...


def replay_command(services: ReplayServices) -> app_commands.Command:
    @app_commands.command(name="replay", description=described("replay.cmd"))
    @app_commands.describe(match=described("replay.cmd.match"))
    @app_commands.guild_only()
    async def replay(interaction: discord.Interaction, match: str) -> None:
        await show(services.replays, interaction, match_id(match), 0, False)

    @replay.autocomplete("match")
    async def matches(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await services.replays.choices(interaction.guild_id or 0, str(current), language(interaction))

    return replay
