"""Purchasing Reinforcement Groups with CPP (RePh 11.619) and fortifications with FPP.

Each refusal says which limit stops the purchase and by how much; nothing is bought then.
"""

from __future__ import annotations

import datetime

from engine.campaign.calendar import SIDE_NAMES, Side, cg_day, check_side, day_label
from engine.campaign.ledger import LedgerEntry
from engine.campaign.purchase_rules import (
    afv_platoon_withdrawal,
    dug_in_platoon,
    observer_for_module,
    rb7_no_hidden_russian_fortifications,
    still_hidden_unit_cost,
    stuka_at_two_cpp,
)
from engine.campaign.red_barricades import (
    Campaign,
    Formation,
    FortificationPurchase,
    Purchase,
    cpp_left,
    fpp_left,
)
from engine.campaign.rg_chart import (
    MAX_PREREGISTERED_HEXES,
    Fortification,
    ReinforcementGroup,
    availability_refusal,
    find_fortification,
    find_reinforcement_group,
)
from engine.errors import IllegalCommand
from engine.wording import counted

HIP = "HIP"


def _hexes(count: int) -> str:
    return counted(count, "Pre-Registered hex", "Pre-Registered hexes")


def _check_preregistration(rg: ReinforcementGroup, hexes: int) -> None:
    """Note p: each Pre-Registered hex (C1.73) costs one CPP more; no module has more than two."""
    if hexes < 0:
        raise IllegalCommand(f"Pre-Registered hexes cannot be negative, not {hexes}")
    if hexes and not rg.preregistration:
        raise IllegalCommand(f"{rg.label} is not an OBA module: it cannot have Pre-Registered hexes")
    if hexes > MAX_PREREGISTERED_HEXES:
        raise IllegalCommand(
            f"{rg.label} may have at most {_hexes(MAX_PREREGISTERED_HEXES)}: "
            f"{hexes} asked ({hexes - MAX_PREREGISTERED_HEXES} too many)"
        )


def _check_maxima(campaign: Campaign, side: str, rg: ReinforcementGroup, day: datetime.date) -> None:
    """The RG chart's DAILY MAX and CG:III MAX columns."""
    bought = [p for p in campaign.purchases if p.side == side and p.rg_id == rg.id and not p.voided]
    today = sum(p.day == day for p in bought)
    if today >= rg.daily_max:
        raise IllegalCommand(
            f"{rg.label}: daily max {rg.daily_max} already reached on {day_label(day)} "
            f"({today} bought; this would be {today + 1}, {today + 1 - rg.daily_max} over)"
        )
    total = len(bought)
    if total >= rg.campaign_max:
        raise IllegalCommand(
            f"{rg.label}: CG III max {rg.campaign_max} already reached "
            f"({total} bought; this would be {total + 1}, {total + 1 - rg.campaign_max} over)"
        )


def purchase_reinforcement_group(
    campaign: Campaign,
    side: str,
    rg_id: str,
    date: datetime.date | str,
    preregistered_hexes: int = 0,
    *,
    at_two_cpp: bool = False,
    dug_in: bool = False,
    serves: str | None = None,
) -> Campaign:
    """Purchasing Reinforcement Groups (RePh 11.619): buy one RG of the side's RG chart on a CG Day.

    Refused when the RG is not available that day (its from/until notes: the German Pioneer Coy
    not before 5 November, the Russian Militia Coy in October only), when it would have more
    Pre-Registered hexes than note p allows (at most two, and only for an OBA module), when the
    chart's daily max or CG III max is already reached, or when its cost (11.6194; plus one CPP
    per Pre-Registered hex) is more than the CPP the side has left. The chart notes and
    compilation rules of :mod:`engine.campaign.purchase_rules` apply too: a Stuka ``at_two_cpp``
    (note b), a Russian AFV Pltn ``dug_in`` (note w), an Offboard Observer or Spotter Plane
    ``serves`` an OBA module named by its RG ID (notes o and s, rule 10), AFV Pltns are never
    withdrawn (rule 9); what they add is in the ledger entry and the formation's notes. The RG
    joins the side's order of battle at once;
    :func:`engine.campaign.refit_rolls.roll_after_purchase` then makes its rolls (RePh 11.620)."""
    side, day = check_side(side), cg_day(date)
    rg = find_reinforcement_group(side, rg_id)
    refusal = availability_refusal(rg, day)
    if refusal:
        raise IllegalCommand(refusal)
    _check_preregistration(rg, preregistered_hexes)
    _check_maxima(campaign, side, rg, day)
    stuka_cpp, notes = stuka_at_two_cpp(rg, day, at_two_cpp)
    notes += dug_in_platoon(rg, side, dug_in)
    served, serving = observer_for_module(campaign, side, rg, serves)
    notes += serving + afv_platoon_withdrawal(rg)
    extra = preregistered_hexes + stuka_cpp
    cost = rg.cost + extra
    left = cpp_left(campaign, side, day)
    what = f"{rg.label} with {_hexes(preregistered_hexes)}" if preregistered_hexes else rg.label
    what += " at 2 CPP" if at_two_cpp else ""
    what += " Dug-In" if dug_in else ""
    price = f"{rg.cost} + {extra} = {cost} CPP" if extra else f"{cost} CPP"
    if cost > left:
        raise IllegalCommand(
            f"{SIDE_NAMES[side]} has {left} CPP left on {day_label(day)}; "
            f"{what} costs {price} ({cost - left} short)"
        )
    gives = f": {rg.fpp} FPP" if rg.fpp else ""
    new = campaign.model_copy(deep=True)
    index = len(new.purchases)
    new.purchases.append(
        Purchase(
            day=day,
            side=side,
            rg_id=rg.id,
            name=rg.name,
            cost=cost,
            preregistered_hexes=preregistered_hexes,
            awaiting_rolls=rg.needs_rolls,
        )
    )
    new.order_of_battle[side].formations.append(
        Formation(
            purchase=index,
            rg_id=rg.id,
            name=rg.name,
            kind=rg.kind,
            day=day,
            units=() if rg.strength_rolled else rg.units_received(depleted=False),
            preregistered_hexes=preregistered_hexes,
            serves=served,
            dug_in=dug_in,
            notes=notes,
        )
    )
    new.ledger.append(
        LedgerEntry(
            day=day,
            side=side,
            kind="purchase",
            text=f"Bought {what}{gives} ({price}); {left - cost} CPP left" + "".join(f"; {n}" for n in notes),
            cost=cost,
            purchase=index,
        )
    )
    return new


def fortification_text(line: Fortification, quantity: int) -> str:
    """``"2 x Trench"``, ``"6 A-P Mine factors"``: so many items, or factors, of a table line."""
    if line.per == "factor":
        return f"{quantity} {line.name} factor{'s' if quantity > 1 else ''}"
    return f"{quantity} x {line.name}"


def _rate(
    fortification: Fortification, rate: int | None, pillbox: tuple[int, int, int] | None
) -> tuple[int, str]:
    """The FPP each item (or mine factor) costs, and how that cost is read off the table."""
    if fortification.pillbox:
        if pillbox is None:
            raise IllegalCommand(
                "A Pillbox costs (a + b + c) x 3 FPP: give the Pillbox counter's three numbers"
            )
        cost = sum(pillbox) * 3
        return cost, f"({' + '.join(str(n) for n in pillbox)}) x 3 = {cost} FPP each"
    if pillbox is not None:
        raise IllegalCommand(f"Only a Pillbox is priced from a counter's numbers, not {fortification.name}")
    per = f"FPP per {fortification.per}"
    if rate is None:
        if len(set(fortification.rates)) > 1:
            choices = ", ".join(str(r) for r in dict.fromkeys(fortification.rates))
            raise IllegalCommand(
                f"{fortification.name} costs {fortification.printed_cost} {per}: "
                f"name the rate that applies (one of {choices})"
            )
        rate = fortification.rates[0]
    elif rate not in fortification.rates:
        raise IllegalCommand(f"{fortification.name} costs {fortification.printed_cost} {per}, not {rate}")
    return rate, f"{rate} {per}"


def purchase_fortification(
    campaign: Campaign,
    side: str,
    fortification: str,
    date: datetime.date | str,
    quantity: int = 1,
    rate: int | None = None,
    pillbox: tuple[int, int, int] | None = None,
    hides: str | None = None,
) -> Campaign:
    """Buy fortifications with FPP at the Fortification Table's costs (FPP come from the
    Fortifications RG, M1: 20 FPP German, 40 FPP Russian, each).

    ``quantity`` counts items, or factors for mines. Where the table prints several costs
    (Foxhole 3/2/1, A-P Mine 1/3, HIP 5/3/2/1/1 ...) the compilation omits the note saying which
    applies, so the purchase names its ``rate``; a Pillbox costs (a + b + c) x 3 from the
    counter's three numbers. Booby Traps are Russian only (RB15). HIP may name what it ``hides``:
    never a Russian Entrenchment or Wire (RB7). Refused when the cost is more than the FPP the
    side has left that CG Day."""
    side, day = check_side(side), cg_day(date)
    line = find_fortification(side, fortification)
    if quantity < 1:
        raise IllegalCommand(f"Buy at least one {line.per} of {line.name}, not {quantity}")
    if hides is not None and line.name != HIP:
        raise IllegalCommand(f"Only HIP hides something (for ...), not {line.name}")
    rb7_no_hidden_russian_fortifications(side, hides)
    each, priced = _rate(line, rate, pillbox)
    cost = each * quantity
    what = fortification_text(line, quantity) + (f" for {hides}" if hides else "")
    return _spend_fpp(campaign, side, day, line, quantity, cost, what, f"at {priced}")


def keep_hidden(
    campaign: Campaign,
    side: str,
    date: datetime.date | str,
    unit: str,
    rate: int | None = None,
    gun: bool = False,
) -> Campaign:
    """Compilation rule 3 (Still Hidden Units): a unit still hidden from the last CG scenario
    stays hidden into the next one, paying the day's FPP at the HIP rate named
    (:func:`engine.campaign.purchase_rules.still_hidden_unit_cost`; a Gun pays nothing), never
    a Russian Entrenchment or Wire (RB7). Refused when the FPP left that CG Day are too few."""
    side, day = check_side(side), cg_day(date)
    unit = " ".join(unit.split())
    if not unit:
        raise IllegalCommand("Name the unit kept hidden")
    rb7_no_hidden_russian_fortifications(side, unit)
    line = find_fortification(side, HIP)
    cost, priced = still_hidden_unit_cost(unit, rate, gun, line.rates)
    what = f"{'gun ' if gun else ''}{unit} kept hidden"
    return _spend_fpp(campaign, side, day, line, 1, cost, what, priced)


def _spend_fpp(
    campaign: Campaign,
    side: Side,
    day: datetime.date,
    line: Fortification,
    quantity: int,
    cost: int,
    what: str,
    priced: str,
) -> Campaign:
    """The books with ``what`` bought for ``cost`` FPP of the side's day; refused when too few are left."""
    left = fpp_left(campaign, side, day)
    if cost > left:
        raise IllegalCommand(
            f"{SIDE_NAMES[side]} has {left} FPP left on {day_label(day)}; "
            f"{what} {priced} would cost {cost} FPP ({cost - left} short)"
        )
    new = campaign.model_copy(deep=True)
    new.fortifications.append(
        FortificationPurchase(
            day=day, side=side, fortification=line.name, quantity=quantity, cost=cost, text=what
        )
    )
    new.ledger.append(
        LedgerEntry(
            day=day,
            side=side,
            kind="purchase",
            text=f"Bought {what} {priced} ({cost} FPP); {left - cost} FPP left",
            cost=cost,
            points="FPP",
            fortification=len(new.fortifications) - 1,
        )
    )
    return new
