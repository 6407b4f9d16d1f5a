"""Actions that fire: a shot at a unit (pp. 10-12) and smoke (p. 12)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from engine.actions.base import ActionType, Activation, OrderOption, Turn
from engine.actions.carrying_out import execute_fire, execute_smoke, retarget_options, valid_target
from engine.commands import Fire, LaySmoke
from engine.deployment.hidden import reveal_marker, under_marker
from engine.errors import IllegalCommand
from engine.game_state import Choice, GameState
from engine.orders import check_fire_target, check_smoke
from engine.rulesets import rules_of

WeaponName = Literal[
    "gun", "mg", "hull_mg", "gun+hull_mg", "mg+hull_mg", "light_mortar", "second_gun", "flamethrower"
]
WEAPONS: tuple[str, ...] = get_args(WeaponName)


class FireAction(ActionType[Fire]):
    """A shot at an enemy unit the firer sees (pp. 10-12)."""

    name = "fire"
    command = Fire
    what = "Firing"
    is_shot = True
    fires = True
    closes_reaction_route = True
    options = (
        OrderOption("fire", "unit", "The enemy to fire at", whose="enemy", reacts=True),
        OrderOption(
            "first",
            "choice",
            "With a move and a shot, which comes first",
            ("move", "fire"),
            default="move",
            reacts=True,
        ),
        OrderOption(
            "weapon",
            "choice",
            "Which weapon: flamethrower, light_mortar; house rules: gun, mg, hull_mg, +hull_mg joins, "
            "second_gun",
            WEAPONS,
        ),
        OrderOption(
            "face",
            "text",
            "House rules: the building's side to fire out of: north, east... (default: facing the target)",
        ),
        OrderOption(
            "storey",
            "text",
            "House rules: the storey to fire out of: ground (0), 1, 2... "
            "(default: the one held, else ground)",
        ),
    )
    place = 40
    place_if_first = 25  # first:fire puts the shot before the move (place 30)

    def from_options(self, given: Mapping[str, Any]) -> Fire | None:
        if given["fire"] and given["smoke"]:
            raise IllegalCommand("A unit either fires or lays smoke in one activation, not both")
        if (given["face"] or given["storey"]) and not given["fire"]:
            raise IllegalCommand("A side (face:) and storey (storey:) of a building go with a target (fire:)")
        if not given["fire"]:
            return None
        weapon = weapon_named(given["weapon"])
        return Fire(
            target=given["fire"],
            flamethrower=weapon == "flamethrower",
            weapon=None if weapon == "flamethrower" else weapon,
            face=given["face"].strip() if given["face"] else None,
            storey=storey_named(given["storey"]),
        )

    def check(self, activation: Activation, index: int, action: Fire) -> None:
        check_fire_target(
            activation.state,
            activation.current,
            action,
            order_moves=activation.moves,
            rapid_move=activation.rapid,
        )

    def execute(self, turn: Turn, action: Fire) -> bool:
        return fire_at(turn, action)

    def describe(self, state: GameState, action: Fire) -> str:
        flame = " its flamethrower" if action.flamethrower else ""  # a flame tank's choice (p. 22)
        return f"fire{flame} at {state.units[action.target].name}{_firing_out_of(action)}"


def fire_at(turn: Turn, fire: Fire) -> bool:
    """Fire at the declared target, or choose another if it was lost (changing target, p. 7)."""
    state, pending, unit, log = turn.state, turn.pending, turn.unit, turn.log
    if unit.id in pending.target_override:
        target_id = pending.target_override[unit.id]
        if target_id is None:
            return turn.wasted(f"{unit.name}'s shot is wasted")
    else:
        target_id = fire.target
    target = valid_target(state, rules_of(state).weapon_firer(unit, fire), target_id)
    if target is None:
        aim = pending.aims.get(unit.id)
        options = retarget_options(state, unit, aim.at, aim.visible) if aim else []
        if not options or unit.id in pending.target_override:
            return turn.wasted(f"{unit.name} has lost its target: the shot is wasted")
        pending.choice = Choice(kind="choose_target", side=unit.side, options=options, who=turn.step.who)
        log.emit(
            "choice",
            f'{unit.name} has lost its target: choose a new one within 4" '
            f"({', '.join(state.units[o].name for o in options)}) or none",
            unit.id,
            side=unit.side,
        )
        return False
    if under_marker(unit):
        reveal_marker(state, unit, log, "it fires")  # before the shot tells what it is (p. 26)
    fired = execute_fire(
        state,
        unit,
        target,
        fire,
        log,
        order_moves=turn.order_moves,
        target_declared_move=target.id in pending.fire_target_moved,
    )
    if fired is not None:
        rules_of(state).after_shot(state, *fired, log)
    return True


def _firing_out_of(fire: Fire) -> str:
    """The side and storey of its building a shot is declared from (House Rules V1.0, s. 5)."""
    where = [f"side {fire.face}" if fire.face.isdigit() else f"the {fire.face} side"] if fire.face else []
    if fire.storey is not None:
        where.append(f"storey {fire.storey}" if fire.storey else "the ground floor")
    return f" from {', '.join(where)}" if where else ""


def weapon_named(named: str | None) -> WeaponName | None:
    """A weapon as a player names it: a vehicle's gun, mg (coaxial) or hull_mg, the gun or mg with
    the hull MG joining in (gun+hull_mg), a squad's light_mortar (the 2015 rules: a British infantry
    command unit's 2" mortar, p. 22), or a flame tank's flamethrower (p. 22)."""
    if named is None:
        return None
    key = named.strip().casefold().replace(" ", "_")
    if key not in WEAPONS:
        raise IllegalCommand(f"Name the weapon {', '.join(WEAPONS[:-1])} or {WEAPONS[-1]}, not {named!r}")
    return key  # type: ignore[return-value]


def storey_named(named: str | None) -> int | None:
    """A storey as a player names it: 0 or "ground" for the ground floor, 1 for the first upper
    storey, and so on (House Rules V1.0, s. 5 Firing from buildings)."""
    if named is None:
        return None
    key = named.strip().casefold()
    if key in ("ground", "g"):
        return 0
    if not key.isdigit():
        raise IllegalCommand(f"Name the storey 0 (or ground) for the ground floor, 1, 2... not {named!r}")
    return int(key)


class SmokeAction(ActionType[LaySmoke]):
    """The unit hides itself in smoke, its own or a supporting gun's (p. 12)."""

    name = "smoke"
    command = LaySmoke
    what = "Smoke"
    is_shot = True
    fires = True
    closes_reaction_route = True
    options = (OrderOption("smoke", "flag", "Lay smoke instead of firing", default=False),)
    place = 40
    place_if_first = 25

    def from_options(self, given: Mapping[str, Any]) -> LaySmoke | None:
        return LaySmoke() if given["smoke"] else None

    def check(self, activation: Activation, index: int, action: LaySmoke) -> None:
        check_smoke(activation.state, activation.current, action)

    def execute(self, turn: Turn, action: LaySmoke) -> bool:
        execute_smoke(turn.state, turn.unit, action, turn.log)
        return True

    def describe(self, state: GameState, action: LaySmoke) -> str:
        return f"fire smoke at {action.at}" if action.at else "lay smoke"
