"""Hand-built Serie Bum! positions and the invariants every position must keep."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from games.core import Event, SeededRandom
from games.seriebum import SerieBum
from games.seriebum.series import Layout, Series, is_valid
from games.seriebum.tiles import CELL_INDEX, TILE_COUNT, TILE_ID, TILES


def series(spec: str) -> Series:
    """ "run:R20 R30 JOLLY1" -> a run; "set:R40 Y40" -> a set."""
    kind, codes = spec.split(":")
    return Series(kind, tuple(TILE_ID[code] for code in codes.split()))


def layout(*specs: str) -> Layout:
    return tuple(series(spec) for spec in specs)


def build(
    board: Mapping[str, str],
    mine: Iterable[str] = (),
    theirs: Iterable[str] = (),
    *,
    turn: int = 0,
    target: int = 1000,
    points: tuple[int, int] = (0, 0),
    seen: Iterable[str] = (),
) -> SerieBum:
    """A position at the start of ``turn``'s turn: ``mine`` are that seat's series.

    Every tile neither on the board nor in a series is out of the game, so the 35 add up.
    """
    cells: list[int | None] = [None] * TILE_COUNT
    for cell, code in board.items():
        cells[CELL_INDEX[cell]] = TILE_ID[code]
    layouts = [layout(*mine), layout(*theirs)]
    if turn == 1:
        layouts.reverse()
    placed = {tile for tile in cells if tile is not None} | {
        t for lay in layouts for s in lay for t in s.tiles
    }
    game = SerieBum(
        target=target,
        rng=SeededRandom(7),
        manche=1,
        first_seat=turn,
        turn=turn,
        board=cells,
        seen=[CELL_INDEX[cell] for cell in seen],
        layouts=layouts,
        out=[tile for tile in range(TILE_COUNT) if tile not in placed],
        points=list(points),
    )
    check_invariants(game)
    return game


def codes_of(game: SerieBum, seat: int) -> list[list[str]]:
    return [[TILES[tile].code for tile in s.tiles] for s in game.layouts[seat]]


def hidden_codes(game: SerieBum) -> set[str]:
    """Tiles on the board that nobody may see now: face down and not remembered."""
    return {
        TILES[tile].code
        for cell, tile in enumerate(game.board)
        if tile is not None and cell not in game.face_up and cell not in game.seen
    }


def leaked(game: SerieBum) -> set[str]:
    """Codes of hidden tiles that some view shows (should always be empty).

    A plain substring test: no tile code is part of another code, a cell name or a number.
    """
    hidden = hidden_codes(game)
    texts = [json.dumps(game.view(seat)) for seat in (None, 0, 1)]
    return {code for code in hidden if any(code in text for text in texts)}


def tile_count(game: SerieBum) -> int:
    on_board = len(game.board) - game.board.count(None)
    in_series = sum(len(s.tiles) for lay in game.layouts for s in lay)
    return on_board + in_series + len(game.out)


def check_invariants(game: SerieBum) -> None:
    assert tile_count(game) == TILE_COUNT
    every = [t for t in game.board if t is not None] + [
        t for lay in game.layouts for s in lay for t in s.tiles
    ]
    assert len(set(every + game.out)) == TILE_COUNT
    assert all(is_valid(s) for lay in game.layouts for s in lay)


def keys(events: list[Event]) -> list[str]:
    """Event names without the game prefix."""
    return [event.key.removeprefix("seriebum.event.") for event in events]


def flip(game: SerieBum, *cells: str) -> list[Event]:
    """The player in turn flips ``cells`` one by one; invariants hold after each."""
    events: list[Event] = []
    for cell in cells:
        events += game.apply(game.turn, {"type": "flip", "cell": cell})
        check_invariants(game)
    return events
