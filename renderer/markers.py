"""Table marks that are not units: set-up zones, objectives, breached wire and indirect-fire
markers. Each drawing function returns its captions (the mark's box and its text), which are
placed with the units' tags so that none covers another."""

from __future__ import annotations

from engine.deployment.plan import SidePlan
from engine.game_state import GameState
from engine.state import Phase
from engine.view import View, knows_secrets_of
from engine.wording import side_label
from renderer import palette as pal
from renderer import shapes
from renderer.canvas import Box, Canvas, text_box
from renderer.labels import Placer
from renderer.layout import TEXT_FONT, Frame

STAR_R = 0.9  # inches
Caption = tuple[Box, str]


Outline = tuple[str, tuple[float, float, float, float], str]  # a side, its box, what the box is for


def set_up_reaches(state: GameState, plan: SidePlan) -> list[float | None]:
    """How deep the side's set-up area is drawn: measured as the set-up is checked
    (:meth:`Zone.furthest_for`), once for each depth its waiting units may go to (a zone
    reaching one normal move out: infantry not as far as tanks), shallowest first."""
    waiting = [state.units[u] for u in plan.waiting if u in state.units]
    if not plan.zone.within_one_move or not waiting:
        return [plan.zone.furthest]
    return sorted({plan.zone.furthest_for(unit) or 0.0 for unit in waiting})


def zone_outlines(state: GameState, view: View) -> list[Outline]:
    """The set-up zones to draw: the referee's (each to its side and the referee alone), else
    the scenario's for each side still setting up, one outline for each depth its units may go
    to (named by the normal move it is, where there are several); none once set-up is over."""
    if state.phase is not Phase.SETUP:
        return []
    if state.deployment_zones:
        return [
            (z.side, (z.x1, z.y1, z.x2, z.y2), "")
            for z in state.deployment_zones
            if knows_secrets_of(z.side, view.audience)
        ]
    if state.deployment is None:
        return []
    outlines = []
    for side, plan in state.deployment.sides.items():
        reaches = [] if plan.done else set_up_reaches(state, plan)
        for reach in reaches:
            note = f'{reach:g}" move' if len(reaches) > 1 and reach is not None else ""
            outlines += [(side, part, note) for part in plan.zone.rectangles(state.table, reach or 0.0)]
    return outlines


def zones_shown(state: GameState, view: View) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The set-up zones drawn (:func:`zone_outlines`): each side's boxes."""
    return [(side, box) for side, box, _ in zone_outlines(state, view)]


def draw_zones(
    canvas: Canvas, state: GameState, view: View, frame: Frame, styles: dict[str, pal.SideStyle]
) -> list[tuple[list[Box], str]]:
    """During set-up, each side's zone: a dashed outline in its colour. Returns, for each zone, its
    name and the boxes of its four corners where it may be written (see write_zone_names)."""
    captions = []
    for side, (x1, y1, x2, y2), note in zone_outlines(state, view):
        if side not in styles:
            continue
        (px0, py0), (px1, py1) = frame.px(x1, y2), frame.px(x2, y1)
        box = (px0 + 3, py0 + 3, px1 - 3, py1 - 3)
        shapes.dashed_box(canvas.draw, box, pal.HALO, width=7)
        shapes.dashed_box(canvas.draw, box, styles[side].fill, width=4)
        text = f"{side_label(side)} set up" + (f" ({note})" if note else "")
        x0, y0, x1, y1 = text_box(text, TEXT_FONT, (0, 0))
        w, h = x1 - x0, y1 - y0
        corners = [(x, y) for y in (py0 + 8, py1 - 8 - h) for x in (px0 + 8, px1 - 8 - w)]
        captions.append(([(x, y, x + w, y + h) for x, y in corners], text))
    return captions


def write_zone_names(canvas: Canvas, names: list[tuple[list[Box], str]], placer: Placer) -> None:
    """Each zone's name in the first of its corners where no counter stands (none if there is no
    such corner); the unit tags placed after keep clear of it."""
    for corners, text in names:
        box = next((box for box in corners if placer.free(box)), None)
        if box is not None:
            placer.take(box)
            left, top, _, _ = text_box(text, TEXT_FONT, (0, 0))
            canvas.text((box[0] - left, box[1] - top), text, size=TEXT_FONT, halo=True)


def draw_objectives(
    canvas: Canvas, view: View, frame: Frame, styles: dict[str, pal.SideStyle]
) -> list[Caption]:
    """A gold star with its id; a held objective takes the holder's colour and name. Only the
    objectives the view holds are drawn (one the referee set for one side is that side's)."""
    r = max(12.0, STAR_R * frame.scale)
    captions = []
    for objective in view.objectives:
        x, y = frame.px(objective.position.x, objective.position.y)
        holder = styles.get(objective.held_by) if objective.held_by else None
        shapes.star(canvas.draw, x, y, r, holder.fill if holder else pal.OBJECTIVE)
        text = objective.id if not objective.held_by else f"{objective.id} ({objective.held_by})"
        captions.append(((x - r, y - r, x + r, y + r), text))
    return captions


def draw_breaches(canvas: Canvas, state: GameState, frame: Frame) -> list[Caption]:
    """A gap marked across each breached wire line (the wire itself is on the cached base)."""
    captions: list[Caption] = []
    if not state.breached_wire:
        return captions
    for feature in state.terrain:
        if feature.id in state.breached_wire and feature.outline:
            xs = [p.x for p in feature.outline]
            ys = [p.y for p in feature.outline]
            x, y = frame.px((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
            r = 0.8 * frame.scale
            canvas.draw.ellipse([x - r, y - r, x + r, y + r], fill=pal.OPEN_GROUND, outline=pal.WIRE)
            captions.append(((x - r, y - r, x + r, y + r), "breached"))
    return captions


def draw_fire_markers(
    canvas: Canvas, view: View, frame: Frame, styles: dict[str, pal.SideStyle]
) -> list[Caption]:
    """Each indirect-fire marker the view holds (House Rules V1.0): a ring and cross in the
    side's colour."""
    r = max(10.0, 0.8 * frame.scale)
    captions = []
    for marker in (mark for mark in view.marks if mark.kind == "fire"):
        x, y = frame.px(marker.at.x, marker.at.y)
        colour = styles[marker.side].fill
        canvas.draw.ellipse([x - r, y - r, x + r, y + r], outline=colour, width=3)
        canvas.draw.line([(x - r - 3, y), (x + r + 3, y)], fill=colour, width=3)
        canvas.draw.line([(x, y - r - 3), (x, y + r + 3)], fill=colour, width=3)
        captions.append(((x - r - 3, y - r - 3, x + r + 3, y + r + 3), "fire"))
    return captions
