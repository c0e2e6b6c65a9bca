"""What the store keeps of time, on SQLite and PostgreSQL alike: a player's time zone, quiet hours
and away spans (read with every seat), a server's clock and away days, a game's clock, and the
index ``/turns`` reads a player's games from."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.clock import DAY
from bot.model import ABORTED, FINISHED, GameRow, SeatRow
from bot.store import StaleVersion, Store
from bot.store.community import PlayerChoices, ServerChoices
from bot.store.turns import TURNS_QUERY
from bot.timekeeping import bank_after, decision_timers
from tests.conftest import BACKENDS, database_for
from tests.store_games import lobby_row, move, open_lobby, start


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path) -> str:
    return database_for(request, tmp_path)


async def game_of(
    store: Store, channel: int, players: list[int], guild: int = 5, now: float = 10.0, bank: int | None = None
) -> int:
    """A running game of ``players`` (the first hosts), begun at ``now``, its first player to move."""
    row = lobby_row(
        "rummikub",
        channel=channel,
        host=players[0],
        guild=guild,
        options={},
        turn_timeout=3 * DAY if bank else 3600,
        server_settings={"away_days": guild},
    )
    seated = [(user, f"p{user}", "en") for user in players]
    game_id = await open_lobby(store, replace(row, clock_increment=bank), seated)
    await start(store, game_id, {"n": 0}, [(0, "expire", "draw,play", now + 3600)], now=now)
    return game_id


async def test_a_players_time_is_kept_and_read_with_every_seat_of_theirs(store):
    await store.community.set_player(1, "time_zone", "Europe/Rome")
    await store.community.set_player(1, "quiet_hours", "23-08")
    await store.community.set_away(1, 100.0, 200.0)
    await store.community.set_away(1, 500.0, 900.0)
    await store.community.set_away(1, 500.0, 700.0)  # the same span, ended earlier
    game_id = await game_of(store, 10, [1, 2])
    anna, bruno = await store.games.seats(game_id)
    assert (anna.time_zone, anna.quiet_hours, anna.away_from, anna.away_until) == (
        "Europe/Rome",
        "23-08",
        500.0,
        700.0,
    )
    assert (bruno.time_zone, bruno.quiet_hours, bruno.away_from, bruno.away_until) == (None,) * 4
    assert anna.bank_left is None
    assert (await store.community.player(1)) == PlayerChoices(time_zone="Europe/Rome", quiet_hours="23-08")
    assert await store.community.away_spans(1, since=150.0) == [(100.0, 200.0), (500.0, 700.0)]
    assert await store.community.away_spans(1, since=200.0) == [(500.0, 700.0)]
    await store.community.set_away(1, 500.0, 500.0)  # ended as it began: gone
    assert await store.community.away_spans(1, since=0.0) == [(100.0, 200.0)]
    await store.community.set_player(1, "time_zone", None)
    assert (await store.community.player(1)).time_zone is None


async def test_a_servers_clock_and_away_days_and_a_games_clock(store):
    await store.community.set_server_columns(5, {"turn_timeout": 259200, "clock_increment": 43200})
    await store.community.set_server(5, "away_days", 3)
    assert await store.community.server(5) == ServerChoices(
        turn_timeout=259200, clock_increment=43200, away_days=3
    )
    await store.community.set_server_columns(5, {"turn_timeout": None, "clock_increment": None})
    assert await store.community.server(5) == ServerChoices(away_days=3)
    game_id = await game_of(store, 10, [1, 2], now=42.0, bank=43200)
    row = await store.games.game(game_id)
    assert row is not None
    assert (row.turn_timeout, row.clock_increment, row.started_at) == (259200, 43200, 42.0)
    assert await store.community.running_games_settings(1) == [{"away_days": 5}]


async def test_turns_lists_a_players_running_games_waiting_on_them_first_longest_first(store):
    # Anna (1) waits in two games, one of them since longer; a third waits on Bruno; a fourth is
    # over; in a fifth she left.
    newer = await game_of(store, 10, [1, 2], now=50.0)
    older = await game_of(store, 11, [1, 3], guild=6, now=20.0)
    others = await game_of(store, 12, [2, 1], now=5.0)
    over = await game_of(store, 13, [1, 2], now=1.0)
    left = await game_of(store, 14, [1, 2], now=1.0)
    await store.games.commit(
        await store.games.game(over), move(1, seat=1, status=FINISHED, winner=1), now=60.0
    )
    await store.games.commit(
        await store.games.game(left), move(1, action={"type": "leave"}, gone=[0]), now=60.0
    )
    turns = await store.turns.of_player(1)
    assert [(turn.game_id, turn.waits_on_them) for turn in turns] == [
        (older, True),
        (newer, True),
        (others, False),
    ]
    first = turns[0]
    assert (first.guild_id, first.channel_id, first.seat, first.decision, first.due_at) == (
        6,
        11,
        0,
        "draw,play",
        3620.0,
    )
    assert first.waiting_since == 20.0 and turns[2].next_due == 3605.0
    # A move opens Bruno's decision in the newer game: it waits on him from the move's time.
    await store.games.commit(
        await store.games.game(newer),
        move(
            1,
            action={"type": "draw"},
            timers=[(1, "expire", "draw,play", 9000.0)],
            changed_decisions=[0, 1],
            clocks_started={1: 70.0},
        ),
        now=70.0,
    )
    bruno = await store.turns.of_player(2)
    assert [(turn.game_id, turn.waits_on_them, turn.waiting_since) for turn in bruno] == [
        (others, True, 5.0),
        (newer, True, 70.0),
        (left, False, 1.0),  # Anna left it; Bruno plays on
    ]
    # Anna's turn there is over: it waits on others now, since the move.
    assert [turn.game_id for turn in await store.turns.of_player(1)] == [older, others, newer]
    assert await store.turns.of_player(99) == [] and await store.turns.of_player(2**70) == []
    assert [logged.action for logged in await store.turns.log(newer)] == [{"type": "draw"}]


async def test_turns_keeps_the_longest_waiting_first_when_away_time_restarts_a_clock(store):
    older = await game_of(store, 10, [1, 2], now=20.0)
    newer = await game_of(store, 11, [1, 3], now=50.0)
    # An away day used in the older game: its clock starts again as the day ends, its decision
    # (the same one, waiting since 20) unchanged.
    await store.games.commit(
        await store.games.game(older),
        move(1, action=None, timers=[(0, "expire", "draw,play", 200_000.0)], clocks_started={0: 86_460.0}),
        now=60.0,
    )
    turns = await store.turns.of_player(1)
    assert [(turn.game_id, turn.waiting_since) for turn in turns] == [(older, 20.0), (newer, 50.0)]


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_turns_reads_the_players_seats_from_their_index(store):
    plan = " ".join(
        str(row[3]) for row in await store.backend.fetch(f"EXPLAIN QUERY PLAN {TURNS_QUERY}", (1, 100))
    )
    assert "SEARCH seats USING INDEX seats_in_play (user_id=?)" in plan
    assert "SCAN" not in plan


async def test_an_away_day_used_as_time_runs_out_is_written_with_the_change_or_not_at_all(store):
    game_id = await game_of(store, 10, [1, 2])
    row = await store.games.game(game_id)
    assert row is not None
    now = 100 * DAY
    used = move(1, action=None, away=(1, now, now + DAY))
    await store.games.commit(row, used, now)
    assert await store.community.away_spans(1, since=0.0, automatic=True) == [(now, now + DAY)]
    assert await store.community.away_spans(1, since=0.0) == []
    # It counts against her away days, and stops no other game of hers: it is not her last span.
    anna = (await store.games.seats(game_id))[0]
    assert (anna.away_from, anna.away_until) == (None, None)
    assert await store.community.last_away(1) is None
    # A change refused (the game moved on since it was read) writes no span either.
    with pytest.raises(StaleVersion):
        await store.games.commit(row, move(2, action=None, away=(1, now + DAY, now + 2 * DAY)), now + DAY)
    assert await store.community.away_spans(1, since=0.0, automatic=True) == [(now, now + DAY)]
    # Her own /away is her last span, whatever days were used for her games since.
    await store.community.set_away(1, now - DAY, now - DAY / 2)
    assert await store.community.last_away(1) == (now - DAY, now - DAY / 2)


def test_the_planners_and_the_commits_calls_for_a_seat():
    row = GameRow(
        id=1, kind="bue", guild_id=5, channel_id=10, host_id=1, status="running", options={},
        turn_timeout=3 * DAY, locale="en", seed=1, state=None, version=3, message_id=None,
        clock_increment=12 * 3600,
    )  # fmt: skip
    now = datetime(2025, 6, 1, 19, 0, tzinfo=UTC).timestamp()  # 21:00 in Rome
    seat = SeatRow(
        seat=0, user_id=1, name="anna", locale="en", total=0, gone=False, dm_notice_sent=False,
        bank_left=2 * 3600, time_zone="Europe/Rome", quiet_hours="23-08",
    )  # fmt: skip
    # Two hours of bank from 21:00 end at 23:00, quiet: at 08:00; half of them, at 22:00.
    assert decision_timers(now, row, seat, 0.5) == (now + 11 * 3600, now + 3600)
    # A day away in the middle of a three-day wait is not charged: two days of it are.
    away = replace(seat, bank_left=None, decision_at=now, away_from=now + DAY, away_until=now + 2 * DAY)
    assert bank_after(row, away, now + 3 * DAY, moved=True) == DAY + 12 * 3600
    assert (
        bank_after(replace(row, clock_increment=None), away, now + DAY, moved=True) == 3 * DAY
    )  # a full time
    # Without a zone, nothing moves.
    assert decision_timers(now, row, replace(seat, time_zone=None), 0) == (now + 2 * 3600, None)


async def test_a_game_leaves_the_index_of_turns_when_it_ends_however_it_ends(store):
    finished, aborted, running = [await game_of(store, channel, [1, 2]) for channel in (10, 11, 12)]
    in_play = "SELECT game_id, MIN(in_play), MAX(in_play) FROM seats GROUP BY game_id ORDER BY game_id"
    assert [tuple(row) for row in await store.backend.fetch(in_play)] == [
        (finished, 1, 1),
        (aborted, 1, 1),
        (running, 1, 1),
    ]
    lobby = await open_lobby(store, lobby_row(channel=13), [(1, "anna", "en")])
    over = move(1, status=FINISHED, winner=0)
    await store.games.commit(await store.games.game(finished), over, now=5.0)
    await store.games.commit(await store.games.game(aborted), move(1, action=None, status=ABORTED), now=5.0)
    # A deal that decides the match (a Bué dealt) ends it as it starts.
    dealt = await open_lobby(store, lobby_row(channel=14), [(1, "anna", "en"), (2, "bruno", "en")])
    deal = move(0, action=None, totals=[110, 0], status=FINISHED, winner=0)
    await store.games.commit(await store.games.game(dealt), deal, now=1.0)
    rows = await store.backend.fetch(in_play)
    assert [tuple(row) for row in rows] == [
        (finished, 0, 0),
        (aborted, 0, 0),
        (running, 1, 1),
        (lobby, 0, 0),
        (dealt, 0, 0),
    ]
    assert [turn.game_id for turn in await store.turns.of_player(1)] == [running]
