"""Computer players through the real bot: the lobby's menus, and whole games where people
play against them, a restart in the middle of a computer's turn included."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from games.seriebum.tiles import CELL_INDEX, CELLS, TILES, is_number
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import components
from tests.bot.seriebum_driver import MemoryPlayers, SerieBumDriver
from tests.bot.test_bue_play import ephemeral_text
from tests.bot.test_rumbugz_play import RumBugzDriver, oracle_move
from tests.bot.test_rummikub_play import RummikubDriver

PAUSE = 2.0  # the default pause before a computer moves


async def open_with_computers(driver: Any, computers: int, level: str = "hard", **options: Any) -> None:
    """The only person opens a lobby with computers, and begins."""
    host = driver.members[0]
    await host.slash(
        driver.channel, f"{driver.engine.name} start", computers=computers, computer_level=level, **options
    )
    await host.click(driver.channel.last_message, label="Begin")
    driver.game_id = driver.query("SELECT MAX(id) FROM games")[0][0]


def computer_seats(driver: Any) -> set[int]:
    return {
        seat
        for (seat,) in driver.query(
            "SELECT seat FROM seats WHERE game_id = ? AND robot IS NOT NULL", driver.game_id
        )
    }


# The person's turns of a Rummikub game against two computers, each after both computers' turns.
PERSON_TURNS = 6


async def let_computers_play(driver: Any, env: Any) -> None:
    """Wait, as people do, while only computers have a decision to make."""
    robots = computer_seats(driver)
    for _ in range(500):
        game = driver.state()
        if game.finished or not set(game.to_act()) <= robots:
            return
        await env.advance_time(PAUSE + 0.1)
    raise AssertionError("the computers never handed back")


async def test_the_host_adds_and_removes_a_computer_and_nobody_else_can(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=2)
    host, guest = driver.members
    await host.slash(driver.channel, "bue start")
    lobby = driver.channel.last_message

    refused = await guest.click(lobby, label="Computers")
    assert "Only the host" in ephemeral_text(refused)

    panel = await host.click(lobby, label="Computers")
    assert panel.response.ephemeral
    add = next(c for c in components(panel.response) if ":lobby_add:" in c.custom_id)
    added = await host.select(panel.response, ["hard"], custom_id=add.custom_id)
    assert "🤖 Hard 1" in driver.channel.last_message.embeds[0].fields[0].value
    assert driver.query("SELECT robot FROM seats WHERE robot IS NOT NULL") == [("hard",)]

    remove = next(c for c in components(added.response) if ":lobby_remove:" in c.custom_id)
    await host.select(added.response, ["1"], custom_id=remove.custom_id)
    assert "🤖" not in driver.channel.last_message.embeds[0].fields[0].value
    assert driver.query("SELECT COUNT(*) FROM seats WHERE robot IS NOT NULL")[0][0] == 0


async def test_computers_sit_beside_their_host_who_cannot_leave_them_alone(simcord_env, database):
    """A game of computers only would have nobody to watch it: the host, a person, always
    plays (a host cannot leave the lobby), so such a game can never begin."""
    driver = BueDriver(simcord_env, database, players=1)
    host = driver.members[0]
    await host.slash(driver.channel, "bue start", computers=2)
    lobby = driver.channel.last_message
    players = lobby.embeds[0].fields[0].value
    assert f"{host.name} 👑" in players and "🤖 Hard 2" in players
    refused = await host.click(lobby, label="Leave")
    assert "host" in ephemeral_text(refused)
    await host.click(lobby, label="Begin")
    assert driver.query("SELECT status FROM games")[0][0] == "running"


# Two hard computers answering each other for a whole match can keep the bot busy longer than SimCord's
# default 5 s of wall clock between steps on two cores shared by two test workers.
@pytest.mark.simcord(settle_timeout=30)
async def test_one_person_and_two_computers_play_a_whole_bue_match(simcord_env, database):
    driver = BueDriver(simcord_env, database, players=1)
    await open_with_computers(driver, 2, target=10)
    rng = random.Random(7)
    robots = computer_seats(driver)
    assert robots == {1, 2}
    person_moves = 0
    while driver.status() == "running":
        await let_computers_play(driver, simcord_env)
        if driver.status() != "running":
            break
        await driver.play_one(rng)
        person_moves += 1
        driver.assert_table_shows_only_public_cards()
    game = driver.state()
    assert game.finished and max(game.totals()) >= 10
    assert person_moves > 0
    # Computers get no DMs and are never pinged; they are rated as their level, off the leaderboard.
    assert "🤖" in driver.table_message().embeds[0].fields[1].name
    assert not any("<@-" in m.content for m in driver.channel.history())
    entries = [entry for (entry,) in driver.query("SELECT entry FROM results ORDER BY seat")]
    assert entries == [f"user:{driver.members[0].id}", "robot:hard", "robot:hard"]
    board = await driver.members[0].slash(driver.channel, "leaderboard")
    assert "🤖" not in board.response.embeds[0].description
    robot_actions = driver.query("SELECT COUNT(*) FROM actions WHERE seat IN (1, 2)")[0][0]
    assert robot_actions > person_moves


async def test_one_person_and_two_computers_take_turns_at_rummikub(simcord_env, database):
    """The computers play their turns and hand back, turn after turn (a whole game against a
    computer is played in the browser, tests/playground/test_to_the_end.py)."""
    driver = RummikubDriver(simcord_env, database, players=1)
    await open_with_computers(driver, 2)
    robot_actions = None
    for _ in range(PERSON_TURNS):
        await let_computers_play(driver, simcord_env)
        game = driver.state()
        if game.finished:
            break
        assert game.turn == 0
        played = driver.query("SELECT COUNT(*) FROM actions WHERE seat IN (1, 2)")[0][0]
        assert robot_actions is None or played >= robot_actions + 2  # both, since the person's turn
        robot_actions = played
        play = game.best_play(0)
        if play is None:
            await driver.members[0].click(driver.table_message(), label="Draw")
        else:
            await driver.members[0].slash(driver.channel, "rummikub play", tiles=" ".join(play["tiles"]))
        driver.assert_table_shows_only_the_table()
    assert driver.query("SELECT COUNT(*) FROM actions WHERE seat = 0")[0][0] >= PERSON_TURNS


async def test_a_computer_whose_turn_came_before_a_restart_plays_after_it(simcord_env, database, make_bot):
    driver = SerieBumDriver(simcord_env, database)
    driver.members = driver.members[:1]
    await open_with_computers(driver, 1)
    players = MemoryPlayers()
    restarted = False
    while driver.status() == "running" and driver.state().manche == 1:
        game = driver.state()
        if 1 in game.to_act():
            if not restarted:
                # The computer's move is due in a few seconds: the process goes down meanwhile, and
                # its sleeping timers with it (else SimCord, draining the old bot, would wait for
                # the move on the wall clock, as a machine slower than the pause would play it).
                assert driver.query("SELECT COUNT(*) FROM timers WHERE kind = 'robot'")[0][0] == 1
                moves = driver.query("SELECT COUNT(*) FROM actions WHERE seat = 1")[0][0]
                simcord_env.bot.timers.stop()
                await simcord_env.restart_bot(make_bot())
                restarted = True
                await let_computers_play(driver, simcord_env)
                assert driver.query("SELECT COUNT(*) FROM actions WHERE seat = 1")[0][0] > moves
                break
            await let_computers_play(driver, simcord_env)
            continue
        await driver.play(players.next(game))
    assert restarted


def unmatched_pair(game: Any) -> tuple[str, str]:
    """Two face-down numbered tiles that cannot be taken together by a player with no series yet:
    neither the same value nor the same colour ten apart."""
    cells = [cell for cell in game.face_down_cells() if is_number(game.board[cell])]
    for first, second in itertools.combinations(cells, 2):
        one, two = TILES[game.board[first]], TILES[game.board[second]]
        if one.value != two.value and (one.colour != two.colour or abs(one.value - two.value) != 10):
            return CELLS[first], CELLS[second]
    raise AssertionError("no unmatched pair on the board")


async def test_a_computer_flips_only_once_the_person_has_seen_their_pair_covered_again(simcord_env, database):
    """Serie Bum! is a memory game: the person's two tiles, covered again, stay face up on the
    table until the computer's first flip, which waits until they have been in view 5 s
    (``VIEW_PAUSE``), longer than its usual pause."""
    driver = SerieBumDriver(simcord_env, database)
    driver.members = driver.members[:1]
    await open_with_computers(driver, 1)
    await let_computers_play(driver, simcord_env)
    game = driver.state()
    assert game.turn == 0 and not game.layouts[0]
    pair = unmatched_pair(game)
    codes = [TILES[game.board[CELL_INDEX[cell]]].code for cell in pair]
    for cell in pair:
        await driver.flip(0, cell)
    assert driver.state().turn == 1
    computer_moves = driver.query("SELECT COUNT(*) FROM actions WHERE seat = 1")[0][0]

    await simcord_env.advance_time(4.9)
    assert set(codes) <= set(driver.image_faces(driver.table_message()))
    assert driver.query("SELECT COUNT(*) FROM actions WHERE seat = 1")[0][0] == computer_moves

    await simcord_env.advance_time(0.2)
    assert driver.query("SELECT COUNT(*) FROM actions WHERE seat = 1")[0][0] > computer_moves


async def test_a_private_copy_of_the_table_opens_its_panel_after_the_computers_moved(simcord_env, database):
    """``/rummikub table`` is a copy nobody edits: once the computers have moved, its Play tiles
    still opens the panel (which shows the game as it stands); its Draw, which plays at once, is
    refused for a table its player has seen move on, and the table is shown again."""
    driver = RummikubDriver(simcord_env, database)
    driver.members = driver.members[:1]
    you = driver.members[0]
    await open_with_computers(driver, 2)
    await let_computers_play(driver, simcord_env)
    copy = (await you.slash(driver.channel, "rummikub table")).response
    other_copy = (await you.slash(driver.channel, "rummikub table")).response
    await you.click(driver.table_message(), label="Draw")
    await let_computers_play(driver, simcord_env)
    assert 0 in driver.state().to_act()

    panel = await you.click(copy, label="Play tiles")
    assert "Pick the rack tiles you want to lay" in ephemeral_text(panel), ephemeral_text(panel)
    refused = await you.click(other_copy, label="Draw")
    assert "out of date" in ephemeral_text(refused)


async def test_a_computers_turn_of_several_steps_is_paced_as_one(simcord_env, database):
    """Issue 39: a RumBugz computer's turn (its draw, lays, changes, discard) waits a whole pause
    before its first step and a share of it (``STEP_SHARE``, a quarter) before each next one, so a
    person waits about a pause per computer's turn, not one per step."""
    driver = RumBugzDriver(simcord_env, database, players=1)
    await open_with_computers(driver, 1, rounds=1)
    tick = PAUSE / 8

    def gaps() -> tuple[list[float], list[float]]:
        """The computer's waits before the first step of its turns, and before their next steps."""
        moves = driver.query("SELECT seat, at FROM actions WHERE game_id = ? ORDER BY number", driver.game_id)
        first: list[float] = []
        following: list[float] = []
        for (previous_seat, previous_at), (seat, at) in itertools.pairwise(moves):
            if seat == 1:
                (following if previous_seat == 1 else first).append(at - previous_at)
        return first, following

    while min(map(len, gaps())) < 3 and not driver.state().finished:
        seat, action = oracle_move(driver.state())
        if seat == 0:
            await driver.play(seat, action)
        else:
            await simcord_env.advance_time(tick)
    first, following = gaps()
    assert min(len(first), len(following)) >= 3, (first, following)
    assert all(gap >= PAUSE for gap in first), first
    assert all(gap <= PAUSE / 2 for gap in following), following
