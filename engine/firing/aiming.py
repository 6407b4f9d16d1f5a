"""Aiming a shot: sight, arcs, turrets, smoke and what the table says about the shot (pp. 8-12, 18-20).

:func:`measure_shot` turns a firer and a target into the :class:`~engine.rules.firing.Shot` that
the firing rules read; it is used when a shot is declared (to refuse impossible shots before any
die is rolled) and again when it is resolved.
"""

from __future__ import annotations

from dataclasses import replace

from engine import geometry
from engine.battlefield import (
    can_see,
    cover_of,
    in_building,
    in_trees_or_building,
    live_units,
    unscreened_enemy_infantry,
)
from engine.commands import Fire
from engine.game_state import GameState
from engine.profiles import Special, UnitClass
from engine.rules.firing import Shot, fires_flamethrower, turn_to_face, why_cannot_fire
from engine.rules.movement import TURRET_FREE_TRAVERSE
from engine.rulesets import rules_of
from engine.state import Unit

SUPPORT_ARC = 90.0  # p. 11
HULL_GUN_ARC = 45.0  # "directly forwards" for a hull-mounted gun, read as 22.5 degrees each side
MORTAR_SAME_SPOT = 4.0  # p. 20


def target_in_sight(state: GameState, firer: Unit, target: Unit) -> bool:
    """Line of sight; mortars may also fire at what a friendly unit sees (p. 20)."""
    if can_see(state, firer, target):
        return True
    if firer.profile.has(Special.MORTAR):
        return any(
            can_see(state, friend, target)
            for friend in live_units(state, firer.side)
            if friend.embarked_in is None
        )
    return False


def arc_problem(firer: Unit, target: Unit) -> str | None:
    """Arcs of fire (p. 11): infantry and snipers all round; support squads, mortars among
    them (p. 3), 90 degrees to the front; hull-mounted guns straight ahead (turrets traverse,
    see :func:`turret_traverse`)."""
    if firer.unit_class is UnitClass.INFANTRY:
        return None
    if firer.profile.has(Special.SNIPER):
        return None
    if firer.unit_class is UnitClass.SUPPORT:
        arc = SUPPORT_ARC
    elif firer.profile.turret:
        return None
    else:
        arc = HULL_GUN_ARC
    if not geometry.in_arc(firer.position, firer.facing, target.position, arc):
        outside = f"{target.name} is outside {firer.name}'s {arc:g} degree arc of fire"
        return f"{outside}: {turn_to_face(firer, target)}"
    return None


def turret_traverse(firer: Unit, target: Unit) -> float:
    """How far the turret turns to bear on the target; over 90 degrees counts as moving (p. 8)."""
    if not (firer.is_vehicle and firer.profile.turret):
        return 0.0
    current = firer.turret_facing if firer.turret_facing is not None else firer.facing
    return geometry.angle_between(current, geometry.bearing(firer.position, target.position))


def obscured_by_smoke(firer: Unit, target: Unit) -> bool:
    if target.smoke is None:
        return False
    if target.smoke.from_bearing is None:
        return True
    towards_firer = geometry.bearing(target.position, firer.position)
    return geometry.angle_between(towards_firer, target.smoke.from_bearing) <= 90.0


def mortar_previous_shots(firer: Unit, target: Unit) -> int:
    aim = firer.mortar_aim
    if aim is None or aim.target != target.id:
        return 0
    if geometry.distance_to_point(target, aim.at) > MORTAR_SAME_SPOT:
        return 0
    return aim.shots


def measure_shot(
    state: GameState,
    firer: Unit,
    target: Unit,
    fire: Fire,
    *,
    order_moves: bool,
    target_declared_move: bool,
) -> Shot:
    """Measure a shot on the table for the firing rules, from where the rule set has the firer
    fire (House Rules V1.0: the side and storey of its building)."""
    rules = rules_of(state)
    firer, to_post = rules.firing_post(state, firer, fire, target)
    shot = Shot(
        firer=firer,
        target=target,
        range=geometry.distance(firer, target),
        firer_moved=order_moves or to_post,
        firer_stationary=not (order_moves or to_post),
        target_moved=target.moved_this_turn or target_declared_move,
        target_in_smoke=obscured_by_smoke(firer, target),
        enemy_infantry_close=rules.infantry_nearby_spoils_aim(firer)
        and bool(unscreened_enemy_infantry(state, firer, seen_only=False)),
        cover=cover_of(state, target, firer),
        target_in_building=in_building(state, target),
        flamethrower=fires_flamethrower(firer, fire.flamethrower),
        weapon=fire.weapon,
        mortar_previous_shots=mortar_previous_shots(firer, target),
        aspect=geometry.aspect(target, firer.position) if target.is_vehicle else None,
        hull_down=target.is_vehicle and geometry.is_hull_down(target, firer.position, state.terrain),
    )
    if turret_traverse(firer, target) > TURRET_FREE_TRAVERSE and rules.turret_turns(shot):
        return replace(shot, firer_moved=True)  # turning the turret past 90 degrees (p. 8)
    return shot


def shot_problem(state: GameState, shot: Shot, *, rapid_move: bool) -> str | None:
    """Why this shot may not be taken, or None (arcs p. 11; ranges p. 11; specials pp. 18-20)."""
    problem = arc_problem(shot.firer, shot.target) or why_cannot_fire(shot, rapid_move=rapid_move)
    if problem:
        return problem
    if shot.firer.profile.has(Special.MORTAR) and in_trees_or_building(state, shot.firer):
        return f"{shot.firer.name} may not fire a mortar from trees or buildings"
    return rules_of(state).fire_problem(state, shot)
