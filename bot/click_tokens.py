"""The tokens of clicks on a kept message (a table, a lobby), which edit it uncounted.

A click answered by an update of the public message it was on (its own update, or a deferred one
while the panel it opens comes as a follow-up) leaves a token whose ``@original`` is that message.
For Discord's 15 minutes, an edit through it is an interaction's, not counted against the bot's
limit of 50 calls a second: the deliveries edit the kept message through the newest such token,
and by the channel's counted edit when none is fresh (none yet, one older than the margin, a
restart) or Discord refuses it. Held in memory only: a token is worth minutes, not a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

log = logging.getLogger(__name__)

# A token is used until this long before Discord's 15 minutes end: an edit may wait for a
# picture or a retry meanwhile.
MARGIN = 60.0

# The answers after which a click's ``@original`` is the message it was on.
UPDATES = (
    discord.InteractionResponseType.message_update,
    discord.InteractionResponseType.deferred_message_update,
)


class ClickTokens:
    """The newest fresh token of a click on each public message, by the message's id; ``now``
    the bot's clock (seconds since the epoch)."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self._held: dict[int, discord.Interaction] = {}

    def hold(self, interaction: discord.Interaction) -> None:
        """Keep the token of a click, when it was answered by an update of the public message
        it was on."""
        message = interaction.message
        if (
            interaction.type is not discord.InteractionType.component
            or message is None
            or message.guild is None
            or message.flags.ephemeral
            or interaction.response.type not in UPDATES
        ):
            return
        held = self._held.get(message.id)
        if held is None:
            # A new message's first token: the stale ones of messages left behind go (only here,
            # not at every click, which mostly lands on a message already held).
            self._held = {key: kept for key, kept in self._held.items() if self._fresh(kept)}
        if held is None or held.created_at < interaction.created_at:
            self._held[message.id] = interaction

    def _fresh(self, interaction: discord.Interaction) -> bool:
        return self.now() < interaction.expires_at.timestamp() - MARGIN

    def holds(self, message_id: int) -> bool:
        """Whether a fresh token of a click on the message is held."""
        held = self._held.get(message_id)
        return held is not None and self._fresh(held)

    async def edit(self, message_id: int, **body: Any) -> bool:
        """Edit the message through the fresh token of a click on it: False when none is held or
        Discord refused it (the token is then dropped, and the caller edits by the channel)."""
        held = self._held.get(message_id)
        if held is None or not self._fresh(held):
            return False
        try:
            await held.edit_original_response(**body)
            return True
        except discord.HTTPException as error:
            log.info("message %s not edited by a click's token (%s)", message_id, error)
            if self._held.get(message_id) is held:
                del self._held[message_id]
            return False
