"""Actions that move a unit: moving (pp. 8-9), embarking and disembarking (p. 9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions.base import ActionType, Activation, OrderOption, Turn
from engine.actions.carrying_out import execute_disembark, execute_embark, execute_entry, execute_move
from engine.commands import Action, Disembark, Embark, Move
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.orders import check_disembark, check_embark, check_moves_away, moved_pose, plan_move
from engine.state import Unit


class MoveAction(ActionType[Move]):
    """A move, normal or rapid, of the unit or of the transport carrying it (pp. 8-9)."""

    name = "move"
    command = Move
    what = "Moving"
    counts_as_moving = True
    moves_unit = True
    may_be_interrupted = True
    options = (
        OrderOption(
            "move",
            "path",
            "Where to (x,y in inches or a grid square like D3; separate waypoints with ;)",
            reacts=True,
        ),
        OrderOption("rapid", "flag", "Rapid move (no firing)", default=False, reacts=True),
        OrderOption("reverse", "flag", "Move in reverse (vehicles)", default=False, reacts=True),
        OrderOption("road", "flag", "Rapid move along a road (set rapid too)", default=False, reacts=True),
    )
    place = 30

    def from_options(self, given: Mapping[str, Any]) -> Move | None:
        if not given["move"]:
            return None
        return Move(path=given["move"], rapid=given["rapid"], reverse=given["reverse"], road=given["road"])

    def check(self, activation: Activation, index: int, action: Move) -> None:
        state, unit, current = activation.state, activation.unit, activation.current
        self.check_route(state, current, action)
        plan = plan_move(state, current, action)
        if plan.mover in (unit.id, current.embarked_in):
            if unit.must_move_away:
                check_moves_away(state, unit, plan.end)
            activation.current = moved_pose(current, plan)
            self.check_end(state, activation.current, activation.following(index))
        if activation.transport is not None and plan.mover == activation.transport.id:
            activation.transport = moved_pose(activation.transport, plan)

    def check_route(self, state: GameState, mover: Unit, move: Move) -> None:
        """Where the rule set forbids the way itself (the 2015 rules: only the terrain, p. 8)."""

    def check_end(self, state: GameState, mover: Unit, following: Action | None) -> None:
        """Where the rule set forbids the move to end, given the action after it (the 2015 rules:
        anywhere)."""

    def execute(self, turn: Turn, action: Move) -> bool:
        if turn.unit.in_reserve:
            action = execute_entry(turn.state, turn.unit, action, turn.log)
        if action.path and not execute_move(turn.state, turn.unit, action, turn.log):
            turn.pending.stopped.append(turn.step.who)
        return True

    def describe(self, state: GameState, action: Move) -> str:
        how = "rapid move" if action.rapid else ("reverse" if action.reverse else "move")
        return f"{how} to {action.path[-1]}"


class EmbarkAction(ActionType[Embark]):
    """Getting into a friendly transport (p. 9)."""

    name = "embark"
    command = Embark
    what = "Embarking"
    counts_as_moving = True
    options = (OrderOption("embark", "unit", "Get into this transport (after any move)", whose="own"),)
    place = 50

    def from_options(self, given: Mapping[str, Any]) -> Embark | None:
        return Embark(transport=given["embark"]) if given["embark"] else None

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
    options = (
        OrderOption("disembark", "position", "Get out of the transport here first (x,y or a grid square)"),
    )
    place = 10

    def from_options(self, given: Mapping[str, Any]) -> Disembark | None:
        return Disembark(to=given["disembark"]) if given["disembark"] else None

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
