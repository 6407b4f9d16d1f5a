"""``/measure``, as Discord and the console both answer it: from one of the player's units to a
unit or a spot, the distance, whether it sees it and what blocks the line, and the cover a
target there would have (engine.battlefield.sighting)."""

from __future__ import annotations

from bot.services.limits import NAME, bounded_text
from bot.text_orders import find_unit, parse_point
from engine.battlefield import blocked_because, sighting
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.state import CoverKind, Point, Unit

COVER_WORDS = {
    CoverKind.OPEN: "in the open",
    CoverKind.COVER: "in cover",
    CoverKind.FORTIFICATION: "in a fortification",
}


def measure_text(state: GameState, side: str | None, unit: str, to: str) -> str:
    """Measure from ``unit`` (one of ``side``'s; any side's when None, at a hot-seat table) to
    ``to``: a spot (x,y or a grid square) or a unit the side knows of."""
    viewer = state.units[find_unit(state, bounded_text("unit", unit, NAME), side)]
    if not viewer.on_table or viewer.embarked_in is not None:
        raise IllegalCommand(f"{viewer.name} is not on the table: measure from a unit that is")
    target = spot_or_unit(state, bounded_text("to", to, NAME), viewer.side)
    seen = sighting(state, viewer, target)
    name = str(target) if isinstance(target, Point) else target.name
    lines = [f'{viewer.name} to {name}: {seen.distance:.1f}" (from the edge of {viewer.name})']
    if seen.seen:
        lines.append(f"Line of sight: clear, {viewer.name} sees {name}")
    else:
        lines.append(f"Line of sight: none, {blocked_because(seen.blocked_by)}")
    who = f"a unit like {viewer.name} standing there" if isinstance(target, Point) else target.name
    hull_down = ", and hull down" if seen.hull_down else ""
    lines.append(
        f"Cover: {who} would be {COVER_WORDS[seen.cover]}{hull_down} against fire from {viewer.name}"
    )
    return "\n".join(lines)


def spot_or_unit(state: GameState, to: str, side: str) -> Unit | Point:
    """A spot on the table, or a unit ``side`` knows of (a hidden enemy is never found)."""
    try:
        spot = parse_point(to)
    except IllegalCommand:
        try:
            return state.units[find_unit(state, to, known_to=side, first=state.other_side(side))]
        except IllegalCommand as unknown:
            spot_hint = "Or measure to a spot: x,y in inches (30,18) or a grid square (D3)"
            raise IllegalCommand(f"{unknown} {spot_hint}") from None
    if not (0 <= spot.x <= state.table.width and 0 <= spot.y <= state.table.depth):
        size = f'{state.table.width:g}" x {state.table.depth:g}"'
        raise IllegalCommand(f"{spot} is off the table ({size}): measure to a spot on it")
    return spot
