"""Benchmark: drawing and encoding the table and hand images, on seeded positions of each game.

Run by hand, not a test (see bench/README.md):

    python bench/render_bench.py --seeds 10

Positions come from ``tests/bot/image_states.py`` (seeded random matches; a table picture and
a hand picture every few actions, in English, Italian and French by turns). Each picture is
drawn as the bot does it, through the adapter's ``table()`` or ``hand()`` (so the time also
holds the embed and buttons, a few hundredths of a millisecond), with the cache of encoded
pictures emptied first: every figure is a full draw and encode. Then, on the same pixels:

- "RGB PNG": the encoding the images had before (an RGB PNG at compress_level 1), as a
  reference measured in the same run;
- "again": the same view drawn a second time, which the cache answers.

Times are CPU time of the drawing thread (``time.thread_time``), the fastest of ``--repeat``
timings of each picture (the one least disturbed by other jobs on a shared machine); then
the median and 99th percentile over the pictures.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image
from PIL.PngImagePlugin import PngInfo

from bot import render
from tests.bot.image_states import GAMES, Picture, pictures


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def forget() -> None:
    # The code before the cache has none to empty.
    cache = getattr(render, "PICTURES", None)
    if cache is not None:
        cache.clear()


def timed(action: Callable[[], object]) -> float:
    # CPU time of this thread: on a shared machine, wall time also counts the waits for a core.
    start = time.thread_time()
    action()
    return (time.thread_time() - start) * 1000


def rgb_png(png: bytes) -> Callable[[], bytes]:
    """The old encoding of the same picture, ready to time."""
    with Image.open(io.BytesIO(png)) as image:
        rgb = image.convert("RGB")
        info = PngInfo()
        info.add_text(render.FACES_CHUNK, image.info.get(render.FACES_CHUNK, ""))

    def encode() -> bytes:
        buffer = io.BytesIO()
        rgb.save(buffer, format="PNG", pnginfo=info, compress_level=1)
        return buffer.getvalue()

    return encode


def drawn_afresh(picture: Picture) -> bytes | None:
    forget()
    return picture.png()


def measure(picture: Picture, repeat: int) -> tuple[float, float, float, int] | None:
    """The fastest of ``repeat`` timings of each: the one least disturbed by the other jobs."""
    png = drawn_afresh(picture)  # warms the fonts and sprites up, as the bot's first pictures do
    if png is None:
        return None
    draw = min(timed(lambda: drawn_afresh(picture)) for _ in range(repeat))
    again = min(timed(picture.png) for _ in range(repeat))
    encode = rgb_png(png)
    return draw, min(timed(encode) for _ in range(repeat)), again, len(png)


def row(name: str, draws: list[float], old: list[float], again: list[float], sizes: list[float]) -> str:
    return (
        f"| {name} | {len(sizes)} | {statistics.median(draws):.2f} | {percentile(draws, 0.99):.2f} "
        f"| {statistics.median(old):.2f} | {statistics.median(again):.3f} "
        f"| {statistics.median(sizes) / 1024:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeded matches per game")
    parser.add_argument("--repeat", type=int, default=5, help="timings per picture (the fastest counts)")
    arguments = parser.parse_args()

    print(
        "| image | pictures | draw + encode median ms | p99 ms | RGB PNG encode median ms "
        "| again (cached) median ms | PNG median KiB |"
    )
    print("|---|---|---|---|---|---|---|")
    for game in GAMES:
        measured: dict[str, tuple[list[float], ...]] = {}
        for picture in pictures(game, range(arguments.seeds)):
            result = measure(picture, arguments.repeat)
            if result is None:
                continue
            columns = measured.setdefault(picture.kind, ([], [], [], []))
            for figures, figure in zip(columns, result, strict=True):
                figures.append(figure)
        for kind, figures in measured.items():
            print(row(f"{game} {kind}", *figures))


if __name__ == "__main__":
    main()
