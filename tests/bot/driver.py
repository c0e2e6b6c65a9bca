"""What every game's test driver shares: a guild with a channel and its players, the lobby, the
database as the test's oracle, and the table message.

The database is read only as the oracle (to choose moves and to check what the bot showed
against what each player may know), or written to put a hand-built position in place.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar, Generic, TypeVar

import asyncpg

from bot.refusals import REPOST_AFTER
from bot.render import faces_in
from bot.store.postgres import numbered_placeholders
from bot.traffic import SAVE_EVERY
from games.core import Game

NAMES = ("anna", "bruno", "carla", "dario", "elena", "fabio", "gina", "ivo", "lea", "marco")

GameT = TypeVar("GameT", bound=Game)


class Opened:
    """What a click showed its user, ``response`` as it stands now, as for any click's result: a
    click on a public message (the table, a lobby) that opens a private panel is answered by a
    deferred update of that message (whose token then edits it uncounted: bot/click_tokens.py),
    and the panel comes as its follow-up."""

    def __init__(self, result: Any) -> None:
        self.result = result

    @property
    def response(self) -> Any:
        followups = self.result.followups
        return followups[-1] if followups else self.result.response


def refuse_edits(env: Any, channel_id: int, message_id: int | str, **error: Any) -> None:
    """Discord refuses edits of the message with ``error`` (``times`` of them, once by default):
    by the channel's route, and through a click's token (``@original``), which edits a table
    when one is fresh (bot/click_tokens.py): 30046 caps the edits of an old message whoever
    makes them."""
    env.inject_error("PATCH", f"/channels/{channel_id}/messages/{message_id}", **error)
    env.inject_error("PATCH", "/webhooks/*/messages/@original", **error)


def components(message: Any) -> list[Any]:
    """The buttons and selects of a channel message or of an interaction's response."""
    message = getattr(message, "message", message)
    return [child for row in message.components for child in row.children]


def move_of(custom_id: str | None) -> tuple[str, int, str, str] | None:
    """(gm or gs, game id, move, argument) of a game component's custom_id; None for any other."""
    if not custom_id or custom_id[:3] not in ("gm:", "gs:"):
        return None
    kind, game, _version, move, arg = custom_id.split(":", 4)
    return kind, int(game), move, arg


def component_for(message: Any, game_id: int, move: str, *, kind: str = "gm", arg: str = "") -> Any:
    """The component of ``message`` for this game's ``move`` with argument ``arg``."""
    return next(c for c in components(message) if move_of(c.custom_id) == (kind, game_id, move, arg))


def postgres_query(url: str, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """The oracle's query on PostgreSQL: run to completion, on its own loop in a helper thread,
    while the test's loop (and the bot on it) waits."""

    async def run() -> list[tuple[Any, ...]]:
        connection = await asyncpg.connect(url)
        try:
            return [tuple(row) for row in await connection.fetch(numbered_placeholders(sql), *params)]
        finally:
            await connection.close()

    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, run()).result()


class TableDriver(Generic[GameT]):
    """Plays one game through the real bot as users would; subclasses add the game's own moves."""

    engine: type[GameT]
    default_players: ClassVar[int] = 3
    # Text that only a player's own messages may hold, never the channel.
    private_markers: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        env: Any,
        database: str,
        players: int | None = None,
        shard: int | None = None,
        *,
        guild: Any = None,
        members: Sequence[Any] = (),
    ) -> None:
        """A server of its own with new players; or, given ``guild`` and its ``members``, a channel
        of its own in that server for them (several games in a server, people in two servers)."""
        self.env = env
        self.database = database
        self.guild = env.create_guild(shard_id=shard) if guild is None else guild
        self.channel = self.guild.create_text_channel("games")
        if members:
            self.members = list(members)
        else:
            count = self.default_players if players is None else players
            self.members = [self.guild.add_member(env.create_user(name)) for name in NAMES[:count]]
        self.game_id = 0

    # ------------------------------------------------------------------ oracle

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        if self.database.startswith("postgresql://"):
            return postgres_query(self.database, sql, params)
        with sqlite3.connect(self.database) as db:
            return db.execute(sql, params).fetchall()

    def state(self) -> GameT:
        (raw,) = self.query("SELECT state FROM games WHERE id = ?", self.game_id)[0]
        return self.engine.from_json(json.loads(raw))

    def arrange(self, game: GameT) -> None:
        """Put a hand-built position in place of the dealt one (the test's arrange step)."""
        self.query("UPDATE games SET state = ? WHERE id = ?", json.dumps(game.to_json()), self.game_id)

    def version(self) -> int:
        return self.query("SELECT version FROM games WHERE id = ?", self.game_id)[0][0]

    def status(self) -> str:
        return self.query("SELECT status FROM games WHERE id = ?", self.game_id)[0][0]

    # ------------------------------------------------------------------ what players see

    def table_id(self) -> int:
        return self.query("SELECT message_id FROM games WHERE id = ?", self.game_id)[0][0]

    def table_message(self) -> Any:
        """The table message as it is now."""
        return next(m for m in self.channel.history() if m.id == self.table_id())

    def kept_table(self, table_id: int) -> int:
        """The table's id now: ``table_id`` still, unless the messages posted under it buried it (a
        busy channel's table is posted anew at the bottom, ``bot.refusals.REPOST_AFTER``), checked.
        Counted in memory, saved every ``SAVE_EVERY``: a restart loses fewer, and a click answered
        with the table itself reads the saved count alone."""
        now = self.table_id()
        if now != table_id:
            under = [message for message in self.channel.history() if table_id < message.id < now]
            assert REPOST_AFTER - SAVE_EVERY < len(under) < REPOST_AFTER + SAVE_EVERY + 3, len(under)
        return now

    def image_faces(self, message: Any) -> list[str]:
        """The card or tile codes drawn in the message's images."""
        return [
            face
            for attachment in message.attachments
            if attachment.filename.endswith(".png")
            for face in faces_in(self.env.backend.cdn.get(attachment.url))
        ]

    def dm_messages(self, seat: int) -> list[Any]:
        return list(self.members[seat].user.dm_channel.history())

    def assert_channel_has_no_private_lines(self) -> None:
        for message in self.channel.history():
            for marker in self.private_markers:
                assert marker not in message.content, message.content

    # ------------------------------------------------------------------ lobby

    async def open(self, **options: Any) -> None:
        """``/<game> start`` by the first player; the others join, then the host begins."""
        host, *others = self.members
        await host.slash(self.channel, f"{self.engine.name} start", **options)
        lobby = self.channel.last_message
        for member in others:
            await member.click(lobby, label="Join")
        await host.click(lobby, label="Begin")
        self.game_id = self.query("SELECT MAX(id) FROM games")[0][0]
