"""The action registry: every kind of action there is, by the name rule sets list it under.
An action is registered by writing its :class:`ActionType` subclass in one of :data:`ACTION_MODULES`.

The game flow never asks what class an action is: it asks the game's rule set's action for it
(:func:`action_type`), which checks, carries out and words it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import assaulting, moving, shooting
from engine.actions.base import ActionType
from engine.commands import Action
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.rulesets import RULE_SETS, rules_of

ACTION_MODULES = (moving, shooting, assaulting)  # where the actions are written


def _every_action(kind: type[ActionType]) -> list[ActionType]:
    """One object for every action class written: the subclasses of :class:`ActionType`, each
    naming its own action."""
    found = []
    for subclass in kind.__subclasses__():
        found += [subclass(), *_every_action(subclass)]
    return found


ACTIONS: dict[str, ActionType] = {action.name: action for action in _every_action(ActionType)}


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
