"""The action registry: every kind of action there is, by the name rule sets list it under.
An action is registered by writing its :class:`ActionType` subclass, in :mod:`engine.actions` or
in a rule set's package under :mod:`engine.variants`.

The game flow never asks what class an action is: it asks the game's rule set's action for it
(:func:`action_type`), which checks, carries out and words it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import moving, shooting  # noqa: F401  the 2015 actions, registered as written
from engine.actions.base import ACTIONS, ActionType
from engine.commands import Action, Order, UnitOrder
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.game_state import GameState, Pending
from engine.rulesets import RULE_SETS, rules_of

__all__ = ["ACTIONS", "action_type", "activation_moves", "at_declaration", "check_reaction_to"]


def action_type(state: GameState, action: Action) -> ActionType:
    """The game's rule set's action for this command, or refused naming the rule sets that have it."""
    offered = [ACTIONS[name] for name in rules_of(state).actions]
    found = next((kind for kind in offered if kind.command is type(action)), None)
    if found is not None:
        return found
    elsewhere = [kind for kind in ACTIONS.values() if kind.command is type(action)]
    offering = [r for r in RULE_SETS.values() if any(kind.name in r.actions for kind in elsewhere)]
    raise IllegalCommand(elsewhere[0].refusal(offering))


def activation_moves(state: GameState, actions: Sequence[Action]) -> bool:
    """Whether an activation includes movement, for the firer-moved penalty (p. 10)."""
    return any(action_type(state, a).counts_as_moving for a in actions)


def at_declaration(state: GameState, pending: Pending, log: EventLog) -> str | None:
    """What the first action of the order just declared does before any reaction, and why no
    reaction is allowed to it, or None."""
    order = pending.order
    if not isinstance(order, UnitOrder) or not order.actions:
        return None
    return action_type(state, order.actions[0]).at_declaration(state, pending, log)


def check_reaction_to(state: GameState, order: Order, reaction: Order) -> None:
    """Refuse a reaction that an action of the order forbids."""
    if not isinstance(order, UnitOrder):
        return
    for action in order.actions:
        problem = action_type(state, action).reaction_problem(reaction)
        if problem:
            raise IllegalCommand(problem)
