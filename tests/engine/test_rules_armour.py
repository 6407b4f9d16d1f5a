"""Armour penetration and damage (Iron Cross 2015, pp. 11-12, 18-20)."""

import pytest

from engine.rules.armour import (
    Damage,
    Penetration,
    armour_facing,
    armour_penetration,
    damage_result,
    damage_score,
    flamethrower_penetrates,
    kaboom_radius,
    screech_markers,
    weapon_can_exceed_armour,
)
from engine.rules.firing import Shot
from engine.scenarios.new_game import make_unit


def shot(firer, target, rng=20.0, **measured):
    return Shot(
        firer=firer,
        target=target,
        range=rng,
        firer_moved=False,
        firer_stationary=True,
        target_moved=False,
        **measured,
    )


PANTHER = make_unit("german", "Panther", "axis", (0, 0))
SHERMAN = make_unit("us", "Sherman 75mm", "allies", (0, 0))


def test_armour_front_and_side_p11():
    assert armour_facing(SHERMAN, "front") == 13
    assert armour_facing(SHERMAN, "side") == 11


def test_penetration_below_equal_above_p12():
    s = shot(PANTHER, SHERMAN)
    assert armour_penetration(2, 10, 13, s).outcome is Penetration.NONE
    assert armour_penetration(3, 10, 13, s).outcome is Penetration.EQUAL
    result = armour_penetration(6, 10, 13, s)
    assert result.outcome is Penetration.PENETRATED
    assert result.explanation == "6+10=16 vs 13"


def test_penetration_plus_one_within_6_inches_p12():
    result = armour_penetration(2, 10, 13, shot(PANTHER, SHERMAN, 6.0))
    assert (result.total, result.outcome) == (13, Penetration.EQUAL)


def test_natural_one_only_equals_p12():
    result = armour_penetration(1, 10, 9, shot(PANTHER, SHERMAN))
    assert result.outcome is Penetration.EQUAL


def test_infantry_contact_penetrates_on_10_p12():
    infantry = make_unit("german", "Infantry Detachment", "axis", (0, 0))
    tiger = make_unit("german", "Tiger I", "axis", (0, 0))
    contact = shot(infantry, tiger, 0.0)
    assert armour_penetration(10, 3, 14, contact).outcome is Penetration.PENETRATED
    assert armour_penetration(9, 3, 14, contact).outcome is Penetration.NONE
    assert weapon_can_exceed_armour(3, 17, contact)


def test_weapon_that_cannot_exceed_armour_does_nothing_p12():
    stuart = make_unit("us", "M5 Stuart", "allies", (0, 0))
    s = shot(stuart, PANTHER)
    assert not weapon_can_exceed_armour(6, 17, s)
    assert weapon_can_exceed_armour(6, 15, s)


@pytest.mark.parametrize(
    ("score", "damage"),
    [
        (0, Damage.NO_EFFECT),
        (1, Damage.RATTLED),
        (2, Damage.SMOKE_AND_SHRAPNEL),
        (3, Damage.SCREECH),
        (4, Damage.FOOM),
        (5, Damage.FOOM),
        (6, Damage.KABOOM),
    ],
)
def test_damage_table_p12(score, damage):
    assert damage_result(score) is damage


def test_damage_hull_down_minus_one_p12():
    assert damage_score(3, shot(PANTHER, SHERMAN, hull_down=True)) == (2, "d6 3 -1 hull down")


def test_damage_howitzer_plus_one_p19():
    stuh = make_unit("german", "StuH 42", "axis", (0, 0))
    assert damage_score(5, shot(stuh, SHERMAN))[0] == 6


def test_damage_flame_tank_plus_two_p18():
    croc = make_unit("us", "Sherman Crocodile", "allies", (0, 0))
    assert damage_score(2, shot(PANTHER, croc))[0] == 4


def test_damage_mg_and_mortar_halve_p19_p20():
    mg = make_unit("german", "MG Team", "axis", (0, 0))
    assert damage_score(6, shot(mg, SHERMAN)) == (3, "d6 6 halved to 3")
    assert damage_score(1, shot(mg, SHERMAN))[0] == 1


def test_screech_raises_markers_to_morale_or_destroys_p12():
    """p. 12: damaged vehicles take markers up to their morale; a vehicle with 4 markers that
    would take 3 more is destroyed."""
    assert screech_markers(SHERMAN.model_copy(update={"morale_markers": 1})) == 5
    assert screech_markers(SHERMAN.model_copy(update={"morale_markers": 2})) == 5
    assert screech_markers(SHERMAN.model_copy(update={"morale_markers": 4})) is None
    assert screech_markers(make_unit("us", "Truck/Jeep", "allies", (0, 0))) is None


def test_kaboom_radius_p12():
    assert kaboom_radius(False) == 12.0
    assert kaboom_radius(True) == 6.0


def test_flamethrower_penetrates_open_topped_on_2_p18():
    m10 = make_unit("us", "M10 Tank Destroyer", "allies", (0, 0))
    assert flamethrower_penetrates(m10, 2)
    assert not flamethrower_penetrates(m10, 1)
    assert not flamethrower_penetrates(SHERMAN, 6)
