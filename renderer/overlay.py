"""The overlay of the last action: a thick yellow outline around every unit the last events name,
and a line of fire from the first to the second unit of each "fire" event.

Only units the viewer may see take part: an event naming a hidden sniper draws nothing that
points at it (a shot from it highlights only its target).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import ImageDraw
from shapely.geometry import LineString

from engine.events import Event
from engine.geometry import footprint
from engine.state import Unit
from renderer import palette as pal
from renderer import shapes
from renderer.layout import Frame
from renderer.units import LOST_R, corners
from renderer.visibility import View

PAD = 0.35  # inches between a unit's edge and its highlight


def last_action(
    events: Sequence[Event], view: View, frame: Frame
) -> Callable[[ImageDraw.ImageDraw], None] | None:
    """A function drawing the overlay, or None if the events name nothing the viewer sees."""
    by_id = {u.id: u for u in view.units}
    named: list[Unit] = []
    shots: list[tuple[Unit, Unit]] = []
    for event in events:
        for uid in event.units:
            if uid in by_id and by_id[uid] not in named:
                named.append(by_id[uid])
        if event.kind == "fire" and len(event.units) >= 2:
            firer, target = (by_id.get(uid) for uid in event.units[:2])
            if firer is not None and target is not None:
                shots.append((firer, target))
    if not named and not shots:
        return None

    def draw_overlay(draw: ImageDraw.ImageDraw) -> None:
        for firer, target in shots:
            _line_of_fire(draw, firer, target, frame)
        for unit in named:
            _highlight(draw, unit, frame)

    return draw_overlay


def _highlight(draw: ImageDraw.ImageDraw, unit: Unit, frame: Frame) -> None:
    if unit.destroyed and not unit.is_vehicle:
        x, y = frame.px(unit.position.x, unit.position.y)
        r = (LOST_R + PAD) * frame.scale
        draw.ellipse([x - r, y - r, x + r, y + r], outline=pal.INK, width=5)
        draw.ellipse([x - r, y - r, x + r, y + r], outline=pal.HIGHLIGHT, width=3)
        return
    pts = corners(unit, frame, pad=PAD)
    draw.polygon(pts, outline=pal.INK, width=5)
    draw.polygon(pts, outline=pal.HIGHLIGHT, width=3)


def _line_of_fire(draw: ImageDraw.ImageDraw, firer: Unit, target: Unit, frame: Frame) -> None:
    """An arrow from the firer's edge to the target's edge (white under red, to stand out)."""
    line = LineString([(firer.position.x, firer.position.y), (target.position.x, target.position.y)])
    if line.length == 0:
        return
    rest = line.difference(footprint(firer)).difference(footprint(target).buffer(PAD + 0.15))
    if rest.is_empty or rest.geom_type != "LineString":
        return
    (x0, y0), (x1, y1) = list(rest.coords)[0], list(rest.coords)[-1]
    start, end = frame.px(x0, y0), frame.px(x1, y1)
    shapes.arrow(draw, start, end, pal.HALO, width=6, head=14)
    shapes.arrow(draw, start, end, pal.FIRE_LINE, width=3, head=11)
