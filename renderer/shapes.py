"""Small drawing primitives shared by the units, the overlay and the legend (pixels throughout)."""

from __future__ import annotations

import math

from PIL import ImageDraw

from renderer import palette as pal
from renderer.canvas import Canvas

XY = tuple[float, float]


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


def _dashes(points: list[XY], dash: float, gap: float) -> list[tuple[XY, XY]]:
    """The pieces of a polyline drawn dash, gap, dash..."""
    pieces = []
    on, left = True, dash
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        length = math.hypot(x1 - x0, y1 - y0)
        at = 0.0
        while length - at > 1e-9:
            step = min(left, length - at)
            a, b = at / length, (at + step) / length
            if on:
                dx, dy = x1 - x0, y1 - y0
                pieces.append(((x0 + dx * a, y0 + dy * a), (x0 + dx * b, y0 + dy * b)))
            at += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = dash if on else gap
    return pieces


def dashed_arrow(draw: ImageDraw.ImageDraw, points: list[XY], head: float = 16.0) -> None:
    """A declared move: a dashed black line over white along the points, with a solid head."""
    if len(points) < 2 or math.hypot(points[-1][0] - points[-2][0], points[-1][1] - points[-2][1]) < 1:
        return
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    back = (x1 - (x1 - x0) / length * head * 0.8, y1 - (y1 - y0) / length * head * 0.8)
    shaft = [*points[:-1], back]
    draw.line(shaft, fill=pal.HALO, width=8, joint="curve")
    for a, b in _dashes(shaft, 12, 8):
        draw.line([a, b], fill=pal.INK, width=4)
    arrow(draw, back, points[-1], pal.HALO, width=1, head=head + 4)
    arrow(draw, back, points[-1], pal.INK, width=1, head=head)


def dashed_line(draw: ImageDraw.ImageDraw, points: list[XY], colour) -> None:
    """A declared line of fire: dashes in ``colour`` over white."""
    for a, b in _dashes(points, 10, 10):
        draw.line([a, b], fill=pal.HALO, width=7)
        draw.line([a, b], fill=colour, width=3)


def trail(draw: ImageDraw.ImageDraw, points: list[XY], colour) -> None:
    """The way a unit moved: a line in its side's colour over white, ending in a small head."""
    if len(points) < 2:
        return
    draw.line(points, fill=pal.HALO, width=8, joint="curve")
    draw.line(points, fill=colour, width=4, joint="curve")
    arrow(draw, points[-2], points[-1], colour, width=4, head=12)


def target_ring(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """A declared target: a red ring over white with four ticks."""
    draw.ellipse([x - r, y - r, x + r, y + r], outline=pal.HALO, width=7)
    draw.ellipse([x - r, y - r, x + r, y + r], outline=pal.FIRE_LINE, width=4)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        draw.line(
            [(x + dx * r * 0.6, y + dy * r * 0.6), (x + dx * r * 1.35, y + dy * r * 1.35)],
            fill=pal.FIRE_LINE,
            width=3,
        )


def dashed_box(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], colour, width: int = 3
) -> None:
    """A rectangle drawn in dashes (a set-up zone)."""
    x0, y0, x1, y1 = box
    for a, b in _dashes([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], 14, 8):
        draw.line([a, b], fill=colour, width=width)


def burst(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """Where a shell landed: an eight-pointed red burst with a yellow heart, edged in white."""
    for size, fill in ((r + 4, pal.HALO), (r, pal.FIRE_LINE)):
        points = []
        for i in range(16):
            radius = size if i % 2 == 0 else size * 0.55
            angle = math.radians(i * 22.5)
            points.append((x + radius * math.cos(angle), y - radius * math.sin(angle)))
        draw.polygon(points, fill=fill)
    heart = r * 0.3
    draw.ellipse([x - heart, y - heart, x + heart, y + heart], fill=pal.HIGHLIGHT)


def stray(draw: ImageDraw.ImageDraw, aim: XY, landed: XY, short: float) -> None:
    """How far a shell strayed: a black arrow over white from its aim, stopping ``short`` of
    where it landed (none if it landed closer than that)."""
    (x0, y0), (x1, y1) = aim, landed
    length = math.hypot(x1 - x0, y1 - y0)
    if length <= short + 4:
        return
    tip = (x1 - (x1 - x0) / length * short, y1 - (y1 - y0) / length * short)
    arrow(draw, aim, tip, pal.HALO, width=7, head=16)
    arrow(draw, aim, tip, pal.INK, width=3, head=12)


def crossed_swords(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """Where a close combat is fought: two black blades crossed on a yellow disc, ringed in black."""
    draw.ellipse([x - r, y - r, x + r, y + r], fill=pal.HIGHLIGHT, outline=pal.INK, width=3)
    blade, guard = r * 0.62, r * 0.28
    for sx in (1, -1):  # the blade from the lower corner (its hilt) to the upper opposite one
        hilt, tip = (x - sx * blade, y + blade), (x + sx * blade, y - blade)
        draw.line([hilt, tip], fill=pal.INK, width=max(4, round(r / 4)))
        gx, gy = x - sx * blade * 0.45, y + blade * 0.45  # the cross guard, square to the blade
        draw.line([(gx - guard, gy - sx * guard), (gx + guard, gy + sx * guard)], fill=pal.INK, width=3)
