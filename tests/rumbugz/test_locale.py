"""Every key the engine emits is translated in en/it/fr with matching placeholders."""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path

import pytest

from bot.i18n import t
from games.core import GameError
from games.rumbugz import RumBugz
from games.rumbugz.bugz import KINDS

ROOT = Path(__file__).resolve().parents[2]
LOCALE = json.loads((ROOT / "bot" / "locales" / "rumbugz.json").read_text(encoding="utf-8"))
LANGUAGES = ("en", "it", "fr")


def emitted_keys() -> set[str]:
    """Event and error keys written in the engine's source, per-kind keys expanded."""
    source = "\n".join(path.read_text() for path in (ROOT / "games" / "rumbugz").glob("*.py"))
    keys = set(re.findall(r'"(rumbugz\.(?:event|error)\.[a-z_.]+)"', source))
    for prefix in re.findall(r'f"(rumbugz\.(?:event|error)\.[a-z_.]+)\{kind\}"', source):
        keys |= {prefix + kind for kind in KINDS}
    keys.add(f"{RumBugz.name}.error.player_count")  # raised by Game.check_player_count
    return keys


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_emitted_key_is_translated() -> None:
    keys = emitted_keys()
    assert "rumbugz.event.laid.match" in keys and "rumbugz.error.kind_done.simple" in keys
    assert keys - set(LOCALE) == set()
    translated = {key for key in LOCALE if key.startswith(("rumbugz.event.", "rumbugz.error."))}
    assert translated - keys == set(), "translations for keys the engine never emits"


@pytest.mark.parametrize("key", sorted(LOCALE))
def test_each_entry_has_three_languages_with_the_same_placeholders(key: str) -> None:
    texts = LOCALE[key]
    assert set(texts) == set(LANGUAGES)
    assert all(texts[language].strip() for language in LANGUAGES)
    assert placeholders(texts["it"]) == placeholders(texts["en"]) == placeholders(texts["fr"])


def test_labels_and_rules_summary() -> None:
    for name in [*KINDS, "plyt", "draw_bag", "draw_discard", "change", "lay", "discard", "bid", "decline"]:
        assert f"rumbugz.label.{name}" in LOCALE
    for language in LANGUAGES:
        assert 0 < len(LOCALE["rumbugz.rules"][language]) < 1800


def test_played_events_and_errors_format_in_every_language() -> None:
    rng = random.Random(3)
    seen: dict[str, dict] = {}
    for seed in range(4):
        game, events = RumBugz.begin(3 + seed, {"rounds": 1}, seed)
        while True:
            for event in events:
                seen.setdefault(event.key, event.params)
            if game.finished:
                break
            seat = rng.choice(sorted(game.to_act()))
            try:
                game.apply(seat, {"type": "discard", "bug": "Pz"})
            except GameError as error:
                seen.setdefault(error.key, error.params)
            events = game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert len(seen) > 20
    for key, params in seen.items():
        for language in LANGUAGES:
            assert "{" not in t(language, key, **params), (key, language)


def test_english_puts_no_article_before_a_placeholder() -> None:
    """English "a {number}" would read "a 8" or "a 11": the texts are worded without the article."""
    for key, texts in LOCALE.items():
        assert not re.search(r"\b[Aa]n? \{", texts["en"]), key
