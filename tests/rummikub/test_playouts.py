"""Seeded random matches driven through to_act(): legal moves, illegal ones, invariants."""

from __future__ import annotations

import json
import random

import pytest

from games.core import GameError
from games.rummikub import Rummikub
from games.rummikub.tiles import INITIAL_MELD_MINIMUM, is_valid_set, meld_value, sorted_tiles
from tests.rummikub.helpers import tile_count

GAMES = 300
# The only lists of tiles a view may hold besides the viewer's own rack ("can" lists action types).
PUBLIC_LISTS = {"table", "last_round", "can"}


def snapshot(game: Rummikub) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def check_views(game: Rummikub) -> None:
    for seat in [None, *range(game.players)]:
        view = json.loads(json.dumps(game.view(seat)))  # plain JSON
        lists = {
            key
            for key, value in view.items()
            if isinstance(value, list) and value and not isinstance(value[0], (int, bool))
        }
        assert lists <= PUBLIC_LISTS | ({"rack"} if seat is not None else set())
        if seat is not None:
            assert view["rack"] == sorted_tiles(game.racks[seat])
        assert view["racks"] == [len(rack) for rack in game.racks] and view["pool"] == len(game.pool)


def refuse(game: Rummikub, seat: int, action: dict) -> None:
    before = snapshot(game)
    with pytest.raises(GameError):
        game.apply(seat, action)
    assert snapshot(game) == before  # a refused action changes nothing


def quick_play(game: Rummikub, seat: int, rng: random.Random) -> list[str] | None:
    """A play a hurried player would see: a tile that extends a set, or a new set from the rack."""
    rack = sorted_tiles(game.racks[seat])
    if game.melded[seat]:
        for tile in rng.sample(rack, min(3, len(rack))):
            if any(is_valid_set([*s, tile]) for s in game.table):
                return [tile]
    for _ in range(25 if len(rack) >= 3 else 0):
        tiles = rng.sample(rack, 3)
        if is_valid_set(tiles) and (game.melded[seat] or meld_value(tiles) >= INITIAL_MELD_MINIMUM):
            return tiles
    return None


def play_out(seed: int, thorough: bool = False) -> Rummikub:
    rng = random.Random(seed)
    game = Rummikub.new(2 + seed % 3, {"rounds": 1 + seed % 2}, seed)
    leaver = rng.randrange(game.players) if seed % 11 == 0 else None
    for step in range(3000):
        if game.finished:
            return game
        if leaver is not None and step == 40 and game.active[leaver]:
            game.remove_player(leaver)
            continue
        (seat, types), *others = game.to_act().items()
        assert not others and types == {"play", "draw"}
        roll = rng.random()
        if roll < 0.04:
            refuse(game, rng.choice([s for s in range(game.players) if s != seat]), {"type": "draw"})
        elif roll < 0.06:
            refuse(game, seat, {"type": "play", "tiles": ["k1"] * 3})  # never three copies on one rack
        elif roll < 0.07 and game.racks[seat]:
            tiles = rng.sample(game.racks[seat], min(len(game.racks[seat]), 2))
            before = snapshot(game)
            try:
                game.apply(seat, {"type": "play", "tiles": tiles})
            except GameError:
                assert snapshot(game) == before
        elif thorough:
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        else:
            tiles = quick_play(game, seat, rng) if roll < 0.9 else None
            game.apply(seat, {"type": "play", "tiles": tiles} if tiles else game.default_action(seat))
        assert tile_count(game) == 106
        if step % 20 == 0:
            check_views(game)
            assert Rummikub.from_json(json.loads(snapshot(game))).to_json() == game.to_json()
    raise AssertionError(f"game {seed} did not end")


def test_random_matches_end_keep_106_tiles_and_show_no_other_rack():
    finished = [play_out(seed) for seed in range(GAMES)]
    assert any(game.winner() is None for game in finished)  # a player left and too few remained
    assert any(game.last_round and not game.last_round["blocked"] for game in finished)  # Rummikub!
    assert any(game.last_round and game.last_round["blocked"] for game in finished)


def test_matches_played_with_the_legal_actions_menu():
    for seed in range(1000, 1004):
        assert play_out(seed, thorough=True).finished
