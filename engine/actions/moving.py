"""Actions that move a unit: moving (pp. 8-9), embarking and disembarking (p. 9), and under the
House Rules V1.0 going into and out of buildings (s. 4) and the 3" limit on closing (s. 4)."""

from __future__ import annotations

from engine.actions.base import ActionType, Activation, Turn
from engine.assault import check_closing
from engine.buildings import (
    check_enter_building,
    check_leave_building,
    check_not_into_buildings,
    enter_building,
    leave_building,
)
from engine.commands import CloseCombat, Disembark, Embark, EnterBuilding, LeaveBuilding, Move
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.orders import check_disembark, check_embark, check_moves_away, moved_pose, plan_move
from engine.profiles import MoveClass
from engine.resolve import execute_disembark, execute_embark, execute_entry, execute_move
from engine.state import Unit


class MoveAction(ActionType[Move]):
    """A move, normal or rapid, of the unit or of the transport carrying it (pp. 8-9)."""

    name = "move"
    command = Move
    what = "Moving"
    counts_as_moving = True
    moves_unit = True
    may_be_interrupted = True

    def check(self, activation: Activation, index: int, action: Move) -> None:
        state, unit, current = activation.state, activation.unit, activation.current
        self.check_route(state, current, action)
        plan = plan_move(state, current, action)
        if plan.mover in (unit.id, current.embarked_in):
            if unit.must_move_away:
                check_moves_away(state, unit, plan.end)
            activation.current = moved_pose(current, plan)
            following = activation.following(index)
            assaulting = following.target if isinstance(following, CloseCombat) else None
            self.check_end(state, activation.current, assaulting)
        if activation.transport is not None and plan.mover == activation.transport.id:
            activation.transport = moved_pose(activation.transport, plan)

    def check_route(self, state: GameState, mover: Unit, move: Move) -> None:
        """Where the rule set forbids the way itself (the 2015 rules: only the terrain, p. 8)."""

    def check_end(self, state: GameState, mover: Unit, assaulting: str | None) -> None:
        """Where the rule set forbids the move to end (the 2015 rules: anywhere)."""

    def execute(self, turn: Turn, action: Move) -> bool:
        if turn.unit.in_reserve:
            action = execute_entry(turn.state, turn.unit, action, turn.log)
        if action.path and not execute_move(turn.state, turn.unit, action, turn.log):
            turn.pending.stopped.append(turn.step.who)
        return True

    def describe(self, state: GameState, action: Move) -> str:
        how = "rapid move" if action.rapid else ("reverse" if action.reverse else "move")
        return f"{how} to {action.path[-1]}"


class HouseMoveAction(MoveAction):
    """A move under the House Rules V1.0 (s. 4): vehicles keep out of buildings, a gun that
    cannot move itself is towed, and no unit ends nearer than 3" to an enemy unless it assaults."""

    name = "house_move"

    def check_route(self, state: GameState, mover: Unit, move: Move) -> None:
        check_not_into_buildings(state, mover, move.path)
        house = mover.profile.house
        if mover.embarked_in is None and house and house.move is MoveClass.NONE:
            raise IllegalCommand(f"{mover.name} cannot move on its own: it must be towed")

    def check_end(self, state: GameState, mover: Unit, assaulting: str | None) -> None:
        check_closing(state, mover, assaulting)


class EmbarkAction(ActionType[Embark]):
    """Getting into a friendly transport (p. 9)."""

    name = "embark"
    command = Embark
    what = "Embarking"
    counts_as_moving = True

    def check(self, activation: Activation, index: int, action: Embark) -> None:
        transport = check_embark(activation.state, activation.current, action)
        activation.transport = transport
        activation.current = activation.current.model_copy(
            update={"embarked_in": transport.id, "position": transport.position}
        )

    def execute(self, turn: Turn, action: Embark) -> bool:
        try:
            check_embark(turn.state, turn.unit, action)
        except IllegalCommand as problem:
            return turn.wasted(f"{turn.unit.name} cannot embark: {problem}")
        execute_embark(turn.state, turn.unit, action, turn.log)
        return True

    def describe(self, state: GameState, action: Embark) -> str:
        return f"embark in {state.units[action.transport].name}"


class DisembarkAction(ActionType[Disembark]):
    """Getting out of the transport, within a normal infantry move of it (p. 9)."""

    name = "disembark"
    command = Disembark
    what = "Disembarking"
    counts_as_moving = True

    def check(self, activation: Activation, index: int, action: Disembark) -> None:
        check_disembark(activation.state, activation.current, action, activation.transport)
        activation.current = activation.current.model_copy(
            update={"embarked_in": None, "position": action.to}
        )

    def execute(self, turn: Turn, action: Disembark) -> bool:
        execute_disembark(turn.state, turn.unit, action, turn.log)
        return True

    def describe(self, state: GameState, action: Disembark) -> str:
        return f"disembark at {action.to}"


class EnterBuildingAction(ActionType[EnterBuilding]):
    """Going into a building as into a transport (House Rules V1.0, s. 4)."""

    name = "enter_building"
    command = EnterBuilding
    what = "Occupying buildings"
    counts_as_moving = True
    moves_unit = True

    def check(self, activation: Activation, index: int, action: EnterBuilding) -> None:
        check_enter_building(activation.state, activation.current, action.building)
        activation.current = activation.current.model_copy(update={"in_building": action.building})

    def execute(self, turn: Turn, action: EnterBuilding) -> bool:
        enter_building(turn.state, turn.unit, action.building, turn.log)
        return True

    def describe(self, state: GameState, action: EnterBuilding) -> str:
        return f"go into {action.building}"


class LeaveBuildingAction(ActionType[LeaveBuilding]):
    """Coming out of a building to a point, as out of a transport (House Rules V1.0, s. 4)."""

    name = "leave_building"
    command = LeaveBuilding
    what = "Occupying buildings"
    counts_as_moving = True
    moves_unit = True

    def check(self, activation: Activation, index: int, action: LeaveBuilding) -> None:
        check_leave_building(activation.state, activation.current, action.to)
        activation.current = activation.current.model_copy(
            update={"in_building": None, "position": action.to}
        )

    def execute(self, turn: Turn, action: LeaveBuilding) -> bool:
        leave_building(turn.state, turn.unit, action.to, turn.log)
        return True

    def describe(self, state: GameState, action: LeaveBuilding) -> str:
        return f"come out to {action.to}"
