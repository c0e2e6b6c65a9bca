"""Tournaments: their sign-up, entrants, rounds of tables (each table an ordinary game) and the
steps of each table's start, each recorded before the next (see bot/tournaments.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from bot.store.backend import Row, Statement, WrongRowCount
from bot.store.concern import MAX_ID, Concern

SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"
# A table's row, by its key (tournament, round, number).
THE_TABLE = "tournament_id = ? AND round = ? AND number = ?"
NEXT_ENTRANT = "(SELECT COALESCE(MAX(entrant), 0) + 1 FROM tournament_entrants WHERE tournament_id = ?)"


@dataclass(frozen=True)
class NewTournament:
    """What ``/tournament create`` chose, as the tournament keeps it."""

    guild_id: int
    channel_id: int
    organiser_id: int
    kind: str
    format: str
    seats: int
    rounds: int  # a round robin's are set when it begins
    options: Mapping[str, int]
    turn_timeout: int
    locale: str
    seed: int
    server_settings: Mapping[str, Any]
    created_at: float


@dataclass(frozen=True)
class TournamentRow(NewTournament):
    """A tournament as it stands: besides what was chosen, its state."""

    id: int
    status: str
    round: int  # the round under way; 0 in sign-up
    schedule: list[list[list[int]]] | None  # a round robin's rounds: tables of entrants (one: a bye)
    message_id: int | None  # the sign-up message
    standings_message_id: int | None  # the round's standings message


@dataclass(frozen=True)
class EntrantRow:
    entrant: int
    user_id: int  # negative for a computer
    name: str
    locale: str
    robot: str | None
    joined_round: int
    dropped_round: int | None

    @property
    def is_robot(self) -> bool:
        return self.robot is not None


@dataclass(frozen=True)
class TableRow:
    round: int
    number: int
    entrants: tuple[int, ...]  # by seat; one alone is a bye
    starter_message_id: int | None
    thread_id: int | None
    game_id: int | None
    places: tuple[int, ...] | None  # once over
    totals: tuple[int, ...]
    stood_in: tuple[bool, ...]
    closed: bool  # closed late by the organiser: its totals then decided its places

    @property
    def is_bye(self) -> bool:
        return len(self.entrants) == 1

    @property
    def over(self) -> bool:
        return self.places is not None


TOURNAMENT_FIELDS = tuple(field.name for field in fields(TournamentRow))


class AlreadyEntered(Exception):
    """The user is an entrant already (two clicks of Join racing)."""


def read_tournament(row: Row) -> TournamentRow:
    decoded = {
        "options": json.loads(row["options"]),
        "server_settings": json.loads(row["server_settings"]),
        "schedule": json.loads(row["schedule"]) if row["schedule"] else None,
    }
    return TournamentRow(**{name: decoded.get(name, row[name]) for name in TOURNAMENT_FIELDS})


def read_entrant(row: Row) -> EntrantRow:
    return EntrantRow(
        row["entrant"],
        row["user_id"],
        row["name"],
        row["locale"],
        row["robot"],
        row["joined_round"],
        row["dropped_round"],
    )


def read_table(row: Row) -> TableRow:
    places = row["places"]
    return TableRow(
        row["round"],
        row["number"],
        tuple(json.loads(row["entrants"])),
        row["starter_message_id"],
        row["thread_id"],
        row["game_id"],
        tuple(json.loads(places)) if places else None,
        tuple(json.loads(row["totals"] or "[]")),
        tuple(json.loads(row["stood_in"] or "[]")),
        bool(row["closed"]),
    )


def tables_statement(tournament_id: int, number: int, tables: Sequence[Sequence[int]]) -> Statement:
    """Round ``number``'s tables (entrants by seat), numbered from 1; a table of one is a bye,
    over as it is written (its one place)."""
    return Statement(
        "INSERT INTO tournament_tables (tournament_id, round, number, entrants, places)"
        " VALUES (?, ?, ?, ?, ?)",
        rows=[
            (tournament_id, number, index, json.dumps(list(table)), "[1]" if len(table) == 1 else None)
            for index, table in enumerate(tables, start=1)
        ],
    )


class Tournaments(Concern):
    # ------------------------------------------------------------------ reading

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        if not 0 < tournament_id <= MAX_ID:
            return None
        rows = await self._db.fetch("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return read_tournament(rows[0]) if rows else None

    async def in_channel(self, channel_id: int) -> TournamentRow | None:
        """The channel's tournament: the one in sign-up or running, else the last one."""
        rows = await self._db.fetch(
            "SELECT * FROM tournaments WHERE channel_id = ?"
            " ORDER BY CASE WHEN status IN ('signup', 'running') THEN 0 ELSE 1 END, id DESC LIMIT 1",
            (channel_id,),
        )
        return read_tournament(rows[0]) if rows else None

    async def under_way(self) -> list[TournamentRow]:
        """The tournaments of this process's shards still in sign-up or running."""
        condition, parameters = self.shards.condition()
        rows = await self._db.fetch(
            f"SELECT * FROM tournaments WHERE status IN ('signup', 'running') AND {condition} ORDER BY id",
            parameters,
        )
        return [read_tournament(row) for row in rows]

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        rows = await self._db.fetch(
            "SELECT * FROM tournament_entrants WHERE tournament_id = ? ORDER BY entrant", (tournament_id,)
        )
        return [read_entrant(row) for row in rows]

    async def tables(self, tournament_id: int) -> list[TableRow]:
        rows = await self._db.fetch(
            "SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, number", (tournament_id,)
        )
        return [read_table(row) for row in rows]

    async def of_game(self, game_id: int) -> tuple[int, int, int] | None:
        """(tournament, round, table) of a game that is a tournament's table; None for any other."""
        rows = await self._db.fetch(
            "SELECT tournament_id, round, number FROM tournament_tables WHERE game_id = ?", (game_id,)
        )
        return (rows[0][0], rows[0][1], rows[0][2]) if rows else None

    async def winner_seat(self, game_id: int) -> int | None:
        """The seat that won the game's match; None for a game closed without a result."""
        value = await self._value("SELECT MIN(seat) FROM results WHERE game_id = ? AND won = 1", (game_id,))
        return None if value is None else int(value)

    # ------------------------------------------------------------------ sign-up

    async def create(self, new: NewTournament) -> int:
        (row,) = await self._db.fetch(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, kind, format, seats, rounds,"
            " options, turn_timeout, locale, seed, server_settings, status, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?) RETURNING id",
            (
                new.guild_id,
                new.channel_id,
                new.organiser_id,
                new.kind,
                new.format,
                new.seats,
                new.rounds,
                json.dumps(dict(new.options)),
                new.turn_timeout,
                new.locale,
                new.seed,
                json.dumps(dict(new.server_settings)),
                new.created_at,
            ),
        )
        tournament_id: int = row["id"]
        return tournament_id

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        await self._write("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def enter(
        self, tournament_id: int, user_id: int, name: str, locale: str, joined_round: int
    ) -> None:
        """A person enters, numbered after the entrants before them."""
        try:
            await self._write(
                "INSERT INTO tournament_entrants"
                " (tournament_id, entrant, user_id, name, locale, joined_round)"
                f" VALUES (?, {NEXT_ENTRANT}, ?, ?, ?, ?)",
                (tournament_id, tournament_id, user_id, name, locale, joined_round),
            )
        except self._db.unique_violation:
            raise AlreadyEntered(user_id) from None

    async def add_computer(self, tournament_id: int, level: str, name: str) -> None:
        """A computer enters at ``level``; its user id is negative, one per computer."""
        await self._write(
            "INSERT INTO tournament_entrants"
            " (tournament_id, entrant, user_id, name, locale, robot, joined_round)"
            f" VALUES (?, {NEXT_ENTRANT}, (SELECT COALESCE(MIN(CASE WHEN user_id < 0 THEN user_id END), 0)"
            " - 1 FROM tournament_entrants WHERE tournament_id = ?), ?, 'en', ?, 0)",
            (tournament_id, tournament_id, tournament_id, name, level),
        )

    async def withdraw(self, tournament_id: int, entrant: int) -> None:
        """An entrant taken off before the tournament began (numbers stay as they were: entry order)."""
        await self._write(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND entrant = ?",
            (tournament_id, entrant),
        )

    async def drop(self, tournament_id: int, entrant: int, round_number: int) -> None:
        """The entrant is not paired after round ``round_number``."""
        await self._write(
            "UPDATE tournament_entrants SET dropped_round = ?"
            " WHERE tournament_id = ? AND entrant = ? AND dropped_round IS NULL",
            (round_number, tournament_id, entrant),
        )

    async def cancel(self, tournament_id: int) -> bool:
        changed = await self._db.execute(
            "UPDATE tournaments SET status = 'cancelled' WHERE id = ? AND status IN ('signup', 'running')",
            (tournament_id,),
        )
        return changed == 1

    # ------------------------------------------------------------------ rounds

    async def pair_round(
        self,
        tournament_id: int,
        number: int,
        tables: Sequence[Sequence[int]],
        *,
        rounds: int | None = None,
        schedule: Sequence[Sequence[Sequence[int]]] | None = None,
    ) -> bool:
        """Round ``number`` begins: its tables (and byes, tables of one) written with the round,
        in one transaction, only if the tournament is still at the round before (False otherwise:
        it was paired already). The first round also fixes the number of rounds and, for a round
        robin, its schedule, and closes the sign-up."""
        first = number == 1
        statements = [
            Statement(
                "UPDATE tournaments SET round = ?, standings_message_id = NULL, status = 'running',"
                " rounds = COALESCE(?, rounds), schedule = COALESCE(?, schedule)"
                " WHERE id = ? AND round = ? AND status = ?",
                (
                    number,
                    rounds,
                    json.dumps(schedule) if schedule is not None else None,
                    tournament_id,
                    number - 1,
                    SIGNUP if first else RUNNING,
                ),
                changes=1,
            ),
            tables_statement(tournament_id, number, tables),
        ]
        try:
            await self._db.run(statements)
        except WrongRowCount:
            return False
        return True

    async def set_starter(self, tournament_id: int, round_number: int, number: int, message_id: int) -> None:
        await self._write(
            f"UPDATE tournament_tables SET starter_message_id = ? WHERE {THE_TABLE}",
            (message_id, tournament_id, round_number, number),
        )

    async def set_thread(self, tournament_id: int, round_number: int, number: int, thread_id: int) -> None:
        await self._write(
            f"UPDATE tournament_tables SET thread_id = ? WHERE {THE_TABLE}",
            (thread_id, tournament_id, round_number, number),
        )

    @staticmethod
    def tie(tournament_id: int, round_number: int, number: int) -> Callable[[int], Statement]:
        """The table tied to its game, written with the game in one transaction (given the game's
        id: see ``TableService.open_table``); only a table with no game yet, so that a second
        game for one table is never saved (its transaction fails whole)."""

        def tied(game_id: int) -> Statement:
            return Statement(
                f"UPDATE tournament_tables SET game_id = ? WHERE {THE_TABLE} AND game_id IS NULL",
                (game_id, tournament_id, round_number, number),
                changes=1,
            )

        return tied

    async def table_over(
        self,
        tournament_id: int,
        round_number: int,
        number: int,
        places: Sequence[int],
        totals: Sequence[int],
        stood_in: Sequence[bool],
        closed: bool,
    ) -> None:
        """The table's result, kept once (a second report of the same end changes nothing)."""
        await self._write(
            "UPDATE tournament_tables SET places = ?, totals = ?, stood_in = ?, closed = ?"
            f" WHERE {THE_TABLE} AND places IS NULL",
            (
                json.dumps(list(places)),
                json.dumps(list(totals)),
                json.dumps(list(stood_in)),
                int(closed),
                tournament_id,
                round_number,
                number,
            ),
        )

    async def set_standings_message(self, tournament_id: int, message_id: int) -> None:
        await self._write(
            "UPDATE tournaments SET standings_message_id = ? WHERE id = ?", (message_id, tournament_id)
        )

    async def finish(self, tournament_id: int) -> bool:
        """The last round is over; False when it was finished already."""
        changed = await self._db.execute(
            "UPDATE tournaments SET status = 'finished' WHERE id = ? AND status = 'running'", (tournament_id,)
        )
        return changed == 1
