"""A bot process holding some of Discord's shards runs the games of its shards' servers only."""

from __future__ import annotations

import pytest

from bot.client import ShardedGameBot
from bot.store import Store
from tests.bot.bue_driver import BueDriver
from tests.store_games import lobby_row, open_lobby, start

# A server on shard 0 of 2, which the bot under test does not hold.
OTHER_SHARDS_GUILD = 6 << 22


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(shard_count=2, shard_ids=(1,))


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
# The commands are synced by the process holding shard 0, not by this one: SimCord registers them.
@pytest.mark.simcord(strict_sync=False)
async def test_a_process_times_out_the_games_of_its_shards_and_leaves_the_others(simcord_env, database):
    assert isinstance(simcord_env.bot, ShardedGameBot)
    # Another process's game, on the same database, its turn timer as due as ours; a state no
    # engine could load, so that loading it at start-up would fail the test.
    other_process = await Store.open(database)
    try:
        row = lobby_row(channel=1, guild=OTHER_SHARDS_GUILD, seed=1)
        theirs = await open_lobby(other_process, row, [(1, "anna", "en")])
        dealt = await start(other_process, theirs, {"not": "loaded"}, [(0, "expire", "swap", 0.0)])
        driver = BueDriver(simcord_env, database, players=2, shard=1)
        await driver.open(turn_timeout="1h")
        (opened,) = driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)
        await simcord_env.advance_time(3600 + 1)
        assert driver.query(
            "SELECT COUNT(*) FROM actions WHERE game_id = ? AND by_timeout = 1", driver.game_id
        )
        assert driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0] > opened
        their_timers = await other_process.timers.timers(theirs)
        assert [(timer.seat, timer.due_at) for timer in their_timers] == [(0, 0.0)]
        assert await other_process.games.game(theirs) == dealt
        # Nor did it announce their lobby or deal.
        owed = [
            pending.version for pending in await other_process.outbox.pending() if pending.game_id == theirs
        ]
        assert owed == [0, dealt.version]
    finally:
        await other_process.close()
