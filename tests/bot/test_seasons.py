"""Seasons through the real bot: /season for Manage Server, /leaderboard and /stats showing the
running season by default, any other or all time on request, and a closed season that no later
match changes."""

from __future__ import annotations

import random

from bot.i18n import t
from tests.bot.bue_driver import BueDriver
from tests.bot.forging import forge_slash
from tests.bot.test_settings import admin_of, text_of


async def play_match(driver: BueDriver, rng: random.Random) -> None:
    await driver.open(target=10)
    while driver.status() == "running":
        await driver.play_one(rng)


def season_id(driver: BueDriver, name: str) -> str:
    return str(driver.query("SELECT id FROM seasons WHERE name = ?", name)[0][0])


def leaderboard_lines(result) -> list[str]:
    return result.response.embeds[0].description.splitlines()


async def test_a_closed_season_keeps_its_standings_while_later_matches_count_in_the_next(
    simcord_env, database
):
    driver = BueDriver(simcord_env, database, players=2)
    admin = admin_of(simcord_env, driver)
    anna = driver.members[0]
    rng = random.Random(5)
    await play_match(driver, rng)  # before any season: all time only

    started = await admin.slash(driver.channel, "season start", name="  Spring   2025 ")
    assert not started.response.ephemeral
    assert "**Spring 2025**" in started.response.embeds[0].description
    for _ in range(2):
        await play_match(driver, rng)
    spring = await anna.slash(driver.channel, "leaderboard")
    assert spring.response.embeds[0].title == "🏆 Leaderboard: all games · Spring 2025"
    assert sum(int(line.split(" in ")[1][0]) for line in leaderboard_lines(spring)) == 4  # 2 matches x 2

    ended = await admin.slash(driver.channel, "season end")
    assert "Spring 2025" in ended.response.embeds[0].description
    spring_id = season_id(driver, "Spring 2025")
    closed = await anna.slash(driver.channel, "leaderboard", game="bue", season=spring_id)
    closed_stats = await anna.slash(driver.channel, "stats", game="bue", season=spring_id)
    await play_match(driver, rng)  # between seasons: all time only
    summer = await admin.slash(driver.channel, "season start", name="Summer")
    assert "Spring" not in summer.response.embeds[0].description  # none was running
    await play_match(driver, rng)

    again = await anna.slash(driver.channel, "leaderboard", game="bue", season=spring_id)
    assert again.response.embeds[0].description == closed.response.embeds[0].description
    stats_again = await anna.slash(driver.channel, "stats", game="bue", season=spring_id)
    assert [(f.name, f.value) for f in stats_again.response.embeds[0].fields] == [
        (f.name, f.value) for f in closed_stats.response.embeds[0].fields
    ]
    assert stats_again.response.embeds[0].title.endswith("· Spring 2025")
    assert dict((f.name, f.value) for f in stats_again.response.embeds[0].fields)["Matches played"] == "2"

    now = await anna.slash(driver.channel, "leaderboard", game="bue")
    assert now.response.embeds[0].title.endswith("· Summer")
    assert all("in 1 match," in line for line in leaderboard_lines(now))
    every = await anna.slash(driver.channel, "leaderboard", game="bue", season="all")
    assert every.response.embeds[0].title == "🏆 Leaderboard: Bué"
    assert all("in 5 matches" in line for line in leaderboard_lines(every))
    rated = await anna.slash(driver.channel, "leaderboard", game="bue", order="rating", season=spring_id)
    assert all("2 matches" in line for line in leaderboard_lines(rated))

    choices = await anna.autocomplete(driver.channel, "leaderboard", "season", "")
    assert [choice["name"] for choice in choices] == ["All time", "Summer (running)", "Spring 2025 (closed)"]
    assert choices[0]["value"] == "all"
    typed = await anna.autocomplete(driver.channel, "stats", "season", "spr")
    assert [choice["value"] for choice in typed] == [spring_id]

    shown = await admin.slash(driver.channel, "season show")
    assert shown.response.ephemeral
    text = shown.response.embeds[0].description
    assert text.index("Summer") < text.index("Spring 2025")


async def test_a_running_season_with_no_match_yet_says_so_and_offers_all_time(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    admin = admin_of(simcord_env, driver)
    await play_match(driver, random.Random(2))
    await admin.slash(driver.channel, "season start", name="Autumn")
    empty = await driver.members[0].slash(driver.channel, "leaderboard")
    assert empty.response.ephemeral and "season **Autumn**" in text_of(empty)
    assert "`season: All time`" in text_of(empty)
    stats = await driver.members[0].slash(driver.channel, "stats")
    assert stats.response.ephemeral and "Autumn" in text_of(stats)
    every = await driver.members[0].slash(driver.channel, "stats", season="all")
    assert not every.response.ephemeral


async def test_seasons_are_for_manage_server_and_a_forged_season_is_refused(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=1)
    admin = admin_of(simcord_env, driver)
    member = driver.members[0]
    other = BueDriver(simcord_env, database, players=1)
    elsewhere = admin_of(simcord_env, other)
    await elsewhere.slash(other.channel, "season start", name="Theirs")
    theirs = season_id(other, "Theirs")

    # The server opened /season to everyone: the handler still asks for Manage Server.
    command = simcord_env.backend.find_command("season", None)
    driver.guild.set_command_permissions(int(command["id"]), {member: True})
    for name, options in [("season start", {"name": (3, "Mine")}), ("season end", {}), ("season show", {})]:
        refused = await forge_slash(member, driver.channel, name, options)
        assert refused.response.ephemeral
        assert t("en", "season.error.manage_server") in text_of(refused)
    for name in ("", "x" * 41, "\n\n"):
        refused = await forge_slash(admin, driver.channel, "season start", {"name": (3, name)})
        assert refused.response.ephemeral and "1 to 40 characters" in text_of(refused)
    nothing = await admin.slash(driver.channel, "season end")
    assert nothing.response.ephemeral and "No season is running" in text_of(nothing)
    assert driver.query("SELECT COUNT(*) FROM seasons WHERE guild_id = ?", driver.guild.id) == [(0,)]

    for forged in (theirs, "abc", "99999999999999999999999", "-1"):
        refused = await forge_slash(member, driver.channel, "leaderboard", {"season": (3, forged)})
        assert refused.response.ephemeral
        assert t("en", "season.error.unknown") in text_of(refused), forged
