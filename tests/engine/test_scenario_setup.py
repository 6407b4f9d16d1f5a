"""Setting up the book's scenarios on a game (Iron Cross 2015, pp. 26-31)."""

import pytest

from engine.commands import Deploy, FinishDeployment, JoinSide, StartGame
from engine.dice import d6
from engine.errors import IllegalCommand
from engine.forces import add_unit, choose_command, force_units, new_force
from engine.scenarios.book import find_scenario
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import scenario_battle
from engine.scenarios.setup import set_up_scenario
from engine.state import Phase
from tests.engine.helpers import P, game, play, text


def forces():
    return game(
        make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="cmd", command=True),
        make_unit("us", "Sherman 75mm", "allies", (20, 10), unit_id="sherman"),  # BP 6
        make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="x", command=True),
        make_unit("german", "Panther", "axis", (20, 60), unit_id="panther"),  # BP 13
    )


def deployed(state, *placements):
    """Set units up in turn, then say the side is done."""
    for side, unit, at in placements:
        state, _ = play(state, Deploy(side=side, unit=unit, at=P(*at)))
    if state.deployment.sides[side].waiting:
        state, _ = play(state, FinishDeployment(side=side))
    return state


def test_capture_roles_break_points_length_and_the_attacker_starts_p30():
    state = set_up_scenario(forces(), find_scenario("capture"), {"allies": "defender", "axis": "attacker"})
    assert (state.sides["allies"].break_point, state.sides["axis"].break_point) == (
        6,
        8,
    )  # 2/3 of 10, 1/2 of 17
    assert (state.last_turn, state.random_length, state.attacker) == (7, True, "axis")
    assert state.sides["allies"].extra_token_dice and not state.sides["axis"].extra_token_dice
    assert all(u.moved_this_turn for u in state.units.values())
    state = deployed(state, ("allies", "cmd", (10, 40)), ("allies", "sherman", (20, 40)))
    state = deployed(state, ("axis", "x", (10, 70)))  # 2/3 of two units: one on the table (p. 30)
    assert state.units["panther"].in_reserve
    state, events = play(state, StartGame(), d6(1), d6(2), d6(5), d6(6))
    assert "The Allies roll for extra tokens: 1, 2, 5, 6: +2" in text(events)
    assert state.phase is Phase.ACTIVE and state.active_side == "axis"
    assert "The Axis attack and start as the active player" in text(events)


def test_escalating_engagement_starts_the_command_unit_in_reserve_p29():
    state = set_up_scenario(forces(), find_scenario("escalating"), {"allies": "first", "axis": "second"})
    assert state.units["cmd"].in_reserve and state.units["x"].in_reserve
    assert state.deployment.sides["allies"].waiting == ["sherman"]
    state, _ = play(state, FinishDeployment(side="allies"))
    assert (state.sides["allies"].reserves_at_start, state.sides["allies"].reserves_from_turn) == (2, 2)
    assert state.sides["allies"].reserves_half_first and state.last_turn is None


@pytest.mark.parametrize("choice", ["aggressive_command", "preliminary_bombardment"])
def test_breakthrough_attacker_chooses_aggressive_command_or_a_bombardment_p31(choice):
    state = set_up_scenario(
        forces(),
        find_scenario("breakthrough"),
        {"allies": "attacker", "axis": "defender"},
        attacker_choice=choice,
    )
    assert state.sides["allies"].aggressive_command is (choice == "aggressive_command")
    assert state.sides["axis"].bombarded is (choice == "preliminary_bombardment")
    assert state.units["cmd"].moved_this_turn and not state.units["x"].moved_this_turn


def test_scenario_setups_refuse_what_the_briefing_does_not_allow():
    with pytest.raises(
        IllegalCommand, match="the attacker chooses aggressive command or a preliminary bombardment"
    ):
        set_up_scenario(forces(), find_scenario("breakthrough"), {"allies": "attacker", "axis": "defender"})
    with pytest.raises(IllegalCommand, match="Capture needs one side as each of: attacker, defender"):
        set_up_scenario(forces(), find_scenario("capture"), {"allies": "attacker", "axis": "attacker"})
    with pytest.raises(IllegalCommand, match="Meeting Engagement has no aggressive command"):
        set_up_scenario(
            forces(),
            find_scenario("meeting"),
            {"allies": "first", "axis": "second"},
            attacker_choice="aggressive_command",
        )


def a_force(nation, name, *profiles):
    force = new_force(nation, name, 1000)
    for profile in profiles:
        force = add_unit(force, profile)
    return choose_command(force, force.units[0].label)


def test_a_scenario_game_waits_for_both_forces_then_sets_up_p30():
    state = scenario_battle("capture", "village", attacker="axis")
    assert [o.id for o in state.objectives] == ["crossroads", "church"]
    us = a_force("us", "Easy", "Infantry Detachment", "Infantry Detachment", "Sherman 75mm")
    german = a_force("german", "KG", "Infantry Detachment", "Panther", "Panther")
    with pytest.raises(IllegalCommand, match="join with your force"):
        play(state, JoinSide(side="allies", player="ann"))
    state, events = play(
        state, JoinSide(side="allies", player="ann", nation="us", units=tuple(force_units(us, "allies")))
    )
    assert "The Allies bring 3 units" in text(events) and state.deployment is None
    state, events = play(
        state, JoinSide(side="axis", player="otto", nation="german", units=tuple(force_units(german, "axis")))
    )
    assert "Both forces are here: Capture (p. 30). Set up with /deploy" in text(events)
    assert state.sides["axis"].nation == "german" and state.attacker == "axis"
    assert state.deployment.sides["axis"].on_table_limit == 2
    assert all(u.in_reserve for u in state.units.values())


def test_scenario_battles_refuse_a_missing_attacker_or_choice():
    with pytest.raises(IllegalCommand, match="Capture needs an attacker: allies or axis"):
        scenario_battle("capture")
    with pytest.raises(IllegalCommand, match="the attacker chooses"):
        scenario_battle("breakthrough", attacker="allies")
    assert scenario_battle("meeting", "crossroads").planned_scenario.roles == {
        "allies": "first",
        "axis": "second",
    }


def joining(side, force):
    return JoinSide(
        side=side,
        player=side,
        nation=force.nation,
        units=tuple(force_units(force, side)),
        points_limit=force.points_limit,
    )


def test_forces_must_have_the_scenarios_points_p28_p30():
    us = a_force("us", "Easy", "Infantry Detachment")
    german = a_force("german", "KG", "Infantry Detachment")
    state, _ = play(scenario_battle("meeting"), joining("allies", us))
    smaller = german.model_copy(update={"points_limit": 800})
    with pytest.raises(IllegalCommand, match="same points; this one is 800 and the other 1000"):
        play(state, joining("axis", smaller))
    play(state, joining("axis", german))  # 1000 each: equal
    capture = scenario_battle("capture", attacker="axis")
    state, _ = play(capture, joining("allies", us))
    with pytest.raises(
        IllegalCommand,
        match="Capture \\(p. 30\\): the attacker's force is worth at least twice the defender's: "
        "it costs 25 points against 25, 25 short",
    ):
        play(state, joining("axis", german))


def test_breakthrough_defender_spends_half_its_points_on_infantry_p31():
    armour = a_force("german", "Panzers", "Infantry Detachment", "Panther")
    state = scenario_battle("breakthrough", attacker="allies", attacker_choice="aggressive_command")
    armour = armour.model_copy(update={"points_limit": 300})
    with pytest.raises(IllegalCommand, match="the defender must spend at least half of 300 points"):
        play(state, joining("axis", armour))
