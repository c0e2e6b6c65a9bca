"""Every picture reads at the size Discord shows it (issue 31).

Each table and hand picture of the seeded positions is drawn, the font size of each of its
texts recorded (``text_sizes``: every text on a picture is a number, a name, a score or a
word of the game), and the picture scaled to its display box: the height of the smallest
text's digits must reach ``SMALLEST_GLYPH`` on desktop and on a 360 px phone.
"""

from __future__ import annotations

import pytest

from bot.adapter import Viewer
from bot.render import DESKTOP, PHONE, SMALLEST_GLYPH, DisplayBox
from games.bue import Bue
from tests.bot.image_references import SEEDS
from tests.bot.image_states import GAMES, NAMES, Picture, fullest_tables, measured, pictures


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
    assert DESKTOP.scale((800, 560)) == 0.5 and PHONE.scale((800, 560)) == 240 / 800


@pytest.mark.parametrize("box", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_bue_table_of_the_most_players_reads_too(box: DisplayBox) -> None:
    # The seeded positions have up to six players; Bué takes ten, in flatter rows.
    game = Bue.new(Bue.max_players, {}, 3)
    names = [f"{name}{seat}" for seat, name in enumerate(NAMES * 2)][: Bue.max_players]
    found = measured(Picture("bue", "table", "bue ten players", game.view(None), Viewer("fr", names)))
    assert found is not None and found.smallest_glyph(box) >= SMALLEST_GLYPH[box]


@pytest.mark.parametrize("box", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_fullest_tables_read_too(box: DisplayBox) -> None:
    for shown in fullest_tables():
        found = measured(shown)
        assert found is not None
        assert found.smallest_glyph(box) >= SMALLEST_GLYPH[box], (shown.name, found)
