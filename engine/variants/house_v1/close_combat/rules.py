"""Close combat under the House Rules V1.0, s. 6 (and s. 4, Closing with the Enemy): the 3"
limit, and the fire each side exchanges once contact is made. The game flow that uses these
is :mod:`engine.variants.house_v1.close_combat.play`."""

from __future__ import annotations

from collections.abc import Iterable

from engine.variants.house_v1.firing import CasualtyWeapon
from engine.variants.house_v1.traits import HouseTraits, Motivation, TroopType
from engine.wording import counted

CLOSE_COMBAT_RANGE = 3.0  # s. 4: no closer than this without close combat
INFANTRY_ROUNDS = 2  # s. 6: two rounds, the defenders first in each
ATTACKER_FALL_BACK = 6.0  # s. 6: attackers who fail to clear the defenders fall back 6"
FALL_BACK_OPTIONS = ("fall_back", "fight_on")  # a vehicle defender's choice after the first round


def may_close_within_3(traits: HouseTraits) -> bool:
    """s. 4: only enclosed AFVs may move past an enemy closer than 3" without close combat."""
    return traits.troop_type is TroopType.ENCLOSED_AFV


def attackers_fall_back(cover_met_at: Iterable[float]) -> float:
    """s. 6 Infantry combat: how far attackers who have not cleared the defenders after the two
    rounds fall back: 6", or only as far as cover they meet on the way nearer than that but more
    than 3" out. ``cover_met_at``: how far along the fall back each piece of cover begins (our
    reading: cover that begins within 3" does not count, the 6" goes on)."""
    nearer = [met for met in cover_met_at if CLOSE_COMBAT_RANGE < met < ATTACKER_FALL_BACK]
    return min(nearer, default=ATTACKER_FALL_BACK)


def close_combat_dice(traits: HouseTraits) -> int:
    """s. 6 Infantry combat: infantry squads throw two d10 to hit, support squads (machine guns
    included) one."""
    return 2 if traits.troop_type is TroopType.INFANTRY else 1


def close_combat_modifier(traits: HouseTraits, markers: int) -> tuple[tuple[str, int], ...]:
    """s. 6: -1 per morale marker, which elite troops ignore for their fire; weak-morale troops
    -1. Everyone counts as in the open, so no cover."""
    found: list[tuple[str, int]] = []
    if markers and traits.motivation is not Motivation.ELITE:
        found.append((counted(markers, "morale marker"), -markers))
    if traits.motivation is Motivation.WEAK:
        found.append(("weak morale", -1))
    return tuple(found)


def close_combat_column(traits: HouseTraits) -> CasualtyWeapon:
    """The casualty table column for a close-combat hit: machine guns by the MG column, every
    other unit's light weapons by the infantry column (s. 5 casualty table)."""
    return CasualtyWeapon.MG if traits.mg else CasualtyWeapon.INFANTRY


def vehicle_may_fall_back(traits: HouseTraits) -> bool:
    """s. 6 Infantry attacking vehicles: a soft-skinned vehicle or open-topped AFV that survives
    the first round may fall back (an enclosed AFV fights one round only)."""
    return traits.troop_type in (TroopType.SOFT, TroopType.OPEN_AFV)


def overrun_mg_dice(*, turret: bool, hull_mg: bool) -> int:
    """s. 6 AFVs overrunning infantry: a d10 each for the turret MG and the hull MG it has."""
    return (1 if turret else 0) + (1 if hull_mg else 0)
