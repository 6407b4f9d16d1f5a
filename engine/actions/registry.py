"""The action registry: every kind of action there is, by the name rule sets list it under.
An action is registered by writing its :class:`ActionType` subclass, in :mod:`engine.actions` or
in a rule set's package under :mod:`engine.variants`.

The game flow never asks what class an action is: it asks the game's rule set's action for it
(:func:`action_type`), which checks, carries out and words it. The options of ``/act`` are the
ones the actions declare (:func:`order_options`), and each action makes itself from them
(:func:`order_actions`), so a new action reaches both front ends with no change to them; those
that may be given in a reaction too are ``/react``'s (:func:`reaction_options`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import moving, shooting  # noqa: F401  the 2015 actions, registered as written
from engine.actions.base import ACTION_TYPES, ActionType, OrderOption
from engine.commands import Action
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.rulesets import RULE_SETS, rules_of

__all__ = [
    "ACTION_TYPES",
    "action_type",
    "activation_moves",
    "game_order_options",
    "order_actions",
    "order_options",
    "reaction_options",
]


def action_type(state: GameState, action: Action) -> ActionType:
    """The game's rule set's action for this command, or refused naming the rule sets that have it."""
    offered = [ACTION_TYPES[name] for name in rules_of(state).actions]
    found = next((kind for kind in offered if kind.command is type(action)), None)
    if found is not None:
        return found
    elsewhere = [kind for kind in ACTION_TYPES.values() if kind.command is type(action)]
    offering = [r for r in RULE_SETS.values() if any(kind.name in r.actions for kind in elsewhere)]
    raise IllegalCommand(elsewhere[0].refusal(offering))


def activation_moves(state: GameState, actions: Sequence[Action]) -> bool:
    """Whether an activation includes movement, for the firer-moved penalty (p. 10)."""
    return any(action_type(state, a).counts_as_moving for a in actions)


def order_options() -> dict[str, OrderOption]:
    """Every option of ``/act`` but the unit's name, by name, as the actions declare them, in the
    order they were written."""
    options: dict[str, OrderOption] = {}
    for kind in ACTION_TYPES.values():
        for option in kind.options:
            options.setdefault(option.name, option)
    return options


def reaction_options() -> dict[str, OrderOption]:
    """The options of ``/act`` that a reaction may be given too (``/react``), by name, in their
    order: those their actions declare to react."""
    return {name: option for name, option in order_options().items() if option.reacts}


def game_order_options(state: GameState) -> dict[str, OrderOption]:
    """The options of ``/act`` that the game's rule set's actions declare, by name."""
    return rule_set_order_options(rules_of(state).name)


def rule_set_order_options(rule_set: str) -> dict[str, OrderOption]:
    """The options of ``/act`` that a rule set's actions declare, by name, in their order."""
    actions = RULE_SETS[rule_set].actions
    return {option.name: option for name in actions for option in ACTION_TYPES[name].options}


def order_actions(given: Mapping[str, Any]) -> tuple[Action, ...]:
    """The actions that the options of ``/act`` ask for (read, by name; those not given at their
    default), each made by an action of its command, in their places: out of a transport or a
    building first, then the move and the shot (the shot first with ``first:fire``), into a
    transport or a building, and close combat or indirect fire last."""
    options = order_options()
    values = {name: option.default for name, option in options.items()}
    values |= {name: value for name, value in given.items() if value is not None}
    claimed = {name for option in options.values() if values[option.name] for name in option.claims}
    first = values.get("first") == "fire"
    makers = {kind.command: kind for kind in ACTION_TYPES.values()}  # a rule set's own kind comes last
    placed: list[tuple[int, Action]] = []
    for kind in makers.values():
        own_claims = {name for option in kind.options for name in option.claims}
        seen = {
            name: options[name].default if name in claimed - own_claims else value
            for name, value in values.items()
        }
        action = kind.from_options(seen)
        if action is not None:
            at = kind.place_if_first if first and kind.place_if_first is not None else kind.place
            placed.append((at, action))
    return tuple(action for _, action in sorted(placed, key=lambda pair: pair[0]))
