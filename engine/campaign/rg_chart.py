"""The Red Barricades RG charts, Infantry Company SW chart and Fortification Table as data.

Loaded from ``engine/data/campaign/red_barricades_rg.yaml`` and validated: each RG's ID, name,
kind, Full/Depleted strength, CPP cost, daily and CG III max (RePh 11.6191-11.6194), its note
marks as printed and the availability dates they give.
"""

from __future__ import annotations

import datetime
from functools import cache
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from engine.campaign.calendar import SIDE_NAMES, SIDES, Side, check_side, day_label, parse_cg_date
from engine.errors import IllegalCommand
from engine.profiles import DATA_DIR

RG_DATA = DATA_DIR / "campaign" / "red_barricades_rg.yaml"

RGKind = Literal[
    "air",
    "armor",
    "infantry",
    "platoon",
    "oba",
    "observer",
    "battery",
    "fortifications",
    "sniper",
    "capability",
]
STRENGTH_KINDS = ("armor", "infantry", "platoon", "battery")  # RePh 11.6201 rolls their strength
MAX_PREREGISTERED_HEXES = 2  # note p


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Weapon(_Frozen):
    count: int
    type: str

    def __str__(self) -> str:
        return f"{self.count} x {self.type}"


class ReinforcementGroup(_Frozen):
    """One line of an RG chart."""

    id: str
    name: str
    kind: RGKind
    unit: str | None = None
    weapons: tuple[Weapon, ...] = ()
    full: int | None = None
    depleted: int | None = None
    cost: int
    daily_max: int
    campaign_max: int
    notes: str = ""
    from_date: datetime.date | None = None
    until_date: datetime.date | None = None
    preregistration: bool = False
    oba_mm: int | None = None  # an OBA module's calibre class: 100 for "100+mm"
    rocket: bool = False  # rocket OBA (NebelWerfer, Katyusha)
    fpp: int | None = None
    leader_company: str | None = None
    sw_company: str | None = None
    always_full_strength: str | None = None  # the compilation rule that says so
    no_support_weapons: str | None = None  # the compilation rule that says so

    @field_validator("from_date", "until_date", mode="before")
    @classmethod
    def _cg_day(cls, value: object) -> object:
        return parse_cg_date(value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _complete(self) -> ReinforcementGroup:
        if (self.unit is None) == (not self.weapons):
            raise ValueError(f"RG {self.id}: give either unit or weapons")
        if self.kind in ("armor", "infantry") and (self.full is None or self.depleted is None):
            raise ValueError(f"RG {self.id}: an {self.kind} RG needs its Full/Depleted strength")
        if self.kind == "infantry" and (self.leader_company is None or self.sw_company is None):
            raise ValueError(f"RG {self.id}: an infantry RG needs its leader_company and sw_company")
        if (self.kind == "oba") != (self.oba_mm is not None):
            raise ValueError(f"RG {self.id}: oba_mm is for OBA modules only, and each has one")
        if (self.kind == "fortifications") != (self.fpp is not None):
            raise ValueError(f"RG {self.id}: fpp is for the Fortifications RG only")
        return self

    @property
    def label(self) -> str:
        """``"A1 StuG B Pltn"``."""
        return f"{self.id} {self.name}"

    @property
    def strength_rolled(self) -> bool:
        """Whether its strength, and so the units it brings, is rolled for (RePh 11.6201)."""
        return self.kind in STRENGTH_KINDS

    @property
    def needs_rolls(self) -> bool:
        """Whether RePh step 11.620 rolls anything for it (strength, ammo, leaders)."""
        return self.strength_rolled or self.kind == "oba"

    def units_received(self, depleted: bool) -> tuple[str, ...]:
        """The units it brings at Full or Depleted strength; a Depleted battery has one Gun fewer
        of each type (Gun Battery table). The compilation says nothing of a Depleted HW or MOL-P
        Pltn, so a platoon's weapons are listed as charted."""
        if self.full is not None and self.depleted is not None:
            return (f"{self.depleted if depleted else self.full} x {self.unit}",)
        if self.kind == "battery" and depleted:
            return tuple(str(Weapon(count=w.count - 1, type=w.type)) for w in self.weapons if w.count > 1)
        return tuple(str(w) for w in self.weapons) or (str(self.unit),)


class SideChart(_Frozen):
    """One side's RG chart, its note texts and its rows of the Infantry Company SW chart."""

    title: str
    note_texts: dict[str, str]
    groups: tuple[ReinforcementGroup, ...]
    support_weapons: dict[str, dict[str, int]]

    @model_validator(mode="after")
    def _consistent(self) -> SideChart:
        ids = [rg.id for rg in self.groups]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{self.title}: an RG ID is used twice")
        for rg in self.groups:
            if rg.sw_company is not None and rg.sw_company not in self.support_weapons:
                raise ValueError(
                    f"{self.title}: {rg.id} reads SW row {rg.sw_company!r}, which is not charted"
                )
        return self


class Fortification(_Frozen):
    """One line of the Fortification Table (costs in FPP)."""

    name: str
    rates: tuple[int, ...] = ()
    per: Literal["item", "factor"] = "item"
    pillbox: bool = False  # costs (a + b + c) x 3, from the Pillbox counter
    notes: str = ""
    sides: tuple[Side, ...] = SIDES
    sides_rule: str | None = None

    @model_validator(mode="after")
    def _priced(self) -> Fortification:
        if self.pillbox == bool(self.rates):
            raise ValueError(f"fortification {self.name}: give either rates or pillbox")
        return self

    @property
    def printed_cost(self) -> str:
        """The cost as the table prints it: ``"3/2/1"``, ``"(a + b + c) x 3"``."""
        return "(a + b + c) x 3" if self.pillbox else "/".join(str(rate) for rate in self.rates)


class RGCharts(_Frozen):
    german: SideChart
    russian: SideChart
    fortifications: tuple[Fortification, ...]

    def side(self, side: Side) -> SideChart:
        return self.german if side == "german" else self.russian


@cache
def rg_charts() -> RGCharts:
    return RGCharts.model_validate(yaml.safe_load(RG_DATA.read_text("utf-8")))


def find_reinforcement_group(side: str, rg_id: str) -> ReinforcementGroup:
    """The RG with this ID on the side's RG chart (``"a1"`` finds A1)."""
    chart = rg_charts().side(check_side(side))
    wanted = rg_id.strip().upper()
    for rg in chart.groups:
        if rg.id == wanted:
            return rg
    known = ", ".join(rg.id for rg in chart.groups)
    raise IllegalCommand(f"The {chart.title} has no {rg_id!r}: it lists {known}")


def find_fortification(side: str, name: str) -> Fortification:
    """The Fortification Table line called ``name`` that ``side`` may buy."""
    side = check_side(side)
    wanted = name.strip().casefold()
    for fortification in rg_charts().fortifications:
        if fortification.name.casefold() == wanted:
            if side not in fortification.sides:
                rule = fortification.sides_rule
                raise IllegalCommand(f"The {SIDE_NAMES[side]} side cannot buy {fortification.name} ({rule})")
            return fortification
    known = ", ".join(f.name for f in rg_charts().fortifications)
    raise IllegalCommand(f"The Fortification Table has no {name!r}: it lists {known}")


def availability_refusal(rg: ReinforcementGroup, day: datetime.date) -> str | None:
    """Why the RG cannot be bought on this CG Day (its from/until date notes), or None."""
    if rg.from_date is not None and day < rg.from_date:
        early = (rg.from_date - day).days
        return (
            f"{rg.label} is not available until {day_label(rg.from_date)} "
            f"({day_label(day)} is {early} day{'s' if early > 1 else ''} early)"
        )
    if rg.until_date is not None and day > rg.until_date:
        late = (day - rg.until_date).days
        return (
            f"{rg.label} is available only until {day_label(rg.until_date)} "
            f"({day_label(day)} is {late} day{'s' if late > 1 else ''} late)"
        )
    return None
