"""Series logic: what is a valid series, where tiles fit, and every choice a player can face.

A player's series form a ``Layout``: an ordered tuple of ``Series``. Everything here is a
pure function of immutable tuples, so results can be cached.

- A run (succession) lists its tiles from low to high; a jolly holds the slot of the value it
  stands for, so it can end up inside a run that grew past it (red 20-30-J then red 50).
- A set (repetition) lists its numbered tiles by colour, the jolly last (it stands for a
  missing colour, so a set with a jolly holds at most three numbered tiles).
- Every series has at least two tiles and at least one numbered tile: a jolly beside one
  numbered tile is a pair (red 20 + J is red 20-30, or a 20 of another colour).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from games.seriebum.tiles import (
    BUM,
    COLOURS,
    JOLLY,
    JOLLY_POINTS,
    RUBA,
    TILE_ID,
    TILES,
    VALUE_STEP,
    VALUES,
    code_of,
    is_number,
    kind_of,
)

RUN = "run"
SET = "set"
LOW = "low"
HIGH = "high"
NEW_SERIES = "new"
SET_SIZE = len(COLOURS)


class Series(NamedTuple):
    kind: str
    tiles: tuple[int, ...]


Layout = tuple[Series, ...]


class Step(NamedTuple):
    """One tile going into series ``series`` of the layout the choice was made on."""

    tile: int
    series: int
    end: str | None  # LOW or HIGH for a run, None for a set


class Choice(NamedTuple):
    """A way to place tiles in a player's own series (a take, a jolly, a move)."""

    steps: tuple[Step, ...]
    result: Layout
    source: int | None = None  # the series a move takes tiles out of
    new_series: bool = False

    @property
    def id(self) -> str:
        return NEW_SERIES if self.new_series else ",".join(_step_id(step) for step in self.steps)


class Steal(NamedTuple):
    id: str
    tile: int
    victim_series: int
    step: Step
    thief_result: Layout
    victim_result: Layout


class Blast(NamedTuple):
    """One way the opponent can resolve a BUM!: the series hit and the two tiles that survive."""

    id: str
    series: int
    survivors: tuple[int, int]
    removed: tuple[int, ...]
    result: Layout
    points_lost: int
    value_removed: int


# ---------------------------------------------------------------------------- single series


def _set_order(tile: int) -> tuple[bool, int]:
    colour = TILES[tile].colour
    return (colour is None, COLOURS.index(colour) if colour else 0)


def _run_start(tiles: tuple[int, ...]) -> int:
    """The value of a run's first slot, read from its first numbered tile."""
    position, tile = next((p, t) for p, t in enumerate(tiles) if is_number(t))
    return TILES[tile].value - VALUE_STEP * position


@lru_cache(maxsize=65536)
def is_valid(series: Series) -> bool:
    numbered = [tile for tile in series.tiles if is_number(tile)]
    jollies = [tile for tile in series.tiles if kind_of(tile) == JOLLY]
    if len(series.tiles) < 2 or not numbered or len(jollies) > 1:
        return False
    if len(numbered) + len(jollies) != len(series.tiles):
        return False
    if series.kind == SET:
        colours = {TILES[tile].colour for tile in numbered}
        values = {TILES[tile].value for tile in numbered}
        return len(series.tiles) <= SET_SIZE and len(values) == 1 and len(colours) == len(numbered)
    start = _run_start(series.tiles)
    colour = TILES[numbered[0]].colour
    return (
        series.kind == RUN
        and VALUES[0] <= start
        and start + VALUE_STEP * (len(series.tiles) - 1) <= VALUES[-1]
        and all(
            TILES[tile].colour == colour and TILES[tile].value == start + VALUE_STEP * position
            for position, tile in enumerate(series.tiles)
            if is_number(tile)
        )
    )


@lru_cache(maxsize=4096)
def pair_series(first: int, second: int) -> Series | None:
    """The series two numbered tiles start together, if they do."""
    if not (is_number(first) and is_number(second)):
        return None
    for candidate in (
        Series(RUN, tuple(sorted((first, second), key=lambda tile: TILES[tile].value))),
        Series(SET, tuple(sorted((first, second), key=_set_order))),
    ):
        if is_valid(candidate):
            return candidate
    return None


def placements(series: Series, tile: int) -> tuple[tuple[str | None, Series], ...]:
    """Where ``tile`` fits in ``series``: (end, grown series) for each way."""
    if series.kind == SET:
        grown = Series(SET, tuple(sorted((*series.tiles, tile), key=_set_order)))
        return ((None, grown),) if is_valid(grown) else ()
    candidates = ((LOW, Series(RUN, (tile, *series.tiles))), (HIGH, Series(RUN, (*series.tiles, tile))))
    return tuple((end, grown) for end, grown in candidates if is_valid(grown))


@lru_cache(maxsize=65536)
def without(series: Series, position: int) -> tuple[Series, ...] | None:
    """What is left of ``series`` without the tile at ``position``: one series, or two when a run
    is cut in the middle; None when a leftover would not be a valid series."""
    tiles = series.tiles
    if series.kind == SET:
        pieces: tuple[tuple[int, ...], ...] = (tiles[:position] + tiles[position + 1 :],)
    else:
        pieces = tuple(piece for piece in (tiles[:position], tiles[position + 1 :]) if piece)
    parts = tuple(Series(series.kind, piece) for piece in pieces)
    return parts if all(is_valid(part) for part in parts) else None


def series_points(series: Series) -> int:
    # A jolly's 100 needs two other tiles beside it: exactly a series of three or more.
    if len(series.tiles) < 3:
        return 0
    return sum(TILES[tile].value if is_number(tile) else JOLLY_POINTS for tile in series.tiles)


def layout_points(layout: Layout) -> int:
    return sum(series_points(series) for series in layout)


def tile_points(tile: int) -> int:
    return TILES[tile].value if is_number(tile) else JOLLY_POINTS


# ---------------------------------------------------------------------------- layouts


def _replace(layout: Layout, index: int, parts: tuple[Series, ...]) -> Layout:
    return layout[:index] + parts + layout[index + 1 :]


@lru_cache(maxsize=65536)
def _joiners(series: Series) -> dict[int, tuple[tuple[str | None, Series], ...]]:
    """Every tile that can join ``series``, with its placements."""
    numbered = next(TILES[tile] for tile in series.tiles if is_number(tile))
    if series.kind == SET:
        candidates = [tile for tile, face in enumerate(TILES) if face.value == numbered.value]
    else:
        candidates = [tile for tile, face in enumerate(TILES) if face.colour == numbered.colour]
    candidates += [tile for tile, face in enumerate(TILES) if face.kind == JOLLY]
    return {tile: ways for tile in candidates if (ways := placements(series, tile))}


def fits_somewhere(layout: Layout, tile: int) -> bool:
    return any(tile in _joiners(series) for series in layout)


def layout_placements(layout: Layout, tile: int) -> list[tuple[Step, Layout]]:
    return [
        (Step(tile, index, end), (*layout[:index], grown, *layout[index + 1 :]))
        for index, series in enumerate(layout)
        for end, grown in _joiners(series).get(tile, ())
    ]


def _step_id(step: Step) -> str:
    return f"{code_of(step.tile)}>{step.series}" + (f"@{step.end}" if step.end else "")


def _distinct(choices: Iterator[Choice]) -> list[Choice]:
    """One choice per resulting layout: placing the same tiles in another order is no choice."""
    seen: dict[Layout, Choice] = {}
    for choice in choices:
        seen.setdefault(choice.result, choice)
    return list(seen.values())


def take_choices(layout: Layout, first: int, second: int) -> list[Choice]:
    """Every way to take two flipped numbered tiles: start a new series with both, or add both
    to one's series one after the other. Empty when they cannot be taken."""

    def ways() -> Iterator[Choice]:
        started = pair_series(first, second)
        if started is not None:
            yield Choice((), (*layout, started), new_series=True)
        for one, other in ((first, second), (second, first)):
            for step, grown in layout_placements(layout, one):
                for next_step, result in layout_placements(grown, other):
                    yield Choice((step, next_step), result)

    return _distinct(ways())


def single_choices(layout: Layout, tile: int) -> list[Choice]:
    """Every way to add one tile (a jolly, or the last tile of the board) to one's series."""
    return _distinct(Choice((step,), result) for step, result in layout_placements(layout, tile))


def _move_ways(layout: Layout) -> Iterator[Choice]:
    for index, series in enumerate(layout):
        for position, tile in enumerate(series.tiles):
            left = without(series, position)
            if left is None or len(left) != 1:
                continue
            shrunk = _replace(layout, index, left)
            for step, result in layout_placements(shrunk, tile):
                if step.series != index:
                    yield Choice((step,), result, index)
    for index in range(len(layout)):
        yield from _emptyings(layout, index)


@lru_cache(maxsize=8192)
def move_choices(layout: Layout) -> tuple[Choice, ...]:
    """Every rearrangement a player may make in one action: one tile to another series (its
    series keeps two tiles or more and stays whole and valid), or a whole series emptied into
    the others, each tile fitting where it goes when it gets there."""
    return tuple(_distinct(_move_ways(layout)))


@lru_cache(maxsize=8192)
def has_moves(layout: Layout) -> bool:
    return next(_move_ways(layout), None) is not None


@lru_cache(maxsize=65536)
def _may_ever_fit(tile: int, series: Series, helpers: int) -> bool:
    """A quick necessary condition for ``tile`` to join ``series``, now or once ``helpers`` other
    tiles have filled the slots between them."""
    if not is_number(tile):
        return JOLLY not in (kind_of(other) for other in series.tiles)
    face = TILES[tile]
    numbered = [TILES[other] for other in series.tiles if is_number(other)]
    if series.kind == SET:
        return (
            len(series.tiles) < SET_SIZE
            and numbered[0].value == face.value
            and all(other.colour != face.colour for other in numbered)
        )
    low = _run_start(series.tiles)
    high = low + VALUE_STEP * (len(series.tiles) - 1)
    gap = max(low - face.value, face.value - high) // VALUE_STEP - 1
    return numbered[0].colour == face.colour and 0 <= gap <= helpers


def _emptyings(layout: Layout, index: int) -> Iterator[Choice]:
    others = layout[:index] + layout[index + 1 :]
    helpers = len(layout[index].tiles) - 1
    if not all(any(_may_ever_fit(tile, other, helpers) for other in others) for tile in layout[index].tiles):
        return
    explored: set[tuple[tuple[int, ...], Layout]] = set()

    def original(position: int) -> int:
        return position + (position >= index)

    def place(left: tuple[int, ...], current: Layout, steps: tuple[Step, ...]) -> Iterator[Choice]:
        if not left:
            yield Choice(steps, current, index)
            return
        for position, tile in enumerate(left):
            rest = left[:position] + left[position + 1 :]
            for step, grown in layout_placements(current, tile):
                if (rest, grown) in explored:
                    continue
                explored.add((rest, grown))
                yield from place(rest, grown, (*steps, step._replace(series=original(step.series))))

    yield from place(layout[index].tiles, others, ())


def steal_choices(thief: Layout, victim: Layout) -> list[Steal]:
    """Every tile RUBA may take: not a jolly, the victim's series stays valid or splits into two
    valid series, and the tile fits one of the thief's own series."""
    steals = []
    for index, series in enumerate(victim):
        for position, tile in enumerate(series.tiles):
            if not is_number(tile):
                continue
            left = without(series, position)
            if left is None:
                continue
            for step, result in layout_placements(thief, tile):
                steals.append(Steal(_step_id(step), tile, index, step, result, _replace(victim, index, left)))
    return steals


def blast_choices(layout: Layout) -> list[Blast]:
    """Every way a BUM! can hit ``layout``: a series of three or more and two of its tiles that
    still make a valid pair."""
    blasts = []
    for index, series in enumerate(layout):
        if len(series.tiles) < 3:
            continue
        if series.kind == RUN:
            pairs = list(zip(series.tiles, series.tiles[1:], strict=False))
        else:
            pairs = list(combinations(series.tiles, 2))
        for pair in pairs:
            survivor = Series(series.kind, pair)
            if not is_valid(survivor):
                continue
            removed = tuple(tile for tile in series.tiles if tile not in pair)
            blasts.append(
                Blast(
                    f"{index}:{code_of(pair[0])}+{code_of(pair[1])}",
                    index,
                    pair,
                    removed,
                    _replace(layout, index, (survivor,)),
                    series_points(series),
                    sum(tile_points(tile) for tile in removed),
                )
            )
    return blasts


# ---------------------------------------------------------------------------- dead board


def reachable_layouts(layout: Layout) -> Iterator[Layout]:
    """Every arrangement (series order ignored) a player can reach by moves alone, nearest first;
    lazily, since a search usually stops at the first arrangement that takes something."""
    found = {_arrangement_key(layout)}
    queue = deque([layout])
    while queue:
        arrangement = queue.popleft()
        yield arrangement
        for choice in move_choices(arrangement):
            key = _arrangement_key(choice.result)
            if key not in found:
                found.add(key)
                queue.append(choice.result)


_FIRST_JOLLY = next(tile for tile, face in enumerate(TILES) if face.kind == JOLLY)


def _arrangement_key(layout: Layout) -> tuple[Series, ...]:
    """The same arrangement whatever the series order, and whichever jolly is where."""
    return tuple(
        sorted(
            Series(s.kind, tuple(_FIRST_JOLLY if kind_of(t) == JOLLY else t for t in s.tiles)) for s in layout
        )
    )


def _board_has_pair(numbered: Sequence[int]) -> bool:
    on_board = {(TILES[tile].colour, TILES[tile].value) for tile in numbered}
    return any(
        (colour, value + VALUE_STEP) in on_board
        or any((other, value) in on_board for other in COLOURS if other != colour)
        for colour, value in on_board
    )


def _takes_something(layout: Layout, board: Sequence[int], numbered: Sequence[int]) -> bool:
    kinds = {kind_of(tile) for tile in board}
    if BUM in kinds and any(len(series.tiles) >= 3 for series in layout):
        return True
    jolly = next((tile for tile in board if kind_of(tile) == JOLLY), None)
    if jolly is not None and fits_somewhere(layout, jolly):
        return True
    if len(board) == 1:
        return bool(numbered) and fits_somewhere(layout, numbered[0])
    return any(
        fits_somewhere(grown, other)
        for one in numbered
        for _, grown in layout_placements(layout, one)
        for other in numbered
        if other != one
    )


def _could_take_after_moves(layout: Layout, board: Sequence[int], numbered: Sequence[int]) -> bool:
    """Whether moves could let ``layout`` take something its current arrangement cannot.

    Asked only once the current arrangement takes nothing, so with a BUM! on the board every
    series is a pair: then any move empties a pair into another series, which grows to three.
    Otherwise search every arrangement, unless too few board tiles could ever find a home.
    """
    if not layout:
        return False
    if any(kind_of(tile) == BUM for tile in board) and has_moves(layout):
        return True
    homes = sum(_may_ever_host(layout, tile, board) for tile in numbered)
    needed = 1 if len(board) == 1 else 2
    if homes < needed and not any(kind_of(tile) == JOLLY for tile in board):
        return False
    return any(_takes_something(arrangement, board, numbered) for arrangement in reachable_layouts(layout))


def _may_ever_host(layout: Layout, tile: int, board: Sequence[int]) -> bool:
    """A necessary condition for ``tile`` to join ``layout`` after any moves.

    Moves never create a series nor change what one is (a run of one colour, a set of one value).
    A run reaches the tile only if the player (or the same take) holds every tile in between,
    bar one slot a jolly of the player's may fill.
    """
    face = TILES[tile]
    held = {t for series in layout for t in series.tiles} | set(board)
    jolly_slots = min(1, sum(kind_of(t) == JOLLY for t in held))
    for series in layout:
        first = next(TILES[t] for t in series.tiles if is_number(t))
        if series.kind == SET and first.value == face.value:
            return True
        if series.kind == RUN and first.colour == face.colour:
            low = _run_start(series.tiles)
            high = low + VALUE_STEP * (len(series.tiles) - 1)
            if face.value < low:
                between = range(face.value + VALUE_STEP, low, VALUE_STEP)
            else:
                between = range(high + VALUE_STEP, face.value, VALUE_STEP)
            missing = sum(TILE_ID[f"{face.colour}{value}"] not in held for value in between)
            if missing <= jolly_slots:
                return True
    return False


@lru_cache(maxsize=1024)
def board_can_still_give(board: tuple[int, ...], layouts: tuple[Layout, ...]) -> bool:
    """Whether any tile left on the board can ever change hands: a RUBA (always used), a pair
    that starts a series, or, for some player in some arrangement their moves can reach, a
    usable JOLLY or BUM!, two tiles that join their series, or the last tile joining one.
    Nothing else changes the table, so False means nothing ever will."""
    if any(kind_of(tile) == RUBA for tile in board):
        return True
    numbered = [tile for tile in board if is_number(tile)]
    if len(board) >= 2 and _board_has_pair(numbered):
        return True
    if any(_takes_something(layout, board, numbered) for layout in layouts):
        return True
    return any(_could_take_after_moves(layout, board, numbered) for layout in layouts)
