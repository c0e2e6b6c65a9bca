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
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


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


def measure(picture: Picture, repeat: int) -> tuple[list[float], list[float], list[float], int] | None:
    forget()
    png = picture.png()  # warms the fonts and sprites up, as the bot's first pictures do
    if png is None:
        return None
    draws = []
    for _ in range(repeat):
        forget()
        draws.append(timed(picture.png))
    again = [timed(picture.png) for _ in range(repeat)]
    encode = rgb_png(png)
    old_encodes = [timed(encode) for _ in range(repeat)]
    return draws, old_encodes, again, len(png)


def row(name: str, draws: list[float], old: list[float], again: list[float], sizes: list[int]) -> str:
    return (
        f"| {name} | {len(sizes)} | {statistics.median(draws):.2f} | {percentile(draws, 0.99):.2f} "
        f"| {statistics.median(old):.2f} | {statistics.median(again):.3f} "
        f"| {statistics.median(sizes) / 1024:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeded matches per game")
    parser.add_argument("--repeat", type=int, default=3, help="timings per picture")
    arguments = parser.parse_args()

    print(
        "| image | pictures | draw + encode median ms | p99 ms | RGB PNG encode median ms "
        "| again (cached) median ms | PNG median KiB |"
    )
    print("|---|---|---|---|---|---|---|")
    for game in GAMES:
        measured: dict[str, tuple[list[float], list[float], list[float], list[int]]] = {}
        for picture in pictures(game, range(arguments.seeds)):
            result = measure(picture, arguments.repeat)
            if result is None:
                continue
            draws, old, again, size = measured.setdefault(picture.kind, ([], [], [], []))
            draws += result[0]
            old += result[1]
            again += result[2]
            size.append(result[3])
        for kind, figures in measured.items():
            print(row(f"{game} {kind}", *figures))


if __name__ == "__main__":
    main()
