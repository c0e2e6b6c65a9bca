"""Running it for real: a backup taken under a running game plays on, and the health check."""

from __future__ import annotations

import os
import random
import sqlite3
from dataclasses import replace
from datetime import timedelta

import aiohttp
import discord
import pytest
from aiohttp import web
from prometheus_client import REGISTRY

from bot import backup, health, metrics
from bot.client import bot_for
from bot.config import Settings
from bot.store.backup import BackupFailed, backup_sqlite
from tests.bot.bue_driver import BueDriver


async def test_a_backup_under_a_running_game_plays_on_from_the_copy(
    simcord_env, database, make_bot, tmp_path
):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    await driver.play_one(random.Random(1))
    version = driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0][0]
    target = str(tmp_path / "backups" / "copy.sqlite3")

    counts = await backup_sqlite(database, target)  # the bot still has the database open
    assert counts["games"] == 1 and counts["actions"] == 1
    with sqlite3.connect(target) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with pytest.raises(BackupFailed, match="already exists"):
        await backup_sqlite(database, target)

    # The bot, started again on the copy, plays on.
    await simcord_env.restart_bot(make_bot(target))
    driver.database = target
    await driver.play_one(random.Random(2))
    assert driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0][0] == version + 1


def test_the_backup_command_says_where_the_copy_is(tmp_path, monkeypatch, capsys):
    database = tmp_path / "games.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE t (x INTEGER)")
        db.executemany("INSERT INTO t VALUES (?)", [(n,) for n in range(5)])
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert backup.main([str(tmp_path / "copy.sqlite3")]) == 0
    assert f"to {tmp_path / 'copy.sqlite3'}: 5 rows in 1 tables, checked" in capsys.readouterr().out
    assert backup.main([]) == 0
    (dated,) = (tmp_path / "backups").iterdir()
    assert dated.name.startswith("games-") and str(dated) in capsys.readouterr().out
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@localhost/tabletop")
    assert backup.main([]) == 2
    assert "pg_dump" in capsys.readouterr().err


async def test_the_health_check_healthy_then_not(simcord_env, database, make_bot):
    settings = Settings(token=None, database=database, dev_guild_id=None, log_level="INFO")
    # The bot started with the test (SimCord): its first heartbeat is in the database.
    (at, gateway) = BueDriver(simcord_env, database).query(
        "SELECT at, gateway FROM heartbeats WHERE process = ?", settings.process_name
    )[0]
    assert gateway == 1
    assert await health.check(settings, now=at + 30) == (
        True,
        "healthy: heartbeat 30 s ago, gateway connected, database answering",
    )
    stale = await health.check(settings, now=at + 61)
    assert stale == (False, "unhealthy: the bot's last heartbeat is 61 s old")
    with sqlite3.connect(database) as db:  # the bot lost Discord's gateway
        db.execute("UPDATE heartbeats SET gateway = 0")
    down = await health.check(settings, now=at + 1)
    assert down == (False, "unhealthy: the bot is not connected to Discord's gateway")
    # Another process's configuration: its own heartbeat, never written.
    sharded = replace(settings, shard_count=2, shard_ids=(1,))
    assert (await health.check(sharded, now=at))[0] is False

    os.remove(database)  # the database is gone
    healthy, why = await health.check(settings, now=at)
    assert not healthy and why == f"unhealthy: no database at {database}"
    assert not os.path.exists(database)  # the check made no empty one


def test_the_health_command_exits_1_when_unhealthy(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "none.sqlite3"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert health.main([]) == 1
    assert "unhealthy: no database" in capsys.readouterr().out


def metric(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_metrics_count_moves_and_games(simcord_env, database, make_bot):
    metrics.enable()  # as METRICS_PORT does (without serving them): counted from now on
    moves = metric("tabletop_moves_total")
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    await driver.play_one(random.Random(1))
    assert metric("tabletop_moves_total") == moves + 1
    # The heartbeat reads the games running (one, of this process's shards) and what is left to announce.
    await simcord_env.restart_bot(make_bot())
    assert metric("tabletop_games_running") == 1 and metric("tabletop_announcements_pending") == 0


async def test_metrics_count_every_refusal_and_rate_limit_discord_answers(unused_tcp_port):
    """Through discord.py's own hook on its requests (aiohttp's trace), here against a loopback
    server answering as Discord does: SimCord stands in for discord.py's requests, so it cannot
    show this."""
    metrics.enable()
    assert metrics.discord_trace().on_request_end  # what the bot hands discord.py (GameBot)

    async def answer(request: web.Request) -> web.Response:
        return web.Response(status=int(request.match_info["status"]))

    app = web.Application()

    async def accept(request: web.Request) -> web.Response:
        return web.Response(status=204)

    app.router.add_get("/{status}", answer)
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", accept)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", unused_tcp_port).start()
    before = {status: metric("tabletop_discord_errors_total", status=status) for status in ("403", "503")}
    limited = metric("tabletop_discord_rate_limits_total")
    unreachable = metric("tabletop_discord_errors_total", status="ClientConnectorError")
    answers = metric("tabletop_answer_latency_seconds_count")
    waited = metric("tabletop_answer_latency_seconds_sum")
    # An interaction Discord made two seconds ago (its id's time), answered now.
    made = discord.utils.time_snowflake(discord.utils.utcnow() - timedelta(seconds=2))
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.discord_trace()]) as session:
            callback = f"http://127.0.0.1:{unused_tcp_port}/api/v10/interactions/{made}/token/callback"
            async with session.post(callback):
                pass
            for status in (200, 403, 429, 429, 503, 204):
                async with session.get(f"http://127.0.0.1:{unused_tcp_port}/{status}"):
                    pass
            await runner.cleanup()
            with pytest.raises(aiohttp.ClientConnectorError):
                await session.get(f"http://127.0.0.1:{unused_tcp_port}/200")
    finally:
        await runner.cleanup()
    assert metric("tabletop_discord_errors_total", status="403") == before["403"] + 1
    assert metric("tabletop_discord_errors_total", status="503") == before["503"] + 1
    assert metric("tabletop_discord_rate_limits_total") == limited + 2
    assert metric("tabletop_discord_errors_total", status="ClientConnectorError") == unreachable + 1
    # The answer's latency runs from the interaction's creation to Discord's acceptance of the answer.
    assert metric("tabletop_answer_latency_seconds_count") == answers + 1
    assert metric("tabletop_answer_latency_seconds_sum") >= waited + 2


def test_the_bot_hands_its_requests_hook_to_discord_py():
    bot = bot_for(Settings.from_env())
    trace = bot.http.http_trace
    assert trace is not None and list(trace.on_request_end) == list(metrics.discord_trace().on_request_end)


async def test_a_running_bot_beats_every_20_seconds(simcord_env, database, make_bot, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert Settings.from_env().heartbeat_seconds == 20.0  # the bot's own configuration
    await simcord_env.restart_bot(make_bot(heartbeat_seconds=20.0))
    driver = BueDriver(simcord_env, database)
    (first,) = driver.query("SELECT at FROM heartbeats")[0]
    await simcord_env.advance_time(21)
    (second,) = driver.query("SELECT at FROM heartbeats")[0]
    assert second == pytest.approx(first + 20, abs=1)
