"""Ordering indirect fire (House Rules V1.0, s. 5 Indirect Fire): who may call for fire and
where, who may fire at the marker and from how far. Carrying it out is
:mod:`engine.indirect_fire`."""

from __future__ import annotations

import math

from engine import geometry
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.house.indirect import minimum_range
from engine.house.shot import traits_of
from engine.profiles import Special
from engine.rulesets import rules_of
from engine.smoke_screens import blocked_by_smoke
from engine.state import FireMarker, Point, Unit

SAME_SPOT = 1.0  # inches: a request this close to an earlier one is at the same spot (our reading)
INDIRECT_WEAPONS = (Special.MORTAR, Special.INFANTRY_GUN, Special.HOWITZER)


def _house_rules(state: GameState) -> None:
    if rules_of(state).name != "house_v1":
        raise IllegalCommand("Indirect fire with spotters is part of the House Rules V1.0")


def is_spotter(unit: Unit) -> bool:
    """s. 2 Spotters and OPs: company commands always; OPs and others marked as spotters."""
    return unit.is_command or traits_of(unit).spotter


def marker_at(state: GameState, side: str, at: Point) -> FireMarker | None:
    for marker in state.fire_markers:
        if marker.side == side and math.dist((marker.at.x, marker.at.y), (at.x, at.y)) <= SAME_SPOT:
            return marker
    return None


def active_marker(state: GameState, side: str) -> FireMarker | None:
    return next((m for m in state.fire_markers if m.side == side and m.placed and m.turn == state.turn), None)


def check_request_fire(state: GameState, unit: Unit, at: Point, actions: int) -> None:
    """s. 5 Request fire: a spotter's whole activation, at a spot it can see; one marker a turn
    for each company command."""
    _house_rules(state)
    if actions != 1:
        raise IllegalCommand("A spotter calling for fire does nothing else in that activation")
    if not is_spotter(unit):
        raise IllegalCommand(f"{unit.name} is not a spotter: a company command, or an OP, calls for fire")
    if not (0 <= at.x <= state.table.width and 0 <= at.y <= state.table.depth):
        raise IllegalCommand(f"{at} is off the table")
    if not geometry.line_of_sight(unit.position, at, state.terrain) or blocked_by_smoke(
        state, unit.position, at
    ):
        raise IllegalCommand(f"{unit.name} cannot see {at}")
    active = active_marker(state, unit.side)
    if active is not None and marker_at(state, unit.side, at) is active:
        raise IllegalCommand(f"{unit.side}'s fire marker is already at {active.at} this turn: fire at it")
    if active is not None and marker_at(state, unit.side, at) is not active:
        raise IllegalCommand(f"{unit.side} already has its fire marker for this turn, at {active.at}")


def check_bombard(state: GameState, unit: Unit) -> None:
    """s. 5 Firing: mortars, infantry guns and howitzers, at their side's marker of this turn,
    no nearer than 18" (mortars) or 24" (the others)."""
    _house_rules(state)
    if not any(unit.profile.has(w) for w in INDIRECT_WEAPONS) or traits_of(unit).he is None:
        raise IllegalCommand(f"{unit.name} cannot fire indirectly: only mortars, infantry guns and howitzers")
    if unit.in_building and unit.profile.has(Special.MORTAR):
        raise IllegalCommand(f"{unit.name} may not fire a mortar from inside {unit.in_building} (s. 4)")
    marker = active_marker(state, unit.side)
    if marker is None:
        raise IllegalCommand(f"{unit.side} has no fire marker this turn: a spotter must call for fire first")
    nearest = minimum_range(unit.profile.has(Special.MORTAR))
    gap = geometry.distance_to_point(unit, marker.at)
    if gap < nearest:
        raise IllegalCommand(
            f'{unit.name} is {gap:.1f}" from the marker: indirect fire needs {nearest:g}" or more'
        )
