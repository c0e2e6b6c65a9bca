"""Pillow drawing shared by every game: fonts, cards and tiles, and PNG output.

Every image records in a PNG text chunk the codes of the faces it shows, so tests can
check an image against the view it was drawn from.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

import discord
from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

FELT = (28, 84, 60)
FELT_DARK = (20, 62, 44)
INK = (245, 245, 240)
MUTED = (180, 200, 190)
HIGHLIGHT = (255, 214, 92)
CARD_BACK = (52, 73, 140)
CARD_BACK_PATTERN = (74, 98, 170)
FACES_CHUNK = "faces"


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # DejaVu Sans covers accented names and arrows; Pillow's bundled font is the fallback.
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size=size)


@dataclass
class Canvas:
    width: int
    height: int
    background: tuple[int, int, int] = FELT
    faces: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.image = Image.new("RGB", (self.width, self.height), self.background)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = 20,
        fill: tuple[int, int, int] = INK,
        anchor: str = "la",
    ) -> None:
        self.draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)

    def face(
        self,
        box: tuple[int, int, int, int],
        label: str,
        code: str,
        fill: tuple[int, int, int],
        ink: tuple[int, int, int] = INK,
        outline: tuple[int, int, int] | None = None,
        corner: str = "",
    ) -> None:
        """A card or tile face up; ``code`` is recorded as shown."""
        x0, y0, x1, y1 = box
        radius = max(4, (x1 - x0) // 8)
        self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline or INK, width=2)
        size = max(12, int((y1 - y0) * (0.42 if len(label) <= 2 else 0.32)))
        self.draw.text(((x0 + x1) / 2, (y0 + y1) / 2), label, font=font(size), fill=ink, anchor="mm")
        if corner:
            self.draw.text((x0 + 6, y0 + 4), corner, font=font(max(10, size // 3)), fill=ink)
        self.faces.append(code)

    def back(self, box: tuple[int, int, int, int], label: str = "") -> None:
        """A card or tile face down: never anything that tells what it is."""
        x0, y0, x1, y1 = box
        radius = max(4, (x1 - x0) // 8)
        self.draw.rounded_rectangle(box, radius=radius, fill=CARD_BACK, outline=INK, width=2)
        inset = 6
        self.draw.rounded_rectangle(
            (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
            radius=radius,
            outline=CARD_BACK_PATTERN,
            width=2,
        )
        if label:
            self.draw.text(((x0 + x1) / 2, (y0 + y1) / 2), label, font=font(16), fill=MUTED, anchor="mm")

    def png(self) -> bytes:
        info = PngInfo()
        info.add_text(FACES_CHUNK, " ".join(self.faces))
        buffer = io.BytesIO()
        self.image.save(buffer, format="PNG", pnginfo=info, compress_level=1)
        return buffer.getvalue()

    def file(self, filename: str) -> discord.File:
        return discord.File(io.BytesIO(self.png()), filename=filename)


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
