"""A Rummikub Draw's two pictures: what drawing and encoding each costs, whether each changed,
and what drawing both in one trip to a thread saves over one trip each.

    python -m bench.drawing_trips [--draws 60] [--rounds 3]

Two players draw in turn from a seeded deal, as ``interaction_cost.py``'s Rummikub Draws do (the
racks grow past 30 tiles). After each Draw, the table and the drawer's rack are drawn as the bot
draws them, in its pictures' palette:

- the canvas (the shapes and texts pasted) and Pillow's PNG encoding apart, CPU of the thread;
- whether each picture's bytes differ from the same picture's at the Draw before (the table's)
  or at the drawer's Draw before (their rack's): a picture that did not change would be answered
  by the picture cache (``bot.render.PICTURES``) instead of drawn;
- the same pictures written by each encoder Pillow has for them (PNG at zlib's levels and
  strategies, GIF, lossless WebP): CPU and bytes, to show what the PNG at level 1 costs against
  what else could carry the same pixels;
- the canvases drawn again (every cache warm) as they are, and with the check of what lies under
  each shape answered "the background" at no cost: what a faster check (a grid of the boxes
  drawn) could save at most;
- the two drawn through the adapters (``table()``, ``hand()``, the picture cache emptied first)
  in one ``asyncio.to_thread``, as a move now does, and in two, as it did, in turns: the CPU of
  the drawing (the thread's) and of the whole process per Draw, medians of the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import io
import statistics
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from unittest import mock

import bot.render
from bot.adapter import DrawnAt, Rendered, Viewer
from bot.games.rummikub.adapter import ADAPTER
from games.core import perform
from games.rummikub import Rummikub

NAMES = ("anna", "bruno")


@dataclass(frozen=True)
class AfterDraw:
    """What the bot draws after one Draw: the table's view and the drawer's."""

    table: dict[str, Any]
    rack: dict[str, Any]
    drawer: int


def draws(count: int, seed: int = 1000) -> list[AfterDraw]:
    game = Rummikub.new(len(NAMES), {}, seed)
    made = []
    for _ in range(count):
        drawer = game.turn
        perform(game, drawer, {"type": "draw"})
        made.append(AfterDraw(game.view(None), game.view(drawer), drawer))
    return made


def viewer(seat: int | None = None) -> Viewer:
    return Viewer("en", NAMES, seat)


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    started = time.thread_time()
    made = work()
    return made, time.thread_time() - started


def pictures_apart(moves: list[AfterDraw]) -> None:
    """Canvas and encoding of each picture, and whether it changed."""
    spent: dict[str, list[float]] = {"table canvas": [], "table PNG": [], "rack canvas": [], "rack PNG": []}
    changed = {"table": 0, "rack": 0}
    last_table, last_rack = b"", {}
    for move in moves:
        table, seconds = timed(lambda move=move: ADAPTER.table_image(move.table, viewer()))
        spent["table canvas"].append(seconds)
        table_png, seconds = timed(table.png)
        spent["table PNG"].append(seconds)
        rack, seconds = timed(lambda move=move: ADAPTER.rack_image(move.rack["rack"], viewer(move.drawer)))
        spent["rack canvas"].append(seconds)
        rack_png, seconds = timed(rack.png)
        spent["rack PNG"].append(seconds)
        changed["table"] += table_png != last_table
        changed["rack"] += rack_png != last_rack.get(move.drawer)
        last_table, last_rack[move.drawer] = table_png, rack_png
    tiles = [len(move.rack["rack"]) for move in moves]
    print(f"{len(moves)} Draws, the drawer's rack {min(tiles)} to {max(tiles)} tiles:")
    for what, seconds in spent.items():
        print(f"- {what}: median {1000 * statistics.median(seconds):.3f} ms")
    for what, count in changed.items():
        print(f"- the {what} picture changed at {count} of {len(moves)} Draws")


ENCODERS: dict[str, dict[str, Any]] = {
    "PNG, zlib level 1 (the bot's)": {"format": "PNG", "compress_level": 1},
    "PNG, level 0 (stored, no compression)": {"format": "PNG", "compress_level": 0},
    "PNG, level 1, run-length strategy": {"format": "PNG", "compress_level": 1, "compress_type": zlib.Z_RLE},
    "PNG, level 1, Huffman only": {
        "format": "PNG",
        "compress_level": 1,
        "compress_type": zlib.Z_HUFFMAN_ONLY,
    },
    "PNG, level 1, filtered strategy": {
        "format": "PNG",
        "compress_level": 1,
        "compress_type": zlib.Z_FILTERED,
    },
    "GIF": {"format": "GIF"},
    "WebP, lossless, fastest method": {"format": "WEBP", "lossless": True, "method": 0, "quality": 0},
}


def encoders(moves: list[AfterDraw], rounds: int) -> None:
    """Each Draw's two pictures (as the bot's canvas leaves them, palette put) through each encoder,
    the encoders in turns, forwards then backwards, ``2 * rounds`` times: medians per Draw."""
    images = []
    for move in moves:
        for canvas in (
            ADAPTER.table_image(move.table, viewer()),
            ADAPTER.rack_image(move.rack["rack"], viewer(move.drawer)),
        ):
            image = canvas.image.copy()
            image.putpalette(b"".join(bytes(colour) for colour in canvas.colours))
            images.append(image)
    spent: dict[str, list[float]] = {name: [] for name in ENCODERS}
    size: dict[str, int] = {}
    for turn in range(2 * rounds):
        for name in list(ENCODERS)[:: 1 if turn % 2 == 0 else -1]:
            total, size[name] = 0.0, 0
            for image in images:
                buffer = io.BytesIO()
                _, seconds = timed(functools.partial(image.save, buffer, **ENCODERS[name]))
                total, size[name] = total + seconds, size[name] + buffer.tell()
            spent[name].append(total / len(moves))
    print(f"\nThe same {len(images)} pictures written by each encoder, per Draw (two pictures):")
    for name, runs in spent.items():
        print(f"- {name}: {1000 * statistics.median(runs):.3f} ms, {size[name] / len(moves) / 1024:.1f} KiB")


def under_check(moves: list[AfterDraw], rounds: int) -> None:
    """Both canvases of each Draw, caches warm, with the canvas's check of what lies under each
    shape as it is and as if it cost nothing (every shape on the background: the same pixels
    here, where no shape overlaps another), in turns."""

    def canvases() -> float:
        _, seconds = timed(
            lambda: [
                (
                    ADAPTER.table_image(move.table, viewer()),
                    ADAPTER.rack_image(move.rack["rack"], viewer(move.drawer)),
                )
                for move in moves
            ]
        )
        return seconds / len(moves)

    spent: dict[str, list[float]] = {"as it is": [], "at no cost": []}
    canvases()  # every cache warm
    for turn in range(2 * rounds):
        for way in list(spent)[:: 1 if turn % 2 == 0 else -1]:
            if way == "as it is":
                spent[way].append(canvases())
                continue
            on_background = lambda canvas, area: canvas.background  # noqa: E731
            with mock.patch.object(bot.render.Canvas, "_background_under", on_background):
                spent[way].append(canvases())
    print("\nBoth canvases of a Draw, caches warm, the check of what lies under each shape:")
    for way, runs in spent.items():
        print(f"- {way}: {1000 * statistics.median(runs):.3f} ms per Draw")


class DrawnPictures:
    """Both pictures of each Draw through the adapters, the drawing thread's CPU summed."""

    def __init__(self, moves: list[AfterDraw]) -> None:
        self.moves = moves
        self.drawing = 0.0

    def table(self, move: AfterDraw) -> Rendered:
        return self.timed(ADAPTER.table, move.table, viewer(), DrawnAt(1))

    def rack(self, move: AfterDraw) -> Rendered:
        return self.timed(ADAPTER.hand, move.rack, viewer(move.drawer), DrawnAt(1))

    def timed(self, draw: Callable[..., Rendered], *args: Any) -> Rendered:
        rendered, seconds = timed(lambda: draw(*args))
        self.drawing += seconds
        return rendered

    async def one_each(self) -> None:
        for move in self.moves:
            bot.render.PICTURES.clear()
            await asyncio.to_thread(self.table, move)
            await asyncio.to_thread(self.rack, move)

    async def both_in_one(self) -> None:
        for move in self.moves:
            bot.render.PICTURES.clear()
            await asyncio.to_thread(lambda move=move: [self.table(move), self.rack(move)])


async def trips(moves: list[AfterDraw], rounds: int) -> None:
    """Both ways in turns (one, two, two, one per round); CPU per Draw, medians of the rounds."""
    spent: dict[str, list[tuple[float, float]]] = {"one trip": [], "a trip each": []}
    for _ in range(rounds):
        for way in ("one trip", "a trip each", "a trip each", "one trip"):
            counted = DrawnPictures(moves)
            started = time.process_time()
            await (counted.both_in_one() if way == "one trip" else counted.one_each())
            process = time.process_time() - started
            spent[way].append((counted.drawing / len(moves), process / len(moves)))
    print(f"\nBoth pictures through the adapters, CPU per Draw (median of {2 * rounds} runs):")
    for way, runs in spent.items():
        drawing = 1000 * statistics.median(run[0] for run in runs)
        process = 1000 * statistics.median(run[1] for run in runs)
        print(f"- {way}: drawing thread {drawing:.3f} ms, process {process:.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--draws", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    moves = draws(options.draws)
    pictures_apart(moves)
    encoders(moves, options.rounds)
    under_check(moves, options.rounds)
    asyncio.run(trips(moves, options.rounds))


if __name__ == "__main__":
    main()
