"""/settings: a server's own defaults and limits, read when a game starts and kept with it."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import discord
import pytest

from bot.i18n import duration_text, t
from bot.playground.world import ClientLocale
from bot.store import GameRow, SeatRow
from tests.bot.bue_driver import BueDriver
from tests.bot.forging import forge_slash
from tests.conftest import BACKENDS


def text_of(result) -> str:
    return "\n".join(m.content or "" for m in [result.response, *result.followups] if m is not None)


def admin_of(env, driver):
    """A member with Manage Server."""
    role = driver.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return driver.guild.add_member(env.create_user("zoe"), roles=[role])


def game_row(driver, game_id: int) -> dict:
    turn_timeout, options, kept, locale = driver.query(
        "SELECT turn_timeout, options, server_settings, locale FROM games WHERE id = ?", game_id
    )[0]
    return {
        "turn_timeout": turn_timeout,
        "options": json.loads(options),
        "kept": json.loads(kept),
        "locale": locale,
    }


async def open_game(driver, lang: str = "en") -> None:
    """``driver.open`` on a table in ``lang``, the server's language."""
    host, *others = driver.members
    await host.slash(driver.channel, "bue start")
    lobby = driver.channel.last_message
    for member in others:
        await member.click(lobby, label=t(lang, "lobby.join"))
    await host.click(lobby, label=t(lang, "lobby.begin"))
    driver.game_id = driver.query("SELECT MAX(id) FROM games")[0][0]


def reminders(driver, game_id: int) -> int:
    return driver.query("SELECT COUNT(*) FROM timers WHERE game_id = ? AND kind = 'remind'", game_id)[0][0]


@pytest.mark.parametrize("locale", ["en-US", "it", "fr"])
async def test_settings_show_every_setting_with_its_default_in_the_admins_language(
    simcord_env, database, locale
):
    driver = BueDriver(simcord_env, database, players=1)
    admin = admin_of(simcord_env, driver)
    ClientLocale(simcord_env, locale)
    lang = locale[:2]
    changed = await admin.slash(driver.channel, "settings turn_timeout", value="2h")
    assert changed.response.ephemeral
    assert t(lang, "settings.changed", setting=t(lang, "settings.name.turn_timeout")) in text_of(changed)
    (embed,) = changed.response.embeds
    assert embed.title == t(lang, "settings.title")
    fields = {field.name: field.value for field in embed.fields}
    assert len(fields) == 10
    assert fields[t(lang, "settings.name.away_days")].startswith(t(lang, "time.away_days", count=7))
    timeout = fields[t(lang, "settings.name.turn_timeout")]
    assert timeout.startswith(duration_text(lang, 7200))
    assert t(lang, "settings.default", value=duration_text(lang, 86400)) in timeout
    assert not any("{" in value for value in fields.values())


async def test_each_setting_changes_new_games_and_never_a_running_one(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    admin = admin_of(simcord_env, driver)
    for command, options in [
        ("settings turn_timeout", {"value": "2h"}),
        ("settings reminder", {"percent": 0}),
        ("settings stand_in", {"value": False}),
        ("settings language", {"value": "it"}),
        ("settings computer_pause", {"seconds": 7.5}),
        ("settings computers_rated", {"value": False}),
    ]:
        answer = await admin.slash(driver.channel, command, **options)
        assert "✅" in text_of(answer), command
    await open_game(driver, "it")
    assert "partita 1" in driver.table_message().embeds[0].title  # the table in the server's language
    first = game_row(driver, driver.game_id)
    assert first["turn_timeout"] == 7200 and first["options"]["stand_in"] == 0 and first["locale"] == "it"
    assert first["kept"] == {
        "reminder": 0,
        "computer_pause": 7.5,
        "computers_rated": False,
        "role_id": None,
        "away_days": 7,
    }
    assert reminders(driver, driver.game_id) == 0

    # The server changes its mind: the running game goes on as it started.
    for command, options in [
        ("settings turn_timeout", {"value": "3h"}),
        ("settings reminder", {}),
        ("settings stand_in", {}),
        ("settings language", {"value": "fr"}),
        ("settings computer_pause", {}),
        ("settings computers_rated", {}),
    ]:
        await admin.slash(driver.channel, command, **options)
    before = driver.channel.last_message.id
    dealt = driver.version()
    await simcord_env.advance_time(3600 + 1)
    assert driver.channel.last_message.id == before  # no reminder at half time
    await simcord_env.advance_time(3600)
    assert driver.version() == dealt + 1  # the turn ran out after its two hours, not three
    assert "👉 Tocca a" in driver.channel.last_message.content  # still Italian
    assert game_row(driver, driver.game_id) == first
    assert reminders(driver, driver.game_id) == 0

    other = driver.guild.create_text_channel("more-games")
    driver.channel, first_id = other, driver.game_id
    await open_game(driver, "fr")
    second = game_row(driver, driver.game_id)
    assert driver.game_id != first_id
    assert second["turn_timeout"] == 3 * 3600 and second["options"]["stand_in"] == 1
    assert second["locale"] == "fr" and second["kept"]["reminder"] == 50
    assert second["kept"]["computer_pause"] == 2.0 and second["kept"]["computers_rated"] is True
    assert reminders(driver, driver.game_id) == 1


async def test_a_disallowed_channel_and_a_missing_role_refuse_and_say_which_setting(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    admin = admin_of(simcord_env, driver)
    anna, bruno = driver.members
    games = driver.channel
    chat = driver.guild.create_text_channel("chat")
    await admin.slash(games, "settings channels", action="add", channel=games)

    refused = await anna.slash(chat, "bue start")
    assert refused.response.ephemeral
    assert "**Channels**" in text_of(refused) and "/settings channels" in text_of(refused)
    assert games.mention in text_of(refused)
    simcord_env.backend.create_thread(games.id, "a quick one", anna.id)
    (thread,) = games.threads
    opened = await anna.slash(thread, "bue start")
    assert not opened.response.ephemeral  # a thread of an allowed channel is allowed
    await anna.click(thread.last_message, label="Cancel")

    players = driver.guild.create_role("players")
    await admin.slash(games, "settings role", role=players)
    refused = await anna.slash(games, "bue start")
    assert "**Role to play**" in text_of(refused) and players.mention in text_of(refused)
    assert "/settings role" in text_of(refused)
    carla = driver.guild.add_member(simcord_env.create_user("carla"), roles=[players])
    await carla.slash(games, "bue start")
    lobby = games.last_message
    cannot_join = await bruno.click(lobby, label="Join")
    assert cannot_join.ephemeral and "**Role to play**" in text_of(cannot_join)
    seated = driver.query("SELECT user_id FROM seats JOIN games ON id = game_id WHERE status = 'lobby'")
    assert seated == [(carla.id,)]

    # Deleted since: ignored, with a note.
    simcord_env.backend.delete_role(driver.guild.id, players.id)
    simcord_env.backend.delete_channel(games.id)
    shown = await admin.slash(chat, "settings show")
    description = shown.response.embeds[0].description
    assert t("en", "settings.note.role_gone") in description
    assert t("en", "settings.note.channel_gone") in description
    opened = await anna.slash(chat, "bue start")
    assert not opened.response.ephemeral


@pytest.mark.parametrize("locale", ["en-US", "it", "fr"])
async def test_a_refusal_by_a_setting_is_in_the_players_language(simcord_env, database, locale):
    driver = BueDriver(simcord_env, database, players=2)
    admin = admin_of(simcord_env, driver)
    anna, bruno = driver.members
    games = driver.channel
    chat = driver.guild.create_text_channel("chat")
    await admin.slash(games, "settings channels", action="add", channel=games)
    players = driver.guild.create_role("players")
    await admin.slash(games, "settings role", role=players)
    ClientLocale(simcord_env, locale)
    lang = locale[:2]

    refused = await anna.slash(chat, "bue start")
    assert refused.response.ephemeral
    assert text_of(refused) == "⚠️ " + t(lang, "settings.refused.channel", channels=games.mention)
    refused = await anna.slash(games, "bue start")
    assert refused.response.ephemeral
    assert text_of(refused) == "⚠️ " + t(lang, "settings.refused.role", role=players.mention)
    carla = driver.guild.add_member(simcord_env.create_user("carla"), roles=[players])
    await carla.slash(games, "bue start")
    # The lobby speaks the server's language; the refusal, the player's own.
    cannot_join = await bruno.click(games.last_message, label=t("en", "lobby.join"))
    assert cannot_join.ephemeral
    assert text_of(cannot_join) == "⚠️ " + t(lang, "settings.refused.role", role=players.mention)
    lobby_seats = "SELECT COUNT(*) FROM seats JOIN games ON id = game_id WHERE status = 'lobby'"
    assert driver.query(lobby_seats) == [(1,)]


async def test_a_forged_or_unusable_setting_changes_nothing(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=1)
    admin = admin_of(simcord_env, driver)
    member = driver.members[0]
    ClientLocale(simcord_env, "it")
    # The server's admins opened /settings to everyone: the handler still asks for Manage Server.
    command = simcord_env.backend.find_command("settings", None)
    driver.guild.set_command_permissions(int(command["id"]), {member: True})
    for name, options in [
        ("settings show", {}),
        ("settings turn_timeout", {"value": (3, "2h")}),
        ("settings channels", {"action": (3, "every")}),
        ("settings role", {}),
    ]:
        refused = await forge_slash(member, driver.channel, name, options)
        assert refused.response.ephemeral
        assert t("it", "settings.error.manage_server") in text_of(refused)
    for name, options, key in [
        ("settings reminder", {"percent": (4, 500)}, "settings.error.reminder"),
        ("settings computer_pause", {"seconds": (10, -1)}, "settings.error.computer_pause"),
        ("settings turn_timeout", {"value": (3, "tomorrow")}, "error.timeout_unreadable"),
        ("settings turn_timeout", {"value": (3, "9d")}, "error.timeout_range"),
        ("settings language", {"value": (3, "de")}, "error.forged_options"),
        ("settings stand_in", {"value": (5, "maybe")}, "error.forged_options"),
        ("settings channels", {"action": (3, "add")}, "settings.error.channel_needed"),
    ]:
        refused = await forge_slash(admin, driver.channel, name, options)
        expected = t("it", key, maximum=90 if "reminder" in key else 60, text="tomorrow")
        assert refused.response.ephemeral and expected in text_of(refused), name
    assert driver.query("SELECT COUNT(*) FROM guild_settings")[0][0] == 0


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
async def test_settings_survive_a_restart(simcord_env, database, make_bot):
    driver = BueDriver(simcord_env, database, players=2)
    admin = admin_of(simcord_env, driver)
    await admin.slash(driver.channel, "settings turn_timeout", value="90m")
    await simcord_env.restart_bot(make_bot())
    shown = await admin.slash(driver.channel, "settings show")
    assert shown.response.embeds[0].fields[3].value.startswith("1 h 30 min")
    await driver.open()
    assert game_row(driver, driver.game_id)["turn_timeout"] == 90 * 60


async def test_the_computers_pause_and_rating_are_the_servers(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=1)
    admin = admin_of(simcord_env, driver)
    await admin.slash(driver.channel, "settings computer_pause", seconds=5)
    await admin.slash(driver.channel, "settings computers_rated", value=False)
    host = driver.members[0]
    await host.slash(driver.channel, "bue start", computers=1)
    lobby_settings = driver.channel.last_message.embeds[0].fields[1].value
    assert t("en", "settings.lobby.unrated") in lobby_settings  # the players know before they begin
    await host.click(driver.channel.last_message, label="Begin")
    driver.game_id = driver.query("SELECT MAX(id) FROM games")[0][0]
    if driver.state().turn == 0:
        await driver.play_one(random.Random(5))
    version = driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0][0]
    await simcord_env.advance_time(4.5)
    assert driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0][0] == version
    await simcord_env.advance_time(1)
    assert driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0][0] > version
    # A match with a computer player: its results will count for nobody's rating.
    assert game_row(driver, driver.game_id)["kept"]["computers_rated"] is False


def test_only_a_match_with_computer_players_is_kept_out_of_ratings():
    person = SeatRow(0, 1, "anna", "en", 0, False, False)
    computer = SeatRow(1, -1, "🤖 1", "en", 0, False, False, robot="hard")
    before = GameRow(1, "bue", 1, 1, 1, "running", {}, 3600, "en", 1, None, 1, None)
    off = replace(before, server_settings={"computers_rated": False})
    assert not off.rated([person, computer])
    assert off.rated([person, replace(computer, robot=None, user_id=2)])
    assert before.rated([person, computer])  # a game from before the setting


async def computers_finish_a_match(env, driver, channel) -> int:
    """The only person opens a short Bué match with a computer and lets their time run out: a
    computer stands in and the computers finish it. Returns the game's id."""
    host = driver.members[0]
    await host.slash(channel, "bue start", computers=1, target=10, turn_timeout="1m")
    await host.click(channel.last_message, label="Begin")
    game_id = driver.query("SELECT MAX(id) FROM games")[0][0]
    for _ in range(200):
        if driver.query("SELECT status FROM games WHERE id = ?", game_id)[0][0] != "running":
            return game_id
        await env.advance_time(61)
    raise AssertionError("the match never ended")


async def test_a_match_with_computers_is_rated_unless_the_server_says_otherwise(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=1)
    admin = admin_of(simcord_env, driver)
    await admin.slash(driver.channel, "settings computer_pause", seconds=0)
    rated = await computers_finish_a_match(simcord_env, driver, driver.channel)
    assert driver.query("SELECT COUNT(*) FROM ratings WHERE game_id = ?", rated)[0][0] > 0

    await admin.slash(driver.channel, "settings computers_rated", value=False)
    unrated = await computers_finish_a_match(simcord_env, driver, driver.channel)
    assert driver.query("SELECT status FROM games WHERE id = ?", unrated) == [("finished",)]
    assert driver.query("SELECT DISTINCT rated FROM results WHERE game_id = ?", unrated) == [(0,)]
    assert driver.query("SELECT COUNT(*) FROM ratings WHERE game_id = ?", unrated)[0][0] == 0
