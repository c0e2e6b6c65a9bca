"""Tournaments in the store, on both databases: entrants in entry order, a round paired once, a
table's game made once (tied to its table as it is made), results kept once, and each process
seeing only its shards' tournaments."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.store import Shards
from bot.store.backend import WrongRowCount
from bot.store.tournaments import AlreadyEntered, NewTournament
from tests.bot.test_store import GUILD_ON_SHARD
from tests.store_games import lobby_row, seat


def new(guild: int = 5, channel: int = 10) -> NewTournament:
    return NewTournament(guild, channel, 1, "bue", "swiss", 4, 3, {"target": 10}, 3600, "en", 7, {}, 0.0)


async def test_entrants_are_numbered_in_entry_order_and_enter_once(open_store):
    store = await open_store()
    tournament_id = await store.tournaments.create(new())
    await store.tournaments.enter(tournament_id, 11, "anna", "it", 0)
    await store.tournaments.add_computer(tournament_id, "hard", "🤖 Hard 1")
    await store.tournaments.add_computer(tournament_id, "easy", "🤖 Easy 2")
    await store.tournaments.enter(tournament_id, 12, "bruno", "en", 1)
    with pytest.raises(AlreadyEntered):
        await store.tournaments.enter(tournament_id, 11, "anna", "it", 0)
    entrants = await store.tournaments.entrants(tournament_id)
    assert [(e.entrant, e.user_id, e.robot, e.joined_round) for e in entrants] == [
        (1, 11, None, 0),
        (2, -1, "hard", 0),
        (3, -2, "easy", 0),
        (4, 12, None, 1),
    ]
    await store.tournaments.withdraw(tournament_id, 2)
    await store.tournaments.drop(tournament_id, 4, 2)
    assert [(e.entrant, e.dropped_round) for e in await store.tournaments.entrants(tournament_id)] == [
        (1, None),
        (3, None),
        (4, 2),
    ]


async def test_a_round_is_paired_once_and_a_tables_game_made_once(open_store):
    store = await open_store()
    tournament_id = await store.tournaments.create(new())
    assert await store.tournaments.pair_round(tournament_id, 1, [[1, 2], [3]], rounds=2)
    # A second pairing of round 1 (a restart, a double click) changes nothing.
    assert not await store.tournaments.pair_round(tournament_id, 1, [[2, 1], [3]], rounds=2)
    tournament = await store.tournaments.tournament(tournament_id)
    assert tournament is not None and (tournament.status, tournament.round) == ("running", 1)
    table, bye = await store.tournaments.tables(tournament_id)
    assert table.entrants == (1, 2) and not table.over
    assert bye.is_bye and bye.over and bye.places == (1,)

    # The table's game, made with its seats and tied to the table in one transaction, announcing
    # nothing until it is dealt.
    row = lobby_row(channel=99, host=1, options={"target": 10}, seed=3, server_settings={"reminder": 50})
    at_table = [seat(0, 11, "anna"), seat(1, -1, "🤖 Hard 1", robot="hard")]
    tie = store.tournaments.tie(tournament_id, 1, 1)
    first = await store.games.create_lobby(row, at_table, None, 0.0, tie)
    # A second game for the table (a start resumed twice, a second process) is never saved.
    with pytest.raises(WrongRowCount):
        await store.games.create_lobby(replace(row, channel_id=98), at_table, None, 0.0, tie)
    assert [x.game_id for x in await store.tournaments.tables(tournament_id)] == [first, None]
    assert await store.games.open_game_in(98) is None
    snapshot = await store.games.snapshot(first)
    assert snapshot is not None and snapshot.pending == []
    game = await store.games.game(first)
    assert game is not None and (game.status, game.channel_id, game.host_id) == ("lobby", 99, 1)
    seats = await store.games.seats(first)
    assert [(s.user_id, s.robot) for s in seats] == [(11, None), (-1, "hard")]
    assert await store.tournaments.of_game(first) == (tournament_id, 1, 1)
    assert await store.tournaments.of_game(first + 1) is None

    await store.tournaments.table_over(tournament_id, 1, 1, [1, 2], [10, 3], [False, True], closed=False)
    await store.tournaments.table_over(tournament_id, 1, 1, [2, 1], [0, 0], [False, False], closed=True)
    table, _ = await store.tournaments.tables(tournament_id)
    assert (table.places, table.totals, table.stood_in, table.closed) == (
        (1, 2),
        (10, 3),
        (False, True),
        False,
    )

    assert await store.tournaments.pair_round(tournament_id, 2, [[2, 3], [1]])
    assert await store.tournaments.finish(tournament_id)
    assert not await store.tournaments.finish(tournament_id)
    assert not await store.tournaments.cancel(tournament_id)


async def test_a_process_resumes_only_the_tournaments_of_its_shards(open_store):
    store = await open_store()
    for shard, guild in GUILD_ON_SHARD.items():
        await store.tournaments.create(new(guild=guild, channel=20 + shard))
    finished = await store.tournaments.create(new(guild=GUILD_ON_SHARD[0], channel=30))
    await store.tournaments.cancel(finished)
    for shard, guild in GUILD_ON_SHARD.items():
        mine = await open_store(Shards(2, (shard,)))
        assert [t.guild_id for t in await mine.tournaments.under_way()] == [guild]
    latest = await store.tournaments.in_channel(30)
    assert latest is not None and latest.status == "cancelled"
    assert await store.tournaments.tournament(2**70) is None
