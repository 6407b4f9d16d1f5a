"""Red Barricades CG III bookkeeping: the calendar and Historical DRM, the RG chart data against
the compilation, and a three-day run of purchases and rolls giving an exact ledger.

Purchase limits are in test_red_barricades_purchases.py, the post-purchase rolls in
test_red_barricades_rolls.py; both use the helpers here."""

import csv
import datetime
import io

import pytest

from engine.campaign.calendar import CG_DAYS, check_side, historical_drm, parse_cg_date
from engine.campaign.ledger import correct_entry, ledger_csv, ledger_table
from engine.campaign.purchases import purchase_fortification, purchase_reinforcement_group
from engine.campaign.red_barricades import Campaign, cpp_left, fpp_left, retain_units, set_cpp
from engine.campaign.refit_rolls import roll_after_purchase
from engine.campaign.rg_chart import find_reinforcement_group, rg_charts
from engine.dice import ScriptedDice, d6
from engine.errors import IllegalCommand


def bought(side, rg_id, day, preregistered_hexes=0, campaign=None):
    """A campaign (a fresh one with 60 CPP that day unless given) with one more RG bought."""
    campaign = campaign or set_cpp(Campaign(), side, day, 60)
    return purchase_reinforcement_group(campaign, side, rg_id, day, preregistered_hexes)


def rolled(campaign, purchase, *faces):
    """Roll after purchase #``purchase`` with exactly these d6 faces."""
    dice = ScriptedDice([d6(face) for face in faces])
    campaign = roll_after_purchase(campaign, purchase, dice)
    assert dice.remaining == 0, f"{dice.remaining} scripted dice were not used"
    return campaign


def nov(day):
    return datetime.date(1942, 11, day)


def oct_(day):
    return datetime.date(1942, 10, day)


# --- the calendar ------------------------------------------------------------------------------


def test_the_cg_calendar_runs_day_by_day_from_17_october_to_15_november():
    assert len(CG_DAYS) == 30
    assert (CG_DAYS[0], CG_DAYS[-1]) == (oct_(17), nov(15))
    assert all((b - a).days == 1 for a, b in zip(CG_DAYS, CG_DAYS[1:], strict=False))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("2 Nov", nov(2)),
        ("2 November", nov(2)),
        ("Nov 2", nov(2)),
        ("November 2", nov(2)),
        ("nov. 2", nov(2)),
        ("2 Nov 1942", nov(2)),
        ("Nov 2, 1942", nov(2)),
        (" 17 oct ", oct_(17)),
        ("31 October", oct_(31)),
        ("15 Nov", nov(15)),
    ],
)
def test_cg_days_are_read_day_first_or_month_first(text, day):
    assert parse_cg_date(text) == day


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("16 Oct", "16 Oct 1942 is not a CG Day: Red Barricades CG III runs 17 Oct to 15 Nov 1942"),
        ("3 Dec", "3 Dec 1942 is not a CG Day: Red Barricades CG III runs 17 Oct to 15 Nov 1942"),
        ("2 Nov 1943", "2 Nov 1943 is not a CG Day"),
        ("31 Nov", "'31 Nov' is not a date"),
        ("soon", "Cannot read 'soon' as a CG Day: write e.g. 2 Nov, 2 November or Nov 2"),
        ("2 No", "Cannot read '2 No' as a CG Day"),
    ],
)
def test_days_outside_the_calendar_are_refused(text, message):
    with pytest.raises(IllegalCommand) as refused:
        parse_cg_date(text)
    assert str(refused.value).startswith(message)


def test_only_the_two_cg_sides_are_known():
    assert check_side(" German ") == "german"
    with pytest.raises(IllegalCommand, match="^The side is german or russian, not 'italian'$"):
        check_side("italian")


# The Historical DRM Chart (11.6161) as the compilation prints it: date, German, Russian.
HISTORICAL_DRM = """
17 Oct -2 -1 | 18 Oct -2 -1 | 19 Oct -1 0 | 20 Oct 0 0 | 21 Oct -1 -1 | 22 Oct -2 0 | 23 Oct -1 -1
24 Oct -1 -1 | 25 Oct -1 0 | 26 Oct 0 0 | 27 Oct -1 -1 | 28 Oct 0 -1 | 29 Oct +1 0 | 30 Oct +1 -1
31 Oct 0 -2 | 1 Nov +1 -1 | 2 Nov +2 0 | 3 Nov +1 +1 | 4 Nov +1 +1 | 5 Nov +1 +1 | 6 Nov +1 0
7 Nov 0 0 | 8 Nov 0 0 | 9 Nov -1 -1 | 10 Nov -2 -1 | 11 Nov -3 -1 | 12 Nov -1 0 | 13 Nov 0 0
14 Nov +1 +1 | 15 Nov +1 +1
"""
DRM_ROWS = [row.split() for row in HISTORICAL_DRM.replace("\n", " |").split("|") if row.strip()]
DRM_CASES = [
    (f"{day} {month}", side, int(drm))
    for day, month, german, russian in DRM_ROWS
    for side, drm in (("german", german), ("russian", russian))
]


def test_the_drm_table_covers_every_cg_day():
    assert [parse_cg_date(f"{day} {month}") for day, month, *_ in DRM_ROWS] == list(CG_DAYS)


@pytest.mark.parametrize(("day", "side", "drm"), DRM_CASES)
def test_historical_drm_of_every_cg_day_for_both_sides(day, side, drm):
    assert historical_drm(side, day) == drm


# An AFV platoon of three/two: German Pz III H Pltn, Russian T-70 Pltn.
PLATOON = {"german": ("A4", "Pz IIIH"), "russian": ("A2", "T-70")}


@pytest.mark.parametrize(("day", "side", "drm"), DRM_CASES)
def test_rg_strength_adds_the_days_historical_drm_on_both_sides_of_the_band_edge(day, side, drm):
    """Final DR 8 is Full Strength, 9 Depleted: a natural 8 - DRM and 9 - DRM straddle the edge."""
    rg_id, afv = PLATOON[side]
    campaign = bought(side, rg_id, day)
    for natural, strength, count in ((8 - drm, "Full Strength", 3), (9 - drm, "Depleted", 2)):
        faces = (natural - 6, 6) if natural > 7 else (natural - 1, 1)
        formation = rolled(campaign, 0, *faces).order_of_battle[side].formations[0]
        assert (formation.strength, formation.units) == (strength, (f"{count} x {afv}",))


# --- the RG charts as data ---------------------------------------------------------------------

# ID, CPP cost, daily max, CG:III max as the compilation prints them.
GERMAN_CHART = """S1 1 1 9, A1 4 2 3, A2 5 1 2, A3 5 1 2, A4 3 2 3, A5 4 2 3, A6 5 2 3, A7 6 1 2, A8 3 1 3,
A9 2 2 4, I1 7 2 14, I2 9 2 9, I3 14 2 7, I4 6 1 5, O1 2 2 12, O2 4 2 7, O3 6 2 5, O4 2 2 4, O5 1 2 7,
O6 1 1 4, G1 3 1 3, G2 4 1 3, G3 4 1 2, M1 1 2 60, M2 1 1 20"""
RUSSIAN_CHART = """A1 3 1 3, A2 3 2 3, A3 5 1 1, A4 6 1 1, A5 4 1 1, I1 9 2 6, I2 7 2 8, I3 5 2 14,
I4 4 2 12, I5 4 2 4, I6 12 1 4, I7 6 1 6, I8 2 1 6, O1 1 2 8, O2 1 2 10, O3 3 2 7, O4 5 2 6, O5 3 2 6,
G1 4 1 4, G2 5 1 2, G3 4 1 4, M1 1 4 90, M2 1 1 30, M3 2 1 30"""


@pytest.mark.parametrize(("side", "printed"), [("german", GERMAN_CHART), ("russian", RUSSIAN_CHART)])
def test_rg_chart_costs_and_maxima_match_the_compilation(side, printed):
    rows = [row.split() for row in printed.replace("\n", " ").split(",")]
    charted = [(rg.id, rg.cost, rg.daily_max, rg.campaign_max) for rg in rg_charts().side(side).groups]
    assert charted == [(i, int(cost), int(daily), int(most)) for i, cost, daily, most in rows]


def test_availability_notes_are_dates_and_pre_registration_is_for_oba_modules():
    assert find_reinforcement_group("german", "I3").from_date == nov(5)
    assert find_reinforcement_group("russian", "I5").until_date == oct_(31)
    for side in ("german", "russian"):
        for rg in rg_charts().side(side).groups:
            assert rg.preregistration == (rg.kind == "oba")
            assert rg.notes.count("p") == rg.preregistration
            if rg.id not in (("I3",) if side == "german" else ("I5",)):
                assert rg.from_date is None and rg.until_date is None


# --- a three-day run and its ledger ------------------------------------------------------------


def three_cg_days():
    c = Campaign()
    # 17 Oct
    c = set_cpp(c, "german", "17 Oct", 20)
    c = set_cpp(c, "russian", "17 Oct", 15)
    c = purchase_reinforcement_group(c, "german", "I1", "17 Oct")  # purchase #0
    c = rolled(c, 0, 5, 4, 2, 3)
    c = purchase_reinforcement_group(c, "german", "O3", "17 Oct", preregistered_hexes=1)  # #1
    c = rolled(c, 1, 6, 6)
    c = purchase_reinforcement_group(c, "russian", "I3", "17 Oct")  # #2
    c = rolled(c, 2, 6, 5, 3, 3)
    c = purchase_reinforcement_group(c, "russian", "M1", "17 Oct")  # #3
    c = purchase_fortification(c, "russian", "Trench", "17 Oct", quantity=2)
    # 18 Oct
    c = set_cpp(c, "german", "18 Oct", 5)
    c = set_cpp(c, "russian", "18 Oct", 6)
    c = purchase_reinforcement_group(c, "german", "A4", "18 Oct")  # #4
    c = rolled(c, 4, 4, 4)
    c = purchase_reinforcement_group(c, "russian", "I5", "18 Oct")  # #5
    c = rolled(c, 5, 2, 2)
    c = purchase_reinforcement_group(c, "russian", "G1", "18 Oct")  # #6
    c = rolled(c, 6, 5, 6)
    # 19 Oct
    c = set_cpp(c, "german", "19 Oct", 4)
    c = set_cpp(c, "russian", "19 Oct", 3)
    c = purchase_reinforcement_group(c, "german", "G1", "19 Oct")  # #7
    c = rolled(c, 7, 3, 4)
    c = purchase_reinforcement_group(c, "russian", "O2", "19 Oct", preregistered_hexes=2)  # #8
    c = rolled(c, 8, 1, 2)
    c = retain_units(c, "russian", "19 Oct", ["4-4-7 (I3)", "9-1"])
    return c


THREE_DAY_LEDGER = """\
#   Day     Side     Kind      Cost    Dice  Text
0   17 Oct  German   cpp                     CPP for 17 Oct set to 20; 20 CPP left
1   17 Oct  Russian  cpp                     CPP for 17 Oct set to 15; 15 CPP left
2   17 Oct  German   purchase  7 CPP         Bought I1 Rifle Coy (7 CPP); 13 CPP left
3   17 Oct  German   roll              5+4   I1 Rifle Coy: RG strength (Red Barricades): DR 5 + 4, -2 historical DRM = 7: Full Strength -> 12 x 4-6-7
4   17 Oct  German   roll              2+3   I1 Rifle Coy leaders: German leaders received (Red Barricades): DR 2 + 3 = 5: 9-2, 8-1, 7-0
5   17 Oct  German   roll                    I1 Rifle Coy SW: HMG, MMG, LMG, ATR, LtMtr
6   17 Oct  German   purchase  7 CPP         Bought O3 Hvy Arty with 1 Pre-Registered hex (6 + 1 = 7 CPP); 6 CPP left
7   17 Oct  German   roll              6+6   O3 Hvy Arty: German OBA ammo (Red Barricades): DR 6 + 6, -2 German historical DRM = 10: Scarce ammo
8   17 Oct  Russian  purchase  5 CPP         Bought I3 Rifle Coy (5 CPP); 10 CPP left
9   17 Oct  Russian  roll              6+5   I3 Rifle Coy: RG strength (Red Barricades): DR 6 + 5, -1 historical DRM = 10: Depleted -> 9 x 4-4-7
10  17 Oct  Russian  roll              3+3   I3 Rifle Coy leaders: Russian leaders received (Red Barricades): DR 3 + 3, +2 depleted company = 8: 8-0, 7-0
11  17 Oct  Russian  roll                    I3 Rifle Coy SW: HMG, MMG, LMG, ATR, LtMtr
12  17 Oct  Russian  purchase  1 CPP         Bought M1 Fortifications: 40 FPP (1 CPP); 9 CPP left
13  17 Oct  Russian  purchase  14 FPP        Bought 2 x Trench at 7 FPP per item (14 FPP); 26 FPP left
14  18 Oct  German   cpp                     CPP for 18 Oct set to 5; 11 CPP left
15  18 Oct  Russian  cpp                     CPP for 18 Oct set to 6; 15 CPP left
16  18 Oct  German   purchase  3 CPP         Bought A4 Pz III H Pltn (3 CPP); 8 CPP left; no Platoon Withdrawal, MG Exchange compulsory (compilation rule 9)
17  18 Oct  German   roll              4+4   A4 Pz III H Pltn: RG strength (Red Barricades): DR 4 + 4, -2 historical DRM = 6: Full Strength -> 3 x Pz IIIH
18  18 Oct  Russian  purchase  4 CPP         Bought I5 Militia Coy (4 CPP); 11 CPP left
19  18 Oct  Russian  roll                    I5 Militia Coy: always Full Strength, no roll (compilation rule 7, Militia) -> 12 x 4-2-6
20  18 Oct  Russian  roll              2+2   I5 Militia Coy leaders: Russian leaders received (Red Barricades): DR 2 + 2, +3 company type = 7: 8-1, 8-0
21  18 Oct  Russian  roll                    I5 Militia Coy SW: none (compilation rule 7, Militia)
22  18 Oct  Russian  purchase  4 CPP         Bought G1 AT Battery (4 CPP); 7 CPP left
23  18 Oct  Russian  roll              5+6   G1 AT Battery: Gun battery strength (Red Barricades): DR 5 + 6, -1 historical DRM = 10: Depleted: one gun fewer of each type -> 1 x 45L AT, 1 x 45LL AT
24  19 Oct  German   cpp                     CPP for 19 Oct set to 4; 12 CPP left
25  19 Oct  Russian  cpp                     CPP for 19 Oct set to 3; 10 CPP left
26  19 Oct  German   purchase  3 CPP         Bought G1 AT Battery I (3 CPP); 9 CPP left
27  19 Oct  German   roll              3+4   G1 AT Battery I: Gun battery strength (Red Barricades): DR 3 + 4, -1 historical DRM = 6: Full strength -> 3 x 50L PaK 38
28  19 Oct  Russian  purchase  3 CPP         Bought O2 Btl Mtr with 2 Pre-Registered hexes (1 + 2 = 3 CPP); 7 CPP left
29  19 Oct  Russian  roll              1+2   O2 Btl Mtr: Russian OBA ammo (Red Barricades): DR 1 + 2 = 3: Normal ammo
30  19 Oct  Russian  retained                Retained: 4-4-7 (I3), 9-1"""  # noqa: E501 (table rows)


def test_three_cg_days_of_purchases_and_rolls_give_this_ledger():
    assert ledger_table(three_cg_days().ledger) == THREE_DAY_LEDGER


def test_three_cg_days_leave_these_balances_and_orders_of_battle():
    c = three_cg_days()
    left = {(side, day): cpp_left(c, side, day) for side in ("german", "russian") for day in CG_DAYS[:4]}
    assert left == {
        ("german", oct_(17)): 6,
        ("german", oct_(18)): 8,
        ("german", oct_(19)): 9,
        ("german", oct_(20)): 9,
        ("russian", oct_(17)): 9,
        ("russian", oct_(18)): 7,
        ("russian", oct_(19)): 7,
        ("russian", oct_(20)): 7,
    }
    assert (fpp_left(c, "russian", "17 Oct"), fpp_left(c, "russian", "18 Oct")) == (26, 0)
    russian = c.order_of_battle["russian"]
    assert [(f.rg_id, f.strength, f.units, f.leaders) for f in russian.formations] == [
        ("I3", "Depleted", ("9 x 4-4-7",), ("8-0", "7-0")),
        ("M1", None, ("40 FPP",), ()),
        ("I5", "Full Strength", ("12 x 4-2-6",), ("8-1", "8-0")),
        ("G1", "Depleted", ("1 x 45L AT", "1 x 45LL AT"), ()),
        ("O2", None, ("80+mm Btl Mtr OBA Module",), ()),
    ]
    assert [(m.rg_id, m.ammo, m.preregistered_hexes) for m in russian.oba_modules] == [
        ("O2", "Normal ammo", 2)
    ]
    assert russian.retained == ["4-4-7 (I3)", "9-1"]
    assert not any(p.awaiting_rolls for p in c.purchases)


def test_a_campaign_round_trips_through_json():
    c = three_cg_days()
    assert Campaign.model_validate_json(c.model_dump_json()) == c


def test_without_carry_over_each_cg_day_starts_from_its_own_cpp():
    c = set_cpp(Campaign(carry_over=False), "german", "17 Oct", 20)
    c = purchase_reinforcement_group(c, "german", "I1", "17 Oct")
    c = set_cpp(c, "german", "18 Oct", 5)
    assert (cpp_left(c, "german", "17 Oct"), cpp_left(c, "german", "18 Oct")) == (13, 5)


def test_a_referee_correction_keeps_the_old_entry_and_logs_why():
    ledger = three_cg_days().ledger
    corrected = correct_entry(ledger, 10, "I3 Rifle Coy leaders: 8-0, 7-0 and a 9-1", "a leader was left off")
    assert corrected[:-1] == ledger and corrected[10] == ledger[10]
    assert ledger_table(corrected).splitlines()[-1] == (
        "31  17 Oct  Russian  correction                corrects #10: "
        "I3 Rifle Coy leaders: 8-0, 7-0 and a 9-1 (reason: a leader was left off)"
    )


@pytest.mark.parametrize(
    ("index", "reason", "message"),
    [
        (31, "typo", "The ledger has no entry #31: its entries are #0 to #30"),
        (-1, "typo", "The ledger has no entry #-1: its entries are #0 to #30"),
        (3, "  ", "A correction of entry #3 needs a reason"),
    ],
)
def test_corrections_need_an_entry_and_a_reason(index, reason, message):
    with pytest.raises(IllegalCommand) as refused:
        correct_entry(three_cg_days().ledger, index, "new text", reason)
    assert str(refused.value) == message


def test_the_ledger_as_csv():
    ledger = correct_entry(three_cg_days().ledger, 13, "Bought 2 x Trench (K5, K6)", "hexes noted")
    rows = list(csv.reader(io.StringIO(ledger_csv(ledger))))
    assert rows[0] == ["index", "day", "side", "kind", "cost", "points", "dice", "text", "corrects", "reason"]
    assert len(rows) == 1 + 32
    assert rows[1 + 4] == [
        "4",
        "1942-10-17",
        "german",
        "roll",
        "0",
        "",
        "2+3",
        "I1 Rifle Coy leaders: German leaders received (Red Barricades): DR 2 + 3 = 5: 9-2, 8-1, 7-0",
        "",
        "",
    ]
    assert rows[1 + 13][4:6] == ["14", "FPP"]
    assert rows[-1] == [
        "31",
        "1942-10-17",
        "russian",
        "correction",
        "0",
        "",
        "",
        "Bought 2 x Trench (K5, K6)",
        "13",
        "hexes noted",
    ]
