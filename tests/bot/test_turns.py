"""/turns and /away through the real bot: a player's games across two servers, the longest-waiting
first, Next to the end, What happened; away time within the server's allowance; and every bad
input (a forged or another player's button, an away too long) refused privately, nothing saved."""

from __future__ import annotations

from bot.i18n import t
from tests.bot.driver import components
from tests.bot.forging import forge_click
from tests.bot.test_rummikub_play import RummikubDriver


def text_of(result) -> str:
    messages = [result.response, *result.followups] if result.response else result.followups
    return "\n".join(message.content or "" for message in messages if message is not None)


def private(result) -> bool:
    messages = [result.response, *result.followups] if result.response else result.followups
    return bool(messages) and all(message.ephemeral for message in messages)


def button(message, label: str):
    return next(child for child in components(message) if child.label == label)


async def waiting_on(driver: RummikubDriver, seat: int) -> None:
    """The other player draws if it is their turn, so that the game waits on ``seat``."""
    turn = driver.state().turn
    if turn != seat:
        await driver.members[turn].click(driver.table_message(), label="Draw")
    assert driver.state().turn == seat


async def drawn_by_both(driver: RummikubDriver, seat: int) -> None:
    """``seat`` draws, then the other player: the game waits on ``seat`` again."""
    await waiting_on(driver, seat)
    await driver.members[seat].click(driver.table_message(), label="Draw")
    await waiting_on(driver, seat)


async def three_games(simcord_env, database):
    """Anna's games: one in the first server waiting on her since the start, one in a second
    server waiting on her since an hour later, and one there waiting on Carla."""
    first = RummikubDriver(simcord_env, database)
    anna = first.members[0]
    await first.open()
    await drawn_by_both(first, 0)
    await simcord_env.advance_time(3600)
    second = RummikubDriver(simcord_env, database)
    second.members[0] = second.guild.add_member(anna.user)  # the same person, in another server
    await second.open()
    await waiting_on(second, 0)
    third = RummikubDriver(simcord_env, database)
    third.guild, third.channel = second.guild, second.guild.create_text_channel("more-games")
    third.members = [second.members[0], second.guild.add_member(simcord_env.create_user("carla"))]
    await third.open()
    await waiting_on(third, 1)
    return anna, first, second, third


async def test_turns_lists_every_server_longest_waiting_first_and_next_steps_to_the_end(
    simcord_env, database
):
    anna, first, second, third = await three_games(simcord_env, database)
    answer = await anna.user.slash("turns")  # in the bot's DMs
    assert private(answer)
    shown = answer.response
    assert "2 games wait on you" in shown.content and "1/3" in shown.content
    embed = shown.embeds[0]
    waiting = embed.fields[0].value.splitlines()
    assert [line.startswith("▶️") for line in waiting] == [True, False]
    assert first.guild.name in waiting[0] and second.guild.name in waiting[1]  # the older first
    assert f"<#{first.channel.id}>" in waiting[0] and "your move (lay tiles or draw)" in waiting[0]
    deadline = first.query("SELECT due_at FROM timers WHERE game_id = ? AND kind = 'expire'", first.game_id)[
        0
    ][0]
    assert f"<t:{int(deadline)}:R>" in waiting[0]
    assert f"/channels/{first.guild.id}/{first.channel.id}/{first.table_id()}" in waiting[0]
    others = embed.fields[1].value
    assert "waiting on others" in others and f"<#{third.channel.id}>" in others
    assert "Away time used in the last 30 days: " in embed.fields[2].value

    steps = [shown.content]
    while not button(shown, "Next").disabled:
        shown = (await anna.user.click(shown, label="Next")).response
        steps.append(shown.content)
    assert [f"{n}/3" in step for n, step in enumerate(steps, start=1)] == [True] * 3
    assert f"<#{second.channel.id}>" in steps[1] and f"<#{third.channel.id}>" in steps[2]

    # What happened in the game waiting on Carla: nothing since Anna's move.
    recap = await anna.user.click(shown, label="What happened")
    assert private(recap)
    assert "what happened since your last move" in text_of(recap) and "Nothing yet" in text_of(recap)

    # Asked in a server, the same list.
    again = await second.members[0].slash(second.channel, "turns")
    assert private(again) and again.response.embeds[0].fields[0].value == embed.fields[0].value
    # In the first game, Bruno drew since Anna did: she is told so, not what he drew.
    recap = await second.members[0].click(again.response, label="What happened")
    assert "**bruno** drew a tile" in text_of(recap) and "You drew" not in text_of(recap)


async def test_turns_buttons_work_after_a_restart(simcord_env, database, make_bot):
    anna, _, second, _ = await three_games(simcord_env, database)
    answer = await anna.user.slash("turns")
    await simcord_env.restart_bot(make_bot())
    after = await anna.user.click(answer.response, label="Next")
    assert private(after) and "2/3" in after.response.content
    assert f"<#{second.channel.id}>" in after.response.content


async def test_a_forged_or_someone_elses_turns_button_is_refused_privately(simcord_env, database):
    anna, first, second, _ = await three_games(simcord_env, database)
    answer = await first.members[0].slash(first.channel, "turns")
    next_id = button(answer.response, "Next").custom_id
    recap_id = button(answer.response, "What happened").custom_id
    bruno = first.members[1]
    before = first.query("SELECT COUNT(*), MAX(version) FROM games")
    for custom_id in (next_id, recap_id):
        refused = await forge_click(simcord_env, bruno, first.channel, first.table_message(), custom_id)
        assert private(refused) and t("en", "turns.error.not_yours") in text_of(refused)
    user = next_id.split(":")[1]
    for forged in (f"turns:{user}:999999:n", f"turns:{user}:{second.game_id + 50}:r"):
        refused = await forge_click(simcord_env, anna, first.channel, first.table_message(), forged)
        assert private(refused) and t("en", "turns.error.not_running") in text_of(refused)
    # Bruno is in the first game, not in the second: its recap is not his to read.
    bruno_id = f"turns:{bruno.id}:{second.game_id}:r"
    refused = await forge_click(simcord_env, bruno, first.channel, first.table_message(), bruno_id)
    assert private(refused) and t("en", "turns.error.not_running") in text_of(refused)
    garbled = await forge_click(simcord_env, anna, first.channel, first.table_message(), "turns:x:1:n")
    assert private(garbled)
    assert first.query("SELECT COUNT(*), MAX(version) FROM games") == before


async def test_no_game_anywhere_says_how_to_start_one(simcord_env, database):
    driver = RummikubDriver(simcord_env, database, players=1)
    answer = await driver.members[0].slash(driver.channel, "turns")
    assert private(answer) and "`/rummikub start`" in text_of(answer)


async def test_away_within_the_servers_away_days_then_back(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    anna = driver.members[0]
    for duration, key, params in [
        ("900d", "time.error.away_too_long", {"asked": "900d", "left": "7d", "days": 7, "example": "2d"}),
        ("soon", "time.error.away_unreadable", {"text": "soon", "example": "2d"}),
        ("off", "time.error.not_away", {}),
    ]:
        refused = await anna.slash(driver.channel, "away", duration=duration)
        assert private(refused) and t("en", key, **params) in text_of(refused), duration
    assert driver.query("SELECT COUNT(*) FROM away_spans") == [(0,)]

    away = await anna.slash(driver.channel, "away", duration="2d")
    assert private(away) and "You're away until <t:" in text_of(away) and ":R>)" in text_of(away)
    assert "left: 5 d (of 7 days)" in text_of(away)
    ((starts, ends),) = driver.query("SELECT starts_at, ends_at FROM away_spans WHERE user_id = ?", anna.id)
    assert ends - starts == 2 * 86400
    shown = await anna.slash(driver.channel, "preferences show")
    assert f"Away until <t:{int(ends)}:f>" in shown.response.embeds[0].fields[-1].value

    await simcord_env.advance_time(6 * 3600)
    back = await anna.slash(driver.channel, "away", duration="off")
    assert "Welcome back" in text_of(back) and "used in the last 30 days: 6 h" in text_of(back)
    assert driver.query("SELECT ends_at - starts_at FROM away_spans") == [(6 * 3600.0,)]
    offered = await anna.autocomplete(driver.channel, "away", "duration", "")
    assert [choice["value"] for choice in offered] == ["1d", "2d", "3d", "12h", "off"]
