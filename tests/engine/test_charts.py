"""/chart: the chart engine on every shipped chart with scripted dice, band edges included, and
the Iron Cross charts checked against the engine's own rule functions for every combination."""

import itertools

import pytest

from engine.dice import ScriptedDice
from engine.errors import IllegalCommand
from engine.rich_text import Strong
from engine.rolls.charts import describe_chart, find_chart, load_charts, roll_on_chart
from engine.rules.activation import reaction_score_needed, reactivation_score_needed
from engine.rules.armour import damage_result, damage_score
from engine.rules.firing import Shot
from engine.rules.morale import company_morale_test
from engine.rules.movement import terrain_test_score_needed
from engine.scenarios.new_game import make_unit
from engine.state import Going


def on(chart_id, choices, *faces, sides=6):
    dice = ScriptedDice([(sides, f) for f in faces])
    result = roll_on_chart(find_chart(chart_id), choices, dice)
    assert dice.remaining == 0
    return result


def test_every_shipped_chart_loads_and_describes_itself():
    charts = load_charts()
    assert {
        "rb-rg-strength",
        "rb-german-oba-ammo",
        "rb-russian-oba-ammo",
        "rb-gun-battery",
        "rb-german-leaders",
        "rb-russian-leaders",
        "rb-sewer-emergence",
        "ic-reaction",
        "ic-reactivation",
        "ic-terrain",
        "ic-company-morale",
        "ic-damage",
        "ic-casualty",
    } <= set(charts)
    for chart in charts.values():
        assert describe_chart(chart)[0][0] == Strong(chart.id)


# --- Red Barricades ---------------------------------------------------------------------------


@pytest.mark.parametrize(("faces", "result"), [((3, 3), "Full Strength"), ((4, 3), "Depleted")])
def test_rg_strength_adds_the_historical_drm_for_side_and_date(faces, result):
    """2 Nov: German historical DRM +2, so 6 -> 8 (full) and 7 -> 9 (depleted)."""
    rolled = on("rb-rg-strength", "side=german, date=2 Nov", *faces)
    assert rolled.result == result and rolled.modifiers == (("historical DRM", 2),)
    assert rolled.text.startswith(
        f"RG strength (Red Barricades): DR {faces[0]} + {faces[1]}, +2 historical DRM"
    )


def test_rg_strength_with_a_balance_drm_and_a_russian_date():
    rolled = on("rb-rg-strength", "side=russian, date=31 Oct, balance=-1", 6, 6)
    assert rolled.final == 12 - 2 - 1 and rolled.result == "Depleted"


@pytest.mark.parametrize(
    ("chart", "date", "faces", "result"),
    [
        ("rb-german-oba-ammo", "26 Oct", (2, 2), "Plentiful ammo"),
        ("rb-german-oba-ammo", "26 Oct", (2, 3), "Normal ammo"),
        ("rb-german-oba-ammo", "26 Oct", (4, 4), "Normal ammo"),
        ("rb-german-oba-ammo", "26 Oct", (4, 5), "Scarce ammo"),
        ("rb-german-oba-ammo", "11 Nov", (6, 6), "Scarce ammo"),  # -3: 9
        ("rb-german-oba-ammo", "11 Nov", (6, 5), "Normal ammo"),  # -3: 8
        ("rb-russian-oba-ammo", "20 Oct", (1, 1), "Plentiful ammo"),
        ("rb-russian-oba-ammo", "20 Oct", (1, 2), "Normal ammo"),
        ("rb-russian-oba-ammo", "20 Oct", (3, 4), "Normal ammo"),
        ("rb-russian-oba-ammo", "20 Oct", (4, 4), "Scarce ammo"),
    ],
)
def test_oba_ammo_band_edges(chart, date, faces, result):
    assert on(chart, f"date={date}", *faces).result == result


def test_gun_battery_strength_uses_the_rg_bands():
    assert on("rb-gun-battery", "side=german, date=20 Oct", 4, 4).result == "Full strength"
    assert on("rb-gun-battery", "side=german, date=20 Oct", 4, 5).result.startswith("Depleted")


@pytest.mark.parametrize(
    ("choices", "faces", "final", "leaders"),
    [
        ("company=sturm", (1, 2), 1, "10-3, 9-1, 8-0"),
        ("company=pioneer, depleted", (1, 1), 2, "10-2, 8-1, 8-0"),
        ("company=rifle, rifle_number=5", (6, 6), 12, "8-0, 7-0"),
        ("company=rifle, rifle_number=6", (6, 6), 13, "8-0, 6+1"),
        ("company=rifle, rifle_number=9, cg2", (3, 4), 10, "8-1, 8-0"),
        ("company=sturm, rifle_number=9", (3, 4), 5, "9-2, 8-1, 7-0"),  # the step is for Rifle Coys only
    ],
)
def test_german_leader_table_with_its_drm(choices, faces, final, leaders):
    rolled = on("rb-german-leaders", choices, *faces)
    assert (rolled.final, rolled.result) == (final, leaders)


@pytest.mark.parametrize(
    ("choices", "faces", "final", "leaders"),
    [
        ("company=assault-engineer", (1, 2), 1, "10-3, 9-1, 8-0"),
        ("company=guards", (1, 2), 2, "10-2, 8-1"),
        ("company=militia, depleted", (4, 4), 13, "6+1"),
        ("company=smg", (5, 6), 12, "7-0"),
    ],
)
def test_russian_leader_table_with_its_drm(choices, faces, final, leaders):
    rolled = on("rb-russian-leaders", choices, *faces)
    assert (rolled.final, rolled.result) == (final, leaders)


@pytest.mark.parametrize(
    ("choices", "face", "final", "start"),
    [
        ("", 4, 4, "may emerge concealed"),
        ("", 5, 5, "cannot emerge"),
        ("friends unseen", 6, 4, "may emerge concealed"),
        ("lost, enemy_mmc=2", 4, 7, "discovered"),
        ("enemy_adjacent", 5, 6, "cannot emerge"),
    ],
)
def test_sewer_emergence_with_its_drm(choices, face, final, start):
    rolled = on("rb-sewer-emergence", choices, face)
    assert rolled.final == final and rolled.result.startswith(start)


@pytest.mark.parametrize(
    ("chart", "choices", "message"),
    [
        ("rb-rg-strength", "date=2 Nov", "needs side=...: whose reinforcement group"),
        ("rb-rg-strength", "side=italian, date=2 Nov", "side is one of german, russian, not 'italian'"),
        ("rb-rg-strength", "side=german, date=3 Dec", "has no date '3 Dec'"),
        ("rb-rg-strength", "side=german, date=2 Nov, balance=lots", "balance is a whole number"),
        ("rb-sewer-emergence", "enemy_mmc=many", "enemy_mmc is a count"),
        ("rb-sewer-emergence", "wet", "has no wet; it takes friends, unseen"),
    ],
)
def test_bad_choices_are_refused_before_any_die_is_rolled(chart, choices, message):
    with pytest.raises(IllegalCommand, match=message):
        roll_on_chart(find_chart(chart), choices, ScriptedDice([]))


def test_charts_are_found_by_id_or_words():
    assert find_chart("sewer").id == "rb-sewer-emergence"
    with pytest.raises(IllegalCommand, match="Did you mean"):
        find_chart("leaders")
    with pytest.raises(IllegalCommand, match="No chart called 'xyzzy'"):
        find_chart("xyzzy")


# --- Iron Cross: the charts agree with the engine --------------------------------------------

TANK = make_unit("german", "Panzer IV G (late) to J", "axis", (0, 0))
SCOUT = make_unit("german", "Sd.Kfz 222", "axis", (0, 0))
SQUAD = make_unit("german", "Infantry Detachment", "axis", (0, 0))
HEAVY = make_unit("german", "Tiger I", "axis", (0, 0))


def with_markers(unit, markers):
    return unit.model_copy(update={"morale_markers": markers})


@pytest.mark.parametrize(
    ("unit", "tokens", "markers", "versus_infantry", "in_cover"),
    [
        (u, t, m, v, c)
        for u in (TANK, SQUAD, SCOUT)
        for t in range(3)
        for m in range(3)
        for v in (False, True)
        for c in (False, True)
        if v or not c
    ],
)
def test_reaction_chart_agrees_with_the_engine(unit, tokens, markers, versus_infantry, in_cover):
    engine = reaction_score_needed(
        with_markers(unit, markers),
        tokens,
        enemy_is_foot_soldiers=versus_infantry,
        enemy_mounted=False,
        enemy_started_in_cover=in_cover,
    )
    scout = unit is SCOUT
    choices = [f"tokens={tokens}"] + ([] if scout else [f"markers={markers}"]) + (["scout"] if scout else [])
    if unit.is_vehicle and versus_infantry:
        choices += ["vehicle_v_infantry"] + (["infantry_in_cover"] if in_cover else [])
    for face in range(1, 7):
        rolled = on("ic-reaction", ", ".join(choices), face)
        assert rolled.final == engine.needed
        assert (rolled.result == "passed") == engine.passes(face)


@pytest.mark.parametrize(
    ("unit", "tokens", "markers"), [(u, t, m) for u in (TANK, HEAVY) for t in range(4) for m in range(3)]
)
def test_reactivation_chart_agrees_with_the_engine(unit, tokens, markers):
    engine = reactivation_score_needed(with_markers(unit, markers), tokens)
    choices = f"tokens={tokens}, markers={markers}" + (", heavy" if unit is HEAVY else "")
    for face in range(1, 7):
        rolled = on("ic-reactivation", choices, face)
        assert rolled.final == engine.needed and (rolled.result == "passed") == engine.passes(face)


TERRAIN_UNITS = {
    "wheeled": ("german", "Truck/Kubelwagen"),
    "halftrack": ("german", "251 Halftrack"),
    "tracked": ("german", "Panzer IV G (late) to J"),
    "scout": ("german", "Sd.Kfz 222"),
    "heavy": ("german", "Tiger I"),
    "infantry": ("german", "Infantry Detachment"),
    "gun": ("german", "PaK40 Anti-tank Gun"),
}


@pytest.mark.parametrize(
    ("kind", "going", "wire"),
    list(itertools.product(TERRAIN_UNITS, (Going.ROUGH, Going.VERY_ROUGH), (False, True))),
)
def test_terrain_chart_agrees_with_the_engine(kind, going, wire):
    profile = make_unit(*TERRAIN_UNITS[kind], "axis", (0, 0)).profile
    engine = terrain_test_score_needed(profile, going, wire=wire)
    choices = f"unit={kind}, going={going.value}" + (", wire" if wire else "")
    if engine is None:
        assert on("ic-terrain", choices).result == "no test needed"
    elif engine >= 7:
        assert on("ic-terrain", choices).result == "impossible"
    else:
        for face in range(1, 7):
            rolled = on("ic-terrain", choices, face)
            assert rolled.final == engine and (rolled.result == "passed") == (face >= engine)


def test_company_morale_chart_agrees_with_the_engine():
    for face in range(1, 7):
        assert on("ic-company-morale", "", face).result.startswith(company_morale_test(face).value.split()[0])


FIRERS = {
    "": make_unit("german", "Panzer IV G (late) to J", "axis", (0, 0)),
    "mg_or_mortar": make_unit("german", "MG Team", "axis", (0, 0)),
    "howitzer": make_unit("german", "StuH 42", "axis", (0, 0)),
}


@pytest.mark.parametrize(
    ("firer", "hull_down"),
    list(itertools.product(FIRERS, (False, True))),
)
def test_damage_chart_agrees_with_the_engine(firer, hull_down):
    target = make_unit("us", "Sherman 75mm", "allies", (0, 10))
    shot = Shot(FIRERS[firer], target, 10.0, False, True, False, hull_down=hull_down)
    choices = ", ".join(c for c in (firer, "hull_down" if hull_down else "") if c)
    for face in range(1, 7):
        score, _ = damage_score(face, shot)
        expected = damage_result(score).value.split()[0].rstrip("!:")
        assert on("ic-damage", choices, face).result.casefold().startswith(expected.casefold())
