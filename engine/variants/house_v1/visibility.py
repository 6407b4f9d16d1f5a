"""Observation under the House Rules V1.0, s. 8: how far a static, silent unit can be seen, what
terrain of each height hides from whom, and firing through other units."""

from __future__ import annotations

from enum import StrEnum

from engine.profiles import Special, UnitProfile
from engine.state import TerrainHeight
from engine.variants.house_v1.traits import HouseTraits, TroopType

SPOTTER_BONUS = 6.0


class Seen(StrEnum):
    """The rows of the observation table."""

    INFANTRY = "infantry"
    SNIPER = "sniper"
    HEAVY_WEAPONS = "heavy weapons"  # dismounted support squads but snipers, flamethrowers, OPs
    SMALL_VEHICLE = "small or hull-down vehicle"
    OTHER_VEHICLE = "other vehicle"


# (in the open, in cover); None is unlimited
OBSERVATION: dict[Seen, tuple[float | None, float | None]] = {
    Seen.INFANTRY: (24.0, 6.0),
    Seen.SNIPER: (4.0, 1.0),
    Seen.HEAVY_WEAPONS: (None, 12.0),
    Seen.SMALL_VEHICLE: (None, 12.0),
    Seen.OTHER_VEHICLE: (None, 24.0),
}


def observation_distance(seen: Seen, *, in_cover: bool, spotter: bool = False) -> float | None:
    """s. 8: the furthest a static unit that is not firing can be observed; a unit with the
    Spotter function sees 6" further. None: no limit but line of sight."""
    limit = OBSERVATION[seen][1 if in_cover else 0]
    if limit is None:
        return None
    return limit + (SPOTTER_BONUS if spotter else 0.0)


def can_observe(
    distance: float, seen: Seen, *, in_cover: bool, moved_or_fired: bool, spotter: bool = False
) -> bool:
    """s. 8: units that move or fire are seen wherever there is line of sight (for a sniper: once
    it has rapid moved, or been revealed); static ones only within the table's distance."""
    if moved_or_fired:
        return True
    limit = observation_distance(seen, in_cover=in_cover, spotter=spotter)
    return limit is None or distance <= limit


def observed_as(profile: UnitProfile, traits: HouseTraits, *, hull_down: bool) -> Seen:
    """The observation table's row for a unit (s. 8): heavy weapons are the dismounted support
    squads but snipers, flamethrowers and OPs (which we read as seen like infantry); the small
    vehicles are those the quick reference marks small, and any vehicle hull down."""
    if profile.has(Special.SNIPER):
        return Seen.SNIPER
    if not profile.is_vehicle:
        heavy = traits.troop_type in (TroopType.SUPPORT_PORTABLE, TroopType.SUPPORT_WHEELED)
        return Seen.HEAVY_WEAPONS if heavy and not traits.flamethrower else Seen.INFANTRY
    return Seen.SMALL_VEHICLE if traits.small or hull_down else Seen.OTHER_VEHICLE


# s. 8 Blocking terrain: the height of each kind of terrain piece, unless the table says otherwise
HEIGHT_OF_KIND: dict[str, TerrainHeight] = {
    "hedge": TerrainHeight.LOW,
    "wall": TerrainHeight.LOW,
    "building": TerrainHeight.MEDIUM,
    "woods": TerrainHeight.MEDIUM,
    "trees": TerrainHeight.MEDIUM,
    "orchard": TerrainHeight.MEDIUM,
    "hill": TerrainHeight.MEDIUM,
    "low_hill": TerrainHeight.MEDIUM,
    "steep_hill": TerrainHeight.HIGH,
    "tower": TerrainHeight.HIGH,
}
HILLS = ("hill", "low_hill", "steep_hill")  # ground a unit stands on to look down from
ADJACENT = 1.0  # inches: "directly adjacent" to a wall or hedge (our reading)
OVERLOOKED_WITHIN = 6.0  # s. 8 Medium terrain: from above, low terrain hides nothing this close
HIGH_SHADOW = 12.0  # s. 8 High terrain: the dead ground behind medium terrain (our reading)


def low_terrain_blocks(viewer_gap: float, target_gap: float) -> bool:
    """s. 8 Low terrain: a wall or hedge up to a man's height blocks the line of sight unless
    one of the two units has come up directly adjacent to it."""
    return viewer_gap > ADJACENT and target_gap > ADJACENT


def overlooked_low_terrain_hides(distance: float, *, tucked_in: bool) -> bool:
    """s. 8 Medium terrain (and High terrain): a unit looking down from an upper storey or a
    hill sees over walls and hedges, everything within 6" and, further off, everything but the
    infantry, support squads and small vehicles that are not firing and lie right behind one
    (``tucked_in``: adjacent to it, on the far side). Our reading: from above, that exception
    takes the place of the ground-level rule, so such troops stay hidden beyond 6" even though
    being adjacent would show them to a unit on the ground; a unit looking down from right behind
    the wall itself still sees over it as on the ground."""
    return distance > OVERLOOKED_WITHIN and tucked_in


def tucked_in_behind(seen: Seen, *, adjacent: bool, firing: bool) -> bool:
    """s. 8 Medium terrain: the units that a wall or hedge still hides from above: infantry,
    support squads (snipers among them) and small vehicles (the observation table's rows but
    other vehicles), adjacent to it and not firing."""
    return seen is not Seen.OTHER_VEHICLE and adjacent and not firing


def medium_terrain_blocks(viewer: TerrainHeight | None, *, target_behind: float) -> bool:
    """s. 8 Medium terrain blocks sight completely, except (s. 8 High terrain) to a unit on a
    steep hill or tower. The sentence breaks off after "beyond a 12\" shadow,"; we read it as:
    high ground sees over medium terrain to whatever lies more than 12" behind it (the target's
    distance from the piece), while the 12" behind it stay in its shadow."""
    return viewer is not TerrainHeight.HIGH or target_behind <= HIGH_SHADOW


def may_fire_through_troops(
    *, from_height: bool, gun: bool, only_enemies: bool, at_vehicle_or_building: bool
) -> bool:
    """s. 8 Seeing through other units: infantry and support squads hide nothing, but a unit may
    fire through them only from higher ground; a gun may fire past enemy troops at a vehicle or
    a building beyond them (not past its own side's)."""
    return from_height or (gun and only_enemies and at_vehicle_or_building)
