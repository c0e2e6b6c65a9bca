"""Hand-built Rummikub positions and an independent brute force for the solver's answers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from games.core import SeededRandom
from games.rummikub import Rummikub
from games.rummikub.tiles import ALL_TILES, is_valid_set


def game_with(
    racks: Sequence[Sequence[str]],
    table: Sequence[Sequence[str]] = (),
    pool: Sequence[str] | None = None,
    *,
    melded: Sequence[bool] | None = None,
    turn: int = 0,
    rounds: int = 1,
    target: int = 0,
    hints: int = 0,
    points: Sequence[int] | None = None,
) -> Rummikub:
    """A match in its first round with these racks and table; the pool gets the other tiles."""
    players = len(racks)
    if pool is None:
        left = Counter(ALL_TILES) - Counter(code for rack in racks for code in rack)
        left -= Counter(code for s in table for code in s)
        pool = sorted(left.elements())
    return Rummikub(
        players=players,
        rounds=rounds,
        target=target,
        hints=hints,
        rng=SeededRandom(7),
        active=[True] * players,
        points=list(points or [0] * players),
        round=1,
        first_seat=0,
        turn=turn,
        racks=[list(rack) for rack in racks],
        pool=list(pool),
        table=[list(s) for s in table],
        melded=list(melded if melded is not None else [True] * players),
    )


def tile_count(game: Rummikub) -> int:
    return (
        len(game.pool)
        + sum(len(rack) for rack in game.racks)
        + sum(len(s) for s in game.table)
        + len(game.set_aside)
    )


# ------------------------------------------------------------------ brute force


def can_split(tiles: Sequence[str]) -> bool:
    """Whether these tiles split into valid sets, by trying every set holding the first tile."""
    return _split(tuple(sorted(tiles)))


@cache
def _split(tiles: tuple[str, ...]) -> bool:
    if not tiles:
        return True
    first, rest = tiles[0], tiles[1:]
    for size in range(2, len(rest) + 1):
        for mates in set(combinations(rest, size)):
            if is_valid_set((first, *mates)):
                left = Counter(rest) - Counter(mates)
                if _split(tuple(sorted(left.elements()))):
                    return True
    return False


def most_tiles(table_tiles: Sequence[str], rack: Sequence[str]) -> int:
    """The most rack tiles that can join the table tiles in valid sets."""
    for size in range(len(rack), 0, -1):
        for chosen in set(combinations(sorted(rack), size)):
            if can_split([*table_tiles, *chosen]):
                return size
    return 0


def fewest_broken(table: Sequence[Sequence[str]], tiles: Sequence[str]) -> int | None:
    """The fewest existing sets to break up so that their tiles and ``tiles`` split into sets."""
    for size in range(len(table) + 1):
        for broken in combinations(range(len(table)), size):
            if can_split([*tiles, *(code for position in broken for code in table[position])]):
                return size
    return None
