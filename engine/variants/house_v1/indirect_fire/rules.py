"""Indirect fire under the House Rules V1.0, s. 5 Indirect Fire: minimum ranges, requesting
fire, where each shot lands, who is hit, and with how many dice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.geometry import within
from engine.variants.house_v1.firing import HIT_SCORE
from engine.variants.house_v1.traits import HEClass

MORTAR_MINIMUM_RANGE = 18.0
GUN_MINIMUM_RANGE = 24.0
AFV_DIRECT_HIT = 1.0  # inches from the vehicle's centre
DEGREES_PER_D10_FACE = 45.0  # the eight faces that stray (2-9) spread evenly round the circle

EFFECT_BANDS = (1.0, 2.0, 3.0)  # inches from the effect marker: up to 1", 1-2", 2-3"
EFFECT_REACH = EFFECT_BANDS[-1]  # beyond this the distance table gives no dice
# band -> casualty dice by HE class
EFFECT_DICE: dict[HEClass, tuple[int, int, int]] = {
    HEClass.LIGHT: (1, 0, 0),
    HEClass.MEDIUM: (2, 1, 0),
    HEClass.HEAVY: (2, 2, 1),
}


def minimum_range(mortar: bool) -> float:
    """Mortars fire indirectly from 18" out, infantry guns and howitzers from 24"."""
    return MORTAR_MINIMUM_RANGE if mortar else GUN_MINIMUM_RANGE


def request_fire_succeeds(rolls: Sequence[int], modifier: int) -> bool:
    """Request fire: the spotter's to-hit throw with one d10; a later try at the same spot in
    the same turn throws two and keeps the best."""
    return max(rolls) + modifier >= HIT_SCORE


@dataclass(frozen=True)
class Landing:
    """Where a shot falls: it failed, hit the marker, or strayed ``inches`` toward ``bearing``."""

    failed: bool = False
    direct_hit: bool = False
    inches: int = 0
    bearing: float = 0.0  # degrees, 0 toward the far edge, clockwise


def landing(d10: int, d6s: Sequence[int]) -> Landing:
    """A shot at the marker: a d10 of 1 fails and 10 is a direct hit; otherwise it strays the
    d6 in inches (on a unit's later shots, the difference of two d6), in the direction the
    d10's face gives: faces 2 to 9 an eighth of the circle each, from the x axis (our reading)."""
    if d10 == 1:
        return Landing(failed=True)
    if d10 == 10:
        return Landing(direct_hit=True)
    inches = d6s[0] if len(d6s) == 1 else abs(d6s[0] - d6s[1])
    return Landing(inches=inches, bearing=(d10 - 2) * DEGREES_PER_D10_FACE)


def effect_dice(he: HEClass, distance: float) -> int:
    """s. 5 Indirect fire: the casualty dice for the unit nearest the effect marker, by HE class
    and the band its distance falls in (up to 1", 1-2", 2-3"); a distance on a band's edge is in
    that band however the landing spot rounded (:func:`geometry.within`)."""
    band = next((i for i, edge in enumerate(EFFECT_BANDS) if within(distance, edge)), None)
    return 0 if band is None else EFFECT_DICE[he][band]


def afv_destroyed_by_direct_hit(rolls: Sequence[int], *, open_topped: bool, he: HEClass) -> bool:
    """Hits on AFVs: a double six destroys an open-topped (or soft) vehicle hit directly; light
    HE, throwing one die, needs a second 6 after the first."""
    if not open_topped:
        return False
    if he is HEClass.LIGHT:
        return len(rolls) >= 2 and rolls[0] == 6 and rolls[1] == 6
    return sum(1 for roll in rolls if roll == 6) >= 2


def building_collateral_marker(roll: int, he: HEClass) -> bool:
    """s. 5 Buildings: each other unit in a building hit by HE takes a marker on a 6 (medium)
    or 5-6 (heavy); light HE does nothing to a building's occupants."""
    if he is HEClass.LIGHT:
        return False
    return roll >= (5 if he is HEClass.HEAVY else 6)
