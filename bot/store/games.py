"""Games and their moves: lobbies, seats, the deal, each move's commit (with what it writes to the
outbox, the timers and the records, in one transaction), the action log."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from bot.store.backend import Executor, Statement, WrongRowCount
from bot.store.concern import Concern
from bot.store.outbox import Outbox
from bot.store.records import Records
from bot.store.rows import (
    SEAT_CHANGE,
    SEAT_CHANGE_PARAMETERS,
    ChannelBusy,
    Commit,
    GameRow,
    Score,
    SeatRow,
    Snapshot,
    StaleVersion,
    read_game,
    read_pending,
    read_seat,
    read_timer,
)
from bot.store.timers import TIMERS_QUERY, TimerStore

# Both databases' integers are 64-bit signed: a larger id names no row.
MAX_ID = 2**63 - 1


@dataclass(frozen=True)
class Lobby:
    """What a new game's row holds before its deal."""

    kind: str
    guild_id: int
    channel_id: int
    host_id: int
    options: Mapping[str, int]
    turn_timeout: int
    locale: str
    seed: int
    now: float


# What a move reads of its game (see Store.snapshot).
GAME_QUERY = "SELECT * FROM games WHERE id = ?"
# With each player's preferences, read at each move: a player's change reaches their running games.
SEATS_QUERY = (
    "SELECT seats.*, dm_channels.channel_id AS dm_channel_id, closed_dms.closed_at AS dm_closed_at,"
    " player_preferences.language AS preferred, player_preferences.dm_hand, player_preferences.ping"
    " FROM seats"
    " LEFT JOIN dm_channels USING (user_id) LEFT JOIN closed_dms USING (user_id)"
    " LEFT JOIN player_preferences USING (user_id)"
    " WHERE game_id = ? ORDER BY seat"
)
GAME_PENDING_QUERY = "SELECT * FROM outbox WHERE game_id = ? ORDER BY version"

# What a move writes (see Store.commit). Each statement is a hop to SQLite's thread or a round
# trip to PostgreSQL: a move sends one per table it changes (the timers excepted: they are
# deleted, then inserted).
MOVE = (
    "UPDATE games SET state = ?, version = ?, updated_at = ?"
    " WHERE id = ? AND version = ? AND status = 'running'"
)
FINISHING_MOVE = (
    "UPDATE games SET state = ?, version = ?, updated_at = ?, status = 'finished'"
    " WHERE id = ? AND version = ? AND status = 'running'"
)


class Games(Concern):
    # Told the id of each game whose end was just saved (finished by a move or its deal, or
    # aborted): a tournament's table goes on (``bot.tournaments``). Set by the bot; never waits.
    game_over: Callable[[int], None] | None = None

    def _over(self, game_id: int) -> None:
        if self.game_over is not None:
            self.game_over(game_id)

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
        *,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        host_locale: str,
        locale: str,
        options: dict[str, int],
        turn_timeout: int,
        seed: int,
        now: float,
        players: Sequence[tuple[int, str, str]] = (),
        server_settings: Mapping[str, Any] | None = None,
    ) -> int:
        """A new lobby with the host seated (and, for a rematch, the other players).

        Raises ChannelBusy when the channel already has an open game, however close two
        starts come: the check and the insert share one write transaction, and the index of
        open games per channel stops a second process's insert.
        """
        seated = [(host_id, host_name, host_locale)] + [player for player in players if player[0] != host_id]
        try:
            async with self._db.transaction() as db:
                busy = await self._open_game_in(db, channel_id)
                if busy:
                    raise ChannelBusy(busy)
                game_id = await self.insert_lobby(
                    db,
                    Lobby(kind, guild_id, channel_id, host_id, options, turn_timeout, locale, seed, now),
                    [(*player, None) for player in seated],
                    server_settings,
                )
        except self._db.unique_violation:
            busy = await self.open_game_in(channel_id)
            if busy is None:
                raise
            raise ChannelBusy(busy) from None
        return game_id

    @staticmethod
    async def insert_lobby(
        db: Executor,
        lobby: Lobby,
        seated: Sequence[tuple[int, str, str, str | None]],
        server_settings: Mapping[str, Any] | None = None,
    ) -> int:
        """A lobby's rows, in the transaction ``db``: the game, and a seat for each of ``seated``
        (user id, name, locale, a computer's level or None), in order; returns the game's id."""
        (row,) = await db.fetch(
            "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, turn_timeout,"
            " locale, seed, created_at, updated_at, server_settings)"
            " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)"
            " RETURNING id",
            (
                lobby.kind,
                lobby.guild_id,
                lobby.channel_id,
                lobby.host_id,
                json.dumps(lobby.options),
                lobby.turn_timeout,
                lobby.locale,
                lobby.seed,
                lobby.now,
                lobby.now,
                json.dumps(server_settings or {}),
            ),
        )
        game_id: int = row["id"]
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, locale, robot) VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, seat, *player) for seat, player in enumerate(seated)],
        )
        return game_id

    async def set_message(self, game_id: int, message_id: int) -> None:
        await self._write("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id))

    async def seats(self, game_id: int) -> list[SeatRow]:
        return [read_seat(row) for row in await self._db.fetch(SEATS_QUERY, (game_id,))]

    async def join(self, game_id: int, user_id: int, name: str, locale: str) -> None:
        await self._write(
            "INSERT INTO seats (game_id, seat, user_id, name, locale)"
            " VALUES (?, (SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE game_id = ?), ?, ?, ?)",
            (game_id, game_id, user_id, name, locale),
        )

    async def add_robot(self, game_id: int, level: str, name: str) -> None:
        """A computer takes the next seat; its user id is negative, one per computer of the game."""
        await self._write(
            "INSERT INTO seats (game_id, seat, user_id, name, locale, robot) VALUES (?,"
            " (SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE game_id = ?),"
            " (SELECT COALESCE(MIN(CASE WHEN user_id < 0 THEN user_id END), 0) - 1 FROM seats"
            " WHERE game_id = ?), ?, 'en', ?)",
            (game_id, game_id, game_id, name, level),
        )

    async def leave_lobby(self, game_id: int, user_id: int) -> None:
        async with self._db.transaction() as db:
            left = await db.fetch(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ? RETURNING seat", (game_id, user_id)
            )
            if not left:
                return
            # Keep seats dense so join order stays seating order. Through negative numbers: a
            # seat is unique at every row updated, whatever order the database updates them in.
            await db.execute(
                "UPDATE seats SET seat = -seat WHERE game_id = ? AND seat > ?", (game_id, left[0]["seat"])
            )
            await db.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", (game_id,))

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

    async def start(
        self,
        game_id: int,
        state: dict[str, Any],
        timers: Sequence[tuple[int, str, str, float]],
        publication: dict[str, Any] | None = None,
        robot_states: Mapping[int, dict[str, Any]] | None = None,
        *,
        dealt: Score | None = None,
        now: float = 0.0,
    ) -> None:
        """The lobby becomes a running game at version 1, with what its first deal must tell and
        its computers' first memory. ``dealt``: what the deal itself scored (a Bué dealt), recorded
        as a move's score is: the totals, feats and round totals, and when the deal decided the
        match, the game finished (at ``now``) and rated."""
        statements = [
            Statement(
                "UPDATE games SET status = 'running', state = ?, version = 1"
                " WHERE id = ? AND status = 'lobby'",
                (json.dumps(state), game_id),
                changes=1,
            ),
            Statement("UPDATE seats SET decision_since = 1 WHERE game_id = ?", (game_id,)),
            self._robot_states_statement(game_id, robot_states or {}),
            *TimerStore.statements(game_id, timers),
        ]
        rated = False
        if dealt is not None:
            scored, rated = Records.scoring_statements(game_id, dealt, now)
            statements += scored
        if publication is not None:
            statements.append(Outbox.publication_statement(game_id, 1, publication))
        try:
            await self._db.run(statements, then=Records.rating(game_id) if rated else None)
        except WrongRowCount:
            raise StaleVersion(game_id) from None
        if dealt is not None and dealt.finished:
            self._over(game_id)

    async def end(self, game_id: int, status: str) -> None:
        """Close a lobby or a running game without a result (cancelled, aborted)."""
        async with self._db.transaction() as db:
            await db.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))
            await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        self._over(game_id)

    async def commit(self, game: GameRow, change: Commit, now: float) -> int:
        """Append the action, save the new state, totals and timers; returns the new version.

        Raises StaleVersion, changing nothing, if the game moved on since ``game`` was read,
        by this process or another: the version check and the update are one statement.
        """
        version = game.version + 1
        statements = [
            Statement(
                # The status is set only by the move that ends the game: its index's page would
                # otherwise be written at every move.
                FINISHING_MOVE if change.finished else MOVE,
                (json.dumps(change.state), version, now, game.id, game.version),
                changes=1,
            ),
            Statement(
                "INSERT INTO actions (game_id, number, seat, action, by_timeout, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game.id, version - 1, change.seat, json.dumps(change.action), int(change.by_timeout), now),
            ),
            self._seats_statement(game.id, version, change),
            *TimerStore.statements(game.id, change.timers),
            Records.feats_statement(game.id, change.feats),
        ]
        if change.publication is not None:
            statements.append(Outbox.publication_statement(game.id, version, change.publication))
        if change.round_ended:
            statements.append(Records.round_totals_statement(game.id))
        winner = change.winner if change.finished else None
        rated = winner is not None
        if winner is not None:
            statements += Records.results_statements(game.id, winner, change.stand_in_name, now, change.rated)
        try:
            await self._db.run(statements, then=Records.rating(game.id) if rated else None)
        except WrongRowCount:
            raise StaleVersion(game.id) from None
        if change.finished:
            self._over(game.id)
        return version

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
            parameters = seat_change.parameters()
            rows.append((*(parameters[name] for name in SEAT_CHANGE_PARAMETERS), game_id, seat))
        return Statement(SEAT_CHANGE, rows=rows)

    @staticmethod
    def _robot_states_statement(game_id: int, states: Mapping[int, dict[str, Any]]) -> Statement:
        return Statement(
            "UPDATE seats SET robot_state = ? WHERE game_id = ? AND seat = ?",
            rows=[(json.dumps(state), game_id, seat) for seat, state in states.items()],
        )
