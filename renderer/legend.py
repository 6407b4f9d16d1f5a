"""The legend strip under the table (part of the cached base layer; the side colours are in the
header, which names the sides)."""

from __future__ import annotations

from renderer import palette as pal
from renderer import shapes
from renderer.canvas import Canvas, text_width
from renderer.layout import LEGEND_H, SMALL_FONT, Frame

GAP = 12


def draw_legend(canvas: Canvas, frame: Frame) -> None:
    y = frame.legend_top + LEGEND_H / 2
    x = float(frame.left)
    for icon, text in _ITEMS:
        icon(canvas, x + 7, y)
        canvas.text((x + 17, y), text, size=SMALL_FONT, anchor="lm")
        x += 17 + text_width(text, SMALL_FONT) + GAP


def _morale(c: Canvas, x: float, y: float) -> None:
    shapes.pip(c.draw, x, y, 4, pal.MORALE_PIP)


def _token(c: Canvas, x: float, y: float) -> None:
    shapes.pip(c.draw, x, y, 4, pal.TOKEN_PIP)


def _last(c: Canvas, x: float, y: float) -> None:
    c.draw.rectangle([x - 7, y - 6, x + 7, y + 6], outline=pal.INK, width=5)
    c.draw.rectangle([x - 6, y - 5, x + 6, y + 5], outline=pal.HIGHLIGHT, width=3)


def _fire(c: Canvas, x: float, y: float) -> None:
    shapes.arrow(c.draw, (x - 8, y), (x + 7, y), pal.FIRE_LINE, width=2, head=6)


def _hidden(c: Canvas, x: float, y: float) -> None:
    shapes.hidden_marker(c, x, y, 7, SMALL_FONT)


def _wreck(c: Canvas, x: float, y: float) -> None:
    c.draw.rectangle([x - 7, y - 4, x + 7, y + 4], fill=pal.WRECK, outline=pal.WRECK_EDGE)
    shapes.cross(c.draw, x, y, 3, pal.WRECK_EDGE, width=1)


def _lost(c: Canvas, x: float, y: float) -> None:
    shapes.cross(c.draw, x, y, 5, pal.MUTED_INK)


def _smoke(c: Canvas, x: float, y: float) -> None:
    c.draw.ellipse([x - 7, y - 6, x + 7, y + 6], fill=pal.SMOKE_SWATCH, outline=pal.SMOKE_EDGE)


def _objective(c: Canvas, x: float, y: float) -> None:
    shapes.star(c.draw, x, y, 7, pal.OBJECTIVE)


def _command(c: Canvas, x: float, y: float) -> None:
    c.text((x, y), "HQ", size=SMALL_FONT - 1, anchor="mm")


_ITEMS = (
    (_morale, "morale marker"),
    (_token, "token"),
    (_last, "last action"),
    (_fire, "fire"),
    (_hidden, "hidden unit"),
    (_wreck, "wreck"),
    (_lost, "unit lost"),
    (_smoke, "smoke"),
    (_objective, "objective"),
    (_command, "command unit"),
)
