"""Unit profiles and the orders of battle, loaded from ``engine/data/*.yaml`` and validated.

Iron Cross 2015, pp. 18-24: each nation's order of battle lists type, armour (front/side),
weapon value, morale, special rules, points and break point, plus the nation's infantry
anti-tank weapon (IAW) upgrade and its transports. Soviet forces may take one class of
lend-lease vehicle (p. 24).
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, model_validator

from engine.variant_parts import FrozenVariantPart, WithVariant

DATA_DIR = Path(__file__).parent / "data"


class UnitClass(StrEnum):
    """The five basic unit categories (p. 3) that set movement rates and dice."""

    INFANTRY = "infantry"  # infantry detachment
    SUPPORT = "support"  # support squad: MG, mortar, AT gun, infantry gun, sniper, flamethrower
    LIGHT = "light"  # light vehicle: light tanks, scout cars, transports
    MEDIUM = "medium"
    HEAVY = "heavy"

    @property
    def is_vehicle(self) -> bool:
        return self in (UnitClass.LIGHT, UnitClass.MEDIUM, UnitClass.HEAVY)


class Drive(StrEnum):
    """How a unit crosses terrain (terrain test tables, p. 9)."""

    FOOT = "foot"
    GUN = "gun"  # anti-tank or infantry gun moved by its crew
    WHEELED = "wheeled"
    HALFTRACK = "halftrack"
    TRACKED = "tracked"


class Special(StrEnum):
    """Orders of Battle special rules (pp. 18-20)."""

    ANTI_TANK_GUN = "anti_tank_gun"
    FLAMETHROWER = "flamethrower"
    HEAVY = "heavy"
    HOWITZER = "howitzer"
    INFANTRY_GUN = "infantry_gun"
    MG_TEAM = "mg_team"
    MORTAR = "mortar"
    RARE = "rare"
    SCOUT = "scout"
    SNIPER = "sniper"
    TRANSPORT = "transport"


class Availability(StrEnum):
    ANY = "any"
    ONLY_1945 = "1945 only"
    FROM_LATE_1944 = "from late 1944"


class UnitProfile(WithVariant):
    """One line of an order of battle. ``None`` stands for the book's "n/a"."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    name: str
    nation: str
    unit_class: UnitClass = Field(alias="class")
    armour_front: int | None = None
    armour_side: int | None = None
    weapon: int | None
    morale: int | None
    specials: frozenset[Special] = frozenset()
    availability: Availability = Availability.ANY
    points: int
    break_points: int
    drive: Drive
    turret: bool = False
    open_topped: bool = False
    gun_shield: bool = False
    capacity: int = 0  # how many units a transport carries (trucks 2, others 1)
    variant: SerializeAsAny[FrozenVariantPart] | None = None  # what only a rule set has (engine.variants)

    @model_validator(mode="after")
    def _check(self) -> UnitProfile:
        if self.unit_class.is_vehicle:
            if self.armour_front is None or self.armour_side is None:
                raise ValueError(f"{self.name}: a vehicle needs front and side armour")
        elif self.armour_front is not None:
            raise ValueError(f"{self.name}: only vehicles have armour")
        if (Special.TRANSPORT in self.specials) != (self.capacity > 0):
            raise ValueError(f"{self.name}: transports, and only they, carry units")
        return self

    def has(self, special: Special) -> bool:
        return special in self.specials

    @property
    def is_vehicle(self) -> bool:
        return self.unit_class.is_vehicle

    @property
    def is_heavy(self) -> bool:
        """Heavy units (p. 19); flamethrowers and howitzers always count as heavy."""
        return bool(self.specials & {Special.HEAVY, Special.FLAMETHROWER, Special.HOWITZER})


class IAWUpgrade(BaseModel):
    """A nation's infantry anti-tank weapon upgrade (p. 19 and each order of battle)."""

    model_config = ConfigDict(frozen=True)

    name: str
    weapon: int
    cost: int
    limit: str = Field(pattern="^(all|half)$")  # all detachments, or up to half of them


class Orbat(BaseModel):
    """A nation's order of battle (pp. 21-24)."""

    model_config = ConfigDict(frozen=True)

    nation: str
    title: str
    iaw: IAWUpgrade
    units: tuple[UnitProfile, ...]
    lend_lease: tuple[str, ...] = ()  # names of foreign profiles this nation may field

    def profile(self, name: str) -> UnitProfile:
        for unit in self.units:
            if unit.name.casefold() == name.casefold():
                return unit
        raise KeyError(f"{self.title} has no unit called {name!r}")


NATIONS = ("german", "british", "us", "soviet")


@cache
def load_orbat(nation: str) -> Orbat:
    """Load and validate one nation's order of battle from its YAML file."""
    raw = yaml.safe_load((DATA_DIR / f"{nation}.yaml").read_text(encoding="utf-8"))
    for unit in raw.get("units", []):
        unit.setdefault("nation", nation)
    return Orbat.model_validate(raw)


def find_profile(nation: str, name: str) -> UnitProfile:
    """A unit profile by nation and name, including the Soviet lend-lease vehicles."""
    orbat = load_orbat(nation)
    try:
        return orbat.profile(name)
    except KeyError:
        for foreign in ("us", "british"):
            if name.casefold() in (n.casefold() for n in orbat.lend_lease):
                try:
                    return load_orbat(foreign).profile(name)
                except KeyError:
                    continue
        raise
