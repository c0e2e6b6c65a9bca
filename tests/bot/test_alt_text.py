"""Every picture has alt text (issue 31): what a screen reader reads, or a client shows, in
place of the picture; and it says no more than the picture's viewer may see."""

from __future__ import annotations

import random

import pytest

from bot.adapter import DrawnAt, Viewer
from bot.games import bue
from bot.games.bue.table import card_label
from bot.render import ALT_TEXT_LIMIT
from games.bue import Bue
from games.bue.cards import DECK
from tests.bot.image_states import ADAPTERS, GAMES, _bue_move, pictures


@pytest.mark.parametrize("game", list(GAMES))
def test_every_table_and_hand_picture_has_alt_text(game: str) -> None:
    described = set()
    for shown in pictures(game, range(2)):
        adapter = ADAPTERS[game]
        draw = adapter.table if shown.kind == "table" else adapter.hand
        file = draw(shown.view, shown.viewer, DrawnAt(1)).file
        if file is None:
            continue
        assert file.description, shown.name
        assert len(file.description) <= ALT_TEXT_LIMIT
        described.add(shown.kind)
    assert described == ({"table"} if game == "seriebum" else {"table", "hand"})


def test_a_bue_tables_alt_text_names_the_cards_face_up_and_no_other() -> None:
    rng = random.Random(5)
    game = Bue.new(4, {}, 5)
    viewer = Viewer("en", ["Anna", "Bruno", "Carla", "Dario"])
    checked = 0
    while not game.finished and game.to_act():
        alt = bue.ADAPTER.table(game.view(None), viewer, DrawnAt(1)).file.description
        lines = {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in alt.splitlines()}
        for seat, hand in enumerate(game.hands):
            if not game.active[seat] or not hand:
                continue
            said = lines[viewer.name(seat)].split(" · ")
            for position, slot in enumerate(hand):
                shown = card_label(DECK[slot.card].code, viewer) if slot.revealed else f"{position + 1}. ?"
                assert said[position] == shown
                checked += 1
        seat = min(game.to_act())
        game.apply(seat, _bue_move(game, seat, rng))
    assert checked > 100
