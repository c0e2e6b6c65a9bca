"""The store, on SQLite and on PostgreSQL alike: migrations, the atomic commit, leaderboards, and
what two processes sharing one database may and may not do."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path

import asyncpg
import pytest

from bot.games.bue.adapter import BueAdapter
from bot.model import ABORTED, FINISHED, LOBBY, RUNNING, Lobby, LobbyChange, NewSeat, Publication, SeatChange
from bot.planning import Pace
from bot.referee import Context, Join, Leave, rule
from bot.store import MIGRATIONS, ChannelBusy, SeatRow, Shards, StaleVersion, Store
from bot.store.backend import Statement
from bot.store.community import PlayerChoices, ServerChoices
from bot.store.rows import SEAT_CHANGE, SEAT_CHANGE_PARAMETERS, SEAT_WRITES, seat_parameters
from bot.store.timers import TIMER_LEASE
from tests.conftest import BACKENDS, database_for
from tests.store_games import join, lobby_row, move, open_lobby, seat, start

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


async def running_game(store: Store, channel: int = 10, guild: int = 5, due_at: float = 100.0) -> int:
    """Anna's and Bruno's game, dealt (version 2: opened, joined, dealt), Anna's timer due at ``due_at``."""
    game_id = await open_lobby(store, lobby_row(channel=channel, guild=guild))
    await join(store, game_id, 2, "bruno")
    await start(store, game_id, {"n": 0}, [(0, "expire", "deck,swap", due_at)])
    return game_id


async def test_migrations_run_once(store, open_store):
    assert await store.schema_version() == len(MIGRATIONS)
    again = await open_store()  # reopening migrates nothing twice
    assert await again.schema_version() == len(MIGRATIONS)


async def test_one_open_game_per_channel(store):
    first = await open_lobby(store)
    with pytest.raises(ChannelBusy) as busy:
        await open_lobby(store, lobby_row(host=2), [(2, "bruno", "en")])
    assert busy.value.game.id == first
    # Closing the lobby frees the channel.
    lobby = await store.games.game(first)
    await store.games.commit_lobby(lobby, LobbyChange(Publication(), [], ABORTED), now=1.0)
    assert (await store.games.game(first)).status == ABORTED
    assert await open_lobby(store) != first


async def test_lobby_seats_follow_join_order_and_stay_dense(store):
    """The referee rules on each change of a lobby (a seat given up goes to the next in join
    order); the store writes the seats it gives as they now are, each change a version on, and
    refuses, changing nothing, a change made from a lobby that has changed since."""
    game_id = await open_lobby(store)
    opened = await store.games.game(game_id)
    orders = [
        Join(NewSeat(2, "bruno", "fr")),
        Join(NewSeat(3, "carla", "en")),
        Leave(2),
        Join(NewSeat(4, "dario", "en")),
    ]
    for order in orders:
        row = await store.games.game(game_id)
        lobby = Lobby(row, await store.games.seats(game_id), BueAdapter())
        (ruling,) = rule(lobby, order, Context(1.0, Pace()))
        await store.games.commit_lobby(row, ruling.change, now=1.0)
    assert [(s.seat, s.name) for s in await store.games.seats(game_id)] == [
        (0, "anna"),
        (1, "carla"),
        (2, "dario"),
    ]
    assert (await store.games.game(game_id)).version == opened.version + len(orders)
    with pytest.raises(StaleVersion):
        await store.games.commit_lobby(opened, LobbyChange(Publication(), [seat(0, 1, "anna")]), now=2.0)
    assert len(await store.games.seats(game_id)) == 3
    # Each change is announced (the lobby drawn anew) through the outbox, at its version.
    assert [p.version for p in await store.outbox.pending()] == list(range(len(orders) + 1))


async def test_a_commit_writes_everything_or_nothing(store):
    game_id = await open_lobby(store)
    await join(store, game_id, 2, "bruno")
    game = await start(store, game_id, {"n": 0}, [(0, "expire", "deck,swap", 100.0)])
    change = move(1, totals=[30, 0], timers=[(1, "expire", "deck,swap", 200.0)], status=FINISHED, winner=0)
    await store.games.commit(game, change, now=50.0)
    finished = await store.games.game(game_id)
    assert (finished.version, finished.status, finished.state) == (game.version + 1, FINISHED, {"n": 1})
    # The same version again (a double click racing itself) is refused and changes nothing.
    with pytest.raises(StaleVersion):
        await store.games.commit(game, change, now=60.0)
    assert await store.games.game(game_id) == finished
    assert await store.games.actions(game_id) == [(0, {"type": "deck"})]
    assert [t.seat for t in await store.timers.timers(game_id)] == [1]
    assert [s.total for s in await store.games.seats(game_id)] == [30, 0]
    board = await store.records.leaderboard(5, "bue")
    assert [(s.name, s.wins, s.games, s.points) for s in board] == [("anna", 1, 1, 30), ("bruno", 0, 1, 0)]
    assert await store.records.leaderboard(5, "rummikub") == []
    # Rated in the same commit, from the results it wrote.
    assert [standing.name for standing in await store.records.rating_board(5, "bue")] == ["anna", "bruno"]


async def test_a_snapshot_reads_what_a_move_needs_in_one_go(store):
    game_id = await running_game(store)
    snapshot = await store.games.snapshot(game_id)
    assert snapshot.game == await store.games.game(game_id)
    assert snapshot.seats == await store.games.seats(game_id)
    assert snapshot.timers == await store.timers.timers(game_id)
    assert snapshot.pending == await store.outbox.pending()
    # The lobby opened, Bruno joined, the deal: each still to announce.
    assert [pending.version for pending in snapshot.pending] == [0, 1, 2]
    assert await store.games.snapshot(game_id + 1) is None
    assert await store.games.snapshot(2**64) is None  # a forged id names no game


async def test_a_snapshot_keeps_the_order_of_each_of_its_reads(store):
    """Seats by seat, timers by when they are due, publications by version, whatever order
    they were written in (SQLite reads them all in one statement)."""
    game_id = await open_lobby(store)
    await join(store, game_id, 2, "bruno")
    await join(store, game_id, 3, "carla", "fr")
    game = await start(store, game_id, {"n": 0}, [(0, "expire", "x", 300.0), (1, "expire", "x", 100.0)])
    timers = [(2, "expire", "y", 50.0), (0, "remind", "y", 500.0), (1, "expire", "y", 20.0)]
    await store.games.commit(game, move(1, totals=[0, 0, 0], timers=timers), now=1.0)
    snapshot = await store.games.snapshot(game_id)
    assert [seat.seat for seat in snapshot.seats] == [0, 1, 2]
    assert snapshot.seats == await store.games.seats(game_id)
    assert [timer.due_at for timer in snapshot.timers] == [20.0, 50.0, 500.0]
    assert snapshot.timers == await store.timers.timers(game_id)
    assert [pending.version for pending in snapshot.pending] == [0, 1, 2, 3, 4]
    assert snapshot.pending == await store.outbox.pending()


async def test_every_change_of_a_game_is_one_commit_and_the_log_numbers_only_moves(store):
    """The deal, a move, a reminder and an abort each move the game one version on; the log
    numbers the moves 1, 2, ... (a replay's positions), whatever else moved the version."""
    game_id = await open_lobby(store)
    await join(store, game_id, 2, "bruno")
    lobby = await store.games.game(game_id)
    # A deal made from the lobby as it was before Carla joined is refused, and deals nothing.
    await join(store, game_id, 3, "carla")
    with pytest.raises(StaleVersion):
        await store.games.commit(lobby, move(0, totals=[0, 0], action=None), now=0.0)
    assert (await store.games.game(game_id)).status == LOBBY
    game = await start(store, game_id, {"n": 0}, [(0, "expire", "deck", 100.0)])
    assert (await store.games.game(game_id)).status == RUNNING
    changes = [
        move(1, totals=[0, 0, 0]),
        move(1, totals=[0, 0, 0], publication=Publication(reminded=(1,)), action=None),  # a reminder
        move(2, seat=1, totals=[0, 0, 0]),
        move(2, totals=[0, 0, 0], status=ABORTED, action=None),
    ]
    for change in changes:
        await store.games.commit(game, change, now=1.0)
        game = replace(game, version=game.version + 1, status=change.status)
    closed = await store.games.game(game_id)
    assert (closed.status, closed.state, closed.version) == (ABORTED, {"n": 2}, game.version)
    assert await store.timers.timers(game_id) == []
    assert await store.games.open_game_in(10) is None
    numbered = await store.backend.fetch("SELECT number, seat FROM actions WHERE game_id = ?", (game_id,))
    assert sorted(tuple(row) for row in numbered) == [(1, 0), (2, 1)]
    # Each announced at its version: the lobby's three changes, the deal and the four after it.
    assert [pending.version for pending in await store.outbox.pending()] == list(range(closed.version + 1))


async def test_dropping_a_fired_timer_leaves_the_one_planned_in_its_place(store):
    game_id = await running_game(store, due_at=100.0)
    (taken,) = await store.timers.due_timers(200.0)
    # Meanwhile a move planned the same seat's timer of the same kind anew.
    game = await store.games.game(game_id)
    await store.games.commit(game, move(1, timers=[(0, "expire", "deck,swap", 900.0)]), now=150.0)
    await store.timers.drop_timer(taken)
    assert [timer.due_at for timer in await store.timers.timers(game_id)] == [900.0]
    (planned,) = await store.timers.timers(game_id)
    await store.timers.drop_timer(planned)
    assert await store.timers.timers(game_id) == []


async def test_deleting_a_game_takes_its_rows_with_it(store):
    game_id = await open_lobby(store)
    await store.games._write("DELETE FROM games WHERE id = ?", (game_id,))
    assert await store.games.seats(game_id) == []


async def test_two_processes_racing_on_one_game_commit_one_move(store, open_store):
    other = await open_store()
    game_id = await running_game(store)
    for n in range(1, 6):
        game = await store.games.game(game_id)
        outcomes = await asyncio.gather(
            store.games.commit(game, move(2 * n), now=1.0),
            other.games.commit(game, move(2 * n + 1), now=1.0),
            return_exceptions=True,
        )
        assert sorted(map(type, outcomes), key=str) == sorted([type(None), StaleVersion], key=str)
        winner = next(2 * n + i for i, outcome in enumerate(outcomes) if outcome is None)
        after = await other.games.game(game_id)
        assert (after.state, after.version) == ({"n": winner}, game.version + 1)
    assert len(await store.games.actions(game_id)) == 5


async def test_two_processes_opening_a_game_in_one_channel_open_one(store, open_store):
    other = await open_store()
    outcomes = await asyncio.gather(
        open_lobby(store), open_lobby(other, lobby_row(host=2), [(2, "bruno", "en")]), return_exceptions=True
    )
    (opened,) = [outcome for outcome in outcomes if isinstance(outcome, int)]
    (busy,) = [outcome for outcome in outcomes if isinstance(outcome, ChannelBusy)]
    assert busy.game.id == opened


async def test_each_due_timer_is_taken_by_one_process_until_its_lease_ends(store, open_store):
    other = await open_store()
    games = [await running_game(store, channel=10 + n, due_at=100.0 + n) for n in range(6)]
    taken = await asyncio.gather(store.timers.due_timers(200.0), other.timers.due_timers(200.0))
    assert sorted(timer.game_id for timers in taken for timer in timers) == games
    assert await store.timers.due_timers(201.0) == [] and await other.timers.due_timers(201.0) == []
    # Held by a lease, a timer is next due when the lease ends: nobody spins on it meanwhile.
    assert await other.timers.next_due() == 200.0 + TIMER_LEASE
    # A process that died holding timers leaves them to another once the lease is over.
    retaken = await other.timers.due_timers(200.0 + TIMER_LEASE)
    assert sorted(timer.game_id for timer in retaken) == games


async def test_a_process_sees_only_the_games_of_its_shards(open_store):
    first, second = await open_store(Shards(2, (0,))), await open_store(Shards(2, (1,)))
    on_first = await running_game(first, channel=10, guild=GUILD_ON_SHARD[0])
    on_second = await running_game(first, channel=11, guild=GUILD_ON_SHARD[1])
    for store, mine in ((first, on_first), (second, on_second)):
        assert [game.id for game in await store.games.running_games()] == [mine]
        assert {pending.game_id for pending in await store.outbox.pending()} == {mine}
        assert await store.timers.next_due() == 100.0
        assert [timer.game_id for timer in await store.timers.due_timers(200.0)] == [mine]
    both = await open_store(Shards(2, (0, 1)))
    assert [game.id for game in await both.games.running_games()] == [on_first, on_second]


async def test_a_snapshot_on_postgresql_is_one_moment_while_another_process_commits(postgres_database):
    """Another process commits a move between two of a snapshot's reads: both reads see the game
    as it was when the snapshot began (SQLite reads a snapshot in one statement, so only
    PostgreSQL has reads in between)."""
    store, other = await Store.open(postgres_database), await Store.open(postgres_database)
    blocker = await asyncpg.connect(postgres_database)
    try:
        game_id = await running_game(store)
        dealt = await store.games.game(game_id)
        version = Statement("SELECT version FROM games WHERE id = ?", (game_id,))
        # The snapshot's second read waits for a lock the test holds, until the move has committed.
        await blocker.execute("SELECT pg_advisory_lock(21)")
        reads = asyncio.create_task(
            store._db.fetch_many([version, Statement("SELECT pg_advisory_xact_lock(21)"), version])
        )
        waiting = "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        while not await blocker.fetchval(waiting):
            await asyncio.sleep(0.01)
        await other.games.commit(dealt, move(1), now=1.0)
        await blocker.execute("SELECT pg_advisory_unlock(21)")
        before, _, after = await asyncio.wait_for(reads, 30)
        assert [row["version"] for row in (*before, *after)] == [dealt.version, dealt.version]
        assert (await store.games.game(game_id)).version == dealt.version + 1
    finally:
        await blocker.close()
        await store.close()
        await other.close()


async def test_sqlite_uses_wal_and_foreign_keys(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    assert (await store.games._value("PRAGMA journal_mode")) == "wal"
    assert (await store.games._value("PRAGMA foreign_keys")) == 1
    await store.close()


async def test_a_move_changes_each_seat_it_names_and_leaves_the_others(store):
    game_id = await open_lobby(store)
    await join(store, game_id, 2, "bruno")
    await join(store, game_id, -1, "robot", robot="hard")
    dealt = await start(store, game_id, {"n": 0}, robot_states={2: {"memory": 1}})
    seats = await store.games.seats(game_id)
    # The deal began every seat's decision and gave the computer its memory.
    assert [seat.decision_since for seat in seats] == [dealt.version] * 3
    assert (seats[2].robot, seats[2].robot_state) == ("hard", {"memory": 1})
    change = move(
        1,
        seat=1,
        totals=[10, 20],  # the computer's total is left as it was
        gone=[1],
        changed_decisions=[2],
        robot_states={2: {"memory": 2}},
    )
    await store.games.commit(dealt, change, now=1.0)
    version = dealt.version + 1
    assert await store.games.seats(game_id) == change.seats_after(seats, version)
    after = await store.games.seats(game_id)
    expected = [(10, False, dealt.version), (20, True, dealt.version), (0, False, version)]
    assert [(seat.total, seat.gone, seat.decision_since) for seat in after] == expected
    assert after[2].robot_state == {"memory": 2}


def test_a_seat_change_is_written_from_one_definition():
    """Every value a seat's change carries reaches the statement, by name, and every column the
    statement writes is a seat's: a column added to ``SEAT_WRITES`` without its value, or a value
    without its column, fails here rather than write the wrong column."""
    written = {column for column, _ in SEAT_WRITES}
    assert written <= {field.name for field in fields(SeatRow)}
    assert set(SEAT_CHANGE_PARAMETERS) == set(seat_parameters(SeatChange()))
    assert SEAT_CHANGE.count("?") == len(SEAT_CHANGE_PARAMETERS) + 2  # and the game and seat
    assert {field.name for field in fields(SeatChange)} <= set(seat_parameters(SeatChange()))


async def test_a_transaction_cancelled_mid_statement_rolls_back_and_frees_the_store(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    game_id = await running_game(store)
    inside = asyncio.Event()

    async def interrupted_move() -> None:
        async with store.backend.transaction() as db:
            await db.execute("UPDATE games SET state = '{\"n\": 99}' WHERE id = ?", (game_id,))
            inside.set()
            await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))

    for cancellations in (1, 2):  # a second one while the rollback is on its way too
        before = await store.games.game(game_id)
        task = asyncio.create_task(interrupted_move())
        await inside.wait()
        inside.clear()
        for _ in range(cancellations):
            task.cancel()
            await asyncio.sleep(0)
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await store.games.game(game_id) == before
        assert len(await store.timers.timers(game_id)) == 1
        # Nothing is left holding the store: the next move commits (and keeps the timer).
        change = move(before.version, timers=[(0, "expire", "deck,swap", 100.0)])
        await store.games.commit(before, change, now=1.0)
        assert (await store.games.game(game_id)).version == before.version + 1
    await store.close()


async def test_a_transaction_cancelled_before_its_first_statement_ran_leaves_none_open(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    game_id = await running_game(store)
    for _ in range(20):
        task = asyncio.create_task(store.games.commit(await store.games.game(game_id), move(1), now=1.0))
        await asyncio.sleep(0)  # the transaction has asked for its first statement
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        # A commit that ran or not, but no transaction left open to swallow the next writes.
        await store.games.set_message(game_id, 42)
        reopened = await Store.open(str(tmp_path / "db.sqlite3"))
        assert (await reopened.games.game(game_id)).message_id == 42
        await reopened.close()
        await store.games.set_message(game_id, 0)
    await store.close()


def test_a_bot_on_sqlite_never_imports_asyncpg(tmp_path):
    """asyncpg takes a tenth of a second to import: a bot on SQLite has no use for it."""
    program = (
        "import asyncio, sys\n"
        "import bot.__main__\n"
        "from bot.store import Store\n"
        "async def main():\n"
        f"    store = await Store.open({str(tmp_path / 'db.sqlite3')!r})\n"
        "    await store.close()\n"
        "asyncio.run(main())\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] == 'asyncpg'))\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    ran = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, env=environment
    )
    assert ran.stdout.strip() == "[]"


def test_a_process_that_never_closed_its_sqlite_store_still_exits(tmp_path):
    """aiosqlite's thread would otherwise keep it alive for ever (a crash before the bot's close)."""
    program = (
        "import asyncio\n"
        "from bot.store import Store\n"
        "stores = []\n"
        "async def main():\n"
        f"    stores.append(await Store.open({str(tmp_path / 'db.sqlite3')!r}))\n"
        "    await stores[0].games.set_dm_channel(1, 2)\n"
        "asyncio.run(main())\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    # The timeout only stops a process that hangs: it exits in well under a second.
    subprocess.run([sys.executable, "-c", program], check=True, env=environment, timeout=120)
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        assert db.execute("SELECT user_id, channel_id FROM dm_channels").fetchall() == [(1, 2)]


async def test_a_move_sends_one_statement_per_table_it_changes(tmp_path):
    """Each statement is a hop to aiosqlite's thread: a move's seats go in one, its end with its
    state. (executemany runs its statement once per row: the seats' UPDATE shows twice.) The move
    that ends a match, once a match, takes its seats out of /turns' index (``in_play``)."""
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    game_id = await running_game(store)
    sent: list[str] = []
    change = move(
        1,
        totals=[5, 0],
        timers=[(1, "expire", "deck,swap", 200.0)],
        changed_decisions=[0, 1],
        status=FINISHED,
    )
    game = await store.games.game(game_id)
    await store.backend._db.set_trace_callback(sent.append)
    await store.games.commit(game, change, now=1.0)
    await store.backend._db.set_trace_callback(None)
    assert [" ".join(sql.split()[:3]) for sql in sent] == [
        "BEGIN IMMEDIATE",
        "UPDATE games SET",
        "UPDATE seats SET",
        "UPDATE seats SET",
        "DELETE FROM timers",
        "INSERT INTO timers",
        "INSERT INTO outbox",
        "INSERT INTO actions",
        "UPDATE seats SET",
        "COMMIT",
    ]
    await store.close()


async def test_a_snapshot_is_one_statement_on_sqlite(tmp_path):
    """A move reads its game twice (before its lock, and under it): one hop each, no transaction."""
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    game_id = await running_game(store)
    first = await store.games.snapshot(game_id)  # learns the columns of its queries
    sent: list[str] = []
    await store.backend._db.set_trace_callback(sent.append)
    assert await store.games.snapshot(game_id) == first
    await store.backend._db.set_trace_callback(None)
    assert len(sent) == 1
    assert sent[0].startswith("SELECT 0, *")
    await store.close()


async def test_a_snapshot_still_reads_once_another_process_added_a_column(tmp_path):
    """The snapshot's statement is built from the columns it learnt: a column added since (by a
    newer process migrating the file) makes it learn them again, not fail."""
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    game_id = await running_game(store)
    first = await store.games.snapshot(game_id)
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        db.execute("ALTER TABLE timers ADD COLUMN note TEXT")
    assert await store.games.snapshot(game_id) == first
    await store.close()


async def test_a_claim_names_its_process_lasts_a_short_lease_and_is_renewed_only_by_it(store, open_store):
    other = await open_store()
    assert store.timers.process_id != other.timers.process_id
    assert TIMER_LEASE <= 15.0
    game_id = await running_game(store, due_at=100.0)
    taken = await store.timers.due_timers(200.0)
    assert len(taken) == 1
    claimed_by = await store.games._value("SELECT claimed_by FROM timers WHERE game_id = ?", (game_id,))
    assert claimed_by == store.timers.process_id
    # Renewed while its work runs: still held when the first lease would have ended.
    await store.timers.renew_claims(taken, 210.0)
    assert await other.timers.due_timers(200.0 + TIMER_LEASE) == []
    assert await other.timers.next_due() == 210.0 + TIMER_LEASE
    # Another process's renewal does not touch a claim it does not hold.
    await other.timers.renew_claims(taken, 400.0)
    assert await other.timers.next_due() == 210.0 + TIMER_LEASE


async def test_a_process_that_starts_takes_back_the_claims_of_its_shards_made_before(open_store):
    died = await open_store()
    mine = await running_game(died, channel=10, guild=GUILD_ON_SHARD[0], due_at=100.0)
    theirs = await running_game(died, channel=11, guild=GUILD_ON_SHARD[1], due_at=100.0)
    assert len(await died.timers.due_timers(200.0)) == 2  # taken, then the process died

    restarted = await open_store(Shards(2, (0,)))
    await restarted.timers.take_back_claims()
    assert [timer.game_id for timer in await restarted.timers.due_timers(201.0)] == [mine]
    # The other shard's claim is its own process's business.
    assert (
        await died.games._value("SELECT claimed_by FROM timers WHERE game_id = ?", (theirs,))
        == died.timers.process_id
    )


def test_a_seat_a_move_left_as_it_was_stays_the_row_it_was() -> None:
    seats = [SeatRow(seat, 100 + seat, f"p{seat}", "en", 5 * seat, False, False, 1) for seat in range(4)]
    change = move(1, seat=1, totals=[0, 7, 10, 15], changed_decisions=[1, 2])
    after = change.seats_after(seats, 2)
    assert [after[seat] is seats[seat] for seat in range(4)] == [True, False, False, True]
    assert [(seat.total, seat.decision_since) for seat in after] == [(0, 1), (7, 2), (10, 2), (15, 1)]


async def test_a_match_its_server_keeps_out_of_ratings_is_recorded_and_rates_nobody(store):
    game_id = await running_game(store)
    change = move(1, totals=[30, 0], status=FINISHED, winner=0, rated=False)
    await store.games.commit(await store.games.game(game_id), change, now=50.0)
    board = await store.records.leaderboard(5, "bue")
    assert [(s.name, s.wins, s.games) for s in board] == [("anna", 1, 1), ("bruno", 0, 1)]
    assert await store.records.rating_board(5, "bue") == []
    # Nor is it rated later, as a match from before ratings would be.
    await store.records.rate_unrated_matches()
    assert await store.records.rating_board(5, "bue") == []


async def test_settings_and_preferences_are_kept_one_at_a_time(store, open_store):
    community = store.community
    assert await community.server(5) == ServerChoices()
    await community.set_server(5, "channels", [10, 11])
    await community.set_server(5, "turn_timeout", 3600)
    await community.set_server(5, "computers_rated", False)
    await community.set_server(5, "computer_pause", 0.5)
    await community.set_server(5, "turn_timeout", None)  # back to the default
    expected = ServerChoices(channels=(10, 11), computers_rated=False, computer_pause=0.5)
    assert await community.server(5) == expected
    assert await community.server(6) == ServerChoices()
    with pytest.raises(ValueError):
        await community.set_server(5, "guild_id = 1; --", 1)

    await community.set_player(2, "ping", False)
    await community.set_player(2, "language", "fr")
    await community.set_player(2, "game_options", {"bue": {"target": 150}})
    assert await community.player(2) == PlayerChoices("fr", None, False, {"bue": {"target": 150}})
    # A seat is read with its player's preferences: the language they chose over Discord's.
    game_id = await running_game(store)
    bruno = (await store.games.snapshot(game_id)).seats[1]
    assert (bruno.locale, bruno.ping, bruno.dm_hand) == ("fr", False, True)
    # Another process reads the same.
    other = await open_store()
    assert await other.community.server(5) == expected
