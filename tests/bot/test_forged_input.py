"""Forged interactions: every one is answered by the bot, privately and translated, with nothing
logged at ERROR."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot import commands
from bot.i18n import t
from bot.playground.world import ClientLocale
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import components
from tests.bot.forging import forge_click, forge_slash
from tests.bot.test_bue_play import ephemeral_text

USER, STRING, INTEGER = 6, 3, 4


def errors(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("stats", {"player": (USER, "12345")}),  # a user Discord did not resolve
        ("stats", {"player": (STRING, "bob")}),
        ("stats", {"player": (USER, str(2**63))}),
        ("stats", {"player": (USER, "abc")}),
        ("stats", {"player": (USER, None)}),
        ("stats", {"player": (USER, [1])}),
        ("stats", {"player": (USER, {"id": 1})}),
        ("leaderboard", {"order": (STRING, "loudest")}),
        ("leaderboard", {"game": (INTEGER, 5)}),
        ("history", {"game": (STRING, "chess")}),
        ("rummikub play", {}),  # a required option left out
        ("rummikub play", {"hints": (STRING, "x")}),
        ("bue", {}),  # a group, which cannot be run
    ],
)
async def test_forged_slash_options_get_a_private_refusal(simcord_env, database, caplog, command, options):
    driver = BueDriver(simcord_env, database, players=2)
    with caplog.at_level(logging.ERROR):
        answer = await forge_slash(driver.members[0], driver.channel, command, options)
        await simcord_env.advance_time(3)
    assert answer.response is not None
    assert answer.response.ephemeral
    assert "went wrong" not in ephemeral_text(answer)
    assert not errors(caplog)


@pytest.mark.parametrize("locale", ["it", "fr"])
async def test_a_forged_option_is_refused_in_the_players_language(simcord_env, database, caplog, locale):
    driver = BueDriver(simcord_env, database, players=2)
    ClientLocale(simcord_env, locale)  # every player's Discord in this language
    answer = await forge_slash(
        driver.members[0], driver.channel, "leaderboard", {"order": (STRING, "loudest")}
    )
    assert answer.response.ephemeral
    assert ephemeral_text(answer) == "⚠️ " + t(locale, "error.forged_options")


async def test_a_button_naming_the_computers_menu_is_answered(simcord_env, database, caplog):
    driver = BueDriver(simcord_env, database, players=2)
    host = driver.members[0]
    await host.slash(driver.channel, "bue start")
    lobby = driver.channel.last_message
    game_id = next(c.custom_id for c in components(lobby)).split(":")[1]
    with caplog.at_level(logging.ERROR):
        forged = [f"lobbysel:{game_id}:add", f"lobbysel:{game_id}:remove", "nosuch:thing"]
        for custom_id in forged:
            answer = await forge_click(simcord_env, host, driver.channel, lobby, custom_id)
            await simcord_env.advance_time(3)
            assert answer.response is not None, custom_id
            assert answer.response.ephemeral, custom_id
        # The menu's id clicked as a button on a message that carries it as a menu: discord.py
        # finds no such button and drops the click before any handler of ours.
        menu = {"type": 3, "custom_id": f"lobbysel:{game_id}:add", "options": [{"label": "x", "value": "x"}]}
        answer = await forge_click(
            simcord_env, host, driver.channel, lobby, f"lobbysel:{game_id}:add", carried=menu
        )
        await simcord_env.advance_time(3)
        assert "old message" in ephemeral_text(answer)
    assert not errors(caplog)
    assert driver.query("SELECT COUNT(*) FROM seats")[0][0] == 1


async def test_an_interaction_a_handler_took_is_answered_once_however_slow(
    simcord_env, database, monkeypatch
):
    driver = BueDriver(simcord_env, database, players=2)
    member = driver.members[0]
    quick = await member.slash(driver.channel, "bue rules")
    original = commands.win_lines

    async def slow_lines(*args, **kwargs):
        await asyncio.sleep(2.5)  # past the fallback's wait, within Discord's three seconds
        return await original(*args, **kwargs)

    monkeypatch.setattr(commands, "win_lines", slow_lines)
    slow = await member.slash(driver.channel, "leaderboard")
    await simcord_env.advance_time(3)
    for answered in (quick, slow):
        assert answered.response is not None and not answered.followups
    assert "No finished match" in slow.response.content
