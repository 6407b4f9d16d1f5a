"""Direct fire under the House Rules V1.0, s. 5 (and the quick reference, QR): fire
categories, ranges, the to-hit dice and modifiers, armour penetration with double hits, the
damage table, the frontal arc, and the casualty throw."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.event_data import ToHit
from engine.firing.aiming import HULL_GUN_ARC
from engine.variants.house_v1.traits import HEClass
from engine.wording import counted

HIT_SCORE = 5  # s. 5: each modified d10 of 5 or more hits
CLOSE_RANGE = 12.0
FRONT_ARC = 60.0  # s. 5: degrees either side of the vehicle's frontal centreline
MOUNT_ARC = 45.0  # s. 5 Arc of fire: either side of the centreline, pintle mounts and heavy weapons
TURRET_FREE_TURN = 90.0  # s. 5: a turret or rotary mount turns this far without counting as moving
EXPLOSION_RADIUS = 6.0  # s. 5, damage 6


class FireCategory(StrEnum):
    """s. 5: every direct shot is one of these."""

    SMALL_ARMS = "small arms"
    MG = "machine gun"
    AP = "armour-piercing"
    HE = "high explosive"
    FLAMETHROWER = "flamethrower"


class Weapon(StrEnum):
    """What fires, for the number of to-hit dice and the range (s. 5 and QR)."""

    INFANTRY_SQUAD = "infantry squad"  # its light weapons
    GUN = "gun"  # AP or HE from a vehicle or a wheeled heavy weapon
    TRIPOD_MG = "tripod MG"
    TURRET_MG = "turret MG"  # coaxial or turret machine gun
    SNIPER = "sniper"
    HULL_MG = "hull MG"
    IAW = "infantry anti-tank weapon"
    VEHICLE_FLAMETHROWER = "vehicle flamethrower"
    MAN_PACK_FLAMETHROWER = "man-pack flamethrower"
    SUPPORT_SMALL_ARMS = "support squad small arms"
    LIGHT_MORTAR = "light mortar"  # direct HE from an infantry squad's light mortar


# s. 5 Ranges (None: unlimited). The QR gives a man-pack flamethrower 4"; the house rules
# themselves, which we follow, say 6".
MAX_RANGE: dict[Weapon, float | None] = {
    Weapon.IAW: 8.0,
    Weapon.MAN_PACK_FLAMETHROWER: 6.0,
    Weapon.VEHICLE_FLAMETHROWER: 8.0,
    Weapon.SUPPORT_SMALL_ARMS: 12.0,
    Weapon.HULL_MG: 12.0,
}

# QR to-hit table: dice within 12", and beyond 12"
TO_HIT_DICE: dict[Weapon, tuple[int, int]] = {
    Weapon.INFANTRY_SQUAD: (2, 1),
    Weapon.GUN: (2, 1),
    Weapon.TRIPOD_MG: (2, 2),
    Weapon.TURRET_MG: (1, 1),
    Weapon.SNIPER: (1, 1),
    Weapon.HULL_MG: (1, 1),
    Weapon.IAW: (2, 2),
    Weapon.VEHICLE_FLAMETHROWER: (2, 2),
    Weapon.MAN_PACK_FLAMETHROWER: (2, 2),
    Weapon.SUPPORT_SMALL_ARMS: (1, 1),
    Weapon.LIGHT_MORTAR: (2, 1),  # s. 5 Light mortars: the normal direct HE fire
}
LIGHT_MORTAR_DIRECT_BEYOND = 6.0  # s. 5 Light mortars: direct HE only at targets over 6"
LIGHT_MORTAR_OVERSHOOT_CLEAR = 3.0  # s. 5 Light mortars: friends this far from the target are fired over


def in_range(weapon: Weapon, distance: float) -> bool:
    """s. 5 Ranges: most weapons reach any distance; IAWs 8", man-pack flamethrowers 6",
    vehicle flamethrowers 8", support squads' small arms and hull MGs 12" (snipers unlimited)."""
    limit = MAX_RANGE.get(weapon)
    return limit is None or distance <= limit


def light_mortar_reaches(distance: float) -> bool:
    """s. 5 Light mortars: a light mortar fires direct HE only at targets more than 6" away."""
    return distance > LIGHT_MORTAR_DIRECT_BEYOND


def fixed_gun_bears(off_centreline: float) -> bool:
    """s. 5 Arc of fire: a fixed vehicle-mounted weapon fires only dead ahead, read as the 2015
    hull-mounted gun's arc (p. 11, :data:`HULL_GUN_ARC`, half of it each side), as a StuG's. The
    Grant's 75mm is one: a hull (sponson) mount, though its 37mm turns in a turret (s. 5 AFVs with
    multiple weapons)."""
    return off_centreline <= HULL_GUN_ARC / 2


def hull_mg_bears(off_centreline: float) -> bool:
    """s. 5 AFVs with multiple weapons: a hull MG fires as a pintle mount, 45 degrees either side
    of the vehicle's centreline (s. 5 Arc of fire)."""
    return off_centreline <= MOUNT_ARC


def to_hit_dice(weapon: Weapon, distance: float) -> int:
    """s. 5 The to-hit throw: two d10 up to 12" and one beyond; support squads' small arms,
    snipers and hull MGs one; tripod MGs two at any range (QR table)."""
    close, far = TO_HIT_DICE[weapon]
    return close if distance <= CLOSE_RANGE else far


class Cover(StrEnum):
    OPEN = "open"
    LESSER = "lesser cover"
    HALF = "50% cover"  # or a tank hull down


@dataclass(frozen=True)
class FireSituation:
    """What the to-hit modifiers depend on."""

    category: FireCategory
    firer_markers: int = 0
    firer_moves: bool = False  # moves in this activation, or turns its turret over 90 degrees
    target_moved: bool = False  # this turn, so far
    enemy_infantry_near: bool = False  # unscreened enemy infantry within 12" of the firer
    cover: Cover = Cover.OPEN
    sniper: bool = False


def to_hit_modifiers(situation: FireSituation) -> tuple[tuple[str, int], ...]:
    """s. 5 modifier table: -1 per marker on the firer and -2 if it moves, for every category;
    for AP and HE also -1 for a target that moved this turn, -1 for enemy infantry within 12"
    (unless friendly infantry is as close), -2 for 50% cover or hull down and -1 for lesser
    cover; small arms +1 for a sniper."""
    found: list[tuple[str, int]] = []
    if situation.firer_markers:
        markers = situation.firer_markers
        found.append((f"{counted(markers, 'morale marker')} on the firer", -markers))
    if situation.firer_moves:
        found.append(("firer moves this activation", -2))
    if situation.category in (FireCategory.AP, FireCategory.HE):
        if situation.target_moved:
            found.append(("target moved this turn", -1))
        if situation.enemy_infantry_near:
            found.append(('enemy infantry within 12"', -1))
        if situation.cover is Cover.HALF:
            found.append(("target in 50% cover or hull down", -2))
        elif situation.cover is Cover.LESSER:
            found.append(("target in lesser cover", -1))
    if situation.sniper and situation.category is FireCategory.SMALL_ARMS:
        found.append(("sniper", +1))
    return tuple(found)


def describe_throw(modifiers: Sequence[tuple[str, int]], rolls: Sequence[int], scored: int) -> str:
    """The to-hit throw in words: what it needs and why, the dice, and the hits."""
    detail = ", ".join(f"{name} {value:+d}" for name, value in modifiers)
    outcome = counted(scored, "hit") if scored else "miss"
    needs = f"needs {HIT_SCORE}+" + (f" ({detail})" if detail else "")
    return f"{needs}; rolled {', '.join(map(str, rolls))}: {outcome}"


def hits(rolls: Sequence[int], modifier: int) -> int:
    """s. 5: each d10 that scores 5 or more after the modifiers is a hit."""
    return sum(1 for roll in rolls if roll + modifier >= HIT_SCORE)


def to_hit_throw(modifiers: Sequence[tuple[str, int]], rolls: Sequence[int]) -> ToHit:
    """s. 5: the to-hit throw as data, the score each die needs once the modifiers are counted."""
    total = sum(value for _, value in modifiers)
    return ToHit(
        needed=HIT_SCORE - total, modifiers=tuple(modifiers), rolls=tuple(rolls), hits=hits(rolls, total)
    )


# --- armour-piercing fire --------------------------------------------------------------------


class Penetration(StrEnum):
    NO_EFFECT = "no effect"  # armour far too thick: not even a marker
    ONE_MARKER = "one marker"
    TWO_MARKERS = "two markers"
    DAMAGE = "damage throw"


def armour_too_thick(ap: int, armour: int, distance: float) -> bool:
    """s. 5 Armour penetration: no marker at all if the armour is 9 or more above the AP value,
    or 11 or more under 12"."""
    return armour - ap >= (11 if distance < CLOSE_RANGE else 9)


def armour_penetration(ap: int, armour: int, distance: float, roll: int, *, double_hit: bool) -> Penetration:
    """s. 5 Armour penetration, after at least one hit: one marker; then d10 + AP (+2 for a
    double hit): equal to the armour a second marker, above it the damage throw."""
    if armour_too_thick(ap, armour, distance):
        return Penetration.NO_EFFECT
    total = roll + ap + (2 if double_hit else 0)
    if total == armour:
        return Penetration.TWO_MARKERS
    return Penetration.DAMAGE if total > armour else Penetration.ONE_MARKER


class Damage(StrEnum):
    ONE_MARKER = "1 marker"
    TWO_MARKERS = "2 markers"
    SHAKEN = "3 markers or its morale value"
    DESTROYED = "destroyed"
    EXPLOSION = "explosion"


def damage_score(roll: int, *, heavy_he: bool, machine_gun: bool) -> int:
    """s. 5 Damage throw: d6, +1 for a heavy HE weapon; the QR halves a machine gun's score,
    rounding up."""
    score = roll + (1 if heavy_he else 0)
    return math.ceil(score / 2) if machine_gun else score


def damage_result(score: int) -> Damage:
    """s. 5 damage table: 1 one marker, 2 two, 3 the higher of three or the vehicle's morale,
    4-5 destroyed, 6 (or more) explodes: a marker on every friendly unit within 6"."""
    if score <= 1:
        return Damage.ONE_MARKER
    if score == 2:
        return Damage.TWO_MARKERS
    if score == 3:
        return Damage.SHAKEN
    return Damage.DESTROYED if score <= 5 else Damage.EXPLOSION


def damage_markers(result: Damage, morale: int) -> int:
    """Markers a damage result puts on the vehicle (the table's first three rows)."""
    return {Damage.ONE_MARKER: 1, Damage.TWO_MARKERS: 2, Damage.SHAKEN: max(3, morale)}.get(result, 0)


def vehicle_mg_bears(*, turret_turn: float | None, off_centreline: float) -> bool:
    """s. 5 Arc of fire, for a vehicle's MG that must fire without moving (s. 6): a turret's
    (or rotary mount's) MG bears if the turret turns no more than 90 degrees to it
    (``turret_turn``, None for a vehicle without one); a pintle or hull MG, which fires as a
    pintle mount, 45 degrees either side of the vehicle's centreline."""
    turret = turret_turn is not None and turret_turn <= TURRET_FREE_TURN
    return turret or off_centreline <= MOUNT_ARC


def on_front_armour(bearing_from_front: float) -> bool:
    """s. 5 Frontal or side armour: a firer within 60 degrees of the vehicle's frontal
    centreline hits the front armour."""
    return abs(bearing_from_front) <= FRONT_ARC


# --- the casualty throw ------------------------------------------------------------------------


class CasualtyWeapon(StrEnum):
    """The columns of the casualty table (s. 5)."""

    INFANTRY = "infantry"  # small arms
    MG = "MG"
    FLAMETHROWER = "flamethrower"
    LIGHT_HE = "light HE"
    MEDIUM_HE = "medium HE"
    HEAVY_HE = "heavy HE"


class Protection(StrEnum):
    OPEN = "open"
    COVER = "cover"  # walls, dense hedges, ditches
    DEFENCES = "defences"  # dug-in troops and prepared defences


CASUALTY_TABLE: dict[Protection, dict[CasualtyWeapon, int]] = {
    Protection.OPEN: dict(zip(CasualtyWeapon, (4, 3, 3, 5, 4, 3), strict=True)),
    Protection.COVER: dict(zip(CasualtyWeapon, (5, 5, 3, 5, 4, 3), strict=True)),
    Protection.DEFENCES: dict(zip(CasualtyWeapon, (6, 6, 3, 6, 5, 5), strict=True)),
}

HE_COLUMN = {
    HEClass.LIGHT: CasualtyWeapon.LIGHT_HE,
    HEClass.MEDIUM: CasualtyWeapon.MEDIUM_HE,
    HEClass.HEAVY: CasualtyWeapon.HEAVY_HE,
}


def casualty_score_needed(weapon: CasualtyWeapon, protection: Protection) -> int:
    """s. 5 casualty table: the d6 score each extra marker needs."""
    return CASUALTY_TABLE[protection][weapon]


def casualty_markers(hits_scored: int, rolls: Sequence[int], needed: int) -> int:
    """s. 5 Casualty throw: one marker for any hit, and one more for each d6 (one per hit) that
    reaches the table's score."""
    if hits_scored == 0:
        return 0
    return 1 + sum(1 for roll in rolls if roll >= needed)


def flamethrower_destroys(hits_scored: int, *, soft_or_open_topped: bool) -> bool:
    """s. 5 Flamethrowers: two hits destroy a soft-skinned or open-topped vehicle outright."""
    return soft_or_open_topped and hits_scored >= 2


# --- machine guns on transports -----------------------------------------------------------------

CREW_ADJACENT = 1.0  # inches: an infantry squad "adjacent" to the vehicle (our reading)


def transport_mg_crewed(*, carrying: bool, nearest_squad: float | None) -> bool:
    """s. 2 Vehicle mounted weapons: the MG of a transport like the Sd Kfz 251 fires only with a
    crew: while the vehicle carries its infantry or support squad, or with an infantry squad
    adjacent to it (``nearest_squad``: inches to the nearest friendly one, if any)."""
    return carrying or (nearest_squad is not None and nearest_squad <= CREW_ADJACENT)
