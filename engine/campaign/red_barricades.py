"""Red Barricades CG III bookkeeping: the campaign, its purchases, each side's order of battle,
and the CPP and FPP each side has left on a CG Day.

The organiser sets each side's CPP for a CG Day (CPP Replenishment, 11.616); whether CPP left
unspent carry over to the next CG Day is the campaign's ``carry_over`` setting. The rules of the
Refit Phase live beside this module: RG and fortification purchases in
:mod:`engine.campaign.purchases`, the rolls a purchase needs in :mod:`engine.campaign.refit_rolls`,
the ledger in :mod:`engine.campaign.ledger`. Every function returns a new :class:`Campaign` and
leaves the one it was given unchanged, also when it refuses with :class:`IllegalCommand`.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from pydantic import BaseModel, Field

from engine.campaign.calendar import CG_DAYS, SIDE_NAMES, Side, cg_day, check_side, day_label
from engine.campaign.ledger import LedgerEntry
from engine.campaign.rg_chart import RGKind, find_reinforcement_group
from engine.errors import IllegalCommand
from engine.rich_text import Line, Strong
from engine.wording import counted


class Purchase(BaseModel):
    """An RG bought on a CG Day (RePh 11.619), and whether its rolls (11.620) are still to make."""

    day: datetime.date
    side: Side
    rg_id: str
    name: str
    cost: int
    preregistered_hexes: int = 0
    awaiting_rolls: bool
    voided: bool = False  # a referee correction cancelled it: its CPP are back, its formation gone


class FortificationPurchase(BaseModel):
    """Fortifications bought with FPP on a CG Day (Fortification Table)."""

    day: datetime.date
    side: Side
    fortification: str
    quantity: int
    cost: int
    text: str = ""  # what was bought, as the ledger says: "2 x Trench", "6 A-P Mine factors"
    voided: bool = False  # a referee correction cancelled it: its FPP are back


class Formation(BaseModel):
    """An RG as received: a company, platoon, battery, OBA module or other purchase."""

    purchase: int  # its index in Campaign.purchases
    rg_id: str
    name: str
    kind: RGKind
    day: datetime.date
    strength: str | None = None  # "Full Strength" or "Depleted", once rolled
    units: tuple[str, ...] = ()
    leaders: tuple[str, ...] = ()
    support_weapons: tuple[str, ...] = ()
    ammo: str | None = None  # an OBA module's ammo, once rolled
    preregistered_hexes: int = 0
    serves: int | None = None  # an Offboard Observer's or Spotter Plane's module (its purchase index)
    dug_in: bool = False  # a Russian AFV Pltn bought Dug-In (note w)
    spw_exchanged: bool = False  # an SPW 251/1 of this platoon was exchanged for a 251/10 (note g)
    black_chits_removed: int = 0  # an OBA module's chits permanently out of its Draw Pile
    red_chits_removed: int = 0
    notes: tuple[str, ...] = ()  # what the chart notes and compilation rules say of it, with their citation


class OrderOfBattle(BaseModel):
    """One side's purchased formations and the units it retains from earlier CG scenarios."""

    formations: list[Formation] = Field(default_factory=list)
    retained: list[str] = Field(default_factory=list)

    def formation_for(self, purchase: int) -> Formation:
        return next(f for f in self.formations if f.purchase == purchase)

    @property
    def oba_modules(self) -> list[Formation]:
        return [f for f in self.formations if f.kind == "oba"]


class Campaign(BaseModel):
    """A Red Barricades CG III campaign: CPP per side and CG Day, purchases, orders of battle, ledger."""

    carry_over: bool = True  # unspent CPP carry over to the next CG Day
    cpp: dict[Side, dict[datetime.date, int]] = Field(default_factory=lambda: {"german": {}, "russian": {}})
    purchases: list[Purchase] = Field(default_factory=list)
    fortifications: list[FortificationPurchase] = Field(default_factory=list)
    order_of_battle: dict[Side, OrderOfBattle] = Field(
        default_factory=lambda: {"german": OrderOfBattle(), "russian": OrderOfBattle()}
    )
    ledger: list[LedgerEntry] = Field(default_factory=list)
    # the DRM a CG scenario Balance provision (11.32) gives each side's RG strength, gun battery
    # and OBA ammo rolls; the referee sets it
    balance_drm: dict[Side, int] = Field(default_factory=lambda: {"german": 0, "russian": 0})
    cg_ii: bool = False  # the CG scenarios are CG II ones: German Leader DRM +1


def _cpp_left_each_day(campaign: Campaign, side: Side) -> dict[datetime.date, int]:
    left: dict[datetime.date, int] = {}
    carried = 0
    for day in CG_DAYS:
        spent = sum(p.cost for p in campaign.purchases if p.side == side and p.day == day and not p.voided)
        left[day] = carried + campaign.cpp[side].get(day, 0) - spent
        carried = left[day] if campaign.carry_over else 0
    return left


def cpp_left(campaign: Campaign, side: str, date: datetime.date | str) -> int:
    """The CPP the side has left to spend on a CG Day: that day's CPP, plus those carried over
    from earlier CG Days when the campaign carries them over, less what it has bought that day."""
    return _cpp_left_each_day(campaign, check_side(side))[cg_day(date)]


def fpp_left(campaign: Campaign, side: str, date: datetime.date | str) -> int:
    """The FPP the side has left on a CG Day: those its Fortifications RGs (M1) bought that day
    give, less the fortifications bought with them. FPP do not carry over."""
    side, day = check_side(side), cg_day(date)
    bought = sum(
        find_reinforcement_group(side, p.rg_id).fpp or 0
        for p in campaign.purchases
        if p.side == side and p.day == day and not p.voided
    )
    spent = sum(f.cost for f in campaign.fortifications if f.side == side and f.day == day and not f.voided)
    return bought - spent


def set_cpp(campaign: Campaign, side: str, date: datetime.date | str, cpp: int) -> Campaign:
    """The organiser sets the side's CPP for a CG Day (CPP Replenishment, 11.616).

    Refused when it would leave any CG Day with more CPP spent than it has."""
    side, day = check_side(side), cg_day(date)
    new = with_cpp(campaign, side, day, cpp)
    new.ledger.append(
        LedgerEntry(
            day=day,
            side=side,
            kind="cpp",
            text=f"CPP for {day_label(day)} set to {cpp}; {cpp_left(new, side, day)} CPP left",
        )
    )
    return new


def with_cpp(campaign: Campaign, side: Side, day: datetime.date, cpp: int) -> Campaign:
    """A copy of the books with the side's CPP for the CG Day set, not yet in the ledger
    (:func:`set_cpp` and referee corrections write their own entries); refused as for set_cpp."""
    if cpp < 0:
        raise IllegalCommand(f"CPP cannot be negative, not {cpp}")
    new = campaign.model_copy(deep=True)
    new.cpp[side][day] = cpp
    left = _cpp_left_each_day(new, side)
    overspent = next((d for d in CG_DAYS if left[d] < 0), None)
    if overspent is not None:
        raise IllegalCommand(
            f"{SIDE_NAMES[side]} CPP for {day_label(day)} cannot be {cpp}: that leaves "
            f"{day_label(overspent)} overspent by {-left[overspent]} CPP"
        )
    return new


def retain_units(campaign: Campaign, side: str, date: datetime.date | str, units: Sequence[str]) -> Campaign:
    """Record the units the side retains into the next CG scenario (SSR CG10; 11.4), as the
    referee lists them. Our reading: the survivors of each CG scenario are the side's whole
    retained force, so a new record replaces the one before (a unit retained again is listed again)."""
    side, day = check_side(side), cg_day(date)
    if not units:
        raise IllegalCommand("Name at least one retained unit")
    new = campaign.model_copy(deep=True)
    was = new.order_of_battle[side].retained
    new.order_of_battle[side].retained = list(units)
    text = f"Retained: {', '.join(units)}" + (f" (in place of {', '.join(was)})" if was else "")
    new.ledger.append(LedgerEntry(day=day, side=side, kind="retained", text=text, units=tuple(units)))
    return new


def _formation_text(formation: Formation) -> str:
    parts = [formation.strength] if formation.strength else []
    parts.append(", ".join(formation.units) or "awaiting its rolls")
    if formation.leaders:
        parts.append(f"leaders {', '.join(formation.leaders)}")
    if formation.support_weapons:
        parts.append(f"SW {', '.join(formation.support_weapons)}")
    if formation.ammo:
        parts.append(formation.ammo)
    if formation.preregistered_hexes:
        hexes = formation.preregistered_hexes
        parts.append(counted(hexes, "Pre-Registered hex", "Pre-Registered hexes"))
    if formation.black_chits_removed or formation.red_chits_removed:
        parts.append(
            f"chits out of its Draw Pile: {formation.black_chits_removed} black, "
            f"{formation.red_chits_removed} red"
        )
    parts += formation.notes
    return f"{day_label(formation.day)}  {formation.rg_id} {formation.name}: {'; '.join(parts)}"


def order_of_battle_text(campaign: Campaign, side: str) -> tuple[Line, ...]:
    """The side's running order of battle: each formation as received (strength, units, leaders,
    SW, OBA ammo and Pre-Registered hexes), the fortifications bought with FPP, the retained units."""
    side = check_side(side)
    books = campaign.order_of_battle[side]
    lines = [_formation_text(formation) for formation in books.formations]
    lines += [
        f"{day_label(bought.day)}  Fortifications: {bought.text or bought.fortification} ({bought.cost} FPP)"
        for bought in campaign.fortifications
        if bought.side == side and not bought.voided
    ]
    if books.retained:
        lines.append(f"Retained: {', '.join(books.retained)}")
    heading = Strong(f"{SIDE_NAMES[side]} order of battle")
    return ((heading,), *((line,) for line in lines or ["Nothing bought or retained yet"]))
