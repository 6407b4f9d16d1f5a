"""The choices a close combat waits for (House Rules V1.0, s. 6): the defending vehicle's side
falls back or fights on, and who defends a building against an assault."""

from __future__ import annotations

from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.flow.resolution import expect_choice, resume
from engine.game_state import GameState
from engine.order_kinds import activation_of
from engine.variants.house_v1.actions import charge_of
from engine.variants.house_v1.close_combat.play import after_first_round, fight
from engine.variants.house_v1.commands import ChooseDefender, ChooseFallBack


def check_fall_back_choice(state: GameState, command: ChooseFallBack) -> None:
    """House Rules s. 6: only the defending vehicle's side chooses, when the combat waits for it."""
    expect_choice(state, command.side, "close_combat_fall_back")


def check_defender_choice(state: GameState, command: ChooseDefender) -> None:
    """House Rules s. 6 Attacking buildings: the defender is one of the units the choice offers."""
    choice = expect_choice(state, command.side, "building_defender")
    if command.unit not in choice.options:
        names = ", ".join(state.units[o].name for o in choice.options)
        raise IllegalCommand(f"Choose the unit that defends among {names}")


def choose_fall_back(state: GameState, command: ChooseFallBack, log: EventLog) -> None:
    """House Rules s. 6: the defending vehicle's side falls back after the first round, or fights on."""
    check_fall_back_choice(state, command)
    pending = state.pending
    assert pending is not None
    step = pending.steps[0]
    order = activation_of(pending, step.who)
    assert order is not None
    charge = charge_of(order, step.index)
    attacker, defender = state.units[order.unit], state.units[charge.target]
    after_first_round(state, attacker, defender, command.fall_back, log)
    resume(state, log)


def choose_defender(state: GameState, command: ChooseDefender, log: EventLog) -> None:
    """House Rules s. 6 Attacking buildings: the unit the defending side puts up against the assault."""
    check_defender_choice(state, command)
    pending = state.pending
    assert pending is not None
    step = pending.steps[0]
    order = activation_of(pending, step.who)
    assert order is not None
    fight(state, state.units[order.unit], state.units[command.unit], log)  # troops inside: no vehicle
    resume(state, log)
