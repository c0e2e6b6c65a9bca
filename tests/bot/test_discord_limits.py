"""Issue 30: what real Discord refuses over a day of play, and how the bot gets round it.

Discord caps the edits of a message older than an hour (30046), and refuses DMs opened too fast
(40003) or rate-limited (429): the table is posted anew and the old one retired, the refused is
tried again later, and only a closed DM (50007) is said to be closed.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
import pytest

from bot import publisher as publisher_module
from bot.outbox import TABLE_PART
from bot.refusals import REPOST_AGE
from bot.store import Store
from bot.store.games import Games
from bot.store.outbox import Outbox
from games.bue import Bue
from games.rumbugz import RumBugz
from games.rummikub import Rummikub
from games.seriebum import SerieBum
from tests.bot.driver import TableDriver, components, move_of, refuse_edits
from tests.bot.test_broken_states import SLOW_RETRIES, lines_with, rummikub_with_its_first_draw_to_come
from tests.bot.test_bue_play import ephemeral_text
from tests.bot.test_computers import PAUSE, let_computers_play
from tests.bot.test_rummikub_play import RummikubDriver

# Discord's answer to an edit of a message older than an hour, past its unpublished cap.
TOO_MANY_OLD_EDITS = {"status": 400, "code": 30046, "message": "Maximum number of edits reached"}
OPENING_DMS_TOO_FAST = {"status": 403, "code": 40003, "message": "You are opening direct messages too fast"}


@pytest.fixture
def slow_retries(monkeypatch: pytest.MonkeyPatch) -> tuple[float, ...]:
    monkeypatch.setattr(publisher_module, "RETRY_DELAYS", SLOW_RETRIES)
    return SLOW_RETRIES


def table_messages(driver: Any) -> list[Any]:
    """The channel's messages that show a table (its picture and its buttons)."""
    return [message for message in driver.channel.history() if message.embeds and components(message)]


def message_by_id(driver: Any, message_id: int) -> Any:
    return next(message for message in driver.channel.history() if message.id == message_id)


def assert_retired(driver: Any, message_id: int) -> None:
    old = message_by_id(driver, message_id)
    assert not components(old) and not old.embeds
    assert f"/{driver.table_id()})" in old.content and "moved to the bottom" in old.content


def discord_keeps_one_message_per_nonce(monkeypatch: pytest.MonkeyPatch) -> None:
    """As Discord does for a message sent again with an enforced nonce (SimCord drops nonces): the
    first message sent with it is answered again, and nothing new is posted."""
    sent: dict[str, Any] = {}
    send = discord.abc.Messageable.send

    async def once(self: Any, content: Any = None, **kwargs: Any) -> Any:
        nonce = kwargs.get("nonce")
        if nonce is not None and nonce in sent:
            return sent[nonce]
        message = await send(self, content, **kwargs)
        if nonce is not None:
            sent[nonce] = message
        return message

    monkeypatch.setattr(discord.abc.Messageable, "send", once)


# ---------------------------------------------------------------------- the table


async def test_a_table_edit_refused_with_30046_posts_the_table_anew_once_and_retires_the_old_one(
    simcord_env, database, caplog
):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    old = driver.table_id()
    refuse_edits(simcord_env, driver.channel.id, old, **TOO_MANY_OLD_EDITS)
    await driver.members[seat].slash(driver.channel, "rummikub draw")

    new = driver.table_id()
    assert new != old and [message.id for message in table_messages(driver)] == [new]
    assert_retired(driver, old)
    assert "77 tiles" in driver.table_message().embeds[0].footer.text
    # The line of the move, and the call of the next player, come below it and point to it.
    (line,) = [message for message in driver.channel.history() if drew in message.content]
    assert line.id > new and f"/{new})" in line.content
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0

    # The next move edits the new table in place: no other post.
    await driver.members[1 - seat].click(driver.table_message(), label="Draw")
    assert driver.table_id() == new and len(table_messages(driver)) == 1
    assert "76 tiles" in driver.table_message().embeds[0].footer.text
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


async def test_a_table_older_than_the_rule_is_posted_anew_before_an_edit_is_refused(simcord_env, database):
    driver, seat, _ = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    old = driver.table_id()
    await simcord_env.advance_time(REPOST_AGE + 1)
    cursor = len(simcord_env.backend.http_requests)
    await driver.members[seat].click(driver.table_message(), label="Draw")

    new = driver.table_id()
    assert new != old and [message.id for message in table_messages(driver)] == [new]
    assert_retired(driver, old)
    # The old table was never asked to show the move: its only edit retired it.
    edits = [
        entry.json
        for entry in simcord_env.backend.http_requests[cursor:]
        if entry.method == "PATCH" and entry.path.endswith(f"/messages/{old}")
    ]
    assert len(edits) == 1 and "moved to the bottom" in edits[0]["content"]


async def test_a_crash_between_the_new_table_and_its_mark_does_not_post_it_twice(
    simcord_env, database, make_bot, monkeypatch
):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    old = driver.table_id()
    refuse_edits(simcord_env, driver.channel.id, old, **TOO_MANY_OLD_EDITS)
    marked = Outbox.mark_delivered

    async def killed_before_marking_the_table(self: Store, pending: Any, part: str) -> Any:
        if part == TABLE_PART:
            raise asyncio.CancelledError  # the process dies: its id is kept, the part not marked
        return await marked(self, pending, part)

    with monkeypatch.context() as patch:
        patch.setattr(Outbox, "mark_delivered", killed_before_marking_the_table)
        await driver.members[seat].slash(driver.channel, "rummikub draw")
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 1
    await simcord_env.restart_bot(make_bot())

    assert [message.id for message in table_messages(driver)] == [driver.table_id()]
    assert lines_with(driver, drew) == 1
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0


async def test_a_crash_between_the_new_table_and_keeping_its_id_posts_it_once_by_its_nonce(
    simcord_env, database, make_bot, monkeypatch
):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    old = driver.table_id()
    discord_keeps_one_message_per_nonce(monkeypatch)
    refuse_edits(simcord_env, driver.channel.id, old, **TOO_MANY_OLD_EDITS)

    async def killed_before_keeping_it(self: Store, game_id: int, message_id: int) -> None:
        raise asyncio.CancelledError

    with monkeypatch.context() as patch:
        patch.setattr(Games, "set_message", killed_before_keeping_it)
        await driver.members[seat].slash(driver.channel, "rummikub draw")
    await simcord_env.restart_bot(make_bot())

    assert driver.table_id() != old
    assert [message.id for message in table_messages(driver)] == [driver.table_id()]
    assert lines_with(driver, drew) == 1


async def test_an_old_table_discord_will_not_edit_is_deleted_when_it_is_retired(simcord_env, database):
    driver, seat, _ = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    old_message = driver.table_message()
    # Discord refuses to show the move on the old table, and to retire it by an edit: it is
    # deleted, so that no button of a table that moved on is left to click.
    refuse_edits(simcord_env, driver.channel.id, old_message.id, times=2, **TOO_MANY_OLD_EDITS)
    await driver.members[seat].slash(driver.channel, "rummikub draw")
    assert old_message.id not in [message.id for message in driver.channel.history()]
    assert [message.id for message in table_messages(driver)] == [driver.table_id()]
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0


async def test_old_buttons_answer_with_the_current_table(simcord_env, database):
    driver, seat, _ = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    old_message = driver.table_message()
    # Discord refuses to show the move on the old table, and to retire it, by an edit or by
    # deleting it (a permission lost since): its buttons stay.
    refuse_edits(simcord_env, driver.channel.id, old_message.id, times=2, **TOO_MANY_OLD_EDITS)
    where = f"/channels/{driver.channel.id}/messages/{old_message.id}"
    simcord_env.inject_error("DELETE", where, status=403, code=50013, message="Missing Permissions")
    await driver.members[seat].slash(driver.channel, "rummikub draw")
    old_message = message_by_id(driver, old_message.id)
    assert components(old_message)

    # The other player's decision began after the old table was drawn: they are shown the current one.
    answer = await driver.members[1 - seat].click(old_message, label="Draw")
    text = ephemeral_text(answer)
    assert "moved on" in text and text.endswith(f"/{driver.table_id()}")
    assert driver.state().turn == 1 - seat  # nothing was played from the old table


async def test_a_table_edit_rate_limited_is_made_again_later(simcord_env, database, slow_retries, caplog):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    refuse_edits(
        simcord_env, driver.channel.id, driver.table_id(), status=429, message="You are being rate limited."
    )
    await driver.members[seat].slash(driver.channel, "rummikub draw")
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 1
    await simcord_env.advance_time(slow_retries[0] + 0.1)
    assert "77 tiles" in driver.table_message().embeds[0].footer.text
    assert lines_with(driver, drew) == 1 and len(table_messages(driver)) == 1
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    # A deferral is no bug: one line says so, with what Discord answered, and no traceback.
    (deferred,) = [record for record in caplog.records if "deferred" in record.getMessage()]
    assert deferred.levelno == logging.WARNING and deferred.exc_info is None
    assert "429" in deferred.getMessage()


def counted_calls(env: Any, since: int) -> list[str]:
    """The REST calls made since ``since`` that Discord counts against the bot's global limit:
    all but interaction responses and follow-ups (``/interactions/...``, ``/webhooks/...``)."""
    return [
        f"{entry.method} {entry.path}"
        for entry in env.backend.http_requests[since:]
        if not entry.path.startswith(("/interactions/", "/webhooks/"))
    ]


async def test_a_draw_clicked_on_the_table_is_answered_with_the_table_and_makes_two_counted_calls(
    simcord_env, database
):
    driver, seat, drew = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    cursor = len(simcord_env.backend.http_requests)
    answer = await driver.members[seat].click(driver.table_message(), label="Draw")

    # The click's answer is the table, the move shown; what the player drew follows, privately.
    assert "77 tiles" in answer.response.embeds[0].footer.text and not answer.response.ephemeral
    assert "77 tiles" in driver.table_message().embeds[0].footer.text
    assert "You drew" in ephemeral_text(answer)
    dm = driver.members[seat].user.dm_channel.id
    assert sorted(counted_calls(simcord_env, cursor)) == sorted(
        [f"POST /channels/{driver.channel.id}/messages", f"POST /channels/{dm}/messages"]
    )
    assert lines_with(driver, drew) == 1


# ---------------------------------------------------------------------- the lobby


async def test_a_lobby_refresh_refused_with_30046_answers_cleanly_and_posts_the_lobby_anew(
    simcord_env, database, caplog
):
    driver = RummikubDriver(simcord_env, database, players=1)
    host = driver.members[0]
    await host.slash(driver.channel, "rummikub start")
    lobby = driver.channel.last_message
    panel = await host.click(lobby, label="Computers")
    add = next(c for c in components(panel.response) if ":lobby_add:" in c.custom_id)
    refuse_edits(simcord_env, driver.channel.id, lobby.id, **TOO_MANY_OLD_EDITS)
    added = await host.select(panel.response, ["hard"], custom_id=add.custom_id)

    assert "Computer added" in added.response.content and "went wrong" not in added.response.content
    new_lobby = driver.channel.last_message
    assert new_lobby.id != lobby.id and "🤖" in new_lobby.embeds[0].fields[0].value
    assert any(component.label == "Begin" for component in components(new_lobby))
    old = message_by_id(driver, lobby.id)
    assert not components(old) and f"/{new_lobby.id})" in old.content
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]

    # The game begins from the lobby as it now stands.
    await host.click(new_lobby, label="Begin")
    driver.game_id = driver.query("SELECT MAX(id) FROM games")[0][0]
    assert driver.status() == "running" and driver.table_id() == new_lobby.id


# ---------------------------------------------------------------------- DMs


async def test_dms_opened_too_fast_are_sent_later_with_no_closed_dm_notice(
    simcord_env, database, slow_retries
):
    driver = RummikubDriver(simcord_env, database)
    anna, bruno = driver.members
    await anna.slash(driver.channel, "rummikub start")
    await bruno.click(driver.channel.last_message, label="Join")
    # The deal's DMs are opened too fast.
    simcord_env.inject_error("POST", "/users/@me/channels", **OPENING_DMS_TOO_FAST)
    await anna.click(driver.channel.last_message, label="Begin")
    driver.game_id = driver.query("SELECT MAX(id) FROM games")[0][0]

    assert not driver.dm_messages(0) and not driver.dm_messages(1)
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 1
    assert not any("direct messages" in message.content for message in driver.channel.history())
    assert driver.query("SELECT SUM(dm_notice_sent) FROM seats")[0][0] == 0
    assert driver.query("SELECT COUNT(*) FROM closed_dms")[0][0] == 0

    await simcord_env.advance_time(slow_retries[0] + 0.1)
    assert len(driver.dm_messages(1)) == 1 and len(driver.dm_messages(0)) == 1
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
    assert not any("direct messages" in message.content for message in driver.channel.history())


async def test_a_closed_dm_is_remembered_and_not_tried_at_every_hand(simcord_env, database):
    driver, seat, _ = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    other = 1 - seat
    dms = f"/channels/{driver.members[other].user.dm_channel.id}/messages"
    simcord_env.inject_error("POST", dms, status=403, code=50007, message="Cannot send", times=None)
    cursor = len(simcord_env.backend.http_requests)

    def tries() -> int:
        return sum(entry.path == dms for entry in simcord_env.backend.http_requests[cursor:])

    for turn in range(4):
        await driver.members[(seat + turn) % 2].click(driver.table_message(), label="Draw")
    assert tries() == 1  # their first draw found them closed; the second was not tried
    notices = [message for message in driver.channel.history() if "direct messages" in message.content]
    assert len(notices) == 1

    # Looking at their hand tries their DMs again at the next hand.
    await driver.members[other].slash(driver.channel, "rummikub hand")
    await driver.members[seat].click(driver.table_message(), label="Draw")
    await driver.members[other].click(driver.table_message(), label="Draw")
    assert tries() == 2


# ---------------------------------------------------------------------- a day


DAY_SEED = 4242
# The person's turns the day lasts: each runs out after its hour (they are slow), the computers'
# moves between them come at once; Discord refuses something at every one.
PERSON_TURNS = 3


def shown_version(message: Any) -> int:
    """The game version the table message's buttons were drawn at (what it shows)."""
    return max(int(c.custom_id.split(":")[2]) for c in components(message) if move_of(c.custom_id))


def seen_lines(driver: Any) -> list[str]:
    """The channel's lines, as a person reads them, but for the ids in mentions and links and the
    times of deadlines (two games, played one after the other, are compared) and the tables, which
    are checked apart."""
    return [
        re.sub(r"<@\d+>|<t:\d+:\w>|\(https://discord\S+\)|https://discord\S+", "", message.content)
        for message in driver.channel.history()
        if message.content and "moved to the bottom" not in message.content
    ]


async def play_a_day(env: Any, driver: Any, faults: bool) -> list[int]:
    """One person and two computers, the person's turns running out after an hour each, with
    Discord refusing an old message's edit (30046), rate limiting a post (429) and the opening of
    a DM (40003) at every turn when ``faults``. Returns the versions the person's turns began at."""
    env.bot.seed_source = lambda: DAY_SEED
    host = driver.members[0]
    name = driver.engine.name
    computers = min(2, driver.engine.max_players - 1)
    await host.slash(
        driver.channel,
        f"{name} start",
        computers=computers,
        computer_level="easy",
        turn_timeout="1h",
        stand_in=False,
    )
    driver.game_id = driver.query("SELECT MAX(id) FROM games")[0][0]
    await env.advance_time(REPOST_AGE)  # the lobby waits for its players a while
    channel_posts = f"/channels/{driver.channel.id}/messages"
    if faults:
        env.inject_error("POST", "/users/@me/channels", **OPENING_DMS_TOO_FAST)
    await host.click(driver.channel.last_message, label="Begin")
    turns: list[int] = []
    for _ in range(100):
        await let_computers_play(driver, env)
        if driver.status() != "running" or len(turns) == PERSON_TURNS:
            break
        if 0 not in driver.state().required_to_act():  # a choice the person may let go (a bid)
            await env.advance_time(PAUSE + 0.1)
            continue
        # The person's turn begins with a table that shows it, at the bottom of the tables.
        (version,) = driver.query("SELECT version FROM games WHERE id = ?", driver.game_id)[0]
        assert shown_version(driver.table_message()) == version
        assert table_messages(driver)[-1].id == driver.table_id()
        turns.append(version)
        if faults:
            refuse_edits(env, driver.channel.id, "*", **TOO_MANY_OLD_EDITS)
            env.inject_error("POST", channel_posts, status=429, message="You are being rate limited.")
        await env.advance_time(3600 + 1)
    await env.advance_time(600)  # what Discord refused last is tried again
    assert driver.query("SELECT COUNT(*) FROM outbox")[0][0] == 0
    return turns


@pytest.mark.simcord(settle_timeout=30)
@pytest.mark.parametrize("engine", [Bue, Rummikub, SerieBum, RumBugz], ids=lambda engine: engine.name)
async def test_a_simulated_day_with_discord_s_limits_loses_and_repeats_nothing(
    simcord_env, database, engine, caplog
):
    driver_type = type(f"{engine.name}Day", (TableDriver,), {"engine": engine})
    with caplog.at_level(logging.INFO):
        refused = driver_type(simcord_env, database, players=1)
        turns = await play_a_day(simcord_env, refused, faults=True)
        lines, hands = seen_lines(refused), len(refused.dm_messages(0))
        question = await refused.members[0].slash(refused.channel, f"{engine.name} abort")  # its day is over
        await refused.members[0].click(question.response, label="Abort")
        assert len(turns) >= 2
        assert "posted anew" in caplog.text and "deferred" in caplog.text
    # The same day (the same seed, the same moves), with nothing refused: the same lines, the
    # same hands, each once.
    reference = driver_type(simcord_env, database, players=1)
    await play_a_day(simcord_env, reference, faults=False)
    assert lines == seen_lines(reference)
    assert hands == len(reference.dm_messages(0)) > 0
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


async def test_a_join_in_a_lobby_older_than_the_rule_is_confirmed_and_the_lobby_posted_anew(
    simcord_env, database, caplog
):
    driver = RummikubDriver(simcord_env, database)
    anna, bruno = driver.members
    await anna.slash(driver.channel, "rummikub start")
    lobby = driver.channel.last_message
    await simcord_env.advance_time(REPOST_AGE + 1)
    joined = await bruno.click(lobby, label="Join")

    assert "You joined" in ephemeral_text(joined)
    new_lobby = driver.channel.last_message
    assert new_lobby.id != lobby.id and bruno.name in new_lobby.embeds[0].fields[0].value
    assert not components(message_by_id(driver, lobby.id))
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


async def test_an_abort_discord_will_not_edit_into_the_table_is_said_below(simcord_env, database, caplog):
    driver, _, _ = await rummikub_with_its_first_draw_to_come(simcord_env, database)
    refuse_edits(simcord_env, driver.channel.id, driver.table_id(), **TOO_MANY_OLD_EDITS)
    question = await driver.members[0].slash(driver.channel, "rummikub abort")
    answer = await driver.members[0].click(question.response, label="Abort")
    assert "went wrong" not in ephemeral_text(answer)
    assert driver.status() == "aborted"
    assert "game was closed" in driver.channel.last_message.content
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
