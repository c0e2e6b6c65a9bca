"""The outbox's parts: the names of a publication's parts, each marked in the outbox once sent
(see ``bot.publisher.DELIVERY``), the record of a kept message being posted anew, and the nonce
that makes a part (or any message sent once across a crash) sent twice one message."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.store import GameRow, Pending

# The outbox part naming a publication's channel message.
CHANNEL_PART = "channel"
# The prefix of the outbox part naming a DM: "dm:<seat>".
DM_PART = "dm:"
# The outbox part naming the score chart, added to the channel message by an edit once drawn.
CHART_PART = "chart"
# The outbox part naming the table message when it is posted anew (see ``_post_table``).
TABLE_PART = "table"


@dataclass(frozen=True)
class TableRepost:
    """The table being posted anew by a publication, recorded in its outbox parts before the post
    (``table:<old message id>``, and ``:gone`` when it was deleted): a delivery after a crash
    resumes it rather than edit the old message again."""

    old: int | None
    gone: bool = False

    def part(self) -> str:
        return f"{TABLE_PART}:{self.old or ''}" + (":gone" if self.gone else "")

    @classmethod
    def begun(cls, pending: Pending) -> TableRepost | None:
        prefix = f"{TABLE_PART}:"
        part = next((part for part in pending.delivered if part.startswith(prefix)), None)
        if part is None:
            return None
        old, _, gone = part.removeprefix(prefix).partition(":")
        return cls(int(old) if old else None, gone=bool(gone))


def stable_nonce(*names: object) -> str:
    """The nonce of one message, from what names it: the same whenever it is sent, before and
    after a restart, so Discord (which discord.py asks to enforce nonces) keeps only one message
    of one sent again after a crash came between sending it and saving that it was sent. Discord's
    nonces are at most 25 characters: a 24-digit hexadecimal digest."""
    key = ":".join(map(str, names)).encode()
    return hashlib.blake2b(key, digest_size=12).hexdigest()


def part_nonce(row: GameRow, pending: Pending, part: str) -> str:
    """The nonce of one part of a publication (``stable_nonce``); the game's random seed keeps a
    database made anew (same ids, same versions) from reusing a recent nonce."""
    return stable_nonce(pending.game_id, row.seed, pending.version, part)
