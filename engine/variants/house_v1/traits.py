"""What the House Rules V1.0 know of a unit beyond its 2015 profile (s. 2): troop type, move
class, AP and HE, experience and motivation, carried on the profile as its rule-set part
(:class:`~engine.variants.house_v1.state.HouseProfile`)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class TroopType(StrEnum):
    """House Rules V1.0, s. 2: the basic troop types."""

    INFANTRY = "infantry"
    SUPPORT_PORTABLE = "support_portable"  # mortars, tripod MGs, flamethrowers
    SUPPORT_WHEELED = "support_wheeled"  # anti-tank and infantry guns
    SUPPORT_LIGHT = "support_light"  # snipers and OPs
    SOFT = "soft"  # soft-skinned vehicles
    ENCLOSED_AFV = "enclosed_afv"
    OPEN_AFV = "open_afv"  # open-topped

    @property
    def is_afv(self) -> bool:
        return self in (TroopType.ENCLOSED_AFV, TroopType.OPEN_AFV)


class MoveClass(StrEnum):
    """House Rules V1.0, s. 4: fast, medium and slow vehicles (the 2015 light, medium, heavy)."""

    FAST = "fast"
    MEDIUM = "medium"
    SLOW = "slow"
    FOOT = "foot"  # infantry and support squads
    NONE = "none"  # cannot move unless towed


class HEClass(StrEnum):
    """House Rules V1.0, s. 2: high explosive by calibre (under 75mm, 75-100mm, over 100mm)."""

    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"


class Experience(StrEnum):
    """House Rules V1.0, s. 2 and 3: veterans gain, inexperienced units lose, a token on a 6."""

    VETERAN = "veteran"
    REGULAR = "regular"
    INEXPERIENCED = "inexperienced"


class Motivation(StrEnum):
    """House Rules V1.0, s. 2: elite units ignore morale markers to react; weak ones are slower."""

    ELITE = "elite"
    NORMAL = "normal"
    WEAK = "weak"


class HouseTraits(BaseModel):
    """What the House Rules V1.0 need to know of a unit beyond the 2015 profile."""

    model_config = ConfigDict(frozen=True)

    troop_type: TroopType
    move: MoveClass
    ap: int | None = None  # armour-piercing rating (the 2015 weapon value)
    he: HEClass | None = None
    mg: bool = False  # its weapon is a machine gun
    flamethrower: bool = False
    second_ap: int | None = None  # a second main gun
    hull_gun: bool = False  # the main gun is fixed in the hull, beside a turret for the second (s. 5)
    hull_mg: bool = False  # an AFV's hull-mounted MG: 12", one die, a pintle mount's arc (s. 2, 5)
    light_mortar: bool = False  # an infantry squad's light mortar, 50/60mm or 2" (s. 2, 5)
    small: bool = False  # small or low vehicles (observation, s. 8)
    light: bool = False  # reacts more quickly (s. 2)
    heavy: bool = False  # slower to reactivate (s. 2)
    spotter: bool = False  # may direct indirect fire (s. 2)
    experience: Experience = Experience.REGULAR
    motivation: Motivation = Motivation.NORMAL
