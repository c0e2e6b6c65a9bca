"""/preferences: each player's own language, hand DMs, pings and game options, in every server."""

from __future__ import annotations

import json

import pytest

from bot.i18n import t
from bot.playground.world import ClientLocale, close_dms
from tests.bot.bue_driver import BueDriver
from tests.bot.forging import forge_slash


def text_of(result) -> str:
    return "\n".join(m.content or "" for m in [result.response, *result.followups] if m is not None)


async def test_no_ping_names_the_player_and_no_dm_leaves_the_hand_to_the_button(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    for member in driver.members:
        answer = await member.slash(driver.channel, "preferences ping", value=False)
        assert answer.response.ephemeral and "✅" in text_of(answer)
    bruno = driver.members[1]
    await bruno.slash(driver.channel, "preferences dm_hand", value=False)
    await driver.open(turn_timeout="2h")
    turn = driver.state().turn
    called = driver.channel.last_message.content
    assert "<@" not in called and f"**{driver.members[turn].name}**" in called
    assert driver.dm_messages(0) and driver.dm_messages(2)
    assert driver.dm_messages(1) == []
    hand = await bruno.click(driver.table_message(), label="My hand")
    assert hand.response.ephemeral and hand.response.attachments

    # Back to pings, in the running game too: a player's preference is theirs, not the game's.
    await driver.members[turn].slash(driver.channel, "preferences ping")
    await simcord_env.advance_time(3600 + 1)
    reminder = driver.channel.last_message.content
    assert "half your time is gone" in reminder and driver.members[turn].mention in reminder


@pytest.mark.parametrize("language", ["it", "fr"])
async def test_a_chosen_language_beats_discords_in_answers_and_hands(simcord_env, database, language):
    driver = BueDriver(simcord_env, database, players=2)
    anna, bruno = driver.members
    chosen = await bruno.slash(driver.channel, "preferences language", value=language)
    # The answer already speaks it.
    assert t(language, "preferences.title") == chosen.response.embeds[0].title
    no_game = await bruno.slash(driver.channel, "bue hand")
    assert t(language, "error.no_game_here") in text_of(no_game)
    assert t("en", "error.no_game_here") in text_of(await anna.slash(driver.channel, "bue hand"))
    await driver.open()
    seat = driver.query("SELECT locale FROM seats WHERE user_id = ?", bruno.id)
    assert seat == [("en-US",)]  # Discord's, as it joined: the preference is read over it
    dm = driver.dm_messages(1)[-1]
    assert dm.embeds[0].title == t(language, "bue.hand.title", game=1, round=1)
    assert driver.dm_messages(0)[-1].embeds[0].title == t("en", "bue.hand.title", game=1, round=1)
    back = await bruno.slash(driver.channel, "preferences language")
    assert t("en", "preferences.title") == back.response.embeds[0].title


async def test_game_options_for_the_games_a_player_hosts(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    anna = driver.members[0]
    for options, key, params in [
        ("target=abc", "preferences.error.options_unreadable", {"text": "target=abc"}),
        ("target", "preferences.error.options_unreadable", {"text": "target"}),
        ("colour=3", "error.option_unknown", {"option": "colour"}),
        ("turn_timeout=9d", "error.timeout_range", {}),
    ]:
        refused = await anna.slash(driver.channel, "preferences game_options", game="bue", options=options)
        assert refused.response.ephemeral and t("en", key, **params) in text_of(refused), options
    too_high = await anna.slash(driver.channel, "preferences game_options", game="bue", options="target=9999")
    assert "must be between" in text_of(too_high)
    for name, options in [
        ("preferences game_options", {"game": (3, "chess")}),
        ("preferences language", {"value": (3, "de")}),
        ("preferences dm_hand", {"value": (5, "maybe")}),
        ("preferences ping", {"value": (3, "no")}),
    ]:
        forged = await forge_slash(anna, driver.channel, name, options)
        assert forged.response.ephemeral and t("en", "error.forged_options") in text_of(forged), name
    assert driver.query("SELECT COUNT(*) FROM player_preferences")[0][0] == 0

    saved = await anna.slash(
        driver.channel,
        "preferences game_options",
        game="bue",
        options="target=150 stand_in=off turn_timeout=12h",
    )
    assert "target=150" in saved.response.embeds[0].fields[3].value
    await driver.open()
    options, timeout = driver.query("SELECT options, turn_timeout FROM games WHERE id = ?", driver.game_id)[0]
    assert json.loads(options) == {"target": 150, "stand_in": 0} and timeout == 12 * 3600
    # The start command's own options come first.
    other = driver.guild.create_text_channel("other")
    await anna.slash(other, "bue start", target=60)
    options = driver.query("SELECT options FROM games ORDER BY id DESC LIMIT 1")[0][0]
    assert json.loads(options)["target"] == 60

    # The same player, in another server: the same preferences.
    elsewhere = simcord_env.create_guild()
    channel = elsewhere.create_text_channel("games")
    member = elsewhere.add_member(anna.user)
    shown = await member.slash(channel, "preferences show")
    assert "target=150" in shown.response.embeds[0].fields[3].value


async def test_preferences_in_every_language(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=1)
    clients = ClientLocale(simcord_env, "en-US")
    for locale in ("en-US", "it", "fr"):
        clients.locale = locale
        shown = await driver.members[0].slash(driver.channel, "preferences show")
        embed = shown.response.embeds[0]
        assert embed.title == t(locale[:2], "preferences.title")
        assert embed.fields[2].value == t(locale[:2], "preferences.ping.on")


async def test_preferences_show_says_the_button_brings_the_hand_when_dms_are_closed(simcord_env, database):
    """Issue 39: "your hand comes by DM" was said to a player whose DMs refuse the bot."""
    driver = BueDriver(simcord_env, database, players=2)
    anna, bruno = driver.members
    close_dms(simcord_env, bruno)
    await driver.open()

    def dm_hand(answer) -> str:
        (field,) = [f for f in answer.response.embeds[0].fields if f.name == "Hand by DM"]
        return field.value

    opened = dm_hand(await anna.slash(driver.channel, "preferences show"))
    assert opened.startswith("Yes: your hand comes by DM")
    closed = dm_hand(await bruno.slash(driver.channel, "preferences show"))
    assert "DMs are closed" in closed and "**My hand** button" in closed
