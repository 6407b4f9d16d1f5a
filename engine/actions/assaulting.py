"""Close combat as an action (House Rules V1.0, s. 6): the last action of an activation; charged
as the first, its initiation test is taken when it is declared and no reaction is allowed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions.base import ActionType, Activation, Turn
from engine.actions.shooting import fire_at
from engine.assault import check_close_combat
from engine.close_combat import building_defence_choice, fall_back_choice, fight, initiation_test
from engine.commands import CloseCombat, Fire, Order, UnitOrder
from engine.errors import IllegalCommand
from engine.game_state import GameState

if TYPE_CHECKING:
    from engine.rulesets import RuleSet


class CloseCombatAction(ActionType[CloseCombat]):
    """An assault on an enemy within 3" (House Rules V1.0, s. 6)."""

    name = "close_combat"
    command = CloseCombat
    what = "Close combat"

    def check(self, activation: Activation, index: int, action: CloseCombat) -> None:
        check_close_combat(activation.state, activation.current, action)

    def execute(self, turn: Turn, action: CloseCombat) -> bool:
        """The initiation test (unless passed at declaration), then the fight; a unit that fails
        fires instead if it has not fired yet."""
        state, unit, log, pending = turn.state, turn.unit, turn.log, turn.pending
        defender = state.units[action.target]
        if defender.destroyed or not defender.on_table:
            return turn.wasted(f"{unit.name} has nobody left to assault")
        try:
            check_close_combat(state, unit, action)
        except IllegalCommand as problem:
            return turn.wasted(f"{unit.name} cannot assault: {problem}")
        who = turn.step.who
        tokens = pending.tokens_before.get(unit.id, 0)
        if (who == "active" and pending.initiated) or initiation_test(state, unit, tokens, log):
            pending.choice = building_defence_choice(state, unit, defender, who, log)  # s. 6
            if pending.choice is not None:
                return False
            if fight(state, unit, defender, log, overrun=action.overrun):
                return True
            pending.choice = fall_back_choice(defender, who, log)  # s. 6: the vehicle may fall back
            return False
        if any(isinstance(a, Fire) for a in turn.order.actions):
            return True
        return fire_at(turn, Fire(target=action.target))

    def describe(self, state: GameState, action: CloseCombat) -> str:
        return f"close combat with {state.units[action.target].name}"

    def refusal(self, offering: Sequence[RuleSet]) -> str:
        """Naming how to start a game that has it."""
        hints = " or ".join(f"/game new ruleset:{r.name}" for r in offering)
        return f"{super().refusal(offering)} ({hints})"


def has_close_combat(order: Order | None) -> bool:
    return isinstance(order, UnitOrder) and any(isinstance(a, CloseCombat) for a in order.actions)


def immediate_close_combat(order: Order) -> CloseCombat | None:
    """A close combat that is the activation's first action (House Rules s. 6)."""
    if isinstance(order, UnitOrder) and order.actions and isinstance(order.actions[0], CloseCombat):
        return order.actions[0]
    return None


def fire_instead(order: UnitOrder, charge: CloseCombat) -> UnitOrder:
    """s. 6: a unit that fails its initiation test may fire at its target instead, unless it
    has already fired in this activation."""
    fired = any(isinstance(a, Fire) for a in order.actions)
    kept = tuple(a for a in order.actions if a is not charge)
    return order.model_copy(update={"actions": kept if fired else (*kept, Fire(target=charge.target))})


def charge_of(order: UnitOrder, index: int) -> CloseCombat:
    """The close combat a choice in the middle of it belongs to."""
    charge = order.actions[index]
    assert isinstance(charge, CloseCombat)
    return charge
