"""Records and ratings: results, match totals, feats, ratings, history and leaderboards."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot.ratings import Skill, places, rate, season_start
from bot.store.backend import Executor, Row, Statement
from bot.store.concern import Concern
from bot.store.rows import (
    FinishedMatch,
    MatchSeat,
    PastResult,
    PlayerRecord,
    RatedStanding,
    Standing,
)

# The running season of a game's server, opened no later than the game: the season its result
# counts in (NULL: none, all time only). Read in the transaction that writes the result, so a
# season closed before it commits takes no more results (see bot/store/seasons.py).
SEASON_OF_GAME = (
    "(SELECT seasons.id FROM seasons WHERE seasons.guild_id = games.guild_id"
    " AND seasons.ended_at IS NULL AND seasons.started_at <= games.created_at)"
)


def latest_ratings(board: str) -> str:
    """Each entry's latest rating on one board, and how many matches rated it: ``board`` is
    ``ALL_TIME`` (parameters: server, game) or ``IN_SEASON`` (season, game), with any condition
    added."""
    return f"""
    WITH board AS (
        SELECT entry, mu, sigma, COUNT(*) OVER by_entry AS matches,
            ROW_NUMBER() OVER (by_entry ORDER BY finished_at DESC, game_id DESC) AS recency
        FROM {board}
        WINDOW by_entry AS (PARTITION BY entry)
    )
"""


ALL_TIME = "ratings WHERE guild_id = ? AND kind = ?"
IN_SEASON = "season_ratings WHERE season_id = ? AND kind = ?"


def in_season(season_id: int | None) -> tuple[str, list[int]]:
    """SQL true for the results of the season (every result for None: all time), and its parameters."""
    if season_id is None:
        return "1 = 1", []
    return "results.season_id = ?", [season_id]


def board_of(guild_id: int, season_id: int | None) -> tuple[str, int]:
    """The ratings of a server all time, or of one of its seasons: the board and its first parameter."""
    return (ALL_TIME, guild_id) if season_id is None else (IN_SEASON, season_id)


class Records(Concern):
    @staticmethod
    def feats_statement(game_id: int, feats: Sequence[tuple[int, str]]) -> Statement:
        return Statement(
            "INSERT INTO feats (game_id, seat, feat, count) VALUES (?, ?, ?, 1)"
            " ON CONFLICT (game_id, seat, feat) DO UPDATE SET count = feats.count + 1",
            rows=[(game_id, seat, feat) for seat, feat in feats],
        )

    @staticmethod
    def round_totals_statement(game_id: int) -> Statement:
        """The match totals as they stand, from the seats' totals written before it."""
        return Statement(
            "INSERT INTO round_totals (game_id, number, seat, total) SELECT game_id,"
            " (SELECT COALESCE(MAX(number), 0) + 1 FROM round_totals WHERE game_id = ?), seat, total"
            " FROM seats WHERE game_id = ?",
            (game_id, game_id),
        )

    @staticmethod
    def rating(game_id: int) -> Callable[[Executor], Awaitable[None]]:
        """Rates the match in the transaction that finished it."""

        async def rate(db: Executor) -> None:
            await Records._rate_match(db, game_id)

        return rate

    @staticmethod
    def results_statements(
        game_id: int, winner: int, stand_in_name: str, now: float, rated: bool = True
    ) -> list[Statement]:
        """A results row per seat for whoever holds it at the end, and one per person who left
        their seat to a stand-in.

        A computer's seat is rated as its level ('robot:hard'), with no user id; so is the
        computer that finished for a person who left, who is rated last with the total they
        had. A person a stand-in played for while they were away keeps the seat's result, unrated.
        A match that is not ``rated`` has every result unrated. Each result counts in the season
        its game was opened in, if that season still runs (``SEASON_OF_GAME``).
        """
        columns = (
            "INSERT INTO results (game_id, seat, guild_id, kind, season_id, entry, user_id, name, points,"
            " won, gone, rated, finished_at) SELECT game_id, seat, games.guild_id, games.kind,"
            f" {SEASON_OF_GAME},"
        )
        replaced = "gone = 1 AND stand_in IS NOT NULL"
        return [
            Statement(
                columns + " CASE WHEN robot IS NOT NULL THEN 'robot:' || robot"
                f" WHEN {replaced} THEN 'robot:' || stand_in ELSE 'user:' || user_id END,"
                f" CASE WHEN robot IS NULL AND NOT ({replaced}) THEN user_id END,"
                f" CASE WHEN {replaced} THEN REPLACE(CAST(? AS TEXT), '{{name}}', name) ELSE name END,"
                " total, CASE WHEN seat = ? THEN 1 ELSE 0 END,"
                " CASE WHEN stand_in IS NULL THEN gone ELSE 0 END,"
                " CASE WHEN CAST(? AS INTEGER) = 0 OR (stood_in = 1 AND gone = 0) THEN 0 ELSE 1 END,"
                " CAST(? AS DOUBLE PRECISION)"
                " FROM seats JOIN games ON games.id = seats.game_id WHERE game_id = ?",
                (stand_in_name, winner, int(rated), now, game_id),
            ),
            Statement(
                columns + " 'user:' || user_id, user_id, name, left_total, 0, 1, CAST(? AS INTEGER),"
                " CAST(? AS DOUBLE PRECISION) FROM seats JOIN games ON games.id = seats.game_id"
                f" WHERE game_id = ? AND {replaced}",
                (int(rated), now, game_id),
            ),
        ]

    async def round_totals(self, game_id: int) -> list[list[int]]:
        """The match totals per seat after each finished game, round or manche, in order."""
        rows = await self._db.fetch(
            "SELECT number, seat, total FROM round_totals WHERE game_id = ? ORDER BY number, seat", (game_id,)
        )
        by_number: dict[int, list[int]] = {}
        for row in rows:
            by_number.setdefault(row["number"], []).append(row["total"])
        return list(by_number.values())

    @staticmethod
    async def _rate_match(db: Executor, game_id: int) -> None:
        """Rate a finished match from its results, after every match of its board finished before
        it: all time, and in its season if it counts in one."""
        seats = await db.fetch(
            "SELECT entry, points, won, gone, rated, guild_id, kind, season_id, finished_at FROM results"
            " WHERE game_id = ? ORDER BY seat, gone",
            (game_id,),
        )
        first = seats[0]
        guild_id, kind = first["guild_id"], first["kind"]
        prior = await Records._latest(db, ALL_TIME, (guild_id, kind))
        await Records._rate_on(
            db, game_id, "ratings (game_id, entry, guild_id, kind", (guild_id, kind), seats, prior
        )
        season_id = first["season_id"]
        if season_id is None:
            return
        # A player's first match of the season starts from their all-time rating as they come to it.
        in_season = await Records._latest(db, IN_SEASON, (season_id, kind))
        season_prior = {seat["entry"]: season_start(prior.get(seat["entry"])) for seat in seats} | in_season
        await Records._rate_on(
            db,
            game_id,
            "season_ratings (game_id, entry, season_id, guild_id, kind",
            (season_id, guild_id, kind),
            seats,
            season_prior,
        )

    @staticmethod
    async def _latest(db: Executor, board: str, parameters: Sequence[object]) -> dict[str, Skill]:
        rows = await db.fetch(
            latest_ratings(board) + " SELECT entry, mu, sigma FROM board WHERE recency = 1", parameters
        )
        return {row["entry"]: Skill(row["mu"], row["sigma"]) for row in rows}

    @staticmethod
    async def _rate_on(
        db: Executor,
        game_id: int,
        into: str,
        key: Sequence[object],
        seats: Sequence[Row],
        prior: dict[str, Skill],
    ) -> None:
        """The match's ratings from ``prior``, written ``into`` a board's table (its columns up to
        the key's, whose values are ``key``)."""
        order = places(
            [seat["points"] for seat in seats],
            [bool(seat["won"]) for seat in seats],
            [bool(seat["gone"]) for seat in seats],
        )
        rated = rate([(seat["entry"], place) for seat, place in zip(seats, order, strict=True)], prior)
        # Everyone's place counts for the others; an unrated entry's own rating stays as it was.
        unrated = {seat["entry"] for seat in seats if not seat["rated"]}
        values = ", ".join("?" for _ in range(len(key) + 5))
        await db.executemany(
            f"INSERT INTO {into}, mu, sigma, finished_at) VALUES ({values})",
            [
                (game_id, entry, *key, skill.mu, skill.sigma, seats[0]["finished_at"])
                for entry, skill in rated.items()
                if entry not in unrated
            ],
        )

    async def rate_unrated_matches(self) -> None:
        """Rate the matches that have results but no ratings (those finished before ratings existed).

        Ratings depend on the order of matches, so each board concerned is rated again from
        its first match, in the order they finished (its seasons' ratings too).
        """
        boards = await self._db.fetch(
            "SELECT DISTINCT guild_id, kind FROM results"
            " WHERE rated = 1 AND game_id NOT IN (SELECT game_id FROM ratings)"
        )
        for board in boards:
            key = (board["guild_id"], board["kind"])
            async with self._db.transaction() as db:
                await db.execute("DELETE FROM ratings WHERE guild_id = ? AND kind = ?", key)
                await db.execute("DELETE FROM season_ratings WHERE guild_id = ? AND kind = ?", key)
                rows = await db.fetch(
                    "SELECT game_id FROM results WHERE guild_id = ? AND kind = ?"
                    " GROUP BY game_id ORDER BY MIN(finished_at), game_id",
                    key,
                )
                for game_id in (row["game_id"] for row in rows):
                    await self._rate_match(db, game_id)

    async def rating_board(
        self, guild_id: int, kind: str, limit: int = 10, season_id: int | None = None
    ) -> list[RatedStanding]:
        """People by conservative rating (mu - 3 sigma), all time or in a season; computer players
        are left out."""
        board, owner = board_of(guild_id, season_id)
        rows = await self._db.fetch(
            latest_ratings(board) + " SELECT CAST(SUBSTR(entry, 6) AS BIGINT) AS user_id, mu, sigma, matches,"
            " (SELECT name FROM results WHERE results.entry = board.entry AND results.guild_id = ?"
            " ORDER BY finished_at DESC LIMIT 1) AS name"
            " FROM board WHERE recency = 1 AND entry LIKE 'user:%'"
            " ORDER BY mu - 3 * sigma DESC, matches DESC LIMIT ?",
            (owner, kind, guild_id, limit),
        )
        return [
            RatedStanding(row["user_id"], row["name"], Skill(row["mu"], row["sigma"]), row["matches"])
            for row in rows
        ]

    async def rating_history(
        self, guild_id: int, kind: str, entry: str, season_id: int | None = None
    ) -> list[Skill]:
        """The entry's rating after each of its matches on the board (all time, or a season's),
        oldest first."""
        board, owner = board_of(guild_id, season_id)
        rows = await self._db.fetch(
            f"SELECT mu, sigma FROM {board} AND entry = ? ORDER BY finished_at, game_id", (owner, kind, entry)
        )
        return [Skill(row["mu"], row["sigma"]) for row in rows]

    async def season_start_skill(self, guild_id: int, kind: str, entry: str, season_id: int) -> Skill:
        """Where the entry's rating started in the season: their all-time rating before their first
        match of it, widened (``bot.ratings.season_start``)."""
        first = await self._db.fetch(
            f"SELECT game_id, finished_at FROM {IN_SEASON} AND entry = ?"
            " ORDER BY finished_at, game_id LIMIT 1",
            (season_id, kind, entry),
        )
        if not first:
            return season_start(None)
        rows = await self._db.fetch(
            f"SELECT mu, sigma FROM {ALL_TIME} AND entry = ?"
            " AND (finished_at < ? OR (finished_at = ? AND game_id < ?))"
            " ORDER BY finished_at DESC, game_id DESC LIMIT 1",
            (guild_id, kind, entry, first[0]["finished_at"], first[0]["finished_at"], first[0]["game_id"]),
        )
        return season_start(Skill(rows[0]["mu"], rows[0]["sigma"]) if rows else None)

    async def player_record(
        self, guild_id: int, user_id: int, kind: str | None, season_id: int | None = None
    ) -> PlayerRecord | None:
        season, parameters = in_season(season_id)
        rows = await self._db.fetch(
            "SELECT (SELECT name FROM results AS latest WHERE latest.guild_id = ? AND latest.user_id = ?"
            " ORDER BY finished_at DESC LIMIT 1) AS name,"
            " COUNT(*) AS matches, SUM(won) AS wins, MAX(points) AS best_total"
            f" FROM results WHERE guild_id = ? AND user_id = ? AND kind = COALESCE(?, kind) AND {season}",
            (guild_id, user_id, guild_id, user_id, kind, *parameters),
        )
        row = rows[0]
        if not row["matches"]:
            return None
        return PlayerRecord(row["name"], row["matches"], row["wins"], row["best_total"])

    async def kinds_played(self, guild_id: int, user_id: int, season_id: int | None = None) -> list[str]:
        season, parameters = in_season(season_id)
        rows = await self._db.fetch(
            f"SELECT DISTINCT kind FROM results WHERE guild_id = ? AND user_id = ? AND {season}"
            " ORDER BY kind",
            (guild_id, user_id, *parameters),
        )
        return [row["kind"] for row in rows]

    async def last_results(
        self, guild_id: int, user_id: int, kind: str | None, limit: int = 5, season_id: int | None = None
    ) -> list[PastResult]:
        season, parameters = in_season(season_id)
        rows = await self._db.fetch(
            "SELECT game_id, kind, points, won, finished_at FROM results"
            f" WHERE guild_id = ? AND user_id = ? AND kind = COALESCE(?, kind) AND {season}"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            (guild_id, user_id, kind, *parameters, limit),
        )
        return [
            PastResult(row["game_id"], row["kind"], row["points"], bool(row["won"]), row["finished_at"])
            for row in rows
        ]

    async def feat_counts(
        self, guild_id: int, user_id: int, kind: str, season_id: int | None = None
    ) -> dict[str, int]:
        """How often the player made each feat in their finished matches of ``kind``."""
        season, parameters = in_season(season_id)
        rows = await self._db.fetch(
            "SELECT feat, SUM(count) AS total FROM feats JOIN results USING (game_id, seat)"
            " WHERE results.guild_id = ? AND results.user_id = ? AND results.kind = ?"
            f" AND {season} GROUP BY feat",
            (guild_id, user_id, kind, *parameters),
        )
        return {row["feat"]: row["total"] for row in rows}

    async def points_per_round(
        self, guild_id: int, user_id: int, kind: str, season_id: int | None = None
    ) -> float | None:
        """Match points over rounds played, for the matches whose rounds were kept."""
        season, parameters = in_season(season_id)
        rows = await self._db.fetch(
            "SELECT SUM(points) AS points, SUM(rounds) AS rounds FROM ("
            " SELECT results.points, (SELECT COUNT(DISTINCT number) FROM round_totals"
            " WHERE round_totals.game_id = results.game_id) AS rounds FROM results"
            f" WHERE guild_id = ? AND user_id = ? AND kind = ? AND {season}) AS played WHERE rounds > 0",
            (guild_id, user_id, kind, *parameters),
        )
        row = rows[0]
        # float(): PostgreSQL sums a count as a Decimal.
        return float(row["points"]) / float(row["rounds"]) if row["rounds"] else None

    async def finished_matches(self, guild_id: int, kind: str | None, limit: int = 10) -> list[FinishedMatch]:
        """The board's last finished matches, newest first."""
        rows = await self._db.fetch(
            "SELECT results.game_id, results.kind, games.guild_id, games.channel_id,"
            " COALESCE(games.results_message_id, games.message_id) AS message_id, results.finished_at,"
            " results.name, results.points, results.won, results.gone"
            " FROM results JOIN games ON games.id = results.game_id"
            " WHERE results.game_id IN (SELECT game_id FROM results"
            " WHERE guild_id = ? AND kind = COALESCE(?, kind)"
            " GROUP BY game_id ORDER BY MIN(finished_at) DESC, game_id DESC LIMIT ?)"
            " ORDER BY results.finished_at DESC, results.game_id DESC, results.points DESC, results.seat",
            (guild_id, kind, limit),
        )
        matches: dict[int, FinishedMatch] = {}
        for row in rows:
            match = matches.setdefault(
                row["game_id"],
                FinishedMatch(
                    row["game_id"],
                    row["kind"],
                    row["guild_id"],
                    row["channel_id"],
                    row["message_id"],
                    row["finished_at"],
                    [],
                ),
            )
            match.seats.append(MatchSeat(row["name"], row["points"], bool(row["won"]), bool(row["gone"])))
        return list(matches.values())

    async def leaderboard(
        self, guild_id: int, kind: str | None, limit: int = 10, season_id: int | None = None
    ) -> list[Standing]:
        """People by wins, all time or in a season."""
        season, parameters = in_season(season_id)
        rows = await self._db.fetch(
            "SELECT user_id, (SELECT name FROM results AS latest WHERE latest.user_id = results.user_id"
            " AND latest.guild_id = ? ORDER BY finished_at DESC LIMIT 1) AS name,"
            " COUNT(*) AS games, SUM(won) AS wins, SUM(points) AS points"
            " FROM results WHERE guild_id = ? AND kind = COALESCE(?, kind) AND user_id IS NOT NULL"
            f" AND {season} GROUP BY user_id ORDER BY wins DESC, points DESC, games ASC LIMIT ?",
            (guild_id, guild_id, kind, *parameters, limit),
        )
        return [
            Standing(row["user_id"], row["name"], row["games"], row["wins"], row["points"]) for row in rows
        ]
