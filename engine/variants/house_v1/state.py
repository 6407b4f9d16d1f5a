"""What only a game under the House Rules V1.0 holds, as the rule-set parts of the core models
(:mod:`engine.variant_parts`): fire markers, smoke screens, burning buildings and breaches on the
game; a unit's building and the post it fires from; whether a charge passed its initiation test
at declaration; a profile's house traits. Their fields read
as the objects' own (``state.smoke_screens``, ``unit.in_building``, ``profile.house``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.game_state import GameState, Pending
from engine.profiles import UnitProfile
from engine.state import Point, Unit
from engine.variant_parts import FrozenVariantPart, VariantPart, register_part
from engine.variants.house_v1.traits import HouseTraits

RULES = "house_v1"


class FireMarker(BaseModel):
    """A spot a spotter has asked indirect fire on (House Rules V1.0, s. 5 Indirect Fire)."""

    model_config = ConfigDict(frozen=True)

    side: str
    at: Point
    turn: int  # the turn it was last placed or taken up again by a spotter
    placed: bool = True  # False: only a failed request so far this turn (the next one throws two dice)
    fired_by: tuple[str, ...] = ()  # units that have fired at it (later shots deviate by two d6)


class SmokeScreen(BaseModel):
    """A line of 2" smoke puffs (House Rules V1.0, s. 5 Smoke), from its left end to its right."""

    model_config = ConfigDict(frozen=True)

    puffs: tuple[Point, ...]


class BuildingPost(BaseModel):
    """Where a unit in a building fires out from (House Rules V1.0, s. 5 Firing from buildings):
    a side of the building, named as :func:`engine.variants.house_v1.posts.building_sides` names them, and a
    storey (0 the ground floor, 1 the first upper storey...)."""

    model_config = ConfigDict(frozen=True)

    side: str
    storey: int = 0
    displaced: bool = False  # another unit has taken it over since, this turn

    def __str__(self) -> str:
        return f"{self.side} side, {'ground floor' if self.storey == 0 else f'storey {self.storey}'}"


class HouseGame(VariantPart):
    """The game's own house-rules state."""

    rules: Literal["house_v1"] = RULES
    fire_markers: list[FireMarker] = Field(default_factory=list)  # s. 5 Indirect Fire
    smoke_screens: list[SmokeScreen] = Field(default_factory=list)  # s. 5 Smoke
    wind: Literal["left", "right"] | None = None  # the end smoke screens last thinned from
    fires: dict[str, int] = Field(default_factory=dict)  # burning buildings: turns they may still spread
    burnt: list[str] = Field(default_factory=list)  # buildings that have burned: never occupied again
    # s. 6: building id -> {side: the building's side its attackers got in by}
    breaches: dict[str, dict[str, str]] = Field(default_factory=dict)


class HouseUnit(VariantPart):
    """Where a unit stands in a building."""

    rules: Literal["house_v1"] = RULES
    in_building: str | None = None  # the building it occupies (s. 4)
    firing_post: BuildingPost | None = None  # the side and storey it fired out from this turn (s. 5)


class HousePending(VariantPart):
    """A declaration's own house-rules state."""

    rules: Literal["house_v1"] = RULES
    initiated: bool = False  # an immediate close combat passed its initiation test at declaration (s. 6)


class HouseProfile(FrozenVariantPart):
    """A unit profile as the house rules see it."""

    rules: Literal["house_v1"] = RULES
    house: HouseTraits | None = None


register_part(GameState, HouseGame)
register_part(Unit, HouseUnit)
register_part(Pending, HousePending)
register_part(UnitProfile, HouseProfile)
