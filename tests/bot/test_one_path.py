"""Every change a game makes takes the one path (issue 37): the deal, a move, a player leaving and
coming back, a computer standing in, a reminder, a turn running out, an abort, a lobby's seats;
and a player's away time (``/away``), an away day used as their time runs out, a call to move
held through quiet hours (issue 38). Each is committed with what it announces; killed between
that commit and its announcements, the bot announces everything once after a restart, however
often it restarts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.publisher import Publisher
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import components
from tests.bot.test_rummikub_play import RummikubDriver


async def nothing_announced(*args: Any, **kwargs: Any) -> None:
    return None


def said(driver: Any, text: str) -> int:
    """How many of the channel's messages say ``text``."""
    return sum(text in (message.content or "") for message in driver.channel.history())


async def dealt(env: Any, database: str) -> RummikubDriver:
    driver = RummikubDriver(env, database)
    await driver.open(turn_timeout="1h")
    return driver


# Each change: how to set the game up, the change itself (killed right after its commit), and
# what its announcement says in the channel (or, for a lobby, what its message shows).
Setup = Callable[[Any, str], Awaitable[Any]]
Change = Callable[[Any, Any], Awaitable[None]]


async def a_lobby(env: Any, database: str) -> RummikubDriver:
    driver = RummikubDriver(env, database)
    await driver.members[0].slash(driver.channel, "rummikub start")
    driver.game_id = driver.query("SELECT MAX(id) FROM games")[0][0]
    return driver


async def deal(env: Any, driver: Any) -> None:
    lobby = driver.channel.last_message
    await driver.members[1].click(lobby, label="Join")
    await driver.members[0].click(lobby, label="Begin")


async def join(env: Any, driver: Any) -> None:
    await driver.members[1].click(driver.channel.last_message, label="Join")


async def draw(env: Any, driver: Any) -> None:
    await driver.members[driver.state().turn].click(driver.table_message(), label="Draw")


async def leave(env: Any, driver: Any) -> None:
    await driver.members[driver.state().turn].slash(driver.channel, "rummikub leave")


async def remind(env: Any, driver: Any) -> None:
    await env.advance_time(1800 + 1)


async def away(env: Any, driver: Any) -> None:
    await driver.members[0].slash(driver.channel, "away", duration="2d")


async def dealt_on_a_day(env: Any, database: str) -> RummikubDriver:
    """A game on the default clock, a day per move: time running out uses an away day."""
    driver = RummikubDriver(env, database)
    await driver.open()
    return driver


async def run_out(env: Any, driver: Any) -> None:
    await env.advance_time(86400 + 1)


async def abort(env: Any, driver: Any) -> None:
    question = await driver.members[0].slash(driver.channel, "rummikub abort")
    await driver.members[0].click(question.response, label="Abort")


CHANGES: dict[str, tuple[Setup, Change, str]] = {
    "a lobby's seat": (a_lobby, join, ""),
    "the deal": (a_lobby, deal, ": your move."),
    "a move": (dealt, draw, "drew a tile"),
    "a player leaving": (dealt, leave, "left the game"),
    "a reminder": (dealt, remind, "half your time is gone"),
    "an away": (dealt, away, "is away until"),
    "an away day used": (dealt_on_a_day, run_out, "one of their away days is used"),
    "an abort": (dealt, abort, "closed by"),
}


@pytest.mark.parametrize("change", list(CHANGES))
async def test_a_change_killed_before_its_announcements_is_announced_once_after_a_restart(
    simcord_env, database, make_bot, monkeypatch, change
):
    setup, make, line = CHANGES[change]
    driver = await setup(simcord_env, database)
    with monkeypatch.context() as patch:
        patch.setattr(Publisher, "deliver", nothing_announced)
        await make(simcord_env, driver)
    owed = driver.query("SELECT COUNT(*) FROM outbox")[0][0]
    assert owed >= 1  # saved with the change, not yet told
    for _ in range(2):  # however often the bot restarts
        await simcord_env.restart_bot(make_bot())
        if line:
            assert said(driver, line) == 1, [m.content for m in driver.channel.history()]
        assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
    if change == "a lobby's seat":
        lobby = driver.channel.last_message
        assert "bruno" in lobby.embeds[0].fields[0].value  # the lobby shows who joined
    if change == "an abort":
        table = driver.table_message()
        assert not components(table) and not table.embeds  # the table says it is closed, nothing more


async def test_a_turn_run_out_killed_before_its_announcements_is_announced_once(
    simcord_env, database, make_bot, monkeypatch
):
    driver = await dealt(simcord_env, database)
    await simcord_env.advance_time(1800 + 1)  # the reminder, told as it comes
    with monkeypatch.context() as patch:
        patch.setattr(Publisher, "deliver", nothing_announced)
        await simcord_env.advance_time(1800)  # the turn runs out: the referee's default move
    assert driver.query("SELECT COUNT(*) FROM actions WHERE by_timeout = 1")[0][0] == 1
    for _ in range(2):
        await simcord_env.restart_bot(make_bot())
        assert said(driver, "ran out of time") == 1
        assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0


async def test_a_stand_in_and_a_player_back_each_announced_once_after_a_crash(
    simcord_env, database, make_bot, monkeypatch
):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open(turn_timeout="1h")
    seat = driver.state().turn
    with monkeypatch.context() as patch:
        patch.setattr(Publisher, "deliver", nothing_announced)
        # Two turns of the same player run out: a computer stands in for them.
        for _ in range(8):
            if driver.query("SELECT stand_in FROM seats WHERE seat = ?", seat)[0][0]:
                break
            await simcord_env.advance_time(1800 + 1)
    assert driver.query("SELECT stand_in FROM seats WHERE seat = ?", seat)[0][0]
    await simcord_env.restart_bot(make_bot())
    assert said(driver, "your time ran out twice in a row") == 1
    with monkeypatch.context() as patch:
        patch.setattr(Publisher, "deliver", nothing_announced)
        back = next(m for m in driver.channel.history() if any(c.label == "Back" for c in components(m)))
        await driver.members[seat].click(back, label="Back")
    for _ in range(2):
        await simcord_env.restart_bot(make_bot())
        assert said(driver, "is back and plays their own seat again") == 1
        assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0


async def test_a_call_to_move_held_through_quiet_hours_is_told_once_after_a_crash(
    simcord_env, database, make_bot, monkeypatch
):
    driver = RummikubDriver(simcord_env, database)
    anna = driver.members[0]
    await anna.slash(driver.channel, "preferences timezone", value="Europe/Rome")
    await anna.slash(driver.channel, "preferences quiet_hours", value="23-08")
    await driver.open(turn_timeout="1d")  # 01:00 in Rome
    if driver.state().turn == 0:
        await anna.click(driver.table_message(), label="Draw")
    await driver.members[1].click(driver.table_message(), label="Draw")
    assert said(driver, "**anna**: your move") >= 1  # named in her night, not pinged
    with monkeypatch.context() as patch:
        patch.setattr(Publisher, "deliver", nothing_announced)
        await simcord_env.advance_time(7 * 3600)  # 08:00 in Rome: the held ping
    assert said(driver, f"<@{anna.id}>: your move") == 0
    for _ in range(2):
        await simcord_env.restart_bot(make_bot())
        assert said(driver, f"<@{anna.id}>: your move") == 1
        assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
