"""Carrying out actions on the table: moves, shots, embarking, smoke, markers and losses.

Each function changes the (already copied) state and reports what happened to the
:class:`EventLog`, rolling the dice it needs through it.
"""

from __future__ import annotations

from engine import geometry
from engine.battlefield import can_see, live_units
from engine.commands import Disembark, Embark, Fire, LaySmoke, Move
from engine.deployment.hidden import as_seen, check_marker_reveals, under_marker
from engine.event_data import FireData, MarkersData, MoveData, RolledTest
from engine.events import EventLog
from engine.firing.aiming import (
    arc_problem,
    measure_shot,
    mortar_previous_shots,
    shot_problem,
    target_in_sight,
    turret_traverse,
)
from engine.firing.losses import add_markers, beside, destroy, destroy_by_markers, explode, passengers_of
from engine.game_state import GameState
from engine.orders import plan_move
from engine.profiles import Special
from engine.rules.firing import Shot
from engine.rules.morale import is_destroyed_by_markers
from engine.rules.movement import TURRET_FREE_TRAVERSE
from engine.rules.scenario import objective_claimer
from engine.rules.shot_resolution import Fate, ShotResult
from engine.rulesets import rules_of
from engine.state import Point, Smoke, Unit
from engine.view import UNTOLD, unnamed
from engine.wording import side_name

SMOKE_SCORE = 5  # p. 12
SNIPER_SPOTTED_ON = 6  # p. 20


def disembark_under_fire(state: GameState, transport: Unit, log: EventLog) -> None:
    """A hit that equals or beats a loaded transport's armour, and leaves it standing, forces
    its passengers out, taking the transport's markers with them (p. 12). If the transport is
    destroyed, :func:`destroy` deals with them instead."""
    for passenger in passengers_of(state, transport):
        passenger.embarked_in = None
        passenger.position = beside(state, transport, passenger)
        log.emit(
            "forced_out",
            f"{passenger.name} is forced out of {transport.name}",
            passenger.id,
            side=passenger.side,
        )
        add_markers(state, passenger, transport.morale_markers, log)


# --- spotting ------------------------------------------------------------------------------


def reveal(unit: Unit, log: EventLog, why: str) -> None:
    unit.hidden = False
    unit.decoy = None
    log.emit("spotted", f"{unit.name} is spotted: {why}", unit.id, side=unit.side)


def sniper_spotted_on_firing(roll: int) -> bool:
    """Each time a hidden sniper team fires, the enemy's d6 spots it on a 6 (p. 20)."""
    return roll == SNIPER_SPOTTED_ON


def spot_nearby_snipers(state: GameState, log: EventLog) -> None:
    """An enemy unit near enough spots a hidden sniper team, and unmasks its dummy marker the
    same way (p. 20: within 4"; House Rules V1.0, s. 8: as the rule set observes them)."""
    rules = rules_of(state)
    for sniper in live_units(state):
        if not sniper.hidden or under_marker(sniper):  # markers have their own reveals (p. 26)
            continue
        enemies = [e for e in live_units(state) if e.side != sniper.side]
        why = next((w for e in enemies if (w := rules.sniper_spotted_by(state, e, sniper))), None)
        if why:
            reveal(sniper, log, why)
            continue
        decoy = sniper.decoy
        if decoy is None:
            continue
        if any(rules.sniper_spotted_by(state, e, sniper, decoy) for e in enemies):
            sniper.decoy = None
            text = rules.cite(f"The hidden marker at {decoy} was a dummy", "8.2")
            log.emit("dummy", text, side=sniper.side)


# --- moving --------------------------------------------------------------------------------


def execute_move(state: GameState, unit: Unit, move: Move, log: EventLog, *, fall_back: bool = False) -> bool:
    """Carry out a move, taking terrain tests on the way (pp. 8-9). False if the unit stopped
    on a failed test, which ends its actions for the turn."""
    plan = plan_move(state, unit, move, fall_back=fall_back, strict=False)
    mover = state.units[plan.mover]
    start = mover.position
    path = plan.path
    stopped_at: float | None = None
    for test in plan.tests:
        roll = log.d6(f"terrain test, {mover.name} crossing {test.feature.kind}")
        passed = roll >= test.needed
        crossing = RolledTest(
            test="terrain test", unit=mover.id, side=mover.side, needed=test.needed, roll=roll, passed=passed
        )
        if passed:
            log.emit(
                "terrain_test",
                f"{mover.name} needs {test.needed}+ to cross {test.feature.kind}: rolled {roll}, through",
                mover.id,
                side=mover.side,
                data=crossing,
                kept=unnamed(mover),
            )
            continue
        stopped_at = _stop_distance(as_seen(mover), test, plan)
        log.emit(
            "terrain_test",
            f"{mover.name} needs {test.needed}+ to cross {test.feature.kind}: rolled {roll}, "
            "stuck; no more actions this turn",
            mover.id,
            side=mover.side,
            data=crossing,
            kept=unnamed(mover),
        )
        break
    if stopped_at is None:
        _place(state, mover, plan.end, plan.facing)
        for wire in (f for f, _ in geometry.crossings(path, state.terrain) if f.wire):
            if mover.is_vehicle and wire.id not in state.breached_wire:
                state.breached_wire.append(wire.id)
    else:
        end = geometry.point_along(path, stopped_at)
        facing = geometry.end_facing(mover.facing, path, move.reverse, None)
        _place(state, mover, end, facing)
        mover.bogged = True
    mover.moved_this_turn = True
    mover.rapid_moved = mover.rapid_moved or move.rapid or fall_back
    if mover.id in (unit.id, unit.embarked_in):
        unit.moved_this_turn = True
        unit.rapid_moved = mover.rapid_moved
        unit.bogged = mover.bogged
    if move.rapid and mover.hidden and mover.profile.has(Special.SNIPER) and _seen_by_enemy(state, mover):
        reveal(mover, log, rules_of(state).cite("it made a rapid move", "8.2"))
    moved = plan.length if stopped_at is None else stopped_at
    moving = MoveData(unit=mover.id, start=start, end=mover.position, distance=moved, fall_back=fall_back)
    log.emit(
        "move",
        f"{mover.name} {moving.went()}",
        mover.id,
        side=mover.side,
        kept=unnamed(mover),
        data=moving,
    )
    spot_nearby_snipers(state, log)
    check_marker_reveals(state, log)
    claim_objectives(state, log)
    return stopped_at is None


def claim_objectives(state: GameState, log: EventLog) -> None:
    """Objectives (p. 26): one claimed stays with its side until the enemy claims it."""
    for index, objective in enumerate(state.objectives):
        nearest: dict[str, float] = {}
        for unit in live_units(state):
            if unit.embarked_in is None and not unit.hidden:
                gap = geometry.distance_to_point(unit, objective.position)
                nearest[unit.side] = min(gap, nearest.get(unit.side, gap))
        side = objective_claimer(nearest)
        if side is not None and side != objective.held_by:
            state.objectives[index] = objective.model_copy(update={"held_by": side})
            claimed = f"{side_name(side, start=True)} claim objective {objective.id}"
            if objective.side is None:
                log.emit("objective", claimed, side=side)
            else:  # a referee's objective for one side: only that side knows of it (p. 25)
                log.emit("objective", claimed, side=objective.side, kept=UNTOLD)


def _seen_by_enemy(state: GameState, unit: Unit) -> bool:
    """A hidden unit that breaks cover is spotted only if some enemy could see it (p. 20)."""
    revealed = unit.model_copy(update={"hidden": False})
    return any(can_see(state, enemy, revealed) for enemy in live_units(state) if enemy.side != unit.side)


def _stop_distance(mover: Unit, test, plan) -> float:
    """Where a failed terrain test leaves the unit (p. 9): just past the edge it met, its rear
    touching the terrain; if it started inside, half its normal move."""
    from engine.rules.movement import movement_allowance

    if test.entry <= 0.0:
        return min(plan.length, movement_allowance(mover.profile, rapid=False, road=False) / 2)
    length, _ = geometry.FOOTPRINT[mover.unit_class]
    depth = test.feature.width if test.feature.linear else 0.0
    return min(plan.length, test.entry + depth + length / 2)


def _place(state: GameState, mover: Unit, at: Point, facing: float) -> None:
    mover.position = at
    mover.facing = facing
    for passenger in passengers_of(state, mover):
        passenger.position = at


def execute_entry(state: GameState, unit: Unit, move: Move, log: EventLog) -> Move:
    """A reserve unit comes on at the first point of its move (p. 26); the rest of the move is
    returned to be carried out as usual."""
    unit.position = move.path[0]
    unit.in_reserve = unit.reserve_available = False
    unit.hidden = False  # what comes on from reserve is seen: only deployment hides (p. 26)
    unit.moved_this_turn = True
    log.emit("enter", f"{unit.name} comes on from reserve at {unit.position}", unit.id, side=unit.side)
    return move.model_copy(update={"path": move.path[1:]})


def execute_embark(state: GameState, unit: Unit, embark: Embark, log: EventLog) -> None:
    transport = state.units[embark.transport]
    rules_of(state).reunite(unit, transport)
    unit.embarked_in = transport.id
    unit.position = transport.position
    unit.moved_this_turn = True
    log.emit("embark", f"{unit.name} embarks in {transport.name}", unit.id, side=unit.side)


def execute_disembark(state: GameState, unit: Unit, disembark: Disembark, log: EventLog) -> None:
    transport = state.units.get(unit.embarked_in or "")
    unit.embarked_in = None
    unit.position = disembark.to
    unit.moved_this_turn = True
    name = transport.name if transport else "its transport"
    log.emit("disembark", f"{unit.name} disembarks from {name} at {disembark.to}", unit.id, side=unit.side)
    check_marker_reveals(state, log)
    spot_nearby_snipers(state, log)
    claim_objectives(state, log)


def execute_smoke(state: GameState, unit: Unit, smoke: LaySmoke, log: EventLog) -> None:
    """Smoke (p. 12): 5+ on a d10, no modifiers, rolled by the unit it hides even when a
    supporting unit fires it; the unit is obscured until the turn ends."""
    roll = log.d10(f"smoke, {unit.name}")
    test = RolledTest.of(
        "smoke", lambda face: face >= SMOKE_SCORE, roll, sides=10, unit=unit.id, side=unit.side
    )
    if test.passed:
        unit.smoke = Smoke(from_bearing=smoke.from_bearing)
    outcome = "obscured" if test.passed else "no smoke"
    told = f"{unit.name} lays smoke: needs {test.needed}+, rolled {test.roll}: {outcome}"
    log.emit("smoke", told, unit.id, side=unit.side, data=test)


# --- firing --------------------------------------------------------------------------------


def valid_target(state: GameState, firer: Unit, target_id: str | None) -> Unit | None:
    """The target if it can still be shot at by this firer, else None."""
    target = state.units.get(target_id or "")
    if target is None or not target.on_table or target.embarked_in is not None or target.hidden:
        return None
    if not target_in_sight(state, firer, target):
        return None
    return target


def retarget_options(state: GameState, firer: Unit, aimed_at: Point, seen: list[str]) -> list[str]:
    """Changing target (p. 7): an enemy within 4" of where the target was, or one that came
    into view because of the reaction's movement."""
    options = []
    for enemy in live_units(state):
        if enemy.side == firer.side or valid_target(state, firer, enemy.id) is None:
            continue
        near = geometry.distance_to_point(enemy, aimed_at) <= 4.0
        if near or enemy.id not in seen:
            if arc_problem(firer, enemy) is None:
                options.append(enemy.id)
    return options


def execute_fire(
    state: GameState,
    firer: Unit,
    target: Unit,
    fire: Fire,
    log: EventLog,
    *,
    order_moves: bool,
    target_declared_move: bool,
) -> tuple[Shot, ShotResult] | None:
    """Resolve one shot (pp. 10-12, 18-20) and report it in one event; the shot and what it
    did, or None if it could not be fired."""
    shot = measure_shot(
        state, firer, target, fire, order_moves=order_moves, target_declared_move=target_declared_move
    )
    reason = shot_problem(state, shot, rapid_move=False)
    if reason:
        log.emit("fire_wasted", f"{firer.name} cannot fire: {reason}", firer.id, side=firer.side)
        return None
    rules = rules_of(state)
    if rules.turret_turns(shot):
        if turret_traverse(firer, target) > TURRET_FREE_TRAVERSE:
            firer.moved_this_turn = True  # turning the turret past 90 degrees counts as moving (p. 8)
        firer.turret_facing = geometry.bearing(firer.position, target.position)

    result = rules.resolve_shot(shot, log)
    firer.fired_this_turn = True
    if shot.firer.profile.has(Special.MORTAR):  # a mortar team, or a command unit's light mortar (p. 22)
        firer.mortar_aim = _next_aim(firer, target)
    bearer = rules.marker_bearer(target, passengers_of(state, target))
    gained = result.markers - target.morale_markers
    if bearer is target:
        target.morale_markers = result.markers
    fired = FireData(
        firer=firer.id,
        target=target.id,
        distance=shot.range,
        to_hit=result.to_hit,
        markers_placed=gained,
        markers=result.markers,
        damage=result.damage.value if result.damage else None,
        fate=result.fate.value,
    )
    log.emit("fire", result.text, firer.id, target.id, side=firer.side, data=fired, kept=unnamed(firer))
    if bearer is not target and gained > 0:
        carried = MarkersData(unit=bearer.id, added=gained, total=bearer.morale_markers + gained)
        log.emit("markers", carried.carried_text(bearer.name), bearer.id, side=bearer.side, data=carried)
        add_markers(state, bearer, gained, log)
    if result.fate is Fate.KNOCKED_OUT:
        destroy(state, target, log, f"{target.name} is knocked out by the damage")
    elif result.fate is Fate.FOOM:
        destroy(state, target, log, f"{target.name} is destroyed")
    elif result.fate is Fate.KABOOM:
        explode(state, target, log)
    if result.passengers_out and not target.destroyed:
        disembark_under_fire(state, target, log)
    _after_fire(state, shot, log)
    _check_loss(state, target, log)
    return shot, result


def _next_aim(firer: Unit, target: Unit):
    from engine.state import MortarAim

    previous = mortar_previous_shots(firer, target)
    at = firer.mortar_aim.at if previous and firer.mortar_aim else target.position
    return MortarAim(target=target.id, at=at, shots=previous + 1)


def _check_loss(state: GameState, unit: Unit, log: EventLog) -> None:
    if not unit.destroyed and is_destroyed_by_markers(unit):
        destroy_by_markers(state, unit, log)


def _after_fire(state: GameState, shot: Shot, log: EventLog) -> None:
    """A hidden sniper that fires is spotted if the opponent rolls a 6 (p. 20; House Rules V1.0,
    s. 8 Snipers, which names no score: we read it as the 2015 six), and stays in view."""
    firer = shot.firer
    cite = rules_of(state).cite
    if firer.hidden and firer.profile.has(Special.SNIPER):
        roll = log.d6(f"spotting {firer.name}")
        if sniper_spotted_on_firing(roll):
            reveal(firer, log, cite("the enemy rolled a 6", "8.2"))
        else:
            text = cite(f"{firer.name} stays hidden (spotting roll {roll})", "8.2")
            log.emit("sniper", text, firer.id, side=firer.side, kept=unnamed(firer))
    elif firer.hidden:
        reveal(firer, log, "it fired")
