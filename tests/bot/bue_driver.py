"""Plays Bué through the real bot as users would: slash commands, clicks and selects.

The database is read only as the test's oracle: to choose moves and to check what the
bot showed against what each player may know.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from typing import Any

from bot.render import faces_in
from games.bue import Bue
from games.bue.cards import DECK

NAMES = ("anna", "bruno", "carla", "dario", "elena", "fabio", "gina", "ivo", "lea", "marco")
PRIVATE_MARKERS = ("You drew", "You gave", "took your", "Your new cards")


class BueDriver:
    def __init__(self, env: Any, database_path: str, players: int = 3) -> None:
        self.env = env
        self.database_path = database_path
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("games")
        self.members = [self.guild.add_member(env.create_user(name)) for name in NAMES[:players]]
        self.game_id: int | None = None

    # ------------------------------------------------------------------ oracle

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.database_path) as db:
            return db.execute(sql, params).fetchall()

    def state(self) -> Bue:
        (raw,) = self.query("SELECT state FROM games WHERE id = ?", self.game_id)[0]
        return Bue.from_json(json.loads(raw))

    def status(self) -> str:
        return self.query("SELECT status FROM games WHERE id = ?", self.game_id)[0][0]

    def table_message(self) -> Any:
        (message_id,) = self.query("SELECT message_id FROM games WHERE id = ?", self.game_id)[0]
        return next(m for m in self.channel.history() if m.id == message_id)

    def image_faces(self, message: Any) -> list[str]:
        attachment = next(a for a in message.attachments if a.filename.endswith(".png"))
        return faces_in(self.env.backend.cdn.get(attachment.url))

    # ------------------------------------------------------------------ lobby

    async def open(self, **options: Any) -> None:
        host, *others = self.members
        await host.slash(self.channel, "bue start", **options)
        lobby = self.channel.last_message
        for member in others:
            await member.click(lobby, label="Join")
        await host.click(lobby, label="Begin")
        self.game_id = self.query("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0]

    # ------------------------------------------------------------------ moves through the UI

    async def exchange_with_deck(self, seat: int, give: int) -> Any:
        member = self.members[seat]
        panel = await member.click(self.table_message(), label="Exchange")
        await member.select(panel.response, [str(give)])
        return await member.click(panel.response, label="The deck")

    async def exchange_with_player(self, seat: int, give: int, target: int, take: int) -> Any:
        member = self.members[seat]
        panel = await member.click(self.table_message(), label="Exchange")
        await member.select(panel.response, [str(give)])
        await member.click(panel.response, label=NAMES[target])
        return await member.click(panel.response, label=f"Card {take + 1}")

    async def reveal(self, seat: int, position: int) -> Any:
        member = self.members[seat]
        panel = await member.click(self.table_message(), label="Reveal a card")
        return await member.select(panel.response, [str(position)])

    async def play_one(self, rng: random.Random) -> None:
        """One decision of whoever must decide, chosen at random among legal moves."""
        game = self.state()
        seat, actions = sorted(game.to_act().items())[0]
        if "reveal" in actions:
            await self.reveal(seat, rng.choice(game.hidden_positions(seat)))
            return
        move = rng.choice(game.legal_exchanges(seat))
        if move["type"] == "deck":
            await self.exchange_with_deck(seat, move["give"])
        else:
            await self.exchange_with_player(seat, move["give"], move["target"], move["take"])

    # ------------------------------------------------------------------ privacy checks

    @staticmethod
    def public_faces(game: Bue) -> Counter[str]:
        faces = Counter(
            DECK[slot.card].code
            for seat, hand in enumerate(game.hands)
            if game.active[seat]
            for slot in hand
            if slot.revealed
        )
        if game.discard:
            faces[DECK[game.discard[-1]].code] += 1
        return faces

    def assert_table_shows_only_public_cards(self) -> None:
        assert Counter(self.image_faces(self.table_message())) == self.public_faces(self.state())

    def assert_channel_has_no_private_lines(self) -> None:
        for message in self.channel.history():
            for marker in PRIVATE_MARKERS:
                assert marker not in message.content, message.content

    def dm_messages(self, seat: int) -> list[Any]:
        return list(self.members[seat].user.dm_channel.history())
