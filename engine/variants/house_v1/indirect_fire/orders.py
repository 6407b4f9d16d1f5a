"""Ordering indirect fire (House Rules V1.0, s. 5 Indirect Fire): who may call for fire and
where, who may fire at the marker and from how far. Carrying it out is
:mod:`engine.variants.house_v1.indirect_fire.play`."""

from __future__ import annotations

import math
from collections.abc import Collection

from engine import geometry
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.profiles import Special
from engine.state import Point, Unit
from engine.variants.house_v1.indirect_fire.rules import minimum_range
from engine.variants.house_v1.shot import traits_of
from engine.variants.house_v1.sight import spot_in_sight
from engine.variants.house_v1.smoke.screens import blocked_by_smoke
from engine.variants.house_v1.state import FireMarker
from engine.variants.house_v1.traits import HEClass
from engine.wording import side_name

SAME_SPOT = 1.0  # inches: a request this close to an earlier one is at the same spot (our reading)
INDIRECT_WEAPONS = (Special.MORTAR, Special.INFANTRY_GUN, Special.HOWITZER)
# actions that rule out a light mortar's indirect fire in the same activation (s. 5 Light mortars)
STILL_FOR_LIGHT_MORTAR = frozenset(
    {"move", "embark", "disembark", "enter_building", "leave_building", "fire"}
)


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
    """s. 5 Request fire: a spotter's whole activation, at a spot it can see (s. 8: looking down
    from an upper storey or a hill as any unit does, :func:`spot_in_sight`); one marker a turn
    for each company command."""
    if actions != 1:
        raise IllegalCommand("A spotter calling for fire does nothing else in that activation")
    if not is_spotter(unit):
        raise IllegalCommand(f"{unit.name} is not a spotter: a company command, or an OP, calls for fire")
    if not (0 <= at.x <= state.table.width and 0 <= at.y <= state.table.depth):
        raise IllegalCommand(f"{at} is off the table")
    if not spot_in_sight(state, unit, at, state.terrain) or blocked_by_smoke(state, unit.position, at):
        raise IllegalCommand(f"{unit.name} cannot see {at}")
    active = active_marker(state, unit.side)
    if active is not None and marker_at(state, unit.side, at) is active:
        raise IllegalCommand(
            f"{side_name(unit.side, start=True)}' fire marker is already at {active.at} this turn: fire at it"
        )
    if active is not None and marker_at(state, unit.side, at) is not active:
        raise IllegalCommand(
            f"{side_name(unit.side, start=True)} already have their fire marker for this turn, at {active.at}"
        )


def check_bombard(state: GameState, unit: Unit, kinds: Collection[str] = ()) -> None:
    """s. 5 Firing: mortars, infantry guns and howitzers (and a command squad's light mortar),
    at their side's marker of this turn, no nearer than 18" (mortars) or 24" (the others).
    ``kinds``: the kinds of the activation's actions, when the order is declared."""
    light = traits_of(unit).light_mortar
    if light:
        check_light_mortar_indirect(unit, kinds)
    elif not any(unit.profile.has(w) for w in INDIRECT_WEAPONS) or traits_of(unit).he is None:
        raise IllegalCommand(f"{unit.name} cannot fire indirectly: only mortars, infantry guns and howitzers")
    mortar = light or unit.profile.has(Special.MORTAR)
    if unit.in_building and mortar:
        raise IllegalCommand(f"{unit.name} may not fire a mortar from inside {unit.in_building} (s. 4)")
    marker = active_marker(state, unit.side)
    if marker is None:
        raise IllegalCommand(
            f"{side_name(unit.side, start=True)} have no fire marker this turn: "
            "a spotter must call for fire first"
        )
    nearest = minimum_range(mortar)
    gap = geometry.distance_to_point(unit, marker.at)
    if gap < nearest:
        raise IllegalCommand(
            f'{unit.name} is {gap:.1f}" from the marker: indirect fire needs {nearest:g}" or more'
        )


def check_light_mortar_indirect(unit: Unit, kinds: Collection[str]) -> None:
    """s. 5 Light mortars: a squad's light mortar joins in indirect fire only if the squad is a
    command squad with a radio (a spotter, s. 2), and it neither moves nor fires its small arms
    in that activation."""
    if not is_spotter(unit):
        raise IllegalCommand(
            f"{unit.name}'s light mortar fires indirectly only from a command squad with a radio"
        )
    if set(kinds) & STILL_FOR_LIGHT_MORTAR:
        raise IllegalCommand(
            f"{unit.name} fires its light mortar indirectly only if it neither moves nor fires "
            "in that activation"
        )


def indirect_he(unit: Unit) -> HEClass | None:
    """The HE class of a unit's indirect fire: light for a light mortar (s. 2), else its own."""
    traits = traits_of(unit)
    return HEClass.LIGHT if traits.light_mortar else traits.he
