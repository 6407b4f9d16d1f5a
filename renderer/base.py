"""The base layer: the table with its terrain, grid lines and terrain names, drawn once per game
and cached (the picture around it, which depends on the panel, is laid out per render).

Terrain is drawn at SUPERSAMPLE times the size and reduced (box filter), which smooths the edges
of woods, roads and hedges; since the layer is cached, that cost (about 0.1 s) is paid once per
game. The cache key is the terrain tuple, the table size and the scale: all immutable and
hashable, and equal after a game is reloaded from storage, so a reloaded game hits the cache too.

The cache is bounded by the memory its pictures take (:data:`CACHE_BYTES`), not by a count of
tables: a 6' x 4' table's layer takes about 2 MB at the usual scale and its background (the
whole picture's size) 2.6 MB, so some 50 tables in use at once keep theirs in each process that
draws (each picture worker has its own caches), and a few huge tables cannot take more than
the budget either.
"""

from __future__ import annotations

from collections.abc import Sequence
from threading import Lock
from typing import NamedTuple

from cachetools import LRUCache, cached
from PIL import Image, ImageChops, ImageDraw

from engine.state import CoverKind, Going, TableSize, TerrainFeature
from renderer import palette as pal
from renderer.canvas import Canvas, text_box
from renderer.encode import palette_for
from renderer.labels import Placer
from renderer.layout import GRID, TEXT_FONT, Frame, column_name

SUPERSAMPLE = 3
SUPERSAMPLE_MAX_PX = 16_000_000  # pixels of the enlarged terrain picture, for big tables and scales
HATCH_SPACING = 0.9  # inches between hatch lines on rough ground
WATER_KINDS = {"river", "stream", "water", "pond", "lake", "marsh", "ford"}
ROAD_ORDER = 4  # roads go over woods and water (as a ford or bridge), under buildings
ROAD_ALPHA = 220
BUILDING_ORDER = 5
WOOD_KINDS = {"woods", "wood", "trees", "forest", "orchard", "jungle"}
NAME_SPACE = 6  # pixels kept clear either side of a terrain name, so two names never run together
CACHE_BYTES = 256 * 1024 * 1024  # pictures the two layer caches may hold together


class Base(NamedTuple):
    image: Image.Image  # RGB, the table only; paste it, never draw on it
    palette: Image.Image  # the 64-colour palette the finished picture is mapped onto


def picture_bytes(*images: Image.Image) -> int:
    """The memory the pictures' pixels take: Pillow keeps a pixel of several bands (RGB too) in
    four bytes, one of a single band ("L", "P") in one."""
    return sum((4 if len(image.getbands()) > 1 else 1) * image.width * image.height for image in images)


@cached(
    LRUCache(CACHE_BYTES // 2, getsizeof=lambda base: picture_bytes(base.image, base.palette)),
    lock=Lock(),
    info=True,
)
def base_layer(terrain: tuple[TerrainFeature, ...], table: TableSize, scale: int) -> Base:
    """The cached table picture for this terrain, table size and scale (all hashable)."""
    image = _terrain_picture(terrain, Frame(table.width, table.depth, scale))
    return Base(image, palette_for(image))


@cached(
    LRUCache(CACHE_BYTES // 2, getsizeof=lambda canvas: picture_bytes(canvas.image)), lock=Lock(), info=True
)
def background(terrain: tuple[TerrainFeature, ...], table: TableSize, frame: Frame) -> Canvas:
    """The cached picture under everything a render draws: the margin, the table from its base
    layer and the grid labels, at the frame's size. Copy its image before drawing on it."""
    base = base_layer(terrain, table, frame.scale)
    canvas = Canvas(Image.new("RGB", frame.size, pal.MARGIN_BG), base.palette)
    canvas.image.paste(base.image, (frame.left, frame.top))
    draw_grid_labels(canvas, frame)
    return canvas


# --- terrain ------------------------------------------------------------------------------------


def _area_style(f: TerrainFeature) -> tuple[tuple[int, int, int], tuple[int, int, int] | None, int]:
    """Fill, edge and drawing order of an area feature."""
    kind = f.kind.casefold()
    if f.building or kind in ("building", "buildings", "ruins"):
        return pal.BUILDING, pal.BUILDING_EDGE, BUILDING_ORDER
    if kind in WOOD_KINDS:
        return pal.WOODS, pal.WOODS_EDGE, 3
    if f.road or kind == "road":
        return pal.ROAD, None, ROAD_ORDER
    if kind in WATER_KINDS:
        return pal.WATER, pal.WATER_EDGE, 2
    if f.cover is CoverKind.FORTIFICATION:
        return pal.FORTIFICATION, pal.BUILDING_EDGE, BUILDING_ORDER
    if kind == "field":
        return pal.FIELD, None, 0
    if kind in ("hill", "ridge"):
        return pal.HILL, pal.WALL, 1
    return pal.OTHER_TERRAIN, pal.MUTED_INK, 1


def _line_style(f: TerrainFeature) -> tuple[tuple[int, int, int], float]:
    """Colour and minimum width (inches) of a hedge, wall or wire line."""
    kind = f.kind.casefold()
    if f.wire or kind == "wire":
        return pal.WIRE, 0.15
    if kind in ("wall", "walls", "bocage wall"):
        return pal.WALL, 0.5
    return pal.HEDGE, 0.5


def supersample(frame: Frame) -> int:
    """How many times larger to draw the terrain: SUPERSAMPLE, less for very large pictures."""
    w, h = frame.table_px
    return max(1, min(SUPERSAMPLE, int((SUPERSAMPLE_MAX_PX / max(1, w * h)) ** 0.5)))


class _Big(NamedTuple):
    """The enlarged terrain picture being drawn: n times the final size, ss pixels an inch."""

    image: Image.Image
    draw: ImageDraw.ImageDraw
    blend: ImageDraw.ImageDraw  # blends translucent fills
    n: int
    ss: float
    depth_in: float

    def at(self, x: float, y: float) -> tuple[float, float]:
        return x * self.ss, (self.depth_in - y) * self.ss


def _terrain_picture(terrain: Sequence[TerrainFeature], frame: Frame) -> Image.Image:
    """The table with its terrain, drawn large and reduced to the frame's table size."""
    n = supersample(frame)
    w, h = frame.table_px
    image = Image.new("RGB", (w * n, h * n), pal.OPEN_GROUND)
    draw, blend = ImageDraw.Draw(image), ImageDraw.Draw(image, "RGBA")
    big = _Big(image, draw, blend, n, frame.scale * n, frame.depth_in)
    areas = sorted((f for f in terrain if not f.linear), key=lambda f: _area_style(f)[2])
    for feature in (f for f in areas if _area_style(f)[2] < BUILDING_ORDER):
        _draw_area(big, feature)
    _grid_lines(big, frame)  # under buildings and hedges, so a wall on a grid line stays whole
    for feature in (f for f in areas if _area_style(f)[2] >= BUILDING_ORDER):
        _draw_area(big, feature)
    for feature in (f for f in terrain if f.linear):
        colour, least = _line_style(feature)
        points = [big.at(p.x, p.y) for p in feature.outline]
        width = max(round(max(feature.width, least) * big.ss), 3 * n)
        if len(points) == 1:
            points = points * 2
        big.draw.line(points, fill=colour, width=width, joint="curve")
        if feature.wire:
            _wire_barbs(big, points)
    return image.reduce(n) if n > 1 else image


def _draw_area(big: _Big, feature: TerrainFeature) -> None:
    fill, edge, order = _area_style(feature)
    points = [big.at(p.x, p.y) for p in feature.outline]
    if len(points) < 3:
        return
    if order == ROAD_ORDER:
        big.blend.polygon(points, fill=(*fill, ROAD_ALPHA))  # woods it crosses show through
        return
    big.draw.polygon(points, fill=fill)
    if feature.going in (Going.ROUGH, Going.VERY_ROUGH) and not feature.building:
        _hatch(big, points, cross=feature.going is Going.VERY_ROUGH, colour=edge or pal.HATCH)
    if feature.going is Going.IMPASSABLE and not feature.building:
        _hatch(big, points, cross=True, colour=pal.INK)
    if edge is not None:
        big.draw.polygon(points, outline=edge, width=big.n * (2 if feature.building else 1))


def _grid_lines(big: _Big, frame: Frame) -> None:
    """Grid lines every 6", each exactly one pixel wide once the picture is reduced."""
    w, h = frame.table_px
    n = big.n
    for i in range(1, frame.columns()):
        x = round(i * GRID * frame.scale) * n
        big.draw.rectangle([x, 0, x + n - 1, h * n - 1], fill=pal.GRID_LINE)
    for j in range(1, frame.rows()):
        y = round((frame.depth_in - j * GRID) * frame.scale) * n
        big.draw.rectangle([0, y, w * n - 1, y + n - 1], fill=pal.GRID_LINE)


def _hatch(big: _Big, points: list[tuple[float, float]], *, cross: bool, colour: pal.RGB) -> None:
    """Diagonal hatching inside a polygon (cross-hatching for very rough ground)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, y0, x1, y1 = int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(mask).polygon([(x - x0, y - y0) for x, y in points], fill=255)
    lines = Image.new("L", mask.size, 0)
    ld = ImageDraw.Draw(lines)
    step = max(4, round(HATCH_SPACING * big.ss))
    span = mask.width + mask.height
    for off in range(-span, span, step):
        ld.line([(off, 0), (off + mask.height, mask.height)], fill=110, width=big.n)
        if cross:
            ld.line([(off + mask.height, 0), (off, mask.height)], fill=110, width=big.n)
    big.image.paste(colour, (x0, y0, x1, y1), ImageChops.multiply(lines, mask))


def _wire_barbs(big: _Big, points: list[tuple[float, float]]) -> None:
    """Small crosses along a wire line, one an inch."""
    size = 0.25 * big.ss
    for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        steps = max(1, int(length / big.ss))
        for i in range(steps + 1):
            x, y = ax + (bx - ax) * i / steps, ay + (by - ay) * i / steps
            big.draw.line([(x - size, y - size), (x + size, y + size)], fill=pal.WIRE, width=big.n)
            big.draw.line([(x - size, y + size), (x + size, y - size)], fill=pal.WIRE, width=big.n)


# --- grid and labels ------------------------------------------------------------------------------


def draw_grid_labels(canvas: Canvas, frame: Frame) -> None:
    """The table edge and the square names: columns A, B... above the table and rows 1, 2... from
    the bottom, left of it."""
    w, h = frame.table_px
    left, top = frame.left, frame.top
    canvas.draw.rectangle([left - 1, top - 1, left + w, top + h], outline=pal.INK, width=1)
    for i in range(frame.columns()):
        x = left + (i * GRID + min(GRID, frame.width_in - i * GRID) / 2) * frame.scale
        canvas.text((x, top - 4), column_name(i), size=TEXT_FONT, anchor="md")
    for j in range(frame.rows()):
        y = frame.px(0, j * GRID + min(GRID, frame.depth_in - j * GRID) / 2)[1]
        canvas.text((left - 4, y), str(j + 1), size=TEXT_FONT, anchor="rm")


def draw_terrain_names(
    canvas: Canvas, terrain: Sequence[TerrainFeature], frame: Frame, placer: Placer, skip: set[str]
) -> None:
    """Each piece's id in muted letters, just inside its top edge (a line's: above it), where that
    is free; roads are obvious and left unnamed, and so are the ids in ``skip`` (objectives
    already named so)."""
    for feature in terrain:
        if feature.road or not feature.outline or feature.id in skip:
            continue
        xs = [p.x for p in feature.outline]
        ys = [p.y for p in feature.outline]
        x, y = frame.px((min(xs) + max(xs)) / 2, max(ys) + (feature.width / 2 if feature.linear else 0))
        x0, y0, x1, y1 = text_box(feature.id, TEXT_FONT, (0, 0))
        mark = (x, y - 1, x, y) if not feature.linear else (x, y + 1, x, y + 2)
        spot = placer.place_free(mark, x1 - x0 + 2 * NAME_SPACE, y1 - y0)  # never name against name
        if spot is not None:
            at = (spot[0] + NAME_SPACE - x0, spot[1] - y0)
            canvas.text(at, feature.id, size=TEXT_FONT, fill=pal.MUTED_INK, halo=True)
