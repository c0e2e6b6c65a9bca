"""Benchmark: how tall the smallest text of each picture is once Discord shows it.

Run by hand, not a test (see bench/README.md):

    python bench/picture_size.py --seeds 4

Draws every table and hand picture of the seeded positions of ``tests/bot/image_states.py``
(the positions the image tests draw), records the font size of every text each picture draws
(``bot.render.text_sizes``), and prints per picture kind the height of the smallest text's
digits once the picture is scaled to its display box: an embed's image on desktop
(``bot.render.DESKTOP``) and on a 360 px phone (``bot.render.PHONE``). ``tests/bot/
test_picture_size.py`` asserts the targets (``bot.render.SMALLEST_GLYPH``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.render import DESKTOP, PHONE, SMALLEST_GLYPH
from tests.bot.image_states import GAMES, measured, pictures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    seeds = range(parser.parse_args().seeds)
    print(
        f"| picture | pictures | sizes (px) | smallest glyph on desktop (px, target "
        f"{SMALLEST_GLYPH[DESKTOP]:g}) | on a phone (px, target {SMALLEST_GLYPH[PHONE]:g}) |"
    )
    print("|---|---|---|---|---|")
    for game in GAMES:
        for kind in ("table", "hand"):
            found = [m for shown in pictures(game, seeds) if shown.kind == kind if (m := measured(shown))]
            if not found:
                continue
            widths = sorted({m.size[0] for m in found})
            heights = sorted({m.size[1] for m in found})
            sizes = f"{widths[0]}-{widths[-1]} x {heights[0]}-{heights[-1]}"
            desktop = min(m.smallest_glyph(DESKTOP) for m in found)
            phone = min(m.smallest_glyph(PHONE) for m in found)
            print(f"| {game} {kind} | {len(found)} | {sizes} | {desktop:.1f} | {phone:.1f} |")


if __name__ == "__main__":
    main()
