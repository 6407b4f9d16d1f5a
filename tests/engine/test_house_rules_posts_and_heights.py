"""Firing out of buildings and looking down from heights (House Rules V1.0, s. 5 Firing from
buildings and Buildings, s. 8 Blocking terrain), where an audit found the play short of the rules:
a unit that changes its post has moved, a unit at its post is seen only through the side it fires
out of, and a building standing on a hill puts its occupants on the hill. Through the game flow
with scripted dice."""

import pytest

from engine.battlefield import can_see, what_blocks
from engine.commands import Fire
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind, Phase, TerrainFeature
from engine.variants.house_v1.commands import RequestFire, ShellBuilding
from engine.variants.house_v1.state import BuildingPost
from tests.engine.helpers import P, act, box, declare, fire_text, started, texts
from tests.engine.test_house_rules_buildings import HOUSE, house, street
from tests.engine.test_house_rules_gaps import HILL, battery

# --- a unit that changes its post moves (s. 5 Firing from buildings) ------------------------------


SHERMAN_EAST = make_unit("british", "Sherman 75mm", "allies", (70, 40), name="Sherman", facing=197)
"""A Sherman 26" east-northeast of the house, facing it, clear of the Section: medium HE at
anyone firing out of its east side."""


def test_a_unit_that_fires_out_of_another_side_has_moved_this_turn_s5():
    state = street(SHERMAN_EAST)
    state, _ = act(state, "axis", "gruppe", Fire(target="tommies"), faces=[d10(1), d10(1)])
    assert not state.units["gruppe"].moved_this_turn  # its first post is no move
    # reactivation (1 token: 2+), then out of the east side, which counts as moving: two misses
    state, _ = act(state, "axis", "gruppe", Fire(target="section"), faces=[d6(2), d10(1), d10(1)])
    assert state.units["gruppe"].moved_this_turn
    state.active_side = "allies"
    # HE at a mover in defences, 23" away: one die, -1 target moved, -2 50% cover; 7 - 3 misses
    state, events = act(state, "allies", "sherman", Fire(target="gruppe"), faces=[d10(7)])
    assert fire_text(events) == (
        'Sherman fires high explosive (gun) at Gruppe (22.9"): needs 5+ (target moved this turn -1, '
        "target in 50% cover or hull down -2); rolled 7: miss (House Rules HR5.4)"
    )


def test_a_unit_that_takes_over_anothers_post_has_moved_but_the_one_pushed_back_has_not_s5():
    state = street()
    state, _ = act(state, "axis", "gruppe", Fire(target="tommies"), faces=[d10(1), d10(1)])
    state, _ = act(state, "axis", "rifles", Fire(target="tommies"), faces=[d10(1), d10(1)])
    assert state.units["rifles"].moved_this_turn
    assert not state.units["gruppe"].moved_this_turn


# --- a unit at its post is seen through its side only (s. 5 with s. 8 Medium terrain) ------------


def watched_from_behind():
    """Gruppe fires out of the house's south side at the Tommies; Jocks stand 10" north of the
    house, a little west, and a Sherman 20" north of it faces it."""
    state = street(
        make_unit("british", "Infantry Detachment", "allies", (38, 45), name="Jocks"),
        make_unit("british", "Sherman 75mm", "allies", (42.5, 55), name="Sherman", facing=270),
    )
    state, _ = act(state, "axis", "gruppe", Fire(target="tommies"), faces=[d10(1), d10(1)])
    state.active_side = "allies"
    return state


def test_a_unit_firing_out_is_hidden_by_its_building_from_those_behind_it_s5_s8():
    state = watched_from_behind()
    gruppe = state.units["gruppe"]
    assert gruppe.firing_post == BuildingPost(side="south") and gruppe.fired_this_turn
    assert can_see(state, state.units["tommies"], gruppe)  # in front of the south side
    assert not can_see(state, state.units["jocks"], gruppe)
    assert what_blocks(state, state.units["jocks"], gruppe) == ["the house (building)"]
    with pytest.raises(IllegalCommand, match="Jocks cannot see Gruppe"):
        declare(state, "allies", "jocks", Fire(target="gruppe"))
    # pushed back from its post, it is no longer at the window but somewhere inside, as before
    state.units["gruppe"].firing_post = BuildingPost(side="south", displaced=True)
    state.units["gruppe"].position = P(42.5, 32.5)
    assert can_see(state, state.units["jocks"], state.units["gruppe"])


def test_a_gun_that_cannot_see_the_unit_firing_out_may_shell_the_building_s5_buildings():
    state = watched_from_behind()
    in_front = state.model_copy(deep=True)
    in_front.units["sherman"].position, in_front.units["sherman"].facing = P(42.5, 5), 90.0
    with pytest.raises(IllegalCommand, match="Gruppe has fired out of house: fire at it instead"):
        declare(in_front, "allies", "sherman", ShellBuilding(building="house"))
    # one die at 20" to the building, a hit: a d6 for each of the three inside, medium HE marks on a 6
    faces = [d10(5), d6(6), d6(5), d6(6)]
    state, events = act(state, "allies", "sherman", ShellBuilding(building="house"), faces=faces)
    assert texts(events)[-4:] == [
        "Sherman fires HE at house: needs 5+; rolled 5: 1 hit (House Rules HR5.72)",
        "Gruppe, in house, rolls 6: 1 marker (House Rules HR5.72)",
        "MG, in house, rolls 5: unharmed (House Rules HR5.72)",
        "Rifles, in house, rolls 6: 1 marker (House Rules HR5.72)",
    ]


# --- a building on a hill (s. 8 Medium terrain) -----------------------------------------------------

KNOLL = box("knoll", "hill", 36, 26, 49, 39)  # under the whole house, and 4" south of it
WALL = TerrainFeature(
    id="wall", kind="wall", outline=(P(30, 25), P(55, 25)), linear=True, width=0.5, cover=CoverKind.COVER
)


def test_from_a_building_on_a_hill_one_looks_down_even_from_the_ground_floor_s8():
    on_the_hill = box("house", "building", 17, 7, 23, 13, building=True, storeys=1)
    state = battery(HILL, on_the_hill)
    state.units["hq"].in_building = "house"
    state, _ = act(state, "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    assert state.fire_markers[0].at == P(20, 40) and state.fire_markers[0].placed


def test_troops_in_a_building_on_a_hill_fire_over_troops_in_the_way_s8_seeing_through_units():
    state = street(
        make_unit("german", "Infantry Detachment", "axis", (42.5, 26), name="Friends"),
    )
    state.units["tommies"].fired_this_turn = True
    flat = state.model_copy(deep=True)
    state = state.model_copy(update={"terrain": (*state.terrain, KNOLL)})
    with pytest.raises(IllegalCommand, match="Friends is in the line of fire"):
        declare(flat, "axis", "gruppe", Fire(target="tommies"))  # the same ground floor, off the hill
    state, _ = declare(state, "axis", "gruppe", Fire(target="tommies"))  # on the knoll
    assert state.phase is Phase.REACTION


def test_from_a_one_storey_building_on_a_hill_one_sees_over_a_wall_s8():
    bungalow = HOUSE()  # one storey
    state = started(
        house(
            make_unit(
                "german", "Infantry Detachment", "axis", (42.5, 32.5), name="Gruppe", in_building="house"
            ),
            make_unit("british", "Infantry Detachment", "allies", (42.5, 18), name="Tommies"),
            terrain=[bungalow, KNOLL, WALL],
        ),
        "axis",
    )
    state.units["tommies"].moved_this_turn = True
    assert can_see(state, state.units["gruppe"], state.units["tommies"])
    flat = state.model_copy(update={"terrain": (bungalow, WALL)})
    assert not can_see(flat, flat.units["gruppe"], flat.units["tommies"])
