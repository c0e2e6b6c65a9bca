"""Bué end to end through the real bot (SimCord): what players see, and what they must not."""

from __future__ import annotations

import random
import re

import discord

from bot.playground.world import close_dms
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import NAMES, Opened, components
from tests.bot.forging import forge_click


def ephemeral_text(result) -> str:
    """The click's private answer. A click on the table is first answered with the table's own
    update (which everyone sees, as they saw its edit): the private answer follows it."""
    if isinstance(result, Opened):
        result = result.result
    messages = [result.response, *result.followups] if result.response else result.followups
    private = [message for message in messages if message.ephemeral]
    public = [message for message in messages if not message.ephemeral]
    assert private and all(message.id == result.response.id for message in public), (
        "expected an ephemeral answer"
    )
    return "\n".join(message.content for message in private)


async def test_a_full_three_player_match_to_the_target(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open(target=40)
    dealt = driver.state()

    # Every player got their hand by DM, and the image shows exactly their cards.
    for seat in range(3):
        (first_dm,) = driver.dm_messages(seat)
        assert "Your new cards" in first_dm.content
        shown = driver.image_faces(first_dm)
        assert shown == [card.code for card in dealt.cards_of(seat)]

    rng = random.Random(5)
    moves = 0
    while driver.status() == "running":
        await driver.play_one(rng)
        moves += 1
        driver.assert_table_shows_only_public_cards()
    game = driver.state()
    assert game.finished and max(game.totals()) >= 40
    winner = NAMES[game.winner()]

    final = driver.channel.last_message
    titles = [embed.title for embed in final.embeds]
    assert any(winner in title and "wins the match" in title for title in titles)
    assert any(component.children[0].label == "Rematch" for component in final.components)
    driver.assert_channel_has_no_private_lines()

    # The totals reached the leaderboard.
    board = await driver.members[0].slash(driver.channel, "leaderboard")
    assert winner in board.response.embeds[0].description
    assert moves > 10


async def test_a_player_only_learns_the_card_taken_and_the_channel_never_does(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open()
    game = driver.state()
    seat = game.turn
    partner = (seat + 1) % 3
    taken = game.cards_of(partner)[0].code
    given = game.cards_of(seat)[0].code
    result = await driver.exchange_with_player(seat, give=0, target=partner, take=0)

    assert result.response.ephemeral
    assert "You gave" in result.response.content
    partner_dm = driver.dm_messages(partner)[-1]
    assert "took your" in partner_dm.content
    # The third player is told only that an exchange happened.
    outsider = 3 - seat - partner
    assert all("took your" not in m.content for m in driver.dm_messages(outsider))
    announcement = driver.channel.last_message.content
    assert f"**{NAMES[seat]}** exchanged a card with **{NAMES[partner]}**" in announcement
    assert taken not in announcement or taken == given
    driver.assert_table_shows_only_public_cards()
    driver.assert_channel_has_no_private_lines()


async def test_the_game_survives_a_restart_and_finishes_with_the_same_buttons(
    simcord_env, database, make_bot
):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open(target=30)
    rng = random.Random(11)
    for _ in range(5):
        await driver.play_one(rng)
    while driver.state().turn is None:
        await driver.play_one(rng)
    before = driver.state().to_json()
    table_id = driver.table_message().id

    # A panel opened before the restart is used after it.
    game = driver.state()
    seat = game.turn
    member = driver.members[seat]
    panel = Opened(await member.click(driver.table_message(), label="Exchange"))
    await member.click(panel.response, custom_id=driver.card_button(panel, "give", 1))

    await simcord_env.restart_bot(make_bot())

    assert driver.state().to_json() == before
    done = await member.click(panel.response, label="The deck")
    assert "You drew" in done.response.content
    while driver.status() == "running":
        await driver.play_one(rng)
        table_id = driver.kept_table(table_id)  # posted anew only once the channel's lines bury it
    assert driver.state().finished


async def test_closed_dms_give_one_notice_and_the_game_goes_on(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    bruno = driver.members[1]
    close_dms(simcord_env, bruno)
    await driver.open()
    rng = random.Random(3)
    for _ in range(8):
        await driver.play_one(rng)

    notices = [m for m in driver.channel.history() if "can't send you direct messages" in m.content]
    assert len(notices) == 1
    assert bruno.mention in notices[0].content
    # Bruno still sees his cards, from the database, ephemerally.
    hand = await bruno.click(driver.table_message(), label="My hand")
    assert hand.response.ephemeral
    assert driver.image_faces(hand.response) == [card.code for card in driver.state().cards_of(1)]


async def test_a_turn_timeout_reminds_at_half_time_then_plays_the_default(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open(turn_timeout="2h")
    game = driver.state()
    seat = game.turn
    expected = game.default_action(seat)

    await simcord_env.advance_time(3600 + 1)
    reminder = driver.channel.last_message.content
    assert "half your time is gone" in reminder and driver.members[seat].mention in reminder
    assert re.search(r"runs out <t:\d+:R>", reminder)  # the deadline as each reader's clock shows it

    await simcord_env.advance_time(3600)
    after = driver.state()
    assert seat in after.exchanged or after.game_number > game.game_number
    timed_out = [m.content for m in driver.channel.history() if "ran out of time" in m.content]
    assert len(timed_out) == 1 and NAMES[seat] in timed_out[0]
    (last_action,) = driver.query(
        "SELECT action FROM actions WHERE game_id = ? AND by_timeout = 1", driver.game_id
    )
    assert expected["type"] in last_action[0]


async def test_timers_survive_a_restart(simcord_env, database, make_bot):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open(turn_timeout="1h")
    seat = driver.state().turn
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(3600 + 1)
    assert seat in driver.state().exchanged or driver.state().game_number > 1


async def test_simultaneous_reveal_times_out_for_those_who_did_not_choose(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open(turn_timeout="10m")
    rng = random.Random(2)
    while "reveal" not in next(iter(driver.state().to_act().values())):
        await driver.play_one(rng)
    first = min(driver.state().to_act())
    await driver.reveal(first, driver.state().hidden_positions(first)[0])
    assert first not in driver.state().to_act()
    await simcord_env.advance_time(601)
    game = driver.state()
    assert (game.phase == "exchange" and game.round == 2) or game.game_number > 1
    assert all(sum(slot.revealed for slot in hand) == 1 for hand in game.hands) or game.game_number > 1


async def test_a_second_game_in_a_busy_channel_is_refused_with_a_link(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    result = await driver.members[1].slash(driver.channel, "bue start")
    text = ephemeral_text(result)
    assert "already open in this channel" in text and "Bué" in text
    assert f"/{driver.channel.id}/{driver.table_message().id}" in text


async def test_a_thread_counts_as_its_own_channel(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    thread = driver.guild.create_text_channel("side-table")
    result = await driver.members[0].slash(thread, "bue start")
    assert not result.ephemeral
    assert "new game" in thread.last_message.embeds[0].title


async def test_only_the_player_whose_decision_it_is_can_act(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    outsider = driver.guild.add_member(simcord_env.create_user("zoe"))
    await driver.open()
    game = driver.state()
    waiting = next(seat for seat in range(3) if seat != game.turn)
    before = driver.state().to_json()

    not_playing = await outsider.click(driver.table_message(), label="Exchange")
    assert "not playing in this game" in ephemeral_text(not_playing)
    wrong_turn = await driver.members[waiting].click(driver.table_message(), label="Exchange")
    assert "not your turn" in ephemeral_text(wrong_turn)
    assert driver.state().to_json() == before


async def test_the_exchange_panel_is_a_button_per_hidden_card_under_the_hand(simcord_env, database):
    """No menu: in the playground's page a menu under the hand's picture closed as it opened
    (SimCord's preview draws the pictures again and the page shifts)."""
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    game = driver.state()
    seat = game.turn
    member = driver.members[seat]
    panel = Opened(await member.click(driver.table_message(), label="Exchange"))
    assert panel.response.attachments, "the hand's picture"
    offered = components(panel.response.message)
    assert all(c.type == discord.ComponentType.button for c in offered), "no menu"
    hidden = game.hidden_positions(seat)
    assert [c.label.split(":")[0] for c in offered] == [f"Card {p + 1}" for p in hidden]
    await member.click(panel.response, custom_id=driver.card_button(panel, "give", hidden[-1]))
    assert f"You give card {hidden[-1] + 1}" in panel.response.content


async def test_a_double_click_applies_once(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open()
    seat = driver.state().turn
    member = driver.members[seat]
    panel = Opened(await member.click(driver.table_message(), label="Exchange"))
    await member.click(panel.response, custom_id=driver.card_button(panel, "give", 0))
    buttons = [c for row in panel.response.message.components for c in row.children]
    deck_id = next(button.custom_id for button in buttons if button.label == "The deck")
    await member.click(panel.response, custom_id=deck_id)
    # The same button pressed again (another device, a slow network) is refused.
    again = await member.click(driver.table_message(), label="My hand")
    assert again.response.ephemeral
    log = driver.query("SELECT COUNT(*) FROM actions WHERE game_id = ?", driver.game_id)[0][0]
    assert log == 1


async def test_abort_is_for_the_host_or_channel_managers(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open()
    refused = await driver.members[1].slash(driver.channel, "bue abort")
    assert "Only the host" in ephemeral_text(refused)
    assert driver.status() == "running"

    managers = driver.guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    moderator = driver.guild.add_member(simcord_env.create_user("mod"), roles=[managers])
    question = await moderator.slash(driver.channel, "bue abort")
    assert question.response.ephemeral and "Abort this game?" in question.response.content
    kept = await moderator.click(question.response, label="Keep playing")
    assert kept.response.content == "The game goes on." and not kept.response.components
    assert driver.status() == "running"

    question = await moderator.slash(driver.channel, "bue abort")
    confirm = next(c.custom_id for c in components(question.response) if c.label == "Abort")
    forged = await forge_click(
        simcord_env, driver.members[1], driver.channel, driver.table_message(), confirm
    )
    assert "Only the host" in ephemeral_text(forged)
    assert driver.status() == "running"
    closed = await moderator.click(question.response, label="Abort")
    assert closed.response.content == "The game is closed." and not closed.response.components
    assert driver.status() == "aborted"
    assert "closed by" in driver.table_message().content
    assert driver.table_message().components == []
    again = await forge_click(simcord_env, moderator, driver.channel, driver.table_message(), confirm)
    assert "not running any more" in ephemeral_text(again)


async def test_an_illegal_swap_back_is_refused_and_changes_nothing(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    game = driver.state()
    first = game.turn
    second = 1 - first
    await driver.exchange_with_player(first, give=0, target=second, take=0)
    game = driver.state()
    if game.turn != second or game.round != 1:
        return  # a Bué ended the game at once; nothing to swap back
    before = game.to_json()
    # Swapping back the same two values: give the card just received, take the card given.
    result = await driver.exchange_with_player(second, give=0, target=first, take=0)
    assert "swap back the same two values" in ephemeral_text(result)
    assert driver.state().to_json() == before


async def test_leaving_mid_game_sets_the_cards_aside_and_play_goes_on(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open(stand_in=False)
    leaver = next(seat for seat in range(3) if seat != driver.state().turn)
    await driver.members[leaver].slash(driver.channel, "bue leave")
    game = driver.state()
    assert not game.active[leaver] and game.hands[leaver] == []
    assert "left the game" in driver.channel.last_message.content
    rng = random.Random(1)
    for _ in range(4):
        await driver.play_one(rng)
    assert leaver not in driver.state().to_act()


async def test_rematch_opens_a_lobby_with_the_same_players(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open(target=10)
    rng = random.Random(4)
    while driver.status() == "running":
        await driver.play_one(rng)
    await driver.members[1].click(driver.channel.last_message, label="Rematch")
    lobby = driver.channel.last_message
    players = lobby.embeds[0].fields[0].value
    assert all(member.name in players for member in driver.members)
    assert "Target: 10 points" in lobby.embeds[0].fields[1].value


async def test_hand_score_table_and_rules_commands(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    anna = driver.members[0]
    hand = await anna.slash(driver.channel, "bue hand")
    assert hand.ephemeral and driver.image_faces(hand.response) == [
        c.code for c in driver.state().cards_of(0)
    ]
    table = await anna.slash(driver.channel, "bue table")
    assert table.ephemeral and "Bué · game 1" in table.response.embeds[0].title
    score = await anna.slash(driver.channel, "bue score")
    assert "anna" in score.response.embeds[0].description
    rules = await anna.slash(driver.channel, "bue rules")
    assert "exactly 50" in rules.response.embeds[0].description
