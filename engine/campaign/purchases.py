"""Purchasing Reinforcement Groups with CPP (RePh 11.619) and fortifications with FPP.

Each refusal says which limit stops the purchase and by how much; nothing is bought then.
"""

from __future__ import annotations

import datetime

from engine.campaign.calendar import SIDE_NAMES, cg_day, check_side, day_label
from engine.campaign.ledger import LedgerEntry
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


def _hexes(count: int) -> str:
    return f"{count} Pre-Registered hex{'es' if count != 1 else ''}"


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
    campaign: Campaign, side: str, rg_id: str, date: datetime.date | str, preregistered_hexes: int = 0
) -> Campaign:
    """Purchasing Reinforcement Groups (RePh 11.619): buy one RG of the side's RG chart on a CG Day.

    Refused when the RG is not available that day (its from/until notes: the German Pioneer Coy
    not before 5 November, the Russian Militia Coy in October only), when it would have more
    Pre-Registered hexes than note p allows (at most two, and only for an OBA module), when the
    chart's daily max or CG III max is already reached, or when its cost (11.6194; plus one CPP
    per Pre-Registered hex) is more than the CPP the side has left. The RG joins the side's order
    of battle at once; :func:`engine.campaign.refit_rolls.roll_after_purchase` then makes its
    rolls (RePh 11.620)."""
    side, day = check_side(side), cg_day(date)
    rg = find_reinforcement_group(side, rg_id)
    refusal = availability_refusal(rg, day)
    if refusal:
        raise IllegalCommand(refusal)
    _check_preregistration(rg, preregistered_hexes)
    _check_maxima(campaign, side, rg, day)
    cost = rg.cost + preregistered_hexes
    left = cpp_left(campaign, side, day)
    what = f"{rg.label} with {_hexes(preregistered_hexes)}" if preregistered_hexes else rg.label
    price = f"{rg.cost} + {preregistered_hexes} = {cost} CPP" if preregistered_hexes else f"{cost} CPP"
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
        )
    )
    new.ledger.append(
        LedgerEntry(
            day=day,
            side=side,
            kind="purchase",
            text=f"Bought {what}{gives} ({price}); {left - cost} CPP left",
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
) -> Campaign:
    """Buy fortifications with FPP at the Fortification Table's costs (FPP come from the
    Fortifications RG, M1: 20 FPP German, 40 FPP Russian, each).

    ``quantity`` counts items, or factors for mines. Where the table prints several costs
    (Foxhole 3/2/1, A-P Mine 1/3, HIP 5/3/2/1/1 ...) the compilation omits the note saying which
    applies, so the purchase names its ``rate``; a Pillbox costs (a + b + c) x 3 from the
    counter's three numbers. Booby Traps are Russian only (RB15). Refused when the cost is more
    than the FPP the side has left that CG Day."""
    side, day = check_side(side), cg_day(date)
    line = find_fortification(side, fortification)
    if quantity < 1:
        raise IllegalCommand(f"Buy at least one {line.per} of {line.name}, not {quantity}")
    each, priced = _rate(line, rate, pillbox)
    cost = each * quantity
    what = fortification_text(line, quantity)
    left = fpp_left(campaign, side, day)
    if cost > left:
        raise IllegalCommand(
            f"{SIDE_NAMES[side]} has {left} FPP left on {day_label(day)}; "
            f"{what} at {priced} would cost {cost} FPP ({cost - left} short)"
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
            text=f"Bought {what} at {priced} ({cost} FPP); {left - cost} FPP left",
            cost=cost,
            points="FPP",
            fortification=len(new.fortifications) - 1,
        )
    )
    return new
