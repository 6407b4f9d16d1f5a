"""Movement rates, vehicle turning, terrain tests and platoon movement (Iron Cross 2015, pp. 8-9)."""

from __future__ import annotations

from engine.profiles import Drive, Special, UnitClass, UnitProfile
from engine.state import Going, TerrainFeature

# inches: normal, rapid, rapid on a road (p. 8)
MOVEMENT_RATES: dict[UnitClass, tuple[float, float, float]] = {
    UnitClass.INFANTRY: (6.0, 9.0, 12.0),
    UnitClass.SUPPORT: (6.0, 9.0, 12.0),
    UnitClass.LIGHT: (12.0, 18.0, 24.0),
    UnitClass.MEDIUM: (10.0, 15.0, 20.0),
    UnitClass.HEAVY: (8.0, 10.0, 12.0),
}
ENEMY_INFANTRY_CAUTION = 12.0  # p. 8
PLATOON_SPACING = 12.0  # p. 9
PLATOON_SIZE = 3


def movement_allowance(profile: UnitProfile, *, rapid: bool, road: bool, cautious: bool = False) -> float:
    """How far a unit may move (p. 8 table).

    ``cautious``: a vehicle that starts within 12" of enemy infantry it can see, with no
    friendly infantry as close to that enemy, moves half its normal distance (p. 8).
    """
    normal, rapid_rate, road_rate = MOVEMENT_RATES[profile.unit_class]
    if cautious:
        return normal / 2
    if rapid:
        return road_rate if road else rapid_rate
    return normal


def fall_back_allowance(profile: UnitProfile, *, reverse: bool) -> float:
    """Fall back is a rapid move; vehicles falling back in reverse go at the normal rate (p. 13)."""
    normal, rapid_rate, _ = MOVEMENT_RATES[profile.unit_class]
    return normal if profile.is_vehicle and reverse else rapid_rate


def vehicle_turn_limit(*, rapid: bool) -> float:
    """Vehicles may turn up to 180 degrees in all at normal rate, 90 at rapid (p. 8)."""
    return 90.0 if rapid else 180.0


ROAD_TURN_LIMIT = 45.0  # a rapid road move may include two slight turns of at most 45 degrees
ROAD_TURNS_ALLOWED = 2
TURRET_FREE_TRAVERSE = 90.0  # turning the turret further counts as moving (p. 8)


def terrain_test_score_needed(profile: UnitProfile, going: Going, *, wire: bool) -> int | None:
    """The d6 a unit needs to cross rough or very rough ground, or None for no test (p. 9).

    Vehicles: wheeled 6 / impassable; half-tracks 3+ / 4+; other tracked vehicles and scout
    cars 2+ / 3+; heavy tanks no test / 2+. Infantry and support squads: no test / 4+;
    anti-tank and infantry guns 2+ / impassable. Crossing wire is -1 on the roll (one more
    needed). Returns 7 for ground the unit cannot cross at all.
    """
    if going in (Going.EASY,):
        return None
    if going is Going.IMPASSABLE:
        return 7
    very = going is Going.VERY_ROUGH
    if profile.is_vehicle:
        if profile.unit_class is UnitClass.HEAVY:
            score = 2 if very else None
        elif profile.has(Special.SCOUT) or profile.drive is Drive.TRACKED:
            score = 3 if very else 2
        elif profile.drive is Drive.HALFTRACK:
            score = 4 if very else 3
        else:
            score = 7 if very else 6
    elif profile.drive is Drive.GUN:
        score = 7 if very else 2
    else:
        score = 4 if very else None
    if score is not None and wire and score < 7:
        score += 1
    return score


def unit_may_cross_wire(profile: UnitProfile, feature: TerrainFeature) -> bool:
    """Anti-tank and infantry guns may not cross wire until another unit has breached it (p. 9)."""
    return not (feature.wire and profile.drive is Drive.GUN)


def rapid_move_allowed_in(going: Going) -> bool:
    """No rapid moves through rough or very rough ground, for any unit (p. 9)."""
    return going is Going.EASY


def platoon_type(profile: UnitProfile) -> str:
    """Platoon movement groups units of one type: foot, light, medium or heavy (p. 9)."""
    if profile.unit_class in (UnitClass.INFANTRY, UnitClass.SUPPORT):
        return "infantry and support squads"
    return f"{profile.unit_class.value} vehicles"
