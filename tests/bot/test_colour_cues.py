"""Colour is never the only cue (issue 31): every colour a player must tell apart also has a
shape on the pictures, and a word or symbol in the texts."""

from __future__ import annotations

import pytest

from bot.adapter import Viewer
from bot.games.bue.table import GOLD_MARK, card_label
from bot.games.rummikub import ADAPTER as RUMMIKUB
from bot.games.rummikub.table import MARK_OF, NUMBER_INK
from bot.games.seriebum.text import COLOUR_SQUARES, TILE_MARKS, tile_label
from bot.i18n import LANGUAGES, t
from bot.render import MARKS, PICTURES, Canvas
from games.seriebum.tiles import COLOURS
from tests.bot.image_states import pictures

VIEWER = Viewer("en", ["Anna", "Bruno"])


def test_each_colour_has_its_own_shape():
    assert set(TILE_MARKS) == set(COLOURS) and len(set(TILE_MARKS.values())) == len(COLOURS)
    assert set(MARK_OF) == set(NUMBER_INK) - {"j"} and len(set(MARK_OF.values())) == len(MARK_OF)
    assert {GOLD_MARK, *TILE_MARKS.values(), *MARK_OF.values()} <= set(MARKS)


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("seriebum", lambda code: TILE_MARKS.get(code[0], "") if code[1:].isdigit() else ""),
        ("rummikub", lambda code: MARK_OF.get(code[0], "")),
        ("bue", lambda code: GOLD_MARK if code.startswith("g") else ""),
    ],
)
def test_every_face_on_the_pictures_carries_its_colours_shape(monkeypatch, game, expected):
    drawn: list[tuple[str, str]] = []
    face = Canvas.face

    def recording(canvas, box, label, code, *args, **style):
        drawn.append((code, style.get("mark", "")))
        return face(canvas, box, label, code, *args, **style)

    monkeypatch.setattr(Canvas, "face", recording)
    PICTURES.clear()  # drawn afresh, not answered from memory
    for shown in pictures(game, range(1)):
        shown.png()
    assert len({code[0] for code, _ in drawn}) >= 3
    assert all(mark == expected(code) for code, mark in drawn)


def test_the_texts_name_colours_by_word_or_symbol():
    for colour in COLOURS:
        assert tile_label(f"{colour}30", VIEWER) == f"{COLOUR_SQUARES[colour]}{MARKS[TILE_MARKS[colour]]}30"
    assert RUMMIKUB.labels(["k13", "r13", "b13", "o13"], VIEWER) == "black 13 · red 13 · blue 13 · orange 13"
    assert card_label("g12", VIEWER) == "12 gold" and card_label("b12", VIEWER) == "12"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rummikub_table_says_which_shape_is_which_colour(language):
    legend = t(language, "rummikub.ui.marks")
    for colour, mark in MARK_OF.items():
        word = t(language, f"rummikub.ui.colour.{colour}", number="").strip()
        assert f"{MARKS[mark]} {word}" in legend
