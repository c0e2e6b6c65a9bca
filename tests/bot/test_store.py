"""The store: migrations, WAL and foreign keys, the atomic commit, leaderboards."""

from __future__ import annotations

import pytest

from bot.store import MIGRATIONS, ChannelBusy, Commit, StaleVersion, Store


async def open_lobby(store: Store, channel: int = 10, host: int = 1) -> int:
    return await store.create_lobby(
        kind="bue",
        guild_id=5,
        channel_id=channel,
        host_id=host,
        host_name="anna",
        host_locale="it",
        locale="en",
        options={"target": 110},
        turn_timeout=3600,
        seed=7,
        now=0.0,
    )


async def test_migrations_run_once_and_the_database_uses_wal_and_foreign_keys(tmp_path):
    path = str(tmp_path / "db.sqlite3")
    store = await Store.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    assert (await store._value("PRAGMA journal_mode")) == "wal"
    assert (await store._value("PRAGMA foreign_keys")) == 1
    await store.close()
    again = await Store.open(path)  # reopening migrates nothing twice
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


async def test_one_open_game_per_channel(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    first = await open_lobby(store)
    with pytest.raises(ChannelBusy) as busy:
        await open_lobby(store, host=2)
    assert busy.value.game.id == first
    await store.end(first, "aborted")
    assert await open_lobby(store) != first
    await store.close()


async def test_lobby_seats_follow_join_order_and_stay_dense(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    game = await open_lobby(store)
    await store.join(game, 2, "bruno", "fr")
    await store.join(game, 3, "carla", "en")
    await store.leave_lobby(game, 2)
    await store.join(game, 4, "dario", "en")
    assert [(s.seat, s.name) for s in await store.seats(game)] == [(0, "anna"), (1, "carla"), (2, "dario")]
    await store.close()


async def test_a_commit_writes_everything_or_nothing(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    game_id = await open_lobby(store)
    await store.join(game_id, 2, "bruno", "en")
    await store.start(game_id, {"n": 0}, [(0, "expire", "deck,swap", 100.0)])
    game = await store.game(game_id)
    change = Commit(
        seat=0,
        action={"type": "deck"},
        state={"n": 1},
        totals=[30, 0],
        timers=[(1, "expire", "deck,swap", 200.0)],
        finished=True,
        winner=0,
    )
    assert await store.commit(game, change, now=50.0) == 2
    # The same version again (a double click racing itself) is refused and changes nothing.
    with pytest.raises(StaleVersion):
        await store.commit(game, change, now=60.0)
    assert await store.actions(game_id) == [(0, {"type": "deck"})]
    assert [t.seat for t in await store.timers(game_id)] == [1]
    assert [s.total for s in await store.seats(game_id)] == [30, 0]
    board = await store.leaderboard(5, "bue")
    assert [(s.name, s.wins, s.games, s.points) for s in board] == [("anna", 1, 1, 30), ("bruno", 0, 1, 0)]
    assert await store.leaderboard(5, "rummikub") == []
    await store.close()


async def test_deleting_a_game_takes_its_rows_with_it(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    game_id = await open_lobby(store)
    await store._write("DELETE FROM games WHERE id = ?", (game_id,))
    assert await store.seats(game_id) == []
    await store.close()
