"""Serie Bum! end to end through the real bot (SimCord): the board, the Flip panel, the menus of
every choice, and the memory rule (nothing shows a covered tile once it is forgotten).

The tests play one seeded deal with players who know the board (``MemoryPlayers``): in the
first manche of seed 2 a JOLLY is placed, a RUBA steals with a choice of tiles, a BUM! blows a
series up on the opponent's choice, tiles move between series, and pairs are both taken and
covered again.
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from bot.client import GameBot
from bot.config import Settings
from games.seriebum.engine import BUM_CHOICE, FLIP, PLACE, STEAL
from tests.bot.driver import NAMES, Opened, components, move_of
from tests.bot.seriebum_driver import Choose, MemoryPlayers, Move, SerieBumDriver, apply_move, hidden_tiles

SEED = 2


def seeded_bot(database: str) -> GameBot:
    settings = Settings(token=None, database=database, dev_guild_id=None, log_level="INFO")
    return GameBot(settings, seed_source=lambda: SEED)


@pytest.fixture
def simcord_bot(database):
    return seeded_bot(database)


def ephemeral_text(result) -> str:
    if isinstance(result, Opened):
        result = result.result
    messages = [result.response, *result.followups] if result.response else result.followups
    assert messages and all(message.ephemeral for message in messages), "expected an ephemeral answer"
    return "\n".join(message.content for message in messages)


def option_labels(message, kind: str) -> list[str]:
    return [
        option.label
        for child in components(message)
        if (move_of(child.custom_id) or ("", 0, ""))[2] == kind
        for option in child.options
    ]


def shown_tiles(driver: SerieBumDriver) -> set[str]:
    """Codes the public table shows now (face up, or covered again and still remembered)."""
    return {cell["tile"] for cell in driver.state().view(None)["cells"] if cell["tile"]}


async def play_until(driver: SerieBumDriver, players: MemoryPlayers, wanted) -> Move:
    """Play the players' moves through the bot; return the first move for which ``wanted(game, move)``."""
    for _ in range(200):
        game = driver.state()
        move = players.next(game)
        if wanted(game, move):
            return move
        await driver.play(move)
    raise AssertionError("the position never came")


async def play_checked(driver: SerieBumDriver, move: Move) -> None:
    """Play ``move`` through the bot: the result must be the engine's for the same move."""
    expected = copy.deepcopy(driver.state())
    apply_move(expected, move)
    await driver.play(move)
    assert driver.state().to_json() == expected.to_json()


async def check_bum_menu(driver: SerieBumDriver) -> None:
    """A BUM! hit: the flipper cannot choose; the opponent's menu lists series and survivors."""
    game = driver.state()
    victim, chooser = game.turn, 1 - game.turn
    refused = await driver.open_panel(victim)
    assert "not your turn" in ephemeral_text(refused)
    panel = await driver.open_panel(chooser)
    assert f"Choose which series of {NAMES[victim]} blows up" in panel.response.content
    labels = option_labels(panel.response, "bum")
    assert len(labels) == len(game.view(None)["pending"]["options"]) >= 2
    assert all(re.fullmatch(r"Series \d+: keep \S+ \S+", label) for label in labels), labels


async def check_steal_menu(driver: SerieBumDriver) -> None:
    game = driver.state()
    panel = await driver.open_panel(game.turn)
    labels = option_labels(panel.response, "steal")
    assert len(labels) >= 2
    assert all(
        f"from {NAMES[1 - game.turn]}'s series" in label and "→ your Series" in label for label in labels
    )


async def check_move_menu(driver: SerieBumDriver) -> None:
    game = driver.state()
    panel = Opened(await driver.members[game.turn].click(driver.table, label="Move tiles"))
    driver.panels[game.turn] = panel.response
    labels = option_labels(panel.response, "move")
    assert labels and all(
        re.match(r"(\S+: Series \d+ → Series \d+|Empty Series \d+: )", label) for label in labels
    )


async def test_a_full_manche_meets_every_special_tile_survives_a_restart_and_ends_the_match(
    simcord_env, database
):
    driver = SerieBumDriver(simcord_env, database)
    await driver.open(target=10)
    table_id = driver.table_id()
    players = MemoryPlayers()
    checks = {BUM_CHOICE: check_bum_menu, STEAL: check_steal_menu, "move": check_move_menu}
    phases: set[str] = set()
    shown: set[str] = set()
    forgotten: set[str] = set()  # tiles shown, covered again, then no longer remembered
    restarted = False
    while driver.status() == "running":
        game = driver.state()
        move = players.next(game)
        phases.add(game.phase)
        if isinstance(move, Choose) and move.kind in checks:
            await checks.pop(move.kind)(driver)
            if not restarted:
                # The menu just opened is used after a restart: the database is the truth.
                before = driver.state().to_json()
                await simcord_env.restart_bot(seeded_bot(database))
                assert driver.state().to_json() == before
                restarted = True
        await play_checked(driver, move)
        table_id = driver.kept_table(table_id)
        shown |= shown_tiles(driver)
        newly = shown & set(hidden_tiles(driver.state()).values()) - forgotten
        if newly:
            forgotten |= newly
            driver.assert_no_hidden_tile_shown()
    assert not checks, f"never met: {sorted(checks)}"
    assert restarted and PLACE in phases and FLIP in phases
    assert len(forgotten) >= 4, "too few tiles were covered again and forgotten to check memory"

    lines = [line for message in driver.channel.history() for line in message.content.splitlines()]
    flips = [line for line in lines if re.match(r"(anna|bruno) flips ", line)]
    assert len(flips) > 30 and all(re.fullmatch(r"(anna|bruno) flips [A-G][1-5]\.", line) for line in flips)
    assert any("adds JOLLY to a series" in line for line in lines)
    assert any(line.startswith("RUBA!") and " steals " in line for line in lines)
    assert any(line.startswith("BUM!") and " loses " in line for line in lines)
    game = driver.state()
    assert game.finished and game.manche == 1
    winner = NAMES[game.winner()]
    final = driver.channel.last_message
    assert any(winner in embed.title and "wins the match" in embed.title for embed in final.embeds)
    assert f"{winner} scores {game.totals()[game.winner()]} this round" in final.content
    totals = dict(driver.query("SELECT name, total FROM seats WHERE game_id = ?", driver.game_id))
    assert totals == {NAMES[seat]: game.totals()[seat] for seat in range(2)}
    board = await driver.members[1].slash(driver.channel, "leaderboard", game="seriebum")
    assert winner in board.response.embeds[0].description

    await driver.members[1].click(final, label="Rematch")
    lobby = driver.channel.last_message
    assert all(member.name in lobby.embeds[0].fields[0].value for member in driver.members)
    assert "Target: 10 points" in lobby.embeds[0].fields[1].value


async def test_a_timeout_flips_the_first_face_down_tiles_for_the_player(simcord_env, database):
    driver = SerieBumDriver(simcord_env, database)
    await driver.open(turn_timeout="1h")
    seat = driver.state().turn

    await simcord_env.advance_time(1800 + 1)
    reminder = driver.channel.last_message.content
    assert "half your time is gone" in reminder and driver.members[seat].mention in reminder

    await simcord_env.advance_time(1800)
    flips = driver.query(
        "SELECT seat, action FROM actions WHERE game_id = ? AND by_timeout = 1 ORDER BY number",
        driver.game_id,
    )
    assert flips == [(seat, '{"type": "flip", "cell": "A1"}'), (seat, '{"type": "flip", "cell": "B1"}')]
    timed_out = [m.content for m in driver.channel.history() if "ran out of time" in m.content]
    assert len(timed_out) == 2 and NAMES[seat] in timed_out[0]
    assert "flips A1." in timed_out[0] and "flips B1." in timed_out[1]


async def test_a_turn_that_runs_out_is_played_to_its_end_at_once(simcord_env, database):
    """A player who could move tiles before flipping, and whose time runs out: both flips, and
    whatever they take, are played by default at once; the opponent is not kept waiting again."""
    driver = SerieBumDriver(simcord_env, database)
    await driver.open(turn_timeout="1h")

    def second_flip_to_come(game, move) -> bool:
        if game.phase != FLIP or "move" not in game.to_act()[game.turn]:
            return False
        after = copy.deepcopy(game)
        after.apply(game.turn, game.default_action(game.turn))
        return after.turn_goes_on(game.turn)

    await play_until(driver, MemoryPlayers(), second_flip_to_come)
    seat = driver.state().turn
    await simcord_env.advance_time(3600 + 1)
    game = driver.state()
    assert game.turn != seat or game.phase == BUM_CHOICE, game.phase
    timed_out = driver.query(
        "SELECT action FROM actions WHERE game_id = ? AND by_timeout = 1 AND seat = ?", driver.game_id, seat
    )
    steps = [json.loads(action)["type"] for (action,) in timed_out]
    assert steps[0] == "flip" and len(steps) >= 2, steps  # the turn's steps, played together


async def test_the_bum_choice_times_out_to_the_blast_that_removes_the_most_points(simcord_env, database):
    driver = SerieBumDriver(simcord_env, database)
    await driver.open(turn_timeout="1h")
    await play_until(driver, MemoryPlayers(), lambda game, move: game.phase == BUM_CHOICE)
    game = driver.state()
    chooser = 1 - game.turn
    expected = game.default_action(chooser)
    await simcord_env.advance_time(3600 + 1)
    logged = driver.query(
        "SELECT seat, action FROM actions WHERE game_id = ? AND by_timeout = 1", driver.game_id
    )
    assert [(seat, json.loads(action)) for seat, action in logged] == [(chooser, expected)]
    last = driver.channel.last_message.content
    assert f"{NAMES[chooser]}** ran out of time" in last and f"BUM! {NAMES[game.turn]} loses" in last


async def test_only_the_player_to_decide_can_act_and_a_stale_menu_is_refused(simcord_env, database):
    driver = SerieBumDriver(simcord_env, database)
    outsider = driver.guild.add_member(simcord_env.create_user("zoe"))
    await driver.open()
    game = driver.state()
    before = game.to_json()
    not_playing = await outsider.click(driver.table, label="Flip")
    assert "not playing in this game" in ephemeral_text(not_playing)
    waiting = await driver.members[1 - game.turn].click(driver.table, label="Flip")
    assert "not your turn" in ephemeral_text(waiting)
    assert driver.state().to_json() == before

    # Two BUM! menus opened on the same decision: once one is used, the other is out of date.
    await play_until(driver, MemoryPlayers(), lambda game, move: game.phase == BUM_CHOICE)
    chooser = driver.members[1 - driver.state().turn]
    stale = Opened(await chooser.click(driver.table, label="Choose what blows up"))
    fresh = Opened(await chooser.click(driver.table, label="Choose what blows up"))
    select = components(fresh.response)[0].custom_id
    await chooser.select(fresh.response, ["1"], custom_id=select)
    after = driver.state().to_json()
    refused = await chooser.select(stale.response, ["0"], custom_id=select)
    assert "out of date" in ephemeral_text(refused)
    assert driver.state().to_json() == after


async def test_the_table_command_shows_the_tiles_the_table_shows(simcord_env, database):
    driver = SerieBumDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    first = MemoryPlayers().next(driver.state())
    await driver.play(first)
    assert len(driver.image_faces(driver.table_message())) == 1  # the flipped tile, on the table only

    copy_reply = await driver.members[seat].slash(driver.channel, "seriebum table")
    # Issue 31: the copy drew the face-up tile as a back labelled with its cell.
    table_faces = driver.image_faces(driver.table_message())
    assert copy_reply.ephemeral and driver.image_faces(copy_reply.response.message) == table_faces
    assert "Serie Bum! · Round 1" in copy_reply.response.embeds[0].title

    hand = await driver.members[seat].slash(driver.channel, "seriebum hand")
    assert hand.ephemeral and "Your series" in hand.response.embeds[0].title
    assert [child.label for child in components(hand.response)] == ["Flip the second tile"]
    score = await driver.members[0].slash(driver.channel, "seriebum score")
    assert "anna" in score.response.embeds[0].description
    rules = await driver.members[0].slash(driver.channel, "seriebum rules")
    assert "remember them!" in rules.response.embeds[0].description


async def test_the_table_takes_two_players_exactly(simcord_env, database):
    driver = SerieBumDriver(simcord_env, database)
    third = driver.guild.add_member(simcord_env.create_user("carla"))
    await driver.members[0].slash(driver.channel, "seriebum start")
    lobby = driver.channel.last_message
    refused = await driver.members[0].click(lobby, label="Begin")
    assert "At least 2 players are needed" in ephemeral_text(refused)
    await driver.members[1].click(lobby, label="Join")
    full = await third.click(lobby, label="Join")
    assert "The table is full (2 players)" in ephemeral_text(full)
