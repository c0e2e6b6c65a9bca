"""``python -m bot.migrate``: an SQLite database with games of every kind, finished and running,
copied into PostgreSQL; the bot then goes on with the running games there."""

from __future__ import annotations

import random

import pytest

from bot.migrate import main, migrate
from bot.store import Commit, Store
from bot.store.copy import CopyRefused
from games.bue import Bue
from games.core import Game
from games.rumbugz import RumBugz
from games.rummikub import Rummikub
from games.seriebum import SerieBum
from tests.bot.bue_driver import BueDriver
from tests.bot.seriebum_driver import SerieBumDriver
from tests.bot.test_rumbugz_play import RumBugzDriver
from tests.bot.test_rummikub_play import RummikubDriver

ENGINES: tuple[type[Game], ...] = (Bue, SerieBum, Rummikub, RumBugz)


async def finished_game(store: Store, engine: type[Game], channel: int) -> int:
    """A match of ``engine`` already over, with its results and a publication still owed."""
    game_id = await store.create_lobby(
        kind=engine.name,
        guild_id=77,
        channel_id=channel,
        host_id=1,
        host_name="anna",
        host_locale="en",
        locale="en",
        options=engine.resolve_options({}),
        turn_timeout=3600,
        seed=channel,
        now=0.0,
    )
    await store.join(game_id, 2, "bruno", "en")
    game, _ = engine.begin(2, engine.resolve_options({}), seed=channel)
    await store.start(game_id, game.to_json(), [(0, "expire", "any", 3600.0)])
    change = Commit(
        seat=0,
        action={"type": "leave"},
        state=game.to_json(),
        totals=[50, 20],
        timers=[],
        finished=True,
        winner=0,
        publication={"events": [], "before": {}, "prefix": "", "show_hands": False, "actor": 0},
    )
    await store.commit(await store.game(game_id), change, now=10.0)
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
    finished = [await finished_game(source, engine, channel=900 + n) for n, engine in enumerate(ENGINES)]
    await source.close()

    counts = await migrate(database, postgres_database)
    assert counts == {
        "games": 8,
        "seats": 16,
        "actions": 5,
        "timers": 8,
        "outbox": 4,
        "results": 8,
        "ratings": 8,
        "round_totals": 0,
        "feats": 0,
        "dm_channels": 8,
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
