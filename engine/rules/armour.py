"""Armour penetration, the damage table, hull down and Kaboom! (Iron Cross 2015, pp. 11-12, 18-20)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from engine.profiles import Special
from engine.rules.firing import POINT_BLANK, Shot
from engine.state import Unit


class Penetration(StrEnum):
    NONE = "none"  # below the armour: only the hit's marker
    EQUAL = "equal"  # equals the armour: one further marker
    PENETRATED = "penetrated"  # exceeds it: roll on the damage table


class Damage(StrEnum):
    NO_EFFECT = "no further effect"
    RATTLED = "Rattled"
    SMOKE_AND_SHRAPNEL = "Crew cabin filled with smoke and shrapnel"
    SCREECH = "Screech! Vehicle damaged"
    FOOM = "Foom! Vehicle destroyed"
    KABOOM = "Kaboom!"


@dataclass(frozen=True)
class PenetrationResult:
    outcome: Penetration
    total: int
    armour: int
    explanation: str


def armour_facing(target: Unit, aspect: str) -> int:
    """The armour value on the aspect hit: front, or side (which also serves rear and top) (p. 11)."""
    profile = target.profile
    value = profile.armour_front if aspect == "front" else profile.armour_side
    assert value is not None, f"{target.name} has no armour"
    return value


def weapon_can_exceed_armour(weapon: int, armour: int, shot: Shot) -> bool:
    """A hit on a vehicle only counts if the weapon could exceed its armour at all (p. 12).

    Contact attacks by infantry always penetrate on a 10, so they can always hurt.
    """
    if shot.contact and shot.firer.unit_class == "infantry":
        return True
    return weapon + 10 + (1 if shot.range <= POINT_BLANK else 0) > armour


def armour_penetration(roll: int, weapon: int, armour: int, shot: Shot) -> PenetrationResult:
    """Penetration (p. 12): d10 + weapon (+1 within 6") against the armour.

    Equal gives a further marker; more goes to the damage table. A natural 1 that beats the
    armour only equals it. An infantry detachment attacking a vehicle in contact penetrates
    on a natural 10.
    """
    point_blank = 1 if shot.range <= POINT_BLANK else 0
    total = roll + weapon + point_blank
    sum_text = f"{roll}+{weapon}" + ('+1 within 6"' if point_blank else "") + f"={total}"
    if shot.contact and shot.firer.unit_class == "infantry" and roll == 10:
        return PenetrationResult(Penetration.PENETRATED, total, armour, "a 10 in contact always penetrates")
    if total > armour and roll == 1:
        return PenetrationResult(
            Penetration.EQUAL, total, armour, f"{sum_text} vs {armour}: a natural 1 only equals"
        )
    if total > armour:
        outcome = Penetration.PENETRATED
    elif total == armour:
        outcome = Penetration.EQUAL
    else:
        outcome = Penetration.NONE
    return PenetrationResult(outcome, total, armour, f"{sum_text} vs {armour}")


def damage_roll_modifiers(shot: Shot) -> tuple[tuple[str, int], ...]:
    """Modifiers to the damage d6 (p. 12 hull down; p. 19 howitzer; p. 18 flame tank)."""
    mods: list[tuple[str, int]] = []
    if shot.firer.profile.has(Special.HOWITZER):
        mods.append(("howitzer", +1))
    if shot.target.profile.has(Special.FLAMETHROWER):
        mods.append(("flame tank", +2))
    if shot.hull_down:
        mods.append(("hull down", -1))
    return tuple(mods)


def damage_score(roll: int, shot: Shot) -> tuple[int, str]:
    """The final damage score and how it was reached (p. 12; MG and mortar halve, pp. 19-20).

    MG teams and mortars halve the d6 (rounded up, so their worst is a Screech!).
    """
    profile = shot.firer.profile
    score = roll
    text = f"d6 {roll}"
    if profile.has(Special.MG_TEAM) or profile.has(Special.MORTAR):
        score = math.ceil(roll / 2)
        text += f" halved to {score}"
    for name, value in damage_roll_modifiers(shot):
        score += value
        text += f" {value:+d} {name}"
    return min(score, 6), text


def damage_result(score: int) -> Damage:
    """The damage table (p. 12): 1 Rattled, 2 smoke and shrapnel, 3 Screech!, 4-5 Foom!, 6 Kaboom!.

    A score pushed below 1 by hull down has no further effect.
    """
    if score < 1:
        return Damage.NO_EFFECT
    return (
        Damage.RATTLED,
        Damage.SMOKE_AND_SHRAPNEL,
        Damage.SCREECH,
        Damage.FOOM,
        Damage.FOOM,
        Damage.KABOOM,
    )[score - 1]


def screech_markers(vehicle: Unit) -> int | None:
    """Screech! (p. 12): markers rise to the vehicle's morale rating; None means destroyed.

    If three more markers would take it past its morale (e.g. it already had 4 of 5), it
    counts as destroyed. Transports have no morale rating and are knocked out.
    """
    morale = vehicle.profile.morale
    if morale is None or vehicle.morale_markers + 3 > morale:
        return None
    return max(morale, vehicle.morale_markers)


def kaboom_radius(small_table: bool) -> float:
    """Kaboom! shakes friendly units within 12", or 6" on a 6' x 4' table (p. 12)."""
    return 6.0 if small_table else 12.0


def flamethrower_penetrates(target: Unit, roll: int) -> bool:
    """Flamethrowers penetrate open-topped and soft-skinned vehicles on 2+ (p. 18)."""
    return target.profile.open_topped and roll >= 2
