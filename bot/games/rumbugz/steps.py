"""The steps of a turn as the table's buttons, and the limits Discord sets every panel."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from games.rumbugz.bugz import HIGHEST_NUMBER, KINDS, LOWEST_NUMBER

# Discord: 25 options to a select, 5 rows to a message, 100 characters to a custom_id or a label.
OPTIONS_PER_SELECT = 25
ROWS = 5
CUSTOM_ID_LIMIT = 100
LABEL_LIMIT = 100
# A hand of more than 50 Bugz (playouts never went past about 30) offers its first 50 in menus.
HAND_MENUS = 2
# The longest sequence: 1 to 12 (or a match of eight copies and four PLYTs).
LONGEST_SEQUENCE = HIGHEST_NUMBER - LOWEST_NUMBER + 1

KIND_OF_LETTER = {kind[0]: kind for kind in KINDS}


@dataclass(frozen=True)
class TurnStep:
    """A button for one step of a turn: the engine action it takes and how it looks.

    ``label_with_top`` names the discard's top Bug, when the step is about it.
    """

    action: str
    label: str
    emoji: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    label_with_top: str | None = None


# In the order a turn goes; the keys are the buttons' moves.
STEPS: dict[str, TurnStep] = {
    "bag": TurnStep("draw", "rumbugz.label.draw_bag", "🎲", discord.ButtonStyle.primary),
    "pile": TurnStep("draw", "rumbugz.label.draw_discard", "♻️", label_with_top="rumbugz.ui.button.take"),
    "lay": TurnStep("lay", "rumbugz.label.lay", "🧩", discord.ButtonStyle.primary),
    "change": TurnStep("change", "rumbugz.label.change", "🔧"),
    "discard": TurnStep("discard", "rumbugz.label.discard", "🗑️"),
    "bid": TurnStep("bid", "rumbugz.label.bid", "🙋", discord.ButtonStyle.success, "rumbugz.ui.button.bid"),
}
# What the table offers everyone in each phase of the turn.
PHASE_STEPS = {"draw": ("bag", "pile"), "play": ("lay", "change", "discard"), "discard": ("discard",)}
