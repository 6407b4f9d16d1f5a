"""Markers and losses, shared by every way of hurting a unit: morale markers, destruction
(passengers bailing out), and an exploding vehicle shaking its friends (pp. 12-13)."""

from __future__ import annotations

import math

from engine import geometry
from engine.battlefield import live_units
from engine.deployment.hidden import reveal_marker, under_marker
from engine.event_data import DestroyedData
from engine.events import EventLog
from engine.game_state import GameState
from engine.orders import unit_in_the_way
from engine.rules.morale import is_destroyed_by_markers
from engine.rulesets import rules_of
from engine.state import Point, Unit
from engine.teams import lose_co_bonus
from engine.view import untold_if_hidden
from engine.wording import counted


def add_markers(state: GameState, unit: Unit, count: int, log: EventLog) -> None:
    """Place morale markers; a unit with more markers than its morale is destroyed (p. 13)."""
    if count <= 0 or unit.destroyed:
        return
    unit.morale_markers += count
    if is_destroyed_by_markers(unit):
        destroy_by_markers(state, unit, log)


def destroy_by_markers(state: GameState, unit: Unit, log: EventLog) -> None:
    """A unit with more morale markers than its morale is destroyed (p. 13)."""
    lost = DestroyedData(unit=unit.id, markers=unit.morale_markers, morale=unit.profile.morale)
    destroy(state, unit, log, lost.markers_text(unit.name), data=lost)


def destroy(
    state: GameState,
    unit: Unit,
    log: EventLog,
    text: str,
    *,
    kaboom: bool = False,
    data: DestroyedData | None = None,
) -> None:
    """Remove a unit from play; its passengers bail out (p. 12). A hidden marker is turned over
    first: what was lost is no secret (p. 26)."""
    if under_marker(unit):
        reveal_marker(state, unit, log, "destroyed")
    unit.destroyed = True
    unit.embarked_in = None
    log.emit("destroyed", text, unit.id, side=unit.side, data=data or DestroyedData(unit=unit.id))
    lose_co_bonus(state, unit, log)
    for passenger in passengers_of(state, unit):
        if kaboom:
            destroy(state, passenger, log, f"{passenger.name} is lost with {unit.name}")
            continue
        passenger.embarked_in = None
        passenger.position = beside(state, unit, passenger)
        morale = passenger.profile.morale or 0
        passenger.morale_markers = max(passenger.morale_markers, morale)
        log.emit(
            "bail_out",
            f"{passenger.name} bails out of the wreck with {counted(passenger.morale_markers, 'marker')}",
            passenger.id,
            side=passenger.side,
        )


def passengers_of(state: GameState, transport: Unit) -> list[Unit]:
    return [u for u in state.units.values() if u.embarked_in == transport.id and not u.destroyed]


def beside(state: GameState, vehicle: Unit, passenger: Unit) -> Point:
    """Where a passenger forced or bailing out of a vehicle (p. 12) is put: just behind it, or,
    if a unit is there, beside it or in front of it; units never overlap (pp. 8-9, 11)."""
    length, width = geometry.FOOTPRINT[vehicle.unit_class]
    clearance = geometry.FOOTPRINT[passenger.unit_class][0] / 2 + 0.05
    spots = [
        _offset(vehicle.position, vehicle.facing + turn, reach)
        for turn, reach in ((180.0, length), (90.0, width / 2 + clearance), (270.0, width / 2 + clearance))
    ]
    spots.append(_offset(vehicle.position, vehicle.facing, length / 2 + clearance))
    clear = (
        s for s in spots if unit_in_the_way(state, passenger, (s,), passenger.facing, set_down=True) is None
    )
    return next(clear, spots[0])


def _offset(point: Point, bearing: float, dist: float) -> Point:
    rad = math.radians(bearing)
    return Point(x=point.x + dist * math.cos(rad), y=point.y + dist * math.sin(rad))


def explode(state: GameState, vehicle: Unit, log: EventLog) -> None:
    """Kaboom! (p. 12): the vehicle explodes; each friendly unit nearby takes a marker."""
    destroy(state, vehicle, log, f"{vehicle.name} explodes!", kaboom=True)
    radius = rules_of(state).explosion_radius(state.table.is_small)
    for unit in live_units(state, vehicle.side):
        if unit.id != vehicle.id and geometry.distance(unit, vehicle) <= radius:
            log.emit(
                "kaboom",
                f"{unit.name} is shaken by the blast: +1 marker",
                unit.id,
                side=unit.side,
                kept=untold_if_hidden(unit),
            )
            add_markers(state, unit, 1, log)
