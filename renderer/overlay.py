"""The overlay of what just happened and what is about to: a thick yellow outline around every unit
the last events name, a trail for each unit that moved (when the state before is given), an arrow
for each shot, a red burst where each indirect shot landed (House Rules V1.0, s. 5) with a black
arrow from the fire marker it strayed from, crossed swords where a close combat was fought (House
Rules V1.0, s. 6; a shot in contact, 2015 rules p. 12), and, while a reaction window is open, the
declared move as a dashed arrow and the declared targets ringed.

Only units the viewer may see take part: an event naming a hidden sniper draws nothing that
points at it (a shot from it highlights only its target).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import ImageDraw
from shapely.geometry import LineString

from engine.commands import Order
from engine.event_data import FireData
from engine.events import Event
from engine.game_state import GameState
from engine.geometry import footprint, midpoint
from engine.state import Phase, Point, Unit
from engine.view import View, declared_order, dice_shown, sees
from renderer import palette as pal
from renderer import shapes
from renderer.canvas import Canvas
from renderer.layout import Frame
from renderer.units import LOST_R, corners

PAD = 0.35  # inches between a unit's edge and its highlight
SHOT_SPREAD = 10  # pixels between two arrows of shots between the same units
BURST_R = 12  # pixels: a shell's burst
SWORDS_R = 17  # pixels: a close combat's crossed swords
XY = tuple[float, float]


@dataclass
class Overlay:
    """What to draw over the units, and which legend items that needs (``shows``)."""

    named: list[Unit] = field(default_factory=list)
    shots: list[tuple[Unit, Unit, int]] = field(default_factory=list)  # firer, target, repeat
    trails: list[tuple[list[Point], str]] = field(default_factory=list)  # points, side
    declared: list[list[Point]] = field(default_factory=list)
    targets: list[Unit] = field(default_factory=list)
    aims: list[tuple[Point, Unit]] = field(default_factory=list)  # where a declared shot comes from
    landings: list[tuple[Point | None, Point]] = field(default_factory=list)  # a shell's aim, where it fell
    fights: list[Point] = field(default_factory=list)  # where each close combat was fought

    @property
    def shows(self) -> set[str]:
        kinds = {
            "last": self.named,
            "fire": self.shots,
            "moved": self.trails,
            "declared": self.declared,
            "target": self.targets,
            "landed": self.landings,
            "close_combat": self.fights,
        }
        return {k for k, v in kinds.items() if v}

    def segments(self, frame: Frame) -> list[tuple[XY, XY]]:
        """The arrows' segments in pixels (labels keep off them where they can)."""
        lines = [[u.position for u in (firer, target)] for firer, target, _ in self.shots]
        lines += [points for points, _ in self.trails] + self.declared
        lines += [[at, target.position] for at, target in self.aims]
        lines += [[aim, at] for aim, at in self.landings if aim is not None]
        out = []
        for points in lines:
            pixels = [frame.px(p.x, p.y) for p in points]
            out += list(zip(pixels, pixels[1:], strict=False))
        return out

    def mark_boxes(self, frame: Frame) -> list[tuple[float, float, float, float]]:
        """The boxes of the bursts and crossed swords in pixels (labels keep clear of them)."""
        spots = [(at, BURST_R + 4) for _, at in self.landings] + [(at, SWORDS_R) for at in self.fights]
        boxes = []
        for at, r in spots:
            x, y = frame.px(at.x, at.y)
            boxes.append((x - r, y - r, x + r, y + r))
        return boxes

    def draw(self, canvas: Canvas, frame: Frame, styles: dict[str, pal.SideStyle]) -> None:
        draw = canvas.draw
        for points, side in self.trails:
            shapes.trail(draw, [frame.px(p.x, p.y) for p in points], styles[side].fill)
        for unit in self.named:
            _highlight(canvas, unit, frame)
        for firer, target, repeat in self.shots:
            _line_of_fire(draw, firer, target, frame, repeat)
        for at, target in self.aims:
            shapes.dashed_line(
                draw, [frame.px(at.x, at.y), frame.px(target.position.x, target.position.y)], pal.FIRE_LINE
            )
        for points in self.declared:
            shapes.dashed_arrow(draw, [frame.px(p.x, p.y) for p in points])
        for unit in self.targets:
            x, y = frame.px(unit.position.x, unit.position.y)
            shapes.target_ring(draw, x, y, max(12.0, _radius(unit) * frame.scale))
        for aim, at in self.landings:
            if aim is not None:
                shapes.stray(draw, frame.px(aim.x, aim.y), frame.px(at.x, at.y), BURST_R + 4)
            shapes.burst(draw, *frame.px(at.x, at.y), BURST_R)
        for at in self.fights:
            shapes.crossed_swords(draw, *frame.px(at.x, at.y), SWORDS_R)


def _radius(unit: Unit) -> float:
    x0, y0, x1, y1 = footprint(unit).bounds
    return max(x1 - x0, y1 - y0) / 2 + PAD


def last_action(
    events: Sequence[Event],
    view: View,
    viewer: str | None = None,
    state: GameState | None = None,
    before: GameState | None = None,
) -> Overlay:
    """The overlay for the last events; ``state`` (the state drawn) gives the declared order of an
    open reaction window, ``before`` (the state before the events) the start of each move."""
    by_id = {u.id: u for u in view.units}
    overlay = Overlay()
    pairs: dict[tuple[str, str], int] = {}
    fights: set[frozenset[str]] = set()
    for event in events:
        for uid in event.units:
            if uid in by_id and by_id[uid] not in overlay.named:
                overlay.named.append(by_id[uid])
        fire = event.data
        if not isinstance(fire, FireData):
            continue
        firer, target = by_id.get(fire.firer), by_id.get(fire.target or "")
        if fire.along_a_line_of_fire and firer is not None and target is not None:
            key = (firer.id, target.id)
            pairs[key] = pairs.get(key, -1) + 1
            overlay.shots.append((firer, target, pairs[key]))
        elif fire.in_contact and firer is not None and target is not None:
            fight = frozenset((firer.id, target.id))
            if fight not in fights:
                fights.add(fight)
                overlay.fights.append(fire.at or midpoint(firer.position, target.position))
        elif fire.indirect and fire.target is None and fire.at is not None and dice_shown(event, viewer):
            overlay.landings.append((fire.aim, fire.at))
    if before is not None:
        overlay.trails = _trails(events, view, viewer, before)
    declared = declared_order(state, viewer) if state is not None else None
    if declared is not None and state is not None and state.phase is Phase.REACTION:
        _declared(overlay, declared, by_id)
    return overlay


def _trails(
    events: Sequence[Event], view: View, viewer: str | None, before: GameState
) -> list[tuple[list[Point], str]]:
    """Each visible unit the events name that stands elsewhere than before: its way, through the
    declared path's points when it ended on the path's end, else straight."""
    by_id = {u.id: u for u in view.units}
    paths = _declared_paths(before.pending.order) if before.pending is not None else {}
    trails = []
    for uid in dict.fromkeys(uid for event in events for uid in event.units):
        now, then = by_id.get(uid), before.units.get(uid)
        if now is None or then is None or now.destroyed and not now.is_vehicle:
            continue
        if not sees(then, viewer) or then.embarked_in is not None or then.in_reserve:
            continue
        if then.position == now.position:
            continue
        path = paths.get(uid, [])
        middle = path[:-1] if path and path[-1] == now.position else []
        trails.append(([then.position, *middle, now.position], now.side))
    return trails


def _declared_paths(order: Order) -> dict[str, list[Point]]:
    """The points each unit of an order declared to move through: the paths of a unit's moves
    (the actions that have one), of a fall back, or of each member of a platoon."""
    if hasattr(order, "members"):
        return {m.unit: list(m.move.path) for m in order.members}
    if hasattr(order, "path"):
        return {order.unit: list(order.path)}
    points = [p for action in getattr(order, "actions", ()) for p in getattr(action, "path", ())]
    return {order.unit: points} if points else {}


def _declared(overlay: Overlay, order: Order, by_id: dict[str, Unit]) -> None:
    """The declared order of an open reaction window: its moves and its targets."""
    for uid, path in _declared_paths(order).items():
        unit = by_id.get(uid)
        if unit is not None and path:
            overlay.declared.append([unit.position, *path])
            if unit not in overlay.named:
                overlay.named.append(unit)
    unit = by_id.get(getattr(order, "unit", ""))
    at = unit.position if unit is not None else None
    for action in getattr(order, "actions", ()):  # a unit's order: shots and assaults have targets
        if getattr(action, "path", ()) and at is not None:
            at = action.path[-1]
        target = by_id.get(getattr(action, "target", None) or "")
        if target is not None and target not in overlay.targets:
            overlay.targets.append(target)
            if at is not None:
                overlay.aims.append((at, target))
    if unit is not None and unit not in overlay.named:
        overlay.named.append(unit)


def _highlight(canvas: Canvas, unit: Unit, frame: Frame) -> None:
    draw = canvas.draw
    if unit.destroyed and not unit.is_vehicle:
        x, y = frame.px(unit.position.x, unit.position.y)
        r = (LOST_R + PAD) * frame.scale
        draw.ellipse([x - r, y - r, x + r, y + r], outline=pal.INK, width=6)
        draw.ellipse([x - r, y - r, x + r, y + r], outline=pal.HIGHLIGHT, width=4)
        return
    pts = corners(unit, frame, pad=PAD)
    canvas.polygon(pts, outline=pal.INK, width=6)
    canvas.polygon(pts, outline=pal.HIGHLIGHT, width=4)


def _line_of_fire(draw: ImageDraw.ImageDraw, firer: Unit, target: Unit, frame: Frame, repeat: int) -> None:
    """An arrow from the firer's edge to the target's edge (white under red, to stand out); a
    second shot between the same units is drawn beside the first."""
    line = LineString([(firer.position.x, firer.position.y), (target.position.x, target.position.y)])
    if line.length == 0:
        return
    rest = line.difference(footprint(firer)).difference(footprint(target).buffer(PAD + 0.15))
    if rest.is_empty or rest.geom_type != "LineString":
        return
    (x0, y0), (x1, y1) = list(rest.coords)[0], list(rest.coords)[-1]
    start, end = frame.px(x0, y0), frame.px(x1, y1)
    if repeat:
        dx, dy = end[0] - start[0], end[1] - start[1]
        length = max(1.0, (dx * dx + dy * dy) ** 0.5)
        side = SHOT_SPREAD * ((repeat + 1) // 2) * (1 if repeat % 2 else -1)
        ox, oy = -dy / length * side, dx / length * side
        start, end = (start[0] + ox, start[1] + oy), (end[0] + ox, end[1] + oy)
    shapes.arrow(draw, start, end, pal.HALO, width=8, head=20)
    shapes.arrow(draw, start, end, pal.FIRE_LINE, width=4, head=16)
