"""Issue 19's broken states and exactly-once deliveries: a match its deal decides, computers after
a crash, the outbox's parts sent again after a crash."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot import publisher as publisher_module
from bot import referee, timers
from bot.outbox import part_nonce
from bot.publisher import Publisher
from bot.store import GameRow, Pending, Store, TimerRow
from bot.store.games import Games
from bot.store.outbox import Outbox
from bot.timers import TimerService
from games.bue import Bue
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import NAMES, components, refuse_edits
from tests.bot.test_computers import PAUSE, let_computers_play, open_with_computers
from tests.bot.test_rummikub_play import RummikubDriver

# A finished match draws its chart, the first of its process loading matplotlib; a computer
# searches its Rummikub play: on a busy machine that takes longer than SimCord's 5 s to settle.
pytestmark = pytest.mark.simcord(settle_timeout=30)

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
    assert driver.query("SELECT seat, feat FROM feats") == [(0, "bue")]  # it counts for /stats
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


async def test_a_computer_due_when_the_bot_died_moves_within_its_pause_after_the_restart(
    simcord_env, database, make_bot, monkeypatch
):
    driver = BueDriver(simcord_env, database, players=1)
    await open_with_computers(driver, 1)
    assert 1 not in driver.state().to_act()
    moves = driver.query("SELECT COUNT(*) FROM actions WHERE seat = 1")[0][0]

    def dies_while_it_moves(table, seat, context) -> None:
        raise asyncio.CancelledError  # the process is killed: nothing of it runs any more

    with monkeypatch.context() as patch:
        patch.setattr(referee, "_robot_move", dies_while_it_moves)
        await driver.play_one(random.Random(3))
        assert 1 in driver.state().to_act()
        await simcord_env.advance_time(PAUSE + 0.1)
        # The computer's move was taken by the process, which dies before making it.
        claimed = "SELECT COUNT(*) FROM timers WHERE kind = 'robot' AND claimed_until IS NOT NULL"
        assert driver.query(claimed)[0][0] == 1
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(PAUSE)
    assert driver.query("SELECT COUNT(*) FROM actions WHERE seat = 1")[0][0] > moves


class ClaimingStore:
    """The timer queries of a store, for one due timer; ``renewed`` is set once a claim is renewed."""

    def __init__(self, timer: TimerRow) -> None:
        self.timers = [timer]
        self.renewed = asyncio.Event()

    async def due_timers(self, now: float) -> list[TimerRow]:
        due, self.timers = self.timers, []
        return due

    async def renew_claims(self, timers: list[TimerRow], now: float) -> None:
        self.renewed.set()

    async def next_due(self) -> float | None:
        return None


async def test_the_claims_of_timers_being_fired_are_renewed_until_the_work_is_done(monkeypatch):
    monkeypatch.setattr(timers, "RENEW_EVERY", 0.0)
    store = ClaimingStore(TimerRow(1, 0, "robot", "deck,swap", 0.0))
    fired: list[TimerRow] = []

    async def thinks_long(timer: TimerRow) -> None:
        # Longer than a lease: the work ends only once the claim was renewed meanwhile.
        await store.renewed.wait()
        fired.append(timer)

    service = TimerService(store, thinks_long)  # type: ignore[arg-type]
    service.poke()
    await asyncio.wait_for(service._task, timeout=60)
    assert fired == [TimerRow(1, 0, "robot", "deck,swap", 0.0)]


async def test_a_stopped_timer_loop_claims_nothing_when_a_move_pokes_it_on_the_way_out():
    """The claims a starting process missed (issue 30): its predecessor, shutting down, had a
    move commit after its timers' loop was stopped; the move's poke started the loop again, which
    claimed a computer's move after the successor had taken its predecessor's claims back. That
    claim then held the computer's move for a whole lease."""
    store = ClaimingStore(TimerRow(1, 0, "robot", "deck,swap", 0.0))
    fired: list[TimerRow] = []

    async def fire(timer: TimerRow) -> None:
        fired.append(timer)

    service = TimerService(store, fire)  # type: ignore[arg-type]
    service.stop()
    service.poke()
    await asyncio.sleep(0)
    assert service._task is None
    assert fired == [] and store.timers == [TimerRow(1, 0, "robot", "deck,swap", 0.0)]


# ---------------------------------------------------------------------- exactly once


async def rummikub_with_its_first_draw_to_come(
    simcord_env: Any, database: Any
) -> tuple[RummikubDriver, int, str]:
    """A two-player Rummikub just begun: the driver, the seat to move, and the line its Draw posts."""
    driver = RummikubDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    return driver, seat, f"**{NAMES[seat]}** drew a tile"


def lines_with(driver: RummikubDriver, text: str) -> int:
    return sum(text in message.content for message in driver.channel.history())


def spy_on_sends(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str, Any]]:
    """(channel id, text and embed titles, nonce) of every message the bot sends from now on, as
    discord.py is asked for it (SimCord, like most of Discord's stand-ins, drops the nonce)."""
    sent: list[tuple[int, str, Any]] = []
    send = discord.abc.Messageable.send

    async def spied(self: Any, content: Any = None, **kwargs: Any) -> Any:
        channel = await self._get_channel()
        titles = [embed.title or "" for embed in kwargs.get("embeds") or ()]
        sent.append((channel.id, str(content or "") + "".join(titles), kwargs.get("nonce")))
        return await send(self, content, **kwargs)

    monkeypatch.setattr(discord.abc.Messageable, "send", spied)
    return sent


async def test_a_part_sent_again_after_a_crash_carries_the_nonce_it_was_first_sent_with(
    simcord_env, database, make_bot, monkeypatch
):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    sent = spy_on_sends(monkeypatch)

    async def killed_before_marking(self, pending, part) -> None:
        raise asyncio.CancelledError  # the process dies between sending a part and marking it sent

    with monkeypatch.context() as patch:
        patch.setattr(Outbox, "mark_delivered", killed_before_marking)
        await driver.members[seat].click(driver.table_message(), label="Draw")
    (first,) = [nonce for channel, text, nonce in sent if drew in text]
    await simcord_env.restart_bot(make_bot())

    lines = [(channel, nonce) for channel, text, nonce in sent if drew in text]
    assert lines == [(driver.channel.id, first), (driver.channel.id, first)]
    assert isinstance(first, str) and len(first) <= 25
    # Each part has its own nonce: the drawer's DM (sent once, after the restart) is another.
    (dm,) = [nonce for channel, _, nonce in sent if channel == driver.members[seat].user.dm_channel.id]
    assert dm not in (None, first) and len(dm) <= 25
    # And the next move's parts are others again.
    await driver.members[1 - seat].click(driver.table_message(), label="Draw")
    assert sent[-1][2] not in (None, first, dm)


async def test_a_table_message_posted_again_after_a_crash_carries_the_nonce_it_was_first_posted_with(
    simcord_env, database, make_bot, monkeypatch
):
    driver, seat, _ = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    simcord_env.backend.delete_message(driver.channel.id, driver.table_id())  # by a moderator
    sent = spy_on_sends(monkeypatch)

    async def killed_before_keeping_it(self, game_id, message_id) -> None:
        raise asyncio.CancelledError  # the process dies between posting the table and keeping its id

    with monkeypatch.context() as patch:
        patch.setattr(Games, "set_message", killed_before_keeping_it)
        await driver.members[seat].slash(driver.channel, "rummikub draw")
    await simcord_env.restart_bot(make_bot())

    tables = [nonce for _, text, nonce in sent if text.startswith("Rummikub")]
    assert len(tables) == 2 and tables[0] == tables[1] and len(tables[0]) <= 25


async def test_what_a_timer_or_click_delivered_while_start_up_waited_for_the_lock_is_not_told_again(
    simcord_env, database, make_bot, monkeypatch
):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    with monkeypatch.context() as patch:
        patch.setattr(Publisher, "deliver", no_announcements)
        await driver.members[seat].click(driver.table_message(), label="Draw")
        # The restarted bot delivers nothing by itself: the test runs its start-up delivery.
        patch.setattr(Publisher, "deliver_pending", no_announcements)
        await simcord_env.restart_bot(make_bot())
    tables = simcord_env.bot.tables
    read = asyncio.Event()
    listed = Outbox.pending

    async def listed_then_waits(self: Store) -> list:
        pending = await listed(self)
        read.set()
        return pending

    monkeypatch.setattr(Outbox, "pending", listed_then_waits)
    # A timer (or a click) holds the game when the start-up delivery has just listed what is owed.
    async with tables.lock(driver.game_id):
        start_up = asyncio.create_task(tables.publisher.deliver_pending())
        await read.wait()
        # Delivers what the crash left, as a change does first.
        await tables.publisher.settled(await tables.read(driver.game_id))
    await start_up
    await simcord_env.settle()
    assert lines_with(driver, drew) == 1


async def no_announcements(*args: Any, **kwargs: Any) -> None:
    return None


async def test_after_a_kill_between_a_rummikub_play_and_its_announcements_the_next_player_is_called(
    simcord_env, database, make_bot, monkeypatch
):
    # Anna, a computer after her, then Bruno: the computer moves as soon as the bot is back.
    driver = RummikubDriver(simcord_env, database, players=2)
    anna, bruno = driver.members
    await anna.slash(driver.channel, "rummikub start", computers=1, computer_level="hard")
    await bruno.click(driver.channel.last_message, label="Join")
    await anna.click(driver.channel.last_message, label="Begin")
    driver.game_id = driver.query("SELECT MAX(id) FROM games")[0][0]
    while driver.state().turn != 0:
        await let_computers_play(driver, simcord_env)
        if driver.state().turn == 2:
            await bruno.click(driver.table_message(), label="Draw")
    game = driver.state()
    game.racks[0] = ["r10", "r11", "r12", "k5", "b5", "o5", "k1", "k2"]
    driver.arrange(game)

    with monkeypatch.context() as patch:
        # Killed right after the commit: nothing announced, and no timer of it runs any more.
        patch.setattr(Publisher, "deliver", no_announcements)
        patch.setattr(TimerService, "poke", lambda self, earliest=None: None)
        await anna.slash(driver.channel, "rummikub play", tiles="r10 r11 r12")
        assert driver.state().turn == 1
        # The bot stays down past the computer's pause: its move is due when the bot starts.
        await simcord_env.advance_time(PAUSE + 0.1)
    await simcord_env.restart_bot(make_bot())
    await let_computers_play(driver, simcord_env)

    assert driver.state().turn == 2
    lines = [message.content for message in driver.channel.history()]
    opened = [line for line in lines if "**anna** opens with" in line]
    assert len(opened) == 1
    assert f"<@{bruno.id}>: your move" in driver.channel.last_message.content


def test_a_nonce_names_one_part_of_one_publication_of_one_game_in_25_characters_at_most():
    row = GameRow(7, "bue", 1, 2, 3, "running", {}, 60, "en", 1234, None, 5, None)
    pending = Pending(7, 5, {}, frozenset())
    nonce = part_nonce(row, pending, "channel")
    assert nonce == part_nonce(row, Pending(7, 5, {}, frozenset({"dm:0"})), "channel")  # stable
    assert len(nonce) <= 25
    others = {
        part_nonce(row, pending, "dm:0"),
        part_nonce(row, pending, "table"),
        part_nonce(row, Pending(7, 6, {}, frozenset()), "channel"),
        # The same ids in a database made anew: another game, another seed.
        part_nonce(replace(row, seed=99), pending, "channel"),
    }
    assert nonce not in others and len(others) == 4


# ---------------------------------------------------------------------- Discord failing for a while


# Retries spaced beyond SimCord's settling, so that only ``advance_time`` brings them on.
SLOW_RETRIES = (60.0, 600.0, 3600.0)


@pytest.fixture
def slow_retries(monkeypatch: pytest.MonkeyPatch) -> tuple[float, ...]:
    monkeypatch.setattr(publisher_module, "RETRY_DELAYS", SLOW_RETRIES)
    return SLOW_RETRIES


async def test_a_move_whose_announcement_discord_failed_to_take_is_announced_once_it_is_back(
    simcord_env, database, caplog, slow_retries
):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    channel_posts = f"/channels/{driver.channel.id}/messages"
    simcord_env.inject_error("POST", channel_posts, status=503, times=1)
    await driver.members[seat].click(driver.table_message(), label="Draw")
    # The move is played and answered; its line waits, pending, without a traceback of its own.
    assert driver.state().turn != seat
    assert lines_with(driver, drew) == 0
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 1
    assert "deferred" in caplog.text
    await simcord_env.advance_time(slow_retries[0] + 0.1)
    assert lines_with(driver, drew) == 1
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
    # The drawer's rack came by DM once too.
    assert len(driver.dm_messages(seat)) == 2  # the deal's rack, then the rack after the draw
    await simcord_env.advance_time(sum(slow_retries))
    assert lines_with(driver, drew) == 1


async def test_a_move_tells_first_what_discord_failed_to_take_before_it(simcord_env, database, slow_retries):
    driver, first, _ = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    simcord_env.inject_error("POST", f"/channels/{driver.channel.id}/messages", status=500, times=1)
    await driver.members[first].click(driver.table_message(), label="Draw")
    await driver.members[1 - first].click(driver.table_message(), label="Draw")
    lines = [message.content for message in driver.channel.history() if "drew a tile" in message.content]
    assert [NAMES[first] in lines[0], NAMES[1 - first] in lines[1], len(lines)] == [True, True, 2]
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
    await simcord_env.advance_time(sum(slow_retries))
    assert sum("drew a tile" in message.content for message in driver.channel.history()) == 2


async def test_announcements_discord_keeps_failing_stay_pending_for_the_next_start(
    simcord_env, database, make_bot, caplog, slow_retries
):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    simcord_env.inject_error("POST", f"/channels/{driver.channel.id}/messages", status=502, times=None)
    await driver.members[seat].click(driver.table_message(), label="Draw")
    await simcord_env.advance_time(sum(slow_retries) + 1)
    assert f"still pending after {len(slow_retries)} tries" in caplog.text
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 1
    simcord_env.backend.faults.clear()
    await simcord_env.restart_bot(make_bot())
    assert lines_with(driver, drew) == 1


async def test_a_refusal_is_not_tried_again(simcord_env, database, slow_retries):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    simcord_env.inject_error(
        "POST", f"/channels/{driver.channel.id}/messages", status=403, code=50013, times=1
    )
    await driver.members[seat].click(driver.table_message(), label="Draw")
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
    await simcord_env.advance_time(sum(slow_retries))
    assert lines_with(driver, drew) == 0


async def test_a_table_edit_discord_failed_to_take_is_made_again_with_the_announcements(
    simcord_env, database, slow_retries
):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    refuse_edits(simcord_env, driver.channel.id, driver.table_id(), status=500)
    await driver.members[seat].slash(driver.channel, "rummikub draw")
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 1
    assert lines_with(driver, drew) == 0
    await simcord_env.advance_time(slow_retries[0] + 0.1)
    assert lines_with(driver, drew) == 1
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
    assert "77 tiles" in driver.table_message().embeds[0].footer.text


async def test_a_timer_whose_firing_fails_is_dropped_and_changes_nothing(
    simcord_env, database, monkeypatch, caplog
):
    driver = BueDriver(simcord_env, database, players=2)
    await driver.open(turn_timeout="1h")
    before = driver.state()
    tables = simcord_env.bot.tables
    drops: list[str] = []  # each timer dropped
    drop = tables.store.timers.drop_timer

    async def dropped(timer: TimerRow) -> None:
        drops.append(timer.kind)
        await drop(timer)

    ruled = referee._due

    def broken(table: Any, order: referee.Due, context: Any) -> Any:
        if order.timer.kind == "expire":
            raise RuntimeError("a bug in the expiry")
        return ruled(table, order, context)

    monkeypatch.setattr(tables.store.timers, "drop_timer", dropped)
    monkeypatch.setattr(referee, "_due", broken)
    with caplog.at_level("ERROR"):
        await simcord_env.advance_time(3600 + 1)  # the reminder at half time, then the expiry
    # The reminder is a change of its own (its line, its timer gone); the expiry failed, dropped.
    assert drops == ["expire"]
    assert "failed; dropping it" in caplog.text
    expiries = driver.query("SELECT kind FROM timers WHERE game_id = ? AND kind = 'expire'", driver.game_id)
    assert expiries == []  # never fired again and again
    assert driver.state().to_json() == before.to_json()
