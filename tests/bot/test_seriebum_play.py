"""Serie Bum! end to end through the real bot (SimCord): the board, the Flip panel, the menus of
every choice, and the memory rule (nothing shows a covered tile once it is forgotten).

Every test plays the same seeded deal with players who know the board (see ``MemoryPlayers``):
seed 2 deals a first manche in which a JOLLY is placed, a RUBA steals with a choice of tiles, a
BUM! blows a series up on the opponent's choice, tiles move between series, and pairs are both
taken and covered again.
"""

from __future__ import annotations

import pytest

from bot.client import GameBot
from bot.config import Settings
from games.seriebum.engine import BUM_CHOICE, FLIP, PLACE, STEAL
from games.seriebum.tiles import CELLS
from tests.bot.seriebum_driver import NAMES, MemoryPlayers, Move, SerieBumDriver, hidden_tiles

SEED = 2


def seeded_bot(database_path: str) -> GameBot:
    settings = Settings(token=None, database_path=database_path, dev_guild_id=None, log_level="INFO")
    return GameBot(settings, seed_source=lambda: SEED)


@pytest.fixture
def simcord_bot(database_path):
    return seeded_bot(database_path)


def ephemeral_text(result) -> str:
    messages = [result.response, *result.followups] if result.response else result.followups
    assert messages and all(message.ephemeral for message in messages), "expected an ephemeral answer"
    return "\n".join(message.content for message in messages)


def option_labels(message, kind: str) -> list[str]:
    return [
        option.label
        for row in message.components
        for child in row.children
        if f":{kind}:" in (child.custom_id or "")
        for option in child.options
    ]


def shown_tiles(driver: SerieBumDriver) -> set[str]:
    """Codes the public table shows right now (face up, or covered again and still remembered)."""
    return {cell["tile"] for cell in driver.state().view(None)["cells"] if cell["tile"]}


async def play_until(driver: SerieBumDriver, players: MemoryPlayers, wanted) -> Move:
    """Play the players' moves through the bot; return the first move for which ``wanted(game, move)``."""
    for _ in range(200):
        move = players.next(driver.state())
        if wanted(driver.state(), move):
            return move
        await driver.play(move)
    raise AssertionError("the position never came")


async def test_a_full_manche_meets_every_special_tile_and_ends_the_match(simcord_env, database_path):
    driver = SerieBumDriver(simcord_env, database_path)
    await driver.open(target=10)
    players = MemoryPlayers()
    phases: set[str] = set()
    shown: set[str] = set()
    forgotten: set[str] = set()  # tiles shown, covered again, and no longer remembered
    moves = 0
    while driver.status() == "running":
        game = driver.state()
        phases.add(game.phase)
        await driver.play(players.next(game))
        moves += 1
        shown |= shown_tiles(driver)
        forgotten |= shown & set(hidden_tiles(driver.state()).values())
        driver.assert_no_hidden_tile_shown()
    assert {PLACE, STEAL, BUM_CHOICE} <= phases
    assert forgotten, "no tile was covered again and forgotten: the memory check checked nothing"

    channel = "\n".join(message.content for message in driver.channel.history())
    assert "adds JOLLY to a series" in channel
    assert "RUBA!" in channel and " steals " in channel
    assert "BUM!" in channel and " loses " in channel
    assert " moves " in channel or "empties a series" in channel
    game = driver.state()
    assert game.finished and game.manche == 1
    winner = NAMES[game.winner()]
    final = driver.channel.last_message
    assert any(winner in embed.title and "wins the match" in embed.title for embed in final.embeds)
    assert "this manche" in final.content
    assert any(child.label == "Rematch" for row in final.components for child in row.children)
    totals = dict(driver.query("SELECT name, total FROM seats WHERE game_id = ?", driver.game_id))
    assert totals == {NAMES[seat]: game.totals()[seat] for seat in range(2)}
    board = await driver.members[1].slash(driver.channel, "leaderboard", game="seriebum")
    assert winner in board.response.embeds[0].description
    assert moves > 40

    await driver.members[1].click(final, label="Rematch")
    lobby = driver.channel.last_message
    assert all(member.mention in lobby.embeds[0].fields[0].value for member in driver.members)
