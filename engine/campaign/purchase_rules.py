"""The Red Barricades purchase-phase rules that change an order of battle beyond the RG charts'
costs and maxima: RG chart notes b, g, o, s and w, compilation rules 3, 9, 10 and 11, SSR RB7,
and the referee's Balance provision DRM (11.32) and CG II setting.

Each rule is one function named after it. A rule that refuses raises :class:`IllegalCommand`
naming its limit and changes nothing; one that applies returns what it adds (a cost, the notes
a formation carries into the order of battle) or new books with a ledger entry of kind "rule".
The citations are to the RB CG compilation (v1.0, 2015): its RG chart notes, its numbered
compilation rules and its SSR RB1-RB18.
"""

from __future__ import annotations

import datetime
import re

from engine.campaign.calendar import SIDE_NAMES, Side, cg_day, check_side, day_label
from engine.campaign.ledger import LedgerEntry
from engine.campaign.red_barricades import Campaign, Formation
from engine.campaign.rg_chart import ReinforcementGroup, find_reinforcement_group
from engine.errors import IllegalCommand

MAX_BALANCE_DRM = 6  # this bot's bound on a Balance provision DRM: a DR is 2-12
STUKA = "S1"
SPW_PLATOON = "A9"
SPW_251_1, SPW_251_10 = "SPW 251/1", "SPW 251/10"
SPOTTER_PLANE = "Spotter Plane"  # the other "observer" RG is the Offboard Observer
SPOTTER_PLANE_MIN_MM = 100
ENTRENCHMENTS_AND_WIRE = ("Foxhole", "Trench", "A-T Ditch", "Wire")  # B27 entrenchments, and Wire
BLACK, RED = "black", "red"


def _ledger_entry(campaign: Campaign, purchase: int) -> int:
    """The number of the ledger entry that made purchase #``purchase``."""
    return next(n for n, e in enumerate(campaign.ledger) if e.kind == "purchase" and e.purchase == purchase)


def _rule_entry(day: datetime.date, side: Side, text: str, purchase: int | None = None) -> LedgerEntry:
    return LedgerEntry(day=day, side=side, kind="rule", text=text, purchase=purchase)


# --- note b: the Stuka ----------------------------------------------------------------------------


def stuka_at_two_cpp(
    rg: ReinforcementGroup, day: datetime.date, at_two_cpp: bool
) -> tuple[int, tuple[str, ...]]:
    """German RG chart note b: a Stuka RG may be bought for two CPP instead of one, and then
    its Turn of Entry dr (E7.2) gets a -2 DRM; every Stuka RG must fly on the CG Day it is
    bought or is lost. Returns the extra CPP and the notes the Stuka carries; refused for any
    other RG."""
    if at_two_cpp and rg.id != STUKA:
        raise IllegalCommand(f"Only the Stuka (S1) may be bought at 2 CPP (note b), not {rg.label}")
    if rg.id != STUKA:
        return 0, ()
    forfeit = f"used on {day_label(day)} or forfeit (note b)"
    if not at_two_cpp:
        return 0, (forfeit,)
    return 1, ("-2 DRM on its Turn of Entry dr, E7.2 (note b: bought at 2 CPP)", forfeit)


# --- note w and compilation rule 9: AFV platoons --------------------------------------------------


def dug_in_platoon(rg: ReinforcementGroup, side: Side, dug_in: bool) -> tuple[str, ...]:
    """Russian RG chart note w: a Russian AFV Platoon may be bought Dug-In (11.6194 c), and then
    sets up on the map instead of entering as reinforcements (note r's exception). Refused for
    the German side and for any RG that is not an AFV Platoon."""
    if not dug_in:
        return ()
    if side != "russian":
        raise IllegalCommand(
            f"Only a Russian AFV Platoon may be bought Dug-In (note w), not the German {rg.label}"
        )
    if rg.kind != "armor":
        raise IllegalCommand(
            f"Only an AFV Platoon may be bought Dug-In (note w; 11.6194 c): {rg.label} is not one"
        )
    return ("Dug-In (note w; 11.6194 c)",)


def afv_platoon_withdrawal(rg: ReinforcementGroup) -> tuple[str, ...]:
    """Compilation rule 9 (AFVs) overrides note w's AFV Platoon Withdrawal: it deletes 11.6142
    and 11.6143, so an AFV of a platoon is never withdrawn (Recall still applies), and so the
    AFV IDs note w would have each platoon record are not needed. Rule 9 also makes the AFV MG
    Exchange of O11.6133 compulsory. Returns the notes an AFV Platoon carries."""
    if rg.kind != "armor":
        return ()
    return ("no Platoon Withdrawal, MG Exchange compulsory (compilation rule 9)",)


# --- notes o, s and compilation rule 10: observers and the Spotter Plane --------------------------


def _free_modules(
    campaign: Campaign, side: Side, rg: ReinforcementGroup, module: ReinforcementGroup
) -> list[Formation]:
    books = campaign.order_of_battle[side]
    served = {f.serves for f in books.formations if f.rg_id == rg.id and f.serves is not None}
    return [f for f in books.oba_modules if f.rg_id == module.id and f.purchase not in served]


def observer_for_module(
    campaign: Campaign, side: Side, rg: ReinforcementGroup, module_id: str | None
) -> tuple[int | None, tuple[str, ...]]:
    """German RG chart note o: an Offboard Observer is bought for one OBA module (its cost is per
    module) and is Retained as long as that module is. The observer serves the newest module of
    the named RG in the side's order of battle that has none yet. Returns that module's purchase
    index and the observer's notes (None, () for an RG that is no observer); refused when no
    module is named, the named RG is no OBA module, or the side has no such module free."""
    if rg.name == SPOTTER_PLANE:
        return spotter_plane_limits(campaign, side, rg, module_id)
    if rg.kind != "observer":
        if module_id is not None:
            raise IllegalCommand(
                f"Only an Offboard Observer or a Spotter Plane is bought for an OBA module, not {rg.label}"
            )
        return None, ()
    module = _module(side, rg, module_id, "note o: its cost is per module")
    return _assign(campaign, side, rg, module, "note o: one observer per module")


def spotter_plane_limits(
    campaign: Campaign, side: Side, rg: ReinforcementGroup, module_id: str | None
) -> tuple[int, tuple[str, ...]]:
    """German RG chart note s and compilation rule 10: a Spotter Plane serves one non-rocket OBA
    module of 100mm or more, and is Retained as long as that module is; only one Spotter Plane
    may fly in a CG scenario, and none in Overcast, Fog, Heavy Mist or Mist. Refused for no
    module, a rocket module, a module under 100mm, or a module that has a Spotter Plane already."""
    module = _module(side, rg, module_id, "note s")
    if module.rocket:
        raise IllegalCommand(
            f"A Spotter Plane is only for non-rocket OBA of {SPOTTER_PLANE_MIN_MM}+mm (note s; compilation "
            f"rule 10): {module.label} is rocket OBA"
        )
    if (module.oba_mm or 0) < SPOTTER_PLANE_MIN_MM:
        raise IllegalCommand(
            f"A Spotter Plane is only for non-rocket OBA of {SPOTTER_PLANE_MIN_MM}+mm (note s; compilation "
            f"rule 10): {module.label} is {module.oba_mm}+mm"
        )
    served, notes = _assign(campaign, side, rg, module, "note s: one Spotter Plane per module")
    rule_10 = (
        "one Spotter Plane flies per CG scenario, none in Overcast/Fog/Heavy Mist/Mist (compilation rule 10)"
    )
    return served, (*notes, rule_10)


def _module(side: Side, rg: ReinforcementGroup, module_id: str | None, why: str) -> ReinforcementGroup:
    if module_id is None:
        raise IllegalCommand(f"{rg.label} is bought for one OBA module ({why}): name it, e.g. {rg.id} for O2")
    module = find_reinforcement_group(side, module_id)
    if module.kind != "oba":
        raise IllegalCommand(f"{rg.label} serves an OBA module: {module.label} is not one")
    return module


def _assign(
    campaign: Campaign, side: Side, rg: ReinforcementGroup, module: ReinforcementGroup, limit: str
) -> tuple[int, tuple[str, ...]]:
    if not any(f.rg_id == module.id for f in campaign.order_of_battle[side].oba_modules):
        raise IllegalCommand(
            f"The {SIDE_NAMES[side]} order of battle has no {module.label} for the {rg.name} to serve: "
            "buy the module first"
        )
    free = _free_modules(campaign, side, rg, module)
    if not free:
        raise IllegalCommand(f"Every {SIDE_NAMES[side]} {module.label} has its {rg.name} already ({limit})")
    served = free[-1]
    where = f"{module.label} of {day_label(served.day)} (ledger #{_ledger_entry(campaign, served.purchase)})"
    return served.purchase, (f"serves {where}; Retained while it is",)


# --- note g: the SPW 251/10 -----------------------------------------------------------------------


def spw_exchange_refusal(rg: ReinforcementGroup) -> str | None:
    """Why an RG cannot take note g's exchange: only the German SPW Pltn (A9) may."""
    if rg.id == SPW_PLATOON and rg.unit == SPW_251_1:
        return None
    return f"Only an SPW Pltn (A9) may exchange an {SPW_251_1} for an {SPW_251_10} (note g), not {rg.label}"


def with_spw_251_10(units: tuple[str, ...]) -> tuple[str, ...]:
    """An SPW Pltn's units (``("4 x SPW 251/1",)``) with one SPW 251/1 made an SPW 251/10 (note g)."""
    count = int(units[0].split(" x ")[0])
    return (f"{count - 1} x {SPW_251_1}", f"1 x {SPW_251_10}")


def exchange_spw_251_1(campaign: Campaign, purchase: int) -> Campaign:
    """German RG chart note g: once the Strength of a just-bought SPW Pltn is known (11.6201),
    the German may exchange one of its SPW 251/1 for one SPW 251/10. Refused before its
    Strength is rolled, for a platoon that has exchanged one already, and for any other RG."""
    bought = campaign.purchases[purchase]
    rg = find_reinforcement_group(bought.side, bought.rg_id)
    refusal = spw_exchange_refusal(rg)
    if refusal:
        raise IllegalCommand(refusal)
    formation = campaign.order_of_battle[bought.side].formation_for(purchase)
    if formation.strength is None:
        raise IllegalCommand(
            f"{rg.label} exchanges an {SPW_251_1} once its Strength is rolled (note g; 11.6201)"
        )
    if formation.spw_exchanged:
        raise IllegalCommand(
            f"{rg.label} has exchanged its one {SPW_251_1} already (note g: one per platoon)"
        )
    new = campaign.model_copy(deep=True)
    formation = new.order_of_battle[bought.side].formation_for(purchase)
    formation.units = with_spw_251_10(formation.units)
    formation.spw_exchanged = True
    received = ", ".join(formation.units)
    text = f"{rg.label}: one {SPW_251_1} exchanged for an {SPW_251_10} (note g) -> {received}"
    new.ledger.append(_rule_entry(bought.day, bought.side, text, purchase))
    return new


# --- the Balance provision and CG II --------------------------------------------------------------


def set_balance_provision(campaign: Campaign, side: str, date: datetime.date | str, drm: int) -> Campaign:
    """The RG Strength, Gun Battery and OBA ammo tables add the DRM a CG scenario Balance
    provision (11.32) gives: the referee sets it for a side, and every later roll on those tables
    adds it (:func:`engine.campaign.refit_rolls.balance_provision_drm`). Refused beyond
    +/-6 (this bot's bound: a DR is 2-12)."""
    side, day = check_side(side), cg_day(date)
    if not -MAX_BALANCE_DRM <= drm <= MAX_BALANCE_DRM:
        raise IllegalCommand(
            f"A Balance provision DRM is -{MAX_BALANCE_DRM} to +{MAX_BALANCE_DRM}, not {drm}"
        )
    new = campaign.model_copy(deep=True)
    was = new.balance_drm[side]
    new.balance_drm[side] = drm
    text = (
        f"Balance provision (11.32) DRM {drm:+d} (was {was:+d}) on RG strength, gun battery "
        "and OBA ammo rolls"
    )
    new.ledger.append(_rule_entry(day, side, text))
    return new


def set_cg_ii(campaign: Campaign, date: datetime.date | str, cg_ii: bool) -> Campaign:
    """The German Leader DRM adds +1 in a CG II scenario (Leader DRM table): the referee says
    whether the campaign's CG scenarios are CG II ones, and later German leader rolls follow
    (:func:`engine.campaign.refit_rolls.cg_ii_leader_drm`)."""
    day = cg_day(date)
    new = campaign.model_copy(deep=True)
    new.cg_ii = cg_ii
    text = (
        "CG II scenarios: +1 German Leader DRM (Leader DRM table)"
        if cg_ii
        else "Not CG II scenarios: no CG II German Leader DRM"
    )
    new.ledger.append(_rule_entry(day, "german", text))
    return new


# --- SSR RB7 and compilation rule 3: hidden units -------------------------------------------------


def rb7_no_hidden_russian_fortifications(side: Side, hidden: str | None) -> None:
    """SSR RB7: German air reconnaissance means Entrenchments (Foxholes, Trenches, A-T Ditches)
    and Wire given to or bought for the Russian side never set up hidden (HIP). Refused when a
    Russian HIP purchase, or a unit kept hidden, names one of them."""
    if side != "russian" or hidden is None:
        return
    wanted = hidden.casefold()
    for name in ENTRENCHMENTS_AND_WIRE:
        if re.search(rf"\b{re.escape(name.casefold())}(e?s)?\b", wanted):
            raise IllegalCommand(
                f"Russian Entrenchments and Wire never set up hidden (RB7): no HIP for {hidden}"
            )


def still_hidden_unit_cost(unit: str, rate: int | None, gun: bool, rates: tuple[int, ...]) -> tuple[int, str]:
    """Compilation rule 3 (Still Hidden Units): a unit still hidden at RePh step O11.602 may stay
    hidden into the next CG scenario; every unit but a Gun pays FPP to keep its HIP, at the
    Fortification Table's HIP cost (5/3/2/1/1, the rate named); a Gun keeps it free. Returns
    the FPP and how they are read; refused without a rate for a non-Gun, or a rate the HIP line
    does not print, or a rate for a Gun."""
    if gun:
        if rate is not None:
            raise IllegalCommand(f"A Gun keeps its HIP free (compilation rule 3): no rate for {unit}")
        return 0, "free: a Gun (compilation rule 3)"
    costs = "/".join(str(r) for r in rates)
    if rate is None:
        raise IllegalCommand(
            f"Keeping {unit} hidden costs HIP FPP (compilation rule 3): name the HIP rate ({costs}), "
            f"e.g. keep {unit} hidden at {rates[0]}"
        )
    if rate not in rates:
        raise IllegalCommand(f"HIP costs {costs} FPP (compilation rule 3), not {rate}")
    return rate, f"at the HIP rate {rate} FPP (compilation rule 3)"


# --- compilation rule 11: OBA chit draws ----------------------------------------------------------


def second_red_chit_returned(black_removed: int, red_removed: int) -> bool:
    """Compilation rule 11 (Offboard Artillery): when a Battery Access draw gives the red chit
    that would be the module's second one permanently removed, it goes back into the Draw Pile,
    and the Observer's OBA actions end for that Player Turn, unless at least two black chits have
    been permanently removed already. (The rule's own restatement, "the second red chit can only
    be removed if at least two black chits have been", is the reading used.)"""
    return red_removed == 1 and black_removed < 2


def battery_access_chit(campaign: Campaign, entry: int, colour: str, date: datetime.date | str) -> Campaign:
    """Record a chit drawn for Battery Access with the OBA module bought in ledger entry
    ``entry``, as the referee reports it (:func:`second_red_chit_returned` decides a second red
    chit's fate), and what it leaves permanently out of the module's Draw Pile. A black chit
    reported is one permanently removed. Refused for an entry that is not the purchase of an OBA
    module still in the order of battle, or a colour other than black or red."""
    day = cg_day(date)
    if not 0 <= entry < len(campaign.ledger):
        raise IllegalCommand(f"The ledger has no entry #{entry}")
    purchase = campaign.ledger[entry].purchase
    bought = (
        None
        if campaign.ledger[entry].kind != "purchase" or purchase is None
        else campaign.purchases[purchase]
    )
    if bought is None or bought.voided or find_reinforcement_group(bought.side, bought.rg_id).kind != "oba":
        raise IllegalCommand(
            f"Ledger entry #{entry} is not the purchase of an OBA module in the order of battle"
        )
    assert purchase is not None
    rg = find_reinforcement_group(bought.side, bought.rg_id)
    wanted = colour.strip().casefold()
    if wanted not in (BLACK, RED):
        raise IllegalCommand(f"A Draw Pile chit is black or red, not {colour!r}")
    new = campaign.model_copy(deep=True)
    module = new.order_of_battle[bought.side].formation_for(purchase)
    if wanted == BLACK:
        module.black_chits_removed += 1
        what = "black chit permanently removed"
    elif second_red_chit_returned(module.black_chits_removed, module.red_chits_removed):
        what = (
            f"second red chit returned to the Draw Pile, only {module.black_chits_removed} black removed; "
            "the Observer's OBA actions end this Player Turn (compilation rule 11)"
        )
    else:
        module.red_chits_removed += 1
        what = "red chit permanently removed"
    totals = f"{module.black_chits_removed} black, {module.red_chits_removed} red out"
    text = f"{rg.label} (ledger #{entry}) Battery Access: {what}; {totals}"
    new.ledger.append(_rule_entry(day, bought.side, text, purchase))
    return new
