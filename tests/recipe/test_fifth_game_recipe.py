"""The recipe for a fifth game (docs/development.md, "A fifth game"), checked: every registered
game has taken each step, and a forgotten step fails here, naming it."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

from bot.adapter import GameAdapter
from bot.game_catalogue import GAME_EXTENSIONS
from bot.i18n import CATALOG
from games.core import Game
from games.robots import Robot

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "it", "fr")


def adapter_of(extension: str) -> GameAdapter:
    adapter = importlib.import_module(extension).ADAPTER
    assert isinstance(adapter, GameAdapter), f"step 'adapter': {extension}.ADAPTER is not a GameAdapter"
    return adapter


def own_keys(adapter: GameAdapter) -> list[str]:
    """The keys every game's texts must hold (the recipe's step 'locale file')."""
    name = adapter.name
    return [
        f"{name}.title",
        f"{name}.cmd.group",
        f"{name}.cmd.start",
        f"{name}.rules",
        f"{name}.chart_unit",
        f"{name}.replay_round",
        *adapter.start_options.values(),
    ]


@pytest.mark.parametrize("extension", GAME_EXTENSIONS)
def test_every_game_declares_what_the_recipe_asks(extension: str) -> None:
    adapter = adapter_of(extension)
    assert extension == f"bot.games.{adapter.name}", "step 'registration': extension named after its game"
    assert issubclass(adapter.engine, Game), (
        f"step 'engine': {adapter.name}'s engine is not a games.core.Game"
    )
    assert adapter.engine.__module__.startswith(f"games.{adapter.name}."), "step 'engine': games/<game>/"
    assert issubclass(adapter.robot, Robot), (
        f"step 'robot': {adapter.name}'s robot is not a games.robots.Robot"
    )
    assert adapter.robot.__module__ == f"games.{adapter.name}.robot", "step 'robot': games/<game>/robot.py"
    assert isinstance(adapter.points_per_round, bool)


@pytest.mark.parametrize("extension", GAME_EXTENSIONS)
def test_every_game_has_its_own_locale_file_with_every_key(extension: str) -> None:
    adapter = adapter_of(extension)
    path = ROOT / "bot" / "locales" / f"{adapter.name}.json"
    assert path.exists(), f"step 'locale file': bot/locales/{adapter.name}.json is missing"
    for key in [*own_keys(adapter), *(f"stats.feat.{feat}" for feat in adapter.feat_events.values())]:
        assert CATALOG.has(key), f"step 'locale file': no catalogue in bot/locales/ has {key}"
        assert all(CATALOG.messages[key].get(language) for language in LANGUAGES), f"{key} lacks a language"


def test_import_linter_lists_name_every_game_package() -> None:
    """The independence contracts list every package under games/ and bot/games/ (step 'import-linter')."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    listed = {
        module for c in contracts["contracts"] if c["type"] == "independence" for module in c["modules"]
    }
    for parent in ("games", "bot.games"):
        folder = ROOT.joinpath(*parent.split("."))
        packages = {f"{parent}.{p.parent.name}" for p in folder.glob("*/__init__.py")}
        assert packages, parent
        missing = packages - listed
        assert not missing, (
            f"step 'import-linter': pyproject.toml's independence lists lack {sorted(missing)}"
        )


def test_every_game_package_is_registered() -> None:
    games = {p.parent.name for p in (ROOT / "bot" / "games").glob("*/__init__.py")}
    registered = {extension.rsplit(".", 1)[1] for extension in GAME_EXTENSIONS}
    assert games == registered, (
        f"step 'registration': GAME_EXTENSIONS in bot/game_catalogue.py lacks {sorted(games - registered)}"
    )
