"""The stand-in (engine.stand_in) playing whole games against itself, under both rule sets, on
random tables, and in the book's scenarios with the forces it buys and their set-up: every order
it gives is one the engine takes, and every game reaches its result; its choices where one order
is plainly best; and how it weighs breaking and the danger a move walks into."""

import math
import random

import pytest

from engine import geometry
from engine.commands import Declare, DeclineReaction, Fire, MoraleTestOrder, Move, UnitOrder
from engine.deployment.placing import whose_turn
from engine.dice import SeededDice
from engine.game import apply
from engine.legality import is_legal, moved_to
from engine.scenarios.new_game import make_unit
from engine.stand_in import (
    BROKEN,
    DANGER,
    TOKEN,
    TOWARD,
    best,
    danger,
    options,
    stand_in_command,
    standing,
    worth,
)
from engine.state import Objective, Phase, Point
from engine.variants.house_v1.commands import ChooseFallBack, CloseCombat
from tests.engine.helpers import box, game, started
from tests.engine.stand_in_games import SCENARIOS, play_out, random_quick_battle, stand_ins_scenario
from tests.engine.test_house_rules_choices import FIRST_ROUND
from tests.engine.test_house_rules_combat import carrier
from tests.engine.test_house_rules_flow import charge, house

# 20 whole games, both rule sets, each allied force under each: quick battles (their fixed
# forces, the dearest games to play out: the two shortest a rule set of the six seeds once played
# here) and every scenario with the forces the stand-in buys (two seeds a rule set). The benchmark
# (benchmarks/stand_in.py --games) plays as many more as wanted.
QUICK_SEEDS = (1, 2)
SCENARIO_SEEDS = {"core_2015": (1, 3), "house_v1": (2, 3)}
GAMES = [
    *(
        (f"quick battle on a random table, {rules}, seed {seed}", rules, None, seed)
        for rules in ("core_2015", "house_v1")
        for seed in QUICK_SEEDS
    ),
    *(
        (f"{name} on a random table, {rules}, seed {seed}", rules, name, seed)
        for name in SCENARIOS
        for rules, seeds in SCENARIO_SEEDS.items()
        for seed in seeds
    ),
]


@pytest.mark.parametrize(("name", "rules", "scenario", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_the_stand_in_plays_itself_to_a_result_with_only_legal_orders(name, rules, scenario, seed):
    """Both sides the stand-in's, a scenario's forces bought by it (100 points a side)."""
    state = (
        random_quick_battle(rules, seed)
        if scenario is None
        else stand_ins_scenario(scenario, rules, seed, 100)
    )
    played = play_out(state, seed, throws=1)
    assert played.illegal == 0, name
    assert played.state.phase is Phase.OVER and played.state.result is not None, name


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


def test_a_side_near_its_break_point_stands_lower_by_the_chance_it_breaks_at_the_turns_end():
    """Lost BP plus a d6 above the break point breaks a force (p. 27): with nothing lost and a
    break point of 4, a 5 or a 6 breaks it, one chance in three."""
    state = duel("allies")
    state.sides["axis"].break_point = 10  # a d6 alone never breaks the Axis
    state.sides["allies"].break_point = 10
    steady = standing(state, "allies")
    state.sides["allies"].break_point = 4
    assert standing(state, "allies") == pytest.approx(steady - BROKEN / 3)


def test_the_danger_a_unit_stands_in_is_what_the_enemy_shots_at_it_are_expected_to_cost():
    """The German squad 8" away: no effect 9%, one marker 33.25%, two 57.75% (the engine's exact
    odds); each marker costs 15% of the US squad's 25 points: 25 x 0.15 x 1.4875."""
    assert danger(duel("allies"), "gis") == pytest.approx(5.578125)
    state = duel("allies")
    state.units["gren"] = state.units["gren"].model_copy(update={"destroyed": True})
    assert danger(state, "gis") == 0.0


def test_a_move_is_worth_its_table_less_twice_the_danger_it_walks_into():
    """The US squad walking 4" nearer the Germans: the dice of the move roll nothing, so its
    worth is the table after it, less DANGER times the danger there beyond the danger it left."""
    state = duel("allies")
    state.units["gis"] = state.units["gis"].model_copy(update={"position": Point(x=30, y=12)})
    nearer = Declare(side="allies", order=UnitOrder(unit="gis", actions=(Move(path=(Point(x=30, y=16),)),)))
    after, _ = apply(state, nearer, SeededDice(0))
    while after.phase is Phase.REACTION:
        after, _ = apply(after, DeclineReaction(side="axis", window=after.pending.window), SeededDice(0))
    walked_into = danger(after, "gis") - danger(state, "gis")
    assert walked_into > 0
    expected = standing(after, "allies") - DANGER * walked_into
    assert worth(state, "allies", nearer, seed=0) == pytest.approx(expected)


def test_each_command_token_in_hand_is_worth_a_token_s_points():
    state = duel("allies")
    state.sides["allies"].tokens, state.sides["axis"].tokens = 0, 0
    even = standing(state, "allies")
    state.sides["allies"].tokens = 3
    assert standing(state, "allies") == pytest.approx(even + 3 * TOKEN)


@pytest.mark.parametrize(
    "rules, seed, points", [("core_2015", 1, 100), ("core_2015", 88, 150), ("house_v1", 79, 150)]
)
def test_breakthrough_s_defence_is_set_up_whole_with_its_units_18_inches_apart(rules, seed, points):
    """On a 6' x 4' table the defender's units stand at least 18" apart and none waits in reserve
    (p. 31). Drawn at random, the fourth of the first found no room; on a grid spaced for
    infantry bases the second's tank destroyer (a wider base) found none; on a grid spaced in
    hundredths but rounded to tenths, the third's fifth unit found every point a little short."""
    state = stand_ins_scenario("breakthrough", rules, seed, points)
    dice = SeededDice(seed)
    for number in range(200):
        side = whose_turn(state.deployment) if state.deployment else None
        if side is None:
            break
        state, _ = apply(state, stand_in_command(state, side, 100_000 + number, throws=1), dice)
    defence = state.units_of("axis")
    assert whose_turn(state.deployment) is None and all(unit.on_table for unit in defence)
    spots = [(u.position.x, u.position.y) for u in defence]
    assert min(math.dist(a, b) for a in spots for b in spots if a != b) >= 18


def test_in_a_battle_fought_until_a_force_breaks_each_turn_weighs_the_way_to_the_goal_more():
    """An objective 20" from the US squad and 12" from the German one: the US stand 8" worse off
    in the way to their goal, worth TOWARD of 25 points an inch, as many times as turns have gone
    when the battle has no last turn (Escalating Engagement, p. 29); in a battle of set length,
    the same each turn."""
    state = duel("allies")
    state.objectives = [Objective(id="o", position=Point(x=30, y=40))]
    state.last_turn, state.turn = None, 1
    first = standing(state, "allies")
    state.turn = 4
    assert standing(state, "allies") - first == pytest.approx(-3 * 8 * 25 * TOWARD)
    state.last_turn = 8
    assert standing(state, "allies") == pytest.approx(first)


def test_in_a_battle_fought_until_a_force_breaks_closing_on_the_enemy_counts_for_the_side_that_closes():
    """With no objectives, each side's goal is the other's units: the US squad stepping 2" nearer
    brings the German squad as near its own goal. Counted for both, the two cancel and two
    stand-ins never close (a bot-against-bot Escalating Engagement went 106 turns of morale tests
    and passes, p. 29); only the US side's own closing counts for it, as many times as turns have
    gone. With an objective left to the Germans, their way to it still counts against the US (and
    their 2" step back from the US squad leaves it 2" farther from its goal)."""
    state = duel("allies")
    state.last_turn, state.turn = None, 3
    points = float(state.units["gis"].profile.points)
    standing_off = standing(state, "allies")
    gis = state.units["gis"]
    state.units["gis"] = gis.model_copy(update={"position": Point(x=30, y=22)})
    assert standing(state, "allies") - standing_off == pytest.approx(2 * points * 3 * TOWARD)
    state.objectives = [Objective(id="o", position=Point(x=30, y=40), side="axis")]
    gren = state.units["gren"]
    nearer = standing(state, "allies")
    state.units["gren"] = gren.model_copy(update={"position": Point(x=30, y=30)})
    lost = 2 * (float(gren.profile.points) + points) * 3 * TOWARD
    assert standing(state, "allies") - nearer == pytest.approx(-lost)


def mixed_up():
    """Under the house rules, a British section 7" (centre to centre) from a German squad, in a
    battle with no objectives and no last turn: every full step toward the Germans would end
    nearer than 3" to them, which no move may without close combat (House Rules s. 4)."""
    state = started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (30, 10), unit_id="tommies", command=True),
            make_unit("german", "Infantry Detachment", "axis", (30, 17), unit_id="gruppe", command=True),
        ),
        "allies",
    )
    state.last_turn = None
    return state


def test_a_step_refused_for_ending_too_near_the_enemy_is_tried_shorter_and_close_combat_is_offered():
    """Two stand-ins mixed among each other's units once stood 90 turns without a move (an
    Escalating Engagement under the house rules, seed 185): each step they weighed went the
    unit's whole reach toward the nearest enemy, and ended too near it."""
    state = mixed_up()
    given = [
        c
        for c in options(state, "allies", random.Random(0))
        if getattr(getattr(c, "order", None), "unit", None) == "tommies"
    ]
    legal = [c.order.actions for c in given if is_legal(state, c)]
    moves = [actions for actions in legal if [type(a) for a in actions] == [Move]]
    assert moves, "a shorter step toward the Germans is offered"
    assert all(
        geometry.distance(moved_to(state, "tommies", a[0].path[-1]).units["tommies"], state.units["gruppe"])
        >= 3 - 0.01
        for a in moves
    )
    charges = [actions for actions in legal if [type(a) for a in actions] == [Move, CloseCombat]]
    assert [a[1].target for a in charges] == ["gruppe"]


def test_it_answers_a_choice_only_the_house_rules_have_a_vehicle_falling_back_from_close_combat():
    state, _ = charge(carrier(facing=90), "tommies", "sdkfz", *FIRST_ROUND)
    assert state.pending.choice.kind == "close_combat_fall_back"
    chosen = stand_in_command(state, "axis", seed=3)
    assert isinstance(chosen, ChooseFallBack) and is_legal(state, chosen)


def test_with_a_building_in_the_way_of_every_step_toward_the_enemy_a_step_aside_goes_round_it():
    """Two stand-ins once waited 140 turns with a house between their forces (an Escalating
    Engagement under the house rules, 100 points, seed 3): a move may not end in a building
    (House Rules s. 4), and every step they weighed did, so neither side saw or reached the
    other. A British section against a wide house, the German squad behind it."""
    state = started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (30, 11), unit_id="tommies", command=True),
            make_unit("german", "Infantry Detachment", "axis", (30, 30), unit_id="gruppe", command=True),
            terrain=[box("house", "building", 16, 12, 44, 26, building=True)],
        ),
        "allies",
    )
    state.last_turn = None
    steps = [
        c.order.actions[0].path[-1]
        for c in options(state, "allies", random.Random(0))
        if getattr(getattr(c, "order", None), "unit", None) == "tommies" and is_legal(state, c)
    ]
    assert steps and all(point.y < 12 for point in steps)
