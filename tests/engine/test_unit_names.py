"""Every unit's name unique in its game (engine.unit_names): forces built apart, both holding an
"Infantry squad 1", arrive in one House Rules game, and its close combat names attacker and
defender apart (House Rules V1.0, s. 6)."""

from engine.commands import JoinSide
from engine.dice import SeededDice, d6, d10
from engine.forces import add_unit, choose_command, force_units, new_force
from engine.game import apply
from engine.rulesets import with_rule_set
from engine.scenarios.quick_battle import scenario_battle
from engine.state import Point
from tests.engine.helpers import started
from tests.engine.test_house_rules_flow import charge, house


def squads(nation: str) -> object:
    force = new_force(nation, nation, 300, rules="house_v1")
    for _ in range(2):
        force = add_unit(force, "Infantry squad")
    return choose_command(force, "Infantry squad 1")


def both_forces_in():
    state = with_rule_set(scenario_battle("meeting", "village"), "house-v1")
    for side, player, nation in (("allies", "ann", "british"), ("axis", "otto", "german")):
        units = tuple(force_units(squads(nation), side))
        join = JoinSide(
            side=side, player=player, nation=nation, units=units, points_limit=300, rules="house_v1"
        )
        state, _ = apply(state, join, SeededDice(0))
    return state


def test_units_of_a_name_both_forces_have_say_whose_side_they_are_on():
    state = both_forces_in()
    assert {u.id: (u.name, u.called) for u in state.units.values()} == {
        "allies-infantry-squad-1": ("Infantry squad 1 (Allies)", "Infantry squad 1"),
        "allies-infantry-squad-2": ("Infantry squad 2 (Allies)", "Infantry squad 2"),
        "axis-infantry-squad-1": ("Infantry squad 1 (Axis)", "Infantry squad 1"),
        "axis-infantry-squad-2": ("Infantry squad 2 (Axis)", "Infantry squad 2"),
    }


def test_a_close_combat_between_two_infantry_squad_1s_names_each_apart_s6():
    joined = both_forces_in().units
    mine = joined["allies-infantry-squad-1"].model_copy(
        update={"position": Point(x=30, y=10), "facing": 90, "in_reserve": False}
    )
    theirs = joined["axis-infantry-squad-1"].model_copy(
        update={"position": Point(x=30, y=14), "facing": 270, "in_reserve": False}
    )
    state = started(house(mine, theirs), "allies")
    faces = [d6(3), *(d10(5), d10(2), d6(4)), *(d10(7), d10(8), d6(1), d6(4)), *(d10(1), d10(1))]
    faces += [d10(9), d10(7), d6(6), d6(6)]
    _, events = charge(state, mine.id, theirs.id, *faces)
    rounds = [e.text.split(":")[0] + ":" + e.text.split(":")[1] for e in events if e.text.startswith("Round")]
    assert rounds == [
        "Round 1: Infantry squad 1 (Axis) fires at Infantry squad 1 (Allies)",
        "Round 1: Infantry squad 1 (Allies) fires at Infantry squad 1 (Axis)",
        "Round 2: Infantry squad 1 (Axis) fires at Infantry squad 1 (Allies)",
        "Round 2: Infantry squad 1 (Allies) fires at Infantry squad 1 (Axis)",
    ]
