"""Hull MGs (House Rules V1.0, s. 5 AFVs with multiple weapons) and light mortars (s. 2 and
s. 5 Light mortars) in a house game, with scripted dice and exact outcomes."""

import pytest

from engine.commands import Fire, Move
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.profiles import find_profile, load_orbat
from engine.scenarios.new_game import make_unit
from engine.variants.house_v1.commands import Bombard, RequestFire
from engine.variants.house_v1.units import _quick_reference, find_house_profile, house_equivalent
from tests.engine.helpers import P, act, declare, fire_text, started
from tests.engine.test_house_rules_flow import house

# --- hull MGs (s. 5) -----------------------------------------------------------------------------


def tanks():
    """A Sherman and a Firefly facing a German squad 7.5" ahead, and another off to the side."""
    return started(
        house(
            make_unit("british", "Sherman 75mm", "allies", (30, 10), unit_id="sherman", facing=90),
            make_unit("british", "Sherman Firefly", "allies", (40, 10), unit_id="firefly", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (30, 20.5), unit_id="ahead"),
            make_unit("german", "Infantry Detachment", "axis", (21, 10), unit_id="aside", name="Gruppe"),
        ),
        "allies",
    )


def test_a_hull_mg_fires_on_its_own_with_one_die_s5():
    state, events = act(
        tanks(), "allies", "sherman", Fire(target="ahead", weapon="hull_mg"), faces=[d10(6), d6(3)]
    )
    assert fire_text(events) == (
        'Sherman 75mm fires machine gun (hull MG) at Infantry Detachment (7.5"): needs 5+; rolled 6: 1 hit; '
        "casualty throw (MG, open) 3+, rolled 3: 2 markers -> Infantry Detachment has 2 markers "
        "(House Rules HR5.7)"
    )
    assert state.units["ahead"].morale_markers == 2


def test_a_vehicle_without_a_hull_mg_is_refused_it_s5():
    for weapon in ("hull_mg", "gun+hull_mg", "mg+hull_mg"):
        with pytest.raises(IllegalCommand, match="Sherman Firefly has no hull MG"):
            declare(tanks(), "allies", "firefly", Fire(target="ahead", weapon=weapon))


def test_a_hull_mg_alone_fires_only_45_degrees_either_side_of_the_hull_s5():
    with pytest.raises(IllegalCommand, match="Gruppe is outside Sherman 75mm's hull MG arc"):
        declare(tanks(), "allies", "sherman", Fire(target="aside", weapon="hull_mg"))


def test_the_hull_mg_joins_the_gun_at_a_target_within_its_reach_s5():
    faces = [
        *(d10(8), d10(2)),  # the gun's HE, two dice within 12", -1 for enemy infantry within 12": 1 hit
        d6(4),  # medium HE in the open 4+: 2 markers
        d10(5),  # the hull MG's one die: a hit
        d6(1),  # MG in the open 3+: 1 marker
    ]
    state, events = act(tanks(), "allies", "sherman", Fire(target="ahead", weapon="gun+hull_mg"), faces=faces)
    assert fire_text(events) == (
        'Sherman 75mm fires high explosive (gun) at Infantry Detachment (7.5"): needs 5+ (enemy infantry '
        'within 12" -1); rolled 8, 2: 1 hit; casualty throw (medium HE, open) 4+, rolled 4: 2 markers -> '
        "Infantry Detachment has 2 markers (House Rules HR5.7); with it, Sherman 75mm fires machine gun "
        '(hull MG) at Infantry Detachment (7.5"): needs 5+; rolled 5: 1 hit; casualty throw (MG, open) 3+, '
        "rolled 1: 1 marker -> Infantry Detachment has 3 markers (House Rules HR5.7)"
    )
    assert state.units["ahead"].morale_markers == 3


def test_a_hull_mg_that_cannot_bear_leaves_the_gun_to_fire_alone_s5():
    state, events = act(
        tanks(), "allies", "sherman", Fire(target="aside", weapon="mg+hull_mg"), faces=[d10(3)]
    )
    assert fire_text(events).endswith("rolled 3: miss (House Rules HR5.4); the hull MG cannot bear on Gruppe")


def test_the_hull_mg_table_names_only_afvs_of_the_2015_lists():
    for nation, names in _quick_reference()["hull_mgs"].items():
        for name in names:
            profile = load_orbat(nation).profile(name)
            assert profile.name == name and profile.is_vehicle and house_equivalent(profile).house.hull_mg


@pytest.mark.parametrize(
    "nation, name, hull_mg",
    [
        ("german", "Tiger II", True),
        ("german", "StuG III A-E", False),
        ("british", "Cromwell IV", True),
        ("british", "Churchill Crocodile", False),  # its flame projector took the hull MG's place
        ("us", "M24 Chaffee", True),
        ("us", "M10 Tank Destroyer", False),
        ("soviet", "T-34/85", True),
        ("soviet", "SU-85M Tank Destroyer", False),
    ],
)
def test_2015_units_have_the_hull_mg_they_carried_s5(nation, name, hull_mg):
    assert house_equivalent(find_profile(nation, name)).house.hull_mg is hull_mg


# --- light mortars (s. 2, s. 5) ------------------------------------------------------------------------

TWO_INCH = 'Infantry squad with 2" mortar'


def platoon():
    """A British company command and a section, each with a 2" mortar; Germans 30" and 8" off."""
    state = started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (20, 10), unit_id="hq", command=True),
            make_unit("british", "Infantry Detachment", "allies", (50, 10), unit_id="section"),
            make_unit("german", "Infantry Detachment", "axis", (20, 40), unit_id="far"),
            make_unit("german", "Infantry Detachment", "axis", (50, 20), unit_id="near", name="Gruppe"),
            make_unit("german", "Sd.Kfz 222", "axis", (60, 20), unit_id="car", facing=270),
        ),
        "allies",
    )
    for unit_id in ("hq", "section"):
        state.units[unit_id].profile = find_house_profile("british", TWO_INCH)
    return state


def test_the_quick_reference_2_inch_mortar_is_light_he_carried_by_a_squad_qr():
    squad = find_house_profile("british", TWO_INCH)
    assert squad.house.light_mortar and squad.house.troop_type == "infantry" and squad.house.he is None


def test_a_light_mortar_fires_direct_light_he_beyond_6_s5():
    faces = [
        *(d10(9), d10(4)),  # two dice within 12", as HE fire: one hit
        d6(5),  # light HE in the open needs 5 (the quick reference's 5+)
    ]
    state, events = act(
        platoon(), "allies", "section", Fire(target="near", weapon="light_mortar"), faces=faces
    )
    assert fire_text(events) == (
        'Infantry Detachment fires high explosive (light mortar) at Gruppe (8.0"): needs 5+; rolled 9, 4: '
        "1 hit; casualty throw (light HE, open) 5+, rolled 5: 2 markers -> Gruppe has 2 markers "
        "(House Rules HR5.7)"
    )


def test_light_mortar_direct_fire_refusals_s5():
    state = platoon()
    state.units["near"].position = P(50, 16)  # 4" off
    with pytest.raises(
        IllegalCommand, match='Gruppe is 4.0" away: a light mortar fires direct only beyond 6"'
    ):
        declare(state, "allies", "section", Fire(target="near", weapon="light_mortar"))
    state = platoon()
    with pytest.raises(IllegalCommand, match="may not move in the activation it fires its light mortar"):
        declare(
            state, "allies", "section", Move(path=(P(48, 8),)), Fire(target="near", weapon="light_mortar")
        )
    with pytest.raises(IllegalCommand, match="Infantry Detachment has no anti-tank weapon"):
        declare(state, "allies", "section", Fire(target="car", weapon="light_mortar"))
    state.units["section"].profile = find_house_profile("british", "Infantry squad")
    with pytest.raises(IllegalCommand, match="carries no light mortar"):
        declare(state, "allies", "section", Fire(target="near", weapon="light_mortar"))


def test_a_command_squads_light_mortar_joins_in_indirect_fire_with_light_he_s5():
    state, _ = act(platoon(), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    state.units["hq"].tokens = 0  # (spare the reactivation test)
    # a direct hit on the marker; light HE within 1": one die, 5+ in the open
    state, events = act(state, "allies", "hq", Bombard(), faces=[d10(10), d6(2), d6(5)])
    assert [e.text for e in events][-1] == (
        'Infantry Detachment (0.0" away, open) takes 1 light HE dice needing 5+: rolled 5: 1 marker '
        "(House Rules HR5.93)"
    )
    assert state.units["far"].morale_markers == 1


def test_light_mortar_indirect_fire_refusals_s5():
    state, _ = act(platoon(), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    with pytest.raises(IllegalCommand, match="fires indirectly only from a command squad with a radio"):
        declare(state, "allies", "section", Bombard())
    with pytest.raises(IllegalCommand, match="only if it neither moves nor fires in that activation"):
        declare(state, "allies", "hq", Move(path=(P(18, 10),)), Bombard())
    state.units["hq"].position = P(20, 25)
    with pytest.raises(IllegalCommand, match='is 14.0" from the marker: indirect fire needs 18" or more'):
        declare(state, "allies", "hq", Bombard())
