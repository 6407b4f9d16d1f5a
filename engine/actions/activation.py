"""An activation (p. 5): its actions checked together and one by one when it is declared, carried
out one by one, and told, each by the action the game's rule set has for it."""

from __future__ import annotations

from engine.actions.base import ActionType, Activation, Turn, actions_of
from engine.actions.registry import action_type, activation_moves
from engine.commands import Action, Move, UnitOrder
from engine.deployment.hidden import check_marker_order
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.game_state import GameState, Pending, Step
from engine.orders import check_may_activate, entering_order, unit_of_side
from engine.rulesets import rules_of
from engine.state import Unit


def check_unit_order(state: GameState, side: str, order: UnitOrder) -> None:
    """Check an activation before any die is rolled (pp. 4-5, 8-12)."""
    unit = unit_of_side(state, side, order.unit, entering=True)
    check_may_activate(unit)
    actions = order.actions
    if unit.in_reserve and actions:
        unit, actions = entering_order(state, unit, order)
        state = state.model_copy(update={"units": {**state.units, unit.id: unit}})
        if not actions:
            return
    if not actions:
        raise IllegalCommand(f"Say what {unit.name} does: move, fire, embark, disembark or smoke")
    types = [action_type(state, a) for a in actions]  # refused first if the rule set lacks one
    check_combination(state, unit, actions, types)
    activation = Activation(
        state=state,
        unit=unit,
        actions=actions,
        moves=any(t.counts_as_moving for t in types),
        rapid=_rapid(actions),
        current=unit,
        transport=state.units.get(unit.embarked_in or unit.transport or ""),
    )
    for index, (action_kind, action) in enumerate(zip(types, actions, strict=True)):
        action_kind.check(activation, index, action)


def check_combination(
    state: GameState, unit: Unit, actions: tuple[Action, ...], types: list[ActionType]
) -> None:
    """What an activation's actions may be together (p. 5; pp. 9, 13, 26; and the rule set's)."""
    if sum(a.action_cost for a in actions) > 2:
        raise IllegalCommand("An activation allows two actions; a rapid move counts as two (p. 5)")
    kinds = [a.kind for a in actions]
    if len(set(kinds)) != len(kinds) or sum(t.is_shot for t in types) > 1:
        raise IllegalCommand("The two actions of an activation must differ, with one shot at most")
    if "embark" in kinds and "disembark" in kinds:
        raise IllegalCommand("A unit may not embark and disembark in the same activation (p. 9)")
    for kind in types[:-1]:
        if kind.last_in_activation:
            raise IllegalCommand(kind.last_in_activation)
    check_marker_order(unit, kinds)
    if any(t.moves_unit for t in types) and any(t.fires for t in types):
        problem = rules_of(state).move_and_fire_problem(unit)
        if problem:
            raise IllegalCommand(problem)
    if _rapid(actions) and ("embark" in kinds or "disembark" in kinds):
        raise IllegalCommand("No embarking or disembarking in an activation with a rapid move")
    if unit.must_move_away and "move" not in kinds:
        raise IllegalCommand(f"{unit.name} fell back this turn: it must move further away")


def _rapid(actions: tuple[Action, ...]) -> bool:
    return any(move.rapid for move in actions_of(actions, Move))


def carry_out(
    state: GameState, pending: Pending, step: Step, unit: Unit, order: UnitOrder, log: EventLog
) -> bool:
    """One action of an activation (p. 5), the declared move cut at a reaction point if there
    is one (p. 6); False when a player must choose before the rest can follow."""
    declared = order.actions[step.index]
    action = declared
    if step.leg != "whole" and pending.interrupt is not None:
        action = pending.interrupt.to_point if step.leg == "to_interrupt" else pending.interrupt.onward
    turn = Turn(state, pending, step, unit, order, activation_moves(state, order.actions), log)
    return action_type(state, declared).execute(turn, action)


def describe_actions(state: GameState, actions: tuple[Action, ...]) -> str:
    return ", then ".join(action_type(state, a).describe(state, a) for a in actions)
