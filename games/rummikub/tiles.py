"""Rummikub tiles, their codes, set rules and the parser for what players type.

Tile code format (views, events, actions): a colour letter followed by the number,
``k`` black, ``r`` red, ``b`` blue, ``o`` orange, e.g. ``"r7"``, ``"k13"``; ``"j"`` is
a joker. Two tiles with the same code are interchangeable copies.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from games.core import GameError

# The tile set, in one place (docs/rules/rummikub.md: 106 tiles, 14 each).
COLOURS: tuple[str, ...] = ("k", "r", "b", "o")
COLOUR_NAMES: dict[str, str] = {"k": "black", "r": "red", "b": "blue", "o": "orange"}
LOWEST = 1
HIGHEST = 13
COPIES = 2
JOKER = "j"
JOKER_COUNT = 2
RACK_SIZE = 14
INITIAL_MELD_MINIMUM = 30
JOKER_RACK_VALUE = 30
MIN_SET_SIZE = 3
MAX_GROUP_SIZE = len(COLOURS)

NUMBERS = range(LOWEST, HIGHEST + 1)
NUMBER_TILES: tuple[str, ...] = tuple(f"{colour}{number}" for colour in COLOURS for number in NUMBERS)
ALL_TILES: tuple[str, ...] = (
    tuple(code for code in NUMBER_TILES for _ in range(COPIES)) + (JOKER,) * JOKER_COUNT
)

_TILE_PATTERN = re.compile(r"^([krbo])(1[0-3]|[1-9])$")
_SEPARATORS = re.compile(r"[\s,;]+")


def colour_of(code: str) -> str:
    return code[0]


def number_of(code: str) -> int:
    return int(code[1:])


def is_joker(code: str) -> bool:
    return code == JOKER


# Racks and groups read colour by colour, low to high, jokers last. Looked up, not worked out
# from the code: every view of a rack sorts it.
_SORT_KEYS: dict[str, tuple[int, int]] = {
    **{code: (COLOURS.index(colour_of(code)), number_of(code)) for code in NUMBER_TILES},
    JOKER: (len(COLOURS), 0),
}
# Penalty value of a tile left on a rack: its number, a joker counts 30.
_RACK_VALUES: dict[str, int] = {**{code: number_of(code) for code in NUMBER_TILES}, JOKER: JOKER_RACK_VALUE}


def sorted_tiles(tiles: Iterable[str]) -> list[str]:
    return sorted(tiles, key=_SORT_KEYS.__getitem__)


def rack_value(tiles: Iterable[str]) -> int:
    """Penalty value of tiles left on a rack: the numbers, a joker counts 30."""
    return sum(map(_RACK_VALUES.__getitem__, tiles))


def parse_tile(token: str) -> str:
    """One tile code, case-insensitive; raises ``rummikub.error.bad_tile``."""
    normal = token.strip().lower()
    if normal in (JOKER, "joker"):
        return JOKER
    if not _TILE_PATTERN.match(normal):
        raise GameError("rummikub.error.bad_tile", token=token)
    return normal


def parse_tiles(text: str) -> list[str]:
    """Tiles typed by a player, e.g. ``"R7, r8 J"``; raises a GameError on bad or empty input."""
    tokens = [token for token in _SEPARATORS.split(text) if token]
    if not tokens:
        raise GameError("rummikub.error.no_tiles")
    return [parse_tile(token) for token in tokens]


def missing_from(rack: Sequence[str], tiles: Sequence[str]) -> str | None:
    """The first tile of ``tiles`` that the rack does not hold (counting copies), if any."""
    shortage = Counter(tiles) - Counter(rack)
    return next((code for code in tiles if shortage[code]), None)


def autocomplete(rack: Sequence[str], typed: str, limit: int = 25) -> list[str]:
    """Completions of a half-typed tile list with the rack tiles not named yet.

    ``typed`` is what the player has typed so far ("r7 r8 k"); each suggestion is
    the whole text with its last word completed, so a menu can offer it as is.
    """
    words = [word for word in _SEPARATORS.split(typed.lower()) if word]
    ends_with_separator = typed == "" or bool(_SEPARATORS.match(typed[-1]))
    done, partial = (words, "") if ends_with_separator else (words[:-1], words[-1])
    try:
        named = [parse_tile(word) for word in done]
    except GameError:
        return []
    left = Counter(rack) - Counter(named)
    prefix = " ".join(named)
    choices = [code for code in sorted_tiles(left) if code.startswith(partial)]
    return [f"{prefix} {code}".strip() for code in choices][:limit]


def _run_positions(tiles: Sequence[str]) -> range | None:
    """The numbers a run made of ``tiles`` covers, jokers as high as they can go; None if no run."""
    numbers = sorted(number_of(code) for code in tiles if not is_joker(code))
    colours = {colour_of(code) for code in tiles if not is_joker(code)}
    if len(colours) != 1 or len(set(numbers)) != len(numbers):
        return None
    start = min(numbers[0], HIGHEST - len(tiles) + 1)
    if start < LOWEST or start + len(tiles) - 1 < numbers[-1]:
        return None
    return range(start, start + len(tiles))


def _is_group(tiles: Sequence[str]) -> bool:
    real = [code for code in tiles if not is_joker(code)]
    colours = {colour_of(code) for code in real}
    return (
        len(tiles) <= MAX_GROUP_SIZE
        and len({number_of(code) for code in real}) == 1
        and len(colours) == len(real)
    )


def is_valid_set(tiles: Sequence[str]) -> bool:
    """A run (3+ in a row of one colour, no 13-1) or a group (3-4 of a number, all colours different)."""
    real = [code for code in tiles if code != JOKER]
    if len(tiles) < MIN_SET_SIZE or not real:
        return False
    numbers = {number_of(code) for code in real}
    colours = {colour_of(code) for code in real}
    if len(numbers) == 1 and len(colours) == len(real) and len(tiles) <= MAX_GROUP_SIZE:
        return True
    # A run: one colour, different numbers spanning no more than its length, which fits in 1..13.
    return (
        len(colours) == 1
        and len(numbers) == len(real)
        and max(numbers) - min(numbers) < len(tiles) <= HIGHEST
    )


def arranged(tiles: Sequence[str]) -> list[str]:
    """A valid set in reading order: a run low to high with jokers in the gaps, a group by colour."""
    positions = None if _is_group(tiles) else _run_positions(tiles)
    if positions is None:
        return sorted_tiles(tiles)
    by_number = {number_of(code): code for code in tiles if not is_joker(code)}
    return [by_number.get(number, JOKER) for number in positions]


def meld_value(tiles: Sequence[str]) -> int:
    """What a valid set counts for the initial meld; a joker counts the number it stands for (the best)."""
    positions = _run_positions(tiles)
    run_value = sum(positions) if positions is not None else 0
    numbers = [number_of(code) for code in tiles if not is_joker(code)]
    group_value = numbers[0] * len(tiles) if _is_group(tiles) else 0
    return max(run_value, group_value)
