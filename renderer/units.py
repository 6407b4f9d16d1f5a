"""Units on the table: footprints turned to their facing, facing ticks, labels, pips, wrecks,
smoke and the anonymous markers of hidden units."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.geometry import FOOTPRINT, footprint
from engine.state import Point, Unit
from renderer import palette as pal
from renderer import shapes
from renderer.canvas import Canvas
from renderer.layout import LABEL_FONT, SMALL_FONT, Frame
from renderer.visibility import View

MAX_LABEL = 11  # characters
PIP_R = 3.5
PIP_STEP = 8
MAX_PIPS = 6
FACING_OVERHANG = 0.5  # inches the facing tick reaches past the front edge
MARKER_R = 1.1  # inches: radius of a "?" marker
LOST_R = 0.8  # inches: half-size of a lost infantry unit's cross
_ABBREVIATIONS = {
    "infantry": "Inf",
    "detachment": "Det",
    "squad": "Sqd",
    "section": "Sec",
    "team": "Tm",
    "platoon": "Plt",
    "company": "Coy",
    "command": "Cmd",
    "anti-tank": "AT",
    "destroyer": "TD",
}


def short_name(name: str) -> str:
    """A label of at most MAX_LABEL characters: brackets dropped, long words abbreviated, then cut."""
    if len(name) <= MAX_LABEL:
        return name
    name = re.sub(r"\s*\([^)]*\)", "", name).strip()
    if len(name) > MAX_LABEL:
        name = " ".join(_ABBREVIATIONS.get(w.casefold(), w) for w in name.split())
    if len(name) > MAX_LABEL:
        name = name[: MAX_LABEL - 1].rstrip(" ,.-") + "."
    return name


def corners(unit: Unit, frame: Frame, pad: float = 0.0) -> list[tuple[float, float]]:
    """The unit's footprint corners in pixels (engine.geometry.footprint), grown by pad inches."""
    poly = footprint(unit)
    if pad:
        poly = poly.buffer(pad, join_style="mitre")
    return [frame.px(x, y) for x, y in list(poly.exterior.coords)[:-1]]


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


def draw_live(draw: ImageDraw.ImageDraw, unit: Unit, frame: Frame, style: pal.SideStyle) -> None:
    """The footprint in the side's colours, its facing tick, turret line and centre mark."""
    pts = corners(unit, frame)
    draw.polygon(pts, fill=style.fill, outline=style.outline, width=2)
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
    reach = FOOTPRINT[unit.unit_class][0] / 2 + FACING_OVERHANG
    rad = math.radians(unit.facing)
    return frame.px(unit.position.x + reach * math.cos(rad), unit.position.y + reach * math.sin(rad))


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


def draw_marker(canvas: Canvas, at: Point, frame: Frame, caption: str = "") -> None:
    """The "?" marker: a fixed size, no facing, no side; only its number (or, to its owner,
    "dummy") under it."""
    x, y = frame.px(at.x, at.y)
    shapes.hidden_marker(canvas, x, y, MARKER_R * frame.scale, LABEL_FONT + 2)
    if caption:
        canvas.text((x, y + MARKER_R * frame.scale + 1), caption, size=SMALL_FONT, anchor="ma", halo=True)


# --- labels and pips -------------------------------------------------------------------------------


def label_text(unit: Unit, passengers: int) -> str:
    text = short_name(unit.true_name or unit.name)
    if unit.is_command:
        text = "HQ " + text
    if unit.hidden:  # only its own side and the referee see a hidden unit's label
        text = f"?{unit.marker or ''} " + text
    if passengers:
        text += f" +{passengers}"
    return text


def draw_label_and_pips(canvas: Canvas, unit: Unit, frame: Frame, passengers: int) -> None:
    """The short name under the footprint; morale (red) and token (white) pips above it."""
    if unit.destroyed:
        x, y = frame.px(unit.position.x, unit.position.y)
        r = LOST_R * frame.scale
        box = corners(unit, frame) if unit.is_vehicle else [(x - r, y - r), (x + r, y + r)]
        x0, y0, x1, y1 = _bbox(box)
        canvas.text(
            ((x0 + x1) / 2, y1 + 1),
            short_name(unit.name),
            size=SMALL_FONT,
            fill=pal.MUTED_INK,
            anchor="ma",
            halo=True,
        )
        return
    x0, y0, x1, y1 = _bbox([*corners(unit, frame), facing_tip(unit, frame)])
    cx = frame.px(unit.position.x, unit.position.y)[0]
    if y1 + LABEL_FONT + 3 <= frame.top + frame.table_px[1]:
        canvas.text((cx, y1 + 1), label_text(unit, passengers), size=LABEL_FONT, anchor="ma", halo=True)
    else:  # at the near edge the label goes above the unit, to stay on the table
        canvas.text((cx, y0 - 1), label_text(unit, passengers), size=LABEL_FONT, anchor="md", halo=True)
        y0 -= LABEL_FONT + 2
    pips = [pal.MORALE_PIP] * min(unit.morale_markers, MAX_PIPS)
    pips += [pal.TOKEN_PIP] * min(unit.tokens, MAX_PIPS)
    extra = max(0, unit.morale_markers - MAX_PIPS) + max(0, unit.tokens - MAX_PIPS)
    if not pips:
        return
    y = y0 - PIP_R - 2
    x = cx - (len(pips) - 1) * PIP_STEP / 2
    for colour in pips:
        shapes.pip(canvas.draw, x, y, PIP_R, colour)
        x += PIP_STEP
    if extra:
        canvas.text((x - PIP_STEP / 2 + 2, y), f"+{extra}", size=SMALL_FONT, anchor="lm", halo=True)


def draw_units(
    canvas: Canvas,
    view: View,
    frame: Frame,
    styles: dict[str, pal.SideStyle],
    overlay: Callable[[ImageDraw.ImageDraw], None] | None = None,
) -> None:
    """Everything about the units the viewer may see, bottom to top: wrecks, live units, smoke,
    the last action's overlay (drawn over the units and under the labels), "?" markers, then
    labels and pips so that nothing covers them."""
    draw = canvas.draw
    for unit in view.units:
        if unit.destroyed:
            draw_wreck(draw, unit, frame)
    for unit in view.units:
        if not unit.destroyed:
            draw_live(draw, unit, frame, styles[unit.side])
    for unit in view.units:
        if unit.smoke is not None and not unit.destroyed:
            draw_smoke(canvas, unit, frame)
    if overlay is not None:
        overlay(draw)
    for at, caption in view.markers + view.dummies:
        draw_marker(canvas, at, frame, caption)
    for unit in view.units:
        draw_label_and_pips(canvas, unit, frame, view.passengers.get(unit.id, 0))
