"""The score chart never holds a move's visible result up: it follows the results by an edit,
an outbox part of its own."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import discord

from bot import charts, publisher
from bot.publisher import Publisher
from bot.store.outbox import Outbox
from tests.bot.bue_driver import BueDriver

CHART = "attachment://scores.png"


def shows_chart(request: Any) -> bool:
    return CHART in str((request.json or {}).get("embeds"))


def results_message(driver: BueDriver) -> Any:
    (message_id,) = driver.query("SELECT results_message_id FROM games WHERE id = ?", driver.game_id)[0]
    return next(m for m in driver.channel.history() if m.id == message_id)


def shown_on(path: str, table: str, channel: str) -> str:
    """Where a call shows something: the table (edited by the channel's route or through a click's
    token, bot/click_tokens.py), the channel, or a DM."""
    if path == table or path.startswith("/webhooks/"):
        return "table"
    return "channel" if path.startswith(channel) else "dm"


async def test_the_chart_follows_the_table_edit_the_call_and_the_hands_of_a_game_ending_move(
    simcord_env, database, monkeypatch
):
    # When each chart is drawn: after how many of the bot's requests.
    drawn_after: list[int] = []
    draw = charts.draw_scores

    def spy(chart: charts.ScoreChart) -> bytes:
        drawn_after.append(len(simcord_env.http_requests))
        return draw(chart)

    monkeypatch.setattr(charts, "draw_scores", spy)
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open(target=60)
    rng = random.Random(21)
    game_ends = []
    while driver.status() == "running":
        start = len(simcord_env.http_requests)
        await driver.play_one(rng)
        requests = simcord_env.http_requests[start:]
        if any(shows_chart(request) for request in requests):
            game_ends.append((requests, drawn_after[-1] - start))
    assert len(game_ends) >= 2  # a game of the match, then the match

    channel = f"/channels/{driver.channel.id}/messages"
    table = f"{channel}/{driver.table_id()}"
    for number, (requests, drawn) in enumerate(game_ends, 1):
        # Not the clicks' answers, nor the private panels that come as their follow-ups.
        sent = [
            request
            for request in requests
            if (request.method, request.path[:10]) not in (("POST", "/webhooks/"), ("POST", "/interacti"))
            and request.method in ("POST", "PATCH")
        ]
        steps = [(r.method, shown_on(r.path, table, channel)) for r in sent]
        # The table, then the results calling whoever moves next, then the hands; the chart last.
        assert steps[:2] == [("PATCH", "table"), ("POST", "channel")], steps
        assert set(steps[2:-1]) <= {("POST", "dm")}, steps
        assert steps[-1] == ("PATCH", "channel"), steps
        results, chart = sent[1], sent[-1]
        # Drawn once everything else was out: nothing waited for it.
        assert drawn == requests.index(chart)
        assert not shows_chart(results) and shows_chart(chart)
        if number < len(game_ends):
            assert "your move" in results.json["content"]

    # What players see in the end: the results message with its chart, as before.
    final = results_message(driver)
    assert [a.filename for a in final.attachments] == ["scores.png", "match.gif"]
    assert final.embeds[-1].image.url == CHART


async def test_a_chart_left_undelivered_by_a_crash_is_added_once_after_the_restart(
    simcord_env, database, make_bot, monkeypatch
):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open(target=10)
    crashed: list[bool] = []
    delivered = Outbox.delivered

    async def killed_before_the_chart(self, *args: Any) -> None:
        crashed.append(True)

    async def not_after_a_crash(self, pending) -> None:
        if not crashed:
            await delivered(self, pending)

    rng = random.Random(21)
    with monkeypatch.context() as patch:
        patch.setattr(Publisher, "_add_chart", killed_before_the_chart)
        patch.setattr(Outbox, "delivered", not_after_a_crash)
        while driver.status() == "running":
            await driver.play_one(rng)
    assert crashed
    dms = [len(driver.dm_messages(seat)) for seat in range(2)]
    assert not results_message(driver).attachments
    posted = len(driver.channel.history())

    for _ in range(2):  # however often the bot restarts
        await simcord_env.restart_bot(make_bot())
        final = results_message(driver)
        assert [a.filename for a in final.attachments] == ["scores.png", "match.gif"]
        assert final.embeds[-1].image.url == CHART
        assert len(driver.channel.history()) == posted  # the results are not posted again
        assert [len(driver.dm_messages(seat)) for seat in range(2)] == dms
        assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0


# Played in a process of its own: a test before it in this process may well have drawn a chart.
UNFINISHED_GAME = """
import asyncio, random, sys
import simcord
from bot.client import bot_for
from bot.config import Settings
from tests.bot.bue_driver import BueDriver

async def main(database):
    settings = Settings(token=None, database=database, dev_guild_id=None, log_level="WARNING")
    bot = bot_for(settings, seed_source=lambda: 7)
    try:
        async with simcord.run(bot) as env:
            driver = BueDriver(env, database, players=2)
            await driver.open(target=1000)
            rng = random.Random(3)
            for _ in range(8):
                await driver.play_one(rng)
            assert driver.query("SELECT COUNT(*) FROM round_totals") == [(0,)]
    finally:
        bot.timers.stop()
        await bot.store.close()
    print("matplotlib" in sys.modules)

asyncio.run(main(sys.argv[1]))
"""


def test_a_bot_that_has_not_finished_a_game_never_imports_matplotlib(tmp_path):
    run = subprocess.run(
        [sys.executable, "-c", UNFINISHED_GAME, str(tmp_path / "games.sqlite3")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"


class ServerError:
    """What discord.py reads of a 5xx answer."""

    status = 503
    reason = "Service Unavailable"


async def test_a_chart_discord_failed_to_take_is_added_once_it_is_back(simcord_env, database, monkeypatch):
    monkeypatch.setattr(publisher, "RETRY_DELAYS", (60.0,))
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open(target=10)
    edit = discord.PartialMessage.edit
    failed: list[bool] = []

    async def fails_once_with_a_chart(self: Any, **kwargs: Any) -> Any:
        names = [getattr(file, "filename", None) for file in kwargs.get("attachments") or ()]
        if "scores.png" in names and not failed:
            failed.append(True)
            raise discord.DiscordServerError(ServerError(), "down")  # type: ignore[arg-type]
        return await edit(self, **kwargs)

    monkeypatch.setattr(discord.PartialMessage, "edit", fails_once_with_a_chart)
    rng = random.Random(21)
    while driver.status() == "running":
        await driver.play_one(rng)
    assert failed and not results_message(driver).attachments
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 1
    posted = len(driver.channel.history())

    await simcord_env.advance_time(60.1)
    assert [a.filename for a in results_message(driver).attachments] == ["scores.png", "match.gif"]
    assert len(driver.channel.history()) == posted  # the results are not posted again
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
