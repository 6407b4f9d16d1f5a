"""The four orders of battle (Iron Cross 2015, pp. 21-24) load and match the book."""

from __future__ import annotations

import pytest

from engine.profiles import (
    NATIONS,
    Availability,
    Drive,
    Special,
    UnitClass,
    find_profile,
    load_orbat,
)

ROW_COUNTS = {"german": 30, "british": 22, "us": 24, "soviet": 26}


@pytest.mark.parametrize("nation", NATIONS)
def test_every_nation_loads(nation: str) -> None:
    orbat = load_orbat(nation)
    assert orbat.nation == nation
    assert all(unit.nation == nation for unit in orbat.units)
    assert len(orbat.units) == ROW_COUNTS[nation]


@pytest.mark.parametrize("nation", NATIONS)
def test_unit_names_are_unique(nation: str) -> None:
    names = [unit.name.casefold() for unit in load_orbat(nation).units]
    assert len(names) == len(set(names))


@pytest.mark.parametrize(
    ("nation", "name", "cost", "weapon", "limit"),
    [
        ("german", "Panzerfaust/Panzerschreck", 8, 9, "all"),
        ("british", "PIAT", 5, 7, "half"),
        ("us", "Bazooka", 5, 7, "half"),
        ("soviet", "PTRD/PTRS", 3, 6, "half"),
    ],
)
def test_iaw_upgrade(nation: str, name: str, cost: int, weapon: int, limit: str) -> None:
    iaw = load_orbat(nation).iaw
    assert (iaw.name, iaw.cost, iaw.weapon, iaw.limit) == (name, cost, weapon, limit)


# (nation, name): (class, front, side, weapon, morale, points, break points)
SPOT_CHECKS = {
    ("german", "Tiger I"): (UnitClass.HEAVY, 17, 14, 10, 6, 102, 13),
    ("german", "Tiger II"): (UnitClass.HEAVY, 19, 15, 11, 6, 136, 17),
    ("german", "Jagdtiger"): (UnitClass.HEAVY, 19, 15, 11, 6, 163, 21),
    ("german", "Panzer III M (F1)"): (UnitClass.MEDIUM, 13, 10, None, 4, 46, 6),
    ("german", "Sd.Kfz 222"): (UnitClass.LIGHT, 10, 9, 4, 4, 16, 2),
    ("german", "Truck/Kubelwagen"): (UnitClass.LIGHT, 7, 7, None, None, 3, 0),
    ("german", "PaK40 Anti-tank Gun"): (UnitClass.SUPPORT, None, None, 9, 3, 30, 4),
    ("british", "Churchill Crocodile"): (UnitClass.HEAVY, 19, 15, 8, 5, 103, 13),
    ("british", "Sherman Firefly"): (UnitClass.MEDIUM, 13, 11, 10, 5, 64, 8),
    ("british", "Humber Mk IV"): (UnitClass.LIGHT, 9, 9, 6, 4, 20, 3),
    ("british", "17 Pdr Anti-tank Gun"): (UnitClass.SUPPORT, None, None, 10, 4, 49, 7),
    ("british", "M5 Stuart"): (UnitClass.LIGHT, 12, 9, 6, 4, 31, 4),
    ("us", "M7 Priest"): (UnitClass.HEAVY, 10, 10, 8, 5, 42, 6),
    ("us", "M26 Pershing"): (UnitClass.HEAVY, 16, 14, 10, 6, 97, 13),
    ("us", "M3 Halftrack/Dodge WC-51"): (UnitClass.LIGHT, 10, 9, 2, None, 7, 0),
    ("us", ".50 cal MG Team"): (UnitClass.SUPPORT, None, None, 2, 3, 26, 4),
    ("us", "M5 Stuart"): (UnitClass.LIGHT, 12, 9, 6, 5, 31, 4),
    ("soviet", "IS-II"): (UnitClass.HEAVY, 18, 16, 10, 6, 135, 17),
    ("soviet", "SU-152 Assault Gun"): (UnitClass.HEAVY, 13, 13, 9, 5, 66, 9),
    ("soviet", "BA64 Scout Car"): (UnitClass.LIGHT, 9, 9, 0, 4, 15, 2),
    ("soviet", "85mm Anti-tank Gun"): (UnitClass.SUPPORT, None, None, 9, 4, 40, 5),
    ("soviet", "Infantry Detachment"): (UnitClass.INFANTRY, None, None, 3, 5, 25, 4),
}


@pytest.mark.parametrize(("nation", "name"), list(SPOT_CHECKS))
def test_spot_check_numbers(nation: str, name: str) -> None:
    unit = load_orbat(nation).profile(name)
    got = (
        unit.unit_class,
        unit.armour_front,
        unit.armour_side,
        unit.weapon,
        unit.morale,
        unit.points,
        unit.break_points,
    )
    assert got == SPOT_CHECKS[(nation, name)]


def test_german_tiger_i_details() -> None:
    tiger = find_profile("german", "Tiger I")
    assert tiger.specials == {Special.HEAVY}
    assert tiger.drive is Drive.TRACKED
    assert tiger.turret and not tiger.open_topped
    assert tiger.availability is Availability.ANY
    assert tiger.is_heavy


def test_german_flak_and_halftracks() -> None:
    flak = find_profile("german", "Flakvierling 38")
    assert flak.specials == {Special.INFANTRY_GUN}
    assert flak.drive is Drive.GUN and flak.gun_shield
    command_ht = find_profile("german", "251/10 Halftrack")
    assert command_ht.weapon == 5 and command_ht.morale is None
    assert command_ht.drive is Drive.HALFTRACK and command_ht.open_topped
    assert not command_ht.turret
    assert find_profile("german", "Jagdtiger").specials == {
        Special.HEAVY,
        Special.HOWITZER,
        Special.RARE,
    }


def test_british_churchill_crocodile() -> None:
    croc = find_profile("british", "Churchill Crocodile")
    assert croc.weapon == 8
    assert croc.specials == {Special.FLAMETHROWER, Special.HEAVY, Special.RARE}
    assert croc.turret and croc.drive is Drive.TRACKED
    comet = find_profile("british", "A34 Comet")
    assert comet.availability is Availability.ONLY_1945
    assert comet.specials == {Special.RARE}
    stag = find_profile("british", "Staghound Mk II")
    assert stag.specials == {Special.INFANTRY_GUN, Special.RARE, Special.SCOUT}
    carrier = find_profile("british", "Bren Carrier")
    assert carrier.drive is Drive.TRACKED and carrier.open_topped and carrier.capacity == 1


def test_us_details() -> None:
    priest = find_profile("us", "M7 Priest")
    assert priest.armour_front == priest.armour_side == 10
    assert priest.specials == {Special.HEAVY, Special.HOWITZER, Special.RARE}
    assert priest.open_topped and not priest.turret
    assert find_profile("us", "Sherman Jumbo").availability is Availability.FROM_LATE_1944
    assert find_profile("us", "M26 Pershing").availability is Availability.ONLY_1945
    halftrack = find_profile("us", "M3 Halftrack/Dodge WC-51")
    assert halftrack.turret and halftrack.open_topped and halftrack.drive is Drive.HALFTRACK
    assert find_profile("us", ".50 cal MG Team").specials == {Special.MG_TEAM}


def test_soviet_85mm_gun_has_no_gun_shield() -> None:
    gun = find_profile("soviet", "85mm Anti-tank Gun")
    assert gun.specials == {Special.ANTI_TANK_GUN}
    assert gun.drive is Drive.GUN
    assert not gun.gun_shield
    assert find_profile("soviet", "76mm Anti-tank Gun").gun_shield
    assert find_profile("soviet", "57mm Anti-tank Gun").gun_shield


def test_anti_tank_guns_have_gun_shields_except_soviet_85mm() -> None:
    for nation in NATIONS:
        for unit in load_orbat(nation).units:
            if unit.has(Special.ANTI_TANK_GUN):
                assert unit.unit_class is UnitClass.SUPPORT
                assert unit.drive is Drive.GUN
                expected = (nation, unit.name) != ("soviet", "85mm Anti-tank Gun")
                assert unit.gun_shield is expected, unit.name


LEND_LEASE = ("Sherman 75mm", "Sherman 76mm", "M10 Tank Destroyer", "M5 Stuart")


def test_soviet_lend_lease_list() -> None:
    assert load_orbat("soviet").lend_lease == LEND_LEASE
    for nation in ("german", "british", "us"):
        assert load_orbat(nation).lend_lease == ()


@pytest.mark.parametrize("name", LEND_LEASE)
def test_lend_lease_profiles_resolve(name: str) -> None:
    unit = find_profile("soviet", name)
    assert unit.name == name
    assert unit.nation in ("us", "british")
    assert unit.is_vehicle


def test_find_profile_rejects_unknown_soviet_vehicle() -> None:
    with pytest.raises(KeyError):
        find_profile("soviet", "Sherman Firefly")


@pytest.mark.parametrize("nation", NATIONS)
def test_transports(nation: str) -> None:
    transports = [u for u in load_orbat(nation).units if u.has(Special.TRANSPORT)]
    assert len(transports) >= 2
    for unit in transports:
        assert unit.break_points == 0, unit.name
        assert unit.unit_class is UnitClass.LIGHT, unit.name
        assert unit.open_topped, unit.name
        expected = 2 if unit.name.startswith("Truck/") else 1
        assert unit.capacity == expected, unit.name
    for unit in load_orbat(nation).units:
        if not unit.has(Special.TRANSPORT):
            assert unit.capacity == 0, unit.name
            assert unit.break_points > 0, unit.name


@pytest.mark.parametrize("nation", NATIONS)
def test_flamethrowers_and_howitzers_are_heavy(nation: str) -> None:
    units = load_orbat(nation).units
    special_units = [u for u in units if u.has(Special.FLAMETHROWER) or u.has(Special.HOWITZER)]
    assert special_units
    assert all(u.is_heavy for u in special_units)
    team = load_orbat(nation).profile("Flamethrower Team")
    assert team.specials == {Special.FLAMETHROWER, Special.HEAVY, Special.RARE}
    assert team.drive is Drive.FOOT and team.weapon is None


def test_flame_panzer_iii_counts_as_heavy() -> None:
    flame = find_profile("german", "Panzer III M (F1)")
    assert Special.HEAVY not in flame.specials
    assert flame.is_heavy


@pytest.mark.parametrize("nation", NATIONS)
def test_support_teams(nation: str) -> None:
    orbat = load_orbat(nation)
    assert orbat.profile("MG Team").specials == {Special.MG_TEAM}
    assert orbat.profile("Mortar Team").specials == {Special.MORTAR}
    assert orbat.profile("Sniper Team").specials == {Special.SNIPER}
    infantry = orbat.profile("Infantry Detachment")
    assert infantry.unit_class is UnitClass.INFANTRY and infantry.drive is Drive.FOOT
    for unit in orbat.units:
        if not unit.is_vehicle:
            assert unit.armour_front is None and unit.armour_side is None
            assert not unit.turret and not unit.open_topped
            assert unit.drive in (Drive.FOOT, Drive.GUN)
        else:
            assert unit.drive not in (Drive.FOOT, Drive.GUN)
            assert not unit.gun_shield
