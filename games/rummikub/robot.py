"""Rummikub computer players, and the arena's uniformly random baseline.

Every robot decides from the seat's view only (its rack, the table, who has melded, how
many tiles each seat and the pool hold) and names only the rack tiles it lays, as a player
does; the engine then lays them out. Each play is legal by construction: either the solver
found a valid table holding the old tiles and these, or the robot built one itself (new
sets from its rack, tiles added to the end of table sets), so ``lay_out`` always finds one.

- ``hard`` plays the solver's best play: the most tiles, then the highest value. The
  solver lays every joker it can, even a spare one hung on the end of a run; hard keeps
  such a joker back while that costs nothing (the same real tiles go down without it) and
  no opponent is close to going out, as a joker on the rack wins plays later.
- ``easy`` plays like a casual player: it sees the sets its rack forms alone and the
  tiles that extend a table set as it stands, never a rearrangement; it spends its jokers
  as soon as they fit somewhere, and now and then it holds back and draws although it
  could play.
- ``random_action`` is the baseline: uniform among plays it can list cheaply, plus draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from games.core import JSON, SeededRandom
from games.robots import Robot
from games.rummikub.solver import best_play
from games.rummikub.tiles import (
    COLOURS,
    HIGHEST,
    INITIAL_MELD_MINIMUM,
    JOKER,
    LOWEST,
    MAX_GROUP_SIZE,
    MIN_SET_SIZE,
    is_joker,
    is_valid_set,
    rack_value,
)

# Hard keeps a spare joker only while every opponent holds more tiles than this: a joker
# left on the rack when someone goes out costs 30.
_JOKER_RISK = 5
# Easy holds back one turn in this many when it could play (but never when it would go out).
_EASY_HOLDS_BACK = 5

Tiles = tuple[str, ...]


class RummikubRobot(Robot):
    """A Rummikub player for one seat; see the module docstring for the levels."""

    game = "rummikub"

    def decide(self, view: JSON) -> JSON:
        rack: list[str] = list(view["rack"])
        table: list[list[str]] = [list(s) for s in view["table"]]
        melded = bool(view["melded"][view["me"]])
        if self.level == "hard":
            tiles = hard_play(rack, table, melded, keep_jokers=_safe_to_keep_jokers(view))
        else:
            tiles = self._easy_play(rack, table, melded)
        return _play_or_draw(tiles)

    def _easy_play(self, rack: list[str], table: list[list[str]], melded: bool) -> list[str]:
        tiles = easy_play(rack, table, melded)
        if tiles and len(tiles) < len(rack) and self.random.randrange(_EASY_HOLDS_BACK) == 0:
            return []
        return tiles


def _play_or_draw(tiles: Sequence[str]) -> JSON:
    return {"type": "play", "tiles": list(tiles)} if tiles else {"type": "draw"}


def _safe_to_keep_jokers(view: JSON) -> bool:
    """Whether a spare joker may stay on the rack: the pool still feeds play and no one is near the end."""
    me = view["me"]
    others = [count for seat, count in enumerate(view["racks"]) if seat != me and view["active"][seat]]
    return view["pool"] > 0 and all(count > _JOKER_RISK for count in others)


def _real(tiles: Sequence[str]) -> tuple[int, int]:
    """How much a play lays besides jokers: tiles, then value (what keeping a joker must not lower)."""
    real = [code for code in tiles if not is_joker(code)]
    return len(real), rack_value(real)


def hard_play(
    rack: Sequence[str], table: Sequence[Sequence[str]], melded: bool, keep_jokers: bool
) -> list[str]:
    """The solver's best play (most tiles, then value), with spare jokers kept back if ``keep_jokers``.

    Empty when nothing can be laid. The engine rearranges the table itself, so the
    solver is asked for any valid table, not the one changing fewest sets (quicker).
    """
    layout = best_play(rack, table, initial_meld=not melded, fewest_changes=False)
    if layout is None:
        return []
    tiles = list(layout.tiles)
    jokers = tiles.count(JOKER)
    if not keep_jokers or not jokers or len(tiles) == len(rack):
        return tiles
    plain = [code for code in rack if not is_joker(code)]
    wanted = _real(tiles)
    for kept in range(jokers, 0, -1):  # keep as many as possible first
        fewer = best_play(
            [*plain, *[JOKER] * (rack.count(JOKER) - kept)],
            table,
            initial_meld=not melded,
            fewest_changes=False,
        )
        if fewer is not None and _real(fewer.tiles) >= wanted:
            return list(fewer.tiles)
    return tiles


def easy_play(rack: Sequence[str], table: Sequence[Sequence[str]], melded: bool) -> list[str]:
    """What a casual player sees: sets from the rack alone, then tiles added to the ends of table sets.

    Before the meld, the best meld the rack can form (it is the table's first hurdle, so
    even a casual player looks hard for it). Empty when it sees nothing.
    """
    if not melded:
        meld = best_play(rack, (), initial_meld=True, fewest_changes=False)
        return [] if meld is None else list(meld.tiles)
    own = best_play(rack, (), fewest_changes=False)
    laid = list(own.tiles) if own is not None else []
    extended = [list(s) for s in table]
    left = sorted((Counter(rack) - Counter(laid)).elements(), key=_reading_order)
    while fitting := _extension(left, extended):
        code, spot = fitting
        spot.append(code)
        laid.append(code)
        left.remove(code)
    return laid


def _extension(tiles: Sequence[str], table: Sequence[list[str]]) -> tuple[str, list[str]] | None:
    """The first of ``tiles`` that one table set takes as it stands, and that set."""
    return next(((code, s) for code in tiles for s in table if is_valid_set([*s, code])), None)


def _reading_order(code: str) -> tuple[int, str, int]:
    """Jokers last: they fit almost anywhere, so the numbered tiles pick their spots first."""
    return (1, "", 0) if is_joker(code) else (0, code[0], int(code[1:]))


# ------------------------------------------------------------------ the random baseline


def rack_sets(rack: Sequence[str]) -> dict[Tiles, int]:
    """Every valid set the rack can form alone, as sorted tiles, with the most it counts for a meld.

    A joker only fills a missing place (never replaces a tile the rack holds), so a set
    is listed once per distinct choice of tiles.
    """
    have = Counter(rack)
    jokers = have[JOKER]
    found: dict[Tiles, int] = {}

    def add(tiles: list[str], value: int) -> None:
        key = tuple(sorted(tiles))
        if is_valid_set(key):
            found[key] = max(found.get(key, 0), value)

    for colour in COLOURS:
        for start in range(LOWEST, HIGHEST - MIN_SET_SIZE + 2):
            for end in range(start + MIN_SET_SIZE - 1, HIGHEST + 1):
                tiles = [f"{colour}{n}" if have[f"{colour}{n}"] else JOKER for n in range(start, end + 1)]
                if tiles.count(JOKER) > jokers:
                    break
                add(tiles, sum(range(start, end + 1)))
    for number in range(LOWEST, HIGHEST + 1):
        present = [f"{colour}{number}" for colour in COLOURS if have[f"{colour}{number}"]]
        for size in range(1, len(present) + 1):
            for real in combinations(present, size):
                for wild in range(max(0, MIN_SET_SIZE - size), min(jokers, MAX_GROUP_SIZE - size) + 1):
                    add([*real, *[JOKER] * wild], number * (size + wild))
    return found


def random_plays(view: JSON) -> list[Tiles]:
    """The plays the random player lists, each a distinct multiset of rack tiles, in a fixed order.

    Before the meld: one set from the rack worth 30, or two disjoint sets worth 30
    together. After it: one set from the rack, or one rack tile that extends a table set
    as it stands.
    """
    rack = view["rack"]
    sets = rack_sets(rack)
    if not view["melded"][view["me"]]:
        plays = {tiles for tiles, value in sets.items() if value >= INITIAL_MELD_MINIMUM}
        have: Counter[str] = Counter(rack)
        for (first, one), (second, two) in combinations(sorted(sets.items()), 2):
            if one + two >= INITIAL_MELD_MINIMUM and not Counter(first) + Counter(second) - have:
                plays.add(tuple(sorted(first + second)))
        return sorted(plays)
    singles = {(code,) for code in rack for s in view["table"] if is_valid_set([*s, code])}
    return sorted(set(sets) | singles)


def random_action(view: JSON, random: SeededRandom) -> JSON:
    """The arena's uniformly random legal player: one of ``random_plays(view)`` or a draw, each
    equally likely (uniform over distinct tile multisets, not over ways to lay them out).

    Every listed play is legal: the tiles form valid sets alone (worth at least what the
    engine counts for a meld), or the table with the tile added at a set's end is valid.
    """
    choices: list[JSON] = [{"type": "draw"}, *(_play_or_draw(tiles) for tiles in random_plays(view))]
    return choices[random.randrange(len(choices))]
