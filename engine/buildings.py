"""Buildings under the House Rules V1.0 (s. 4 Buildings, s. 5 Buildings and Flamethrowers):
occupying them like transports, what fire does to the troops inside, and buildings on fire.

Each building feature of the table is one building. Any number of infantry and support squads
may be inside, but not wheeled heavy weapons, and never vehicles. A unit inside stands at the
building's centre. We do not track which side or storey a unit fires from.
"""

from __future__ import annotations

import math

from shapely.geometry import Point as ShapelyPoint

from engine import geometry
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.game_state import GameState
from engine.house.citation import cited
from engine.house.firing import (
    FireCategory,
    FireSituation,
    Weapon,
    describe_throw,
    hits,
    to_hit_dice,
    to_hit_modifiers,
)
from engine.house.indirect import building_collateral_marker
from engine.house.shot import house_fire, traits_of
from engine.losses import add_markers
from engine.profiles import HEClass, TroopType, UnitClass
from engine.rules.firing import Shot
from engine.rules.shot_resolution import ShotResult
from engine.state import Point, TerrainFeature, Unit

ENTRY_REACH = 6.0  # as embarking: an infantry normal move (p. 9)
ADJACENT = 1.0  # inches between buildings for fire to spread (our reading of "adjacent")
SPREAD_ON = 5  # s. 5 Building on fire: a 5 or 6
SPREAD_TURNS = 2
CLEAR_OF_WALLS = 1.0  # where an evacuated unit stands, outside the walls


def building(state: GameState, building_id: str) -> TerrainFeature:
    for feature in state.terrain:
        if feature.id == building_id and feature.building:
            return feature
    raise IllegalCommand(f"There is no building called {building_id!r}")


def occupants(state: GameState, building_id: str) -> list[Unit]:
    return [u for u in state.units.values() if u.in_building == building_id and not u.destroyed]


def check_enter_building(state: GameState, unit: Unit, building_id: str) -> None:
    """s. 4: infantry and support squads, but not wheeled heavy weapons, enter a building that
    is not burning or burnt, within a normal infantry move, as they would a transport."""
    feature = building(state, building_id)
    if unit.is_vehicle or traits_of(unit).troop_type is TroopType.SUPPORT_WHEELED:
        raise IllegalCommand(f"{unit.name} cannot go into a building: only infantry and portable weapons do")
    if unit.in_building is not None or unit.embarked_in is not None:
        raise IllegalCommand(f"{unit.name} must come out of where it is first")
    if building_id in state.fires or building_id in state.burnt:
        raise IllegalCommand(f"{building_id} is on fire or burnt out: nobody may go in")
    if any(u.side != unit.side for u in occupants(state, building_id)):
        raise IllegalCommand(f"The enemy holds {building_id}: take it by close combat (assault:)")
    gap = geometry.footprint(unit).distance(geometry.feature_shape(feature))
    if gap > ENTRY_REACH:
        raise IllegalCommand(f'{building_id} is {gap:.1f}" away; going in reaches {ENTRY_REACH:g}"')


def check_leave_building(state: GameState, unit: Unit, to: Point) -> None:
    """s. 4: out of the building, as out of a transport, to a point outside within 6"."""
    if unit.in_building is None:
        raise IllegalCommand(f"{unit.name} is not in a building")
    shape = geometry.feature_shape(building(state, unit.in_building))
    spot = ShapelyPoint(to.x, to.y)
    if shape.intersects(spot):
        raise IllegalCommand(f"{to} is inside {unit.in_building}: come out to a point outside it")
    if shape.distance(spot) > ENTRY_REACH:
        raise IllegalCommand(f'{to} is more than {ENTRY_REACH:g}" from {unit.in_building}')


def check_not_into_buildings(state: GameState, mover: Unit, path: tuple[Point, ...]) -> None:
    """s. 4: vehicles may not enter buildings; troops go in and out only by entering and leaving."""
    if mover.in_building is not None:
        raise IllegalCommand(f"{mover.name} is in {mover.in_building}: leave it first")
    if mover.is_vehicle and any(
        f.building for f, _ in geometry.crossings((mover.position, *path), state.terrain)
    ):
        raise IllegalCommand(f"{mover.name} may not drive into a building")
    inside = [f.id for f in geometry.features_at(path[-1], state.terrain) if f.building]
    if inside:
        raise IllegalCommand(f"To occupy {inside[0]}, go in with an enter action (enter:{inside[0]})")


def enter_building(state: GameState, unit: Unit, building_id: str, log: EventLog) -> None:
    centre = geometry.feature_shape(building(state, building_id)).centroid
    unit.in_building, unit.position = building_id, Point(x=round(centre.x, 2), y=round(centre.y, 2))
    unit.moved_this_turn = True
    log.emit("building", f"{unit.name} goes into {building_id}", unit.id, side=unit.side)


def leave_building(state: GameState, unit: Unit, to: Point, log: EventLog) -> None:
    left, unit.in_building, unit.position = unit.in_building, None, to
    unit.moved_this_turn = True
    log.emit("building", f"{unit.name} comes out of {left} to {to}", unit.id, side=unit.side)


def after_shot_at_building(state: GameState, shot: Shot, result: ShotResult, log: EventLog) -> None:
    """s. 5: a hit by medium or heavy HE on a unit in a building may mark the others inside
    (a d6 each: 6, or 5-6 for heavy HE); two flamethrower hits set the building on fire."""
    target = shot.target
    if target.in_building is None or not result.hits:
        return
    fire = house_fire(shot)
    if fire.category is FireCategory.FLAMETHROWER and result.hits >= 2:
        set_on_fire(state, target.in_building, log)
        return
    if fire.category is not FireCategory.HE or fire.he is None:
        return
    others = [u for u in occupants(state, target.in_building) if u.id != target.id]
    collateral(state, others, target.in_building, fire.he, log, rule="5.72")


def collateral(
    state: GameState, inside: list[Unit], building_id: str, he: HEClass, log: EventLog, *, rule: str
) -> None:
    """s. 5 Buildings: a d6 for each unit inside; a 6 (5-6 for heavy HE) is a marker. Light HE
    does nothing to them. ``rule``: the rules library's section the messages cite."""
    if he is HEClass.LIGHT:
        return
    for other in inside:
        roll = log.d6(f"collateral, {other.name}")
        hit = building_collateral_marker(roll, he)
        log.emit(
            "building",
            cited(f"{other.name}, in {building_id}, rolls {roll}: {'1 marker' if hit else 'unharmed'}", rule),
            other.id,
            side=other.side,
        )
        add_markers(state, other, 1 if hit else 0, log)


def check_shell_building(state: GameState, unit: Unit, building_id: str) -> None:
    """s. 5 Buildings: a gun with medium or heavy HE may fire at a building as a whole, one it
    can see, when nobody inside has fired out to offer a target."""
    feature = building(state, building_id)
    if traits_of(unit).he not in (HEClass.MEDIUM, HEClass.HEAVY) or unit.unit_class is UnitClass.INFANTRY:
        raise IllegalCommand(f"{unit.name} has no medium or heavy HE to fire at a building")
    firing_out = [u.name for u in occupants(state, building_id) if u.fired_this_turn and u.side != unit.side]
    if firing_out:
        raise IllegalCommand(f"{firing_out[0]} has fired out of {building_id}: fire at it instead")
    centre = geometry.feature_shape(feature).centroid
    others = [f for f in state.terrain if f is not feature]
    if not geometry.line_of_sight(unit.position, Point(x=centre.x, y=centre.y), others):
        raise IllegalCommand(f"{unit.name} cannot see {building_id}")


def shell_building(state: GameState, unit: Unit, building_id: str, log: EventLog) -> None:
    """The to-hit throw at the building (only the firer's own markers count against it); a hit
    puts the collateral throw to every unit inside."""
    he = traits_of(unit).he
    assert he is not None
    distance = geometry.footprint(unit).distance(geometry.feature_shape(building(state, building_id)))
    modifiers = to_hit_modifiers(FireSituation(FireCategory.HE, firer_markers=unit.morale_markers))
    rolls = [log.d10(f"HE at {building_id}, {unit.name}") for _ in range(to_hit_dice(Weapon.GUN, distance))]
    scored = hits(rolls, sum(value for _, value in modifiers))
    text = f"{unit.name} fires HE at {building_id}: {describe_throw(modifiers, rolls, scored)}"
    log.emit("fire", cited(text, "5.72"), unit.id, side=unit.side)
    unit.fired_this_turn = True
    if scored:
        collateral(state, occupants(state, building_id), building_id, he, log, rule="5.72")


def set_on_fire(state: GameState, building_id: str, log: EventLog) -> None:
    """s. 5 Building on fire: everyone inside falls back out at once (no token, no marker
    taken off); nobody may go in for the rest of the game; it may spread for two turns."""
    state.fires[building_id] = SPREAD_TURNS
    state.burnt.append(building_id)
    log.emit("building", f"{building_id} is on fire")
    shape = geometry.feature_shape(building(state, building_id))
    for unit in occupants(state, building_id):
        unit.in_building = None
        unit.position = _outside(shape, unit)
        log.emit(
            "fall_back", f"{unit.name} falls back out of the fire to {unit.position}", unit.id, side=unit.side
        )


def spread_fires(state: GameState, log: EventLog) -> None:
    """End of turn, for two turns: each building next to a burning one catches on a 5-6."""
    for burning, turns in list(state.fires.items()):
        near = geometry.feature_shape(building(state, burning))
        for feature in state.terrain:
            if not feature.building or feature.id in state.burnt:
                continue
            if geometry.feature_shape(feature).distance(near) > ADJACENT:
                continue
            roll = log.d6(f"fire spreading to {feature.id}")
            text = f"Fire spreading from {burning} to {feature.id}: rolled {roll}"
            log.emit("building", cited(text, "5.81"))
            if roll >= SPREAD_ON:
                set_on_fire(state, feature.id, log)
        if turns <= 1:
            del state.fires[burning]
        else:
            state.fires[burning] = turns - 1


def _outside(shape, unit: Unit) -> Point:
    """Just outside the walls, on the side nearest where the unit stood."""
    centre = shape.centroid
    edge = shape.exterior.interpolate(shape.exterior.project(ShapelyPoint(unit.position.x, unit.position.y)))
    dx, dy = edge.x - centre.x, edge.y - centre.y
    length = math.hypot(dx, dy) or 1.0
    return Point(
        x=round(edge.x + dx / length * CLEAR_OF_WALLS, 2), y=round(edge.y + dy / length * CLEAR_OF_WALLS, 2)
    )
