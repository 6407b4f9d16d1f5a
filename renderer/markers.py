"""Table markers that are not units: objectives, breached wire and indirect-fire markers."""

from __future__ import annotations

from engine.game_state import GameState
from engine.referee_prep import objective_known_to
from renderer import palette as pal
from renderer import shapes
from renderer.canvas import Canvas
from renderer.layout import SMALL_FONT, Frame

STAR_R = 0.9  # inches


def draw_objectives(
    canvas: Canvas, state: GameState, frame: Frame, styles: dict[str, pal.SideStyle], viewer: str | None
) -> None:
    """A gold star with its id; a held objective takes the holder's colour and name. An objective
    the referee set for one side shows only to that side and the referee."""
    r = max(7.0, STAR_R * frame.scale)
    for objective in (o for o in state.objectives if objective_known_to(o, viewer)):
        x, y = frame.px(objective.position.x, objective.position.y)
        holder = styles.get(objective.held_by) if objective.held_by else None
        shapes.star(canvas.draw, x, y, r, holder.fill if holder else pal.OBJECTIVE)
        text = objective.id if not objective.held_by else f"{objective.id} ({objective.held_by})"
        canvas.text((x + r + 2, y), text, size=SMALL_FONT, anchor="lm", halo=True)


def draw_breaches(canvas: Canvas, state: GameState, frame: Frame) -> None:
    """A gap marked across each breached wire line (the wire itself is on the cached base)."""
    if not state.breached_wire:
        return
    for feature in state.terrain:
        if feature.id in state.breached_wire and feature.outline:
            xs = [p.x for p in feature.outline]
            ys = [p.y for p in feature.outline]
            x, y = frame.px((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
            r = 0.8 * frame.scale
            canvas.draw.ellipse([x - r, y - r, x + r, y + r], fill=pal.OPEN_GROUND, outline=pal.WIRE)
            canvas.text((x, y + r + 1), "breached", size=SMALL_FONT, anchor="ma", halo=True)


def draw_fire_markers(
    canvas: Canvas, state: GameState, frame: Frame, styles: dict[str, pal.SideStyle]
) -> None:
    """Each side's indirect-fire marker (House Rules V1.0): a ring and cross in the side's colour."""
    r = max(6.0, 0.8 * frame.scale)
    for marker in state.fire_markers:
        if not marker.placed:
            continue
        x, y = frame.px(marker.at.x, marker.at.y)
        colour = styles[marker.side].fill
        canvas.draw.ellipse([x - r, y - r, x + r, y + r], outline=colour, width=2)
        canvas.draw.line([(x - r - 3, y), (x + r + 3, y)], fill=colour, width=2)
        canvas.draw.line([(x, y - r - 3), (x, y + r + 3)], fill=colour, width=2)
        canvas.text((x + r + 2, y - r), "fire", size=SMALL_FONT, anchor="lm", halo=True)
