"""Every game played to its end in the playground, in Chromium, by a person who clicks as fast as
the page lets them, on their own turns and while the computers move (issue 39): the page never
locks up and is never reloaded, and a click it refuses is always one on a button that changed
under the pointer. On the way, a RumBugz lay is put together Bug by Bug in the panel's menus.
Screenshots at each game's start, middle and end are left in
artefacts/playground/ for people to look at; each test prints its count of clicks."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.playground.player import Player, skip_without_a_browser

skip_without_a_browser()
from tests.playground.turns import (  # noqa: E402
    RumBugzTurns,
    bue_turn,
    rummikub_draw,
    rummikub_turn,
    serie_bum_turn,
)

pytestmark = pytest.mark.xdist_group("browser")

# Clicks on the table's hand button while the computers move, at most, between two of your turns.
CLICKS_WHILE_WAITING = 1


@dataclass(frozen=True)
class Match:
    game: str  # its command
    name: str  # its name, as its lobby's title says it
    title: str  # how its table message's title begins
    computers: int
    yours: re.Pattern[str]  # what the table says when you have a decision to make
    turn: Callable[[Player, Callable[[], Any]], None]  # your decision, the simplest, on the table
    options: dict[str, object] = field(default_factory=dict)
    hand: str | None = None  # the table's button that shows your hand, clicked while you wait
    # Your first decision, if not ``turn``: through the panels once, the quickest way after it.
    first_turn: Callable[[Player, Callable[[], Any]], None] | None = None


MATCHES = [
    Match(
        "bue",
        "Bué",
        "Bué · game",
        2,
        re.compile(r"Anna is exchanging|Waiting for: .*Anna"),
        bue_turn,
        # Past a Bué! (50), which can end a game at its deal, before any decision of yours.
        {"target": 60},
        hand="My hand",
    ),
    Match(
        "seriebum",
        "Serie Bum!",
        "Serie Bum! ·",
        1,
        re.compile(r"⏳ Anna"),
        serie_bum_turn,
        {"target": 10},
    ),
    Match(
        "rummikub",
        "Rummikub",
        "Rummikub · round",
        1,
        re.compile(r"Anna is playing"),
        rummikub_draw,
        {"rounds": 1, "hints": True},
        hand="My rack",
        first_turn=rummikub_turn,
    ),
    Match(
        "rumbugz",
        "RumBugz",
        "RumBugz · round",
        1,
        re.compile(r"Anna: draw from the bag"),
        RumBugzTurns(),
        {"rounds": 1},
        hand="My hand",
    ),
]


DEAL_SEED = "2"
MOST_DECISIONS = 60


@pytest.fixture
def pace() -> dict[str, str]:
    """Quick computers, and a move's outcome kept in view (Serie Bum!'s tiles covered again) a fifth
    of a second rather than five: whole games are long, and a person's clicks still fall among the
    computers' moves, each drawn and published as it is made. The same deals at every run
    (``DEAL_SEED``): RumBugz's gives the person a sequence to lay before the round ends."""
    return {"ROBOT_PAUSE": "0.1", "VIEW_PAUSE": "0.2", "DEAL_SEED": DEAL_SEED}


@pytest.mark.parametrize("match", MATCHES, ids=[match.game for match in MATCHES])
def test_a_game_played_to_its_end_as_fast_as_a_person_clicks(open_page, match: Match):
    you = Player(open_page, match.game, shots=f"end-{match.game}")
    you.begin(match.name, match.computers, **match.options)
    you.look("start")
    decisions = 0
    waiting = (match.title, match.game, match.yours, match.hand, CLICKS_WHILE_WAITING)
    while you.your_turn_or_the_end(*waiting):
        # A deal whose round drags on (computers handing one discard back and forth) fails here
        # rather than holding the suite up for many minutes.
        assert decisions < MOST_DECISIONS, f"the game did not end in {MOST_DECISIONS} of your decisions"
        turn = match.first_turn if match.first_turn and not decisions else match.turn
        turn(you, lambda: you.table(match.title, match.game))
        decisions += 1
        if decisions == 3:
            you.look("middle")
    you.look("end")
    you.never_locked()
    print(f"{match.game}: {you.clicks} clicks, {you.refused} refused on a changed button, 0 lock-ups")
    assert decisions and you.clicks > decisions
    if isinstance(match.turn, RumBugzTurns):
        assert match.turn.laid, "no lay was possible in the whole game"
