"""The stand-in (engine.stand_in) playing whole games against itself, under both rule sets and in
the book's scenarios with their set-up: every order it gives is one the engine takes, and every
game reaches its result; and its choices where one order is plainly best."""

import pytest

from engine.commands import Declare, DeclineReaction, Fire, MoraleTestOrder, UnitOrder
from engine.dice import SeededDice
from engine.game import apply, awaiting
from engine.legality import is_legal
from engine.rulesets import with_rule_set
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import quick_battle
from engine.stand_in import best, stand_in_command, worth
from engine.state import Phase
from tests.engine.helpers import game, started
from tests.engine.test_scenario_games import SCENARIOS, joined

MOST_COMMANDS = 1500


def quick(rules: str):
    state = quick_battle("crossroads", "soviet") if rules == "house_v1" else quick_battle()
    return with_rule_set(state, rules)


GAMES = [
    *(
        (f"quick battle, {rules}, seed {seed}", rules, None, seed)
        for rules in ("core_2015", "house_v1")
        for seed in range(6)
    ),
    *(
        (f"{name}, seed {seed}", "core_2015", (name, options), seed)
        for name, options in SCENARIOS
        for seed in range(2)
    ),
]


@pytest.mark.parametrize(("name", "rules", "scenario", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_the_stand_in_plays_itself_to_a_result_with_only_legal_orders(name, rules, scenario, seed):
    state = quick(rules) if scenario is None else joined(*scenario)
    dice = SeededDice(seed)
    for number in range(MOST_COMMANDS):
        if state.phase is Phase.OVER:
            break
        side = awaiting(state) or _setting_up(state)
        command = stand_in_command(state, side, seed * 10_000 + number, throws=1)
        assert is_legal(state, command), (name, number, command)
        state, _ = apply(state, command, dice)
    assert state.phase is Phase.OVER and state.result is not None, name


def _setting_up(state) -> str:
    from engine.deployment.placing import whose_turn

    if state.deployment is not None:
        return whose_turn(state.deployment) or next(iter(state.sides))
    return next(iter(state.sides))


GIS_FIRE = UnitOrder(unit="gis", actions=(Fire(target="gren"),))


def duel(active: str, markers_short: int | None = None):
    """A US squad 8" from a German squad, ``active`` to act; the Germans ``markers_short`` of the
    markers that destroy them (None: none)."""
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (30, 20), unit_id="gis", command=True),
            make_unit("german", "Infantry Detachment", "axis", (30, 28), unit_id="gren", command=True),
        ),
        active,
    )
    if markers_short is not None:
        gren = state.units["gren"]
        state.units["gren"] = gren.model_copy(update={"morale_markers": gren.profile.morale - markers_short})
    return state


def test_a_shot_that_may_destroy_the_enemy_is_taken_rather_than_anything_else():
    """One marker more destroys the German squad: firing is worth more than anything else."""
    chosen = best(duel("allies", markers_short=0), "allies", seed=3)
    assert chosen.command == Declare(side="allies", order=GIS_FIRE)
    morale_test = Declare(side="allies", order=MoraleTestOrder())
    assert chosen.worth > worth(duel("allies", markers_short=0), "allies", morale_test, seed=3)


def test_in_a_reaction_window_it_fires_back_at_the_enemy_that_shot_rather_than_decline():
    state = duel("axis")
    shot = Declare(side="axis", order=UnitOrder(unit="gren", actions=(Fire(target="gis"),)))
    state, _ = apply(state, shot, SeededDice(1))
    assert state.phase is Phase.REACTION
    chosen = stand_in_command(state, "allies", seed=3)
    assert chosen != DeclineReaction(side="allies", window=state.pending.window)
    assert chosen.order == GIS_FIRE
