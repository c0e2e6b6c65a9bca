"""The 35 Serie Bum! tiles and the 7x5 grid they are laid in (docs/rules/seriebum.md).

Tile codes: a numbered tile is its colour letter and value, e.g. "R30"; colours are
R (red), Y (yellow), W (white) and B (light blue). Specials are "JOLLY1", "JOLLY2",
"RUBA1", "RUBA2", "BUM1", "BUM2", "BUM3": the digit only tells identical tiles apart.
"""

from __future__ import annotations

from dataclasses import dataclass

NUMBER = "number"
JOLLY = "jolly"
RUBA = "ruba"
BUM = "bum"

COLOURS = ("R", "Y", "W", "B")
VALUES = (10, 20, 30, 40, 50, 60, 70)
VALUE_STEP = 10
JOLLY_POINTS = 100

# How many of each special tile the box holds; numbered tiles are one per colour and value.
SPECIAL_COUNTS = ((JOLLY, 2), (RUBA, 2), (BUM, 3))


@dataclass(frozen=True)
class Tile:
    code: str
    kind: str
    colour: str | None = None
    value: int = 0


TILES: tuple[Tile, ...] = (
    *(Tile(f"{colour}{value}", NUMBER, colour, value) for colour in COLOURS for value in VALUES),
    *(Tile(f"{kind.upper()}{n}", kind) for kind, count in SPECIAL_COUNTS for n in range(1, count + 1)),
)
TILE_COUNT = len(TILES)
TILE_ID = {tile.code: index for index, tile in enumerate(TILES)}

COLUMNS = "ABCDEFG"
ROWS = 5
# "A1..G5 order" is reading order: row 1 from A to G, then row 2, and so on.
CELLS = tuple(f"{column}{row}" for row in range(1, ROWS + 1) for column in COLUMNS)
CELL_INDEX = {cell: index for index, cell in enumerate(CELLS)}


def kind_of(tile: int) -> str:
    return TILES[tile].kind


def is_number(tile: int) -> bool:
    return TILES[tile].kind == NUMBER


def code_of(tile: int) -> str:
    return TILES[tile].code


def codes(tiles: list[int] | tuple[int, ...]) -> list[str]:
    return [TILES[tile].code for tile in tiles]
