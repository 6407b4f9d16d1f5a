"""A polygon with a wide outline (a counter, the last action's highlight) drawn through the mask
the canvas keeps for the whole picture (renderer.canvas.Canvas.polygon) has exactly the pixels
Pillow's ImageDraw.polygon gives, one polygon after another on the same picture: the mask of
one never clips the next."""

from __future__ import annotations

import math
import random

from PIL import Image, ImageDraw

from renderer import palette as pal
from renderer.canvas import Canvas


def polygons(seed: int, count: int) -> list[tuple[list[tuple[float, float]], tuple | None, tuple, int]]:
    """Random convex and concave polygons at fractional corners (some off the picture), with a
    fill or none, an outline and a width."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cx, cy, r = rng.uniform(-20, 320), rng.uniform(-20, 220), rng.uniform(3, 40)
        n, turn = rng.choice([3, 4, 4, 5, 8]), rng.uniform(0, 2 * math.pi)
        points = [
            (
                cx + r * rng.uniform(0.4, 1) * math.cos(turn + i * 2 * math.pi / n),
                cy + r * rng.uniform(0.4, 1) * math.sin(turn + i * 2 * math.pi / n),
            )
            for i in range(n)
        ]
        fill = rng.choice([None, pal.ALLIES.fill, pal.AXIS.fill, pal.HALO])
        out.append((points, fill, rng.choice([pal.HALO, pal.INK, pal.HIGHLIGHT]), rng.choice([1, 2, 4, 6])))
    return out


def test_wide_outlines_match_pillows_polygon_one_after_another():
    under = Image.new("RGB", (300, 200), pal.OPEN_GROUND)
    ImageDraw.Draw(under).line([(0, 0), (300, 200)], fill=pal.WOODS, width=9)
    pillow, canvas = under.copy(), Canvas(under.copy())
    for points, fill, outline, width in polygons(seed=3, count=400):
        ImageDraw.Draw(pillow).polygon(points, fill=fill, outline=outline, width=width)
        canvas.polygon(points, fill=fill, outline=outline, width=width)
        assert canvas.image.tobytes() == pillow.tobytes()
