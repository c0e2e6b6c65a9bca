"""The outbox: what each committed move must announce, and which of its parts are delivered."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from bot.store.backend import Statement
from bot.store.concern import Concern
from bot.store.rows import (
    Pending,
    read_pending,
)


class Outbox(Concern):
    @staticmethod
    def publication_statement(game_id: int, version: int, publication: dict[str, Any]) -> Statement:
        return Statement(
            "INSERT INTO outbox (game_id, version, publication) VALUES (?, ?, ?)",
            (game_id, version, json.dumps(publication)),
        )

    async def pending(self) -> list[Pending]:
        """Publications not yet fully delivered, of every game of this process's shards, oldest
        first (a move reads its own game's with the game: see ``snapshot``)."""
        in_my_shards, parameters = self._in_my_shards()
        rows = await self._db.fetch(
            f"SELECT * FROM outbox WHERE {in_my_shards} ORDER BY game_id, version", parameters
        )
        return [read_pending(row) for row in rows]

    async def mark_delivered(self, pending: Pending, part: str) -> Pending:
        delivered = pending.delivered | {part}
        await self._write(
            "UPDATE outbox SET delivered = ? WHERE game_id = ? AND version = ?",
            (json.dumps(sorted(delivered)), pending.game_id, pending.version),
        )
        return replace(pending, delivered=delivered)

    async def delivered(self, pending: Pending) -> None:
        await self._write(
            "DELETE FROM outbox WHERE game_id = ? AND version = ?", (pending.game_id, pending.version)
        )
