"""``python -m bot.migrate``: an SQLite database with games of every kind, finished and running,
copied into PostgreSQL; the bot then goes on with the running games there."""

from __future__ import annotations

import random
from contextlib import asynccontextmanager

import pytest

from bot.migrate import main, migrate
from bot.model import FINISHED, Commit, Publication
from bot.store import Store
from bot.store.copy import CopyRefused
from bot.store.postgres import PostgresBackend
from bot.store.tournaments import NewTournament
from games.bue import Bue
from games.core import Game
from games.rumbugz import RumBugz
from games.rummikub import Rummikub
from games.seriebum import SerieBum
from tests.bot.bue_driver import BueDriver
from tests.bot.seriebum_driver import SerieBumDriver
from tests.bot.test_rumbugz_play import RumBugzDriver
from tests.bot.test_rummikub_play import RummikubDriver
from tests.store_games import lobby_row, open_lobby, start

ENGINES: tuple[type[Game], ...] = (Bue, SerieBum, Rummikub, RumBugz)


async def finished_game(store: Store, engine: type[Game], channel: int) -> int:
    """A match of ``engine`` already over, with its results and a publication still owed."""
    options = engine.resolve_options({})
    row = lobby_row(engine.name, channel=channel, guild=77, options=options, seed=channel)
    game_id = await open_lobby(store, row, [(1, "anna", "en"), (2, "bruno", "en")])
    game, _ = engine.begin(2, options, seed=channel)
    dealt = await start(store, game_id, game.to_json(), [(0, "expire", "any", 3600.0)])
    change = Commit(
        status=FINISHED,
        state=game.to_json(),
        totals=[50, 20],
        timers=[],
        publication=Publication(actor=0),
        logged=(0, {"type": "leave"}),
        winner=0,
    )
    await store.games.commit(dealt, change, now=10.0)
    return game_id


async def test_every_row_moves_to_postgresql_and_the_running_games_go_on(
    simcord_env, database, make_bot, postgres_database
):
    bue, _, rummikub, _ = drivers = [
        BueDriver(simcord_env, database, players=2),
        SerieBumDriver(simcord_env, database),
        RummikubDriver(simcord_env, database),
        RumBugzDriver(simcord_env, database, players=2),
    ]
    for driver in drivers:
        await driver.open()
    await rummikub.members[rummikub.state().turn].click(rummikub.table_message(), label="Draw")
    source = await Store.open(database)
    # The finished matches count in a season of their server, rated there too.
    await source.seasons.start(77, "Spring", now=0.0)
    finished = [await finished_game(source, engine, channel=900 + n) for n, engine in enumerate(ENGINES)]
    # A tournament under way (its first round a bye, here), with its entrant.
    tournament = await source.tournaments.create(
        NewTournament(77, 950, 1, "bue", "swiss", 2, 3, {"target": 10}, 3600, "en", 5, {}, 0.0)
    )
    await source.tournaments.enter(tournament, 1, "anna", "en", 0)
    await source.tournaments.pair_round(tournament, 1, [[1]])
    await source.community.set_server(bue.guild.id, "turn_timeout", 5400)
    await source.community.set_player(bue.members[0].id, "ping", False)
    await source.community.set_player(bue.members[0].id, "time_zone", "Europe/Rome")
    await source.community.set_away(bue.members[0].id, 100.0, 3700.0)
    await source.close()

    counts = await migrate(database, postgres_database)
    assert counts == {
        "games": 8,
        "seats": 16,
        "actions": 5,
        "timers": 8,
        "outbox": 12,  # each finished game's lobby, deal and end, still owed
        "results": 8,
        "ratings": 8,
        "seasons": 1,
        "season_ratings": 8,
        "tournaments": 1,
        "tournament_entrants": 1,
        "tournament_tables": 1,
        "round_totals": 0,
        "feats": 0,
        "dm_channels": 8,
        "closed_dms": 0,
        "guild_settings": 1,
        "player_preferences": 1,
        "heartbeats": 1,
        "command_syncs": 1,
        "away_spans": 1,
    }
    with pytest.raises(CopyRefused, match="not empty"):
        await migrate(database, postgres_database)

    await simcord_env.restart_bot(make_bot(postgres_database))
    for driver in drivers:
        driver.database = postgres_database
        assert driver.status() == "running"
    versions = [
        driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0][0] for driver in drivers
    ]
    await rummikub.members[rummikub.state().turn].click(rummikub.table_message(), label="Draw")
    await bue.play_one(random.Random(1))
    assert [
        driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0][0] for driver in drivers
    ] == [
        versions[0] + 1,
        versions[1],
        versions[2] + 1,
        versions[3],
    ]
    assert rummikub.query("SELECT status FROM games WHERE id = ?", finished[2]) == [("finished",)]
    # The server's settings and the players' preferences came along.
    assert bue.query("SELECT turn_timeout FROM guild_settings WHERE guild_id = ?", bue.guild.id) == [(5400,)]
    assert bue.query("SELECT ping, time_zone FROM player_preferences") == [(0, "Europe/Rome")]
    assert bue.query("SELECT user_id, starts_at, ends_at FROM away_spans") == [
        (bue.members[0].id, 100.0, 3700.0)
    ]
    # So did the season, its results and its ratings; and the tournament, which the bot took up:
    # its round over and one entrant left, too few for a table, it ended.
    assert bue.query("SELECT COUNT(*) FROM results WHERE season_id IS NOT NULL") == [(8,)]
    assert bue.query("SELECT status, round FROM tournaments") == [("finished", 1)]
    # A new game is numbered after the copied ones.
    target = await Store.open(postgres_database)
    try:
        assert await finished_game(target, Bue, channel=999) == max(finished) + 1
    finally:
        await target.close()


def test_the_command_refuses_without_a_postgresql_database(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    with pytest.raises(SystemExit):
        main(["--sqlite", str(tmp_path / "games.sqlite3")])
    assert "DATABASE_URL" in capsys.readouterr().err


class Killed(BaseException):
    """The migration tool dies (SIGKILL, a closed terminal): nothing after this point runs."""


async def test_a_migration_killed_right_after_its_commit_leaves_new_games_possible(
    tmp_path, postgres_database, monkeypatch
):
    source = await Store.open(str(tmp_path / "games.sqlite3"))
    copied = [await finished_game(source, engine, channel=900 + n) for n, engine in enumerate(ENGINES)]
    await source.close()
    committed = PostgresBackend.transaction

    @asynccontextmanager
    async def killed_after_the_copy_commits(self):
        async with committed(self) as db:
            yield db
        if copying:
            raise Killed

    copying = True
    monkeypatch.setattr(PostgresBackend, "transaction", killed_after_the_copy_commits)
    with pytest.raises(Killed):
        await migrate(str(tmp_path / "games.sqlite3"), postgres_database)
    copying = False

    # The numbering was set with the rows (the store, opening, would repair it: not looked at here).
    backend = await PostgresBackend.open(postgres_database)
    try:
        numbered = await backend.fetch("SELECT pg_sequence_last_value(pg_get_serial_sequence('games', 'id'))")
        assert numbered[0][0] == max(copied)
    finally:
        await backend.close()
    target = await Store.open(postgres_database)
    try:
        assert await finished_game(target, Bue, channel=999) == max(copied) + 1
    finally:
        await target.close()


async def test_opening_a_postgresql_database_whose_ids_ran_behind_repairs_them(tmp_path, postgres_database):
    store = await Store.open(postgres_database)
    try:
        games = [await finished_game(store, engine, channel=900 + n) for n, engine in enumerate(ENGINES)]
        # What a copy killed before its sequences were set left: the rows, the numbering at 1.
        await store.backend.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), 1, false)")
    finally:
        await store.close()

    store = await Store.open(postgres_database)
    try:
        assert await finished_game(store, Bue, channel=999) == max(games) + 1
        # A database in order is left as it is: no id is skipped.
        reopened = await Store.open(postgres_database)
        await reopened.close()
        assert await finished_game(store, Bue, channel=998) == max(games) + 2
    finally:
        await store.close()
