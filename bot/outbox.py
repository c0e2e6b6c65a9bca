"""The outbox's record of a move's announcements: the publication committed with the move, and
the names of its parts, each marked in the outbox once sent (see ``bot.publisher.DELIVERY``)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.adapter import Rendered
from bot.store import GameRow, Pending
from games.core import Event

# The outbox part naming a publication's channel message.
CHANNEL_PART = "channel"
# The prefix of the outbox part naming a DM: "dm:<seat>".
DM_PART = "dm:"
# The outbox part naming the score chart, added to the channel message by an edit once drawn.
CHART_PART = "chart"
# The outbox part naming the table message when it is posted anew (see ``_post_table``).
TABLE_PART = "table"


@dataclass(frozen=True)
class Publication:
    """What players must be told after a committed move; saved in the outbox with the move.

    It is delivered from the state committed with it (the game's lock keeps any later move
    waiting until it is delivered), so it holds only what that state cannot tell: the events,
    who had to decide before, and the channel line's prefix.
    """

    events: list[Event]
    before: Mapping[int, frozenset[str]]
    prefix: str = ""
    show_hands: bool = False
    actor: int | None = None
    # Seats whose hand the move changed (see Game.hand): each is sent the new one.
    hands_changed: tuple[int, ...] = ()
    # The pictures it shows, drawn with the move (``TableService._draw_ahead``), by the version
    # drawn at and whose they are (None: the table). Never saved: one delivered after a restart
    # draws its own.
    pictures: Mapping[tuple[int, int | None], Rendered] = field(
        default_factory=dict, compare=False, repr=False
    )

    def to_json(self) -> dict[str, Any]:
        return {
            "events": [
                {"key": e.key, "params": e.params, "seats": None if e.seats is None else list(e.seats)}
                for e in self.events
            ],
            "before": {str(seat): sorted(actions) for seat, actions in self.before.items()},
            "prefix": self.prefix,
            "show_hands": self.show_hands,
            "actor": self.actor,
            "hands_changed": list(self.hands_changed),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Publication:
        return cls(
            events=[
                Event(e["key"], e["params"], None if e["seats"] is None else tuple(e["seats"]))
                for e in data["events"]
            ],
            before={int(seat): frozenset(actions) for seat, actions in data["before"].items()},
            prefix=data["prefix"],
            show_hands=data["show_hands"],
            actor=data["actor"],
            hands_changed=tuple(data.get("hands_changed", ())),
        )


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


def part_nonce(row: GameRow, pending: Pending, part: str) -> str:
    """The nonce of one part of a publication: the same whenever the part is sent, before and after
    a restart, so Discord (which discord.py asks to enforce nonces) keeps only one message of a
    part sent again after a crash came between sending it and marking it sent. The game's random
    seed keeps a database made anew (same ids, same versions) from reusing a recent nonce.
    Discord's nonces are at most 25 characters: a 24-digit hexadecimal digest."""
    key = f"{pending.game_id}:{row.seed}:{pending.version}:{part}".encode()
    return hashlib.blake2b(key, digest_size=12).hexdigest()
