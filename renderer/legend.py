"""The legend: one panel cell for each kind of mark the picture shows, and only those."""

from __future__ import annotations

from collections.abc import Callable

from renderer import palette as pal
from renderer import shapes
from renderer.canvas import Canvas
from renderer.layout import TEXT_FONT
from renderer.tags import draw_badge

Icon = Callable[[Canvas, float, float], None]
ICON_W = 44  # room for the icon before the text


def _morale(c: Canvas, x: float, y: float) -> None:
    draw_badge(c, x - 15, y, pal.MORALE_PIP, 2)


def _token(c: Canvas, x: float, y: float) -> None:
    draw_badge(c, x - 15, y, pal.TOKEN_PIP, 1)


def _last(c: Canvas, x: float, y: float) -> None:
    c.draw.rectangle([x - 14, y - 10, x + 14, y + 10], outline=pal.INK, width=5)
    c.draw.rectangle([x - 13, y - 9, x + 13, y + 9], outline=pal.HIGHLIGHT, width=3)


def _fire(c: Canvas, x: float, y: float) -> None:
    shapes.arrow(c.draw, (x - 18, y), (x + 18, y), pal.FIRE_LINE, width=4, head=12)


def _moved(c: Canvas, x: float, y: float) -> None:
    shapes.trail(c.draw, [(x - 18, y), (x + 18, y)], pal.ALLIES.fill)


def _declared(c: Canvas, x: float, y: float) -> None:
    shapes.dashed_arrow(c.draw, [(x - 18, y), (x + 18, y)])


def _target(c: Canvas, x: float, y: float) -> None:
    shapes.target_ring(c.draw, x, y, 12)


def _hidden(c: Canvas, x: float, y: float) -> None:
    shapes.hidden_marker(c, x, y, 16, 36)


def _wreck(c: Canvas, x: float, y: float) -> None:
    c.draw.rectangle([x - 16, y - 9, x + 16, y + 9], fill=pal.WRECK, outline=pal.WRECK_EDGE)
    shapes.cross(c.draw, x, y, 6, pal.WRECK_EDGE, width=2)


def _lost(c: Canvas, x: float, y: float) -> None:
    shapes.cross(c.draw, x, y, 10, pal.MUTED_INK, width=3)


def _smoke(c: Canvas, x: float, y: float) -> None:
    c.draw.ellipse([x - 16, y - 12, x + 16, y + 12], fill=pal.SMOKE_SWATCH, outline=pal.SMOKE_EDGE)


def _objective(c: Canvas, x: float, y: float) -> None:
    shapes.star(c.draw, x, y, 14, pal.OBJECTIVE)


def _zone(c: Canvas, x: float, y: float) -> None:
    shapes.dashed_box(c.draw, (x - 16, y - 11, x + 16, y + 11), pal.INK)


ITEMS: dict[str, tuple[Icon, str]] = {
    "morale": (_morale, "morale markers"),
    "tokens": (_token, "tokens"),
    "last": (_last, "last action"),
    "moved": (_moved, "moved"),
    "fire": (_fire, "shot"),
    "declared": (_declared, "declared move"),
    "target": (_target, "declared target"),
    "hidden": (_hidden, "hidden unit"),
    "wreck": (_wreck, "wreck"),
    "lost": (_lost, "unit lost"),
    "smoke": (_smoke, "smoke"),
    "objective": (_objective, "objective"),
    "zone": (_zone, "set-up zone"),
}


def draw_item(canvas: Canvas, key: str, x: float, y: float) -> None:
    """The legend item ``key`` in a cell whose left middle is (x, y)."""
    icon, text = ITEMS[key]
    icon(canvas, x + ICON_W / 2, y)
    canvas.text((x + ICON_W, y), text, size=TEXT_FONT, anchor="lm")
