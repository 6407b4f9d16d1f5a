"""Observation under the House Rules V1.0, s. 8: how far a static, silent unit can be seen."""

from __future__ import annotations

from enum import StrEnum

from engine.profiles import HouseTraits, Special, TroopType, UnitProfile

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


LOW_TERRAIN = ("hedge", "wall")
ADJACENT = 1.0  # inches: "directly adjacent" to a wall or hedge (our reading)


def low_terrain_blocks(viewer_gap: float, target_gap: float) -> bool:
    """s. 8 Low terrain: a wall or hedge up to a man's height blocks the line of sight unless
    one of the two units has come up directly adjacent to it."""
    return viewer_gap > ADJACENT and target_gap > ADJACENT
