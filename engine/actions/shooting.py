"""Actions that fire: a shot at a unit (pp. 10-12), smoke (p. 12; House Rules V1.0, s. 5 smoke
rounds), and under the House Rules V1.0 HE at a building (s. 5 Buildings) and indirect fire
called by a spotter and fired at its marker (s. 5 Indirect Fire)."""

from __future__ import annotations

from engine.actions.base import ActionType, Activation, Turn
from engine.buildings import after_shot_at_building, check_shell_building, shell_building, take_post
from engine.commands import Bombard, Fire, LaySmoke, RequestFire, ShellBuilding
from engine.errors import IllegalCommand
from engine.game_state import Choice, GameState
from engine.hidden_deployment import reveal_marker, under_marker
from engine.indirect_fire import bombard, request_fire
from engine.indirect_orders import check_bombard, check_request_fire
from engine.orders import check_fire_target, check_smoke
from engine.resolve import execute_fire, execute_smoke, retarget_options, valid_target
from engine.rulesets import rules_of
from engine.smoke_screens import check_smoke_round, fire_smoke_round


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
        take_post(state, fired[0], log)
        after_shot_at_building(state, *fired, log)
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


class SmokeRoundAction(SmokeAction):
    """A smoke round fired at a spot, a 2" puff joining any screen beside it (House Rules V1.0,
    s. 5)."""

    name = "smoke_round"

    def check(self, activation: Activation, index: int, action: LaySmoke) -> None:
        check_smoke_round(activation.state, activation.current, action.at)

    def execute(self, turn: Turn, action: LaySmoke) -> bool:
        fire_smoke_round(turn.state, turn.unit, action.at or turn.unit.position, turn.log)
        return True


class ShellBuildingAction(ActionType[ShellBuilding]):
    """Medium or heavy HE fired at a building as a whole (House Rules V1.0, s. 5 Buildings)."""

    name = "shell_building"
    command = ShellBuilding
    what = "Firing at a building as a whole"
    is_shot = True
    fires = True

    def check(self, activation: Activation, index: int, action: ShellBuilding) -> None:
        check_shell_building(activation.state, activation.current, action.building)

    def execute(self, turn: Turn, action: ShellBuilding) -> bool:
        shell_building(turn.state, turn.unit, action.building, turn.log)
        return True

    def describe(self, state: GameState, action: ShellBuilding) -> str:
        return f"fire HE at {action.building}"


class RequestFireAction(ActionType[RequestFire]):
    """A spotter calls indirect fire onto a spot it sees (House Rules V1.0, s. 5)."""

    name = "request_fire"
    command = RequestFire
    what = "Indirect fire with spotters"

    def check(self, activation: Activation, index: int, action: RequestFire) -> None:
        check_request_fire(activation.state, activation.current, action.at, len(activation.actions))

    def execute(self, turn: Turn, action: RequestFire) -> bool:
        request_fire(turn.state, turn.unit, action.at, turn.log)
        return True

    def describe(self, state: GameState, action: RequestFire) -> str:
        return f"call for fire at {action.at}"


class BombardAction(ActionType[Bombard]):
    """A mortar, infantry gun or howitzer fires at its side's fire marker (House Rules V1.0, s. 5)."""

    name = "bombard"
    command = Bombard
    what = "Indirect fire with spotters"
    fires = True

    def check(self, activation: Activation, index: int, action: Bombard) -> None:
        check_bombard(activation.state, activation.current, activation.kinds)

    def execute(self, turn: Turn, action: Bombard) -> bool:
        """Fired only if the marker is still there to fire at."""
        try:
            check_bombard(turn.state, turn.unit)
        except IllegalCommand as problem:
            return turn.wasted(f"{turn.unit.name} cannot fire: {problem}")
        bombard(turn.state, turn.unit, turn.log, smoke=action.smoke)
        return True

    def describe(self, state: GameState, action: Bombard) -> str:
        return "fire at the fire marker"
