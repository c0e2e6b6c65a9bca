"""A player's time zone and quiet hours, a server's clock and away days, and a game's clock from
/start or a host's options, through the real bot: what is saved and shown, and every bad value
refused privately with an example of a good one, nothing saved."""

from __future__ import annotations

import json

from bot.i18n import t
from tests.bot.bue_driver import BueDriver
from tests.bot.forging import forge_slash
from tests.bot.test_settings import admin_of
from tests.bot.test_turns import private, text_of


def fields_of(result) -> dict[str, str]:
    return {field.name: field.value for field in result.response.embeds[0].fields}


async def test_a_time_zone_and_quiet_hours_are_checked_saved_shown_and_cleared(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=1)
    anna = driver.members[0]
    for command, value, key, params in [
        (
            "timezone",
            "Mars/Olympus_Mons",
            "time.error.zone",
            {"text": "Mars/Olympus_Mons", "example": "Europe/Rome"},
        ),
        ("timezone", "Rome", "time.error.zone", {"text": "Rome", "example": "Europe/Rome"}),
        ("quiet_hours", "25-99", "time.error.quiet_unreadable", {"text": "25-99", "example": "23-08"}),
        ("quiet_hours", "20-12", "time.error.quiet_range", {"hours": 14, "example": "23-08"}),
    ]:
        refused = await anna.slash(driver.channel, f"preferences {command}", value=value)
        assert private(refused) and t("en", key, **params) in text_of(refused), value
    forged = await forge_slash(anna, driver.channel, "preferences timezone", {"value": (4, 5)})
    assert private(forged) and "⚠️" in text_of(forged)
    assert driver.query("SELECT COUNT(*) FROM player_preferences") == [(0,)]

    offered = await anna.autocomplete(driver.channel, "preferences timezone", "value", "rome")
    assert offered[0]["value"] == "Europe/Rome" and len(offered) <= 25
    assert len(await anna.autocomplete(driver.channel, "preferences timezone", "value", "")) == 25

    quiet = await anna.slash(driver.channel, "preferences quiet_hours", value="23:00-08:00")
    shown = fields_of(quiet)
    assert shown["Quiet hours"].startswith("23-08") and "Choose your time zone too" in shown["Quiet hours"]
    zone = await anna.slash(driver.channel, "preferences timezone", value="europe/rome")
    shown = fields_of(zone)
    assert shown["Time zone"] == "Europe/Rome" and shown["Quiet hours"] == "23-08"
    assert driver.query("SELECT time_zone, quiet_hours FROM player_preferences") == [("Europe/Rome", "23-08")]
    await anna.slash(driver.channel, "preferences timezone")
    cleared = await anna.slash(driver.channel, "preferences quiet_hours")
    assert fields_of(cleared)["Quiet hours"] == "None"
    assert driver.query("SELECT time_zone, quiet_hours FROM player_preferences") == [(None, None)]


async def test_a_servers_clock_and_away_days(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    admin = admin_of(simcord_env, driver)
    refused = await admin.slash(driver.channel, "settings clock", value="0d+0h")
    assert private(refused) and t("en", "time.error.clock_range", example="3d+12h") in text_of(refused)
    forged = await forge_slash(admin, driver.channel, "settings away_days", {"days": (4, 99)})
    assert private(forged) and "⚠️" in text_of(forged)
    assert driver.query("SELECT COUNT(*) FROM guild_settings") == [(0,)]

    changed = await admin.slash(driver.channel, "settings clock", value="3d+12h")
    assert "Clock changed" in text_of(changed)
    row = fields_of(changed)["Clock"]
    assert row.startswith("a bank of 3 d each, 12 h back after each move (never above 3 d)")
    await admin.slash(driver.channel, "settings away_days", days=3)
    lobbies = driver.guild.create_text_channel("lobbies")
    await driver.members[1].slash(lobbies, "bue start")
    assert "Clock: a bank of 3 d each, 12 h back" in lobbies.last_message.embeds[0].fields[1].value
    await driver.open()
    assert driver.query("SELECT turn_timeout, clock_increment FROM games") == [(259200, 43200)] * 2
    kept = json.loads(driver.query("SELECT server_settings FROM games WHERE id = ?", driver.game_id)[0][0])
    assert kept["away_days"] == 3

    # Away days: the server's three, wherever the player asks (their game keeps them).
    anna = driver.members[0]
    too_long = await anna.slash(driver.channel, "away", duration="4d")
    refusal = t("en", "time.error.away_too_long", asked="4d", left="3d", days=3, example="2d")
    assert refusal in text_of(too_long)
    dm = await anna.user.slash("away", duration="4d")
    assert "⚠️" in text_of(dm) and driver.query("SELECT COUNT(*) FROM away_spans") == [(0,)]

    # The time per move again: no bank.
    await admin.slash(driver.channel, "settings turn_timeout", value="2h")
    assert driver.query("SELECT turn_timeout, clock_increment FROM guild_settings") == [(7200, None)]


async def test_a_games_clock_from_start_or_from_the_hosts_options(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    anna = driver.members[0]
    refused = await anna.slash(driver.channel, "bue start", clock="0d+0h")
    assert private(refused) and t("en", "time.error.clock_range", example="3d+12h") in text_of(refused)
    refused = await anna.slash(driver.channel, "preferences game_options", game="bue", options="clock=0d+0h")
    assert private(refused) and "⚠️" in text_of(refused)
    assert driver.query("SELECT COUNT(*) FROM games") == [(0,)]
    assert driver.query("SELECT COUNT(*) FROM player_preferences") == [(0,)]

    saved = await anna.slash(
        driver.channel, "preferences game_options", game="bue", options="target=60 clock=2d+6h"
    )
    assert "target=60 clock=2d+6h" in fields_of(saved)["Options of the games you host"]
    await driver.open()
    assert driver.query(
        "SELECT turn_timeout, clock_increment, options FROM games WHERE id = ?", driver.game_id
    ) == [(2 * 86400, 6 * 3600, json.dumps({"target": 60, "stand_in": 1}))]
    # The start command's clock comes first.
    other = driver.guild.create_text_channel("other")
    await anna.slash(other, "bue start", clock="45m")
    assert driver.query("SELECT turn_timeout, clock_increment FROM games ORDER BY id DESC LIMIT 1") == [
        (2700, None)
    ]
