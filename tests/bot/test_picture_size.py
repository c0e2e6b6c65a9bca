"""Every picture reads at the size Discord shows it (issue 31).

Each table and hand picture of the seeded positions is drawn, the font size of each of its
texts recorded (``text_sizes``: every text on a picture is a number, a name, a score or a
word of the game), and the picture scaled to its display box: the height of the smallest
text's digits must reach ``SMALLEST_GLYPH`` on desktop and on a 360 px phone.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.adapter import Viewer
from bot.render import DESKTOP, PHONE, SMALLEST_GLYPH, DisplayBox
from games.bue import Bue
from games.core import JSON
from games.rumbugz import RumBugz
from games.rummikub import Rummikub
from tests.bot.image_references import SEEDS
from tests.bot.image_states import GAMES, NAMES, Picture, _any_legal_move, measured, pictures


@pytest.mark.parametrize("box", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_smallest_text_reads_at_display_size(game: str, box: DisplayBox) -> None:
    too_small = {}
    drawn = 0
    for shown in pictures(game, SEEDS):
        found = measured(shown)
        if found is None:
            continue
        drawn += 1
        glyph = found.smallest_glyph(box)
        if glyph < SMALLEST_GLYPH[box]:
            too_small[shown.name] = f"{glyph:.1f} px ({found.size[0]} x {found.size[1]})"
    assert drawn
    assert not too_small, f"{len(too_small)} of {drawn}: {dict(list(too_small.items())[:5])}"


def test_the_boxes_are_embed_images():
    # Discord's own limit for an embed's image, and SimCord's: no picture fits a larger box.
    assert DESKTOP.width <= 400 and DESKTOP.height <= 300
    assert PHONE.width < DESKTOP.width
    assert DESKTOP.scale((800, 560)) == 0.5 and PHONE.scale((800, 560)) == 250 / 800


@pytest.mark.parametrize("box", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_bue_table_of_the_most_players_reads_too(box: DisplayBox) -> None:
    # The seeded positions have up to six players; Bué takes ten, in flatter rows.
    game = Bue.new(Bue.max_players, {}, 3)
    names = [f"{name}{seat}" for seat, name in enumerate(NAMES * 2)][: Bue.max_players]
    found = measured(Picture("bue", "table", "bue ten players", game.view(None), Viewer("fr", names)))
    assert found is not None and found.smallest_glyph(box) >= SMALLEST_GLYPH[box]


def rummikub_table_of(sets: list[list[str]]) -> Picture:
    view = {**Rummikub.new(4, {}, 1).view(None), "table": sets}
    return Picture("rummikub", "table", f"rummikub {len(sets)} sets", view, Viewer("fr", list(NAMES[:4])))


def rumbugz_six_players_fullest_table() -> Picture:
    """The position of a seeded six-player match whose table holds the most."""
    game, rng = RumBugz.new(6, {}, 1), random.Random(1)
    fullest: tuple[int, JSON] = (-1, {})
    while not game.finished and game.to_act():
        view = game.view(None)
        held = len(json.dumps(view["table"])) + len(json.dumps(view["completed"]))
        fullest = max(fullest, (held, view), key=lambda found: found[0])
        seat = min(game.to_act())
        game.apply(seat, _any_legal_move(game, seat, rng))
    names = [f"{name}{seat}" for seat, name in enumerate(NAMES)][:6]
    return Picture("rumbugz", "table", "rumbugz six players", fullest[1], Viewer("fr", names))


@pytest.mark.parametrize("box", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_fullest_tables_read_too(box: DisplayBox) -> None:
    # Every tile but two on the table, in eight runs; 95 in 27 groups; a six-player RumBugz table
    # at its fullest (its lines wrap, its rows add up).
    runs = [[f"{colour}{number}" for number in range(1, 14)] for colour in "krbo" for _ in range(2)]
    groups = [[f"{colour}{number}" for colour in "krbo"][: 3 + number % 2] for number in range(1, 14)] * 2
    fullest = [rummikub_table_of(runs), rummikub_table_of([*groups, ["j", "r1", "r2"]])]
    fullest.append(rumbugz_six_players_fullest_table())
    for shown in fullest:
        found = measured(shown)
        assert found is not None
        assert found.smallest_glyph(box) >= SMALLEST_GLYPH[box], (shown.name, found)
