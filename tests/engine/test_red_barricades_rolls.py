"""The rolls after a Red Barricades purchase (RePh 11.620): strength, ammo, leaders and SW, with
scripted dice on both sides of each band edge."""

import pytest

from engine.campaign.corrections import correct_books
from engine.campaign.red_barricades import set_cpp
from engine.errors import IllegalCommand
from tests.engine.test_red_barricades import bought, rolled


def formation(campaign, side, index=-1):
    return campaign.order_of_battle[side].formations[index]


def roll_texts(campaign, start):
    return [(entry.kind, entry.text, entry.dice_text) for entry in campaign.ledger[start:]]


# --- strength ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "strength", "squads", "leaders"),
    [
        ((2, 4), "Full Strength", "12 x 5-4-8", "9-2, 8-1, 7-0"),  # 6 + 2 = 8; leaders 7 - 2 = 5
        ((3, 4), "Depleted", "9 x 5-4-8", "9-1, 8-1, 8-0"),  # 7 + 2 = 9; leaders 7 - 2 + 1 = 6
    ],
)
def test_a_german_company_strength_on_both_sides_of_the_band_edge(faces, strength, squads, leaders):
    c = rolled(bought("german", "I2", "2 Nov"), 0, *faces, 3, 4)
    company = formation(c, "german")
    assert (company.strength, company.units, ", ".join(company.leaders)) == (strength, (squads,), leaders)
    assert company.support_weapons == ("MMG", "2 x LMG", "2 x DC")


def test_a_depleted_russian_guards_company_and_its_leaders():
    c = bought("russian", "I1", "31 Oct")  # Russian Historical DRM -2
    c = rolled(c, 0, 5, 6, 1, 1)
    assert roll_texts(c, 2) == [
        (
            "roll",
            "I1 Gds Rifle Coy: RG strength (Red Barricades): DR 5 + 6, -2 historical DRM = 9: "
            "Depleted -> 9 x 4-5-8",
            "5+6",
        ),
        (
            "roll",
            "I1 Gds Rifle Coy leaders: Russian leaders received (Red Barricades): DR 1 + 1, -1 company type, "
            "+2 depleted company = 3: 9-2, 9-1",
            "1+1",
        ),
        ("roll", "I1 Gds Rifle Coy SW: HMG, MMG, 2 x LMG, 2 x ATR, 2 x LtMtr", ""),
    ]


def test_assault_engineers_are_always_full_strength_german_pioneers():
    c = rolled(bought("german", "I3", "11 Nov"), 0, 6, 6)  # only the leader DR: 12 - 1 = 11
    assert roll_texts(c, 2) == [
        (
            "roll",
            "I3 Pioneer Coy: always Full Strength, no roll (compilation rule 6, Assault Engineers) "
            "-> 8 x 8-3-8",
            "",
        ),
        (
            "roll",
            "I3 Pioneer Coy leaders: German leaders received (Red Barricades): "
            "DR 6 + 6, -1 company type = 11: 8-1, 7-0",
            "6+6",
        ),
        ("roll", "I3 Pioneer Coy SW: 2 x LMG, 3 x FT, 5 x DC", ""),
    ]


def test_assault_engineers_are_always_full_strength_russian_engineers():
    c = rolled(bought("russian", "I6", "11 Nov"), 0, 1, 2)
    company = formation(c, "russian")
    assert (company.strength, company.units, company.leaders) == (
        "Full Strength",
        ("9 x 6-2-8",),
        ("10-3", "9-1", "8-0"),
    )
    assert company.support_weapons == ("2 x LMG",)


def test_militia_are_always_full_strength_and_get_no_sw():
    c = rolled(bought("russian", "I5", "31 Oct"), 0, 5, 5)
    company = formation(c, "russian")
    assert (company.strength, company.units, company.leaders, company.support_weapons) == (
        "Full Strength",
        ("12 x 4-2-6",),
        ("6+1",),
        (),
    )
    assert c.ledger[-1].text == "I5 Militia Coy SW: none (compilation rule 7, Militia)"


@pytest.mark.parametrize(
    ("rg_id", "weapons"),
    [
        ("I2", "I2 Gds SMG Coy SW: DC"),
        ("I3", "I3 Rifle Coy SW: HMG, MMG, LMG, ATR, LtMtr"),
        ("I4", "I4 SMG Coy SW: none"),
    ],
)
def test_russian_company_sw(rg_id, weapons):
    assert rolled(bought("russian", rg_id, "20 Oct"), 0, 1, 1, 1, 1).ledger[-1].text == weapons


@pytest.mark.parametrize(
    ("side", "rg_id", "day", "faces", "strength", "guns"),
    [
        ("german", "G3", "20 Oct", (4, 4), "Full Strength", ("3 x 75* INF", "1 x 150* INF")),
        ("german", "G3", "20 Oct", (4, 5), "Depleted", ("2 x 75* INF",)),
        ("russian", "G1", "3 Nov", (3, 4), "Full Strength", ("2 x 45L AT", "2 x 45LL AT")),  # 7 + 1 = 8
        ("russian", "G1", "3 Nov", (4, 4), "Depleted", ("1 x 45L AT", "1 x 45LL AT")),  # 8 + 1 = 9
        ("russian", "G2", "11 Nov", (4, 5), "Full Strength", ("4 x 76L ART",)),  # 9 - 1 = 8
        ("russian", "G2", "11 Nov", (5, 5), "Depleted", ("3 x 76L ART",)),  # 10 - 1 = 9
    ],
)
def test_gun_battery_strength_on_both_sides_of_the_band_edge(side, rg_id, day, faces, strength, guns):
    battery = formation(rolled(bought(side, rg_id, day), 0, *faces), side)
    assert (battery.strength, battery.units) == (strength, guns)


@pytest.mark.parametrize(("faces", "strength"), [((6, 4), "Full Strength"), ((6, 5), "Depleted")])
def test_heavy_weapons_platoon_strength_is_rolled_and_its_weapons_listed(faces, strength):
    platoon = formation(rolled(bought("german", "I4", "10 Nov"), 0, *faces), "german")  # -2
    assert (platoon.strength, platoon.units) == (strength, ("2 x HMG", "2 x MMG", "2 x 81* MTR"))


# --- OBA ammo ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("side", "rg_id", "day", "faces", "ammo"),
    [
        ("german", "O1", "26 Oct", (2, 2), "Plentiful ammo"),
        ("german", "O1", "26 Oct", (2, 3), "Normal ammo"),
        ("german", "O1", "26 Oct", (4, 4), "Normal ammo"),
        ("german", "O1", "26 Oct", (4, 5), "Scarce ammo"),
        ("german", "O4", "2 Nov", (1, 1), "Plentiful ammo"),  # 2 + 2 = 4
        ("german", "O4", "2 Nov", (1, 2), "Normal ammo"),  # 3 + 2 = 5
        ("german", "O3", "11 Nov", (6, 5), "Normal ammo"),  # 11 - 3 = 8
        ("german", "O3", "11 Nov", (6, 6), "Scarce ammo"),  # 12 - 3 = 9
        ("russian", "O2", "20 Oct", (1, 1), "Plentiful ammo"),
        ("russian", "O2", "20 Oct", (1, 2), "Normal ammo"),
        ("russian", "O2", "20 Oct", (3, 4), "Normal ammo"),
        ("russian", "O2", "20 Oct", (4, 4), "Scarce ammo"),
        ("russian", "O5", "31 Oct", (1, 3), "Plentiful ammo"),  # 4 - 2 = 2
        ("russian", "O5", "31 Oct", (2, 3), "Normal ammo"),  # 5 - 2 = 3
    ],
)
def test_oba_ammo_on_both_sides_of_each_band_edge(side, rg_id, day, faces, ammo):
    c = rolled(bought(side, rg_id, day, preregistered_hexes=1), 0, *faces)
    (module,) = c.order_of_battle[side].oba_modules
    assert (module.ammo, module.preregistered_hexes, module.strength) == (ammo, 1, None)
    assert c.ledger[-1].dice_text == f"{faces[0]}+{faces[1]}" and c.ledger[-1].text.endswith(ammo)


# --- leaders -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("side", "rg_id", "leader_faces", "leaders"),
    [
        ("german", "I1", (1, 1), "10-2, 8-1, 8-0"),  # 2
        ("german", "I1", (1, 2), "10-2, 8-1, 7-0"),  # 3
        ("german", "I1", (4, 4), "8-1, 8-0, 7-0"),  # 8
        ("german", "I1", (4, 5), "9-1, 8-0"),  # 9
        ("german", "I1", (6, 6), "8-0, 7-0"),  # 12
        ("russian", "I3", (4, 4), "8-0, 7-0"),  # 8
        ("russian", "I3", (4, 5), "9-1"),  # 9
        ("russian", "I3", (6, 6), "7-0"),  # 12
        ("russian", "I4", (6, 6), "6+1"),  # 12 + 1 SMG = 13
        ("russian", "I4", (5, 6), "7-0"),  # 11 + 1 = 12
    ],
)
def test_leader_tables_on_both_sides_of_band_edges(side, rg_id, leader_faces, leaders):
    """20 Oct: Historical DRM 0 for both sides, so a 2 + 2 strength DR is Full Strength."""
    c = rolled(bought(side, rg_id, "20 Oct"), 0, 2, 2, *leader_faces)
    assert ", ".join(formation(c, side).leaders) == leaders


def rifle_coys(count):
    """A German campaign that has bought ``count`` Rifle Coys, two a CG Day from 17 Oct."""
    c = None
    for n in range(count):
        day = f"{17 + n // 2} Oct"
        c = bought("german", "I1", day, campaign=set_cpp(c, "german", day, 14) if c else None)
    return c


@pytest.mark.parametrize(
    ("number", "drm_text", "final", "leaders"),
    [
        (5, "", 7, "9-1, 8-1, 7-0"),
        (6, ", +1 late Rifle Coy purchase", 8, "8-1, 8-0, 7-0"),
        (8, ", +1 late Rifle Coy purchase", 8, "8-1, 8-0, 7-0"),
        (9, ", +2 late Rifle Coy purchase", 9, "9-1, 8-0"),
    ],
)
def test_the_sixth_and_later_german_rifle_coys_get_worse_leaders(number, drm_text, final, leaders):
    c = rifle_coys(9)
    c = rolled(c, number - 1, 2, 2, 3, 4)  # strength: 4 plus at most -2 is Full Strength on every day here
    assert c.ledger[-2].text.endswith(f"DR 3 + 4{drm_text} = {final}: {leaders}")
    assert ", ".join(formation(c, "german", number - 1).leaders) == leaders


def test_rifle_coys_count_in_order_of_purchase_whatever_order_they_are_rolled_in():
    c = rolled(rifle_coys(6), 5, 2, 2, 3, 4)
    assert "+1 late Rifle Coy purchase" in c.ledger[-2].text
    c = rolled(c, 0, 2, 2, 3, 4)
    assert "late Rifle Coy" not in c.ledger[-2].text


def test_a_rifle_coy_purchase_the_referee_voided_is_not_counted():
    c = rifle_coys(6)
    first = next(n for n, entry in enumerate(c.ledger) if entry.kind == "purchase" and entry.purchase == 0)
    c = correct_books(c, first, "void", "bought by mistake")
    c = rolled(c, 5, 2, 2, 3, 4)  # the sixth bought, the fifth that stands
    assert c.ledger[-2].text.endswith("DR 3 + 4 = 7: 9-1, 8-1, 7-0")


# --- refusals ----------------------------------------------------------------------------------


def test_rolls_are_made_once_per_purchase_that_needs_them():
    c = rolled(bought("german", "A1", "2 Nov"), 0, 3, 3)
    with pytest.raises(
        IllegalCommand, match=r"^Purchase #0 \(German A1 StuG B Pltn, 2 Nov\) has had its rolls already$"
    ):
        rolled(c, 0, 3, 3)
    with pytest.raises(IllegalCommand, match=r"^Purchase #0 \(Russian M2 Sniper, 2 Nov\) needs no rolls$"):
        rolled(bought("russian", "M2", "2 Nov"), 0)
    with pytest.raises(IllegalCommand, match=r"^There is no purchase #1: purchases are #0 to #0$"):
        rolled(c, 1)
    with pytest.raises(IllegalCommand, match=r"^There is no purchase #0: nothing has been bought yet$"):
        rolled(set_cpp(c.model_copy(update={"purchases": []}), "german", "2 Nov", 1), 0)
