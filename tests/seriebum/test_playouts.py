"""Seeded random playouts: every match ends, the 35 tiles are accounted for after every action,
no view shows a covered tile, and illegal actions change nothing.

The random players lean towards flipping, second, a tile that pairs with the first (as a player
with a good memory would), so a manche takes tens of actions rather than hundreds. Every action
is checked for the 35 tiles; one playout in twenty also checks every view and event.

The issue asks for 10,000 playouts: the default (about 100 s of CPU), in batches of BATCH seeds.
``SERIEBUM_PLAYOUTS`` sets another count for a quicker local run.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from games.core import GameError
from games.seriebum import SerieBum
from games.seriebum.engine import FLIP, FLIP_SECOND, REARRANGE
from games.seriebum.series import pair_series
from games.seriebum.tiles import CELLS

from ..seeds import seed_batches
from .builders import check_invariants, hidden_codes, leaked, tile_count
from .builders import keys as event_names

PLAYOUTS = int(os.environ.get("SERIEBUM_PLAYOUTS", "10000"))
VIEW_CHECK_EVERY = 20  # one playout in twenty checks all three views after every action
MAX_ACTIONS = 5000
BATCH = 500  # seeds per test, so that test workers share the playouts
LOCALES = json.loads((Path(__file__).parents[2] / "bot/locales/seriebum.json").read_text(encoding="utf-8"))


def choose(game: SerieBum, seat: int, rng: random.Random) -> dict:
    open_types = game.to_act()[seat]
    if game.phase == FLIP and ("move" not in open_types or rng.random() < 0.9):
        return {"type": "flip", "cell": CELLS[rng.choice(game.face_down_cells())]}
    if game.phase == FLIP_SECOND:
        cells = game.face_down_cells()
        first = game.board[game.face_up[0]]
        partners = [cell for cell in cells if pair_series(first, game.board[cell])]
        pick = partners if partners and rng.random() < 0.7 else cells
        return {"type": "flip", "cell": CELLS[rng.choice(pick)]}
    if game.phase == REARRANGE and rng.random() < 0.7:
        return {"type": "end_turn"}
    return rng.choice(game.legal_actions(seat))


def illegal(game: SerieBum, seat: int, rng: random.Random) -> tuple[int, dict]:
    empty = [cell for cell, tile in enumerate(game.board) if tile is None]
    candidates = [
        (1 - seat, game.default_action(seat)),
        (seat, {"type": "flip", "cell": "H9"}),
        (seat, {"type": "place", "option": "nowhere"}),
        (seat, {"type": "teleport"}),
        (seat, {"type": "end_turn"} if game.phase != REARRANGE else {"type": "bum", "option": "0:R10+R20"}),
    ]
    if empty:
        candidates.append((seat, {"type": "flip", "cell": CELLS[rng.choice(empty)]}))
    return rng.choice(candidates)


def play(seed: int, check_views: bool) -> set[str]:
    game = SerieBum.new(2, {"target": 10}, seed)
    rng = random.Random(seed)
    keys: set[str] = set()
    for _ in range(MAX_ACTIONS):
        if game.finished:
            return keys
        ((seat, _types),) = game.to_act().items()
        if rng.random() < 0.02:
            wrong_seat, action = illegal(game, seat, rng)
            before = json.dumps(game.to_json())
            with pytest.raises(GameError) as error:
                game.apply(wrong_seat, action)
            keys.add(error.value.key)
            assert json.dumps(game.to_json()) == before
        events = game.apply(seat, choose(game, seat, rng))
        keys.update(event.key for event in events)
        assert tile_count(game) == 35
        if check_views:
            check_invariants(game)
            assert not leaked(game), seed
            if "manche_started" not in event_names(events):
                # An event may name a tile only while it can be seen (a new deal reshuffles all).
                said = json.dumps([event.params for event in events])
                assert not any(code in said for code in hidden_codes(game)), seed
    raise AssertionError(f"seed {seed} did not finish")


@pytest.mark.parametrize("seeds", seed_batches(PLAYOUTS, BATCH))
def test_random_playouts(seeds: range) -> None:
    keys: set[str] = set()
    for seed in seeds:
        keys |= play(seed, check_views=seed % VIEW_CHECK_EVERY == 0)
    assert keys <= set(LOCALES), keys - set(LOCALES)
