"""Setting up for a scenario: areas, turn about, the share on the table, spacing, reserves
(Iron Cross 2015, pp. 28-31)."""

import pytest

from engine.commands import Deploy, FinishDeployment, StartGame
from engine.deployment.placing import whose_turn
from engine.dice import d6
from engine.errors import IllegalCommand
from engine.scenarios.book import find_scenario
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import scenario_battle
from engine.scenarios.setup import set_up_scenario
from engine.view import told
from tests.engine.helpers import P, game, play, text


def four_each():
    return game(
        *(
            make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id=f"a{n}", command=n == 1)
            for n in range(1, 5)
        ),
        *(
            make_unit("german", "Infantry Detachment", "axis", (0, 0), unit_id=f"x{n}", command=n == 1)
            for n in range(1, 5)
        ),
    )


def meeting():
    return set_up_scenario(four_each(), find_scenario("meeting"), {"allies": "first", "axis": "second"})


def deploy(state, side, unit, x, y):
    return play(state, Deploy(side=side, unit=unit, at=P(x, y)))


def test_meeting_engagement_sides_take_turns_within_12_of_their_own_edge_p28():
    state = meeting()
    assert whose_turn(state.deployment) == "allies"
    with pytest.raises(IllegalCommand, match="It is the Allies' turn to set up a unit"):
        deploy(state, "axis", "x1", 10, 70)
    state, events = deploy(state, "allies", "a1", 10, 11)
    assert text(events) == "The Allies set up Infantry Detachment at 10.0,11.0"
    with pytest.raises(IllegalCommand, match='must set up within 12" of the far edge \\(15.0"\\)'):
        deploy(state, "axis", "x1", 10, 57)
    state, _ = deploy(state, "axis", "x1", 10, 62)
    assert whose_turn(state.deployment) == "allies" and state.units["a1"].on_table


def test_three_quarters_on_the_table_and_the_rest_in_reserve_p28():
    state = meeting()
    for n in range(1, 4):
        state, _ = deploy(state, "allies", f"a{n}", 10 * n, 5)
        state, _ = deploy(state, "axis", f"x{n}", 10 * n, 67)
    with pytest.raises(IllegalCommand, match="The Allies may start with at most 3 units on the table"):
        deploy(state, "allies", "a4", 40, 5)
    with pytest.raises(IllegalCommand, match="must finish setting up first"):
        play(state, StartGame())
    state, events = play(state, FinishDeployment(side="allies"))
    assert text(events) == "The Allies have finished setting up; 1 unit held in reserve"
    state, _ = play(state, FinishDeployment(side="axis"))
    assert state.units["a4"].in_reserve and state.sides["allies"].reserves_at_start == 1


def breakthrough():
    return set_up_scenario(
        four_each(),
        find_scenario("breakthrough"),
        {"allies": "attacker", "axis": "defender"},
        attacker_choice="aggressive_command",
    )


def test_breakthrough_defender_sets_up_first_out_of_the_attackers_third_and_24_apart_p31():
    state = breakthrough()
    assert whose_turn(state.deployment) == "axis"
    with pytest.raises(IllegalCommand, match='at least 24" from the near edge'):
        deploy(state, "axis", "x1", 10, 20)
    state, _ = deploy(state, "axis", "x1", 10, 40)
    with pytest.raises(IllegalCommand, match='Infantry Detachment must be 24" from Infantry Detachment'):
        deploy(state, "axis", "x2", 25, 40)
    with pytest.raises(IllegalCommand, match="no reserves: the Axis must set up every unit"):
        play(state, FinishDeployment(side="axis"))
    for n, x in ((2, 40), (3, 70), (4, 94)):
        state, _ = deploy(state, "axis", f"x{n}", x, 40 if n != 4 else 70)
    assert whose_turn(state.deployment) == "allies"
    with pytest.raises(IllegalCommand, match='within 6" of the near edge'):
        deploy(state, "allies", "a1", 10, 8)
    for n in range(1, 5):
        state, _ = deploy(state, "allies", f"a{n}", 10 * n, 4)
    assert whose_turn(state.deployment) is None


def test_a_plotted_deployment_is_made_by_both_sides_at_once_and_kept_secret_until_the_start_p28():
    state = set_up_scenario(
        four_each(), find_scenario("meeting"), {"allies": "first", "axis": "second"}, plotted=True
    )
    state, _ = deploy(state, "axis", "x1", 10, 67)  # no turn about
    state, _ = deploy(state, "axis", "x2", 20, 67)
    state, events = deploy(state, "allies", "a1", 10, 5)
    (event,) = events
    assert told(event, "axis") == "The Allies set up a unit in secret"
    assert told(event, "allies") == "The Allies set up Infantry Detachment at 10.0,5.0"
    assert state.units["a1"].hidden and state.units["x1"].hidden
    state, _ = play(state, FinishDeployment(side="allies"))
    state, _ = play(state, FinishDeployment(side="axis"))
    state, events = play(state, StartGame(), d6(6), d6(1))
    assert [e.text for e in events[:2]] == [
        "The Allies' plotted set-up: Infantry Detachment at 10.0,5.0",
        "The Axis' plotted set-up: Infantry Detachment at 10.0,67.0, Infantry Detachment at 20.0,67.0",
    ]
    assert not any(u.hidden for u in state.units.values())


def test_only_the_turn_about_scenarios_may_be_plotted_p30():
    with pytest.raises(IllegalCommand, match="In Capture the defender sets up first: there is no plotted"):
        scenario_battle("capture", attacker="axis", plotted=True)
