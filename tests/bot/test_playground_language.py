"""The playground in the visitor's language: ``--language`` or ``PLAYGROUND_LANGUAGE`` sets its
welcome, its people's Discord and its server, so the games answer and announce in it."""

from __future__ import annotations

import logging
import re

import pytest
from discord import AppCommandOptionType

from bot import __main__ as root
from bot.i18n import t
from bot.playground.serve import open_playground
from tests.bot.forging import forge_slash
from tests.bot.test_playground import settings_in

WELCOME_TITLES = {"en": "Welcome to the playground", "it": "Benvenuto nel parco giochi", "fr": "Bienvenue"}


@pytest.mark.parametrize("language", ["en", "it", "fr"])
async def test_the_welcome_names_the_buttons_as_the_bot_labels_them_in_its_language(
    tmp_path, monkeypatch, language
):
    async with open_playground(settings_in(tmp_path, monkeypatch), language) as playground:
        (welcome,) = playground.world.channel.history()
        embed = welcome.embeds[0]
        assert embed.title.startswith(WELCOME_TITLES[language])
        for key in ("lobby.begin", "bue.button.hand", "rumbugz.ui.button.hand", "rummikub.ui.button.rack"):
            assert f"**{t(language, key)}**" in embed.description, key
        assert "/seriebum start computers:1" in embed.description and "Anna" in embed.description
        # The page writes its dates as people of that language do.
        assert playground.preview.locale == {"en": "en-US", "it": "it", "fr": "fr"}[language]


@pytest.mark.parametrize(
    ("language", "dealt"), [("it", "distribuisce cinque carte"), ("fr", "distribue cinq cartes")]
)
async def test_a_game_started_in_the_playground_answers_and_announces_in_its_language(
    tmp_path, monkeypatch, language, dealt
):
    async with open_playground(settings_in(tmp_path, monkeypatch), language) as playground:
        you, channel = playground.world.people[0], playground.world.channel
        lobby = await you.slash(channel, "bue start", computers=2)
        assert "🤖 Difficile 1" in str(lobby.response.embeds[0].to_dict())  # named in the server's language
        await you.click(channel.last_message, label=t(language, "lobby.begin"))
        lines = "\n".join(message.content for message in channel.history())
        assert dealt in lines  # the channel's lines: the server's language
        table = next(message for message in channel.history() if message.components)
        # Any game's: a Bué dealt to someone ends the first game at once.
        assert numbered(t(language, "bue.table.title")).fullmatch(table.embeds[0].title)
        hand = await you.click(table, label=t(language, "bue.button.hand"))  # the player's own language
        assert hand.response.ephemeral
        assert numbered(t(language, "bue.hand.title")).fullmatch(hand.response.embeds[0].title)


def numbered(template: str) -> re.Pattern[str]:
    """A title as ``template`` writes it, whatever its game and round."""
    return re.compile(re.escape(template).replace(r"\{game\}", r"\d+").replace(r"\{round\}", r"\d+"))


async def test_the_people_switch_the_playgrounds_language_with_a_command(tmp_path, monkeypatch):
    async with open_playground(settings_in(tmp_path, monkeypatch)) as playground:
        you, channel = playground.world.people[0], playground.world.channel
        switched = await you.slash(channel, "playground", language="it")
        assert not switched.response.ephemeral  # the welcome again, in Italian, for everyone
        assert switched.response.content == t("it", "playground.language_set")
        assert switched.response.embeds[0].title == WELCOME_TITLES["it"]
        assert playground.env.bot.get_channel(channel.id).topic == t("it", "playground.channel_topic")
        await you.slash(channel, "bue start", computers=1)
        lobby = channel.last_message
        assert "🤖 Difficile 1" in str(lobby.embeds[0].to_dict())

        # A game under way keeps the language it began in; the answers follow the switch.
        await you.slash(channel, "playground", language="fr")
        await you.click(lobby, label=t("it", "lobby.begin"))
        table = next(message for message in channel.history() if message.components)
        assert numbered(t("it", "bue.table.title")).fullmatch(table.embeds[0].title)
        hand = await you.click(table, label=t("it", "bue.button.hand"))
        assert numbered(t("fr", "bue.hand.title")).fullmatch(hand.response.embeds[0].title)


async def test_a_forged_language_is_refused_privately_and_changes_nothing(tmp_path, monkeypatch, caplog):
    async with open_playground(settings_in(tmp_path, monkeypatch)) as playground:
        you, channel = playground.world.people[0], playground.world.channel
        with caplog.at_level(logging.ERROR):
            forged = {"language": (AppCommandOptionType.string.value, "de")}
            answer = await forge_slash(you, channel, "playground", forged)
        assert answer.response.ephemeral
        assert answer.response.content == "⚠️ " + t("en", "error.forged_options")
        assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
        assert playground.world.language == "en"
        assert playground.env.bot.get_channel(channel.id).topic == t("en", "playground.channel_topic")


@pytest.fixture
def served(monkeypatch) -> list[str]:
    """The languages the playground was served in, with nothing served: ``main`` returns at once."""
    languages: list[str] = []

    async def serve(settings, language, ready) -> None:
        languages.append(language)

    monkeypatch.setattr("bot.playground.serve.serve", serve)
    return languages


@pytest.mark.parametrize(
    ("argv", "environment", "language"),
    [
        ([], None, "en"),
        (["--language", "it"], None, "it"),
        ([], "fr", "fr"),
        (["--language", "it"], "fr", "it"),  # the command line wins
    ],
)
def test_python_m_bot_playground_takes_its_language_from_the_command_line_or_the_environment(
    tmp_path, monkeypatch, served, argv, environment, language
):
    monkeypatch.setenv("PLAYGROUND_DATABASE", str(tmp_path / "playground.sqlite3"))
    if environment is None:
        monkeypatch.delenv("PLAYGROUND_LANGUAGE", raising=False)
    else:
        monkeypatch.setenv("PLAYGROUND_LANGUAGE", environment)
    assert root.main(["playground", "--no-browser", *argv]) == 0
    assert served == [language]


def test_an_unknown_playground_language_is_a_configuration_error(monkeypatch, capsys, served):
    monkeypatch.setenv("PLAYGROUND_LANGUAGE", "de")
    assert root.main(["playground", "--no-browser"]) == 2
    assert "en, it, fr" in capsys.readouterr().err and served == []
