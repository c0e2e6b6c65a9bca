"""What Discord's refusals mean for a message the bot keeps up to date (the table, the lobby), and
how such a message is posted anew at the bottom of its channel when Discord will no longer edit it.

Discord caps the edits of a message older than an hour (error 30046; the cap is not published,
reports say about 3 edits in 20 s per channel): a table edited in place all day would freeze. So
a message kept up to date is posted anew once it is older than ``REPOST_AGE``, before the cap can
refuse it, and whenever an edit is refused for a reason that posting anew gets round; the old
message is retired (a line pointing to the new one, nothing to click).
"""

from __future__ import annotations

import enum
import logging

import aiohttp
import discord

log = logging.getLogger(__name__)

# Discord refuses edits of a message older than an hour past an unpublished rate (30046): a kept
# message is posted anew at its first edit after this age, with a margin for the time a
# publication takes and for clocks. In a game played across a day this also keeps the table at the
# bottom of the channel, where players look, at least once an hour they play.
REPOST_AGE = 50 * 60.0
# And once this many messages were posted under it (``bot.traffic``): half of the 50 that Discord's
# client, and SimCord's page, load as a channel opens, so the table and its buttons stay on that
# first page with room for what is said meanwhile; a Bué round against computers posts about six
# lines, so a busy table moves down about every four rounds, not at every move.
REPOST_AFTER = 25

# Discord's codes for "you may not" (Missing Access, Missing Permissions): posting anew would be
# refused as well.
NOT_ALLOWED_CODES = frozenset({50001, 50013})
# Discord's code for "you are opening direct messages too fast" (a 403 that is no refusal).
OPENING_DMS_TOO_FAST = 40003
# Discord's code for "cannot send messages to this user": their DMs are closed to the bot.
CANNOT_DM = 50007


class Refusal(enum.Enum):
    """What to do about a failed edit or send."""

    GONE = "gone"  # the message was deleted: post it anew, nothing to retire
    NOT_ALLOWED = "not allowed"  # a lost permission: nothing to do until it is given back
    LATER = "later"  # Discord's servers, its rate limits or the network: the same, later
    POST_ANEW = "post anew"  # refused for this message (30046 and the like): post it anew


def refusal(error: BaseException) -> Refusal | None:
    """What ``error`` means, or None when it is no answer of Discord's (a bug: let it rise)."""
    if isinstance(error, (aiohttp.ClientError, OSError)):
        return Refusal.LATER
    if not isinstance(error, discord.HTTPException):
        return None
    if error.status >= 500 or error.status == 429 or error.code == OPENING_DMS_TOO_FAST:
        # A 429 reaches us only once discord.py has waited and tried again itself.
        return Refusal.LATER
    if isinstance(error, discord.NotFound):
        return Refusal.GONE
    if error.status == 401 or (isinstance(error, discord.Forbidden) and error.code in NOT_ALLOWED_CODES):
        return Refusal.NOT_ALLOWED
    return Refusal.POST_ANEW


def transient(error: BaseException) -> bool:
    """A failure worth trying again: Discord's servers (5xx), its limits (429, DMs opened too
    fast), or the way to them; not a refusal."""
    return refusal(error) is Refusal.LATER


def due_for_repost(message_id: int, now: float, messages_after: int = 0) -> bool:
    """Whether a kept message's next edit posts it anew: it is old (``REPOST_AGE``), or buried under
    ``messages_after`` messages (``REPOST_AFTER``)."""
    old = now - discord.utils.snowflake_time(message_id).timestamp() >= REPOST_AGE
    return old or messages_after >= REPOST_AFTER


async def retire(channel: discord.abc.Messageable, message_id: int, pointer: str) -> None:
    """The old message, once posted anew: only a line pointing to the new one, nothing to click.
    Discord may refuse this edit too (the same cap on an old message's edits): it is then deleted,
    which no cap holds back. Discord's failures rise (the caller tries again later); a message
    gone, or one the bot may no longer touch, is left as it is (its clicks still answer, each with
    the game as it stands)."""
    message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
    try:
        await message.edit(content=pointer, embeds=[], attachments=[], view=None)
    except discord.HTTPException as error:
        if refusal(error) is Refusal.POST_ANEW:
            log.info("message %s not retired by an edit (%s): deleted", message_id, error)
            await _delete(message)
        elif refusal(error) is not Refusal.LATER:
            log.info("message %s not retired (%s); its clicks still answer", message_id, error)
        else:
            raise


async def _delete(message: discord.PartialMessage) -> None:
    try:
        await message.delete()
    except discord.HTTPException as error:
        if refusal(error) is Refusal.LATER:
            raise
        log.info("message %s not deleted either (%s); its clicks still answer", message.id, error)
