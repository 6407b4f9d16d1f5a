"""The 2015 lists' units fielded under the House Rules V1.0: the HE class each gun implies
(s. 2), machine guns and light weapons that fire though they have no AP rating, and the crew a
transport's MG needs (s. 2), with scripted dice and exact outcomes."""

import pytest

from engine.commands import Fire
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.profiles import NATIONS, Special, UnitClass, find_profile, load_orbat
from engine.scenarios.new_game import make_unit
from engine.variants.house_v1.commands import Bombard, RequestFire
from engine.variants.house_v1.firing import transport_mg_crewed, vehicle_mg_bears
from engine.variants.house_v1.traits import HEClass
from engine.variants.house_v1.units import (
    _quick_reference,
    find_house_profile,
    house_equivalent,
    house_profiles,
)
from tests.engine.helpers import P, act, declare, fire_text, started
from tests.engine.test_house_rules_flow import house

ALL_UNITS = [(nation, profile.name) for nation in NATIONS for profile in load_orbat(nation).units]


def listed_by_the_quick_reference(profile):
    return any(entry is house_equivalent(profile) for entry in house_profiles_of(profile.nation))


def house_profiles_of(nation):
    try:
        return house_profiles(nation)
    except KeyError:
        return ()


@pytest.mark.parametrize("nation, name", ALL_UNITS)
def test_every_gun_armed_unit_of_the_2015_lists_has_the_he_its_gun_implies_s2(nation, name):
    profile = find_profile(nation, name)
    traits = house_equivalent(profile).house
    if profile.has(Special.ANTI_TANK_GUN):
        assert traits.he is None  # towed anti-tank guns fire at vehicles only
    elif profile.has(Special.MORTAR):
        assert traits.he is HEClass.MEDIUM and traits.ap is None  # indirect HE only
    elif profile.unit_class is UnitClass.INFANTRY or profile.has(Special.SNIPER):
        assert traits.he is None and not traits.mg
    elif profile.has(Special.MG_TEAM):
        assert traits.mg and traits.he is None
    elif profile.weapon is not None and not listed_by_the_quick_reference(profile):
        assert traits.he is not None or traits.mg, f"{name} has a weapon but neither HE nor a machine gun"


def test_the_main_weapons_table_names_only_units_of_the_2015_lists():
    for nation, weapons in _quick_reference()["main_weapons"].items():
        for name in weapons:
            assert load_orbat(nation).profile(name).name == name


@pytest.mark.parametrize(
    "nation, name, he, mg",
    [
        ("german", "Tiger II", HEClass.MEDIUM, False),  # 88mm
        ("german", "Jagdtiger", HEClass.HEAVY, False),  # 128mm
        ("german", "Sd.Kfz 123 Luchs", HEClass.LIGHT, False),  # 20mm
        ("german", "Flakvierling 38", None, True),  # a light AA gun is a machine gun
        ("british", "Cromwell IV", HEClass.MEDIUM, False),  # 75mm
        ("british", "Centaur Mk IV", HEClass.MEDIUM, False),  # a 95mm howitzer: medium, not heavy
        ("british", "Sherman Firefly", None, False),  # the quick reference gives it no HE
        ("us", "M8 HMC", HEClass.MEDIUM, False),  # a 75mm howitzer
        ("us", "M7 Priest", HEClass.HEAVY, False),  # 105mm
        ("us", "57mm Anti-tank Gun", None, False),
        ("us", "M20 Scout Car", None, True),
        ("soviet", "T-34/76", HEClass.MEDIUM, False),
        ("soviet", "T-34/85", HEClass.MEDIUM, False),
        ("soviet", "IS-II", HEClass.HEAVY, False),  # 122mm
        ("soviet", "T-70 Light Tank", HEClass.LIGHT, False),  # 45mm
        ("soviet", "BA64 Scout Car", None, True),
    ],
)
def test_he_classes_of_2015_units_by_their_guns_calibre_s2(nation, name, he, mg):
    traits = house_equivalent(find_profile(nation, name)).house
    assert (traits.he, traits.mg) == (he, mg)


def test_a_cromwell_fires_he_at_infantry_s2_s5():
    state = started(
        house(
            make_unit("british", "Cromwell IV", "allies", (30, 10), unit_id="cromwell", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (30, 30), unit_id="gruppe"),
        ),
        "allies",
    )
    # one die beyond 12"; medium HE in the open needs 4+ on the casualty throw
    state, events = act(state, "allies", "cromwell", Fire(target="gruppe"), faces=[d10(7), d6(4)])
    assert fire_text(events) == (
        'Cromwell IV fires high explosive (gun) at Infantry Detachment (17.0"): needs 5+; rolled 7: 1 hit; '
        "casualty throw (medium HE, open) 4+, rolled 4: 2 markers -> Infantry Detachment has 2 markers "
        "(House Rules HR5.7)"
    )


def test_a_light_aa_gun_fires_as_a_tripod_mg_two_dice_at_any_range_s2():
    state = started(
        house(
            make_unit("german", "Flakvierling 38", "axis", (50, 40), unit_id="flak", facing=270),
            make_unit("british", "Infantry Detachment", "allies", (50, 20), unit_id="tommies"),
        ),
        "axis",
    )
    faces = [d10(5), d10(6), d6(3), d6(1)]  # two hits; MG in the open 3+: one more marker
    state, events = act(state, "axis", "flak", Fire(target="tommies"), faces=faces)
    assert fire_text(events) == (
        'Flakvierling 38 fires machine gun (tripod MG) at Infantry Detachment (18.0"): needs 5+; '
        "rolled 5, 6: 2 hits; casualty throw (MG, open) 3+, rolled 3, 1: 2 markers -> "
        "Infantry Detachment has 2 markers (House Rules HR5.7)"
    )


def test_a_towed_anti_tank_gun_has_no_he_and_its_crew_fire_only_within_12_s2_s5():
    state = started(
        house(
            make_unit("us", "57mm Anti-tank Gun", "allies", (30, 10), unit_id="gun", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (30, 30), unit_id="gruppe"),
        ),
        "allies",
    )
    with pytest.raises(IllegalCommand, match="57mm Anti-tank Gun's support squad small arms cannot reach"):
        declare(state, "allies", "gun", Fire(target="gruppe"))
    state.units["gruppe"].position = P(30, 20)
    state, events = act(state, "allies", "gun", Fire(target="gruppe"), faces=[d10(5), d6(4)])
    assert fire_text(events).startswith(
        "57mm Anti-tank Gun fires small arms (support squad small arms) at Infantry Detachment"
    )
    assert state.units["gruppe"].morale_markers == 2


def test_a_us_mortar_fires_medium_he_at_the_marker_s2_s5():
    state = started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (20, 10), unit_id="hq", command=True),
            make_unit("us", "Mortar Team", "allies", (20, 2), unit_id="mortar", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (20, 40), unit_id="gruppe"),
        ),
        "allies",
    )
    state, _ = act(state, "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    # a direct hit: two medium HE dice on the squad under the marker, 4+ in the open
    state, events = act(state, "allies", "mortar", Bombard(), faces=[d10(10), d6(3), d6(4), d6(6)])
    assert state.units["gruppe"].morale_markers == 2
    state.units["mortar"].tokens = 0
    with pytest.raises(IllegalCommand, match="Mortar Team fires indirectly only"):
        declare(state, "allies", "mortar", Fire(target="gruppe"))


# --- light weapons and transports' machine guns (s. 2) ------------------------------------------


def observation_post():
    state = started(
        house(
            make_unit("british", "Sniper Team", "allies", (30, 10), unit_id="op", name="OP", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (30, 18), unit_id="gruppe"),
            make_unit("german", "Panther", "axis", (34, 22), unit_id="panther", facing=270),
        ),
        "allies",
    )
    state.units["op"].profile = find_house_profile("british", "OP team")
    return state


def test_an_op_fires_its_light_weapons_one_die_within_12_s2_s5():
    state = observation_post()
    # support squad small arms: one d10 within 12"; the infantry column in the open, 4+
    state, events = act(state, "allies", "op", Fire(target="gruppe"), faces=[d10(6), d6(2)])
    assert fire_text(events) == (
        'OP fires small arms (support squad small arms) at Infantry Detachment (6.0"): needs 5+; '
        "rolled 6: 1 hit; casualty throw (infantry, open) 4+, rolled 2: 1 marker -> "
        "Infantry Detachment has 1 marker (House Rules HR5.7)"
    )


def test_an_op_cannot_reach_beyond_12_nor_hurt_armour_s2_s5():
    state = observation_post()
    with pytest.raises(IllegalCommand, match="OP has no armour-piercing weapon"):
        declare(state, "allies", "op", Fire(target="panther"))
    state.units["gruppe"].position = P(30, 26)
    with pytest.raises(IllegalCommand, match="OP's support squad small arms cannot reach 14.0\""):
        declare(state, "allies", "op", Fire(target="gruppe"))


def halftrack():
    """An empty Sd.Kfz 251 facing a British section 7.5" off."""
    return started(
        house(
            make_unit("german", "251 Halftrack", "axis", (70, 30), unit_id="sdkfz", facing=270),
            make_unit("german", "Infantry Detachment", "axis", (90, 40), unit_id="gruppe", name="Gruppe"),
            make_unit(
                "british", "Infantry Detachment", "allies", (70, 20), unit_id="section", name="Section"
            ),
        ),
        "axis",
    )


def test_a_transports_mg_needs_a_crew_s2():
    state = halftrack()
    assert state.units["sdkfz"].profile.name == "Sdkfz 251 Halftrack"
    with pytest.raises(IllegalCommand, match="251 Halftrack's machine gun has no crew"):
        declare(state, "axis", "sdkfz", Fire(target="section"))


def test_a_transport_carrying_its_squad_fires_its_mg_as_a_turret_mg_one_die_s2_s5():
    state = halftrack()
    state.units["gruppe"].embarked_in = "sdkfz"
    state, events = act(state, "axis", "sdkfz", Fire(target="section"), faces=[d10(5), d6(3)])
    assert fire_text(events) == (
        '251 Halftrack fires machine gun (turret MG) at Section (7.5"): needs 5+; rolled 5: 1 hit; '
        "casualty throw (MG, open) 3+, rolled 3: 2 markers -> Section has 2 markers (House Rules HR5.7)"
    )


def test_an_infantry_squad_beside_the_transport_crews_its_mg_s2():
    state = halftrack()
    state.units["gruppe"].position = P(72.5, 30)  # 1" or less from the halftrack
    state, events = act(state, "axis", "sdkfz", Fire(target="section"), faces=[d10(2)])
    assert fire_text(events).endswith("rolled 2: miss (House Rules HR5.4)")
    state.units["gruppe"].position = P(75, 30)
    state.units["sdkfz"].tokens = 0
    with pytest.raises(IllegalCommand, match="has no crew"):
        declare(state, "axis", "sdkfz", Fire(target="section"))


@pytest.mark.parametrize(
    "carrying, nearest_squad, crewed",
    [(True, None, True), (False, 1.0, True), (False, 1.5, False), (False, None, False)],
)
def test_a_transports_mg_is_crewed_by_its_load_or_a_squad_beside_it_s2(carrying, nearest_squad, crewed):
    assert transport_mg_crewed(carrying=carrying, nearest_squad=nearest_squad) is crewed


@pytest.mark.parametrize(
    "turret_turn, off_centreline, bears",
    [
        (None, 45.0, True),  # a pintle or hull MG: 45 degrees either side of the centreline
        (None, 46.0, False),
        (90.0, 180.0, True),  # a turret turning 90 degrees does not count as moving
        (91.0, 180.0, False),
        (120.0, 30.0, True),  # the hull MG bears though the turret would have to turn too far
    ],
)
def test_which_vehicle_mg_bears_without_moving_s5(turret_turn, off_centreline, bears):
    assert vehicle_mg_bears(turret_turn=turret_turn, off_centreline=off_centreline) is bears
