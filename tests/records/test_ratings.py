"""Skill ratings: openskill's own Plackett-Luce model on our places, and their storage per board."""

from __future__ import annotations

import sqlite3

import pytest
from openskill.models import PlackettLuce

from bot.model import FINISHED
from bot.ratings import Skill, places, rate, robot_entry, user_entry
from bot.store import MIGRATIONS, Store
from tests.store_games import lobby_row, move, open_lobby, start


def expected(priors: list[Skill | None], ranks: list[int]) -> list[Skill]:
    """What openskill's model itself gives for the same players and ranks."""
    model = PlackettLuce()
    teams = [[model.rating() if p is None else model.rating(mu=p.mu, sigma=p.sigma)] for p in priors]
    return [Skill(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


def assert_close(actual: Skill, wanted: Skill) -> None:
    assert actual.mu == pytest.approx(wanted.mu) and actual.sigma == pytest.approx(wanted.sigma)


def test_two_players_the_winner_goes_up_and_the_loser_down_by_the_models_amounts():
    rated = rate([(user_entry(1), 1), (user_entry(2), 2)], {})
    winner, loser = expected([None, None], [1, 2])
    assert_close(rated["user:1"], winner)
    assert_close(rated["user:2"], loser)
    assert rated["user:1"].mu > 25 > rated["user:2"].mu
    assert rated["user:1"].sigma < 25 / 3


def test_four_players_with_a_tie_share_a_place_and_move_alike():
    points = [60, 40, 40, 10]
    order = places(points, won=[True, False, False, False], gone=[False] * 4)
    assert order == [1, 2, 2, 4]
    prior = {"user:1": Skill(30.0, 6.0), "user:2": Skill(25.0, 8.0), "user:3": Skill(25.0, 8.0)}
    entries = ["user:1", "user:2", "user:3", "user:4"]
    rated = rate(list(zip(entries, order, strict=True)), prior)
    wanted = expected([prior.get(entry) for entry in entries], order)
    for entry, skill in zip(entries, wanted, strict=True):
        assert_close(rated[entry], skill)
    assert rated["user:2"] == rated["user:3"]
    assert rated["user:1"].mu > prior["user:1"].mu
    assert rated["user:4"].mu < 25


def test_a_tie_break_winner_comes_first_even_on_equal_points():
    assert places([50, 50, 20], won=[False, True, False], gone=[False] * 3) == [2, 1, 3]


def test_a_player_who_left_ranks_last_whatever_their_points():
    order = places([50, 10, 80, 0], won=[True, False, False, False], gone=[False, False, True, False])
    assert order == [1, 2, 4, 3]
    entries = ["user:1", "user:2", "user:3", "user:4"]
    rated = rate(list(zip(entries, order, strict=True)), {})
    for entry, skill in zip(entries, expected([None] * 4, order), strict=True):
        assert_close(rated[entry], skill)
    assert min(rated, key=lambda entry: rated[entry].mu) == "user:3"


def test_two_computers_of_one_level_give_that_level_the_mean_of_their_results():
    order = [1, 2, 3]
    rated = rate([(robot_entry("hard"), 1), (user_entry(9), 2), (robot_entry("hard"), 3)], {})
    first, _, third = expected([None] * 3, order)
    assert rated["robot:hard"].mu == pytest.approx((first.mu + third.mu) / 2)
    assert set(rated) == {"robot:hard", "user:9"}


# ---------------------------------------------------------------------- in the store


async def finished_match(
    store: Store, channel: int, players: list[int], totals: list[int], winner: int
) -> int:
    row = lobby_row(channel=channel, host=players[0], options={"target": 10}, seed=1)
    game_id = await open_lobby(store, row, [(user, f"p{user}", "en") for user in players])
    game = await start(store, game_id, {})
    change = move(1, totals=totals, status=FINISHED, winner=winner, round_ended=True)
    await store.games.commit(game, change, now=float(channel))
    return game_id


async def test_a_finished_match_is_rated_in_its_commit_and_ratings_chain_from_match_to_match(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    await finished_match(store, 1, [1, 2], [12, 4], winner=0)
    await finished_match(store, 2, [1, 2], [3, 11], winner=1)
    user_1, user_2 = expected([None, None], [1, 2])
    user_1, user_2 = expected([user_1, user_2], [2, 1])
    history = await store.records.rating_history(5, "bue", "user:2")
    assert len(history) == 2
    assert_close(history[-1], user_2)
    board = await store.records.rating_board(5, "bue")
    by_rating = sorted([(1, user_1), (2, user_2)], key=lambda pair: -pair[1].conservative)
    assert [s.user_id for s in board] == [user for user, _ in by_rating]
    assert [s.skill.conservative for s in board] == pytest.approx(
        [skill.conservative for _, skill in by_rating]
    )
    assert all(s.matches == 2 for s in board)
    await store.close()


async def test_a_computer_entry_is_rated_but_never_on_the_leaderboards(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    game_id = await finished_match(store, 1, [1, 2, 3], [20, 5, 1], winner=0)
    # The seat of user 3 becomes a computer player's, as robot seats will be recorded.
    await store.records._write("DELETE FROM ratings")
    await store.records._write(
        "UPDATE results SET entry = 'robot:hard', user_id = NULL, name = 'computer' WHERE seat = 2"
    )
    await store.records.rate_unrated_matches()
    rows = await store.backend.fetch("SELECT entry, mu FROM ratings WHERE game_id = ?", (game_id,))
    rated = {row["entry"]: row["mu"] for row in rows}
    assert set(rated) == {"user:1", "user:2", "robot:hard"}
    assert rated["robot:hard"] < rated["user:2"] < rated["user:1"]
    assert {s.user_id for s in await store.records.rating_board(5, "bue")} == {1, 2}
    assert {s.user_id for s in await store.records.leaderboard(5, "bue")} == {1, 2}
    await store.close()


async def test_matches_finished_before_ratings_existed_are_rated_in_finish_order(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    with sqlite3.connect(path) as db:
        db.executescript(MIGRATIONS[0].format(auto_id="INTEGER PRIMARY KEY") + "; PRAGMA user_version = 1;")
        for game_id, finished_at, winner in ((1, 200.0, 2), (2, 100.0, 1)):
            db.execute(
                "INSERT INTO games VALUES"
                " (?, 'bue', 5, ?, 1, 'finished', '{}', 60, 'en', 1, NULL, 3, 77, 0, 0)",
                (game_id, game_id),
            )
            for seat, user in enumerate((1, 2)):
                db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name, locale, total)"
                    " VALUES (?, ?, ?, ?, 'en', ?)",
                    (game_id, seat, user, f"p{user}", 10 * (user == winner)),
                )
                db.execute(
                    "INSERT INTO results VALUES (?, 5, 'bue', ?, ?, ?, ?, ?)",
                    (game_id, user, f"p{user}", 10 * (user == winner), int(user == winner), finished_at),
                )
    store = await Store.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    # Game 2 finished first (user 1 won it), then game 1 (user 2 won it).
    after_first = expected([None, None], [1, 2])
    after_second = expected([after_first[1], after_first[0]], [1, 2])
    assert_close((await store.records.rating_history(5, "bue", "user:2"))[-1], after_second[0])
    assert_close((await store.records.rating_history(5, "bue", "user:1"))[-1], after_second[1])
    matches = await store.records.finished_matches(5, "bue")
    assert [match.game_id for match in matches] == [1, 2]
    assert matches[0].jump_url == "https://discord.com/channels/5/1/77"
    await store.close()


async def test_feats_and_points_per_round_come_from_what_each_commit_kept(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    row = lobby_row("rummikub", channel=1, options={}, turn_timeout=60, seed=1)
    game_id = await open_lobby(store, row, [(1, "p1", "en"), (2, "p2", "en")])
    await start(store, game_id, {})
    moves = [
        move(1, totals=[0, 0], feats=[(1, "bue")]),
        move(2, totals=[30, -30], round_ended=True, feats=[(1, "bue")]),
        move(3, seat=1, totals=[10, 0], round_ended=True, status=FINISHED, winner=0),
    ]
    for change in moves:
        game = await store.games.game(game_id)
        assert game is not None
        await store.games.commit(game, change, now=1.0)
    assert await store.records.round_totals(game_id) == [[30, -30], [10, 0]]
    assert await store.records.points_per_round(5, 1, "rummikub") == 5.0
    assert await store.records.points_per_round(5, 2, "rummikub") == 0.0
    assert await store.records.feat_counts(5, 2, "rummikub") == {"bue": 2}
    assert await store.records.feat_counts(5, 1, "rummikub") == {}
    await store.close()
