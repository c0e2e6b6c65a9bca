"""/help: what a newcomer reads first, privately, in their language."""

from __future__ import annotations

import pytest

from bot.playground.world import ClientLocale, welcome_embed
from tests.bot.test_rummikub_play import RummikubDriver


@pytest.mark.parametrize(
    ("locale", "title", "players", "scores", "league"),
    [
        ("en-US", "Tabletop games in this server", "Bué · 2-10 players", "Scores", "Seasons and tournaments"),
        ("it", "Giochi da tavolo in questo server", "Bué · 2-10 giocatori", "Punteggi", "Stagioni e tornei"),
        ("fr", "Jeux de société sur ce serveur", "Bué · 2 à 10 joueurs", "Scores", "Saisons et tournois"),
    ],
)
async def test_help_names_every_game_with_its_players_and_start_command_in_the_players_language(
    simcord_env, database, locale, title, players, scores, league
):
    driver = RummikubDriver(simcord_env, database)
    member = driver.members[0]
    ClientLocale(simcord_env, locale)  # every player's Discord in this language
    answer = await member.slash(driver.channel, "help")
    assert answer.response.ephemeral
    (embed,) = answer.response.embeds
    assert embed.title == title
    fields = {field.name: field.value for field in embed.fields}
    assert players in fields
    for game in ("bue", "seriebum", "rummikub", "rumbugz"):
        assert sum(f"`/{game} start`" in value for value in fields.values()) == 1
    serie_bum = next(name for name in fields if name.startswith("Serie Bum!"))
    assert serie_bum.endswith(" 2 " + players.split(" ")[-1])  # exactly two players: no range
    assert "`/leaderboard`" in fields[scores] and "`/stats`" in fields[scores]
    assert "`/season`" in fields[league] and "`/tournament create`" in fields[league]
    texts = [embed.title, embed.description, *fields, *fields.values()]
    assert not any("{" in text for text in texts)  # every placeholder filled
    assert not driver.channel.history()  # nothing in the channel


@pytest.mark.parametrize("language", ["en", "it", "fr"])
def test_the_playground_welcome_points_to_help(language):
    assert "`/help`" in welcome_embed(language).description
