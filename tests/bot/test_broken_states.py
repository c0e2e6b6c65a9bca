"""Issue 19's broken states and exactly-once deliveries: a match its deal decides, computers after
a crash, the outbox's parts sent again after a crash."""

from __future__ import annotations

from games.bue import Bue
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import NAMES, components

# A two-player Bué match to 10 whose first deal is already a Bué of the first seat (50 points).
DECIDED_BY_ITS_DEAL = 1002


async def test_a_match_its_deal_decides_is_finished_rated_and_offers_a_rematch(simcord_env, database):
    game, _ = Bue.begin(2, {"target": 10}, DECIDED_BY_ITS_DEAL)
    assert game.finished and game.winner() == 0  # the seed still deals what this test is about
    simcord_env.bot.seed_source = lambda: DECIDED_BY_ITS_DEAL
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open(target=10)

    assert driver.status() == "finished"
    assert driver.query("SELECT COUNT(*) FROM timers")[0][0] == 0
    results = driver.query("SELECT entry, points, won FROM results ORDER BY seat")
    assert results == [(f"user:{driver.members[0].id}", 50, 1), (f"user:{driver.members[1].id}", 0, 0)]
    assert driver.query("SELECT COUNT(*) FROM ratings")[0][0] == 2
    assert driver.query("SELECT feat FROM feats")  # the Bué counts for /stats
    assert driver.query("SELECT COUNT(*) FROM round_totals")[0][0] == 2
    final = driver.channel.last_message
    assert any(NAMES[0] in (embed.title or "") and "wins the match" in embed.title for embed in final.embeds)
    assert any(component.label == "Rematch" for component in components(final))
    # The table shows the match over: no move is offered.
    assert not components(driver.table_message())

    # Rematch opens a new lobby: nothing holds the channel.
    lobby = await driver.members[1].click(final, label="Rematch")
    assert not lobby.response.ephemeral
    assert driver.query("SELECT status FROM games ORDER BY id") == [("finished",), ("lobby",)]
