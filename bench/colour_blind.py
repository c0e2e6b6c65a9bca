"""How each game's table looks to players with a colour vision deficiency.

Run by hand, not a test (see bench/README.md):

    python bench/colour_blind.py --out /tmp/colour_blind

Draws one table of each game (a seeded position of ``tests/bot/image_states.py`` with faces
of every colour on it) and, for the hand and rack too, writes each picture at its display size
(``bot.render.DESKTOP``) as seen with normal vision and through a simulation of deuteranopia,
protanopia and tritanopia (colorspacious, Machado et al. 2009, severity 100), side by side, as
one PNG per picture: look at them. For each simulation it prints the smallest colour
difference (ΔE in CAM02-UCS, colorspacious's deltaE) between the faces' colours that a shape or letter
must tell apart, so a pair the eye cannot separate by colour is named.
"""

from __future__ import annotations

import argparse
import io
import itertools
import sys
from pathlib import Path

import numpy as np
from colorspacious import cspace_convert, deltaE
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.bue.table import CARD_COLOURS
from bot.games.rummikub.table import NUMBER_INK
from bot.games.seriebum.table import TILE_COLOURS
from bot.render import DESKTOP
from tests.bot.image_states import pictures

DEFICIENCIES = ("deuteranomaly", "protanomaly", "tritanomaly")
# The colours each game tells apart: Rummikub's numbers' inks, Serie Bum!'s and Bué's faces.
PALETTES = {
    "rummikub": {code: ink for code, ink in NUMBER_INK.items()},
    "seriebum": {code: fill for code, (fill, _) in TILE_COLOURS.items()},
    "bue": {code: fill for code, (fill, _) in CARD_COLOURS.items()},
}
# The positions drawn: tables with many colours on them.
SHOWN = {
    "bue": "bue seed 0 action 60",
    "rummikub": "rummikub seed 0 action 72",
    "seriebum": "seriebum seed 2 action 432",
    "rumbugz": "rumbugz seed 1 action 1360",
}


def simulated(rgb: np.ndarray, deficiency: str) -> np.ndarray:
    space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
    return np.clip(cspace_convert(rgb / 255, space, "sRGB1"), 0, 1) * 255


def closest_pair(colours: dict[str, tuple[int, int, int]], deficiency: str | None) -> tuple[float, str]:
    seen = {
        code: simulated(np.array(rgb, dtype=float), deficiency) if deficiency else np.array(rgb, dtype=float)
        for code, rgb in colours.items()
    }
    pairs = [
        (float(deltaE(seen[a] / 255, seen[b] / 255, input_space="sRGB1")), f"{a}/{b}")
        for a, b in itertools.combinations(seen, 2)
    ]
    return min(pairs)


def sheet(png: bytes) -> Image.Image:
    """The picture at display size, then through each simulation, side by side."""
    with Image.open(io.BytesIO(png)) as image:
        picture = image.convert("RGB")
    scale = DESKTOP.scale(picture.size)
    picture = picture.resize((round(picture.width * scale), round(picture.height * scale)), Image.LANCZOS)
    pixels = np.asarray(picture, dtype=float)
    views = [picture] + [
        Image.fromarray(simulated(pixels, deficiency).round().astype(np.uint8)) for deficiency in DEFICIENCIES
    ]
    out = Image.new("RGB", (sum(v.width for v in views) + 10 * (len(views) - 1), picture.height), "white")
    left = 0
    for view in views:
        out.paste(view, (left, 0))
        left += view.width + 10
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/colour_blind"))
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    for game, prefix in SHOWN.items():
        for shown in pictures(game, range(4)):
            if shown.name.startswith(prefix + " "):
                png = shown.png()
                if png is not None:
                    path = out / f"{shown.name.replace(' ', '_')}.png"
                    sheet(png).save(path)
                    print("wrote", path)
    print()
    print("| colours | normal vision | " + " | ".join(DEFICIENCIES) + " |")
    print("|---|---|" + "---|" * len(DEFICIENCIES))
    for game, colours in PALETTES.items():
        cells = [closest_pair(colours, deficiency) for deficiency in (None, *DEFICIENCIES)]
        print(f"| {game} | " + " | ".join(f"{delta:.1f} ({pair})" for delta, pair in cells) + " |")


if __name__ == "__main__":
    main()
