"""How stand-ins score (docs/playing.md, "Rules every game shares"): the person who left is rated
last with the points they had, the computer that finished for them is recorded as its level, and a person
a computer played for while they were away keeps the seat's result but is not rated."""

from __future__ import annotations

import pytest

from bot.model import FINISHED, Commit
from bot.ratings import Skill, places, rate
from bot.store import Store
from tests.conftest import BACKENDS
from tests.store_games import lobby_row, move, open_lobby, start

LEAVE_FOR_GOOD = {"type": "stand_in", "level": "hard", "left": True}
AWAY = {"type": "stand_in", "level": "easy", "left": False}


async def running_match(store: Store, players: list[int]) -> int:
    row = lobby_row(channel=1, host=players[0], options={"target": 10}, seed=1)
    game_id = await open_lobby(store, row, [(user, f"p{user}", "en") for user in players])
    await start(store, game_id, {})
    return game_id


async def play(store: Store, game_id: int, *changes: Commit) -> None:
    for change in changes:
        game = await store.games.game(game_id)
        assert game is not None
        await store.games.commit(game, change, now=1.0)


async def results(store: Store, game_id: int) -> list[tuple[object, ...]]:
    rows = await store.backend.fetch(
        "SELECT seat, entry, user_id, name, points, won, gone, rated FROM results WHERE game_id = ?"
        " ORDER BY seat, gone",
        (game_id,),
    )
    return [tuple(row) for row in rows]


async def ratings(store: Store, game_id: int) -> dict[str, Skill]:
    rows = await store.backend.fetch("SELECT entry, mu, sigma FROM ratings WHERE game_id = ?", (game_id,))
    return {row["entry"]: Skill(row["mu"], row["sigma"]) for row in rows}


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
async def test_who_left_is_rated_last_with_their_points_and_the_stand_in_finishes_as_a_computer(database):
    store = await Store.open(database)
    game_id = await running_match(store, [1, 2, 3])
    await play(
        store,
        game_id,
        # p3 leaves with 15 points; a computer takes the seat and goes on to win it with 60.
        move(1, seat=2, action=LEAVE_FOR_GOOD, totals=[10, 5, 15], gone=[2], stand_ins={2: "hard"}),
        move(2, seat=2, totals=[20, 5, 60], status=FINISHED, winner=2, stand_in_name="🤖 for {name}"),
    )
    assert await results(store, game_id) == [
        (0, "user:1", 1, "p1", 20, 0, 0, 1),
        (1, "user:2", 2, "p2", 5, 0, 0, 1),
        (2, "robot:hard", None, "🤖 for p3", 60, 1, 0, 1),
        (2, "user:3", 3, "p3", 15, 0, 1, 1),
    ]
    order = places([20, 5, 60, 15], [False, False, True, False], [False, False, False, True])
    assert order == [2, 3, 1, 4]  # last, whatever the points they had
    wanted = rate(list(zip(["user:1", "user:2", "robot:hard", "user:3"], order, strict=True)), {})
    assert await ratings(store, game_id) == pytest.approx(wanted)
    # The person's record keeps the match, lost, and the board leaves the computer out.
    record = await store.records.player_record(5, 3, "bue")
    assert record is not None and (record.matches, record.wins, record.best_total) == (1, 0, 15)
    assert {standing.user_id for standing in await store.records.leaderboard(5, "bue")} == {1, 2, 3}
    await store.close()


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
async def test_a_person_a_computer_played_for_while_away_keeps_the_result_unrated(database):
    store = await Store.open(database)
    game_id = await running_match(store, [1, 2, 3])
    await play(
        store,
        game_id,
        move(1, seat=1, action=AWAY, totals=[0, 0, 0], by_timeout=True, stand_ins={1: "easy"}),
        move(2, seat=1, totals=[0, 10, 0]),
        move(3, seat=1, action={"type": "back"}, totals=[0, 10, 0], back=[1]),
        move(4, seat=1, totals=[5, 40, 0], status=FINISHED, winner=1),
    )
    assert await results(store, game_id) == [
        (0, "user:1", 1, "p1", 5, 0, 0, 1),
        (1, "user:2", 2, "p2", 40, 1, 0, 0),
        (2, "user:3", 3, "p3", 0, 0, 0, 1),
    ]
    # The others are rated on the match as it was played; user 2's rating is left as it was.
    wanted = rate([("user:1", 2), ("user:2", 1), ("user:3", 3)], {})
    assert await ratings(store, game_id) == pytest.approx(
        {"user:1": wanted["user:1"], "user:3": wanted["user:3"]}
    )
    assert await store.records.rating_history(5, "bue", "user:2") == []
    record = await store.records.player_record(5, 2, "bue")
    assert record is not None and record.wins == 1  # what the stand-in played counts as theirs
    await store.close()


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
async def test_seats_remember_who_stands_in_until_the_person_is_back(database):
    """What the store writes to the seats is what ``Commit.seats_after`` says it writes."""
    store = await Store.open(database)
    game_id = await running_match(store, [1, 2])
    changes = [
        move(1, action=AWAY, totals=[3, 0], robot_states={0: {"level": "easy"}}, stand_ins={0: "easy"}),
        move(2, action={"type": "back"}, totals=[3, 0], back=[0]),
        move(
            3,
            seat=1,
            action=LEAVE_FOR_GOOD,
            totals=[3, 8],
            robot_states={1: {}},
            gone=[1],
            stand_ins={1: "hard"},
        ),
    ]
    seen = []
    for change in changes:
        game = await store.games.game(game_id)
        assert game is not None
        before = await store.games.seats(game_id)
        await store.games.commit(game, change, now=1.0)
        after = await store.games.seats(game_id)
        assert change.seats_after(before, game.version + 1) == after
        seen.append([(s.stand_in, s.stood_in, s.gone, s.left_total, s.played_by_computer) for s in after])
    assert seen == [
        [("easy", True, False, None, True), (None, False, False, None, False)],
        [(None, True, False, None, False), (None, False, False, None, False)],
        [(None, True, False, None, False), ("hard", True, True, 8, True)],
    ]
    await store.close()
