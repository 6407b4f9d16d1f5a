"""Referee corrections of the Red Barricades ledger: each kind of entry, the books following the
correction (CPP, FPP, order of battle), the old entry kept, and every refusal changing nothing.

The ledger corrected is the three CG Days of test_red_barricades.py (see THREE_DAY_LEDGER there
for the entry numbers)."""

import csv
import io

import pytest

from engine.campaign.corrections import correct_books
from engine.campaign.ledger import ledger_csv, ledger_table
from engine.campaign.purchases import purchase_reinforcement_group
from engine.campaign.red_barricades import (
    Campaign,
    cpp_left,
    fpp_left,
    order_of_battle_text,
    retain_units,
    set_cpp,
)
from engine.errors import IllegalCommand
from tests.bare_text import bare
from tests.engine.test_red_barricades import three_cg_days


@pytest.fixture(scope="module")
def books():
    return three_cg_days()


def formation(books, side, rg_id):
    return next(f for f in books.order_of_battle[side].formations if f.rg_id == rg_id)


def last_row(books):
    return ledger_table(books.ledger).splitlines()[-1]


def test_a_cpp_correction_changes_that_days_cpp_and_every_balance_after_it(books):
    corrected = correct_books(books, 0, "25", "the organiser misread the CG rules")
    assert [cpp_left(corrected, "german", day) for day in ("17 Oct", "18 Oct", "19 Oct")] == [11, 13, 14]
    assert [cpp_left(books, "german", day) for day in ("17 Oct", "18 Oct", "19 Oct")] == [6, 8, 9]
    assert corrected.ledger[:31] == books.ledger  # the old entries are kept as they were
    table = ledger_table(corrected.ledger).splitlines()
    assert table[1].endswith("CPP for 17 Oct set to 20; 20 CPP left [corrected by #31]")
    assert table[-1] == (
        "31  17 Oct  German   correction                corrects #0: CPP for 17 Oct set to 25 (not 20); "
        "11 CPP left (reason: the organiser misread the CG rules)"
    )


def test_voiding_a_purchase_gives_its_cpp_back_and_takes_it_off_the_order_of_battle(books):
    corrected = correct_books(books, 16, "void", "bought by mistake")
    assert (cpp_left(corrected, "german", "18 Oct"), cpp_left(corrected, "german", "19 Oct")) == (11, 12)
    assert [f.rg_id for f in corrected.order_of_battle["german"].formations] == ["I1", "O3", "G1"]
    assert corrected.purchases[4].voided and not books.purchases[4].voided
    assert last_row(corrected) == (
        "31  18 Oct  German   correction  -3 CPP        corrects #16: Void: A4 Pz III H Pltn; "
        "3 CPP back, 11 CPP left (reason: bought by mistake)"
    )
    rows = list(csv.reader(io.StringIO(ledger_csv(corrected.ledger))))
    assert rows[1 + 16][3:6] == ["purchase", "3", "CPP"]
    assert rows[-1][3:6] + rows[-1][8:] == ["correction", "-3", "CPP", "16", "bought by mistake"]


def test_a_void_purchase_no_longer_counts_against_the_chart_maxima():
    c = set_cpp(Campaign(), "russian", "17 Oct", 20)
    c = purchase_reinforcement_group(c, "russian", "A4", "17 Oct")  # T-34M43 Pltn: CG III max 1
    with pytest.raises(IllegalCommand, match="CG III max 1 already reached"):
        purchase_reinforcement_group(c, "russian", "A4", "18 Oct")
    c = correct_books(c, 1, "void", "the wrong platoon")
    c = purchase_reinforcement_group(c, "russian", "A4", "18 Oct")
    assert [p.voided for p in c.purchases] == [True, False]
    assert (cpp_left(c, "russian", "17 Oct"), cpp_left(c, "russian", "18 Oct")) == (20, 14)


def test_the_fortifications_bought_with_an_m1s_fpp_are_voided_before_it(books):
    with pytest.raises(IllegalCommand) as refused:
        correct_books(books, 12, "void", "no fortifications this day")
    assert str(refused.value) == (
        "Voiding M1 Fortifications would leave the Russian side 14 FPP overspent on 17 Oct: "
        "void the fortifications bought with its FPP first"
    )
    corrected = correct_books(books, 13, "VOID", "trenches not allowed here")
    assert fpp_left(corrected, "russian", "17 Oct") == 40
    assert last_row(corrected).endswith(
        "-14 FPP        corrects #13: Void: 2 x Trench; 14 FPP back, 40 FPP left "
        "(reason: trenches not allowed here)"
    )
    assert "Fortifications: 2 x Trench" not in bare(order_of_battle_text(corrected, "russian"))
    corrected = correct_books(corrected, 12, "void", "no fortifications this day")
    assert (fpp_left(corrected, "russian", "17 Oct"), cpp_left(corrected, "russian", "17 Oct")) == (0, 10)


def test_a_strength_correction_gives_the_formation_that_strengths_units(books):
    corrected = correct_books(books, 9, "full", "the DRM was misread")
    assert (formation(corrected, "russian", "I3").strength, formation(corrected, "russian", "I3").units) == (
        "Full Strength",
        ("12 x 4-4-7",),
    )
    assert last_row(corrected).endswith(
        "corrects #9: I3 Rifle Coy: Full Strength -> 12 x 4-4-7 (reason: the DRM was misread)"
    )
    battery = correct_books(books, 23, "Full Strength", "rerolled by agreement")
    assert formation(battery, "russian", "G1").units == ("2 x 45L AT", "2 x 45LL AT")


def test_leaders_sw_and_ammo_corrections_set_what_the_roll_set(books):
    c = correct_books(books, 10, "9-1, 8-0", "a leader was misread")
    c = correct_books(c, 11, "HMG, 2 x LMG", "the SW chart row")
    c = correct_books(c, 29, "plentiful", "the Russian column")
    i3 = formation(c, "russian", "I3")
    assert (i3.leaders, i3.support_weapons) == (("9-1", "8-0"), ("HMG", "2 x LMG"))
    assert formation(c, "russian", "O2").ammo == "Plentiful ammo"
    assert [entry.text for entry in c.ledger[31:]] == [
        "I3 Rifle Coy leaders: 9-1, 8-0",
        "I3 Rifle Coy SW: HMG, 2 x LMG",
        "O2 Btl Mtr: Plentiful ammo",
    ]
    assert formation(books, "russian", "I3").leaders == ("8-0", "7-0")  # the books given are unchanged
    none = correct_books(books, 10, "none", "no leaders after all")
    assert formation(none, "russian", "I3").leaders == ()


def test_a_retained_correction_replaces_what_that_entry_retained_and_may_be_corrected_again(books):
    c = correct_books(books, 30, "4-4-7 (I3), 8-0", "the leader was the 8-0")
    assert c.order_of_battle["russian"].retained == ["4-4-7 (I3)", "8-0"]
    c = correct_books(c, 30, "none", "nothing retained")
    assert c.order_of_battle["russian"].retained == []
    assert [entry.text for entry in c.ledger[31:]] == ["Retained: 4-4-7 (I3), 8-0", "Retained: none"]
    assert ledger_table(c.ledger).splitlines()[1 + 30].endswith("[corrected by #31, #32]")


def test_a_correction_of_a_replaced_retained_record_leaves_the_newer_one_standing(books):
    c = retain_units(books, "russian", "20 Oct", ["4-4-7 (I3)"])  # #31: the 9-1 fell
    assert c.order_of_battle["russian"].retained == ["4-4-7 (I3)"]
    assert c.ledger[31].text == "Retained: 4-4-7 (I3) (in place of 4-4-7 (I3), 9-1)"
    c = correct_books(c, 30, "4-4-7 (I3), 8-0", "the leader was the 8-0")
    assert c.order_of_battle["russian"].retained == ["4-4-7 (I3)"]
    c = correct_books(c, 31, "4-4-7 (I3), 8-0", "the 8-0 survived")
    assert c.order_of_battle["russian"].retained == ["4-4-7 (I3)", "8-0"]


@pytest.mark.parametrize(
    ("index", "to", "reason", "message"),
    [
        (31, "5", "typo", "The ledger has no entry #31: its entries are #0 to #30"),
        (0, "5", " ", "A correction of entry #0 needs a reason"),
        (0, "  ", "typo", "Say what entry #0 should have been with to:"),
        (0, "lots", "typo", "Entry #0 sets CPP: give the CG Day's CPP as a whole number, not 'lots'"),
        (0, "13", "typo", "German CPP for 17 Oct cannot be 13: that leaves 17 Oct overspent by 1 CPP"),
        (16, "A5", "typo", "Entry #16 is a purchase: correct it with to:void, not 'A5'"),
        (9, "half", "typo", "An RG's strength is full or depleted, not 'half'"),
        (
            10,
            "9-1, 11-4",
            "typo",
            "The Russian Leader Table has no 11-4: it gives 10-3, 10-2, 9-2, 9-1, 8-1, 8-0, 7-0, 6+1",
        ),
        (29, "lots", "typo", "OBA ammo is Normal ammo, Plentiful ammo, Scarce ammo, not 'lots'"),
    ],
)
def test_a_correction_that_does_not_fit_its_entry_is_refused_and_changes_nothing(
    books, index, to, reason, message
):
    before = books.model_copy(deep=True)
    with pytest.raises(IllegalCommand) as refused:
        correct_books(books, index, to, reason)
    assert str(refused.value) == message
    assert books == before


def test_a_void_purchase_is_not_voided_again_nor_its_rolls_corrected(books):
    c = correct_books(books, 16, "void", "bought by mistake")
    for index, to, message in [
        (16, "void", "Entry #16 (A4 Pz III H Pltn) is void already"),
        (17, "full", "Entry #17 is a roll for A4 Pz III H Pltn, which is void"),
        (31, "void", "Entry #31 is a correction of #16: correct #16 again"),
    ]:
        with pytest.raises(IllegalCommand) as refused:
            correct_books(c, index, to, "again")
        assert str(refused.value) == message


def test_the_order_of_battle_lists_formations_fortifications_and_retained_units(books):
    assert bare(order_of_battle_text(books, "russian")) == "\n".join(
        [
            "Russian order of battle",
            "17 Oct  I3 Rifle Coy: Depleted; 9 x 4-4-7; leaders 8-0, 7-0; SW HMG, MMG, LMG, ATR, LtMtr",
            "17 Oct  M1 Fortifications: 40 FPP",
            "18 Oct  I5 Militia Coy: Full Strength; 12 x 4-2-6; leaders 8-1, 8-0",
            "18 Oct  G1 AT Battery: Depleted; 1 x 45L AT, 1 x 45LL AT",
            "19 Oct  O2 Btl Mtr: 80+mm Btl Mtr OBA Module; Normal ammo; 2 Pre-Registered hexes",
            "17 Oct  Fortifications: 2 x Trench (14 FPP)",
            "Retained: 4-4-7 (I3), 9-1",
        ]
    )
    assert (
        bare(order_of_battle_text(Campaign(), "german"))
        == "German order of battle\nNothing bought or retained yet"
    )
