"""The battlefield picture in words, for its alt text: what one audience sees on it, from the same
view (engine.view) and the same overlay of the last action (renderer.overlay) as the picture, so
the words never tell more than the drawing. Plain text, at most :data:`DESCRIPTION_LIMIT`
characters (Discord's limit for a picture's description), cut at a word with an ellipsis.

    text = describe(state, "allies", last_events=events, before=previous_state)

It says whose picture it is, the turn and who is to act (as the header does), what the last
action did (the units it moved, the shots, the units it marked; while a reaction window is
open, the declared order), then each side: its tokens, the units it has on the table with their
grid square and markers, its losses against its break point; then the "?" markers, the
objectives the audience sees, and last the terrain. Squares are named as the picture's grid
labels them ("C4").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.events import Event
from engine.game_state import GameState
from engine.state import Objective, Point, TableSize, TerrainFeature, Unit
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


def square_of(table: TableSize, at: Point) -> str:
    """The grid square a point is in ("C4"); a point on the far edge is in the last one."""
    column = min(max(0, int(at.x // GRID)), max(0, math.ceil(table.width / GRID) - 1))
    row = min(max(0, int(at.y // GRID)), max(0, math.ceil(table.depth / GRID) - 1))
    return f"{column_name(column)}{row + 1}"


def whose(viewer: str | None) -> str:
    if viewer is None:
        return "the spectators see it"
    return "the referee sees it" if viewer == REFEREE else f"{side_name(viewer)} see it"


@dataclass(frozen=True)
class Words:
    """The words for what one audience's picture shows."""

    state: GameState
    view: View

    def square(self, at: Point) -> str:
        return square_of(self.state.table, at)

    def name(self, unit: Unit) -> str:
        """A unit as the roster spells it, with the tag it is shown under on the table (unless
        that is the name itself)."""
        name, tag = unit.true_name or unit.name, self.view.tags.get(unit.id)
        return name if tag in (None, name) else f"{name} ({tag})"

    def last_action(self, overlay: Overlay) -> str:
        """What the overlay draws: each unit's move, each shot, the declared order and its
        targets, where each shell landed and each close combat was fought, and the other units
        it marks."""
        said: list[str] = []
        told: set[str] = set()

        def tell(line: str, *units: Unit) -> None:
            said.append(line)
            told.update(u.id for u in units)

        starts = {points[-1]: points[0] for points, _ in overlay.trails}
        for unit in (u for u in overlay.named if u.position in starts):
            way = f"from {self.square(starts[unit.position])} to {self.square(unit.position)}"
            tell(f"{self.name(unit)} moved {way}", unit)
        for firer, target, _ in overlay.shots:
            tell(f"{self.name(firer)} fired at {self.name(target)}", firer, target)
        for path in overlay.declared:
            for unit in (u for u in overlay.named if u.position == path[0]):
                tell(f"{self.name(unit)} declared a move to {self.square(path[-1])}", unit)
        for target in overlay.targets:
            tell(f"{self.name(target)} is a declared target", target)
        for aim, at in overlay.landings:
            off = math.dist((aim.x, aim.y), (at.x, at.y)) if aim is not None else 0.0
            tell(
                f"a shell landed in {self.square(at)}" + (f', {off:.0f}" off its fire marker' if off else "")
            )
        for at in overlay.fights:
            tell(f"a close combat was fought in {self.square(at)}")
        rest = [self.name(u) for u in overlay.named if u.id not in told]
        if rest:
            tell("marked: " + ", ".join(rest))
        return f"Last action: {'; '.join(said)}." if said else ""

    def unit(self, unit: Unit) -> str:
        words = f"{self.name(unit)} in {self.square(unit.position)}"
        if unit.hidden:
            words += f", hidden under marker ?{unit.marker}" if unit.marker is not None else ", hidden"
        if unit.morale_markers:
            words += ", " + counted(unit.morale_markers, "morale marker")
        if unit.tokens:
            words += ", " + counted(unit.tokens, "token")
        carried = self.view.passengers.get(unit.id, 0)
        return words + (f", carrying {carried}" if carried else "")

    def side(self, name: str) -> str:
        """A side as the roster shows it: its tokens, its units seen, its losses."""
        side = self.state.sides[name]
        units = [u for u in self.view.units if u.side == name]
        standing = [self.unit(u) for u in units if not u.destroyed]
        lost = [u for u in units if u.destroyed]
        about = [counted(side.tokens, "token")] + (["broken"] if side.broken else [])
        words = f"{side_name(name, start=True)} ({', '.join(about)}): "
        words += "; ".join(standing) if standing else "no units seen on the table"
        if lost:
            points = sum(u.profile.break_points for u in lost)
            words += f"; lost {', '.join(map(self.name, lost))}: {points} BP"
            words += f" of a break point of {side.break_point}" if side.break_point else ""
        return words + "."

    def markers(self) -> list[str]:
        """The "?" markers (numbered under hidden deployment) and the dummies the audience knows."""
        lines = []
        if self.view.markers:
            shown = (f"?{number} in {self.square(at)}" for at, number in self.view.markers)
            lines.append(f"Hidden markers: {', '.join(shown)}.")
        if self.view.dummies:
            shown = (f"{caption} in {self.square(at)}" for at, caption in self.view.dummies)
            lines.append(f"Dummy markers: {', '.join(shown)}.")
        return lines

    def objective(self, objective: Objective) -> str:
        held = f", held by {side_name(objective.held_by)}" if objective.held_by else ""
        return f"{objective.id} in {self.square(objective.position)}{held}"

    def piece(self, piece: TerrainFeature) -> str:
        """A terrain piece and where it lies: in one square, or across the squares of its box."""
        low = self.square(Point(x=min(p.x for p in piece.outline), y=min(p.y for p in piece.outline)))
        high = self.square(Point(x=max(p.x for p in piece.outline), y=max(p.y for p in piece.outline)))
        named = piece.kind if piece.id == piece.kind else f"{piece.id} ({piece.kind})"
        return f"{named} in {low}" if low == high else f"{named} from {low} to {high}"


def describe(
    state: GameState,
    viewer: str | None,
    *,
    last_events: Sequence[Event] = (),
    before: GameState | None = None,
) -> str:
    """The picture ``render(state, viewer, last_events=..., before=...)`` draws, in words."""
    view = view_for(state, viewer)
    words = Words(state, view)
    size = f"{state.table.width:g} by {state.table.depth:g} inches"
    lines = [f"The battlefield, {size}, as {whose(viewer)}. {turn_text(state)}. {phase_text(state)}."]
    reason = reason_text(state)
    lines += [f"{reason}."] if reason else []
    lines.append(words.last_action(last_action(last_events, view, viewer, state=state, before=before)))
    lines += [words.side(name) for name in state.sides]
    lines += words.markers()
    if view.objectives:
        lines.append(f"Objectives: {'; '.join(map(words.objective, view.objectives))}.")
    pieces = [words.piece(piece) for piece in state.terrain if piece.outline]
    lines.append(f"Terrain: {'; '.join(pieces)}." if pieces else "No terrain.")
    return within(" ".join(line for line in lines if line))
