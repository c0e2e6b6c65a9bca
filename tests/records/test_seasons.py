"""Seasons in the store, on both databases: which season a match counts in, standings and ratings
per season beside the all-time ones, and a closed season that no later match changes."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from bot.model import FINISHED, Publication
from bot.ratings import SEASON_WIDENING, Skill, default_skill, season_start
from bot.store import Store
from tests.conftest import BACKENDS, database_for
from tests.store_games import lobby_row, move, seat, start

GUILD = 5


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path) -> str:
    return database_for(request, tmp_path)


async def opened(store: Store, channel: int, players: list[int], at: float, guild: int = GUILD) -> int:
    """A Bué game of ``players`` opened at ``at`` and dealt."""
    row = lobby_row(channel=channel, host=players[0], guild=guild, options={"target": 10}, seed=1)
    seats = [seat(number, user, f"p{user}") for number, user in enumerate(players)]
    game_id = await store.games.create_lobby(row, seats, Publication(), at)
    await start(store, game_id, {}, now=at)
    return game_id


async def finish(store: Store, game_id: int, totals: list[int], winner: int, at: float) -> None:
    game = await store.games.game(game_id)
    assert game is not None
    change = move(1, totals=totals, status=FINISHED, winner=winner, round_ended=True, action=None)
    await store.games.commit(game, change, now=at)


async def played(
    store: Store, channel: int, players: list[int], winner: int, at: float, guild: int = GUILD
) -> int:
    """A match opened and finished at ``at``, won by the seat ``winner``."""
    game_id = await opened(store, channel, players, at, guild)
    totals = [10 if seat == winner else 2 for seat in range(len(players))]
    await finish(store, game_id, totals, winner, at)
    return game_id


async def test_without_a_season_every_result_counts_all_time_only(store):
    await played(store, 1, [1, 2], winner=0, at=10.0)
    assert [row["season_id"] for row in await store.backend.fetch("SELECT season_id FROM results")] == [
        None,
        None,
    ]
    assert await store.backend.fetch("SELECT * FROM season_ratings") == []
    assert [s.user_id for s in await store.records.leaderboard(GUILD, None)] == [1, 2]


async def test_a_match_counts_in_the_season_it_was_opened_in_if_it_finishes_before_its_end(store):
    before = await played(store, 1, [1, 2], winner=1, at=10.0)
    first, closed = await store.seasons.start(GUILD, "Spring", now=20.0)
    assert closed is None and first.running and first.name == "Spring"
    in_spring = await played(store, 2, [1, 2], winner=0, at=30.0)
    straddling = await opened(store, 3, [1, 3], at=40.0)
    second, closed = await store.seasons.start(GUILD, "Summer", now=50.0)
    assert closed is not None and closed.id == first.id and closed.ended_at == 50.0
    await finish(store, straddling, [10, 0], 0, at=60.0)
    in_summer = await played(store, 4, [2, 3], winner=0, at=70.0)

    seasons = {row["game_id"]: row["season_id"] for row in await store.backend.fetch("SELECT * FROM results")}
    assert seasons == {before: None, in_spring: first.id, straddling: None, in_summer: second.id}
    spring = await store.records.leaderboard(GUILD, "bue", season_id=first.id)
    assert [(s.user_id, s.games, s.wins) for s in spring] == [(1, 1, 1), (2, 1, 0)]
    summer = await store.records.leaderboard(GUILD, None, season_id=second.id)
    assert [(s.user_id, s.wins) for s in summer] == [(2, 1), (3, 0)]
    # All time counts every match, as it always did.
    every = await store.records.leaderboard(GUILD, None)
    assert sorted((s.user_id, s.games) for s in every) == [(1, 3), (2, 3), (3, 2)]
    record = await store.records.player_record(GUILD, 1, None, season_id=first.id)
    assert record is not None and record.matches == 1 and record.wins == 1
    assert await store.records.player_record(GUILD, 1, None, season_id=second.id) is None
    assert [r.game_id for r in await store.records.last_results(GUILD, 1, None, season_id=first.id)] == [
        in_spring
    ]
    assert await store.records.kinds_played(GUILD, 3, season_id=first.id) == []


async def test_a_closed_season_never_changes_and_its_ratings_stay_as_they_were(store):
    spring, _ = await store.seasons.start(GUILD, "Spring", now=0.0)
    await played(store, 1, [1, 2], winner=0, at=10.0)
    straddling = await opened(store, 2, [1, 2], at=20.0)
    ended = await store.seasons.end(GUILD, now=30.0)
    assert ended is not None and ended.id == spring.id and not ended.running
    standings = await store.records.leaderboard(GUILD, "bue", season_id=spring.id)
    ratings = await store.records.rating_board(GUILD, "bue", season_id=spring.id)

    await finish(store, straddling, [0, 10], 1, at=40.0)
    await played(store, 3, [2, 1], winner=0, at=50.0)
    await store.seasons.start(GUILD, "Summer", now=60.0)
    await played(store, 4, [2, 1], winner=0, at=70.0)

    assert await store.records.leaderboard(GUILD, "bue", season_id=spring.id) == standings
    assert await store.records.rating_board(GUILD, "bue", season_id=spring.id) == ratings
    assert len(await store.records.rating_history(GUILD, "bue", "user:1")) == 4


async def test_a_season_rates_from_each_players_all_time_rating_widened(store):
    await played(store, 1, [1, 2], winner=0, at=10.0)
    await played(store, 2, [1, 2], winner=0, at=20.0)
    all_time = {
        entry: (await store.records.rating_history(GUILD, "bue", entry))[-1] for entry in ("user:1", "user:2")
    }
    season, _ = await store.seasons.start(GUILD, "Spring", now=30.0)
    await played(store, 3, [1, 2, 3], winner=1, at=40.0)

    starts = {entry: season_start(all_time.get(entry)) for entry in ("user:1", "user:2", "user:3")}
    assert starts["user:1"].mu == all_time["user:1"].mu
    widened = math.hypot(all_time["user:1"].sigma, SEASON_WIDENING)
    assert starts["user:1"].sigma == pytest.approx(min(widened, default_skill().sigma))
    assert starts["user:3"] == default_skill()
    for entry, begun in starts.items():
        assert await store.records.season_start_skill(GUILD, "bue", entry, season.id) == pytest.approx(begun)
    model = PlackettLuce()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in starts.values()]
    wanted = [Skill(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=[2, 1, 2])]
    for entry, skill in zip(starts, wanted, strict=True):
        (rated,) = await store.records.rating_history(GUILD, "bue", entry, season_id=season.id)
        assert rated.mu == pytest.approx(skill.mu) and rated.sigma == pytest.approx(skill.sigma)
    # The season's board is its own; all-time ratings went on from where they were.
    board = await store.records.rating_board(GUILD, "bue", season_id=season.id)
    assert {s.user_id for s in board} == {1, 2, 3} and all(s.matches == 1 for s in board)
    assert len(await store.records.rating_history(GUILD, "bue", "user:1")) == 3


def test_a_new_season_widens_uncertainty_but_never_past_a_newcomers():
    regular = Skill(30.0, 2.0)
    widened = season_start(regular)
    assert widened.mu == 30.0 and regular.sigma < widened.sigma < default_skill().sigma
    assert season_start(Skill(20.0, 8.0)).sigma == default_skill().sigma


async def test_one_season_runs_at_a_time_per_server_and_each_server_has_its_own(store):
    spring, _ = await store.seasons.start(GUILD, "Spring", now=0.0)
    other, _ = await store.seasons.start(GUILD + 1, "Elsewhere", now=0.0)
    summer, closed = await store.seasons.start(GUILD, "Summer", now=10.0)
    assert closed is not None and closed.id == spring.id
    assert (await store.seasons.running(GUILD)) == summer
    assert (await store.seasons.running(GUILD + 1)) == other
    assert [s.name for s in await store.seasons.of_guild(GUILD)] == ["Summer", "Spring"]
    assert await store.seasons.season(GUILD, other.id) is None
    assert await store.seasons.season(GUILD, 2**70) is None
    await store.seasons.end(GUILD, now=20.0)
    assert await store.seasons.running(GUILD) is None
    assert await store.seasons.end(GUILD, now=30.0) is None
    # A second running season is refused by the database itself, whatever raced to make it.
    await store.backend.execute(
        "INSERT INTO seasons (guild_id, name, started_at) VALUES (?, 'Autumn', 40.0)", (GUILD,)
    )
    with pytest.raises(store.backend.unique_violation):
        await store.backend.execute(
            "INSERT INTO seasons (guild_id, name, started_at) VALUES (?, 'Winter', 50.0)", (GUILD,)
        )
