"""A picture with its ImageDraw, and text drawn from cached sprites.

FreeType takes about 0.15 ms to render a short label, and three times that with the white halo
that keeps labels readable over terrain. The same labels come back on every render, so each
(text, size, anchor, halo) is rendered once into grey-level masks and pasted afterwards.

A polygon with an outline wider than a pixel (a counter, the last action's highlight) is drawn
as Pillow draws it, through one mask kept for the whole picture (:meth:`Canvas.polygon`):
Pillow's own ``ImageDraw.polygon`` makes and clears a new mask the size of the whole picture
for each, some 80 us where the rest of the polygon takes 10 (about 1.2 ms of a render).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from anyascii import anyascii
from PIL import Image, ImageDraw

from renderer import palette as pal

HALO_WIDTH = 2
TEXT_SIZE_PROBE = 20  # the size at which a glyph is looked for (any size tells the same)


class Sprite(NamedTuple):
    fill: Image.Image  # "L" mask of the letters
    halo: Image.Image | None  # "L" mask of the letters grown by the halo width
    dx: int  # where the masks' top-left corner lies from the anchor point
    dy: int
    ink: tuple[int, int, int, int]  # the letters' own box within the masks (no halo)


@lru_cache(maxsize=2048)
def sprite(text: str, size: int, anchor: str, halo: bool) -> Sprite:
    font = pal.font(size)
    stroke = HALO_WIDTH if halo else 0
    left, top, right, bottom = font.getbbox(text, anchor=anchor, stroke_width=stroke)
    w, h = max(1, right - left), max(1, bottom - top)
    fill = Image.new("L", (w, h), 0)
    ImageDraw.Draw(fill).text((-left, -top), text, fill=255, font=font, anchor=anchor)
    ring = None
    if halo:
        ring = Image.new("L", (w, h), 0)
        ImageDraw.Draw(ring).text(
            (-left, -top), text, fill=255, font=font, anchor=anchor, stroke_width=stroke, stroke_fill=255
        )
    return Sprite(fill, ring, int(left), int(top), fill.getbbox() or (0, 0, 0, 0))


@lru_cache(maxsize=2048)
def text_width(text: str, size: int) -> float:
    return pal.font(size).getlength(text)


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    """What the font draws for a character it has no glyph for."""
    return bytes(pal.font(TEXT_SIZE_PROBE).getmask("\uffff"))


@lru_cache(maxsize=4096)
def _drawable(char: str) -> bool:
    return char.isascii() or bytes(pal.font(TEXT_SIZE_PROBE).getmask(char)) != _missing_glyph()


def drawable_text(text: str) -> str:
    """The text as the font can draw it: each character it has no glyph for spelt in Latin
    letters (José -> Jose, Łukasz -> Lukasz, Дмитрий -> Dmitrij), or left out if it has no
    spelling (most emoji), rather than drawn as an empty box."""
    spelt = "".join(c if _drawable(c) else _spelling(c) for c in text)
    return " ".join("".join(c for c in spelt if _drawable(c)).split())


def _spelling(char: str) -> str:
    """A character in Latin letters; nothing for an emoji (its spelling is a :shortcode:)."""
    spelt = anyascii(char)
    return "" if spelt.startswith(":") and spelt.endswith(":") else spelt


def fit_text(text: str, size: int, max_px: float) -> str:
    """The text, cut short with "..." if it is wider than max_px."""
    if text_width(text, size) <= max_px:
        return text
    while text and text_width(text + "...", size) > max_px:
        text = text[:-1]
    return text.rstrip() + "..."


Box = tuple[float, float, float, float]  # left, top, right, bottom in pixels


class Canvas:
    """The picture being drawn, its ImageDraw, and cached text. Every text drawn is recorded with
    the box of its letters (``texts``), so that tests can measure what a reader sees."""

    def __init__(self, image: Image.Image, palette: Image.Image | None = None) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.palette = palette  # the 64-colour palette it is encoded with (renderer.encode)
        self.texts: list[tuple[Box, str]] = []
        self.labels: list[Box] = []  # the boxes of the labels placed on the table
        self.counters: list[Box] = []  # the boxes of the counters and marks they keep clear of
        self.outlines: list[tuple[tuple[float, float], ...]] = []  # what each of those covers
        self.leaders: list[tuple[tuple[float, float], tuple[float, float]]] = []  # leader lines drawn
        self.tags: dict[str, Box] = {}  # unit id -> the box of its tag on the table
        self.untagged: list[str] = []  # units with no room for a tag: the roster says where they are
        self.frame = None  # the renderer.layout.Frame it was laid out on
        self.legend: list[str] = []  # the keys of the legend's entries drawn (renderer.legend)
        self.cells: list[tuple] = []  # the panel's cells (renderer.panel), as drawn
        self._inside: Image.Image | None = None  # the mask of the polygon being outlined, else clear

    def polygon(self, points: list[tuple[float, float]], *, outline, width: int, fill=None) -> None:
        """The polygon as ``ImageDraw.polygon`` draws it, the same pixels: filled, then its
        outline ``width`` pixels wide drawn inside it (clipped by a mask of its inside, which is
        cleared again after)."""
        if width < 2:
            self.draw.polygon(points, fill=fill, outline=outline, width=width)
            return
        if fill is not None:
            self.draw.polygon(points, fill=fill)
        if fill == outline:
            return
        if self._inside is None:
            self._inside = Image.new("1", self.image.size)
        inside = ImageDraw.Draw(self._inside)
        inside.polygon(points, fill=1)
        ink = self.draw.draw.draw_ink(outline)
        self.draw.draw.draw_polygon(points, ink, 0, width * 2 - 1, self._inside.im)
        inside.polygon(points, fill=0)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        *,
        size: int,
        fill=pal.INK,
        anchor: str = "la",
        halo: bool = False,
    ) -> None:
        """Text at xy (anchored as in ImageDraw.text), over a white halo if asked."""
        if not text:
            return
        s = sprite(text, size, anchor, halo)
        x, y = round(xy[0]) + s.dx, round(xy[1]) + s.dy
        if s.halo is not None:
            self.image.paste(pal.HALO, (x, y), s.halo)
        self.image.paste(fill, (x, y), s.fill)
        self.texts.append(((x + s.ink[0], y + s.ink[1], x + s.ink[2], y + s.ink[3]), text))


def text_box(text: str, size: int, xy: tuple[float, float], anchor: str = "la") -> Box:
    """The box (with halo) a text would cover if drawn at xy."""
    s = sprite(text, size, anchor, True)
    x, y = round(xy[0]) + s.dx, round(xy[1]) + s.dy
    return x, y, x + s.fill.width, y + s.fill.height
