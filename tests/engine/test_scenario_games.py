"""Each of the book's scenarios set up with two forces and played by random commands to a result;
replaying the commands with the recorded dice reproduces the game (pp. 26-31)."""

import random

import pytest

from engine.commands import Deploy, FinishDeployment, JoinSide
from engine.deployment.placing import whose_turn
from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.forces import add_unit, choose_command, force_units, new_force
from engine.game import apply, replay
from engine.scenarios.book import find_scenario
from engine.scenarios.quick_battle import scenario_battle
from engine.state import Phase, Point
from tests.engine.random_play import play_random_game

SCENARIOS = [
    ("meeting", {}),
    ("escalating", {}),
    ("capture", {"attacker": "axis"}),
    ("breakthrough", {"attacker": "axis", "attacker_choice": "preliminary_bombardment"}),
]


def a_force(nation, limit, *profiles):
    force = new_force(nation, nation, limit)
    for profile in profiles:
        force = add_unit(force, profile)
    return choose_command(force, force.units[0].label)


def joined(scenario, options):
    state = scenario_battle(scenario, "village", **options)
    doubled = find_scenario(scenario).points == "attacker_double"
    defender_limit = 150
    attacker_limit = 300 if doubled else 150
    forces = {
        "allies": a_force(
            "us",
            defender_limit,
            "Infantry Detachment",
            "Infantry Detachment",
            "Infantry Detachment",
            "Sherman 75mm",
        ),
        "axis": a_force(
            "german",
            attacker_limit,
            "Infantry Detachment",
            "Infantry Detachment",
            "Infantry Detachment",
            "Panther",
            *(("Panther",) if doubled else ()),  # twice the defender's 120 points (p. 30)
        ),
    }
    dice = SeededDice(0)
    for side, force in forces.items():
        units = tuple(force_units(force, side))
        state, _ = apply(
            state,
            JoinSide(
                side=side, player=side, nation=force.nation, units=units, points_limit=force.points_limit
            ),
            dice,
        )
    return state


def deployed(state, seed):
    """Place units at random points until each side has set up what it may, then finish."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    while (side := whose_turn(state.deployment)) is not None:
        plan = state.deployment.sides[side]
        placed = False
        for _ in range(300):
            if not plan.waiting:
                break
            at = Point(x=round(rng.uniform(1, 71), 1), y=round(rng.uniform(1, 47), 1))
            try:
                state, _ = apply(state, Deploy(side=side, unit=plan.waiting[0], at=at), dice)
                placed = True
                break
            except IllegalCommand:
                continue
        if not placed:
            state, _ = apply(state, FinishDeployment(side=side), dice)
    return state


@pytest.mark.parametrize(("scenario", "options"), SCENARIOS, ids=[s for s, _ in SCENARIOS])
@pytest.mark.parametrize("seed", [1, 2])
def test_each_scenario_is_played_to_a_result_and_replays_exactly(scenario, options, seed):
    start = deployed(joined(scenario, options), seed)
    assert start.deployment is not None and whose_turn(start.deployment) is None
    final, history = play_random_game(start, seed)
    assert final.phase is Phase.OVER and final.result is not None, f"{scenario} seed {seed} did not finish"
    assert final.scenario == scenario
    replayed, events = replay(start, history)
    assert replayed == final and events == [recorded for _, recorded in history]
