"""The store, on SQLite and on PostgreSQL alike: migrations, the atomic commit, leaderboards, and
what two processes sharing one database may and may not do."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import MIGRATIONS, ChannelBusy, Commit, Shards, StaleVersion, Store
from bot.store.store import TIMER_LEASE
from tests.conftest import BACKENDS, database_for

# Guild ids on shard 0 and on shard 1 of two: the shard is (guild_id >> 22) % 2.
GUILD_ON_SHARD = {0: 6 << 22, 1: 5 << 22 | 5}


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path) -> str:
    """Every test of the store that takes a store runs on each backend."""
    return database_for(request, tmp_path)


@pytest.fixture
async def open_store(database):
    """Opens a store on the test's database: call it again for a second process's store."""
    opened: list[Store] = []

    async def open_one(*shards: Shards) -> Store:
        opened.append(await Store.open(database, *shards))
        return opened[-1]

    yield open_one
    for store in opened:
        await store.close()


@pytest.fixture
async def store(open_store) -> Store:
    return await open_store()


async def open_lobby(store: Store, channel: int = 10, host: int = 1, guild: int = 5) -> int:
    return await store.create_lobby(
        kind="bue",
        guild_id=guild,
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


async def running_game(store: Store, channel: int = 10, guild: int = 5, due_at: float = 100.0) -> int:
    game_id = await open_lobby(store, channel, guild=guild)
    await store.join(game_id, 2, "bruno", "en")
    await store.start(game_id, {"n": 0}, [(0, "expire", "deck,swap", due_at)], {"events": []})
    return game_id


def move(n: int) -> Commit:
    return Commit(seat=0, action={"type": "deck"}, state={"n": n}, totals=[0, 0], timers=[])


async def test_migrations_run_once(store, open_store):
    assert await store.schema_version() == len(MIGRATIONS)
    again = await open_store()  # reopening migrates nothing twice
    assert await again.schema_version() == len(MIGRATIONS)


async def test_one_open_game_per_channel(store):
    first = await open_lobby(store)
    with pytest.raises(ChannelBusy) as busy:
        await open_lobby(store, host=2)
    assert busy.value.game.id == first
    await store.end(first, "aborted")
    assert await open_lobby(store) != first


async def test_lobby_seats_follow_join_order_and_stay_dense(store):
    game = await open_lobby(store)
    await store.join(game, 2, "bruno", "fr")
    await store.join(game, 3, "carla", "en")
    await store.leave_lobby(game, 2)
    await store.join(game, 4, "dario", "en")
    assert [(s.seat, s.name) for s in await store.seats(game)] == [(0, "anna"), (1, "carla"), (2, "dario")]


async def test_a_commit_writes_everything_or_nothing(store):
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


async def test_a_snapshot_reads_what_a_move_needs_in_one_go(store):
    game_id = await running_game(store)
    snapshot = await store.snapshot(game_id)
    assert snapshot.game == await store.game(game_id)
    assert snapshot.seats == await store.seats(game_id)
    assert snapshot.timers == await store.timers(game_id)
    assert snapshot.pending == await store.pending()
    assert [pending.version for pending in snapshot.pending] == [1]
    assert await store.snapshot(game_id + 1) is None
    assert await store.snapshot(2**64) is None  # a forged id names no game


async def test_deleting_a_game_takes_its_rows_with_it(store):
    game_id = await open_lobby(store)
    await store._write("DELETE FROM games WHERE id = ?", (game_id,))
    assert await store.seats(game_id) == []


async def test_two_processes_racing_on_one_game_commit_one_move(store, open_store):
    other = await open_store()
    game_id = await running_game(store)
    for n in range(1, 6):
        game = await store.game(game_id)
        outcomes = await asyncio.gather(
            store.commit(game, move(2 * n), now=1.0),
            other.commit(game, move(2 * n + 1), now=1.0),
            return_exceptions=True,
        )
        assert sorted(map(type, outcomes), key=str) == sorted([int, StaleVersion], key=str)
        winner = next(2 * n + i for i, outcome in enumerate(outcomes) if outcome == game.version + 1)
        assert (await other.game(game_id)).state == {"n": winner}
    assert len(await store.actions(game_id)) == 5


async def test_two_processes_opening_a_game_in_one_channel_open_one(store, open_store):
    other = await open_store()
    outcomes = await asyncio.gather(open_lobby(store), open_lobby(other, host=2), return_exceptions=True)
    (opened,) = [outcome for outcome in outcomes if isinstance(outcome, int)]
    (busy,) = [outcome for outcome in outcomes if isinstance(outcome, ChannelBusy)]
    assert busy.game.id == opened


async def test_each_due_timer_is_taken_by_one_process_until_its_lease_ends(store, open_store):
    other = await open_store()
    games = [await running_game(store, channel=10 + n, due_at=100.0 + n) for n in range(6)]
    taken = await asyncio.gather(store.due_timers(200.0), other.due_timers(200.0))
    assert sorted(timer.game_id for timers in taken for timer in timers) == games
    assert await store.due_timers(201.0) == [] and await other.due_timers(201.0) == []
    # Held by a lease, a timer is next due when the lease ends: nobody spins on it meanwhile.
    assert await other.next_due() == 200.0 + TIMER_LEASE
    # A process that died holding timers leaves them to another once the lease is over.
    retaken = await other.due_timers(200.0 + TIMER_LEASE)
    assert sorted(timer.game_id for timer in retaken) == games


async def test_a_process_sees_only_the_games_of_its_shards(open_store):
    first, second = await open_store(Shards(2, (0,))), await open_store(Shards(2, (1,)))
    on_first = await running_game(first, channel=10, guild=GUILD_ON_SHARD[0])
    on_second = await running_game(first, channel=11, guild=GUILD_ON_SHARD[1])
    for store, mine in ((first, on_first), (second, on_second)):
        assert [game.id for game in await store.running_games()] == [mine]
        assert [pending.game_id for pending in await store.pending()] == [mine]
        assert await store.next_due() == 100.0
        assert [timer.game_id for timer in await store.due_timers(200.0)] == [mine]
    both = await open_store(Shards(2, (0, 1)))
    assert [game.id for game in await both.running_games()] == [on_first, on_second]


async def test_sqlite_uses_wal_and_foreign_keys(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    assert (await store._value("PRAGMA journal_mode")) == "wal"
    assert (await store._value("PRAGMA foreign_keys")) == 1
    await store.close()


async def test_a_claim_names_its_process_lasts_a_short_lease_and_is_renewed_only_by_it(store, open_store):
    other = await open_store()
    assert store.process_id != other.process_id
    assert TIMER_LEASE <= 15.0
    game_id = await running_game(store, due_at=100.0)
    taken = await store.due_timers(200.0)
    assert len(taken) == 1
    claimed_by = await store._value("SELECT claimed_by FROM timers WHERE game_id = ?", (game_id,))
    assert claimed_by == store.process_id
    # Renewed while its work runs: still held when the first lease would have ended.
    await store.renew_claims(taken, 210.0)
    assert await other.due_timers(200.0 + TIMER_LEASE) == []
    assert await other.next_due() == 210.0 + TIMER_LEASE
    # Another process's renewal does not touch a claim it does not hold.
    await other.renew_claims(taken, 400.0)
    assert await other.next_due() == 210.0 + TIMER_LEASE


async def test_a_process_that_starts_takes_back_the_claims_of_its_shards_made_before(open_store):
    died = await open_store()
    mine = await running_game(died, channel=10, guild=GUILD_ON_SHARD[0], due_at=100.0)
    theirs = await running_game(died, channel=11, guild=GUILD_ON_SHARD[1], due_at=100.0)
    assert len(await died.due_timers(200.0)) == 2  # taken, then the process died

    restarted = await open_store(Shards(2, (0,)))
    await restarted.take_back_claims()
    assert [timer.game_id for timer in await restarted.due_timers(201.0)] == [mine]
    # The other shard's claim is its own process's business.
    assert await died._value("SELECT claimed_by FROM timers WHERE game_id = ?", (theirs,)) == died.process_id
