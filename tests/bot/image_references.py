"""The pictures players see, as fingerprints: ``test_images.py`` checks every renderer against them.

Regenerate only when a picture is meant to change (and say why in the commit):

    python -m tests.bot.image_references

Written with the drawing code as of commit d0b725e (before the sprites and palette images).
A fingerprint is a hash of the picture's size, its RGB pixels and the faces it records, so
a palette image and an RGB image showing the same pixels have the same fingerprint. Text
is drawn with the font and Pillow recorded beside the fingerprints; another font or Pillow
draws other pixels, so the test is skipped there.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import PIL

from bot.render import exact_colours, font
from tests.bot.image_states import GAMES, pictures, rgb_and_faces

PATH = Path(__file__).with_name("image_references.json")
SEEDS = range(4)


def fingerprint(png: bytes) -> str:
    rgb, (width, height), faces = rgb_and_faces(png)
    digest = hashlib.sha256(f"{width}x{height} {' '.join(faces)}\n".encode())
    digest.update(rgb)
    return digest.hexdigest()[:20]


def environment() -> dict[str, str]:
    return {"pillow": PIL.__version__, "font": Path(getattr(font(20), "path", "bundled")).name}


def fingerprints() -> dict[str, str]:
    """Drawn in RGB, as ``test_images.py`` draws them to compare."""
    found = {}
    with exact_colours():
        for game in GAMES:
            for picture in pictures(game, SEEDS):
                png = picture.png()
                if png is not None:
                    found[picture.name] = fingerprint(png)
    return found


def main() -> None:
    PATH.write_text(json.dumps({"environment": environment(), "pictures": fingerprints()}, indent=0) + "\n")


if __name__ == "__main__":
    main()
