"""Actions that fire: a shot at a unit (pp. 10-12) and smoke (p. 12)."""

from __future__ import annotations

from engine.actions.base import ActionType, Activation, Turn
from engine.actions.carrying_out import execute_fire, execute_smoke, retarget_options, valid_target
from engine.commands import Fire, LaySmoke
from engine.deployment.hidden import reveal_marker, under_marker
from engine.game_state import Choice, GameState
from engine.orders import check_fire_target, check_smoke
from engine.rulesets import rules_of


class FireAction(ActionType[Fire]):
    """A shot at an enemy unit the firer sees (pp. 10-12)."""

    name = "fire"
    command = Fire
    what = "Firing"
    is_shot = True
    fires = True
    closes_reaction_route = True

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


class SmokeAction(ActionType[LaySmoke]):
    """The unit hides itself in smoke, its own or a supporting gun's (p. 12)."""

    name = "smoke"
    command = LaySmoke
    what = "Smoke"
    is_shot = True
    fires = True
    closes_reaction_route = True

    def check(self, activation: Activation, index: int, action: LaySmoke) -> None:
        check_smoke(activation.state, activation.current, action)

    def execute(self, turn: Turn, action: LaySmoke) -> bool:
        execute_smoke(turn.state, turn.unit, action, turn.log)
        return True

    def describe(self, state: GameState, action: LaySmoke) -> str:
        return f"fire smoke at {action.at}" if action.at else "lay smoke"
