"""Answering interactions: one place for ephemeral replies and for turning errors into them."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, Self, TypedDict, Unpack

import discord
from discord import app_commands

from bot.i18n import language_of, t
from games.core import GameError

log = logging.getLogger(__name__)


# The longest text of a message Discord takes.
MESSAGE_LIMIT = 2000


def truncate(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# Where an interaction carries the language its user chose in /preferences (see ``prefer``).
CHOSEN_LANGUAGE = "chosen_language"


def language(interaction: discord.Interaction) -> str:
    """The language to answer the user in: the one they chose, else their Discord's."""
    return language_of(interaction.extras.get(CHOSEN_LANGUAGE) or interaction.locale)


def prefer(interaction: discord.Interaction, chosen: str | None) -> None:
    """The user chose ``chosen`` (None: their Discord's) for the bot's answers to them."""
    interaction.extras[CHOSEN_LANGUAGE] = chosen


class Body(TypedDict, total=False):
    """What an answer shows besides its text."""

    embeds: list[discord.Embed] | None
    file: discord.File | None
    view: discord.ui.View | None


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = True,
    **body: Unpack[Body],
) -> None:
    """Answer whether or not the interaction was already deferred or answered."""
    kwargs: dict[str, Any] = {"content": content, "embeds": body.get("embeds") or [], "ephemeral": ephemeral}
    # A new message takes no file or view at all, never a None.
    kwargs.update((key, value) for key in ("file", "view") if (value := body.get(key)) is not None)
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


def is_private(message: discord.Message | None) -> bool:
    """An ephemeral panel or a DM: only the player it was sent to can see it."""
    return message is not None and (message.flags.ephemeral or message.guild is None)


async def replace(interaction: discord.Interaction, content: str | None = None, **body: Unpack[Body]) -> None:
    """Replace the private panel a component sits on. A public message (the table, clicked by a
    forged or stale interaction) is never edited with a private answer: that comes as a new
    ephemeral message instead."""
    if not is_private(interaction.message):
        await reply(interaction, content, **body)
        return
    file = body.get("file")
    kwargs: dict[str, Any] = {
        "content": content,
        "embeds": body.get("embeds") or [],
        "view": body.get("view"),
        "attachments": [file] if file is not None else [],
    }
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def show_panel(
    interaction: discord.Interaction, content: str | None = None, **body: Unpack[Body]
) -> None:
    """A private panel: it replaces the ephemeral panel it was opened from, or comes as a new one."""
    message = interaction.message
    answer = replace if message is not None and message.flags.ephemeral else reply
    await answer(interaction, content, **body)


async def show_game_panel(
    interaction: discord.Interaction, content: str | None = None, **body: Unpack[Body]
) -> None:
    """A game's private panel. Opened from its table, the click is answered by a deferred update of
    the table and the panel comes as a follow-up: the click's token then edits the table, uncounted,
    as moves are made from the panel (``bot.click_tokens``)."""
    message = interaction.message
    on_the_table = message is not None and message.guild is not None and not message.flags.ephemeral
    if on_the_table and not interaction.response.is_done():
        await interaction.response.defer()
    await show_panel(interaction, content, **body)


class NothingYet(GameError):
    """An empty answer (no match finished yet, say): a private note saying what to do, not a warning."""


CLAIM = "answered_by"


def claim(interaction: discord.Interaction) -> None:
    """Say that a handler of ours has the interaction and will answer it (see ``unclaimed``)."""
    claim_of(interaction).set()


def claim_of(interaction: discord.Interaction) -> asyncio.Event:
    # discord.py hands the same Interaction to the command tree, the components and on_interaction.
    event: asyncio.Event = interaction.extras.setdefault(CLAIM, asyncio.Event())
    return event


async def unclaimed(interaction: discord.Interaction, wait: float) -> bool:
    """Whether no handler of ours took the interaction within ``wait`` seconds and nothing
    answered it: discord.py drops some forged ones before any handler runs, and only logs them.
    Ours take theirs in their first step, which runs before ``on_interaction``'s: only those
    nothing took wait."""
    taken = claim_of(interaction)
    if not taken.is_set():
        await asyncio.sleep(wait)
    return not taken.is_set() and not interaction.response.is_done()


# What discord.py raises for options no Discord client sends: a value that is not among the
# choices or not of the declared type, options the command does not have.
FORGED_OPTIONS = (
    app_commands.TransformerError,
    app_commands.CommandSignatureMismatch,
    app_commands.CommandNotFound,
)


async def make_sure_answered(interaction: discord.Interaction) -> None:
    """The last step of every command and click (``GameBot.guard``, the command tree's
    completion): one its handler left unanswered is answered here, so Discord never tells a
    player "The application did not respond"; logged, being a handler's oversight."""
    if interaction.response.is_done() or interaction.type not in ANSWERABLE:
        return
    log.warning("interaction %s (type %s) left unanswered by its handler", interaction.id, interaction.type)
    await reply(interaction, t(language(interaction), "common.done"))


# The interactions Discord waits an answer for (an autocompletion answers itself, with choices).
ANSWERABLE = (
    discord.InteractionType.application_command,
    discord.InteractionType.component,
    discord.InteractionType.modal_submit,
)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """A GameError becomes an ephemeral message in the user's language; anything else is logged."""
    if isinstance(error, FORGED_OPTIONS):
        log.info("refused forged options in interaction %s: %s", interaction.id, type(error).__name__)
        error = GameError("error.forged_options")
    if isinstance(error, GameError):
        # Lists (of tiles, say) read as the codes players type.
        params = {k: " ".join(map(str, v)) if isinstance(v, list) else v for k, v in error.params.items()}
        text = ("" if isinstance(error, NothingYet) else "⚠️ ") + t(language(interaction), error.key, **params)
    else:
        # Not the interaction's data: its values and custom_id may name cards of a hidden hand.
        log.error(
            "unexpected error in interaction %s (type %s)", interaction.id, interaction.type, exc_info=error
        )
        text = t(language(interaction), "error.unexpected")
    try:
        await reply(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell the user about an error", exc_info=True)


def chosen_values(interaction: discord.Interaction) -> list[str]:
    """The values chosen in a select, read defensively: a forged interaction may carry a
    select's id on a button, or anything as values."""
    data: Any = interaction.data or {}
    values = data.get("values") if isinstance(data, dict) else None
    return [str(value) for value in values] if isinstance(values, list) else []


class Matched(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?!)"):
    """A persistent button or select rebuilt from its custom id, which keeps the id's match for its
    callback. Never registered itself (its template matches nothing): each subclass names its own."""

    def __init__(self, item: discord.ui.Item[Any], match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(item, match)
