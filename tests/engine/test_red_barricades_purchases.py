"""Red Barricades RG and fortification purchases: every limit, with its exact refusal."""

import pytest

from engine.campaign.purchases import purchase_fortification, purchase_reinforcement_group
from engine.campaign.red_barricades import Campaign, cpp_left, fpp_left, retain_units, set_cpp
from engine.errors import IllegalCommand
from tests.engine.test_red_barricades import bought


def refusal(call, *args, **kwargs):
    with pytest.raises(IllegalCommand) as refused:
        call(*args, **kwargs)
    return str(refused.value)


def funded(side, cpp, day="2 Nov", carry_over=True):
    return set_cpp(Campaign(carry_over=carry_over), side, day, cpp)


def test_a_purchase_spends_its_cost_and_joins_the_order_of_battle_awaiting_its_rolls():
    c = purchase_reinforcement_group(funded("german", 12), "german", "a1", "Nov 2")
    assert cpp_left(c, "german", "2 Nov") == 8
    (purchase,) = c.purchases
    assert (purchase.rg_id, purchase.name, purchase.cost, purchase.awaiting_rolls) == (
        "A1",
        "StuG B Pltn",
        4,
        True,
    )
    (formation,) = c.order_of_battle["german"].formations
    assert (formation.purchase, formation.kind, formation.units, formation.strength) == (0, "armor", (), None)
    assert c.ledger[-1].text == (
        "Bought A1 StuG B Pltn (4 CPP); 8 CPP left; no Platoon Withdrawal, MG Exchange compulsory "
        "(compilation rule 9)"
    )


def test_a_purchase_needing_no_roll_is_received_at_once():
    c = purchase_reinforcement_group(funded("russian", 5), "russian", "M3", "2 Nov")
    assert not c.purchases[0].awaiting_rolls
    assert c.order_of_battle["russian"].formations[0].units == ("MOL Capability",)


def test_unknown_rgs_and_days_are_refused():
    assert refusal(purchase_reinforcement_group, funded("german", 9), "german", "I9", "2 Nov") == (
        "The German Reinforcement Group Chart has no 'I9': it lists S1, A1, A2, A3, A4, A5, A6, A7, A8, A9, "
        "I1, I2, I3, I4, O1, O2, O3, O4, O5, O6, G1, G2, G3, M1, M2"
    )
    assert refusal(purchase_reinforcement_group, funded("german", 9), "german", "I1", "16 Nov") == (
        "16 Nov 1942 is not a CG Day: Red Barricades CG III runs 17 Oct to 15 Nov 1942"
    )


@pytest.mark.parametrize(
    ("side", "rg_id", "day", "message"),
    [
        ("german", "I3", "4 Nov", "I3 Pioneer Coy is not available until 5 Nov (4 Nov is 1 day early)"),
        ("german", "I3", "17 Oct", "I3 Pioneer Coy is not available until 5 Nov (17 Oct is 19 days early)"),
        ("russian", "I5", "1 Nov", "I5 Militia Coy is available only until 31 Oct (1 Nov is 1 day late)"),
        ("russian", "I5", "15 Nov", "I5 Militia Coy is available only until 31 Oct (15 Nov is 15 days late)"),
    ],
)
def test_rgs_are_refused_outside_their_availability_notes(side, rg_id, day, message):
    assert refusal(purchase_reinforcement_group, funded(side, 20, day), side, rg_id, day) == message


@pytest.mark.parametrize(("side", "rg_id", "day"), [("german", "I3", "5 Nov"), ("russian", "I5", "31 Oct")])
def test_rgs_are_bought_on_the_edge_of_their_availability(side, rg_id, day):
    assert bought(side, rg_id, day).purchases[0].rg_id == rg_id


@pytest.mark.parametrize(
    ("side", "rg_id", "hexes", "message"),
    [
        ("german", "A1", 1, "A1 StuG B Pltn is not an OBA module: it cannot have Pre-Registered hexes"),
        ("russian", "G2", 2, "G2 ART Battery is not an OBA module: it cannot have Pre-Registered hexes"),
        ("german", "O2", 3, "O2 Med Arty may have at most 2 Pre-Registered hexes: 3 asked (1 too many)"),
        ("russian", "O5", 5, "O5 Katyusha may have at most 2 Pre-Registered hexes: 5 asked (3 too many)"),
        ("german", "O1", -1, "Pre-Registered hexes cannot be negative, not -1"),
    ],
)
def test_pre_registered_hexes_are_for_oba_modules_and_at_most_two(side, rg_id, hexes, message):
    assert refusal(purchase_reinforcement_group, funded(side, 20), side, rg_id, "2 Nov", hexes) == message


@pytest.mark.parametrize(
    ("hexes", "cost", "text"),
    [
        (0, 4, "(4 CPP)"),
        (1, 5, "1 Pre-Registered hex (4 + 1 = 5 CPP)"),
        (2, 6, "2 Pre-Registered hexes (4 + 2 = 6 CPP)"),
    ],
)
def test_each_pre_registered_hex_costs_one_cpp_more(hexes, cost, text):
    c = bought("german", "O2", "2 Nov", preregistered_hexes=hexes)
    assert c.purchases[0].cost == cost and cpp_left(c, "german", "2 Nov") == 60 - cost
    assert c.ledger[-1].text.startswith("Bought O2 Med Arty") and text in c.ledger[-1].text
    assert c.order_of_battle["german"].formations[0].preregistered_hexes == hexes


def test_the_daily_max_counts_the_rgs_bought_that_cg_day():
    c = bought("german", "A1", "2 Nov")
    c = bought("german", "A1", "2 Nov", campaign=c)
    assert refusal(purchase_reinforcement_group, c, "german", "A1", "2 Nov") == (
        "A1 StuG B Pltn: daily max 2 already reached on 2 Nov (2 bought; this would be 3, 1 over)"
    )
    c = set_cpp(c, "german", "3 Nov", 0)
    assert bought("german", "A1", "3 Nov", campaign=c).purchases[-1].day.day == 3


def test_the_daily_max_of_one():
    c = bought("russian", "I6", "2 Nov")
    assert refusal(purchase_reinforcement_group, c, "russian", "I6", "2 Nov") == (
        "I6 Engineer Coy: daily max 1 already reached on 2 Nov (1 bought; this would be 2, 1 over)"
    )


def test_the_cg_max_counts_every_cg_day():
    c = bought("german", "A1", "2 Nov")
    c = bought("german", "A1", "2 Nov", campaign=c)
    c = bought("german", "A1", "3 Nov", campaign=set_cpp(c, "german", "3 Nov", 4))
    assert refusal(
        purchase_reinforcement_group, set_cpp(c, "german", "4 Nov", 9), "german", "A1", "4 Nov"
    ) == ("A1 StuG B Pltn: CG III max 3 already reached (3 bought; this would be 4, 1 over)")


def test_a_cg_max_of_one_and_the_other_sides_purchases_do_not_count():
    c = bought("russian", "A5", "20 Oct")
    c = bought("german", "A5", "21 Oct", campaign=set_cpp(c, "german", "21 Oct", 4))
    assert refusal(purchase_reinforcement_group, c, "russian", "A5", "21 Oct") == (
        "A5 KV Pltn: CG III max 1 already reached (1 bought; this would be 2, 1 over)"
    )


def test_cost_against_cpp_left():
    assert refusal(purchase_reinforcement_group, funded("german", 6), "german", "I1", "2 Nov") == (
        "German has 6 CPP left on 2 Nov; I1 Rifle Coy costs 7 CPP (1 short)"
    )
    assert (
        cpp_left(
            purchase_reinforcement_group(funded("german", 7), "german", "I1", "2 Nov"), "german", "2 Nov"
        )
        == 0
    )


def test_pre_registered_hexes_count_against_cpp_left():
    assert refusal(purchase_reinforcement_group, funded("russian", 4), "russian", "O3", "2 Nov", 2) == (
        "Russian has 4 CPP left on 2 Nov; "
        "O3 Med Arty with 2 Pre-Registered hexes costs 3 + 2 = 5 CPP (1 short)"
    )
    c = purchase_reinforcement_group(funded("russian", 4), "russian", "O3", "2 Nov", 1)
    assert cpp_left(c, "russian", "2 Nov") == 0


def test_no_cpp_set_means_nothing_to_spend_and_a_refusal_changes_nothing():
    c = funded("german", 3, day="1 Nov", carry_over=False)
    assert refusal(purchase_reinforcement_group, c, "german", "A9", "2 Nov") == (
        "German has 0 CPP left on 2 Nov; A9 SPW Pltn costs 2 CPP (2 short)"
    )
    assert c.purchases == [] and len(c.ledger) == 1


def test_carried_over_cpp_can_be_spent_on_a_later_cg_day():
    c = purchase_reinforcement_group(funded("german", 3, day="1 Nov"), "german", "A9", "2 Nov")
    assert (
        cpp_left(c, "german", "1 Nov"),
        cpp_left(c, "german", "2 Nov"),
        cpp_left(c, "german", "3 Nov"),
    ) == (3, 1, 1)


def test_setting_cpp_may_not_leave_a_cg_day_overspent():
    c = purchase_reinforcement_group(funded("german", 10, day="17 Oct"), "german", "I1", "17 Oct")
    assert refusal(set_cpp, c, "german", "17 Oct", 5) == (
        "German CPP for 17 Oct cannot be 5: that leaves 17 Oct overspent by 2 CPP"
    )
    c = purchase_reinforcement_group(funded("german", 10, day="17 Oct"), "german", "I1", "18 Oct")
    assert refusal(set_cpp, c, "german", "17 Oct", 6) == (
        "German CPP for 17 Oct cannot be 6: that leaves 18 Oct overspent by 1 CPP"
    )
    assert refusal(set_cpp, c, "german", "17 Oct", -1) == "CPP cannot be negative, not -1"
    assert cpp_left(set_cpp(c, "german", "17 Oct", 7), "german", "18 Oct") == 0


def test_retained_units_join_the_order_of_battle_and_a_new_record_replaces_them():
    c = retain_units(Campaign(), "german", "2 Nov", ["8-3-8", "FT"])
    assert c.order_of_battle["german"].retained == ["8-3-8", "FT"]
    assert (c.ledger[0].kind, c.ledger[0].text) == ("retained", "Retained: 8-3-8, FT")
    assert refusal(retain_units, c, "german", "2 Nov", []) == "Name at least one retained unit"
    c = retain_units(c, "german", "3 Nov", ["8-3-8"])  # the survivors of the next CG scenario
    assert c.order_of_battle["german"].retained == ["8-3-8"]
    assert c.ledger[1].text == "Retained: 8-3-8 (in place of 8-3-8, FT)"


# --- fortifications ----------------------------------------------------------------------------


def with_fpp(side, day="2 Nov"):
    """A side that has bought one Fortifications RG (M1: 20 German, 40 Russian FPP) that day."""
    return bought(side, "M1", day)


@pytest.mark.parametrize(
    ("name", "quantity", "rate", "pillbox", "cost"),
    [
        ("Foxhole", 1, 3, None, 3),
        ("foxhole", 2, 2, None, 4),
        ("Foxhole", 3, 1, None, 3),
        ("Trench", 2, None, None, 14),
        ("A-T Ditch", 1, None, None, 21),
        ("A-P Mine", 6, 1, None, 6),
        ("A-P Mine", 6, 3, None, 18),
        ("A-T Mine", 2, 3, None, 6),
        ("A-T Mine", 2, 9, None, 18),
        ("Roadblock", 1, None, None, 12),
        ("Wire", 2, None, None, 30),
        ("Pillbox", 1, None, (1, 5, 7), 39),
        ("Fortified Building", 3, None, None, 30),
        ("Tunnel", 1, 30, None, 30),
        ("HIP", 1, 5, None, 5),
        ("HIP", 4, 1, None, 4),
        ("Booby Traps", 1, None, None, 40),
        ("Set DC", 2, None, None, 30),
    ],
)
def test_fortifications_cost_the_tables_fpp(name, quantity, rate, pillbox, cost):
    c = purchase_fortification(
        with_fpp("russian"), "russian", name, "2 Nov", quantity, rate=rate, pillbox=pillbox
    )
    assert c.fortifications[0].cost == cost and fpp_left(c, "russian", "2 Nov") == 40 - cost
    assert c.ledger[-1].cost == cost and c.ledger[-1].points == "FPP"


def test_fortification_ledger_text():
    c = purchase_fortification(with_fpp("russian"), "russian", "A-P Mine", "2 Nov", 6, rate=3)
    assert c.ledger[-1].text == "Bought 6 A-P Mine factors at 3 FPP per factor (18 FPP); 22 FPP left"
    c = purchase_fortification(c, "russian", "Pillbox", "2 Nov", pillbox=(1, 5, 1))
    assert c.ledger[-1].text == "Bought 1 x Pillbox at (1 + 5 + 1) x 3 = 21 FPP each (21 FPP); 1 FPP left"


@pytest.mark.parametrize(
    ("side", "name", "kwargs", "message"),
    [
        (
            "german",
            "Trench",
            {"quantity": 3},
            "German has 20 FPP left on 2 Nov; 3 x Trench at 7 FPP per item would cost 21 FPP (1 short)",
        ),
        (
            "german",
            "A-T Mine",
            {"quantity": 3, "rate": 9},
            "German has 20 FPP left on 2 Nov; 3 A-T Mine factors "
            "at 9 FPP per factor would cost 27 FPP (7 short)",
        ),
        (
            "german",
            "Pillbox",
            {"pillbox": (2, 3, 2)},
            "German has 20 FPP left on 2 Nov; 1 x Pillbox at "
            "(2 + 3 + 2) x 3 = 21 FPP each would cost 21 FPP (1 short)",
        ),
        (
            "german",
            "Foxhole",
            {},
            "Foxhole costs 3/2/1 FPP per item: name the rate that applies (one of 3, 2, 1)",
        ),
        (
            "russian",
            "HIP",
            {},
            "HIP costs 5/3/2/1/1 FPP per item: name the rate that applies (one of 5, 3, 2, 1)",
        ),
        ("russian", "Foxhole", {"rate": 4}, "Foxhole costs 3/2/1 FPP per item, not 4"),
        ("russian", "A-P Mine", {"rate": 2}, "A-P Mine costs 1/3 FPP per factor, not 2"),
        ("russian", "Trench", {"rate": 6}, "Trench costs 7 FPP per item, not 6"),
        (
            "russian",
            "Pillbox",
            {},
            "A Pillbox costs (a + b + c) x 3 FPP: give the Pillbox counter's three numbers",
        ),
        (
            "russian",
            "Trench",
            {"pillbox": (1, 1, 1)},
            "Only a Pillbox is priced from a counter's numbers, not Trench",
        ),
        ("russian", "Wire", {"quantity": 0}, "Buy at least one item of Wire, not 0"),
        ("russian", "A-P Mine", {"quantity": -2, "rate": 1}, "Buy at least one factor of A-P Mine, not -2"),
        (
            "german",
            "Booby Traps",
            {},
            "The German side cannot buy Booby Traps (RB15: the Germans have no Booby Trap capability)",
        ),
        (
            "russian",
            "Moat",
            {},
            "The Fortification Table has no 'Moat': it lists Foxhole, Trench, A-T Ditch, "
            "A-P Mine, A-T Mine, Roadblock, Wire, Pillbox, Fortified Building, Tunnel, HIP, "
            "Booby Traps, Unlabelled, Set DC",
        ),
    ],
)
def test_fortification_refusals(side, name, kwargs, message):
    assert refusal(purchase_fortification, with_fpp(side), side, name, "2 Nov", **kwargs) == message


def test_fpp_are_spent_on_the_cg_day_they_are_bought():
    c = purchase_fortification(with_fpp("german"), "german", "Wire", "2 Nov")
    assert (fpp_left(c, "german", "2 Nov"), fpp_left(c, "german", "3 Nov")) == (5, 0)
    assert refusal(purchase_fortification, c, "german", "Wire", "3 Nov") == (
        "German has 0 FPP left on 3 Nov; 1 x Wire at 15 FPP per item would cost 15 FPP (15 short)"
    )
