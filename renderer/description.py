"""The battlefield picture in words, for its alt text: what one audience sees on it, from the same
view (engine.view) and the same overlay of the last action (renderer.overlay) as the picture, so
the words never tell more than the drawing. Plain text, at most :data:`DESCRIPTION_LIMIT`
characters (Discord's limit for a picture's description).

    text = describe(state, "allies", last_events=events, before=previous_state)

It says whose picture it is, the turn and who is to act (as the header does), what the last
action did (the units it moved, the shots, the units it marked; while a reaction window is
open, the declared order), then each side: its tokens, the units it has on the table with
their square and markers, its losses against its break point; then the "?" markers and the
objectives the audience sees.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import Event
from engine.game_state import GameState
from engine.state import Objective, Point, Unit
from engine.view import REFEREE, View, view_for
from engine.wording import counted, side_name
from renderer.header import phase_text, reason_text, turn_text
from renderer.layout import GRID, column_name
from renderer.overlay import Overlay, last_action

DESCRIPTION_LIMIT = 1024  # characters in a picture's description (Discord's alt text)
ELLIPSIS = "…"


def within(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """The text, cut at a word with an ellipsis if it is longer than ``limit`` characters."""
    if len(text) <= limit:
        return text
    cut = text[: limit - len(ELLIPSIS)]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:.") + ELLIPSIS


def square(at: Point) -> str:
    """The grid square a point is in, as the picture labels them ("C4")."""
    return f"{column_name(max(0, int(at.x // GRID)))}{max(0, int(at.y // GRID)) + 1}"


def whose(viewer: str | None) -> str:
    if viewer is None:
        return "the spectators see it"
    return "the referee sees it" if viewer == REFEREE else f"{side_name(viewer)} see it"


def unit_name(unit: Unit, view: View) -> str:
    """A unit as the roster spells it, with the tag it is shown under on the table (if that is
    not the name itself)."""
    name, tag = unit.true_name or unit.name, view.tags.get(unit.id)
    return name if tag in (None, name) else f"{name} ({tag})"


def _last_action(overlay: Overlay, view: View) -> str:
    """What the overlay draws: each unit's move, each shot, the declared order and its targets,
    and the other units it marks."""
    said: list[str] = []
    told: set[str] = set()

    def tell(line: str, *units: Unit) -> None:
        said.append(line)
        told.update(u.id for u in units)

    starts = {points[-1]: points[0] for points, _ in overlay.trails}
    for unit in (u for u in overlay.named if u.position in starts):
        way = f"from {square(starts[unit.position])} to {square(unit.position)}"
        tell(f"{unit_name(unit, view)} moved {way}", unit)
    for firer, target, _ in overlay.shots:
        tell(f"{unit_name(firer, view)} fired at {unit_name(target, view)}", firer, target)
    for path in overlay.declared:
        for unit in (u for u in overlay.named if u.position == path[0]):
            tell(f"{unit_name(unit, view)} declared a move to {square(path[-1])}", unit)
    for target in overlay.targets:
        tell(f"{unit_name(target, view)} is a declared target", target)
    rest = [unit_name(u, view) for u in overlay.named if u.id not in told]
    if rest:
        tell("marked: " + ", ".join(rest))
    return f"Last action: {'; '.join(said)}." if said else ""


def _unit(unit: Unit, view: View) -> str:
    words = f"{unit_name(unit, view)} in {square(unit.position)}"
    if unit.hidden:
        words += f", hidden under marker ?{unit.marker}" if unit.marker is not None else ", hidden"
    if unit.morale_markers:
        words += ", " + counted(unit.morale_markers, "morale marker")
    if unit.tokens:
        words += ", " + counted(unit.tokens, "token")
    carried = view.passengers.get(unit.id, 0)
    return words + (f", carrying {carried}" if carried else "")


def _side(state: GameState, name: str, view: View) -> str:
    side = state.sides[name]
    units = [u for u in view.units if u.side == name]
    standing = [_unit(u, view) for u in units if not u.destroyed]
    lost = [u for u in units if u.destroyed]
    state_of = [counted(side.tokens, "token")] + (["broken"] if side.broken else [])
    words = f"{side_name(name, start=True)} ({', '.join(state_of)}): "
    words += "; ".join(standing) if standing else "no units seen on the table"
    if lost:
        points = sum(u.profile.break_points for u in lost)
        words += f"; lost {', '.join(unit_name(u, view) for u in lost)}: {points} BP"
        words += f" of a break point of {side.break_point}" if side.break_point else ""
    return words + "."


def _marker(at: Point, caption: str) -> str:
    return f"{caption} in {square(at)}"


def _objective(objective: Objective) -> str:
    held = f", held by {side_name(objective.held_by)}" if objective.held_by else ""
    return f"{objective.id} in {square(objective.position)}{held}"


def _markers_and_objectives(view: View) -> list[str]:
    """The "?" markers (numbered under hidden deployment), the dummies the audience knows and
    the objectives it may know."""
    lines = []
    if view.markers:
        shown = (_marker(at, f"?{number}") for at, number in view.markers)
        lines.append(f"Hidden markers: {', '.join(shown)}.")
    if view.dummies:
        lines.append(f"Dummy markers: {', '.join(_marker(at, caption) for at, caption in view.dummies)}.")
    if view.objectives:
        lines.append(f"Objectives: {'; '.join(map(_objective, view.objectives))}.")
    return lines


def describe(
    state: GameState,
    viewer: str | None,
    *,
    last_events: Sequence[Event] = (),
    before: GameState | None = None,
) -> str:
    """The picture ``render(state, viewer, last_events=..., before=...)`` draws, in words."""
    view = view_for(state, viewer)
    overlay = last_action(last_events, view, viewer, state=state, before=before)
    lines = [f"The battlefield as {whose(viewer)}. {turn_text(state)}. {phase_text(state)}."]
    reason = reason_text(state)
    lines += [f"{reason}."] if reason else []
    lines += [_last_action(overlay, view)]
    lines += [_side(state, name, view) for name in state.sides]
    lines += _markers_and_objectives(view)
    return within(" ".join(line for line in lines if line))
