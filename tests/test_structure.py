"""The shape the code keeps (issue 37): the table service is the one way to a game's rows and
announcements, and nothing else of the bot reaches them."""

from __future__ import annotations

import re
from pathlib import Path

import grimp

# What writes a game and what announces it: only the table service holds them (the store's own
# composition aside).
HELD_BY_THE_TABLE_SERVICE = {
    "bot.publisher": {"bot.tables"},
    "bot.store.games": {"bot.tables", "bot.store.store"},
}


def test_only_the_table_service_imports_the_store_s_games_or_the_publisher() -> None:
    graph = grimp.build_graph("bot", "games")
    for module, allowed in HELD_BY_THE_TABLE_SERVICE.items():
        importers = graph.find_modules_that_directly_import(module)
        assert importers <= allowed, f"{sorted(importers - allowed)} import {module}"


def test_nothing_but_the_table_service_reaches_into_its_store_or_publisher() -> None:
    """Its collaborators are its own: no other module goes through it to them."""
    reaching = re.compile(r"\btables\.(store|publisher|_\w+)\b")
    for path in Path("bot").rglob("*.py"):
        if path != Path("bot/tables.py"):
            assert not reaching.search(path.read_text()), path
