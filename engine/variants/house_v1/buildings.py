"""Buildings under the House Rules V1.0 (s. 4 Buildings, s. 5 Buildings, Firing from buildings
and Flamethrowers, s. 6 Attacking buildings): occupying them like transports, firing out of them
by side and storey, what fire does to the troops inside, assaults on them, and buildings on fire.

Each building feature of the table is one building. Any number of infantry and support squads
may be inside, but not wheeled heavy weapons, and never vehicles. A unit inside stands at the
building's centre until it fires out; then it stands at the middle of the side it fired from,
holding that side and storey (its post, :mod:`engine.variants.house_v1.posts`) until the turn ends.
"""

from __future__ import annotations

import math

from shapely.geometry import Point as ShapelyPoint

from engine import geometry
from engine.battlefield import can_see
from engine.dice import DieCategory
from engine.errors import IllegalCommand
from engine.event_data import FireData
from engine.events import EventLog
from engine.firing.losses import add_markers
from engine.game_state import GameState
from engine.orders import check_set_down, unit_in_the_way
from engine.profiles import UnitClass
from engine.rules.firing import Shot
from engine.rules.shot_resolution import ShotResult
from engine.state import Point, Unit
from engine.variants.house_v1.citation import cited
from engine.variants.house_v1.firing import (
    FireCategory,
    FireSituation,
    Weapon,
    describe_throw,
    hits,
    to_hit_dice,
    to_hit_modifiers,
    to_hit_throw,
)
from engine.variants.house_v1.indirect_fire.rules import building_collateral_marker
from engine.variants.house_v1.posts import attacked_side, building, holds, moves_to_post, occupants
from engine.variants.house_v1.shot import house_fire, traits_of
from engine.variants.house_v1.sight import fire_through_problem, troops_in_the_way
from engine.variants.house_v1.state import BuildingPost
from engine.variants.house_v1.traits import HEClass, TroopType
from engine.wording import side_name

ENTRY_REACH = 6.0  # as embarking: an infantry normal move (p. 9)
ADJACENT = 1.0  # inches between buildings for fire to spread (our reading of "adjacent")
SPREAD_ON = 5  # s. 5 Building on fire: a 5 or 6
SPREAD_TURNS = 2
CLEAR_OF_WALLS = 1.0  # where an evacuated unit stands, outside the walls
FURTHER_OUT = 0.5  # inches: each step further out past a unit already standing there


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
        problem = entry_through_breach_problem(state, unit, building_id)
        if problem:
            raise IllegalCommand(problem)
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
    check_set_down(state, unit, to)


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
        raise IllegalCommand(
            f"The move ends inside {inside[0]}: a move stops outside a building, and going in is the "
            f'enter action itself (enter:{inside[0]}, from within {ENTRY_REACH:g}" of it, as into a '
            f"transport): end the move outside {inside[0]}, or leave the move out"
        )


def enter_building(state: GameState, unit: Unit, building_id: str, log: EventLog) -> None:
    unit.in_building, unit.position, unit.firing_post = building_id, _centre(state, building_id), None
    unit.moved_this_turn = True
    log.emit("building", f"{unit.name} goes into {building_id}", unit.id, side=unit.side)


def leave_building(state: GameState, unit: Unit, to: Point, log: EventLog) -> None:
    left, unit.in_building, unit.position, unit.firing_post = unit.in_building, None, to, None
    unit.moved_this_turn = True
    log.emit("building", f"{unit.name} comes out of {left} to {to}", unit.id, side=unit.side)


def _centre(state: GameState, building_id: str) -> Point:
    centre = geometry.feature_shape(building(state, building_id)).centroid
    return Point(x=round(centre.x, 2), y=round(centre.y, 2))


def take_post(state: GameState, shot: Shot, log: EventLog) -> None:
    """s. 5 Firing from buildings: a unit that has fired out of a building holds that side and
    storey for the rest of the turn, at the middle of that side; a unit that held it before is
    pushed back from it (if it fires again this turn, that counts as moving). Getting to the post
    may be a move (:func:`moved_to_post`)."""
    posted = shot.firer
    unit = state.units[posted.id]
    post = posted.firing_post
    if unit.in_building is None or post is None or holds(unit, post):
        return
    moved_to_post(state, unit, post)
    for other in occupants(state, unit.in_building):
        if other.id != unit.id and holds(other, post):
            other.firing_post = post.model_copy(update={"displaced": True})
            other.position = _centre(state, unit.in_building)
            text = f"{unit.name} takes over {unit.in_building}'s {post} from {other.name}"
            log.emit("building", cited(text, "5.32"), unit.id, other.id, side=unit.side)
    unit.firing_post, unit.position, unit.facing = post, posted.position, posted.facing
    text = cited(f"{unit.name} fires out of {unit.in_building}'s {post}", "5.32")
    log.emit("building", text, unit.id, side=unit.side)


def moved_to_post(state: GameState, unit: Unit, post: BuildingPost) -> None:
    """House Rules V1.0, s. 5 Firing from buildings: a unit that fires out of another side or
    storey than the one it held this turn, or that replaces another unit at its post, must move
    to get there; so, besides the firer's penalty on its own throw, it has moved this turn, as a
    target (the -1 to AP and HE fire at a target that moved) and to the observer. The unit pushed
    back from the post does not move of its own accord."""
    assert unit.in_building is not None
    if moves_to_post(state, unit.id, unit.in_building, post):
        unit.moved_this_turn = True


def building_defenders(state: GameState, attacker: Unit, named: Unit) -> list[Unit]:
    """House Rules V1.0, s. 6 Attacking buildings: the occupying units the defending side may
    choose from to meet an assault: only the one that has been firing out of the ground floor of
    the side attacked, if there is one; else any of its units inside but those holding upper
    storeys (none left: the attackers get in unopposed). Against attackers already established
    inside, any of its units inside. A unit out in the open is its own defender."""
    if named.in_building is None:
        return [named]
    feature = building(state, named.in_building)
    inside = [u for u in occupants(state, feature.id) if u.side == named.side]
    if attacker.in_building == feature.id:
        return inside
    ground = BuildingPost(side=attacked_side(feature, attacker).name, storey=0)
    firing = [u for u in inside if holds(u, ground)]
    if firing:
        return firing[:1]
    return [u for u in inside if not (u.firing_post and holds(u, u.firing_post) and u.firing_post.storey)]


def building_assault(state: GameState, attacker: Unit, named: Unit, log: EventLog) -> Unit | None:
    """s. 6 Attacking buildings, once the attacker has passed its initiation test: the unit that
    defends (:func:`building_defenders`): the one named (or chosen by the defending side) if it
    may, else the one bound to; or None when the enemy inside all hold upper storeys and the
    attackers get in unopposed, through the side they attacked."""
    defenders = building_defenders(state, attacker, named)
    if named in defenders:
        return named
    if not defenders:
        assert named.in_building is not None
        feature = building(state, named.in_building)
        text = f"{attacker.name} gets into {feature.id} unopposed: the enemy holds only its upper storeys"
        log.emit("close_combat", cited(text, "6.7"), attacker.id, side=attacker.side)
        breach(state, attacker, feature.id, log)
        return None
    bound = defenders[0]
    held = bound.firing_post
    if held is not None and holds(bound, held) and not held.storey:
        text = f"{bound.name} has been firing out of {bound.in_building}'s {held}: it must defend"
    else:
        text = f"{bound.name} is the one of them not holding an upper storey: it defends"
    log.emit("close_combat", cited(text, "6.7"), bound.id, side=bound.side)
    return bound


def breach(state: GameState, attacker: Unit, building_id: str, log: EventLog) -> None:
    """s. 6 Attacking buildings: attackers who took their way in are established inside, and
    the side of the building they came in by is the one their side's later units enter through."""
    face = attacked_side(building(state, building_id), attacker).name
    state.breaches.setdefault(building_id, {})[attacker.side] = face
    enter_building(state, attacker, building_id, log)
    text = (
        f"{side_name(attacker.side, start=True)} are established in {building_id}: more units may follow "
        f"through its {face} side"
    )
    log.emit("building", cited(text, "6.7"), attacker.id, side=attacker.side)


def entry_through_breach_problem(state: GameState, unit: Unit, building_id: str) -> str | None:
    """s. 6 Attacking buildings: into a building the enemy still holds, a unit goes in only to
    join its side's units established there, through the side they got in by; None if it may."""
    established = any(u.side == unit.side for u in occupants(state, building_id))
    face = state.breaches.get(building_id, {}).get(unit.side)
    if not established or face is None:
        return f"The enemy holds {building_id}: take it by close combat (assault:)"
    coming_by = attacked_side(building(state, building_id), unit).name
    if coming_by != face:
        return (
            f"{side_name(unit.side, start=True)} got into {building_id} by its {face} side: later units "
            f"follow that way, not by the {coming_by}"
        )
    return None


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
        roll = log.d6(f"collateral, {other.name}", DieCategory.CASUALTY)
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
    can see, when nobody inside has fired out to offer it a target: one it sees (a unit at its
    post is seen only through the side it fires out of, :func:`own_building_hides`)."""
    feature = building(state, building_id)
    if traits_of(unit).he not in (HEClass.MEDIUM, HEClass.HEAVY) or unit.unit_class is UnitClass.INFANTRY:
        raise IllegalCommand(f"{unit.name} has no medium or heavy HE to fire at a building")
    firing_out = [
        u.name
        for u in occupants(state, building_id)
        if u.fired_this_turn and u.side != unit.side and can_see(state, unit, u)
    ]
    if firing_out:
        raise IllegalCommand(f"{firing_out[0]} has fired out of {building_id}: fire at it instead")
    shape = geometry.feature_shape(feature)
    centre = Point(x=shape.centroid.x, y=shape.centroid.y)
    others = [f for f in state.terrain if f is not feature]
    if not geometry.line_of_sight(unit.position, centre, others):
        raise IllegalCommand(f"{unit.name} cannot see {building_id}")
    in_the_way = troops_in_the_way(state, unit, centre, shape, {unit.id})
    problem = fire_through_problem(state, unit, in_the_way, gun=True, at_vehicle_or_building=True)
    if problem:
        raise IllegalCommand(problem)


def shell_building(state: GameState, unit: Unit, building_id: str, log: EventLog) -> None:
    """The to-hit throw at the building (only the firer's own markers count against it); a hit
    puts the collateral throw to every unit inside."""
    he = traits_of(unit).he
    assert he is not None
    distance = geometry.footprint(unit).distance(geometry.feature_shape(building(state, building_id)))
    modifiers = to_hit_modifiers(FireSituation(FireCategory.HE, firer_markers=unit.morale_markers))
    modifier = sum(value for _, value in modifiers)
    rolls = [
        log.roll_against(
            10,
            f"HE at {building_id}, {unit.name}",
            lambda face: hits([face], modifier) > 0,
            DieCategory.TO_HIT,
        )
        for _ in range(to_hit_dice(Weapon.GUN, distance))
    ]
    scored = hits(rolls, modifier)
    text = f"{unit.name} fires HE at {building_id}: {describe_throw(modifiers, rolls, scored)}"
    shot = FireData(
        firer=unit.id,
        target=None,
        building=building_id,
        distance=distance,
        to_hit=to_hit_throw(modifiers, rolls),
    )
    log.emit("fire", cited(text, "5.72"), unit.id, side=unit.side, data=shot)
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
        unit.in_building, unit.firing_post = None, None
        unit.position = _outside(state, shape, unit)
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


def _outside(state: GameState, shape, unit: Unit) -> Point:
    """Just outside the walls, on the side nearest where the unit stood; further out, past any
    unit already there, since units never overlap (:func:`check_set_down`)."""
    centre = shape.centroid
    edge = shape.exterior.interpolate(shape.exterior.project(ShapelyPoint(unit.position.x, unit.position.y)))
    dx, dy = edge.x - centre.x, edge.y - centre.y
    length = math.hypot(dx, dy) or 1.0
    spots = [
        Point(x=round(edge.x + dx / length * out, 2), y=round(edge.y + dy / length * out, 2))
        for out in (CLEAR_OF_WALLS + step * FURTHER_OUT for step in range(int(ENTRY_REACH / FURTHER_OUT)))
    ]
    clear = (at for at in spots if unit_in_the_way(state, unit, (at,), unit.facing, set_down=True) is None)
    return next(clear, spots[0])
