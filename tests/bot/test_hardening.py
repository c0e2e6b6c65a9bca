"""What a hostile or unlucky world does to the bot: crashes between a commit and its
announcements, stale and simultaneous clicks, other servers reaching in, forged input."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

import discord

from bot.__main__ import configure_logging
from bot.model import GameRow, Publication, SeatRow
from bot.playground.world import close_dms
from bot.publisher import Publisher
from bot.store import ChannelBusy, Store
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import NAMES, Opened, component_for, components
from tests.bot.forging import forge_click, forge_slash
from tests.bot.seriebum_driver import MemoryPlayers, SerieBumDriver
from tests.bot.test_bue_play import ephemeral_text
from tests.bot.test_rummikub_play import RummikubDriver


def channel_lines(driver, text: str) -> int:
    return sum(text in message.content for message in driver.channel.history())


def dm_count(driver, seat: int, text: str) -> int:
    return sum(text in message.content for message in driver.dm_messages(seat))


async def crash_after_commit(monkeypatch) -> None:
    """The process dies right after its next commit: nothing of it is announced."""

    async def killed(self, table, publication, **parts) -> None:
        return None

    monkeypatch.setattr(Publisher, "deliver", killed)


# ---------------------------------------------------------------------- crashes


async def test_a_move_saved_before_a_crash_is_announced_once_after_the_restart(
    simcord_env, database, make_bot, monkeypatch
):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    other = 1 - seat
    table_before = driver.table_message()
    pool_before = len(driver.state().pool)
    drawer_dms = len(driver.dm_messages(seat))

    with monkeypatch.context() as patch:
        await crash_after_commit(patch)
        await driver.members[seat].click(table_before, label="Draw")
    assert len(driver.state().pool) == pool_before - 1  # saved...
    assert channel_lines(driver, f"**{NAMES[seat]}** drew a tile") == 0  # ...but not announced

    await simcord_env.restart_bot(make_bot())
    assert channel_lines(driver, f"**{NAMES[seat]}** drew a tile") == 1
    assert f"<@{driver.members[other].id}>" in driver.channel.last_message.content
    assert len(driver.dm_messages(seat)) == drawer_dms + 1  # the drawer's new rack
    assert driver.table_message().id == table_before.id
    assert str(pool_before - 1) in driver.table_message().embeds[0].footer.text
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0

    # Nothing is sent twice, however often the bot restarts.
    await simcord_env.restart_bot(make_bot())
    assert channel_lines(driver, f"**{NAMES[seat]}** drew a tile") == 1
    assert len(driver.dm_messages(seat)) == drawer_dms + 1


async def test_a_begin_saved_before_a_crash_shows_the_table_and_deals_after_the_restart(
    simcord_env, database, make_bot, monkeypatch
):
    driver = BueDriver(simcord_env, database, players=2)
    with monkeypatch.context() as patch:
        await crash_after_commit(patch)
        await driver.open()
    assert driver.status() == "running"
    assert all(not driver.dm_messages(seat) for seat in range(2))

    await simcord_env.restart_bot(make_bot())
    assert driver.table_message().embeds[0].title.startswith("Bué")
    assert any(c.label == "Exchange" for c in components(driver.table_message()))
    for seat in range(2):
        assert dm_count(driver, seat, "Your new cards") == 1


async def test_a_finished_match_saved_before_a_crash_posts_its_results_after_the_restart(
    simcord_env, database, make_bot, monkeypatch
):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat, going_out = driver.arrange_going_out()
    with monkeypatch.context() as patch:
        await crash_after_commit(patch)
        await driver.members[seat].slash(driver.channel, "rummikub play", tiles=going_out)
    assert driver.state().finished

    await simcord_env.restart_bot(make_bot())
    results = [m for m in driver.channel.history() if any("wins" in (e.title or "") for e in m.embeds)]
    assert len(results) == 1
    assert any(c.label == "Rematch" for c in components(results[0]))


# ---------------------------------------------------------------------- stale clicks


async def test_the_waiting_players_draw_made_before_the_other_moved_is_refused(
    simcord_env, database, monkeypatch
):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    table = driver.table_message()
    waiting_draw = component_for(table, driver.game_id, "draw").custom_id  # what the waiter clicked
    stale = await simcord_env.bot.tables.read(driver.game_id)
    await driver.members[seat].click(table, label="Draw")
    after_move = driver.state().to_json()

    # The click reaches the bot after the move: refused, with the table as it now is.
    late = await forge_click(simcord_env, driver.members[1 - seat], driver.channel, table, waiting_draw)
    assert "moved on" in ephemeral_text(late)
    assert late.response.embeds
    # The click read the game just before the move was saved (by another process, say): it is
    # refused from that read, or its commit is, and the game read again refuses it as stale.
    read_before(monkeypatch, simcord_env.bot.tables, stale)
    queued = await forge_click(simcord_env, driver.members[1 - seat], driver.channel, table, waiting_draw)
    assert "moved on" in ephemeral_text(queued) or "not your turn" in ephemeral_text(queued)
    assert driver.state().to_json() == after_move

    # The table drawn after the move works.
    await driver.members[1 - seat].click(driver.table_message(), label="Draw")
    assert driver.state().turn == seat


def read_before(monkeypatch, tables, stale) -> None:
    """The next click's read of its game is ``stale``: made before a move that came first."""
    fresh = tables.read

    async def read(game_id: int):
        monkeypatch.setattr(tables, "read", fresh)
        return stale

    monkeypatch.setattr(tables, "read", read)


async def test_a_double_click_plays_once(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    table = driver.table_message()
    draw = component_for(table, driver.game_id, "draw").custom_id
    await driver.members[seat].click(table, label="Draw")
    after = driver.state().to_json()
    again = await forge_click(simcord_env, driver.members[seat], driver.channel, table, draw)
    assert "moved on" in ephemeral_text(again)
    assert driver.state().to_json() == after


async def test_a_forged_exchange_queued_behind_a_move_does_not_play(simcord_env, database, monkeypatch):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open()
    seat = driver.state().turn
    nxt = (seat + 1) % 3
    table = driver.table_message()
    deck = component_for(table, driver.game_id, "exchange").custom_id.replace(":exchange:", ":deck:") + "0"
    stale = await simcord_env.bot.tables.read(driver.game_id)
    await driver.exchange_with_deck(seat, 0)
    after = driver.state().to_json()
    read_before(monkeypatch, simcord_env.bot.tables, stale)
    refused = await forge_click(simcord_env, driver.members[nxt], driver.channel, table, deck)
    assert "moved on" in ephemeral_text(refused) or "not your turn" in ephemeral_text(refused)
    assert driver.state().to_json() == after


async def test_a_simultaneous_reveal_stays_open_to_who_has_not_chosen(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    while "reveal" not in next(iter(driver.state().to_act().values())):
        game = driver.state()
        await driver.exchange_with_deck(game.turn, 0)
    panels = [
        Opened(await driver.members[seat].click(driver.table_message(), label="Reveal a card"))
        for seat in (0, 1)
    ]
    await driver.members[0].click(
        panels[0].response, custom_id=driver.card_button(panels[0], "reveal_card", 0)
    )
    done = await driver.members[1].click(
        panels[1].response, custom_id=driver.card_button(panels[1], "reveal_card", 0)
    )
    assert "moved on" not in (done.response.content if done.response else "")
    assert driver.state().round == 2 or driver.state().game_number == 2


# ---------------------------------------------------------------------- other servers


async def test_another_servers_manager_cannot_cancel_and_its_members_cannot_join(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    host = driver.members[0]
    await host.slash(driver.channel, "bue start")
    lobby = driver.channel.last_message
    elsewhere = simcord_env.create_guild("elsewhere")
    their_channel = elsewhere.create_text_channel("general")
    mods = elsewhere.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    intruder = elsewhere.add_member(simcord_env.create_user("mallory"), roles=[mods])
    cancel = next(c.custom_id for c in components(lobby) if c.label == "Cancel")
    join = next(c.custom_id for c in components(lobby) if c.label == "Join")

    refused = await forge_click(simcord_env, intruder, their_channel, lobby, cancel)
    assert "another channel" in ephemeral_text(refused)
    refused = await forge_click(simcord_env, intruder, their_channel, lobby, join)
    assert "another channel" in ephemeral_text(refused)
    assert driver.query("SELECT status, (SELECT COUNT(*) FROM seats) FROM games")[0] == ("lobby", 1)


async def test_a_seated_player_cannot_move_from_another_server(simcord_env, database):
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    elsewhere = simcord_env.create_guild("elsewhere")
    their_channel = elsewhere.create_text_channel("general")
    same_person = elsewhere.add_member(driver.members[seat].user)
    draw = component_for(driver.table_message(), driver.game_id, "draw").custom_id
    before = driver.state().to_json()
    refused = await forge_click(simcord_env, same_person, their_channel, driver.table_message(), draw)
    assert "another channel" in ephemeral_text(refused)
    assert driver.state().to_json() == before


async def test_a_private_answer_never_edits_the_public_table(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    seat = driver.state().turn
    table = driver.table_message()
    exchange = component_for(table, driver.game_id, "exchange").custom_id
    deck = exchange.replace(":exchange:", ":deck:") + "0"
    answer = await forge_click(simcord_env, driver.members[seat], driver.channel, table, deck)
    assert "You drew" in ephemeral_text(answer)
    assert "You drew" not in (driver.table_message().content or "")
    assert driver.table_message().embeds[0].title.startswith("Bué")


# ---------------------------------------------------------------------- bad input


async def test_twenty_people_starting_at_once_open_one_lobby(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    lobby = GameRow(0, "bue", 1, 2, 0, "lobby", {"target": 110}, 3600, "en", 0, None, 0, None)
    try:
        starts = await asyncio.gather(
            *(
                store.games.create_lobby(
                    replace(lobby, host_id=user, seed=user),
                    [SeatRow(0, user, f"p{user}", "en-US", 0, False, False)],
                    Publication(),
                    0.0,
                )
                for user in range(20)
            ),
            return_exceptions=True,
        )
    finally:
        await store.close()
    assert sum(isinstance(start, int) for start in starts) == 1
    assert sum(isinstance(start, ChannelBusy) for start in starts) == 19


async def test_forged_ids_and_options_are_refused_without_a_traceback(simcord_env, database, caplog):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open()
    seat = driver.state().turn
    member = driver.members[seat]
    table = driver.table_message()
    version = component_for(table, driver.game_id, "exchange").custom_id.split(":")[2]
    before = driver.state().to_json()
    forged = [
        (f"gm:{2**63}:{version}:exchange:", None),
        (f"gm:{10**19 - 1}:{version}:exchange:", None),
        (f"gm:{driver.game_id}:{version}:deck:x.y.z", None),
        (f"gm:{driver.game_id}:{version}:deck:²", None),
        (f"gm:{driver.game_id}:{version}:take:0.9", None),
        (f"gm:{driver.game_id}:{version}:give:", None),  # no card
        (f"gm:{driver.game_id}:{version}:give:abc", None),
        (f"gs:{driver.game_id}:{version}:give:0", ["abc"]),  # a button's id sent as a select
        (f"gm:{driver.game_id}:{version}:nosuchmove:", None),
    ]
    with caplog.at_level(logging.ERROR):
        for custom_id, values in forged:
            result = await forge_click(simcord_env, member, driver.channel, table, custom_id, values=values)
            assert result.response is not None, custom_id
            assert result.response.ephemeral, custom_id
            assert "went wrong" not in result.response.content, custom_id
        bad_target = await member.slash(
            driver.channel, "bue abort"
        )  # the host aborts below; first, bad options
        assert bad_target.response.ephemeral
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert driver.state().to_json() == before or driver.status() == "aborted"


async def test_no_log_level_writes_a_hand():
    configure_logging("DEBUG")
    try:
        for name in ("discord.http", "discord.gateway"):
            assert not logging.getLogger(name).isEnabledFor(logging.DEBUG)
    finally:
        configure_logging("INFO")


async def test_a_serie_bum_player_with_closed_dms_is_pointed_at_what_exists(simcord_env, database):
    driver = SerieBumDriver(simcord_env, database)
    bruno = driver.members[1]
    close_dms(simcord_env, bruno)
    await driver.open()
    players = MemoryPlayers()
    while not any("direct messages" in m.content for m in driver.channel.history()):
        await driver.play(players.next(driver.state()))
    notice = next(m.content for m in driver.channel.history() if "direct messages" in m.content)
    assert "My hand" not in notice
    assert "on the table" in notice


# ---------------------------------------------------------------------- cost of a move


def rest_calls_during(env, start: int) -> list[str]:
    return [f"{call.method} {call.path}" for call in env.http_requests[start:]]


async def test_a_draw_and_an_exchange_make_one_call_per_message_that_changed(simcord_env, database):
    rummikub = RummikubDriver(simcord_env, database)
    await rummikub.open()
    for _ in range(2):  # every player's DM channel is known after their first DM
        await rummikub.members[rummikub.state().turn].click(rummikub.table_message(), label="Draw")
    start = len(simcord_env.http_requests)
    seat = rummikub.state().turn
    await rummikub.members[seat].click(rummikub.table_message(), label="Draw")
    calls = rest_calls_during(simcord_env, start)
    # The answer (the table, edited by it), what was drawn (its follow-up), the channel's line, the
    # drawer's new rack: nothing else, and no edit of the table besides the answer.
    assert len(calls) == 4, calls
    assert sum(call.startswith("PATCH") for call in calls) == 0
    assert not [call for call in calls if call.startswith("GET") or "/users/" in call]

    bue = BueDriver(simcord_env, database, players=3)
    await bue.open()
    member = bue.members[bue.state().turn]
    start = len(simcord_env.http_requests)
    panel = Opened(await member.click(bue.table_message(), label="Exchange"))
    await member.click(panel.response, custom_id=bue.card_button(panel, "give", 0))
    await member.click(panel.response, label="The deck")
    calls = rest_calls_during(simcord_env, start)
    # The click on the table answered by its deferred update and the panel as its follow-up, two
    # panel steps, then the table (through the first click's token), the channel's line and the
    # new hand: of which Discord counts only the last two.
    assert len(calls) == 7, calls
    (edit,) = [call for call in calls if call.startswith("PATCH")]
    assert edit.startswith("PATCH /webhooks/") and edit.endswith("/messages/@original"), calls
    counted = [call for call in calls if not call.split(" ")[1].startswith(("/interactions/", "/webhooks/"))]
    assert len(counted) == 2, calls
    assert not [call for call in calls if call.startswith("GET") or "/users/" in call]


async def test_forged_slash_options_are_refused_without_a_traceback(simcord_env, database, caplog):
    driver = RummikubDriver(simcord_env, database)
    member = driver.members[0]
    with caplog.at_level(logging.ERROR):
        target = await forge_slash(member, driver.channel, "bue start", {"target": (4, "abc")})
        assert "must be a number" in ephemeral_text(target)
        level = await forge_slash(member, driver.channel, "bue start", {"computer_level": (3, "godlike")})
        assert "no computer level" in ephemeral_text(level)
        timeout = await forge_slash(member, driver.channel, "bue start", {"turn_timeout": (3, 90)})
        assert timeout.response.ephemeral is False  # 90 minutes, read as any typed "90"
        await member.click(driver.channel.last_message, label="Cancel")
        await driver.open()
        seat = driver.state().turn
        before = driver.state().to_json()
        tiles = await forge_slash(driver.members[seat], driver.channel, "rummikub play", {"tiles": (3, 5)})
        assert tiles.response.ephemeral
        assert driver.state().to_json() == before
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
