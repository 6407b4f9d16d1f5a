"""Small drawing primitives shared by the units, the overlay and the legend (pixels throughout)."""

from __future__ import annotations

import math

from PIL import ImageDraw

from renderer import palette as pal
from renderer.canvas import Canvas

XY = tuple[float, float]


def pip(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill) -> None:
    """A round marker pip with a black edge."""
    draw.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=pal.PIP_EDGE, width=1)


def star(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill, outline=pal.INK) -> None:
    """A five-pointed star (objectives)."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.radians(90 + i * 36)
        points.append((x + radius * math.cos(angle), y - radius * math.sin(angle)))
    draw.polygon(points, fill=fill, outline=outline, width=1)


def hidden_marker(canvas: Canvas, x: float, y: float, r: float, size: int) -> None:
    """The anonymous "?" marker of a hidden unit. It depends on nothing but where it is."""
    canvas.draw.ellipse([x - r, y - r, x + r, y + r], fill=pal.HIDDEN_MARKER, outline=pal.HALO, width=2)
    canvas.text((x, y), "?", size=size, fill=pal.HIDDEN_TEXT, anchor="mm")


def cross(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill, width: int = 2) -> None:
    """A diagonal cross (a lost infantry unit, or the mark on a wreck)."""
    draw.line([(x - r, y - r), (x + r, y + r)], fill=fill, width=width)
    draw.line([(x - r, y + r), (x + r, y - r)], fill=fill, width=width)


def smoke_puff(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill) -> None:
    """A cloud: a ring of overlapping circles round a middle one."""
    small = r * 0.55
    for i in range(6):
        angle = math.radians(i * 60 + 15)
        cx, cy = x + (r - small) * math.cos(angle), y + (r - small) * math.sin(angle)
        draw.ellipse([cx - small, cy - small, cx + small, cy + small], fill=fill)
    draw.ellipse([x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6], fill=fill)


def arrow(draw: ImageDraw.ImageDraw, start: XY, end: XY, fill, width: int = 3, head: float = 10.0) -> None:
    """A straight line with an arrow head at ``end``."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    back = (x1 - ux * head, y1 - uy * head)
    draw.line([start, back], fill=fill, width=width)
    left = (back[0] - uy * head * 0.5, back[1] + ux * head * 0.5)
    right = (back[0] + uy * head * 0.5, back[1] - ux * head * 0.5)
    draw.polygon([end, left, right], fill=fill)
