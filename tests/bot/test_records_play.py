"""After the game through the real bot: score charts on results, /stats, /history, rated leaderboards."""

from __future__ import annotations

import random

import pytest
from simcord import interactions as simcord_interactions

from bot.render import faces_in
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import NAMES


@pytest.fixture
def italian(monkeypatch):
    """Every interaction from here on comes from a Discord client set to Italian."""
    original = simcord_interactions.base_payload

    def in_italian(*args, **kwargs):
        record, payload = original(*args, **kwargs)
        payload["locale"] = "it"
        return record, payload

    def switch() -> None:
        monkeypatch.setattr(simcord_interactions, "base_payload", in_italian)

    return switch


async def two_finished_matches(simcord_env, database) -> BueDriver:
    driver = BueDriver(simcord_env, database, players=2)
    rng = random.Random(21)
    for _ in range(2):
        await driver.open(target=10)
        while driver.status() == "running":
            await driver.play_one(rng)
    return driver


def field_values(embed) -> dict[str, str]:
    return {field.name: field.value for field in embed.fields}


async def test_stats_history_and_charts_after_two_matches(simcord_env, database, italian):
    driver = await two_finished_matches(simcord_env, database)
    games = driver.query("SELECT id, results_message_id FROM games ORDER BY id")
    assert len(games) == 2 and all(message for _, message in games)

    # Each match's results message carries the score chart, which draws no card.
    for _, message_id in games:
        results = next(m for m in driver.channel.history() if m.id == message_id)
        assert [a.filename for a in results.attachments] == ["scores.png", "match.gif"]
        assert results.embeds[-1].image.url == "attachment://scores.png"
        assert faces_in(simcord_env.backend.cdn.get(results.attachments[0].url)) == []

    anna = driver.members[0]
    wins = driver.query("SELECT SUM(won), MAX(points) FROM results WHERE user_id = ?", anna.id)[0]
    feats = dict(
        driver.query(
            "SELECT feat, SUM(count) FROM feats JOIN results USING (game_id, seat)"
            " WHERE user_id = ? GROUP BY feat",
            anna.id,
        )
    )

    stats = await anna.slash(driver.channel, "stats", game="bue")
    assert not stats.response.ephemeral
    embed = stats.response.embeds[0]
    values = field_values(embed)
    assert NAMES[0] in embed.title and "Bué" in embed.title
    assert values["Matches played"] == "2"
    assert values["Wins"].startswith(f"{wins[0]} (")
    assert values["Best match total"] == str(wins[1])
    assert values["Bués made (exactly 50)"] == str(feats.get("bue", 0))
    assert values["SuperBués made (50 in gold)"] == str(feats.get("superbue", 0))
    # A rating a player reads, explained once, not the model's formula.
    assert "in 2 matches" in values["Skill rating"] and "starts at 0" in values["Skill rating"]
    assert not any("mu" in name for name in values)
    assert len(values["Last results"].splitlines()) == 2
    assert embed.image.url == "attachment://rating.png"

    history = await anna.slash(driver.channel, "history")
    text = history.response.embeds[0].description
    for _, message_id in games:
        assert f"/{message_id})" in text
    assert text.count("🏆") == 2 and NAMES[1] in text

    by_rating = await anna.slash(driver.channel, "leaderboard", game="bue", order="rating")
    lines = by_rating.response.embeds[0].description.splitlines()
    assert len(lines) == 2 and all("2 matches" in line for line in lines)

    refused = await anna.slash(driver.channel, "leaderboard", order="rating")
    assert refused.response.ephemeral and "choose a game" in refused.response.content

    italian()
    stats = await driver.members[1].slash(driver.channel, "stats", player=anna.user)
    values = field_values(stats.response.embeds[0])
    assert values["Sfide giocate"] == "2" and "Ultimi risultati" in values
    assert "Bué" in values["Punteggio di abilità"]
    history = await anna.slash(driver.channel, "history", game="bue")
    assert history.response.embeds[0].title == "📜 Ultime sfide: Bué"
    assert "[risultati](" in history.response.embeds[0].description


async def test_stats_of_someone_without_a_match_is_told_privately_in_their_language(
    simcord_env, database, italian
):
    driver = BueDriver(simcord_env, database, players=2)
    italian()
    answer = await driver.members[0].slash(driver.channel, "stats")
    assert answer.response.ephemeral
    assert "non ha ancora concluso" in answer.response.content
    nothing = await driver.members[0].slash(driver.channel, "history")
    assert nothing.response.ephemeral and "nessuna sfida" in nothing.response.content
