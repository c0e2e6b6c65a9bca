"""The shared lobby: joining, leaving, beginning and cancelling, and who may do what."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.i18n import t
from bot.replies import report_error
from games.core import GameError
from tests.bot.bue_driver import BueDriver


def text_of(result) -> str:
    return "\n".join(m.content for m in [result.response, *result.followups] if m is not None)


async def test_lobby_moves_and_their_refusals(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    anna, bruno, carla = driver.members
    await anna.slash(driver.channel, "bue start", target=50, turn_timeout="12h")
    lobby = driver.channel.last_message
    settings = lobby.embeds[0].fields[1].value
    assert "Target: 50 points" in settings and "12 h" in settings

    await bruno.click(lobby, label="Join")
    again = await bruno.click(lobby, label="Join")
    assert again.ephemeral and "already joined" in text_of(again)
    not_host = await bruno.click(lobby, label="Begin")
    assert "Only the host" in text_of(not_host)
    host_leaves = await anna.click(lobby, label="Leave")
    assert "press Cancel" in text_of(host_leaves)

    await bruno.click(lobby, label="Leave")
    alone = await anna.click(lobby, label="Begin")
    assert "At least 2 players" in text_of(alone)
    await carla.click(lobby, label="Join")
    players = driver.channel.last_message.embeds[0].fields[0].value
    # Names: a mention in an embed shows as a raw "<@id>" where the member is not known.
    assert carla.name in players and "<@" not in players

    cancel = await carla.click(lobby, label="Cancel")
    assert "Only the host" in text_of(cancel)
    await anna.click(lobby, label="Cancel")
    closed = driver.query("SELECT status FROM games")[0][0]
    assert closed == "aborted"
    closed_lobby = next(m for m in driver.channel.history() if m.id == lobby.id)
    assert "closed by" in closed_lobby.content and closed_lobby.components == []


async def test_bad_options_are_refused_before_anything_opens(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=1)
    bad = await driver.members[0].slash(driver.channel, "bue start", turn_timeout="tomorrow")
    assert bad.ephemeral and "can't read the turn timeout" in text_of(bad)
    too_long = await driver.members[0].slash(driver.channel, "bue start", turn_timeout="8d")
    assert "between 1 minute and 7 days" in text_of(too_long)
    assert driver.query("SELECT COUNT(*) FROM games")[0][0] == 0


async def test_errors_are_answered_in_the_users_language():
    sent: list[str] = []

    async def send_message(content=None, **kwargs):
        sent.append(content)

    response = SimpleNamespace(is_done=lambda: False, send_message=send_message)
    for locale in (discord.Locale.italian, discord.Locale.french, discord.Locale.american_english):
        interaction = SimpleNamespace(locale=locale, response=response, data={}, extras={})
        await report_error(interaction, GameError("error.not_your_turn"))
    assert sent == ["⚠️ " + t(lang, "error.not_your_turn") for lang in ("it", "fr", "en")]
    assert len(set(sent)) == 3


async def test_leave_typed_in_a_lobby_is_answered_and_the_lobby_follows(simcord_env, database):
    """``/bue leave`` by a seated player who is not the host (issue 37: it removed the seat and
    never answered): privately answered, the lobby redrawn without them, in a lobby a Rematch
    opened as in a new one."""
    driver = BueDriver(simcord_env, database, players=3)
    anna, bruno, carla = driver.members
    await anna.slash(driver.channel, "bue start")
    lobby = driver.channel.last_message
    for member in (bruno, carla):
        await member.click(lobby, label="Join")
    left = await bruno.slash(driver.channel, "bue leave")
    assert left.acknowledged and left.ephemeral and "left" in text_of(left)
    players = next(m for m in driver.channel.history() if m.id == lobby.id).embeds[0].fields[0].value
    assert bruno.name not in players and carla.name in players
    assert driver.query("SELECT COUNT(*) FROM seats")[0][0] == 2
