"""Units on the table: footprints turned to their facing, facing ticks, tags, wrecks, smoke and
the anonymous markers of hidden units."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.geometry import FOOTPRINT, footprint_at
from engine.profiles import UnitClass
from engine.state import Point, Unit
from engine.view import View
from renderer import palette as pal
from renderer import shapes
from renderer.canvas import Box, Canvas, text_box
from renderer.labels import MAX_LEADER, Outline, Placer, Segment, box_outline, hull, intersects, outline_box
from renderer.layout import TEXT_FONT, Frame
from renderer.tags import CHIP_H, badges, chip_text, draw_tag, tag_width

FACING_OVERHANG = 0.5  # inches the facing tick reaches past the front edge
MARKER_R = 1.1  # inches: radius of a "?" marker
MARKER_MIN_R = 18  # pixels: a "?" marker is never smaller, so that its "?" reads inline
MARKER_FONT = 36  # the "?" glyph is shorter than a capital
LOST_R = 0.8  # inches: half-size of a lost infantry unit's cross


def corners(unit: Unit, frame: Frame, pad: float = 0.0) -> list[tuple[float, float]]:
    """The unit's footprint corners in pixels (engine.geometry.footprint), grown by pad inches."""
    return list(_corners(unit.unit_class, unit.position.x, unit.position.y, unit.facing, frame, pad))


@lru_cache(maxsize=1024)
def _corners(
    unit_class: UnitClass, x: float, y: float, facing: float, frame: Frame, pad: float
) -> tuple[tuple[float, float], ...]:
    poly = footprint_at(unit_class, Point(x=x, y=y), facing)
    if pad:
        poly = poly.buffer(pad, join_style="mitre")
    return tuple(frame.px(px, py) for px, py in list(poly.exterior.coords)[:-1])


def _bbox(points: Iterable[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = zip(*points, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


# --- footprints ----------------------------------------------------------------------------------


def draw_wreck(draw: ImageDraw.ImageDraw, unit: Unit, frame: Frame) -> None:
    """A destroyed vehicle stays as a grey wreck; destroyed infantry leaves a faint cross."""
    x, y = frame.px(unit.position.x, unit.position.y)
    if unit.is_vehicle:
        pts = corners(unit, frame)
        draw.polygon(pts, fill=pal.WRECK, outline=pal.WRECK_EDGE, width=1)
        draw.line([pts[0], pts[2]], fill=pal.WRECK_EDGE, width=2)
        draw.line([pts[1], pts[3]], fill=pal.WRECK_EDGE, width=2)
    else:
        shapes.cross(draw, x, y, LOST_R * frame.scale, pal.MUTED_INK)


def draw_live(canvas: Canvas, unit: Unit, frame: Frame, style: pal.SideStyle) -> None:
    """The footprint in the side's colours, its facing tick, turret line and centre mark."""
    canvas.polygon(corners(unit, frame), fill=style.fill, outline=style.outline, width=2)
    draw = canvas.draw
    cx, cy = frame.px(unit.position.x, unit.position.y)
    draw.line([(cx, cy), facing_tip(unit, frame)], fill=style.outline, width=3)
    if unit.turret_facing is not None and unit.turret_facing != unit.facing:
        _turret_line(draw, unit, frame)
    if style.mark == "dot":
        draw.ellipse([cx - 3, cy - 3, cx + 3, cy + 3], fill=style.outline)
    else:
        draw.rectangle([cx - 3, cy - 3, cx + 3, cy + 3], fill=style.outline)


def facing_tip(unit: Unit, frame: Frame) -> tuple[float, float]:
    """The end of the facing tick: FACING_OVERHANG inches past the middle of the front edge."""
    return _tip(unit.unit_class, unit.position.x, unit.position.y, unit.facing, frame)


def _tip(unit_class: UnitClass, x: float, y: float, facing: float, frame: Frame) -> tuple[float, float]:
    reach = FOOTPRINT[unit_class][0] / 2 + FACING_OVERHANG
    rad = math.radians(facing)
    return frame.px(x + reach * math.cos(rad), y + reach * math.sin(rad))


def _turret_line(draw: ImageDraw.ImageDraw, unit: Unit, frame: Frame) -> None:
    rad = math.radians(unit.turret_facing or 0.0)
    cx, cy = frame.px(unit.position.x, unit.position.y)
    length = FOOTPRINT[unit.unit_class][0] / 2 * 1.3 * frame.scale
    draw.line([(cx, cy), (cx + math.cos(rad) * length, cy - math.sin(rad) * length)], fill=pal.INK, width=2)


@lru_cache(maxsize=64)
def _puff_mask(r: int) -> Image.Image:
    """A cloud of overlapping circles as a translucent mask (the same alpha all over)."""
    mask = Image.new("L", (2 * r + 1, 2 * r + 1), 0)
    shapes.smoke_puff(ImageDraw.Draw(mask), r, r, r, fill=255)
    return mask.point(lambda v: v * pal.SMOKE_ALPHA // 255)


def draw_smoke(canvas: Canvas, unit: Unit, frame: Frame) -> None:
    """A translucent grey puff over the unit: the unit still shows through it."""
    x0, y0, x1, y1 = _bbox(corners(unit, frame))
    r = round(max(x1 - x0, y1 - y0) / 2 + 0.6 * frame.scale)
    cx, cy = round((x0 + x1) / 2), round((y0 + y1) / 2)
    canvas.image.paste(pal.SMOKE, (cx - r, cy - r), _puff_mask(r))


def draw_smoke_puffs(canvas: Canvas, puffs: Iterable[Point], frame: Frame) -> None:
    """House Rules V1.0 smoke: a translucent 2" puff at each point, over whatever is there."""
    r = round(frame.scale)  # a 2" puff
    for at in puffs:
        cx, cy = (round(v) for v in frame.px(at.x, at.y))
        canvas.image.paste(pal.SMOKE, (cx - r, cy - r), _puff_mask(r))


# --- tags ---------------------------------------------------------------------------------------


def counter_box(unit: Unit, frame: Frame) -> Box:
    """The pixels a unit's counter covers: its footprint and facing tick, or its wreck or cross."""
    if unit.destroyed and not unit.is_vehicle:
        x, y = frame.px(unit.position.x, unit.position.y)
        r = LOST_R * frame.scale + 1
        return x - r, y - r, x + r, y + r
    points = corners(unit, frame)
    if not unit.destroyed:
        points.append(facing_tip(unit, frame))
    x0, y0, x1, y1 = _bbox(points)
    return x0 - 1, y0 - 1, x1 + 1, y1 + 1


def counter_outline(unit: Unit, frame: Frame) -> Outline:
    """The convex outline of the pixels a unit's counter covers: its footprint and facing tick
    (grown by a pixel), or its wreck, or the box of its cross."""
    if unit.destroyed and not unit.is_vehicle:
        return box_outline(counter_box(unit, frame))
    x, y = unit.position.x, unit.position.y
    return _outline(unit.unit_class, x, y, unit.facing, unit.destroyed, frame)


@lru_cache(maxsize=1024)
def _outline(unit_class: UnitClass, x: float, y: float, facing: float, wreck: bool, frame: Frame) -> Outline:
    points = list(_corners(unit_class, x, y, facing, frame, 1 / frame.scale))
    return hull(points if wreck else [*points, _tip(unit_class, x, y, facing, frame)])


def marker_radius(frame: Frame) -> float:
    return max(MARKER_MIN_R, MARKER_R * frame.scale)


def marker_box(at: Point, frame: Frame) -> Box:
    x, y = frame.px(at.x, at.y)
    r = marker_radius(frame) + 1
    return x - r, y - r, x + r, y + r


def draw_leader(canvas: Canvas, leader: Segment) -> None:
    canvas.draw.line(leader, fill=pal.HALO, width=4)
    canvas.draw.line(leader, fill=pal.LEADER, width=2)
    canvas.leaders.append(leader)


def _crowding(counters: dict[str, Box]) -> dict[str, int]:
    """How many other counters lie within a leader's reach of each counter."""
    out = {}
    for unit_id, (x0, y0, x1, y1) in counters.items():
        region = (x0 - MAX_LEADER, y0 - MAX_LEADER, x1 + MAX_LEADER, y1 + MAX_LEADER)
        out[unit_id] = sum(intersects(region, box) for box in counters.values()) - 1
    return out


def draw_unit_tags(
    canvas: Canvas,
    view: View,
    frame: Frame,
    styles: dict[str, pal.SideStyle],
    tags: dict[str, str],
    placer: Placer,
) -> None:
    """Each unit's tag chip and badges, placed clear of other labels and counters, with a leader
    line when it had to move away: the most crowded counters first (they have the least room),
    then top to bottom, live units before wrecks. A unit with no room for its tag is left
    untagged on the table (``canvas.untagged``): the roster says where it is. All are placed
    before any is drawn (:meth:`renderer.labels.Placer.place_all` may place them more than once).
    The boxes and leaders drawn are kept on the canvas (``tags``, ``leaders``)."""
    counters = {u.id: outline_box(counter_outline(u, frame)) for u in view.units}
    crowding = _crowding(counters)
    order = sorted(view.units, key=lambda u: (-crowding[u.id], u.destroyed, -u.position.y, u.position.x))
    texts = {u.id: chip_text(u, tags[u.id], view.passengers.get(u.id, 0)) for u in order}
    marks = {u.id: badges(u) for u in order}
    placed = placer.place_all(
        {u.id: (counters[u.id], tag_width(texts[u.id], marks[u.id]), CHIP_H) for u in order}
    )
    for unit in order:
        spot = placed[unit.id]
        if spot is None:
            canvas.untagged.append(unit.id)
            continue
        if spot.leader:
            draw_leader(canvas, spot.leader)
        draw_tag(
            canvas, spot.box, texts[unit.id], None if unit.destroyed else styles[unit.side], marks[unit.id]
        )
        canvas.tags[unit.id] = spot.box


def draw_marker_captions(canvas: Canvas, view: View, frame: Frame, placer: Placer) -> None:
    """The numbers of "?" markers under hidden deployment (and "dummy" to their owner)."""
    for at, caption in view.markers + view.dummies:
        if caption:
            draw_caption(canvas, placer, marker_box(at, frame), caption)


def draw_caption(canvas: Canvas, placer: Placer, mark: Box, text: str) -> None:
    """A caption by a mark, with a leader line if it had to move away."""
    x0, y0, x1, y1 = text_box(text, TEXT_FONT, (0, 0))
    placed = placer.place_anyway(mark, x1 - x0, y1 - y0)
    if placed.leader:
        draw_leader(canvas, placed.leader)
    canvas.text((placed.box[0] - x0, placed.box[1] - y0), text, size=TEXT_FONT, halo=True)


def draw_units(
    canvas: Canvas,
    view: View,
    frame: Frame,
    styles: dict[str, pal.SideStyle],
    overlay: Callable[[Canvas], None] | None = None,
) -> None:
    """Everything about the units the viewer may see, bottom to top: wrecks, live units, smoke,
    the last action's overlay (drawn over the units), then "?" markers. Tags come last, once
    every counter is down (see draw_unit_tags)."""
    draw = canvas.draw
    for unit in view.units:
        if unit.destroyed:
            draw_wreck(draw, unit, frame)
    for unit in view.units:
        if not unit.destroyed:
            draw_live(canvas, unit, frame, styles[unit.side])
    for unit in view.units:
        if unit.smoke is not None and not unit.destroyed:
            draw_smoke(canvas, unit, frame)
    if overlay is not None:
        overlay(canvas)
    for at, _ in view.markers + view.dummies:
        x, y = frame.px(at.x, at.y)
        shapes.hidden_marker(canvas, x, y, marker_radius(frame), MARKER_FONT)
