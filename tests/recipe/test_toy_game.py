"""The recipe proved on a fifth game: a toy race (``tests/toy``), added by the recipe's steps,
registered as an extension and played through SimCord from ``/toy start`` to its result, its
record, its history and its replay, with the shared code untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.game_catalogue import GAME_EXTENSIONS
from bot.i18n import CATALOG
from tests.bot.driver import TableDriver
from tests.recipe.test_fifth_game_recipe import LANGUAGES, own_keys
from tests.toy import ADAPTER
from tests.toy.engine import Race

TEXTS = json.loads(Path(__file__).resolve().parents[1].joinpath("toy", "texts.json").read_text())


class RaceDriver(TableDriver[Race]):
    engine = Race
    default_players = 2


@pytest.fixture
def toy_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Step 'locale file': the toy's keys in the catalogue, as its locale file would put them."""
    for key, entry in TEXTS.items():
        monkeypatch.setitem(CATALOG.messages, key, entry)


def test_the_toy_declares_what_the_recipe_asks(toy_texts: None) -> None:
    for key in own_keys(ADAPTER):
        for language in LANGUAGES:
            assert language in CATALOG.messages.get(key, {}), (key, language)


async def test_a_fifth_game_plays_through_the_bot_from_start_to_result(
    simcord_env, database, make_bot, toy_texts
):
    await simcord_env.restart_bot(make_bot(extensions=(*GAME_EXTENSIONS, "tests.toy")))
    driver = RaceDriver(simcord_env, database)
    anna, bruno = driver.members
    await driver.open(target=7)
    assert driver.status() == "running"
    for _ in range(10):
        if driver.status() != "running":
            break
        game = driver.state()
        player = driver.members[game.turn]
        await player.click(driver.table_message(), label=f"+{min(3, game.target - game.total)}")
    assert driver.status() == "finished"
    winner = driver.state().winner()
    assert winner is not None
    lines = "\n".join(message.content or "" for message in driver.channel.history())
    assert "The race to 7 begins" in lines and "adds" in lines
    results = next(
        message
        for message in driver.channel.history()
        if message.embeds and "wins the race" in (message.embeds[0].title or "")
    )
    assert driver.members[winner].name in results.embeds[0].title

    board = await anna.slash(driver.channel, "leaderboard", game="toy")
    assert driver.members[winner].name in board.response.embeds[0].description
    history = await bruno.slash(driver.channel, "history")
    assert "Race" in history.response.embeds[0].description
    offered = await anna.autocomplete(driver.channel, "replay", "match", "")
    assert len(offered) == 1 and offered[0]["name"].startswith("Race · ")
    panel = (await anna.slash(driver.channel, "replay", match=offered[0]["value"])).response
    last = (await anna.click(panel, label="Last")).response
    assert "wins the race" in last.content
