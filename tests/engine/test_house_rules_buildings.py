"""Firing out of buildings by side and storey (House Rules V1.0, s. 5 Firing from buildings) and
attacking buildings (s. 6 Attacking buildings), through the game flow with scripted dice."""

import pytest

from engine.commands import Declare, Fire, UnitOrder
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.rulesets import with_rule_set
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind, Going, Phase, TerrainFeature
from engine.variants.house_v1.commands import ChooseDefender, CloseCombat, EnterBuilding
from engine.variants.house_v1.posts import building_sides
from engine.variants.house_v1.state import BuildingPost
from tests.engine.helpers import P, act, box, declare, fire_text, game, play, started, texts


def house(*units, **kw):
    return with_rule_set(game(*units, sides={"allies": "british", "axis": "german"}, **kw), "house-v1")


def HOUSE(**kw):
    """A 5" square house with an upper storey: sides south (1), east (2), north (3), west (4)."""
    return box(
        "house", "building", 40, 30, 45, 35, going=Going.ROUGH, cover=CoverKind.COVER, building=True, **kw
    )


def street(*extra):
    """Germans in the house; British infantry 9" south of it and a squad 10" east of it."""
    return started(
        house(
            make_unit(
                "german", "Infantry Detachment", "axis", (42.5, 32.5), name="Gruppe", in_building="house"
            ),
            make_unit("german", "MG Team", "axis", (42.5, 32.5), name="MG", in_building="house"),
            make_unit(
                "german", "Infantry Detachment", "axis", (42.5, 32.5), name="Rifles", in_building="house"
            ),
            make_unit("british", "Infantry Detachment", "allies", (42.5, 20), name="Tommies"),
            make_unit("british", "Infantry Detachment", "allies", (56, 32.5), name="Section"),
            *extra,
            terrain=[HOUSE(storeys=2)],
        ),
        "axis",
    )


# --- a building's sides and storeys -------------------------------------------------------------


def test_a_buildings_sides_are_its_faces_named_by_the_compass_and_numbered_s5():
    sides = building_sides(HOUSE())
    assert [(s.number, s.name, s.middle, s.outward) for s in sides] == [
        (1, "south", P(42.5, 30), 270.0),
        (2, "east", P(45, 32.5), 0.0),
        (3, "north", P(42.5, 35), 90.0),
        (4, "west", P(40, 32.5), 180.0),
    ]
    clockwise = TerrainFeature(
        id="c", kind="building", building=True, outline=tuple(reversed(HOUSE().outline))
    )
    assert sorted(s.name for s in building_sides(clockwise)) == ["east", "north", "south", "west"]
    diamond = TerrainFeature(
        id="d", kind="building", building=True, outline=(P(10, 0), P(14, 4), P(10, 8), P(6, 4))
    )
    assert [s.name for s in building_sides(diamond)] == ["southeast", "northeast", "northwest", "southwest"]
    ell = TerrainFeature(  # an L: two faces look north, two east
        id="l", kind="building", building=True, outline=(P(0, 0), P(6, 0), P(6, 3), P(3, 3), P(3, 6), P(0, 6))
    )
    assert [s.name for s in building_sides(ell)] == [
        "south",
        "east-1",
        "north-1",
        "east-2",
        "north-2",
        "west",
    ]


# --- firing out -----------------------------------------------------------------------------------


def test_a_unit_inside_fires_out_of_the_side_facing_its_target_and_holds_that_post_s5():
    state = street()
    # from the middle of the south side (42.5, 30): 8" to the Tommies, two dice, in the open 4+
    state, events = act(state, "axis", "gruppe", Fire(target="tommies"), faces=[d10(5), d10(3), d6(4)])
    assert fire_text(events) == (
        'Gruppe fires small arms (infantry squad) at Tommies (8.0"): needs 5+; rolled 5, 3: 1 hit; '
        "casualty throw (infantry, open) 4+, rolled 4: 2 markers -> Tommies has 2 markers (House Rules HR5.7)"
    )
    assert texts(events)[-1] == "Gruppe fires out of house's south side, ground floor (House Rules HR5.32)"
    gruppe = state.units["gruppe"]
    assert gruppe.firing_post == BuildingPost(side="south", storey=0) and gruppe.position == P(42.5, 30)


def test_the_side_and_storey_may_be_named_by_compass_or_number_s5():
    state = street()
    fire = Fire(target="section", face="2", storey=1)
    _, events = declare(state, "axis", "gruppe", fire)
    assert "The Axis declare: Gruppe: fire at Section from side 2, storey 1" in texts(events)
    state, events = act(state, "axis", "gruppe", fire, faces=[d10(1), d10(1)])
    assert state.units["gruppe"].firing_post == BuildingPost(side="east", storey=1)
    assert state.units["gruppe"].position == P(45, 32.5)


@pytest.mark.parametrize(
    ("face", "storey", "problem"),
    [
        (
            "north",
            None,
            "Tommies is not within 45 degrees of straight out from the north side of house: "
            "fire from another side",
        ),
        ("east", None, "Tommies is not within 45 degrees of straight out from the east side of house"),
        ("up", None, "house has no side 'up': its sides are south, east, north and west"),
        ("south", 2, r"house has no storey 2: it has storeys 0 \(the ground floor\) to 1"),
    ],
)
def test_an_impossible_side_or_storey_is_refused_and_changes_nothing_s5(face, storey, problem):
    state = street()
    with pytest.raises(IllegalCommand, match=problem):
        declare(state, "axis", "gruppe", Fire(target="tommies", face=face, storey=storey))
    assert state.pending is None and state.sides["axis"].tokens == 10
    assert state.units["gruppe"].firing_post is None


def test_a_unit_outside_a_building_names_no_side_s5():
    state = street()
    state.units["gruppe"].fired_this_turn = True
    state.active_side = "allies"
    with pytest.raises(IllegalCommand, match="Tommies is not in a building: leave out the side and storey"):
        declare(state, "allies", "tommies", Fire(target="gruppe", face="north"))


def test_the_2015_rules_have_no_sides_and_storeys_to_fire_from():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (30, 10), name="GIs"),
            make_unit("german", "Infantry Detachment", "axis", (30, 20), name="Gren"),
        ),
        "allies",
    )
    with pytest.raises(
        IllegalCommand, match="Firing out of a building's side and storey is part of the House"
    ):
        declare(state, "allies", "gis", Fire(target="gren", storey=1))


def test_firing_out_of_another_side_later_in_the_turn_counts_as_moving_s5():
    state = street()
    state, _ = act(state, "axis", "gruppe", Fire(target="tommies"), faces=[d10(1), d10(1)])
    # reactivation (1 token: 2+), then out of the east side: -2 for moving to it, 7 and 6 -> one hit
    faces = [d6(2), d10(7), d10(6), d6(4)]
    state, events = act(state, "axis", "gruppe", Fire(target="section"), faces=faces)
    assert fire_text(events) == (
        'Gruppe fires small arms (infantry squad) at Section (9.0"): needs 5+ (firer moves this activation '
        "-2); rolled 7, 6: 1 hit; casualty throw (infantry, open) 4+, rolled 4: "
        "2 markers -> Section has 2 markers (House Rules HR5.7)"
    )
    assert state.units["gruppe"].firing_post == BuildingPost(side="east", storey=0)


def test_firing_again_from_the_post_it_holds_is_no_move_s5():
    state = street()
    state, _ = act(state, "axis", "gruppe", Fire(target="tommies"), faces=[d10(1), d10(1)])
    faces = [d6(2), d10(5), d10(4), d6(3)]  # reactivation; no -2 for moving: one hit
    state, events = act(state, "axis", "gruppe", Fire(target="tommies"), faces=faces)
    assert texts(events)[-1] == (
        'Gruppe fires small arms (infantry squad) at Tommies (8.0"): needs 5+; rolled 5, 4: 1 hit; '
        "casualty throw (infantry, open) 4+, rolled 3: 1 marker -> Tommies has 1 marker (House Rules HR5.7)"
    )  # and no new post taken


def test_taking_over_a_post_another_unit_holds_counts_as_moving_s5():
    state = street()
    state, _ = act(state, "axis", "gruppe", Fire(target="tommies"), faces=[d10(1), d10(1)])
    faces = [d10(7), d10(6), d6(1)]  # -2: 5 and 4, one hit; the casualty throw fails
    state, events = act(state, "axis", "rifles", Fire(target="tommies"), faces=faces)
    assert fire_text(events) == (
        'Rifles fires small arms (infantry squad) at Tommies (8.0"): needs 5+ (firer moves this activation '
        "-2); rolled 7, 6: 1 hit; casualty throw (infantry, open) 4+, rolled 1: 1 marker -> Tommies has "
        "1 marker (House Rules HR5.7)"
    )
    assert texts(events)[-2:] == [
        "Rifles takes over house's south side, ground floor from Gruppe (House Rules HR5.32)",
        "Rifles fires out of house's south side, ground floor (House Rules HR5.32)",
    ]
    assert state.units["gruppe"].firing_post == BuildingPost(side="south", storey=0, displaced=True)
    assert state.units["gruppe"].position == P(42.5, 32.5)  # back from the window
    # Gruppe, pushed back, would count as moving wherever it fires from again this turn
    faces = [d6(2), d10(7), d10(6), d6(1)]
    state, events = act(state, "axis", "gruppe", Fire(target="tommies"), faces=faces)
    assert "(firer moves this activation -2)" in fire_text(events)


def test_a_support_squad_may_not_fire_from_a_post_it_must_move_to_s4_s5():
    state = street()
    state.units["mg"].firing_post = BuildingPost(side="south")  # it fired from there this turn
    state.units["mg"].fired_this_turn = True
    with pytest.raises(IllegalCommand) as refused:
        declare(state, "axis", "mg", Fire(target="section"))
    assert str(refused.value) == (
        "MG is a support squad: it may move or fire in one activation, not both "
        "(firing from house's east side, ground floor counts as moving)"
    )
    state.units["gruppe"].firing_post = BuildingPost(side="east")
    state.units["mg"].firing_post = None  # nor replace a unit at its post
    with pytest.raises(IllegalCommand, match="MG is a support squad"):
        declare(state, "axis", "mg", Fire(target="section"))
    state, _ = declare(state, "axis", "mg", Fire(target="tommies"))  # the free south side it may take
    assert state.phase is Phase.REACTION


def test_posts_are_free_again_when_the_next_turn_begins_s5():
    state = street()
    state.sides["axis"].tokens, state.sides["allies"].tokens = 1, 0
    # the last token: no reaction; the end of turn: break point tests (allies, axis), initiative
    faces = [d10(1), d10(1), d6(1), d6(1), d6(6), d6(1)]
    order = UnitOrder(unit="gruppe", actions=(Fire(target="tommies"),))
    state, events = play(state, Declare(side="axis", order=order), *faces)
    assert "Gruppe fires out of house's south side, ground floor (House Rules HR5.32)" in texts(events)
    assert state.turn == 2 and state.phase is Phase.INITIATIVE
    assert state.units["gruppe"].firing_post is None


def test_a_target_must_be_seen_from_the_storey_fired_from_s5_s8():
    wall = TerrainFeature(
        id="wall", kind="wall", outline=(P(30, 25), P(55, 25)), linear=True, width=0.5, cover=CoverKind.COVER
    )
    state = street()
    state = state.model_copy(update={"terrain": (*state.terrain, wall)})
    state.units["tommies"].fired_this_turn = True  # seen at any range, but for the wall
    with pytest.raises(IllegalCommand) as refused:
        declare(state, "axis", "gruppe", Fire(target="tommies"))  # the ground floor by default
    assert str(refused.value) == "Tommies cannot be seen from house's south side, ground floor"
    state, _ = declare(state, "axis", "gruppe", Fire(target="tommies", storey=1))  # over the wall
    assert state.phase is Phase.REACTION


# --- attacking buildings (s. 6) -------------------------------------------------------------------


def assault_house(state, *faces):
    state.active_side = "allies"
    state.units["tommies"].position = P(42.5, 28)  # 1" from the south wall
    order = UnitOrder(unit="tommies", actions=(CloseCombat(target="gruppe"),))
    return play(state, Declare(side="allies", order=order), *faces)


def test_the_unit_firing_out_of_the_attacked_sides_ground_floor_must_defend_s6():
    state = street()
    state.units["mg"].firing_post, state.units["mg"].fired_this_turn = BuildingPost(side="south"), True
    state.units["gruppe"].firing_post = BuildingPost(side="north")  # not the side attacked
    faces = [
        d6(4),
        *[d10(1)] * 6,
    ]  # initiation passed; two rounds, the MG's one die and the two of the attackers
    state, events = assault_house(state, *faces)
    lines = texts(events)
    assert (
        "MG has been firing out of house's south side, ground floor: it must defend (House Rules HR6.7)"
        in lines
    )
    assert [line for line in lines if line.startswith("Round 1")] == [
        "Round 1: MG fires at Tommies: needs 5+; rolled 1: miss (House Rules HR6.7)",
        "Round 1: Tommies fires at MG: needs 5+; rolled 1, 1: miss (House Rules HR6.7)",
    ]


def test_with_the_enemy_only_upstairs_the_attackers_get_in_after_the_initiation_test_s6():
    state = street()
    for unit_id, side in (("gruppe", "south"), ("mg", "east"), ("rifles", "west")):
        state.units[unit_id].firing_post = BuildingPost(side=side, storey=1)
    state, events = assault_house(state, d6(4))
    assert texts(events)[-3:] == [
        "Tommies gets into house unopposed: the enemy holds only its upper storeys (House Rules HR6.7)",
        "Tommies goes into house",
        "The Allies are established in house: more units may follow through its south side "
        "(House Rules HR6.7)",
    ]
    assert state.units["tommies"].in_building == "house"
    # now both sides are inside: nobody fires out
    state.units["section"].fired_this_turn = True
    state.active_side = "axis"
    with pytest.raises(IllegalCommand, match="both sides are inside house: nobody fires out of it"):
        declare(state, "axis", "gruppe", Fire(target="section"))


def test_one_unit_downstairs_without_a_post_still_defends_s6():
    state = street()
    for unit_id in ("gruppe", "mg"):
        state.units[unit_id].firing_post = BuildingPost(side="south", storey=1)
    state, events = assault_house(state, d6(4), *[d10(1)] * 8)  # Rifles holds no post: a fight
    assert "gets into house unopposed" not in " ".join(texts(events))
    # the two upstairs cannot defend: Rifles, the only one below, does, whoever the attack named
    assert "Rifles is the one of them not holding an upper storey: it defends (House Rules HR6.7)" in texts(
        events
    )
    assert texts(events)[-1] == "Rifles holds: Tommies falls back to 42.5,24.5"  # 6" from contact


def test_the_defending_side_chooses_which_unit_inside_meets_the_assault_s6():
    state, events = assault_house(street(), d6(4))  # initiation passed; nobody holds a post
    assert state.phase is Phase.CHOICE
    assert state.pending.choice.kind == "building_defender" and state.pending.choice.side == "axis"
    assert state.pending.choice.options == ["gruppe", "mg", "rifles"]
    assert texts(events)[-1] == (
        "The Axis choose who defends house against Tommies: Gruppe, MG, Rifles (/choose unit:...) "
        "(House Rules HR6.7)"
    )
    with pytest.raises(IllegalCommand, match="The Axis make this choice"):
        play(state, ChooseDefender(side="allies", unit="mg"))
    with pytest.raises(IllegalCommand, match="Choose the unit that defends among Gruppe, MG, Rifles"):
        play(state, ChooseDefender(side="axis", unit="tommies"))
    # the MG team defends: one die to the attackers' two, for two rounds
    state, events = play(state, ChooseDefender(side="axis", unit="mg"), *[d10(1)] * 6)
    assert [line for line in texts(events) if line.startswith("Round 2")] == [
        "Round 2: MG fires at Tommies: needs 5+; rolled 1: miss (House Rules HR6.7)",
        "Round 2: Tommies fires at MG: needs 5+; rolled 1, 1: miss (House Rules HR6.7)",
    ]
    assert texts(events)[-1] == "MG holds: Tommies falls back to 42.5,24.5"
    assert state.phase is Phase.ACTIVE and state.pending is None


def test_later_attackers_enter_only_by_the_side_the_first_got_in_by_s6():
    state = street()
    state.active_side = "allies"
    state.units["section"].position = P(48, 32.5)  # 3" east of the house
    with pytest.raises(IllegalCommand, match="The enemy holds house: take it by close combat"):
        declare(state, "allies", "section", EnterBuilding(building="house"))
    for unit_id, side in (("gruppe", "south"), ("mg", "east"), ("rifles", "west")):
        state.units[unit_id].firing_post = BuildingPost(side=side, storey=1)
    state, _ = assault_house(state, d6(4))  # in by the south side, unopposed
    assert state.breaches == {"house": {"allies": "south"}}
    with pytest.raises(
        IllegalCommand,
        match="The Allies got into house by its south side: later units follow that way, not by the east",
    ):
        declare(state, "allies", "section", EnterBuilding(building="house"))
    state.units["section"].position = P(42.5, 27)  # 3" south of it
    state, events = act(state, "allies", "section", EnterBuilding(building="house"))
    assert texts(events)[-1] == "Section goes into house"
    assert state.units["section"].in_building == "house"


def test_once_its_attackers_are_gone_from_the_building_nobody_follows_them_in_s6():
    state = street()
    for unit_id, side in (("gruppe", "south"), ("mg", "east"), ("rifles", "west")):
        state.units[unit_id].firing_post = BuildingPost(side=side, storey=1)
    state, _ = assault_house(state, d6(4))
    state.units["tommies"].destroyed = True
    state.units["section"].position = P(42.5, 27)
    with pytest.raises(IllegalCommand, match="The enemy holds house: take it by close combat"):
        declare(state, "allies", "section", EnterBuilding(building="house"))
