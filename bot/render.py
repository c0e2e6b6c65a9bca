"""Pillow drawing shared by every game: fonts, cards and tiles, and PNG output.

Every image records in a PNG text chunk the codes of the faces it shows, so tests can
check an image against the view it was drawn from.

Pictures are drawn for speed (issue 11: a few milliseconds each, encoding included):

- into a palette image, one byte a pixel, which PNG encodes several times faster than RGB;
- card and tile faces and backs are drawn once per look (size, label, colours, what lies
  under them) and pasted afterwards; text is rasterised once per (text, size, anchor,
  sub-pixel position);
- the last pictures are kept by what they were drawn from (``picture``).

A palette holds 256 colours and antialiased text makes more: every coverage of an ink over a
background is a colour. So in a palette image a text pixel's coverage is rounded to one of
``TEXT_LEVELS`` levels: an edge pixel of a letter may differ from Pillow's RGB drawing by at
most 1/30 of the contrast between ink and background (see ``test_images.py``). Everything
else (shapes, solid colours, positions, fully covered text) is exact. A picture that needs
more than 256 colours all the same is drawn again in RGB, where every pixel is Pillow's own.
"""

from __future__ import annotations

import io
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, is_dataclass
from functools import cache, lru_cache
from typing import Any

import discord
from PIL import Image, ImageChops, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]

FELT = (28, 84, 60)
FELT_DARK = (20, 62, 44)
INK = (245, 245, 240)
MUTED = (180, 200, 190)
HIGHLIGHT = (255, 214, 92)
CARD_BACK = (52, 73, 140)
CARD_BACK_PATTERN = (74, 98, 170)
FACES_CHUNK = "faces"

PALETTE_SIZE = 256
TEXT_LEVELS = 16  # coverage levels of a text pixel in a palette image: 0 (none) to 15 (full)
ALT_TEXT_LIMIT = 1024  # characters of an attachment's description
PICTURES_KEPT = 128  # encoded pictures kept by what they were drawn from, about 40 KiB each


# ---------------------------------------------------------------------------- display size


@dataclass(frozen=True)
class DisplayBox:
    """The box a client shows a picture in: scaled down to fit it, keeping its shape, never up.
    Where the numbers come from: docs/development.md, "Pictures at Discord's sizes"."""

    width: int
    height: int

    def scale(self, size: tuple[int, int]) -> float:
        """How much a picture of ``size`` pixels is scaled to be shown in this box."""
        return min(1.0, self.width / size[0], self.height / size[1])


# An embed's image on desktop: Discord shows it within 400 x 300, SimCord's preview within
# 400 x 280; the smaller of the two.
DESKTOP = DisplayBox(400, 280)
# The same image on a phone 360 px wide: the message gutter and the embed's frame leave about 250
# in Discord's app, 240 in SimCord's preview (measured by the playground's browser test); the smaller.
PHONE = DisplayBox(240, 280)
# The smallest text that carries game information (a number, a name, a score), in pixels of
# its digits' height at display size.
SMALLEST_GLYPH = {DESKTOP: 12.0, PHONE: 8.0}
# Pictures are drawn at twice the size they are shown: sharp on high-density screens and when
# opened full size.
DRAWN_SCALE = 2
PICTURE_W, PICTURE_H = DRAWN_SCALE * DESKTOP.width, DRAWN_SCALE * DESKTOP.height
# The smallest font a picture PICTURE_W wide may use: its digits are 13 px tall on desktop and
# 8 px on a phone (``tests/bot/test_picture_size.py``).
MIN_FONT = 37

_exact: ContextVar[bool] = ContextVar("exact_colours", default=False)


@contextmanager
def exact_colours() -> Iterator[None]:
    """Canvases made inside draw in RGB: every pixel as Pillow draws it (a slower PNG)."""
    token = _exact.set(True)
    try:
        yield
    finally:
        _exact.reset(token)


class PaletteFull(Exception):
    """The picture needs more colours than a palette image holds."""


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # DejaVu Sans covers accented names and arrows; Pillow's bundled font is the fallback.
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size=size)


# ---------------------------------------------------------------------------- text

_drawn_sizes: ContextVar[list[int] | None] = ContextVar("drawn_sizes", default=None)


@contextmanager
def text_sizes() -> Iterator[list[int]]:
    """The font size of every text the canvases made inside draw (labels of cards included):
    how tests and the bench measure the smallest text of a picture."""
    sizes: list[int] = []
    token = _drawn_sizes.set(sizes)
    try:
        yield sizes
    finally:
        _drawn_sizes.reset(token)


def _record(size: int) -> None:
    sizes = _drawn_sizes.get()
    if sizes is not None:
        sizes.append(size)


@cache
def glyph_height(size: int) -> int:
    """How tall a text of this font size is, in pixels: the height of its digits (as tall as
    its capitals), which every number, name and score on a picture has."""
    _, top, _, bottom = font(size).getbbox("0123456789", anchor="ls")
    return int(bottom - top)


# The font has no emoji: marks the bot itself puts in names are drawn with a glyph it has.
DRAWN_AS = str.maketrans({"🤖": "⚙"})


def drawable(text: str) -> str:
    """``text`` as the pictures draw it (see ``DRAWN_AS``)."""
    return text.translate(DRAWN_AS)


@dataclass(frozen=True, eq=False)
class Glyphs:
    """A text as drawn at a point: its coverage, rounded to ``TEXT_LEVELS`` levels."""

    levels: Image.Image  # "L", 0 to TEXT_LEVELS - 1
    mask: Image.Image  # "L", 255 where the level is not 0
    offset: tuple[int, int]  # top left corner from the point's whole pixel


_LEVEL_OF = [round(coverage * (TEXT_LEVELS - 1) / 255) for coverage in range(256)]
_COVERED = [255 if level else 0 for level in _LEVEL_OF]


@lru_cache(maxsize=4096)
def glyphs(text: str, size: int, anchor: str, start: tuple[float, float]) -> Glyphs | None:
    """``text`` drawn with its ``anchor`` at ``start`` (the point's fraction of a pixel); None if blank."""
    face = font(size)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    # Two pixels of room on every side: the sub-pixel start and antialiasing may reach past the box.
    x0, y0 = math.floor(left) - 2, math.floor(top) - 2
    coverage = Image.new("L", (math.ceil(right) + 3 - x0, math.ceil(bottom) + 3 - y0))
    # Ink 255 on 0 blends to the coverage itself: these are the values Pillow blends with on a canvas.
    ImageDraw.Draw(coverage).text((start[0] - x0, start[1] - y0), text, font=face, fill=255, anchor=anchor)
    inked = coverage.getbbox()
    if inked is None:
        return None
    coverage = coverage.crop(inked)
    return Glyphs(coverage.point(_LEVEL_OF), coverage.point(_COVERED), (x0 + inked[0], y0 + inked[1]))


@lru_cache(maxsize=1024)
def _blends(under: Colour, ink: Colour) -> tuple[Colour, ...]:
    """Each coverage level of ``ink`` over ``under``, blended as Pillow blends text."""
    ramp = Image.new("L", (TEXT_LEVELS, 1))
    ramp.putdata([round(level * 255 / (TEXT_LEVELS - 1)) for level in range(TEXT_LEVELS)])
    strip = Image.new("RGB", (TEXT_LEVELS, 1), under)
    strip.paste(ink, (0, 0, TEXT_LEVELS, 1), ramp)
    raw = strip.tobytes()
    return tuple((raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3))


# ---------------------------------------------------------------------------- cards and tiles

TextLine = tuple[tuple[float, float], str, int, Colour, str]  # point, text, size, ink, anchor


@dataclass(frozen=True)
class Face:
    """A card or tile face up, as drawn in a box at (0, 0)."""

    width: int
    height: int
    label: str
    fill: Colour
    ink: Colour
    outline: Colour
    label_size: int = MIN_FONT
    mark: str = ""  # a shape (``MARKS``) in the top left corner: the colour told by a shape too

    def texts(self) -> list[TextLine]:
        # A marked face's label sits lower, clear of its mark.
        middle = self.height / 2 + (self._mark_side() / 2 + 1 if self.mark else 0)
        return [((self.width / 2, middle), self.label, self.label_size, self.ink, "mm")]

    def _mark_side(self) -> int:
        return max(10, min(30, self.width // 3, self.height // 3))

    def draw(self, canvas: Canvas, left: int, top: int) -> None:
        box = (left, top, left + self.width, top + self.height)
        radius = max(4, self.width // 8)
        canvas.rounded_rectangle(box, radius, fill=self.fill, outline=self.outline, width=2)
        if self.mark:
            side = self._mark_side()
            canvas.mark(self.mark, (left + 4, top + 4, left + 4 + side, top + 4 + side), self.ink)
        canvas.texts(self.texts(), left, top)


@dataclass(frozen=True)
class Back:
    """A card or tile face down, as drawn in a box at (0, 0): never anything that tells what it is."""

    width: int
    height: int
    label: str
    label_size: int = MIN_FONT

    def texts(self) -> list[TextLine]:
        if not self.label:
            return []
        return [((self.width / 2, self.height / 2), self.label, self.label_size, MUTED, "mm")]

    def draw(self, canvas: Canvas, left: int, top: int) -> None:
        radius = max(4, self.width // 8)
        right, bottom = left + self.width, top + self.height
        canvas.rounded_rectangle((left, top, right, bottom), radius, fill=CARD_BACK, outline=INK, width=2)
        inset = 6
        box = (left + inset, top + inset, right - inset, bottom - inset)
        canvas.rounded_rectangle(box, radius, outline=CARD_BACK_PATTERN, width=2)
        canvas.texts(self.texts(), left, top)


Shape = Face | Back

# The shapes that tell colours apart without the colour (``Face.mark``), with the symbol the
# texts write beside the colour's name.
MARKS = {"circle": "●", "triangle": "▲", "square": "■", "diamond": "◆", "bar": "▬"}


@dataclass(frozen=True, eq=False)
class Sprite:
    """A shape drawn once on one background, to paste."""

    image: Image.Image  # RGB, or "L" holding indexes into ``colours``
    colours: tuple[Colour, ...]
    offset: tuple[int, int]  # top left corner from the shape's box


@lru_cache(maxsize=256)
def _reach(shape: Shape) -> Box:
    """The pixels a shape may change, from its box's corner: its box, and its letters where
    a wide label reaches past it."""
    left, top, right, bottom = 0, 0, shape.width + 1, shape.height + 1
    for (x, y), text, size, _, anchor in shape.texts():
        drawn = glyphs(text, size, anchor, (math.modf(x)[0], math.modf(y)[0]))
        if drawn is not None:
            x0, y0 = int(x) + drawn.offset[0], int(y) + drawn.offset[1]
            left, top = min(left, x0), min(top, y0)
            right, bottom = max(right, x0 + drawn.levels.width), max(bottom, y0 + drawn.levels.height)
    return left, top, right, bottom


@lru_cache(maxsize=2048)
def _sprite(shape: Shape, background: Colour, exact: bool) -> Sprite:
    left, top, right, bottom = _reach(shape)
    canvas = Canvas(right - left, bottom - top, background, exact=exact)
    shape.draw(canvas, -left, -top)
    return Sprite(canvas.image, tuple(canvas.colours), (left, top))


def _values_in(image: Image.Image, most: int) -> list[int]:
    """The palette indices, or grey levels, an image of one band holds (``most`` at most)."""
    return [value for _, value in image.getcolors(most) or [] if isinstance(value, int)]


# A picture's palette order varies with what it shows first, so the same sprite comes in many
# orders: 2048 of them filled slowly, adding about 20 MB of RSS over 2,500 Bué moves
# (bench/memory.py); with 512, 93% of the lookups still hit.
@lru_cache(maxsize=512)
def _in_palette(drawn: Sprite | Glyphs, indexes: bytes) -> Image.Image:
    """A palette sprite, or a text's levels, with its colours at these indexes. Pictures of one
    kind number their colours in the same order, so this is mostly done once for all of them."""
    source = drawn.image if isinstance(drawn, Sprite) else drawn.levels
    return _mapped(source, indexes.ljust(256, b"\0"))


# ---------------------------------------------------------------------------- canvas


def _mapped(image: Image.Image, lut: bytes) -> Image.Image:
    """An "L" image with each value v replaced by ``lut[v]``: Image.point, without the cost of
    rounding its table in Python on every call."""
    return Image.frombytes("L", image.size, image.tobytes().translate(lut))


@dataclass
class Canvas:
    width: int
    height: int
    background: Colour = FELT
    faces: list[str] = field(default_factory=list)
    exact: bool = field(default_factory=_exact.get)

    def __post_init__(self) -> None:
        self.colours: list[Colour] = []
        self._indexes: dict[Colour, int] = {}
        self._text_luts: dict[tuple[int, Colour], bytes] = {}
        self._pasted: dict[Sprite, Image.Image] = {}
        # Where anything was drawn so far: a shape pasted elsewhere is known to sit on background.
        self._drawn: list[Box] = []
        if self.exact:
            self.image = Image.new("RGB", (self.width, self.height), self.background)
        else:
            self.image = Image.new("L", (self.width, self.height), self.ink(self.background))
        self._draw = ImageDraw.Draw(self.image)

    # ------------------------------------------------------------------ colours

    def ink(self, colour: Colour) -> int | Colour:
        """``colour`` as this image holds it: itself in RGB, a palette index otherwise."""
        return colour if self.exact else self._index(colour)

    def _index(self, colour: Colour) -> int:
        index = self._indexes.get(colour)
        if index is None:
            if len(self.colours) == PALETTE_SIZE:
                raise PaletteFull
            index = self._indexes[colour] = len(self.colours)
            self.colours.append(colour)
        return index

    def _ink(self, colour: Colour | None) -> int | Colour | None:
        return None if colour is None else self.ink(colour)

    def _one_colour(self, region: Image.Image) -> Colour | None:
        """The colour filling ``region``, or None if it holds several."""
        extrema: Any = region.getextrema()  # (low, high) of each band; of the one band in "L"
        bands = extrema if self.exact else (extrema,)
        if any(low != high for low, high in bands):
            return None
        lows = [int(low) for low, _ in bands]
        return (lows[0], lows[1], lows[2]) if self.exact else self.colours[lows[0]]

    def _mark(self, points: Sequence[float], spread: float = 0) -> None:
        """Record that the box around ``points`` (x, y, x, y, ...; PIL draws their last row and
        column too) was drawn on, ``spread`` pixels wider on each side."""
        xs, ys = points[0::2], points[1::2]
        self._drawn.append(
            (
                math.floor(min(xs) - spread),
                math.floor(min(ys) - spread),
                math.ceil(max(xs) + spread) + 1,
                math.ceil(max(ys) + spread) + 1,
            )
        )

    def _background_under(self, area: Box) -> Colour | None:
        """The one colour under ``area``, or None if it holds several. Where nothing was drawn yet
        the answer is the background, without reading the pixels."""
        x0, y0, x1, y1 = area
        if not any(
            left < x1 and x0 < right and top < y1 and y0 < bottom for left, top, right, bottom in self._drawn
        ):
            return self.background
        return self._one_colour(self.image.crop(area))

    # ------------------------------------------------------------------ shapes

    def rounded_rectangle(
        self,
        box: Sequence[float],
        radius: int,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: int = 1,
    ) -> None:
        self._draw.rounded_rectangle(
            tuple(box), radius=radius, fill=self._ink(fill), outline=self._ink(outline), width=width
        )
        self._mark(box)

    def rectangle(self, box: Sequence[float], fill: Colour) -> None:
        self._draw.rectangle(tuple(box), fill=self.ink(fill))
        self._mark(box)

    def ellipse(self, box: Sequence[float], fill: Colour) -> None:
        self._draw.ellipse(tuple(box), fill=self.ink(fill))
        self._mark(box)

    def polygon(self, points: Sequence[float], fill: Colour) -> None:
        self._draw.polygon(tuple(points), fill=self.ink(fill))
        self._mark(points)

    def mark(self, shape: str, box: Sequence[float], fill: Colour) -> None:
        """One of ``MARKS`` filling ``box``."""
        x0, y0, x1, y1 = box
        xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
        if shape == "circle":
            self.ellipse(box, fill)
        elif shape == "square":
            inset = (x1 - x0) / 10
            self.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), fill)
        elif shape == "triangle":
            self.polygon((xm, y0, x1, y1, x0, y1), fill)
        elif shape == "diamond":
            self.polygon((xm, y0, x1, ym, xm, y1, x0, ym), fill)
        elif shape == "bar":  # a flat bar: the fifth mark
            self.rectangle((x0, ym - (y1 - y0) / 5, x1, ym + (y1 - y0) / 5), fill)
        else:
            raise ValueError(shape)

    def line(self, points: Sequence[float], fill: Colour, width: int = 1) -> None:
        self._draw.line(tuple(points), fill=self.ink(fill), width=width)
        self._mark(points, spread=width)

    # ------------------------------------------------------------------ text

    def text_length(self, text: str, size: int) -> float:
        return self._draw.textlength(drawable(text), font=font(size))

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = 20,
        fill: Colour = INK,
        anchor: str = "la",
    ) -> None:
        text = drawable(text)
        _record(size)
        if self.exact:
            self._draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)
            self._mark(self._draw.textbbox(xy, text, font=font(size), anchor=anchor))
            return
        x, y = xy
        drawn = glyphs(text, size, anchor, (math.modf(x)[0], math.modf(y)[0]))
        if drawn is None:
            return
        left, top = int(x) + drawn.offset[0], int(y) + drawn.offset[1]
        box = (left, top, left + drawn.levels.width, top + drawn.levels.height)
        self._drawn.append(box)
        under = self.image.crop(box)
        indices = _values_in(under, PALETTE_SIZE)
        if len(indices) == 1:
            self.image.paste(_in_palette(drawn, self._text_lut(indices[0], fill)), box, drawn.mask)
            return
        # Letters over several colours (over other letters, say): each part blended with its own,
        # with only the levels it holds, as the overlap is a few pixels of many colours.
        for index in indices:
            where = _mapped(under, bytes(255 * (i == index) for i in range(256)))
            levels = ImageChops.multiply(drawn.levels, where)
            blends = _blends(self.colours[index], fill)
            lut = bytearray(256)
            for level in _values_in(levels, TEXT_LEVELS):
                lut[level] = self._index(blends[level])
            self.image.paste(_mapped(levels, bytes(lut)), box, ImageChops.multiply(drawn.mask, where))

    def _text_lut(self, under: int, ink: Colour) -> bytes:
        lut = self._text_luts.get((under, ink))
        if lut is None:
            indexes = [self._index(c) for c in _blends(self.colours[under], ink)]
            lut = self._text_luts[under, ink] = bytes(indexes).ljust(256, b"\0")
        return lut

    def wrapped(self, text: str, size: int, width: float) -> list[str]:
        """``text`` in lines no wider than ``width`` (a word longer than that alone on its line)."""
        lines: list[str] = []
        for word in text.split():
            if lines and self.text_length(f"{lines[-1]} {word}", size) <= width:
                lines[-1] += f" {word}"
            else:
                lines.append(word)
        return lines

    def texts(self, lines: Iterable[TextLine], left: int, top: int) -> None:
        for (x, y), text, size, ink, anchor in lines:
            self.text((left + x, top + y), text, size, ink, anchor)

    # ------------------------------------------------------------------ cards and tiles

    def _shape(self, shape: Shape, left: int, top: int) -> None:
        if _drawn_sizes.get() is not None:  # a pasted sprite draws no text: count its own
            for _, _, size, _, _ in shape.texts():
                _record(size)
        x0, y0, x1, y1 = _reach(shape)
        area = (left + x0, top + y0, left + x1, top + y1)
        under = self._background_under(area)
        if under is None:  # a sprite is drawn on one background: on several, draw in place
            shape.draw(self, left, top)
            return
        self._drawn.append(area)
        sprite = _sprite(shape, under, self.exact)
        image = self._pasted.get(sprite)
        if image is None:
            image = sprite.image
            if not self.exact:
                known = self._indexes
                try:
                    indexes = bytes([known[colour] for colour in sprite.colours])
                except KeyError:  # a colour new to this picture
                    indexes = bytes([self._index(colour) for colour in sprite.colours])
                image = _in_palette(sprite, indexes)
            self._pasted[sprite] = image
        self.image.paste(image, area[:2])

    def face(
        self,
        box: tuple[int, int, int, int],
        label: str,
        code: str,
        fill: Colour,
        ink: Colour = INK,
        outline: Colour | None = None,
        label_size: int = MIN_FONT,
        mark: str = "",
    ) -> None:
        """A card or tile face up; ``code`` is recorded as shown."""
        x0, y0, x1, y1 = box
        face = Face(x1 - x0, y1 - y0, label, fill, ink, outline or INK, label_size, mark)
        self._shape(face, x0, y0)
        self.faces.append(code)

    def back(self, box: tuple[int, int, int, int], label: str = "", label_size: int = MIN_FONT) -> None:
        """A card or tile face down: never anything that tells what it is."""
        x0, y0, x1, y1 = box
        self._shape(Back(x1 - x0, y1 - y0, label, label_size), x0, y0)

    # ------------------------------------------------------------------ output

    def png(self) -> bytes:
        info = PngInfo()
        info.add_text(FACES_CHUNK, " ".join(self.faces))
        image = self.image
        if not self.exact:
            image = image.copy()  # the canvas keeps its indexes: putpalette turns the copy into "P"
            image.putpalette(b"".join(bytes(colour) for colour in self.colours))
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", pnginfo=info, compress_level=1)
        return buffer.getvalue()

    def file(self, filename: str) -> discord.File:
        return discord.File(io.BytesIO(self.png()), filename=filename)


# ---------------------------------------------------------------------------- pictures


def _encoded(draw: Callable[..., Canvas], drawn_from: Sequence[Any]) -> bytes:
    try:
        return draw(*drawn_from).png()
    except PaletteFull:
        with exact_colours():
            return draw(*drawn_from).png()


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        # Its fields as they are (json.dumps comes back here for a dataclass among them):
        # asdict would deep-copy them all first, for the same text.
        return vars(value)
    raise TypeError(f"{type(value).__name__} cannot key a picture")


class Pictures:
    """The last pictures encoded, by what they were drawn from. Rendering runs in worker
    threads: the lock guards the order of use; drawing happens outside it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._png: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def png(self, key: str, draw: Callable[[], bytes]) -> bytes:
        with self._lock:
            png = self._png.get(key)
            if png is not None:
                self._png.move_to_end(key)
                return png
        png = draw()
        with self._lock:
            self._png[key] = png
            if len(self._png) > self.size:
                self._png.popitem(last=False)
        return png

    def clear(self) -> None:
        with self._lock:
            self._png.clear()


PICTURES = Pictures(PICTURES_KEPT)


def picture(
    filename: str, draw: Callable[..., Canvas], *drawn_from: Any, alt_text: str | None = None
) -> discord.File:
    """``draw(*drawn_from)`` as a PNG attachment. ``draw`` must read nothing but its arguments
    (views, a Viewer): the same arguments, and the same picture, are answered from memory.
    ``alt_text`` is what Discord reads out, or shows, in place of the picture."""
    key = json.dumps([filename, _exact.get(), *drawn_from], default=_plain, ensure_ascii=False)
    png = PICTURES.png(key, lambda: _encoded(draw, drawn_from))
    if alt_text is not None and len(alt_text) > ALT_TEXT_LIMIT:
        alt_text = alt_text[: ALT_TEXT_LIMIT - 1] + "…"
    return discord.File(io.BytesIO(png), filename=filename, description=alt_text)


def faces_in(png: bytes) -> list[str]:
    """The face codes an image recorded (for tests and audits)."""
    with Image.open(io.BytesIO(png)) as image:
        recorded = image.info.get(FACES_CHUNK, "")
    return recorded.split() if recorded else []


def columns(items: Iterable[str], per_line: int) -> list[list[str]]:
    chunk: list[str] = []
    lines: list[list[str]] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == per_line:
            lines.append(chunk)
            chunk = []
    if chunk:
        lines.append(chunk)
    return lines
