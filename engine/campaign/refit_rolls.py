"""RG Strength, Weapons and Leaders (RePh 11.620-11.6207): the rolls a purchase needs, each made
on the Red Barricades charts (``engine/data/charts/red-barricades.yaml``) and kept in the ledger."""

from __future__ import annotations

from engine.campaign.calendar import SIDE_NAMES, Side, day_label
from engine.campaign.ledger import LedgerEntry, RollSets
from engine.campaign.red_barricades import Campaign, Purchase
from engine.campaign.rg_chart import ReinforcementGroup, find_reinforcement_group, rg_charts
from engine.dice import DiceSource
from engine.errors import IllegalCommand
from engine.rolls.charts import ChartRoll, find_chart, roll_on_chart

FULL_STRENGTH = "Full Strength"
DEPLETED = "Depleted"


def _roll(chart_id: str, choices: str, dice: DiceSource) -> ChartRoll:
    return roll_on_chart(find_chart(chart_id), choices, dice)


def _entry(
    purchase: int, bought: Purchase, sets: RollSets, text: str, rolled: ChartRoll | None = None
) -> LedgerEntry:
    return LedgerEntry(
        day=bought.day,
        side=bought.side,
        kind="roll",
        text=text,
        dice=rolled.dice if rolled else (),
        purchase=purchase,
        sets=sets,
    )


def _awaiting(campaign: Campaign, purchase: int) -> Purchase:
    if not 0 <= purchase < len(campaign.purchases):
        raise IllegalCommand(
            f"There is no purchase #{purchase}: purchases are #0 to #{len(campaign.purchases) - 1}"
            if campaign.purchases
            else f"There is no purchase #{purchase}: nothing has been bought yet"
        )
    bought = campaign.purchases[purchase]
    if not bought.awaiting_rolls:
        rg = find_reinforcement_group(bought.side, bought.rg_id)
        what = f"Purchase #{purchase} ({SIDE_NAMES[bought.side]} {rg.label}, {day_label(bought.day)})"
        raise IllegalCommand(f"{what} {'has had its rolls already' if rg.needs_rolls else 'needs no rolls'}")
    return bought


def balance_provision_drm(campaign: Campaign, side: Side) -> str:
    """The RG Strength Table and the Gun Battery/OBA Module tables add the DRM of the CG
    scenario Balance provision (11.32) in effect, as the referee set it for the side
    (:func:`engine.campaign.purchase_rules.set_balance_provision`): the chart choice for it."""
    return f"balance={campaign.balance_drm[side]}"


def cg_ii_leader_drm(campaign: Campaign, side: Side) -> list[str]:
    """The German Leader DRM adds +1 in a CG II scenario (Leader DRM table): the chart choice
    for it when the referee says the campaign plays CG II scenarios; the Russian Leader DRM has
    no such line."""
    return ["cg2"] if side == "german" and campaign.cg_ii else []


def _strength(
    campaign: Campaign, rg: ReinforcementGroup, bought: Purchase, dice: DiceSource
) -> tuple[bool, ChartRoll | None]:
    """RG Strength (11.6201): a DR on the RG Strength Table (the Gun Battery table for a battery)
    plus the side's Historical DRM for the CG Day and its Balance provision DRM; Assault
    Engineers (rule 6) and Militia (rule 7) companies are always Full Strength. Returns
    (depleted, the roll if one was made)."""
    if rg.always_full_strength:
        return False, None
    chart = "rb-gun-battery" if rg.kind == "battery" else "rb-rg-strength"
    balance = balance_provision_drm(campaign, bought.side)
    rolled = _roll(chart, f"side={bought.side}, date={day_label(bought.day)}, {balance}", dice)
    return rolled.result.startswith(DEPLETED), rolled


def _rifle_coy_number(campaign: Campaign, purchase: int) -> int:
    """Which German Rifle Coy purchase this is, counting by CG Day, then order of purchase; a
    purchase the referee voided was never made, and is not counted."""
    this = campaign.purchases[purchase]
    return sum(
        1
        for index, p in enumerate(campaign.purchases)
        if p.side == this.side
        and p.rg_id == this.rg_id
        and not p.voided
        and (p.day, index) <= (this.day, purchase)
    )


def _leaders(
    campaign: Campaign, purchase: int, rg: ReinforcementGroup, depleted: bool, dice: DiceSource
) -> ChartRoll:
    """Leaders (11.6205-11.6207): a DR on the side's Leader Table with the Leader DRM for the
    company type and a Depleted company, for the sixth and later German Rifle Coy bought, and
    for a German company in a CG II scenario."""
    side = campaign.purchases[purchase].side
    choices = [f"company={rg.leader_company}", *cg_ii_leader_drm(campaign, side)]
    if side == "german" and rg.leader_company == "rifle":
        choices.append(f"rifle_number={_rifle_coy_number(campaign, purchase)}")
    if depleted:
        choices.append("depleted")
    return _roll(f"rb-{side}-leaders", ", ".join(choices), dice)


def _support_weapons(rg: ReinforcementGroup, bought: Purchase) -> tuple[str, ...]:
    """SW (11.6202): the company's row of the Infantry Company SW chart."""
    row = rg_charts().side(bought.side).support_weapons[str(rg.sw_company)]
    return tuple(weapon if count == 1 else f"{count} x {weapon}" for weapon, count in row.items())


def roll_after_purchase(campaign: Campaign, purchase: int, dice: DiceSource) -> Campaign:
    """Make the rolls purchase #``purchase`` needs (RePh 11.620) and record each in the ledger.

    - an OBA module rolls its ammo on the side's OBA table with the Historical DRM (11.6161);
    - an AFV platoon, infantry company, HW/MOL-P platoon or gun battery rolls its strength
      (see ``_strength``); a Depleted battery has one Gun fewer of each type;
    - an infantry company then rolls its leaders (see ``_leaders``) and receives its SW from the
      SW chart (11.6202), none for a Militia Coy (compilation rule 7).
    """
    bought = _awaiting(campaign, purchase)
    rg = find_reinforcement_group(bought.side, bought.rg_id)
    new = campaign.model_copy(deep=True)
    formation = new.order_of_battle[bought.side].formation_for(purchase)
    entries: list[LedgerEntry] = []
    if rg.kind == "oba":
        balance = balance_provision_drm(campaign, bought.side)
        rolled = _roll(f"rb-{bought.side}-oba-ammo", f"date={day_label(bought.day)}, {balance}", dice)
        formation.ammo = rolled.result
        entries.append(_entry(purchase, bought, "ammo", f"{rg.label}: {rolled.text}", rolled))
    else:
        depleted, rolled = _strength(campaign, rg, bought, dice)
        formation.strength = DEPLETED if depleted else FULL_STRENGTH
        formation.units = rg.units_received(depleted)
        received = ", ".join(formation.units)
        how = rolled.text if rolled else f"always {FULL_STRENGTH}, no roll ({rg.always_full_strength})"
        entries.append(_entry(purchase, bought, "strength", f"{rg.label}: {how} -> {received}", rolled))
        if rg.kind == "infantry":
            rolled = _leaders(new, purchase, rg, depleted, dice)
            formation.leaders = tuple(rolled.result.split(", "))
            entries.append(_entry(purchase, bought, "leaders", f"{rg.label} leaders: {rolled.text}", rolled))
            if rg.no_support_weapons:
                entries.append(
                    _entry(
                        purchase, bought, "support_weapons", f"{rg.label} SW: none ({rg.no_support_weapons})"
                    )
                )
            else:
                formation.support_weapons = _support_weapons(rg, bought)
                weapons = ", ".join(formation.support_weapons) or "none"
                entries.append(_entry(purchase, bought, "support_weapons", f"{rg.label} SW: {weapons}"))
    new.purchases[purchase].awaiting_rolls = False
    new.ledger.extend(entries)
    return new
