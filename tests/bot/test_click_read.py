"""A click's move plays from the click's read of its game when nothing can have written the game
since, and reads it again otherwise (issue 22)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.store import Snapshot, Store
from bot.store.games import Games
from bot.tables import TableService
from tests.bot.bue_driver import BueDriver
from tests.bot.test_bue_play import ephemeral_text
from tests.bot.test_rummikub_play import RummikubDriver
from tests.conftest import BACKENDS


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The game ids read by ``Games.snapshot`` from now on."""
    reads: list[int] = []
    snapshot = Games.snapshot

    async def counted(store: Store, game_id: int) -> Snapshot | None:
        reads.append(game_id)
        return await snapshot(store, game_id)

    monkeypatch.setattr(Games, "snapshot", counted)
    return reads


def after_the_click_s_read(monkeypatch: pytest.MonkeyPatch, tables: TableService, meanwhile: Any) -> None:
    """Run ``meanwhile()`` between the click's read of its game and its move."""
    read = tables.read

    async def then_meanwhile(game_id: int) -> Any:
        found = await read(game_id)
        await meanwhile()
        return found

    monkeypatch.setattr(tables, "read", then_meanwhile)


async def test_a_draw_reads_its_game_once(simcord_env, simcord_bot, database, monkeypatch) -> None:
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    rack = len(driver.state().racks[seat])
    reads = count_reads(monkeypatch)
    await driver.members[seat].click(driver.table_message(), label="Draw")
    assert reads == [driver.game_id]
    assert len(driver.state().racks[seat]) == rack + 1
    assert driver.state().turn != seat


async def test_each_click_of_a_bue_exchange_reads_its_game_once(
    simcord_env, simcord_bot, database, monkeypatch
) -> None:
    """The panel's first step, its card and the deck: each click's read shows its panel, or
    makes its move."""
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    game = driver.state()
    seat, actions = sorted(game.to_act().items())[0]
    assert "deck" in actions
    hand = game.hands[seat]
    reads = count_reads(monkeypatch)
    await driver.exchange_with_deck(seat, 0)
    assert reads == [driver.game_id] * 3
    assert driver.state().hands[seat] != hand


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
async def test_a_write_of_another_process_after_the_click_s_read_makes_the_move_read_again(
    simcord_env, simcord_bot, database, monkeypatch
) -> None:
    """Another process sharing the database takes none of this process's locks: the commit's
    version check refuses the move played from the click's read, and it is played again from
    a fresh read."""
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    rack = len(driver.state().racks[seat])
    (version,) = driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0]

    async def another_process_writes() -> None:
        driver.query("UPDATE games SET version = version + 1 WHERE id = ?", driver.game_id)

    after_the_click_s_read(monkeypatch, simcord_bot.tables, another_process_writes)
    reads = count_reads(monkeypatch)
    done = await driver.members[seat].click(driver.table_message(), label="Draw")
    assert "You drew" in ephemeral_text(done)
    assert reads == [driver.game_id, driver.game_id]
    assert len(driver.state().racks[seat]) == rack + 1
    assert driver.state().turn != seat
    assert driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0] == (version + 2,)
    assert driver.query("SELECT COUNT(*) FROM actions WHERE game_id = ?", driver.game_id)[0] == (1,)
    driver.assert_table_shows_only_the_table()


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
async def test_a_move_of_another_process_after_the_click_s_read_is_answered_as_the_table_moved_on(
    simcord_env, simcord_bot, database, monkeypatch
) -> None:
    """Another process's timer runs the drawer's turn out (a Draw by the referee) between the
    click's read and its move: the click is answered as a click queued behind that move always
    was, and the drawer drew once."""
    driver = RummikubDriver(simcord_env, database)
    await driver.open(turn_timeout="1h")  # no away day: the timeout plays
    seat = driver.state().turn
    rack = len(driver.state().racks[seat])
    bot = simcord_bot
    other_process = TableService(bot.adapters, bot.settings, bot)
    other_process.open(bot.store, bot.timers)
    (expiry,) = [timer for timer in await bot.store.timers.timers(driver.game_id) if timer.kind == "expire"]

    async def another_process_moves() -> None:
        await other_process.fire(expiry)

    after_the_click_s_read(monkeypatch, bot.tables, another_process_moves)
    refused = await driver.members[seat].click(driver.table_message(), label="Draw")
    assert t("en", "error.table_moved_on") in ephemeral_text(refused)
    assert len(driver.state().racks[seat]) == rack + 1
    assert driver.state().turn != seat
    assert driver.query("SELECT COUNT(*) FROM actions WHERE game_id = ?", driver.game_id)[0] == (1,)
    driver.assert_table_shows_only_the_table()


async def test_a_move_of_this_process_after_the_click_s_read_makes_the_click_stale(
    simcord_env, simcord_bot, database, monkeypatch
) -> None:
    """A timer of this process runs the turn out between the click's read and its move: the move
    made from the stale read is refused by the commit's version check, and the game read again
    says the draw is no longer the drawer's (the click's version check, as if it came now)."""
    driver = RummikubDriver(simcord_env, database)
    await driver.open(turn_timeout="1h")  # no away day: the timeout plays
    seat = driver.state().turn
    rack = len(driver.state().racks[seat])
    bot = simcord_bot
    (expiry,) = [timer for timer in await bot.store.timers.timers(driver.game_id) if timer.kind == "expire"]

    async def the_turn_runs_out() -> None:
        await bot.tables.fire(expiry)

    after_the_click_s_read(monkeypatch, bot.tables, the_turn_runs_out)
    reads = count_reads(monkeypatch)
    commits = []
    commit = Games.commit

    async def counted_commit(store: Store, *args: Any) -> int:
        commits.append(args)
        return await commit(store, *args)

    monkeypatch.setattr(Games, "commit", counted_commit)
    refused = await driver.members[seat].click(driver.table_message(), label="Draw")
    assert t("en", "error.table_moved_on") in ephemeral_text(refused)
    # The click's read, the timer's, the move's again once its commit was refused, and the table
    # shown; the timer's commit, and the click's, refused.
    assert len(reads) == 4 and len(commits) == 2
    assert len(driver.state().racks[seat]) == rack + 1
