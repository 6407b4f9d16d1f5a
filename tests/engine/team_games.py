"""A two-against-two team game (p. 25) set up for tests: each side a CO and one other player."""

from __future__ import annotations

import random

from engine.commands import ChooseInitiative, Deploy, FinishDeployment, JoinSide, StartGame
from engine.deployment.placing import whose_turn
from engine.dice import ScriptedDice, SeededDice, d6
from engine.errors import IllegalCommand
from engine.forces import add_unit, choose_command, force_units, new_force
from engine.game import apply
from engine.game_state import GameState
from engine.scenarios.quick_battle import scenario_battle
from engine.state import Point
from engine.teams import make_team_game

PLAYERS = {"allies": ("ann", "bob"), "axis": ("cat", "dan")}  # the CO first
NATIONS = {"allies": "us", "axis": "german"}
FORCES = {
    "allies": (("Infantry Detachment", "Infantry Detachment"), ("Sherman 75mm", "Infantry Detachment")),
    "axis": (
        ("Infantry Detachment", "Infantry Detachment"),
        ("Panzer IV G (late) to J", "Infantry Detachment"),
    ),
}


def a_force(nation: str, profiles: tuple[str, ...], command: int = 0):
    force = new_force(nation, nation, 300)
    for profile in profiles:
        force = add_unit(force, profile)
    return choose_command(force, force.units[command].label)


def team_game(bonus_rule: str = "even") -> GameState:
    """A Meeting Engagement with both sides' forces in, ready to set up."""
    state = scenario_battle("meeting", "village")
    make_team_game(state, 2, bonus_rule)
    dice = SeededDice(0)
    for side, players in PLAYERS.items():
        for player, profiles in zip(players, FORCES[side], strict=True):
            force = a_force(NATIONS[side], profiles)
            state, _ = apply(
                state, JoinSide(side=side, player=player, units=tuple(force_units(force, side))), dice
            )
    return state


def deploy_all(state: GameState, seed: int = 1, hold_back: frozenset[str] = frozenset()) -> GameState:
    """Set units up at random in their zone until the scenario allows no more; those held back,
    and any the scenario keeps off the table, wait in reserve."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    while (side := whose_turn(state.deployment)) is not None:
        waiting = [u for u in state.deployment.sides[side].waiting if u not in hold_back]
        if not waiting:
            state, _ = apply(state, FinishDeployment(side=side), dice)
            continue
        for _ in range(500):
            at = Point(x=round(rng.uniform(1, 71), 1), y=round(rng.uniform(1, 47), 1))
            try:
                state, _ = apply(state, Deploy(side=side, unit=waiting[0], at=at), dice)
                break
            except IllegalCommand:
                continue
        else:  # the scenario allows no more on the table: the rest wait in reserve
            state, _ = apply(state, FinishDeployment(side=side), dice)
    return state


HELD_BACK = "allies-infantry-detachment-2"  # ann's, the allied CO's: the reserve pool


def turn_one(bonus_rule: str = "even") -> GameState:
    """Turn 1 with the allies holding the initiative (6 to 1) and going first."""
    state = deploy_all(team_game(bonus_rule), hold_back=frozenset({HELD_BACK}))
    state, _ = apply(state, StartGame(), ScriptedDice([d6(6), d6(1)]))
    state, _ = apply(state, ChooseInitiative(side="allies", go_first=True), ScriptedDice([]))
    return state
