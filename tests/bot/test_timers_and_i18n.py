"""Timer planning, durations, and the translation layer."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import discord
import pytest

from bot import __main__ as bot_main
from bot.client import GameBot
from bot.clock import parse_duration
from bot.i18n import CATALOG, LANGUAGES, LOCALES_DIR, duration_text, language_of, t
from bot.model import GameRow, SeatRow, TimerRow
from bot.planning import plan_people
from games.bue import Bue
from games.core import GameError
from games.rumbugz import RumBugz
from games.rummikub import Rummikub
from games.seriebum import SerieBum

REVEAL = frozenset({"reveal"})
EXCHANGE = frozenset({"deck", "swap"})


def row_of(timeout: int) -> GameRow:
    return GameRow(1, "bue", 5, 10, 1, "running", {}, timeout, "en", 1, None, 3, None)


def seats_of(count: int, **time: float) -> list[SeatRow]:
    return [SeatRow(seat, seat + 1, f"p{seat}", "en", 0, False, False, **time) for seat in range(count)]


def test_a_new_decision_gets_a_reminder_at_half_time_and_an_expiry():
    assert plan_people(row_of(3600), seats_of(3), {2: EXCHANGE}, [], now=100.0) == [
        (2, "expire", "deck,swap", 3700.0),
        (2, "remind", "deck,swap", 1900.0),
    ]


def test_a_simultaneous_decision_keeps_its_deadline_and_a_sent_reminder_is_not_sent_again():
    previous = [
        TimerRow(1, 0, "expire", "reveal", 3700.0),
        TimerRow(1, 1, "expire", "reveal", 3700.0),
        TimerRow(1, 1, "remind", "reveal", 1900.0),
    ]
    seats = seats_of(2, decision_at=100.0)
    planned = plan_people(row_of(3600), seats, {0: REVEAL, 1: REVEAL}, previous, now=400.0)
    assert planned == [
        (0, "expire", "reveal", 3700.0),
        (1, "expire", "reveal", 3700.0),
        (1, "remind", "reveal", 1900.0),
    ]
    # Worked out again from when the clock started: an away span chosen since moves them on.
    away = [replace(seat, away_from=1000.0, away_until=2000.0) for seat in seats]
    assert plan_people(row_of(3600), away, {0: REVEAL, 1: REVEAL}, previous, now=1500.0) == [
        (0, "expire", "reveal", 4700.0),
        (1, "expire", "reveal", 4700.0),
        (1, "remind", "reveal", 2900.0),
    ]


def test_a_changed_decision_restarts_the_clock():
    previous = [TimerRow(1, 0, "expire", "reveal", 500.0)]
    assert plan_people(row_of(60), seats_of(1, decision_at=0.0), {0: EXCHANGE}, previous, now=400.0) == [
        (0, "expire", "deck,swap", 460.0),
        (0, "remind", "deck,swap", 430.0),
    ]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("24h", 86400),
        ("90m", 5400),
        ("2d 3h", 183600),
        ("45", 2700),
        ("1g", 86400),
        ("2j", 172800),
        ("30min", 1800),
    ],
)
def test_durations_are_read_as_players_write_them(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize(
    ("language", "seconds", "said"),
    [
        ("en", 30, "30 s"),
        ("fr", 59, "59 s"),
        ("en", 60, "1 min"),
        ("it", 90061, "1 g 1 h 1 min"),
        ("en", 0, "0 s"),
    ],
)
def test_durations_are_said_as_players_say_them_and_under_a_minute_in_seconds(language, seconds, said):
    # A one-minute timeout's half-time reminder said "0 min left" (issue 30).
    assert duration_text(language, seconds) == said


@pytest.mark.parametrize("text", ["soon", "h", "12x", "3h5"])
def test_unreadable_durations_are_refused(text):
    with pytest.raises(ValueError):
        parse_duration(text)


def test_languages_follow_the_discord_locale():
    assert language_of(discord.Locale.italian) == "it"
    assert language_of(discord.Locale.french) == "fr"
    assert language_of("en-GB") == "en"
    assert language_of(discord.Locale.german) == "en"
    assert language_of(None) == "en"


def test_every_text_exists_in_every_language_with_the_same_placeholders():
    for path in sorted(LOCALES_DIR.glob("*.json")):
        for key, entry in json.loads(path.read_text(encoding="utf-8")).items():
            assert set(entry) == set(LANGUAGES), (path.name, key)
            # A counting text has a form per plural category; a form may leave the number out ("1").
            forms = {lang: text if isinstance(text, dict) else {"": text} for lang, text in entry.items()}
            if any(isinstance(text, dict) for text in entry.values()):
                assert all(set(form) == {"one", "other"} for form in forms.values()), (path.name, key)
            # "{points:points}" is a number with its noun, from the catalogue's count.points.
            texts = [text for form in forms.values() for text in form.values()]
            nouns = {noun for text in texts for noun in re.findall(r"{\w+:(\w+)}", text)}
            assert all(CATALOG.has(f"count.{noun}") for noun in nouns), (path.name, key, nouns)
            placeholders = {
                lang: {name for text in form.values() for name in re.findall(r"{(\w+)(?::\w+)?}", text)}
                for lang, form in forms.items()
            }
            assert placeholders["it"] == placeholders["en"] == placeholders["fr"], (path.name, key)


def test_the_bot_speaks_to_a_french_player_as_tu_in_every_game():
    # One register across the games: a player switching from Bué to RumBugz is not suddenly "vous".
    # "vous deux" addresses the two players of a swap together, which only "vous" can.
    formal = re.compile(
        r"\b(vous(?! deux)|votre|vos|vôtres?)\b|(?<!vous deux )\b\w+ez\b(?<!assez)", re.IGNORECASE
    )
    found = []
    for path in sorted(LOCALES_DIR.glob("*.json")):
        for key, entry in json.loads(path.read_text(encoding="utf-8")).items():
            forms = entry["fr"].values() if isinstance(entry["fr"], dict) else [entry["fr"]]
            found += [(key, match.group()) for text in forms for match in formal.finditer(text)]
    assert found == []


def test_every_key_the_code_names_is_translated():
    sources = list(Path("bot").rglob("*.py")) + list(Path("games").rglob("*.py"))
    named = set()
    for source in sources:
        named |= set(
            re.findall(
                r'"((?:common|error|lobby|cmd|option|stats|standins|help|settings|preferences|season|tournament|bue|seriebum|rummikub|rumbugz)\.[a-z_.]+[a-z])"',
                source.read_text(),
            )
        )
    # End-of-game events are shown as results embeds, not as a line of text.
    embeds_only = {key for key in named if key.endswith((".game_scored", ".match_won"))}
    missing = sorted(key for key in named - embeds_only if not CATALOG.has(key))
    assert missing == []


@pytest.mark.parametrize("engine", [Bue, SerieBum, Rummikub, RumBugz], ids=lambda engine: engine.name)
def test_a_wrong_player_count_is_told_in_the_games_own_words(engine):
    with pytest.raises(GameError) as refused:
        engine.new(engine.max_players + 1, {}, 1)
    assert CATALOG.has(refused.value.key) and refused.value.key.startswith(f"{engine.name}.")
    assert str(engine.max_players) in t("fr", refused.value.key, **refused.value.params)


def test_errors_read_in_the_players_language():
    assert t("it", "error.not_your_turn") != t("en", "error.not_your_turn") != t("fr", "error.not_your_turn")
    assert "{" not in t("fr", "error.lobby_full", maximum=10)


def test_without_a_token_nor_the_playground_the_bot_says_what_to_set_or_install(tmp_path):
    """With no token, ``python -m bot`` is the playground; without its packages either (as if
    simcord were not installed), it says what to set or to install, and exits."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path.cwd())}
    without_playground = (
        "import sys; sys.modules['simcord'] = None; from bot.__main__ import main; sys.exit(main())"
    )
    run = subprocess.run(
        [sys.executable, "-c", without_playground],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "DISCORD_TOKEN" in run.stderr and ".env" in run.stderr
    assert 'pip install -e ".[playground]"' in run.stderr
    assert "Traceback" not in run.stderr


def test_a_rejected_token_gives_a_clear_message(monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setenv("DATABASE_PATH", ":memory:")

    def rejected(self, token, **kwargs):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(GameBot, "run", rejected)
    assert bot_main.main() == 2
    assert "rejected the token" in capsys.readouterr().err


def test_a_text_kept_for_its_parameters_reads_them_as_given():
    """Texts are kept once worked out (issue 22): the same parameters of another type, or a list,
    still read as given."""
    assert t("en", "rummikub.ui.seat", tiles=1, points=2, melded="—") == t(
        "en", "rummikub.ui.seat", tiles=1, points=2, melded="—"
    )
    assert "True" in t("en", "rummikub.ui.seat", tiles=True, points=2, melded="—")
    assert "1" in t("en", "rummikub.ui.seat", tiles=1, points=2, melded="—")
    assert "['r1']" in t("en", "rummikub.ui.seat", tiles=["r1"], points=2, melded="—")


def test_a_reminder_comes_after_the_servers_share_of_the_turn_or_never():
    assert plan_people(row_of(1000), seats_of(3), {2: EXCHANGE}, [], now=0.0, reminder_share=0.8) == [
        (2, "expire", "deck,swap", 1000.0),
        (2, "remind", "deck,swap", 800.0),
    ]
    assert plan_people(row_of(1000), seats_of(3), {2: EXCHANGE}, [], now=0.0, reminder_share=0) == [
        (2, "expire", "deck,swap", 1000.0)
    ]
    # A seat keeping its deadline (its reminder sent) does not change the next seat's reminder.
    previous = [TimerRow(1, 0, "expire", "reveal", 400.0)]
    seats = seats_of(2, decision_at=-600.0)
    assert plan_people(row_of(1000), seats, {0: REVEAL, 1: REVEAL}, previous, now=100.0) == [
        (0, "expire", "reveal", 400.0),
        (1, "expire", "reveal", 1100.0),
        (1, "remind", "reveal", 600.0),
    ]
