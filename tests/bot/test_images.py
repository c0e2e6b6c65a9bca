"""Players see the pictures they saw before the drawing was made fast (issue 11).

Drawn in RGB (``exact_colours``), every table and hand picture of the seeded positions is
pixel-identical, faces recorded included, to the one the old drawing code made (fingerprints
in ``image_references.json``). Drawn as the bot sends them, in a palette image, the pictures
differ from those only where text antialiasing was rounded (see ``bot/render.py``): same
size, same faces, and no pixel further than the rounding allows.
"""

from __future__ import annotations

import io
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageChops

from bot.render import PICTURES, TEXT_LEVELS, Canvas, exact_colours, picture
from tests.bot.image_references import PATH, SEEDS, environment, fingerprint
from tests.bot.image_states import GAMES, Picture, pictures, rgb_and_faces

REFERENCES = json.loads(PATH.read_text(encoding="utf-8"))
# Half a coverage level of the widest contrast (255), and one for Pillow's rounding.
MOST_TEXT_ERROR = -(-255 // (2 * (TEXT_LEVELS - 1))) + 1

pytestmark = pytest.mark.skipif(
    REFERENCES["environment"] != environment(),
    reason=f"references drawn with {REFERENCES['environment']}, here {environment()}",
)


def seeded(game: str) -> list[tuple[Picture, bytes, bytes]]:
    """Each seeded picture of ``game`` with an image: drawn exactly, and as the bot sends it."""
    PICTURES.clear()
    found = []
    for shown in pictures(game, SEEDS):
        with exact_colours():
            exact = shown.png()
        if exact is not None:
            found.append((shown, exact, shown.png() or b""))
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_pictures_are_those_players_saw(game):
    drawn = seeded(game)
    expected = {
        name: print_ for name, print_ in REFERENCES["pictures"].items() if name.startswith(f"{game} ")
    }
    assert {shown.name: fingerprint(exact) for shown, exact, _ in drawn} == expected
    for shown, exact, sent in drawn:
        with Image.open(io.BytesIO(sent)) as image:
            assert image.mode == "P", shown.name
        old_pixels, old_size, old_faces = rgb_and_faces(exact)
        pixels, size, faces = rgb_and_faces(sent)
        assert (size, faces) == (old_size, old_faces), shown.name
        difference = ImageChops.difference(
            Image.frombytes("RGB", size, old_pixels), Image.frombytes("RGB", size, pixels)
        )
        assert max(high for _, high in difference.getextrema()) <= MOST_TEXT_ERROR, shown.name


def test_threads_draw_the_same_pictures():
    shown = [p for p in pictures("rumbugz", range(2)) if p.kind == "table"]
    PICTURES.clear()
    alone = [p.png() for p in shown]
    PICTURES.clear()
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(Picture.png, shown)) == alone


def test_a_view_is_drawn_once():
    drawn = []
    lock = threading.Lock()

    def draw(view, language):
        with lock:
            drawn.append((view, language))
        canvas = Canvas(40, 20)
        canvas.text((2, 2), view["text"])
        return canvas

    PICTURES.clear()
    first = picture("test.png", draw, {"text": "7"}, "en").fp.read()
    assert picture("test.png", draw, {"text": "7"}, "en").fp.read() == first
    picture("test.png", draw, {"text": "7"}, "fr")
    picture("test.png", draw, {"text": "8"}, "en")
    assert drawn == [({"text": "7"}, "en"), ({"text": "7"}, "fr"), ({"text": "8"}, "en")]


def test_a_picture_of_many_colours_is_drawn_in_rgb():
    def draw(count):
        canvas = Canvas(count, 1)
        for x in range(count):
            canvas.rectangle((x, 0, x, 0), fill=(x % 256, x // 256, 0))
        return canvas

    PICTURES.clear()
    with Image.open(picture("test.png", draw, 300).fp) as image:
        assert image.mode == "RGB"
        assert image.getpixel((299, 0)) == (299 % 256, 1, 0)
    with Image.open(picture("test.png", draw, 255).fp) as image:  # and the background
        assert image.mode == "P"
