"""Referee corrections of the Red Barricades ledger, with the books following them.

The campaign's referee corrects a ledger entry by saying what it should have been (``to``) and
why. The correction is a new ledger entry naming the one it corrects
(:func:`engine.campaign.ledger.correct_entry`); the corrected entry stays as it was, while the
CPP, FPP and order of battle follow the correction. What ``to`` is depends on the entry:

- a CPP entry: the CG Day's CPP (11.616), e.g. ``8``;
- a purchase (an RG or fortifications): ``void``: it is cancelled, its CPP or FPP come back and
  its formation leaves the order of battle;
- an RG strength roll (11.6201): ``full`` or ``depleted``: the formation gets that strength's units;
- a leaders roll (11.6205): the leaders, ratings of the side's Leader Table (``9-1, 8-0``) or ``none``;
- an SW entry (11.6202): the support weapons (``HMG, 2 x LMG``) or ``none``;
- an OBA ammo roll (11.6161): ``plentiful``, ``normal`` or ``scarce``;
- a retained entry (SSR CG10): the units retained, or ``none``.

A correction is not itself corrected: correct the original entry again, and the newest
correction stands. (Campaign runtime house rule: the referee's logged correction, issue 10.)
"""

from __future__ import annotations

from collections.abc import Callable

from engine.campaign.calendar import SIDE_NAMES, day_label
from engine.campaign.ledger import LedgerEntry, correct_entry, entry_to_correct
from engine.campaign.purchase_rules import with_spw_251_10
from engine.campaign.red_barricades import Campaign, cpp_left, fpp_left, with_cpp
from engine.campaign.refit_rolls import DEPLETED, FULL_STRENGTH
from engine.campaign.rg_chart import find_reinforcement_group
from engine.errors import IllegalCommand
from engine.rolls.charts import find_chart

VOID = "void"

Corrected = tuple[Campaign, str, int, tuple[str, ...]]  # the books, the correction's text, cost, units


def _listed(value: str) -> tuple[str, ...]:
    """``"HMG, 2 x LMG"`` -> ("HMG", "2 x LMG"); ``"none"`` -> ()."""
    if value.casefold() == "none":
        return ()
    return tuple(item.strip() for item in value.split(",") if item.strip())


def _cpp(books: Campaign, index: int, entry: LedgerEntry, value: str) -> Corrected:
    if not value.isdigit():
        raise IllegalCommand(
            f"Entry #{index} sets CPP: give the CG Day's CPP as a whole number, not {value!r}"
        )
    was = books.cpp[entry.side].get(entry.day, 0)
    new = with_cpp(books, entry.side, entry.day, int(value))
    left = cpp_left(new, entry.side, entry.day)
    return new, f"CPP for {day_label(entry.day)} set to {value} (not {was}); {left} CPP left", 0, ()


def _void(books: Campaign, index: int, entry: LedgerEntry, value: str) -> Corrected:
    if value.casefold() != VOID:
        raise IllegalCommand(f"Entry #{index} is a purchase: correct it with to:{VOID}, not {value!r}")
    new = books.model_copy(deep=True)
    side, day = entry.side, entry.day
    if entry.fortification is not None:
        bought = new.fortifications[entry.fortification]
        if bought.voided:
            raise IllegalCommand(f"Entry #{index} ({bought.text}) is void already")
        bought.voided = True
        text = f"Void: {bought.text}; {bought.cost} FPP back, {fpp_left(new, side, day)} FPP left"
        return new, text, -bought.cost, ()
    if entry.purchase is None:
        raise IllegalCommand(f"Entry #{index} names no purchase the books can cancel")
    purchase = new.purchases[entry.purchase]
    rg = find_reinforcement_group(side, purchase.rg_id)
    if purchase.voided:
        raise IllegalCommand(f"Entry #{index} ({rg.label}) is void already")
    purchase.voided, purchase.awaiting_rolls = True, False
    formations = new.order_of_battle[side].formations
    formations[:] = [f for f in formations if f.purchase != entry.purchase]
    fpp = fpp_left(new, side, day)
    if fpp < 0:
        raise IllegalCommand(
            f"Voiding {rg.label} would leave the {SIDE_NAMES[side]} side {-fpp} FPP overspent on "
            f"{day_label(day)}: void the fortifications bought with its FPP first"
        )
    text = f"Void: {rg.label}; {purchase.cost} CPP back, {cpp_left(new, side, day)} CPP left"
    return new, text, -purchase.cost, ()


def _strength(value: str) -> bool:
    """Whether ``value`` says Depleted (else Full Strength)."""
    wanted = value.casefold()
    if wanted in ("full", FULL_STRENGTH.casefold()):
        return False
    if wanted == DEPLETED.casefold():
        return True
    raise IllegalCommand(f"An RG's strength is full or depleted, not {value!r}")


def _ratings(side: str) -> list[str]:
    """The leader ratings the side's Leader Table gives, best morale first: 10-3 ... 6+1."""
    chart = find_chart(f"rb-{side}-leaders")
    ratings = {rating for band in chart.bands for rating in band.result.split(", ")}
    return sorted(ratings, key=lambda rating: (-int(rating[:-2]), int(rating[-2:])))


def _roll(books: Campaign, index: int, entry: LedgerEntry, value: str) -> Corrected:
    if entry.purchase is None or entry.sets is None:
        raise IllegalCommand(f"Entry #{index} names no roll the books can follow")
    purchase = books.purchases[entry.purchase]
    rg = find_reinforcement_group(entry.side, purchase.rg_id)
    if purchase.voided:
        raise IllegalCommand(f"Entry #{index} is a roll for {rg.label}, which is void")
    new = books.model_copy(deep=True)
    formation = new.order_of_battle[entry.side].formation_for(entry.purchase)
    if entry.sets == "strength":
        depleted = _strength(value)
        formation.strength = DEPLETED if depleted else FULL_STRENGTH
        formation.units = rg.units_received(depleted)
        if formation.spw_exchanged:  # note g's exchange stands whatever the strength
            formation.units = with_spw_251_10(formation.units)
        text = f"{rg.label}: {formation.strength} -> {', '.join(formation.units)}"
    elif entry.sets == "leaders":
        leaders = _listed(value)
        known = _ratings(entry.side)
        unknown = [leader for leader in leaders if leader not in known]
        if unknown:
            raise IllegalCommand(
                f"The {SIDE_NAMES[entry.side]} Leader Table has no {', '.join(unknown)}: "
                f"it gives {', '.join(known)}"
            )
        formation.leaders = leaders
        text = f"{rg.label} leaders: {', '.join(leaders) or 'none'}"
    elif entry.sets == "support_weapons":
        formation.support_weapons = _listed(value)
        text = f"{rg.label} SW: {', '.join(formation.support_weapons) or 'none'}"
    else:
        results = {band.result for band in find_chart(f"rb-{entry.side}-oba-ammo").bands}
        ammo = value if value.casefold().endswith(" ammo") else f"{value} ammo"
        chosen = next((result for result in results if result.casefold() == ammo.casefold()), None)
        if chosen is None:
            raise IllegalCommand(f"OBA ammo is {', '.join(sorted(results))}, not {value!r}")
        formation.ammo = chosen
        text = f"{rg.label}: {chosen}"
    return new, text, 0, ()


def _retained(books: Campaign, index: int, entry: LedgerEntry, value: str) -> Corrected:
    """The side's retained force follows the correction only if no later record replaced it."""
    units = _listed(value)
    new = books.model_copy(deep=True)
    newest = max(i for i, e in enumerate(books.ledger) if e.kind == "retained" and e.side == entry.side)
    if newest == index:
        new.order_of_battle[entry.side].retained = list(units)
    return new, f"Retained: {', '.join(units) or 'none'}", 0, units


def _rule(books: Campaign, index: int, entry: LedgerEntry, value: str) -> Corrected:
    raise IllegalCommand(
        f"Entry #{index} records a rule applied ({entry.text}): it is not corrected; "
        "set the value again, or void the purchase it applied to"
    )


def _not_again(books: Campaign, index: int, entry: LedgerEntry, value: str) -> Corrected:
    raise IllegalCommand(
        f"Entry #{index} is a correction of #{entry.corrects}: correct #{entry.corrects} again"
    )


_CORRECTIONS: dict[str, Callable[[Campaign, int, LedgerEntry, str], Corrected]] = {
    "cpp": _cpp,
    "purchase": _void,
    "roll": _roll,
    "retained": _retained,
    "correction": _not_again,
    "rule": _rule,
}


def correct_books(books: Campaign, index: int, to: str, reason: str) -> Campaign:
    """Referee correction: ledger entry ``index`` should have been ``to`` (see the module's
    list), for ``reason``. The books follow it, and the correction joins the ledger; refused,
    changing nothing, when there is no such entry or reason, ``to`` does not fit the entry, or
    the books cannot follow it (CPP or FPP left overspent)."""
    entry = entry_to_correct(books.ledger, index, reason)
    value = " ".join(to.split())
    if not value:
        raise IllegalCommand(f"Say what entry #{index} should have been with to:")
    new, text, cost, units = _CORRECTIONS[entry.kind](books, index, entry, value)
    new.ledger = correct_entry(new.ledger, index, text, reason, cost, units)
    return new
