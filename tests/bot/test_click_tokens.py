"""A move made from a private panel shows on the table through the token of the click that opened
the panel (an interaction's edit, which Discord does not count against the bot's limit), and by
the channel's counted edit when that token is too old or Discord refuses it (bot/click_tokens.py)."""

from __future__ import annotations

import logging
from typing import Any

from bot.click_tokens import MARGIN
from tests.bot.driver import Opened
from tests.bot.test_discord_limits import counted_calls
from tests.bot.test_rummikub_play import RummikubDriver

MELD = ["r10", "r11", "r12"]
TOKEN_LIFE = 15 * 60.0


async def a_player_with_a_meld(env: Any, database: str) -> tuple[RummikubDriver, int]:
    driver = RummikubDriver(env, database)
    await driver.open()
    game = driver.state()
    game.racks[game.turn] = [*MELD, "k1", "b2", "o3", "k7", "b9"]
    driver.arrange(game)
    return driver, game.turn


def table_edits(env: Any, since: int) -> list[str]:
    return [
        f"{entry.method} {entry.path}"
        for entry in env.backend.http_requests[since:]
        if entry.method == "PATCH"
    ]


async def play_the_meld(driver: RummikubDriver, seat: int, panel: Opened) -> None:
    member = driver.members[seat]
    for code in MELD:
        await driver.pick(member, panel, code)
    await member.click(panel.response, label="Play them")


async def test_a_play_from_the_panel_shows_on_the_table_through_the_click_that_opened_it(
    simcord_env, database
):
    driver, seat = await a_player_with_a_meld(simcord_env, database)
    answer = await driver.members[seat].click(driver.table_message(), label="Play tiles")
    # The click's answer is the table's deferred update; the rack's panel comes privately after it.
    (panel_message,) = answer.followups
    assert panel_message.ephemeral and answer.response.id == driver.table_id()
    panel = Opened(answer)
    cursor = len(simcord_env.backend.http_requests)
    await play_the_meld(driver, seat, panel)

    assert driver.state().table == [MELD]
    driver.assert_table_shows_only_the_table()
    (edit,) = table_edits(simcord_env, cursor)
    assert edit.startswith("PATCH /webhooks/") and edit.endswith("/messages/@original")
    # The channel's line and the player's new rack: all that Discord counts.
    dm = driver.members[seat].user.dm_channel.id
    assert sorted(counted_calls(simcord_env, cursor)) == sorted(
        [f"POST /channels/{driver.channel.id}/messages", f"POST /channels/{dm}/messages"]
    )


async def test_a_panel_opened_too_long_ago_shows_the_play_by_the_channel_s_edit(simcord_env, database):
    driver, seat = await a_player_with_a_meld(simcord_env, database)
    panel = Opened(await driver.members[seat].click(driver.table_message(), label="Play tiles"))
    await simcord_env.advance_time(TOKEN_LIFE - MARGIN + 1)
    cursor = len(simcord_env.backend.http_requests)
    await play_the_meld(driver, seat, panel)

    assert driver.state().table == [MELD]
    driver.assert_table_shows_only_the_table()
    table = f"PATCH /channels/{driver.channel.id}/messages/{driver.table_id()}"
    assert table_edits(simcord_env, cursor) == [table]


async def test_a_token_discord_refuses_is_dropped_and_the_table_edited_by_the_channel(
    simcord_env, database, caplog
):
    driver, seat = await a_player_with_a_meld(simcord_env, database)
    panel = Opened(await driver.members[seat].click(driver.table_message(), label="Play tiles"))
    simcord_env.inject_error(
        "PATCH", "/webhooks/*/messages/@original", status=401, code=50027, message="Invalid Webhook Token"
    )
    cursor = len(simcord_env.backend.http_requests)
    with caplog.at_level(logging.INFO):
        await play_the_meld(driver, seat, panel)

    assert driver.state().table == [MELD]
    driver.assert_table_shows_only_the_table()
    table = f"PATCH /channels/{driver.channel.id}/messages/{driver.table_id()}"
    assert table_edits(simcord_env, cursor)[-1] == table
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]

    # The refused token is not tried again: the next player's draw, made by a command, shows by
    # the channel's edit alone.
    cursor = len(simcord_env.backend.http_requests)
    await driver.members[driver.state().turn].slash(driver.channel, "rummikub draw")
    assert table_edits(simcord_env, cursor) == [table]
