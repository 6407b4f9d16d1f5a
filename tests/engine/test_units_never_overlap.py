"""Models never overlap (Iron Cross 2015, pp. 8-9, 11), wherever a unit is put on the table or
moved by the rules: set-up, hidden set-up, reserves coming on, disembarking, leaving a building,
falling back, passengers forced out, and close-combat moves (House Rules V1.0, s. 4-6). One test
a path; the move's own rule (`unit_in_the_way`) is tested in test_rules_gaps_2015.py."""

import pytest

from engine.commands import Declare, Disembark, FallBackOrder, Move, UnitOrder
from engine.dice import ScriptedDice, d6, d10
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.geometry import distance, footprint, overlap
from engine.scenarios.new_game import make_unit
from engine.variants.house_v1.buildings import set_on_fire
from engine.variants.house_v1.commands import LeaveBuilding
from tests.engine.helpers import P, act, declare, game, play, started, texts
from tests.engine.test_deployment import deploy, meeting
from tests.engine.test_fire_flow import fire, loaded_halftrack
from tests.engine.test_hidden_deployment import capture
from tests.engine.test_hidden_deployment import deploy as deploy_hidden
from tests.engine.test_house_rules_buildings import street
from tests.engine.test_house_rules_combat import carrier, fight_on
from tests.engine.test_house_rules_flow import charge
from tests.engine.test_movement_flow import transport_game
from tests.engine.test_reserves import started_with_r1_available

ON_TOP = "units may not overlap on the table"


def test_a_unit_may_not_be_set_up_on_another_p28_pp8_9():
    state = meeting()
    state, _ = deploy(state, "allies", "a1", 10, 5)
    state, _ = deploy(state, "axis", "x1", 10, 67)
    with pytest.raises(
        IllegalCommand,
        match=f"^Infantry Detachment would be set down on top of Infantry Detachment: {ON_TOP}",
    ):
        deploy(state, "allies", "a2", 11, 6)
    assert state.units["a2"].in_reserve  # nothing changed
    state, _ = deploy(state, "allies", "a2", 12, 5)  # in contact: allowed
    assert distance(state.units["a1"], state.units["a2"]) == 0.0


def test_a_hidden_marker_may_not_be_set_up_on_another_p26():
    state = capture()
    state, _ = deploy_hidden(state, "allies", "gis", 30, 40)
    with pytest.raises(IllegalCommand, match=f"^Dummy 1 would be set down on top of Marker 1: {ON_TOP}"):
        deploy_hidden(state, "allies", "allies-dummy-1", 31, 41)


def test_a_reserve_may_not_come_on_on_top_of_a_unit_at_the_edge_p26():
    state = started_with_r1_available()
    state.units["a"].position = P(30, 1)
    enter = UnitOrder(unit="r1", actions=(Move(path=(P(31, 0), P(31, 4))),))
    with pytest.raises(IllegalCommand, match=f"would be set down on top of Infantry Detachment: {ON_TOP}"):
        play(state, Declare(side="allies", order=enter))
    assert state.units["r1"].in_reserve


def test_troops_may_not_disembark_onto_another_unit_p9():
    state = transport_game()
    state.units["gis"].position = state.units["ht"].position
    state.units["gis"].embarked_in = "ht"
    state.units["truck"].position = P(50, 41)
    with pytest.raises(IllegalCommand, match=f"^GIs would be set down on top of Truck: {ON_TOP}"):
        declare(state, "allies", "gis", Disembark(to=P(50, 40.5)))
    out, _ = act(state, "allies", "gis", Disembark(to=P(47, 40.5)))
    assert distance(out.units["gis"], out.units["truck"]) > 0


def test_a_fall_back_may_not_pass_through_a_unit_p13():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (30, 20), unit_id="gis", name="GIs"),
            make_unit("us", "Infantry Detachment", "allies", (30, 16), unit_id="squad", name="Squad"),
            make_unit("german", "Infantry Detachment", "axis", (30, 28), unit_id="gren"),
        ),
        "allies",
    )
    order = FallBackOrder(unit="gis", path=(P(30, 12),))
    with pytest.raises(IllegalCommand, match="^GIs would move through Squad: units may not pass through"):
        play(state, Declare(side="allies", order=order))


def test_passengers_forced_out_are_put_clear_of_a_unit_behind_the_transport_p12():
    blocker = make_unit("german", "Infantry Detachment", "axis", (50, 43.5), unit_id="blocker")
    state, events = fire(loaded_halftrack(blocker), "allies", "sherman", "ht", d10(5), d10(2))
    assert "Passengers is forced out of Halftrack" in texts(events)
    passengers = state.units["gren"]
    assert passengers.position == P(52.05, 40)  # beside it, not behind it on the blocker
    assert distance(passengers, state.units["blocker"]) > 0
    assert distance(passengers, state.units["ht"]) > 0


def test_troops_may_not_leave_a_building_onto_a_unit_s4():
    state = street(make_unit("german", "Infantry Detachment", "axis", (42.5, 38), name="Outside"))
    with pytest.raises(IllegalCommand, match=f"^Gruppe would be set down on top of Outside: {ON_TOP}"):
        declare(state, "axis", "gruppe", LeaveBuilding(to=P(42.5, 37)))


def test_troops_driven_out_by_fire_stand_clear_of_a_unit_already_outside_s5():
    state = street(make_unit("german", "Infantry Detachment", "axis", (42.5, 37), name="Outside"))
    state.units["gruppe"].position = P(42.5, 34.5)  # nearest the north wall
    for other in ("mg", "rifles"):
        state.units[other].position = P(40.5, 32.5)  # nearest the west wall
    set_on_fire(state, "house", EventLog(ScriptedDice([])))
    gruppe = state.units["gruppe"]
    assert gruppe.in_building is None and gruppe.position == P(42.5, 39)  # 1" out would be on Outside
    assert distance(gruppe, state.units["outside"]) == 0.0
    assert not overlap(footprint(state.units["mg"]), footprint(state.units["rifles"]))  # one steps past


def test_the_close_combat_dash_stops_in_contact_with_a_unit_in_its_way_s6():
    state = carrier(facing=90)
    state.units["tommies"].position = P(30, 9)
    state.units["screen"] = make_unit("german", "MG Team", "axis", (30, 11.5), unit_id="screen")
    faces = [d6(3), d10(2), *(d10(1), d10(1))]  # initiation; round 1: every shot misses
    state, _ = charge(state, "tommies", "sdkfz", *faces)
    assert state.units["tommies"].position.y == pytest.approx(9.49, abs=0.02)  # the dash stops at the MG
    assert distance(state.units["tommies"], state.units["screen"]) == pytest.approx(0, abs=0.02)


def test_a_fall_back_out_of_close_combat_stops_in_contact_with_a_unit_behind_s6():
    state = carrier(facing=90)
    state.units["behind"] = make_unit("british", "Infantry Detachment", "allies", (30, 4.5), unit_id="behind")
    faces = [d6(3), d10(2), *(d10(1), d10(1))]  # initiation; round 1: every shot misses
    state, _ = charge(state, "tommies", "sdkfz", *faces)
    state, events = fight_on(state, d10(1), *(d10(1), d10(1)))  # round 2: misses again
    tommies = state.units["tommies"]
    assert texts(events)[-1].startswith("251 Halftrack holds: Tommies falls back to")
    assert tommies.position.x == 30 and tommies.position.y == pytest.approx(6.5, abs=0.02)  # not 5.5
    assert distance(tommies, state.units["behind"]) == pytest.approx(0, abs=0.02)
