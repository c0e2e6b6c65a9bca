"""Stand-ins through the real bot (docs/playing.md, "Rules every game shares"): a computer keeps
the seat of a person who leaves, or of one whose turns ran out twice in a row, until they are back."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.standins import turns_timed_out
from bot.store import TimerRow
from tests.bot.bue_driver import BueDriver
from tests.bot.test_bue_play import ephemeral_text

PAUSE = 2.0  # the default pause before a computer moves
TIMEOUT = 60  # the shortest turn timeout, "1m"


def computer_seats(driver: BueDriver) -> set[int]:
    """Seats a computer plays now: a computer's own, or one standing in for a person."""
    rows = driver.query(
        "SELECT seat FROM seats WHERE game_id = ? AND (robot IS NOT NULL OR stand_in IS NOT NULL)",
        driver.game_id,
    )
    return {seat for (seat,) in rows}


async def play_for(driver: BueDriver, seat: int, rng: random.Random) -> None:
    """One decision of ``seat``, chosen at random among its legal moves, through the UI."""
    game = driver.state()
    if "reveal" in game.to_act()[seat]:
        await driver.reveal(seat, rng.choice(game.hidden_positions(seat)))
        return
    move = rng.choice(game.legal_exchanges(seat))
    if move["type"] == "deck":
        await driver.exchange_with_deck(seat, move["give"])
    else:
        await driver.exchange_with_player(seat, move["give"], move["target"], move["take"])


async def play_until_only(driver: BueDriver, env: Any, seat: int, rng: random.Random) -> None:
    """The others play (people at once, computers at their pace) until ``seat`` alone must decide."""
    for _ in range(500):
        deciding = set(driver.state().to_act())
        if deciding == {seat}:
            return
        people = sorted(deciding - {seat} - computer_seats(driver))
        if people:
            await play_for(driver, people[0], rng)
        else:
            await env.advance_time(PAUSE + 0.1)
    raise AssertionError(f"seat {seat} never came to decide alone")


def actions_of(driver: BueDriver, seat: int) -> list[tuple[dict[str, Any], int]]:
    rows = driver.query(
        "SELECT action, by_timeout FROM actions WHERE game_id = ? AND seat = ? ORDER BY number",
        driver.game_id,
        seat,
    )
    return [(json.loads(action), by_timeout) for action, by_timeout in rows]


# ---------------------------------------------------------------------- leaving


async def test_a_person_leaves_a_four_player_bue_and_a_computer_finishes_for_them(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=4)
    await driver.open(target=10)
    rng = random.Random(3)
    leaver = next(seat for seat in range(4) if seat not in driver.state().to_act())
    anna = driver.members[leaver]
    hand = driver.state().cards_of(leaver)
    dms_before = len(driver.dm_messages(leaver))

    left = await anna.slash(driver.channel, "bue leave")
    said = len(driver.channel.history())
    assert left.ephemeral
    assert "a computer takes their seat" in driver.channel.last_message.content
    game = driver.state()
    assert game.active[leaver] and game.cards_of(leaver) == hand  # the seat, hand and points stay
    names = [field.name for field in driver.table_message().embeds[0].fields]
    assert any(f"🤖 for {driver.members[leaver].name}" in name for name in names)
    assert actions_of(driver, leaver) == [({"type": "stand_in", "level": "hard", "left": True}, 0)]
    refused = await anna.click(driver.table_message(), label="Exchange")
    assert "not playing in this game" in ephemeral_text(refused)

    while driver.status() == "running":
        deciding = set(driver.state().to_act())
        people = sorted(deciding - computer_seats(driver))
        if people:
            await play_for(driver, people[0], rng)
        else:
            await simcord_env.advance_time(PAUSE + 0.1)
        driver.assert_table_shows_only_public_cards()
    assert driver.state().finished
    assert len(actions_of(driver, leaver)) > 1  # the computer played the seat to the end
    # The computer is never pinged nor sent a DM in the person's name.
    assert len(driver.dm_messages(leaver)) == dms_before
    assert not any(anna.mention in m.content for m in driver.channel.history()[said:])
    results = driver.query(
        "SELECT entry, user_id, name, gone, rated FROM results WHERE game_id = ? AND seat = ? ORDER BY gone",
        driver.game_id,
        leaver,
    )
    assert results == [
        ("robot:hard", None, f"🤖 for {anna.name}", 0, 1),
        (f"user:{anna.id}", anna.id, anna.name, 1, 1),
    ]
    # Rated last: the person who left has a rating, below every other person's.
    ratings = dict(driver.query("SELECT entry, mu FROM ratings WHERE game_id = ?", driver.game_id))
    people = [f"user:{member.id}" for member in driver.members]
    assert min(people, key=ratings.__getitem__) == f"user:{anna.id}"


async def test_the_last_person_leaving_ends_the_game_with_no_result(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=1)
    host = driver.members[0]
    await host.slash(driver.channel, "bue start", computers=2, computer_level="easy")
    await host.click(driver.channel.last_message, label="Begin")
    driver.game_id = driver.query("SELECT MAX(id) FROM games")[0][0]

    await host.slash(driver.channel, "bue leave")
    assert driver.status() == "finished"
    game = driver.state()
    assert game.finished and game.winner() is None
    assert any("the game ends with no result" in m.content for m in driver.channel.history())
    assert driver.query("SELECT COUNT(*) FROM results")[0][0] == 0
    assert driver.query("SELECT COUNT(*) FROM timers")[0][0] == 0


async def test_the_lobby_says_whether_computers_stand_in(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    host = driver.members[0]
    await host.slash(driver.channel, "bue start")
    assert "Stand-ins: a computer keeps the seat" in driver.channel.last_message.embeds[0].fields[1].value
    await host.click(driver.channel.last_message, label="Cancel")
    await host.slash(driver.channel, "bue start", stand_in=False)
    assert "No stand-ins" in driver.channel.last_message.embeds[0].fields[1].value
    options = driver.query("SELECT options FROM games ORDER BY id DESC")[0][0]
    assert json.loads(options) == {"target": 110, "stand_in": 0}


# ---------------------------------------------------------------------- away


async def time_out_twice_then_come_back(driver: BueDriver, env: Any, restart: Any = None) -> None:
    """The player in turn lets two turns run out; a computer plays for them (across a restart if
    ``restart`` makes a new bot); they click Back and play their next turn themselves."""
    await driver.open(turn_timeout="1m")
    rng = random.Random(5)
    seat = driver.state().turn
    member = driver.members[seat]

    await env.advance_time(TIMEOUT + 1)
    assert actions_of(driver, seat)[-1][1] == 1  # the default move, by timeout
    assert "ran out of time" in driver.channel.last_message.content
    await play_until_only(driver, env, seat, rng)
    dms_before = len(driver.dm_messages(seat))
    await env.advance_time(TIMEOUT + 1)

    away = driver.channel.last_message
    assert "your time ran out twice in a row" in away.content and member.mention in away.content
    assert driver.query("SELECT stand_in FROM seats WHERE seat = ?", seat) == [("hard",)]
    assert actions_of(driver, seat)[-1] == ({"type": "stand_in", "level": "hard", "left": False}, 1)
    moves = len(actions_of(driver, seat))
    if restart is not None:
        await env.restart_bot(restart())
    await env.advance_time(PAUSE + 0.1)
    assert len(actions_of(driver, seat)) > moves  # the computer played, at its pace
    assert actions_of(driver, seat)[-1][1] == 0
    assert len(driver.dm_messages(seat)) == dms_before  # nothing sent to the computer

    welcome = await member.click(away, label="Back")
    assert "your seat is yours again" in ephemeral_text(welcome)
    assert driver.query("SELECT stand_in FROM seats WHERE seat = ?", seat) == [(None,)]
    assert f"{member.name} is back" in driver.channel.last_message.content
    assert "Your seat is yours again" in driver.dm_messages(seat)[-1].content
    assert actions_of(driver, seat)[-1] == ({"type": "back"}, 0)
    again = await member.click(away, label="Back")
    assert "already hold your seat" in ephemeral_text(again)

    await play_until_only(driver, env, seat, rng)
    await env.advance_time(PAUSE + 0.1)
    assert driver.state().to_act() == {seat: driver.state().to_act()[seat]}  # no computer moved for them
    await play_for(driver, seat, rng)
    assert actions_of(driver, seat)[-1][1] == 0 and actions_of(driver, seat)[-1][0]["type"] != "back"
    assert driver.query("SELECT stood_in FROM seats WHERE seat = ?", seat) == [(1,)]


async def test_a_player_who_times_out_twice_gets_a_computer_until_they_click_back(simcord_env, database):
    await time_out_twice_then_come_back(BueDriver(simcord_env, database, players=3), simcord_env)


async def test_the_stand_in_plays_on_after_a_restart_and_back_still_works(simcord_env, database, make_bot):
    driver = BueDriver(simcord_env, database, players=3)
    await time_out_twice_then_come_back(driver, simcord_env, restart=make_bot)


async def test_any_click_of_the_player_gives_them_their_seat_back(simcord_env, simcord_bot, database):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open(turn_timeout="1m")
    rng = random.Random(8)
    seat = driver.state().turn
    await simcord_env.advance_time(TIMEOUT + 1)
    await play_until_only(driver, simcord_env, seat, rng)
    await simcord_env.advance_time(TIMEOUT + 1)
    assert driver.query("SELECT stand_in FROM seats WHERE seat = ?", seat) == [("hard",)]

    (decision,) = driver.query("SELECT decision FROM timers WHERE seat = ? AND kind = 'robot'", seat)[0]
    await driver.members[seat].click(driver.table_message(), label="My hand")
    assert driver.query("SELECT stand_in FROM seats WHERE seat = ?", seat) == [(None,)]
    await simcord_env.advance_time(PAUSE + 0.1)
    assert seat in driver.state().to_act()  # waiting for the person again, not for a computer
    # The computer's move, taken by the timer loop just before the person came back, is dropped.
    moves = actions_of(driver, seat)
    await simcord_bot.tables.fire(TimerRow(driver.game_id, seat, "robot", decision, 0.0))
    assert actions_of(driver, seat) == moves


async def test_with_stand_ins_off_timeouts_only_play_the_default_move(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=3)
    await driver.open(turn_timeout="1m", stand_in=False)
    rng = random.Random(5)
    seat = driver.state().turn
    await simcord_env.advance_time(TIMEOUT + 1)
    await play_until_only(driver, simcord_env, seat, rng)
    await simcord_env.advance_time(TIMEOUT + 1)
    assert driver.query("SELECT stand_in FROM seats WHERE seat = ?", seat) == [(None,)]
    assert [by_timeout for _, by_timeout in actions_of(driver, seat)] == [1, 1]


# ---------------------------------------------------------------------- counting turns that ran out


@pytest.mark.parametrize(
    ("moves", "count"),
    [
        ([], 1),  # the first turn running out
        ([(0, True), (1, False)], 2),  # the seat's last turn ran out, then someone else played
        ([(0, True)], 1),  # the second step of one turn (RumBugz: drew by timeout, now the discard)
        ([(0, True), (0, True), (1, False), (2, False)], 2),
        ([(1, False), (0, True), (2, False), (0, True), (1, False)], 3),
    ],
)
def test_turns_in_a_row_that_ran_out_count_a_turn_of_several_steps_once(moves, count):
    assert turns_timed_out(moves, 0) == count
