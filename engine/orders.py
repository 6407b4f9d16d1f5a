"""Checking orders before any die is rolled, and planning moves (pp. 4-9).

Every check raises :class:`IllegalCommand` with what was wrong and what is needed.
Planning a move measures it against the rules and returns where the unit would end and
which terrain tests it must take; it is used both when an order is declared and when the
move is carried out (by then a reaction may have changed the situation).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine import geometry
from engine.actions.base import actions_of
from engine.battlefield import cannot_see, live_units, unscreened_enemy_infantry
from engine.commands import (
    Action,
    Disembark,
    Embark,
    FallBackOrder,
    Fire,
    LaySmoke,
    Move,
    PlatoonOrder,
    UnitOrder,
)
from engine.deployment.hidden import as_seen, under_marker
from engine.errors import IllegalCommand
from engine.firing.aiming import measure_shot, shot_problem, target_in_sight
from engine.game_state import GameState
from engine.profiles import Special
from engine.rules.morale import FALL_BACK_ENEMY_RANGE
from engine.rules.movement import (
    PLATOON_SIZE,
    PLATOON_SPACING,
    ROAD_TURN_LIMIT,
    ROAD_TURNS_ALLOWED,
    fall_back_allowance,
    movement_allowance,
    platoon_type,
    rapid_move_allowed_in,
    terrain_test_score_needed,
    unit_may_cross_wire,
    vehicle_turn_limit,
)
from engine.rulesets import rules_of
from engine.state import Going, Point, TerrainFeature, Unit
from engine.view import known_as
from engine.wording import counted, side_name

EMBARK_REACH = 6.0  # an infantry normal move (p. 9)


@dataclass(frozen=True)
class TerrainTest:
    feature: TerrainFeature
    needed: int
    entry: float  # distance along the path where the unit meets it


@dataclass(frozen=True)
class MovePlan:
    mover: str  # the unit that physically moves (a transport carries its passengers)
    path: tuple[Point, ...]  # including the start
    length: float
    allowance: float
    facing: float
    tests: tuple[TerrainTest, ...] = field(default=())

    @property
    def end(self) -> Point:
        return self.path[-1]


def unit_of_side(state: GameState, side: str, unit_id: str, *, entering: bool = False) -> Unit:
    unit = state.units.get(unit_id)
    if unit is None:
        raise IllegalCommand(f"There is no unit called {unit_id!r}")
    if unit.side != side:
        raise IllegalCommand(f"{unit.name} belongs to the other side")
    if unit.destroyed:
        raise IllegalCommand(f"{unit.name} has been destroyed")
    if unit.in_reserve and not (entering and unit.reserve_available):
        raise IllegalCommand(
            f"{unit.name} is in reserve and not on the table"
            + ("" if entering else ": only a move may bring it on, once it is available")
        )
    return unit


ON_THE_EDGE = 0.5  # inches


def entering_order(state: GameState, unit: Unit, order: UnitOrder) -> tuple[Unit, tuple[Action, ...]]:
    """A reserve unit comes on (p. 26) with a move only, no shot: its first point is where it
    enters, on its side's edge. Returns the unit placed there and what is left to check."""
    moves = actions_of(order.actions, Move)
    if len(order.actions) != 1 or not moves:
        raise IllegalCommand(f"{unit.name} comes on from reserve with a move only, and may not fire (p. 26)")
    move = moves[0]
    edge = state.sides[unit.side].entry_edge
    entry = move.path[0]
    _on_table(state, entry)
    if geometry.edge_gap(entry, state.table, edge) > ON_THE_EDGE:
        start = geometry.nearest_on_edge(entry, state.table, edge)
        raise IllegalCommand(
            f"{unit.name} must come on at {side_name(unit.side)}' {edge} table edge "
            f'({geometry.edge_line(state.table, edge)}, within {ON_THE_EDGE:g}"); {entry} is not on it: '
            f"start the move on the edge, e.g. move:{start};{entry}"
        )
    placed = unit.model_copy(update={"position": entry, "in_reserve": False})
    check_set_down(state, placed, entry)
    rest = move.model_copy(update={"path": move.path[1:]})
    return placed, (rest,) if rest.path else ()


def check_may_activate(unit: Unit) -> None:
    """Units that failed a terrain test or moved as a platoon may not act again this turn (p. 9)."""
    if unit.bogged:
        raise IllegalCommand(f"{unit.name} failed a terrain test and may not act again this turn")
    if unit.platoon_moved:
        raise IllegalCommand(f"{unit.name} moved as part of a platoon: no more actions this turn")


def _on_table(state: GameState, point: Point) -> None:
    if not (0 <= point.x <= state.table.width and 0 <= point.y <= state.table.depth):
        raise IllegalCommand(f'{point} is off the table ({state.table.width:g}" x {state.table.depth:g}")')


def plan_move(
    state: GameState,
    unit: Unit,
    move: Move,
    *,
    fall_back: bool = False,
    strict: bool = True,
    moving_with: Iterable[str] = (),
) -> MovePlan:
    """Measure a move (pp. 8-9, fall back p. 13). With ``strict`` a move that is too long, or
    that crosses or ends on another unit, is illegal; otherwise (when carried out after a
    reaction) it is cut short at the allowance, or in contact with the unit in its way."""
    mover = _mover(state, unit, move)
    profile = as_seen(mover).profile  # a hidden marker moves at infantry rates (p. 26)
    if not move.path:
        raise IllegalCommand("A move needs at least one destination point")
    path = (mover.position, *move.path)
    for point in move.path:
        _on_table(state, point)
    length = geometry.path_length(path)
    if strict:
        check_goes_somewhere(mover, move, length)

    tests: list[TerrainTest] = []
    rough = False
    for feature, entry in geometry.crossings(path, state.terrain):
        going = feature.going_for(profile)
        breached = feature.id in state.breached_wire
        if feature.wire and breached and going is Going.VERY_ROUGH:
            # Breached wire lets guns through (p. 9); we read a breach as leaving rough ground.
            going = Going.ROUGH
        if going is Going.EASY:
            continue
        if feature.wire and not breached and not unit_may_cross_wire(profile, feature):
            raise IllegalCommand(f"{mover.name} may not cross unbreached wire ({feature.id})")
        needed = terrain_test_score_needed(profile, going, wire=feature.wire)
        if needed is not None and needed > 6 or _truly_impassable(mover, feature, breached):
            raise IllegalCommand(f"{mover.name} cannot cross {feature.kind} ({feature.id})")
        rough = rough or not rapid_move_allowed_in(going)
        if needed is not None:
            tests.append(TerrainTest(feature, needed, entry))

    rapid = move.rapid or fall_back
    if move.rapid and rough:
        raise IllegalCommand(f"{mover.name} may not make a rapid move through rough ground")
    if move.road:
        if not move.rapid:
            raise IllegalCommand("The road rate is a rapid move: set rapid as well")
        roads = [f for f in state.terrain if f.road]
        if not geometry.within_features(path, roads):
            raise IllegalCommand("A rapid road move must stay on the road all the way")
        turns = [t for t in geometry.leg_turns(path) if t > 1e-6]
        if len(turns) > ROAD_TURNS_ALLOWED or any(t > ROAD_TURN_LIMIT for t in turns):
            raise IllegalCommand(
                "A rapid road move goes one way: at most two slight turns of 45 degrees or less"
            )

    if fall_back:
        allowance = fall_back_allowance(profile, reverse=move.reverse)
        if rough:
            allowance = min(allowance, movement_allowance(profile, rapid=False, road=False))
        rate = "fall back"
    else:
        cautious = profile.is_vehicle and _must_move_cautiously(state, mover, path[-1])
        allowance = movement_allowance(profile, rapid=move.rapid, road=move.road, cautious=cautious)
        rate = "half rate near enemy infantry" if cautious else ("rapid" if move.rapid else "normal")
        if cautious and move.rapid:
            raise IllegalCommand(
                f'{mover.name} is within 12" of enemy infantry with no friendly infantry as close:'
                " it may only move half its normal distance, or move away"
            )

    if length > allowance + 1e-6:
        if strict:
            raise IllegalCommand(f'{mover.name} may move {allowance:g}" ({rate}); that path is {length:.1f}"')
        path = _truncate(path, allowance)
        length = allowance

    if profile.is_vehicle:
        turned = geometry.total_turn(mover.facing, path, move.reverse, move.facing)
        limit = vehicle_turn_limit(rapid=rapid and not (fall_back and move.reverse))
        if turned > limit + 1e-6:
            raise IllegalCommand(
                f"{mover.name} would turn {turned:.0f} degrees; vehicles may turn at most "
                f"{limit:.0f} degrees in a {'rapid' if limit < 180 else 'normal'} move"
            )
    facing = geometry.end_facing(mover.facing, path, move.reverse, move.facing)
    in_the_way = unit_in_the_way(state, mover, path, facing, moving_with)
    if in_the_way is not None:
        if strict:
            raise IllegalCommand(in_the_way)
        path, facing = _stop_before_units(state, mover, path, move, moving_with)
        length = geometry.path_length(path)
        tests = [test for test in tests if test.entry < length]
    return MovePlan(mover.id, path, length, allowance, facing, tuple(tests))


def check_goes_somewhere(mover: Unit, move: Move, length: float) -> None:
    """A move is a unit going somewhere (pp. 8-9): one that neither covers any distance nor
    turns the unit is refused before it costs an action or a token."""
    turns = move.facing is not None and geometry.angle_between(mover.facing, move.facing) > 1e-6
    if length < 1e-6 and not turns:
        raise IllegalCommand(
            f"{mover.name} is already at {mover.position}: a move must go somewhere (nothing is spent)"
        )


def unit_in_the_way(
    state: GameState,
    mover: Unit,
    path: tuple[Point, ...],
    facing: float,
    moving_with: Iterable[str] = (),
    *,
    set_down: bool = False,
) -> str | None:
    """Models on a table cannot overlap: a move may neither end on another unit's base nor pass
    through one (the book, pp. 8-9, gives no way through; units meet in contact, p. 11). Why
    this move may not be made, or None. Units ``moving_with`` it in a platoon (p. 9) make way.
    A unit ``set_down`` (set up, coming on from reserve, out of a transport or a building) is a
    move of one point: it may not be put on any base at all."""
    ground = geometry.swept_ground(mover.unit_class, path, facing)
    end = geometry.footprint_at(mover.unit_class, path[-1], facing)
    for other in _bases(state, mover, moving_with, set_down):
        base = geometry.footprint(other)
        if geometry.overlap(base, end):
            where = "be set down" if set_down else "end"
            return (
                f"{mover.name} would {where} on top of {known_as(other)}: units may not overlap on the "
                "table (stop in contact with it)"
            )
        if geometry.overlap(base, ground):
            return f"{mover.name} would move through {known_as(other)}: units may not pass through each other"
    return None


def check_set_down(state: GameState, unit: Unit, at: Point, facing: float | None = None) -> None:
    """Refuse to put a unit on the table where it would overlap another (:func:`unit_in_the_way`,
    pp. 8-9, 11)."""
    problem = unit_in_the_way(state, unit, (at,), unit.facing if facing is None else facing, set_down=True)
    if problem:
        raise IllegalCommand(problem)


def _bases(state: GameState, mover: Unit, moving_with: Iterable[str], set_down: bool = False) -> list[Unit]:
    """The bases a move must keep off: every unit on the table but those carried or inside a
    building, fellow platoon members, and enemy sniper teams the mover's side does not know of
    (p. 20). One the mover already overlaps it may leave, unless it is being set down."""
    start = None if set_down else geometry.footprint(mover)
    skipped = {mover.id, *moving_with}
    return [
        u
        for u in state.units.values()
        if u.on_table
        and u.id not in skipped
        and u.embarked_in is None
        and u.in_building is None
        and not (u.side != mover.side and known_as(u) != u.name and not under_marker(u))
        and (start is None or not geometry.overlap(geometry.footprint(u), start))
    ]


def _stop_before_units(
    state: GameState, mover: Unit, path: tuple[Point, ...], move: Move, moving_with: Iterable[str]
) -> tuple[tuple[Point, ...], float]:
    """A declared move carried out after the table changed: it stops in contact with the first
    unit now in its way (:func:`unit_in_the_way`)."""

    def part(reach: float) -> tuple[tuple[Point, ...], float]:
        kept = _truncate(path, reach) if reach > 0 else (path[0],)
        return kept, geometry.end_facing(mover.facing, kept, move.reverse, move.facing)

    def blocked(reach: float) -> bool:
        return unit_in_the_way(state, mover, *part(reach), moving_with) is not None

    return part(geometry.furthest_clear(geometry.path_length(path), blocked))


def stop_in_contact(state: GameState, mover: Unit, to: Point) -> Point:
    """Where a straight move the rules make for a unit, facing as it faces (a close-combat dash,
    a fall back out of a fight or a fire), ends: at ``to``, or in contact with the first unit in
    its way, since units never overlap (:func:`unit_in_the_way`, pp. 8-9, 11)."""
    move = Move(path=(to,), facing=mover.facing)
    kept, _ = _stop_before_units(state, mover, (mover.position, to), move, ())
    return kept[-1]


def toward(state: GameState, unit: Unit, goal: Unit, inches: float) -> Point:
    """The point ``inches`` straight toward another unit, stopping in contact with its base
    rather than on it (units meet in contact, p. 11; :func:`unit_in_the_way`)."""
    mover = state.units[unit.embarked_in] if unit.embarked_in else unit
    goal = goal if goal.side == unit.side else as_seen(goal)  # an enemy marker's base, not what is under it
    start, centre = mover.position, goal.position
    gap = math.dist((start.x, start.y), (centre.x, centre.y))
    if gap == 0:
        raise IllegalCommand("That unit is already there")
    heading = geometry.bearing(start, centre)

    def at(reach: float) -> Point:
        step = reach / gap
        return Point(x=start.x + (centre.x - start.x) * step, y=start.y + (centre.y - start.y) * step)

    def on_it(reach: float) -> bool:
        base = geometry.footprint_at(mover.unit_class, at(reach), heading)
        return geometry.overlap(base, geometry.footprint(goal))

    end = at(geometry.furthest_clear(min(inches, gap), on_it))
    return Point(x=_hundredths_toward(end.x, start.x), y=_hundredths_toward(end.y, start.y))


def _hundredths_toward(value: float, start: float) -> float:
    """``value`` to 0.01", rounded toward ``start``: a move "N toward" a unit is never made
    longer than N by the rounding (rounded to nearest, a full move came out 10.004")."""
    hundredths = round(value * 100, 6)  # float noise off first: 14.0 stays 14.0
    if value >= start:
        return max(math.floor(hundredths) / 100, start)  # never past where it starts
    return min(math.ceil(hundredths) / 100, start)


def _truly_impassable(mover: Unit, feature: TerrainFeature, breached: bool) -> bool:
    """A hidden marker moves at infantry rates (p. 26), but a vehicle under it still cannot go
    where no vehicle can (only its owner hears why)."""
    if not under_marker(mover):
        return False
    going = feature.going_for(mover.profile)
    if feature.wire and breached and going is Going.VERY_ROUGH:
        going = Going.ROUGH
    needed = terrain_test_score_needed(mover.profile, going, wire=feature.wire)
    return (needed is not None and needed > 6) or (
        feature.wire and not breached and not unit_may_cross_wire(mover.profile, feature)
    )


def _mover(state: GameState, unit: Unit, move: Move) -> Unit:
    """What physically moves: the unit, the transport carrying it, or, when the unit is
    activated to move its own transport, that transport (p. 20)."""
    if unit.embarked_in:
        return state.units[unit.embarked_in]
    if not move.own_transport:
        return unit
    transport = state.units.get(unit.transport or "")
    if transport is None or not transport.on_table:
        raise IllegalCommand(f"{unit.name} has no transport on the table to move")
    return transport


def _truncate(path: tuple[Point, ...], allowance: float) -> tuple[Point, ...]:
    kept = [path[0]]
    travelled = 0.0
    for a, b in zip(path, path[1:], strict=False):
        leg = geometry.path_length((a, b))
        if travelled + leg >= allowance:
            kept.append(geometry.point_along((a, b), allowance - travelled))
            break
        kept.append(b)
        travelled += leg
    return tuple(kept)


def _must_move_cautiously(state: GameState, vehicle: Unit, end: Point) -> bool:
    """A vehicle near unscreened enemy infantry moves at half rate unless moving away (p. 8)."""
    threats = unscreened_enemy_infantry(state, vehicle, seen_only=True)
    if not threats:
        return False
    return not all(_moves_away_from(t, vehicle.position, end) for t in threats)


def _moves_away_from(enemy: Unit, start: Point, end: Point) -> bool:
    """Whether a move ends further from the enemy than it began (centre to centre)."""
    here = (enemy.position.x, enemy.position.y)
    return math.dist(here, (end.x, end.y)) > math.dist(here, (start.x, start.y))


def check_moves_away(state: GameState, unit: Unit, end: Point) -> None:
    """Fall back, and later reactivations of a unit that fell back, move away from enemies
    within 12" (p. 13)."""
    enemies = [e for e in live_units(state) if e.side != unit.side and not e.hidden]
    near = [e for e in enemies if geometry.distance(e, unit) <= FALL_BACK_ENEMY_RANGE]
    if not near and enemies:
        near = [min(enemies, key=lambda e: geometry.distance(e, unit))]
    closer = [e for e in near if not _moves_away_from(e, unit.position, end)]
    if closer:
        raise IllegalCommand(f"{unit.name} must move further away from " + ", ".join(e.name for e in closer))


def moved_pose(unit: Unit, plan: MovePlan) -> Unit:
    return unit.model_copy(update={"position": plan.end, "facing": plan.facing})


def check_smoke(state: GameState, unit: Unit, smoke: LaySmoke) -> None:
    """Smoke (p. 12) is laid by the unit itself or fired by a friendly unit able to fire
    anti-tank rounds beyond 12" (a gun, not infantry weapons, MGs or mortars)."""
    if unit.embarked_in is not None:
        raise IllegalCommand(f"{unit.name} is embarked and cannot lay smoke")
    if smoke.supporter is None:
        return
    supporter = unit_of_side(state, unit.side, smoke.supporter)
    profile = supporter.profile
    gun = profile.is_vehicle or profile.has(Special.ANTI_TANK_GUN) or profile.has(Special.INFANTRY_GUN)
    if not gun or not profile.weapon or profile.has(Special.MG_TEAM):
        raise IllegalCommand(
            f'{supporter.name} cannot fire smoke: it needs a gun able to fire anti-tank rounds over 12"'
        )


def check_fire_target(
    state: GameState, firer: Unit, fire: Fire, *, order_moves: bool, rapid_move: bool
) -> Unit:
    """The target exists, is an enemy on the table, is seen, and the shot is allowed (pp. 10-12)."""
    target = state.units.get(fire.target)
    if target is None:
        raise IllegalCommand(f"There is no unit called {fire.target!r}")
    if target.side == firer.side:
        raise IllegalCommand(f"{target.name} is on your own side")
    if not target.on_table:
        raise IllegalCommand(f"{target.name} is not on the table")
    if target.embarked_in is not None:
        raise IllegalCommand(f"{target.name} is inside a transport: fire at the transport")
    if under_marker(target):
        raise IllegalCommand(
            f"{target.name} is a hidden marker: it may be fired at once it is revealed (p. 26: enemy "
            'infantry within 4" that did not rapid move this turn, or a vehicle in the open in sight)'
        )
    if target.hidden:
        raise IllegalCommand(f"{target.name} has not been spotted")
    if not target_in_sight(state, rules_of(state).weapon_firer(firer, fire), target):
        raise IllegalCommand(cannot_see(state, firer, target))
    shot = measure_shot(state, firer, target, fire, order_moves=order_moves, target_declared_move=False)
    problem = shot_problem(state, shot, rapid_move=rapid_move)
    if problem:
        raise IllegalCommand(problem)
    return target


def check_embark(state: GameState, unit: Unit, embark: Embark) -> Unit:
    """Embarking (p. 9; transports p. 20): infantry or support squads, into a friendly
    transport with room, within a normal infantry move."""
    transport = state.units.get(embark.transport)
    if transport is None or transport.side != unit.side or not transport.on_table:
        raise IllegalCommand(f"{embark.transport!r} is not one of your transports on the table")
    if unit.is_vehicle:
        raise IllegalCommand("Only infantry and support squads embark")
    if unit.embarked_in is not None:
        raise IllegalCommand(f"{unit.name} is already embarked")
    capacity = transport.profile.capacity
    aboard = sum(1 for u in state.units.values() if u.embarked_in == transport.id)
    if aboard >= capacity:
        raise IllegalCommand(f"{transport.name} is full ({counted(capacity, 'unit')})")
    gap = geometry.distance(unit, transport)
    if gap > EMBARK_REACH:
        raise IllegalCommand(
            f'{transport.name} is {gap:.1f}" away; embarking reaches a normal move ({EMBARK_REACH:g}")'
        )
    return transport


def check_disembark(
    state: GameState, unit: Unit, disembark: Disembark, transport: Unit | None = None
) -> None:
    """Disembarking (p. 9): up to an infantry normal move from the transport (where it is after
    any move earlier in the same activation)."""
    if unit.embarked_in is None:
        raise IllegalCommand(f"{unit.name} is not embarked")
    _on_table(state, disembark.to)
    transport = transport or state.units[unit.embarked_in]
    gap = geometry.distance_to_point(transport, disembark.to)
    if gap > EMBARK_REACH:
        raise IllegalCommand(f'{disembark.to} is {gap:.1f}" from {transport.name}; disembarking reaches 6"')
    check_set_down(state, unit, disembark.to)


def check_fall_back(state: GameState, side: str, order: FallBackOrder) -> None:
    """Fall back (p. 13): once a turn, away from enemies within 12", at rapid rate."""
    unit = unit_of_side(state, side, order.unit)
    check_may_activate(unit)
    if unit.fell_back_this_turn:
        raise IllegalCommand(f"{unit.name} has already fallen back this turn")
    if unit.embarked_in is not None:
        raise IllegalCommand(f"{unit.name} is embarked: move its transport instead")
    move = Move(path=order.path, reverse=order.reverse)
    plan = plan_move(state, unit, move, fall_back=True)
    check_moves_away(state, unit, plan.end)


def check_platoon_order(state: GameState, side: str, order: PlatoonOrder, nation: str) -> None:
    """Platoon movement (p. 9; German Kampfgruppe p. 21): three units of one type (any three
    for Germans), none activated yet this turn, each within 12" of another, normal moves only."""
    members = [unit_of_side(state, side, m.unit) for m in order.members]
    if len(members) != PLATOON_SIZE or len({u.id for u in members}) != PLATOON_SIZE:
        raise IllegalCommand("A platoon move activates exactly three different units")
    kampfgruppe = nation == "german"
    if not kampfgruppe and len({platoon_type(u.profile) for u in members}) != 1:
        raise IllegalCommand("Platoon members must be of one type (infantry, light, medium or heavy)")
    for unit in members:
        check_may_activate(unit)
        if unit.tokens:
            raise IllegalCommand(f"{unit.name} has already activated this turn")
        if unit.embarked_in is not None:
            raise IllegalCommand(f"{unit.name} is embarked")
        others = [o for o in members if o.id != unit.id]
        if not any(geometry.distance(unit, o) <= PLATOON_SPACING for o in others):
            raise IllegalCommand(f'{unit.name} is not within 12" of another platoon member')
    slowest = min(movement_allowance(u.profile, rapid=False, road=False) for u in members)
    for unit, member in zip(members, order.members, strict=True):
        if member.move.rapid:
            raise IllegalCommand("Platoons make normal moves only")
        plan = plan_move(state, unit, member.move, moving_with=[u.id for u in members])
        if kampfgruppe and plan.length > slowest + 1e-6:
            raise IllegalCommand(f"A Kampfgruppe moves at its slowest member's rate ({slowest:g}\")")
