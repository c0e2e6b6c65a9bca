from tests.bot.bue_driver import BueDriver
import random

async def test_look(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    for seat, zone in ((0, "Europe/Rome"), (1, "America/New_York")):
        await driver.members[seat].slash(driver.channel, "preferences timezone", value=zone)
        await driver.members[seat].slash(driver.channel, "preferences quiet_hours", value="23-08")
    await driver.open(clock="3d+12h")
    rng = random.Random(1)
    for _ in range(3):
        await driver.play_one(rng)
        print("MOVE", driver.table_message().id, [f.value for f in driver.table_message().embeds[0].fields[-1:]])
        await simcord_env.advance_time(3600 * 5)
        print("  +5h", driver.table_message().id, driver.query("SELECT message_id FROM games"), [f.value for f in driver.table_message().embeds[0].fields[-1:]])
        print("   last", driver.channel.last_message.content[:100], driver.channel.last_message.id)
