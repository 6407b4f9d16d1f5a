"""Unit data under the House Rules V1.0: the quick reference's German and British statistics
(``data/units.yaml`` in this package), and any unit of the 2015 lists seen the house rules' way.

A house unit is an ordinary :class:`UnitProfile` (so movement, geometry and the table work as
before) carrying :class:`HouseTraits`: troop type, move class, AP and HE class, and notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from engine.errors import IllegalCommand
from engine.profiles import Drive, Special, UnitClass, UnitProfile, find_profile
from engine.variants.house_v1.traits import (
    Experience,
    HEClass,
    HouseTraits,
    Motivation,
    MoveClass,
    TroopType,
)

HOUSE_DATA = Path(__file__).parent / "data"  # the quick reference's units
_VEHICLE_CLASS = {
    MoveClass.FAST: UnitClass.LIGHT,
    MoveClass.MEDIUM: UnitClass.MEDIUM,
    MoveClass.SLOW: UnitClass.HEAVY,
}
_ROLES = {"anti_tank_gun": Special.ANTI_TANK_GUN, "tripod_mg": Special.MG_TEAM, "mortar": Special.MORTAR}
MEDIUM_HE_FROM = 75  # s. 2: calibres in mm
TRANSPORT_MORALE = 2  # s. 3 Transports: a transport apart from its unit
HEAVY_HE_OVER = 100


def _profile(nation: str, row: dict[str, Any]) -> UnitProfile:
    notes = set(row.get("notes", []))
    traits = HouseTraits(
        troop_type=row["type"],
        move=row["move"],
        ap=row.get("ap"),
        he=row.get("he"),
        mg=row.get("mg", False),
        flamethrower=row.get("ft", False),
        second_ap=row.get("second_ap"),
        hull_gun=row.get("hull_gun", False),
        hull_mg=row.get("hull_mg", False),
        light_mortar=row.get("light_mortar", False),
        small="small" in notes,
        light="light" in notes,
        heavy="heavy" in notes,
        spotter="spotter" in notes,
    )
    vehicle = traits.troop_type.is_afv or traits.troop_type is TroopType.SOFT
    if vehicle:
        unit_class = _VEHICLE_CLASS[traits.move]
    else:
        unit_class = UnitClass.INFANTRY if traits.troop_type is TroopType.INFANTRY else UnitClass.SUPPORT
    specials = {_ROLES[row["role"]]} if "role" in row else set()
    specials |= {Special.TRANSPORT} if "transport" in notes else set()
    specials |= {Special.FLAMETHROWER} if traits.flamethrower else set()
    specials |= {Special.HEAVY} if traits.heavy else set()
    default_drive = (
        Drive.TRACKED
        if traits.troop_type.is_afv
        else Drive.WHEELED
        if vehicle
        else Drive.GUN
        if traits.troop_type is TroopType.SUPPORT_WHEELED
        else Drive.FOOT
    )
    core = find_profile(nation, row.get("core") or row["like"])
    armour = row.get("armour", [None, None])
    return UnitProfile(
        name=row["name"],
        nation=nation,
        unit_class=unit_class,
        armour_front=armour[0],
        armour_side=armour[1],
        weapon=_weapon_value(traits),
        morale=row["morale"],
        specials=frozenset(specials),
        points=core.points,
        break_points=core.break_points,
        drive=row.get("drive", default_drive),
        turret=row.get("turret", traits.troop_type.is_afv and traits.ap is not None),
        open_topped=traits.troop_type in (TroopType.OPEN_AFV, TroopType.SOFT),
        gun_shield=traits.troop_type is TroopType.SUPPORT_WHEELED,
        capacity=row.get("capacity", 0),
        house=traits,
    )


def _weapon_value(traits: HouseTraits) -> int | None:
    """The profile's weapon value, which the shared firing checks read only to know whether a
    unit fires at all: the AP rating; 0 for a unit with no AP rating but a machine gun or, like
    an OP, light weapons (s. 2); none for unarmed vehicles. The house fire rules read the traits."""
    if traits.ap is not None:
        return traits.ap
    return 0 if traits.mg or traits.troop_type is TroopType.SUPPORT_LIGHT else None


@cache
def _quick_reference() -> dict[str, Any]:
    return yaml.safe_load((HOUSE_DATA / "units.yaml").read_text(encoding="utf-8"))


@cache
def house_profiles(nation: str) -> tuple[UnitProfile, ...]:
    """The quick reference's units of one nation (German or British)."""
    raw = _quick_reference()
    listed = [name for name, entry in raw.items() if "units" in entry]
    if nation not in listed:
        raise KeyError(f"The house rules' quick reference has no {nation} units: only {', '.join(listed)}")
    return tuple(_profile(nation, row) for row in raw[nation]["units"])


def find_house_profile(nation: str, name: str) -> UnitProfile:
    for profile in house_profiles(nation):
        if profile.name.casefold() == name.casefold():
            return profile
    raise KeyError(f"The house rules' {nation} list has no unit called {name!r}")


def he_class_from_calibre(calibre: int) -> HEClass:
    """House Rules V1.0, s. 2: HE is light under 75mm, medium from 75mm to 100mm, heavy above."""
    if calibre < MEDIUM_HE_FROM:
        return HEClass.LIGHT
    return HEClass.MEDIUM if calibre <= HEAVY_HE_OVER else HEClass.HEAVY


def main_weapon(profile: UnitProfile) -> int | str | None:
    """The calibre of a 2015 unit's main gun, "mg" if a machine gun is its only weapon, or None
    for a unit with neither (``main_weapons`` in ``units.yaml``)."""
    return _quick_reference()["main_weapons"].get(profile.nation, {}).get(profile.name)


def has_hull_mg(profile: UnitProfile) -> bool:
    """Whether a 2015 unit the quick reference does not list has a hull-mounted MG (s. 5;
    ``hull_mgs`` in ``units.yaml``, with its sources)."""
    return profile.name in _quick_reference()["hull_mgs"].get(profile.nation, [])


def house_view(profile: UnitProfile) -> UnitProfile:
    """A 2015 profile under the house rules, as far as they say how (s. 2 and 4): light, medium
    and heavy vehicles become fast, medium and slow; the weapon value is the AP rating; scout
    cars are light and elite; heavy units stay heavy; HE by the calibre of the main gun, and
    none for towed anti-tank guns or mortars' direct fire (mortars have no AP rating either);
    light anti-aircraft guns are machine guns; hull MGs as the vehicle carried them."""
    if profile.house is not None:
        return profile
    if profile.is_vehicle:
        if profile.has(Special.TRANSPORT) and (profile.armour_front or 0) <= 7:
            troop = TroopType.SOFT
        else:
            troop = TroopType.OPEN_AFV if profile.open_topped else TroopType.ENCLOSED_AFV
        move = {v: k for k, v in _VEHICLE_CLASS.items()}[profile.unit_class]
    else:
        move = MoveClass.FOOT
        if profile.unit_class is UnitClass.INFANTRY:
            troop = TroopType.INFANTRY
        elif profile.has(Special.ANTI_TANK_GUN) or profile.has(Special.INFANTRY_GUN):
            troop = TroopType.SUPPORT_WHEELED
        elif profile.has(Special.SNIPER):
            troop = TroopType.SUPPORT_LIGHT
        else:
            troop = TroopType.SUPPORT_PORTABLE
    scout = profile.has(Special.SCOUT)
    weapon = main_weapon(profile)
    traits = HouseTraits(
        troop_type=troop,
        move=move,
        ap=None if profile.has(Special.MORTAR) else profile.weapon,
        he=he_class_from_calibre(weapon) if isinstance(weapon, int) else None,
        mg=profile.has(Special.MG_TEAM) or weapon == "mg",
        flamethrower=profile.has(Special.FLAMETHROWER),
        hull_mg=profile.is_vehicle and has_hull_mg(profile),
        light=scout or troop is TroopType.SUPPORT_LIGHT,
        heavy=profile.is_heavy,
        motivation=Motivation.ELITE if scout else Motivation.NORMAL,
    )
    return profile.model_copy(update={"house": traits, "morale": transport_morale(profile)})


def transport_morale(profile: UnitProfile) -> int | None:
    """House Rules V1.0, s. 3 Transports: once its unit is deployed, a transport has a morale
    value of its own, 2 (the 2015 transports have none); other units keep theirs. While it
    carries its unit the two are one, on the unit's morale (the markers go on the unit)."""
    return TRANSPORT_MORALE if profile.has(Special.TRANSPORT) else profile.morale


def house_equivalent(profile: UnitProfile) -> UnitProfile:
    """The quick reference's own entry for a 2015 unit where it has one (the entry whose 2015
    counterpart it is, with the same armour if two share it), else the 2015 unit seen the house
    way (:func:`house_view`)."""
    if profile.house is not None:
        return profile
    try:
        listed = house_profiles(profile.nation)
    except KeyError:
        return house_view(profile)
    raw = _quick_reference()[profile.nation]["units"]
    matches = [p for p, row in zip(listed, raw, strict=True) if row.get("core") == profile.name]
    same_armour = [
        p for p in matches if (p.armour_front, p.armour_side) == (profile.armour_front, profile.armour_side)
    ]
    chosen = (same_armour or matches or [None])[0]
    return chosen if chosen is not None else house_view(profile)


def quick_reference_entries(nation: str) -> dict[str, str]:
    """The quick reference's units of a nation, each with the 2015 order of battle entry it
    counts as for points, break points and the force rules (its ``core``, else its ``like``);
    none for a nation the quick reference leaves out."""
    rows = _quick_reference().get(nation, {}).get("units", [])
    return {row["name"]: row.get("core") or row["like"] for row in rows}


def troop_quality(profile: UnitProfile, quality: Sequence[str]) -> UnitProfile:
    """House Rules V1.0, s. 2 Troop quality: besides regular, a unit may be veteran or
    inexperienced, and elite or weak; one of each pair at most. Its effects are the house
    rules' own: tokens (s. 3), reactions and reactivations (s. 3), close combat (s. 6) and the
    Company Morale Test (s. 7). The house rules put no price on it, so points are unchanged."""
    traits = house_equivalent(profile).house
    assert traits is not None
    experiences = [Experience(q) for q in quality if q in (Experience.VETERAN, Experience.INEXPERIENCED)]
    motivations = [Motivation(q) for q in quality if q in (Motivation.ELITE, Motivation.WEAK)]
    unknown = [q for q in quality if q not in (*experiences, *motivations)]
    if unknown:
        raise IllegalCommand(f"{', '.join(unknown)} is not a troop quality: choose {', '.join(QUALITIES)}")
    if len(experiences) > 1 or len(motivations) > 1:
        raise IllegalCommand(
            "a unit is veteran or inexperienced, and elite or weak: one of each pair at most (s. 2)"
        )
    update: dict[str, Any] = {}
    if experiences:
        update["experience"] = experiences[0]
    if motivations:
        update["motivation"] = motivations[0]
    return house_equivalent(profile).model_copy(update={"house": traits.model_copy(update=update)})


def light_weapon_problem(name: str) -> str:
    """House Rules V1.0, s. 2 Light weapons: an infantry squad carries one extra weapon, an IAW
    or a light mortar; a squad bought with its light mortar takes no IAW."""
    return f"an {name} has its light mortar, and a squad carries an IAW or a light mortar, not both (s. 2)"


QUALITIES = (
    Experience.VETERAN.value,
    Experience.INEXPERIENCED.value,
    Motivation.ELITE.value,
    Motivation.WEAK.value,
)
