"""Games and their changes: a lobby and its seats, then each change of a running game (the deal,
a move, a reminder, an abort), each committed at the next version with what it writes to the
outbox, the timers and the records, in one transaction; the action log."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from bot.model import LOBBY, RUNNING, Commit, GameRow, LobbyChange, Publication, SeatRow
from bot.store.backend import Executor, Statement, WrongRowCount
from bot.store.community import CommunityStore
from bot.store.concern import MAX_ID, Concern
from bot.store.outbox import Outbox
from bot.store.records import Records
from bot.store.rows import (
    SEAT_CHANGE,
    SEAT_CHANGE_PARAMETERS,
    ChannelBusy,
    Snapshot,
    StaleVersion,
    read_game,
    read_pending,
    read_seat,
    read_timer,
    seat_parameters,
)
from bot.store.timers import TIMERS_QUERY, TimerStore

# A statement of another concern written with a new game, in its transaction, given the game's id
# (a tournament's table tied to the game played at it).
Tie = Callable[[int], Statement]

# What a change reads of its game (see ``Games.snapshot``).
GAME_QUERY = "SELECT * FROM games WHERE id = ?"
# With each player's preferences, read at each move: a player's change reaches their running games.
SEATS_QUERY = (
    "SELECT seats.*, dm_channels.channel_id AS dm_channel_id, closed_dms.closed_at AS dm_closed_at,"
    " player_preferences.language AS preferred, player_preferences.dm_hand, player_preferences.ping,"
    " player_preferences.time_zone, player_preferences.quiet_hours,"
    " player_preferences.away_from, player_preferences.away_until"
    " FROM seats"
    " LEFT JOIN dm_channels USING (user_id) LEFT JOIN closed_dms USING (user_id)"
    " LEFT JOIN player_preferences USING (user_id)"
    " WHERE game_id = ? ORDER BY seat"
)
GAME_PENDING_QUERY = "SELECT * FROM outbox WHERE game_id = ? ORDER BY version"

# What a change writes (see ``Games.commit``). Each statement is a hop to SQLite's thread or a round
# trip to PostgreSQL: a move sends one per table it changes (the timers excepted: they are
# deleted, then inserted).
MOVE = "UPDATE games SET state = ?, version = ?, updated_at = ? WHERE id = ? AND version = ? AND status = ?"
STATUS_CHANGE = (
    "UPDATE games SET state = COALESCE(?, state), version = ?, updated_at = ?, status = ?,"
    " started_at = COALESCE(started_at, ?) WHERE id = ? AND version = ? AND status = ?"
)
# A game starting or ending (once each a match): its seats enter or leave /turns' index.
IN_PLAY = "UPDATE seats SET in_play = ? WHERE game_id = ?"


class Games(Concern):
    async def open_game_in(self, channel_id: int) -> GameRow | None:
        return await self._open_game_in(self._db, channel_id)

    @staticmethod
    async def _open_game_in(db: Executor, channel_id: int) -> GameRow | None:
        rows = await db.fetch(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        )
        return read_game(rows[0]) if rows else None

    async def game(self, game_id: int) -> GameRow | None:
        """The game with this id; None for none, whatever number a forged id holds."""
        if not 0 < game_id <= MAX_ID:
            return None
        rows = await self._db.fetch(GAME_QUERY, (game_id,))
        return read_game(rows[0]) if rows else None

    async def snapshot(self, game_id: int) -> Snapshot | None:
        """The game with its seats, timers and pending publications, in one read (a move needs
        them all); None for no such game."""
        if not 0 < game_id <= MAX_ID:
            return None
        games, seats, timers, pending = await self._db.fetch_many(
            [
                Statement(query, (game_id,))
                for query in (GAME_QUERY, SEATS_QUERY, TIMERS_QUERY, GAME_PENDING_QUERY)
            ]
        )
        if not games:
            return None
        # Ordered here, as the queries say: a backend that reads them as one statement (SQLite's
        # UNION ALL) need not keep each query's order.
        return Snapshot(
            read_game(games[0]),
            sorted(map(read_seat, seats), key=attrgetter("seat")),
            sorted(map(read_timer, timers), key=attrgetter("due_at")),
            sorted(map(read_pending, pending), key=attrgetter("version")),
        )

    async def running_games(self) -> list[GameRow]:
        """The running games of this process's shards."""
        condition, parameters = self.shards.condition()
        rows = await self._db.fetch(
            f"SELECT * FROM games WHERE status = 'running' AND {condition} ORDER BY id", parameters
        )
        return [read_game(row) for row in rows]

    async def running_count(self) -> int:
        """How many running games this process's shards hold."""
        condition, parameters = self.shards.condition()
        return await self._value(
            f"SELECT COUNT(*) FROM games WHERE status = 'running' AND {condition}", parameters
        )

    async def create_lobby(
        self,
        row: GameRow,
        seats: Sequence[SeatRow],
        publication: Publication | None,
        now: float,
        tie: Tie | None = None,
    ) -> int:
        """A new lobby as ``row`` says (its id the database's), with its ``seats`` (the host's
        first), what it announces (the lobby message; None: nothing until it is dealt) and the
        ``tie`` of another concern's row to it, in one transaction; its id.

        Raises ChannelBusy when the channel already has an open game, however close two
        starts come: the check and the insert share one write transaction, and the index of
        open games per channel stops a second process's insert.
        """
        channel_id = row.channel_id
        try:
            async with self._db.transaction() as db:
                busy = await self._open_game_in(db, channel_id)
                if busy:
                    raise ChannelBusy(busy)
                (created,) = await db.fetch(
                    "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, turn_timeout,"
                    " locale, seed, created_at, updated_at, server_settings, clock_increment)"
                    " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)"
                    " RETURNING id",
                    (
                        row.kind,
                        row.guild_id,
                        channel_id,
                        row.host_id,
                        json.dumps(row.options),
                        row.turn_timeout,
                        row.locale,
                        row.seed,
                        now,
                        now,
                        json.dumps(row.server_settings),
                        row.clock_increment,
                    ),
                )
                game_id: int = created["id"]
                await db.run(
                    [
                        *self._seating(game_id, seats, publication, version=0),
                        *([tie(game_id)] if tie is not None else []),
                    ]
                )
        except self._db.unique_violation:
            busy = await self.open_game_in(channel_id)
            if busy is None:
                raise
            raise ChannelBusy(busy) from None
        return game_id

    async def set_message(self, game_id: int, message_id: int) -> None:
        """The game's kept message is now ``message_id``: no message is posted after it yet."""
        await self._write(
            "UPDATE games SET message_id = ?, messages_after = 0 WHERE id = ?", (message_id, game_id)
        )

    async def count_messages(self, channel_id: int, count: int, last_id: int) -> None:
        """``count`` more messages, up to ``last_id``, posted after the kept message of the channel's
        running game (none if its message came after them: it was posted anew meanwhile)."""
        await self._write(
            "UPDATE games SET messages_after = messages_after + ?"
            " WHERE channel_id = ? AND status = 'running' AND message_id < ?",
            (count, channel_id, last_id),
        )

    async def kept_messages(self) -> list[tuple[int, int]]:
        """(channel, kept message) of the running games of this process's shards."""
        condition, parameters = self.shards.condition()
        rows = await self._db.fetch(
            "SELECT channel_id, message_id FROM games"
            f" WHERE status = 'running' AND message_id IS NOT NULL AND {condition}",
            parameters,
        )
        return [(row["channel_id"], row["message_id"]) for row in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        return [read_seat(row) for row in await self._db.fetch(SEATS_QUERY, (game_id,))]

    async def remember_locale(self, game_id: int, user_id: int, locale: str) -> None:
        await self._write(
            "UPDATE seats SET locale = ? WHERE game_id = ? AND user_id = ?", (locale, game_id, user_id)
        )

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        await self._write(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            (user_id, channel_id),
        )

    async def mark_dm_closed(self, user_id: int, now: float) -> None:
        await self._write(
            "INSERT INTO closed_dms (user_id, closed_at) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET closed_at = excluded.closed_at",
            (user_id, now),
        )

    async def forget_dm_closed(self, user_id: int) -> None:
        await self._write("DELETE FROM closed_dms WHERE user_id = ?", (user_id,))

    async def mark_dm_notice(self, game_id: int, seat: int) -> None:
        await self._write(
            "UPDATE seats SET dm_notice_sent = 1 WHERE game_id = ? AND seat = ?", (game_id, seat)
        )

    async def commit(self, game: GameRow, change: Commit, now: float) -> None:
        """One change of a running game (the deal, a move, a reminder, an abort): the game's row,
        the action logged, the seats, every timer, what it announces and what it scores, in one
        transaction, at the next version.

        Raises StaleVersion, changing nothing, if the game moved on since ``game`` was read,
        by this process or another: the version check and the update are one statement.
        """
        version = game.version + 1
        state = json.dumps(change.state)
        statements = [
            # The status is written only by a change that sets it: its index's page would
            # otherwise be written at every move.
            Statement(MOVE, (state, version, now, game.id, game.version, game.status), changes=1)
            if change.status == game.status
            else Statement(
                STATUS_CHANGE,
                (state, version, now, change.status, now, game.id, game.version, game.status),
                changes=1,
            ),
            self._seats_statement(game.id, version, change),
            *TimerStore.statements(game.id, change.timers),
            Records.feats_statement(game.id, change.feats),
            Outbox.publication_statement(game.id, version, change.publication.to_json()),
        ]
        if change.logged is not None:
            seat, action = change.logged
            # Numbered from 1, move by move (a replay's positions, 0 the deal), whatever else changed the
            # game's version.
            statements.append(
                Statement(
                    "INSERT INTO actions (game_id, number, seat, action, by_timeout, at) VALUES (?,"
                    " (SELECT COALESCE(MAX(number), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?, ?)",
                    (game.id, game.id, seat, json.dumps(action), int(change.by_timeout), now),
                )
            )
        if change.status != game.status:
            statements.append(Statement(IN_PLAY, (int(change.status == RUNNING), game.id)))
        if change.away is not None:
            statements += CommunityStore.away_statements(*change.away, automatic=True)
        if change.round_ended:
            statements.append(Records.round_totals_statement(game.id))
        winner = change.winner if change.finished else None
        if winner is not None:
            statements += Records.results_statements(game.id, winner, change.stand_in_name, now, change.rated)
        try:
            await self._db.run(statements, then=Records.rating(game.id) if winner is not None else None)
        except WrongRowCount:
            raise StaleVersion(game.id) from None

    async def commit_lobby(self, game: GameRow, change: LobbyChange, now: float) -> None:
        """A lobby's seats as they now are, or the lobby closed, with what it announces, at the
        next version; StaleVersion, changing nothing, if the lobby changed since ``game`` was read."""
        version = game.version + 1
        statements = [
            Statement(
                STATUS_CHANGE,
                (None, version, now, change.status, None, game.id, game.version, game.status),
                changes=1,
            ),
            Statement("DELETE FROM seats WHERE game_id = ?", (game.id,)),
            *self._seating(game.id, change.seats, change.publication, version),
        ]
        if change.status != LOBBY:
            statements.append(Statement("DELETE FROM timers WHERE game_id = ?", (game.id,)))
        try:
            await self._db.run(statements)
        except WrongRowCount:
            raise StaleVersion(game.id) from None

    @staticmethod
    def _seating(
        game_id: int, seats: Sequence[SeatRow], publication: Publication | None, version: int
    ) -> list[Statement]:
        """A lobby's seats written as they are, with the lobby's announcement, if any."""
        seating = Statement(
            "INSERT INTO seats (game_id, seat, user_id, name, locale, robot) VALUES (?, ?, ?, ?, ?, ?)",
            rows=[(game_id, s.seat, s.user_id, s.name, s.locale, s.robot) for s in seats],
        )
        if publication is None:
            return [seating]
        return [seating, Outbox.publication_statement(game_id, version, publication.to_json())]

    async def set_results_message(self, game_id: int, message_id: int | None) -> None:
        await self._write("UPDATE games SET results_message_id = ? WHERE id = ?", (message_id, game_id))

    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any]]]:
        rows = await self._db.fetch(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY number", (game_id,)
        )
        return [(row["seat"], json.loads(row["action"])) for row in rows]

    async def moves_since_own(self, game_id: int, seat: int) -> list[tuple[int, bool]]:
        """(seat, by timeout) of each action since ``seat`` last moved by itself, oldest first: what
        tells how many of its turns in a row ran out."""
        rows = await self._db.fetch(
            "SELECT seat, by_timeout FROM actions WHERE game_id = ? AND number > COALESCE((SELECT"
            " MAX(number) FROM actions WHERE game_id = ? AND seat = ? AND by_timeout = 0), -1)"
            " ORDER BY number",
            (game_id, game_id, seat),
        )
        return [(row["seat"], bool(row["by_timeout"])) for row in rows]

    @staticmethod
    def _seats_statement(game_id: int, version: int, change: Commit) -> Statement:
        """What the move changes of each seat (``SeatChange``), one row per seat it concerns."""
        rows = []
        for seat, seat_change in change.seat_changes(version).items():
            parameters = seat_parameters(seat_change)
            rows.append((*(parameters[name] for name in SEAT_CHANGE_PARAMETERS), game_id, seat))
        return Statement(SEAT_CHANGE, rows=rows)
