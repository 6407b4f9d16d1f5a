"""The Red Barricades purchase-phase rules beyond costs and maxima (engine.campaign.purchase_rules):
RG chart notes b, g, o, s, w; compilation rules 3, 9, 10, 11; SSR RB7; the Balance provision
DRM (11.32) and the CG II Leader DRM; the Fortification Table's unlabelled row. Each test names
its rule; dice are scripted."""

import pytest

from engine.campaign.corrections import correct_books
from engine.campaign.purchase_rules import (
    battery_access_chit,
    exchange_spw_251_1,
    second_red_chit_returned,
    set_balance_provision,
    set_cg_ii,
)
from engine.campaign.purchases import keep_hidden, purchase_fortification, purchase_reinforcement_group
from engine.campaign.red_barricades import Campaign, cpp_left, fpp_left, order_of_battle_text, set_cpp
from engine.errors import IllegalCommand
from tests.bare_text import bare
from tests.engine.test_red_barricades import bought, rolled

RULE_9 = "no Platoon Withdrawal, MG Exchange compulsory (compilation rule 9)"


def refused(call, campaign, *args, **kwargs):
    """The refusal's message; the campaign it was given is left as it was."""
    before = campaign.model_dump_json()
    with pytest.raises(IllegalCommand) as refusal:
        call(campaign, *args, **kwargs)
    assert campaign.model_dump_json() == before
    return str(refusal.value)


def buy(campaign, side, rg_id, day="2 Nov", **options):
    return purchase_reinforcement_group(campaign, side, rg_id, day, **options)


def funded(side, day="2 Nov", cpp=60):
    return set_cpp(Campaign(), side, day, cpp)


# --- note b: the Stuka ----------------------------------------------------------------------------


def test_note_b_a_stuka_bought_at_two_cpp_gets_a_minus_2_turn_of_entry_drm():
    c = buy(funded("german"), "german", "S1", at_two_cpp=True)
    assert (c.purchases[0].cost, cpp_left(c, "german", "2 Nov")) == (2, 58)
    assert c.ledger[-1].text == (
        "Bought S1 Stuka at 2 CPP (1 + 1 = 2 CPP); 58 CPP left; -2 DRM on its Turn of Entry dr, E7.2 "
        "(note b: bought at 2 CPP); used on 2 Nov or forfeit (note b)"
    )
    assert bare(order_of_battle_text(c, "german")).splitlines()[1] == (
        "2 Nov  S1 Stuka: 1-3 Stuka DB (RB9); -2 DRM on its Turn of Entry dr, E7.2 (note b: bought at "
        "2 CPP); used on 2 Nov or forfeit (note b)"
    )


def test_note_b_a_stuka_at_one_cpp_has_no_drm_but_is_still_forfeit_after_its_day():
    c = buy(funded("german"), "german", "S1")
    assert c.purchases[0].cost == 1
    assert c.order_of_battle["german"].formations[0].notes == ("used on 2 Nov or forfeit (note b)",)


def test_note_b_only_the_stuka_is_bought_at_two_cpp():
    assert refused(buy, funded("german"), "german", "A1", at_two_cpp=True) == (
        "Only the Stuka (S1) may be bought at 2 CPP (note b), not A1 StuG B Pltn"
    )


def test_note_b_the_second_cpp_counts_against_the_cpp_left():
    assert refused(buy, funded("german", cpp=1), "german", "S1", at_two_cpp=True) == (
        "German has 1 CPP left on 2 Nov; S1 Stuka at 2 CPP costs 1 + 1 = 2 CPP (1 short)"
    )


# --- note g: the SPW 251/10 -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "units"),
    [
        ((2, 4), ("3 x SPW 251/1", "1 x SPW 251/10")),  # 6 + 2 historical (2 Nov) = 8: Full, 4 SPW
        ((3, 4), ("2 x SPW 251/1", "1 x SPW 251/10")),  # 7 + 2 = 9: Depleted, 3 SPW
    ],
)
def test_note_g_one_spw_251_1_is_exchanged_for_a_251_10_once_strength_is_rolled(faces, units):
    c = exchange_spw_251_1(rolled(bought("german", "A9", "2 Nov"), 0, *faces), 0)
    assert c.order_of_battle["german"].formations[0].units == units
    assert (c.ledger[-1].kind, c.ledger[-1].text) == (
        "rule",
        f"A9 SPW Pltn: one SPW 251/1 exchanged for an SPW 251/10 (note g) -> {', '.join(units)}",
    )


def test_note_g_the_exchange_stands_when_the_referee_corrects_the_strength():
    c = exchange_spw_251_1(rolled(bought("german", "A9", "2 Nov"), 0, 2, 4), 0)  # Full: 3 + 1
    c = correct_books(c, 2, "depleted", "misread the dice")
    assert c.order_of_battle["german"].formations[0].units == ("2 x SPW 251/1", "1 x SPW 251/10")


def test_note_g_refuses_before_the_strength_roll_a_second_exchange_and_other_rgs():
    c = bought("german", "A9", "2 Nov")
    assert refused(exchange_spw_251_1, c, 0) == (
        "A9 SPW Pltn exchanges an SPW 251/1 once its Strength is rolled (note g; 11.6201)"
    )
    once = exchange_spw_251_1(rolled(c, 0, 2, 4), 0)
    assert refused(exchange_spw_251_1, once, 0) == (
        "A9 SPW Pltn has exchanged its one SPW 251/1 already (note g: one per platoon)"
    )
    stug = rolled(bought("german", "A1", "2 Nov"), 0, 2, 4)
    assert refused(exchange_spw_251_1, stug, 0) == (
        "Only an SPW Pltn (A9) may exchange an SPW 251/1 for an SPW 251/10 (note g), not A1 StuG B Pltn"
    )


# --- note o: the Offboard Observer ----------------------------------------------------------------


def test_note_o_an_observer_serves_one_module_and_is_retained_with_it():
    c = buy(buy(funded("german"), "german", "O2"), "german", "O5", serves="O2")
    observer = c.order_of_battle["german"].formations[1]
    assert observer.serves == 0
    assert c.ledger[-1].text == (
        "Bought O5 Offb'd Observer (1 CPP); 55 CPP left; serves O2 Med Arty of 2 Nov (ledger #1); "
        "Retained while it is"
    )
    assert refused(buy, c, "german", "O5", serves="O2") == (
        "Every German O2 Med Arty has its Offb'd Observer already (note o: one observer per module)"
    )
    # a second module takes a second observer
    c = buy(buy(c, "german", "O2"), "german", "O5", serves="O2")
    assert c.order_of_battle["german"].formations[-1].serves == 2


@pytest.mark.parametrize(
    ("serves", "message"),
    [
        (
            None,
            "O5 Offb'd Observer is bought for one OBA module (note o: its cost is per module): "
            "name it, e.g. O5 for O2",
        ),
        ("A1", "O5 Offb'd Observer serves an OBA module: A1 StuG B Pltn is not one"),
        (
            "O3",
            "The German order of battle has no O3 Hvy Arty for the Offb'd Observer to serve: "
            "buy the module first",
        ),
    ],
)
def test_note_o_an_observer_without_a_module_to_serve_is_refused(serves, message):
    assert refused(buy, buy(funded("german"), "german", "O2"), "german", "O5", serves=serves) == message


def test_note_o_only_an_observer_or_spotter_plane_serves_a_module():
    c = buy(funded("german"), "german", "O2")
    assert refused(buy, c, "german", "I1", serves="O2") == (
        "Only an Offboard Observer or a Spotter Plane is bought for an OBA module, not I1 Rifle Coy"
    )


# --- note s and compilation rule 10: the Spotter Plane --------------------------------------------


@pytest.mark.parametrize(
    ("module", "message"),
    [
        (
            "O4",
            "A Spotter Plane is only for non-rocket OBA of 100+mm (note s; compilation rule 10): "
            "O4 NebelWerfer is rocket OBA",
        ),
        (
            "O1",
            "A Spotter Plane is only for non-rocket OBA of 100+mm (note s; compilation rule 10): "
            "O1 Btl Mtr is 80+mm",
        ),
    ],
)
def test_note_s_a_spotter_plane_for_a_rocket_or_light_module_is_refused(module, message):
    c = buy(funded("german"), "german", module)
    assert refused(buy, c, "german", "O6", serves=module) == message


@pytest.mark.parametrize("module", ["O2", "O3"])
def test_note_s_a_spotter_plane_serves_a_100mm_or_heavier_module(module):
    c = buy(buy(funded("german"), "german", module), "german", "O6", serves=module)
    spotter = c.order_of_battle["german"].formations[1]
    assert spotter.serves == 0
    assert spotter.notes[-1] == (
        "one Spotter Plane flies per CG scenario, none in Overcast/Fog/Heavy Mist/Mist (compilation rule 10)"
    )


def test_rule_10_one_spotter_plane_per_module():
    c = buy(buy(funded("german"), "german", "O2"), "german", "O6", serves="O2")
    c = set_cpp(c, "german", "3 Nov", 5)
    assert refused(buy, c, "german", "O6", "3 Nov", serves="O2") == (
        "Every German O2 Med Arty has its Spotter Plane already (note s: one Spotter Plane per module)"
    )


def test_rule_10_a_spotter_plane_bought_with_only_a_rocket_module_is_refused():
    c = buy(funded("german"), "german", "O4")
    assert refused(buy, c, "german", "O6", serves="O2") == (
        "The German order of battle has no O2 Med Arty for the Spotter Plane to serve: buy the module first"
    )
    assert refused(buy, c, "german", "O6").startswith(
        "O6 Spotter Plane is bought for one OBA module (note s)"
    )


# --- note w and compilation rule 9: AFV platoons --------------------------------------------------


def test_note_w_a_russian_afv_platoon_may_be_bought_dug_in():
    c = buy(funded("russian"), "russian", "A2", dug_in=True)
    platoon = c.order_of_battle["russian"].formations[0]
    assert platoon.dug_in and platoon.notes == ("Dug-In (note w; 11.6194 c)", RULE_9)
    assert (
        c.ledger[-1].text
        == f"Bought A2 T-70 Pltn Dug-In (3 CPP); 57 CPP left; Dug-In (note w; 11.6194 c); {RULE_9}"
    )


@pytest.mark.parametrize(
    ("side", "rg_id", "message"),
    [
        (
            "german",
            "A1",
            "Only a Russian AFV Platoon may be bought Dug-In (note w), not the German A1 StuG B Pltn",
        ),
        (
            "russian",
            "I3",
            "Only an AFV Platoon may be bought Dug-In (note w; 11.6194 c): I3 Rifle Coy is not one",
        ),
    ],
)
def test_note_w_dug_in_is_for_russian_afv_platoons_only(side, rg_id, message):
    assert refused(buy, funded(side), side, rg_id, dug_in=True) == message


def test_rule_9_afv_platoons_are_never_withdrawn_and_must_exchange_mgs():
    c = buy(buy(funded("german"), "german", "A4"), "german", "I1")
    platoon, company = c.order_of_battle["german"].formations
    assert (platoon.notes, company.notes) == ((RULE_9,), ())
    assert RULE_9 in bare(order_of_battle_text(c, "german"))


# --- compilation rule 3 and RB7: hidden units -----------------------------------------------------


def test_rule_3_a_unit_kept_hidden_pays_hip_fpp_and_a_gun_keeps_it_free():
    c = keep_hidden(bought("russian", "M1", "2 Nov"), "russian", "2 Nov", "4-4-7", rate=5)
    assert fpp_left(c, "russian", "2 Nov") == 35
    assert c.ledger[-1].text == (
        "Bought 4-4-7 kept hidden at the HIP rate 5 FPP (compilation rule 3) (5 FPP); 35 FPP left"
    )
    c = keep_hidden(c, "russian", "2 Nov", "76L ART", gun=True)
    assert fpp_left(c, "russian", "2 Nov") == 35
    assert (
        c.ledger[-1].text
        == "Bought gun 76L ART kept hidden free: a Gun (compilation rule 3) (0 FPP); 35 FPP left"
    )


@pytest.mark.parametrize(
    ("unit", "kwargs", "message"),
    [
        (
            "4-6-7",
            {},
            "Keeping 4-6-7 hidden costs HIP FPP (compilation rule 3): name the HIP rate (5/3/2/1/1), "
            "e.g. keep 4-6-7 hidden at 5",
        ),
        ("4-6-7", {"rate": 4}, "HIP costs 5/3/2/1/1 FPP (compilation rule 3), not 4"),
        (
            "PaK 40",
            {"gun": True, "rate": 1},
            "A Gun keeps its HIP free (compilation rule 3): no rate for PaK 40",
        ),
        (" ", {"rate": 5}, "Name the unit kept hidden"),
    ],
)
def test_rule_3_refusals(unit, kwargs, message):
    assert refused(keep_hidden, bought("german", "M1", "2 Nov"), "german", "2 Nov", unit, **kwargs) == message


def test_rule_3_keeping_units_hidden_spends_the_days_fpp():
    c = bought("german", "M1", "2 Nov")  # 20 FPP
    for _ in range(4):
        c = keep_hidden(c, "german", "2 Nov", "4-6-7", rate=5)
    assert refused(keep_hidden, c, "german", "2 Nov", "4-6-7", rate=5) == (
        "German has 0 FPP left on 2 Nov; 4-6-7 kept hidden at the HIP rate 5 FPP (compilation rule 3) "
        "would cost 5 FPP (5 short)"
    )


@pytest.mark.parametrize("hidden", ["Trench", "2 Foxholes", "A-T Ditch", "wire"])
def test_rb7_no_russian_entrenchment_or_wire_is_hidden(hidden):
    c = bought("russian", "M1", "2 Nov")
    message = f"Russian Entrenchments and Wire never set up hidden (RB7): no HIP for {hidden}"
    assert refused(purchase_fortification, c, "russian", "HIP", "2 Nov", rate=5, hides=hidden) == message
    assert refused(keep_hidden, c, "russian", "2 Nov", hidden, rate=5) == message


def test_rb7_binds_the_russian_side_only_and_hip_may_hide_russian_units():
    german = purchase_fortification(
        bought("german", "M1", "2 Nov"), "german", "HIP", "2 Nov", rate=5, hides="Trench"
    )
    assert german.ledger[-1].text == "Bought 1 x HIP for Trench at 5 FPP per item (5 FPP); 15 FPP left"
    russian = purchase_fortification(
        bought("russian", "M1", "2 Nov"), "russian", "HIP", "2 Nov", rate=5, hides="4-4-7"
    )
    assert russian.fortifications[0].text == "1 x HIP for 4-4-7"
    assert (
        refused(
            purchase_fortification,
            bought("russian", "M1", "2 Nov"),
            "russian",
            "Trench",
            "2 Nov",
            hides="4-4-7",
        )
        == "Only HIP hides something (for ...), not Trench"
    )


# --- the Fortification Table's unlabelled row -----------------------------------------------------


def test_the_unlabelled_fortification_row_costs_1_fpp_an_item():
    c = purchase_fortification(bought("german", "M1", "2 Nov"), "german", "unlabelled", "2 Nov", 3)
    assert (c.fortifications[0].cost, fpp_left(c, "german", "2 Nov")) == (3, 17)
    assert c.ledger[-1].text == "Bought 3 x Unlabelled at 1 FPP per item (3 FPP); 17 FPP left"


# --- the Balance provision (11.32) and CG II ------------------------------------------------------


@pytest.mark.parametrize(
    ("balance", "strength", "text"),
    [
        (0, "Full Strength", "DR 4 + 4 = 8: Full Strength"),  # 20 Oct: German Historical DRM 0
        (1, "Depleted", "DR 4 + 4, +1 balance provision = 9: Depleted"),
    ],
)
def test_the_balance_provision_drm_is_added_to_rg_strength(balance, strength, text):
    c = set_balance_provision(set_cpp(Campaign(), "german", "20 Oct", 10), "german", "20 Oct", balance)
    c = rolled(bought("german", "A1", "20 Oct", campaign=c), 0, 4, 4)
    assert c.order_of_battle["german"].formations[0].strength == strength
    assert text in c.ledger[-1].text


def test_the_balance_provision_drm_is_added_to_oba_ammo_and_gun_battery_rolls_of_its_side_only():
    c = set_cpp(set_cpp(Campaign(), "german", "20 Oct", 20), "russian", "20 Oct", 20)
    c = set_balance_provision(c, "russian", "20 Oct", -2)
    assert c.ledger[-1].text == (
        "Balance provision (11.32) DRM -2 (was +0) on RG strength, gun battery and OBA ammo rolls"
    )
    c = rolled(bought("russian", "O3", "20 Oct", campaign=c), 0, 2, 2)  # 4 - 2 = 2: Plentiful
    assert c.order_of_battle["russian"].formations[0].ammo == "Plentiful ammo"
    c = rolled(bought("russian", "G2", "20 Oct", campaign=c), 1, 5, 6)  # 11 - 2 = 9: Depleted
    assert c.ledger[-1].text.endswith(
        "-2 balance provision = 9: Depleted: one gun fewer of each type -> 3 x 76L ART"
    )
    c = rolled(bought("german", "O2", "20 Oct", campaign=c), 2, 2, 2)  # German: no DRM, 4: Plentiful
    assert "balance" not in c.ledger[-1].text


def test_a_balance_provision_drm_beyond_six_is_refused():
    assert refused(set_balance_provision, Campaign(), "german", "20 Oct", 7) == (
        "A Balance provision DRM is -6 to +6, not 7"
    )


@pytest.mark.parametrize(("cg_ii", "leaders"), [(False, "9-1, 8-1, 8-0"), (True, "9-1, 8-1, 7-0")])
def test_cg_ii_adds_one_to_the_german_leader_drm(cg_ii, leaders):
    c = set_cg_ii(set_cpp(Campaign(), "german", "20 Oct", 10), "20 Oct", cg_ii)
    c = rolled(bought("german", "I1", "20 Oct", campaign=c), 0, 2, 2, 3, 3)  # leaders DR 6 (+1 CG II)
    assert ", ".join(c.order_of_battle["german"].formations[0].leaders) == leaders


def test_cg_ii_leaves_the_russian_leader_drm_alone():
    c = set_cg_ii(set_cpp(Campaign(), "russian", "20 Oct", 10), "20 Oct", True)
    assert c.ledger[-1].text == "CG II scenarios: +1 German Leader DRM (Leader DRM table)"
    c = rolled(bought("russian", "I3", "20 Oct", campaign=c), 0, 2, 2, 3, 4)  # leaders DR 7, no DRM
    assert c.order_of_battle["russian"].formations[0].leaders == ("8-1", "8-0")


# --- compilation rule 11: OBA chit draws ----------------------------------------------------------


@pytest.mark.parametrize(
    ("black", "red", "returned"), [(0, 0, False), (0, 1, True), (1, 1, True), (2, 1, False), (3, 1, False)]
)
def test_rule_11_the_second_red_chit_needs_two_black_chits_removed_first(black, red, returned):
    assert second_red_chit_returned(black, red) is returned


def test_rule_11_chit_draws_are_kept_per_module_in_the_ledger():
    c = bought("german", "O2", "2 Nov")
    c = battery_access_chit(c, 1, "red", "2 Nov")
    assert (
        c.ledger[-1].text
        == "O2 Med Arty (ledger #1) Battery Access: red chit permanently removed; 0 black, 1 red out"
    )
    c = battery_access_chit(c, 1, "Red", "2 Nov")
    assert c.ledger[-1].text == (
        "O2 Med Arty (ledger #1) Battery Access: second red chit returned to the Draw Pile, only 0 black "
        "removed; the Observer's OBA actions end this Player Turn (compilation rule 11); 0 black, 1 red out"
    )
    c = battery_access_chit(battery_access_chit(c, 1, "black", "2 Nov"), 1, "black", "2 Nov")
    c = battery_access_chit(c, 1, "red", "2 Nov")
    module = c.order_of_battle["german"].formations[0]
    assert (module.black_chits_removed, module.red_chits_removed) == (2, 2)
    assert "chits out of its Draw Pile: 2 black, 2 red" in bare(order_of_battle_text(c, "german"))


def test_rule_11_refuses_what_is_no_module_or_no_chit():
    c = bought("german", "A1", "2 Nov", campaign=bought("german", "O2", "2 Nov"))  # ledger #1 O2, #2 A1
    for entry in (0, 2):  # the CPP entry, the StuG platoon
        assert refused(battery_access_chit, c, entry, "red", "2 Nov") == (
            f"Ledger entry #{entry} is not the purchase of an OBA module in the order of battle"
        )
    assert (
        refused(battery_access_chit, c, 1, "green", "2 Nov")
        == "A Draw Pile chit is black or red, not 'green'"
    )
    assert refused(battery_access_chit, c, 5, "red", "2 Nov") == "The ledger has no entry #5"
