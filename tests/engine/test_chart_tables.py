"""Every chart's bands, read at their edges with scripted dice.

Three layers: the structural check every chart passes on load (bands in order, no overlap, every
roll read, no gap where modifiers can reach), tests generated from the data (each band's lowest and
highest roll, and a modified roll crossing into the next band), and a hand-written table of what
the books print for the Cross of Iron and the newer Red Barricades charts, so a slip in entering
the data is caught by a number typed twice from the book."""

from __future__ import annotations

import pytest

from engine.dice import ScriptedDice
from engine.rich_text import Strong, unmarked
from engine.rolls.charts import (
    Band,
    Chart,
    describe_chart,
    dice_of,
    find_chart,
    load_charts,
    possible_rolls,
    roll_on_chart,
)

NEW_RED_BARRICADES = {
    "rb-search-casualties",
    "rb-clearance",
    "rb-cliff-climbing",
    "rb-mol-check",
    "rb-mol-flame",
    "rb-building-collapse",
    "rb-atmm-check",
}
NEW_CHARTS = sorted(
    c.id for c in load_charts().values() if c.book == "Cross of Iron" or c.id in NEW_RED_BARRICADES
)


def faces_for(dice: str, natural: int) -> list[tuple[int, int]]:
    """Scripted dice that roll ``natural`` (d66: tens then units; two dice: as even as can be)."""
    count, sides = dice_of(dice)
    if dice == "d66":
        return [(6, natural // 10), (6, natural % 10)]
    if count == 1:
        return [(sides, natural)]
    first = min(sides, natural - (count - 1))
    return [(sides, first), *faces_for(f"{count - 1}d{sides}", natural - first)]


def on(chart_id: str, choices: str, natural: int):
    chart = find_chart(chart_id)
    dice = ScriptedDice(faces_for(chart.dice, natural))
    rolled = roll_on_chart(chart, choices, dice)
    assert dice.remaining == 0
    return rolled


def band_sets(chart: Chart) -> list[tuple[str, tuple[Band, ...]]]:
    """(choices that select the set, its bands) for each set of bands the chart keeps."""
    if chart.bands_by:
        return [(f"{chart.bands_by}={value}", bands) for value, bands in chart.band_sets.items()]
    return [("", chart.bands)]


def edges() -> list[tuple[str, str, int, str]]:
    """(chart, choices, natural roll, the band's result) at each band's lowest and highest roll
    (a band only a modifier reaches, such as drifting no hexes, is read in the crossings below)."""
    cases = []
    for chart_id in NEW_CHARTS:
        chart = find_chart(chart_id)
        rolls = possible_rolls(chart.dice)
        for choices, bands in band_sets(chart):
            for band in bands:
                inside = sorted(n for n in rolls if band.holds(n))
                cases += [(chart_id, choices, n, band.result) for n in sorted({*inside[:1], *inside[-1:]})]
    return cases


@pytest.mark.parametrize(("chart_id", "choices", "natural", "result"), edges())
def test_each_band_reads_its_lowest_and_highest_roll(chart_id, choices, natural, result):
    rolled = on(chart_id, choices, natural)
    assert (rolled.natural, rolled.final, rolled.result) == (natural, natural, result)


def crossings() -> list[tuple[str, str, int, int, str]]:
    """(chart, choices with one modifier, natural, final, result): a band's edge roll pushed by the
    chart's first named modifier (given as many times as it takes) into the neighbouring band."""
    cases = []
    for chart_id in NEW_CHARTS:
        chart = find_chart(chart_id)
        named = [m for m in chart.options() if not m.halve]
        if not named:
            continue
        mod = named[0]
        step = mod.value if mod.value is not None else mod.per
        assert step
        for choices, bands in band_sets(chart):
            for band in bands[:-1] if step > 0 else bands[1:]:
                inside = sorted(n for n in possible_rolls(chart.dice) if band.holds(n))
                if not inside:
                    continue
                natural = inside[-1] if step > 0 else inside[0]
                beyond = band.max + 1 - natural if step > 0 else band.min - 1 - natural
                times = -(-beyond // step)
                if mod.per is None and times > 1:
                    continue  # an option counts once: it cannot reach the next band from here
                into = next(b for b in bands if b.holds(natural + times * step))
                assert into != band
                given = mod.id if mod.per is None else f"{mod.id}={times}"
                picked = ", ".join(c for c in (choices, given) if c)
                cases.append((chart_id, picked, natural, natural + times * step, into.result))
    return cases


@pytest.mark.parametrize(("chart_id", "choices", "natural", "final", "result"), crossings())
def test_a_modified_roll_crosses_into_the_next_band(chart_id, choices, natural, final, result):
    rolled = on(chart_id, choices, natural)
    assert (rolled.final, rolled.result) == (final, result)


# What the books print, typed from them: (chart, choices, natural roll, final, start of the result).
BOOK = [
    # Cross of Iron
    ("coi-air-support", "", 1, 1, "air support arrives"),
    ("coi-air-support", "", 2, 2, "no air support"),
    ("coi-mistaken-air-attack", "", 35, 35, "attacks the chosen hex"),
    ("coi-mistaken-air-attack", "", 36, 36, "mistaken: attacks the nearest unit within 3 hexes"),
    ("coi-mistaken-air-attack", "", 64, 64, "mistaken: attacks the nearest unit within 4 hexes"),
    ("coi-aircraft-morale", "", 8, 8, "passes"),
    ("coi-aircraft-morale", "mc=2", 8, 10, "damaged: +2"),
    ("coi-sturmovik-version", "", 2, 2, "the latest version"),
    ("coi-sturmovik-version", "", 3, 3, "the middle version"),
    ("coi-sturmovik-version", "", 6, 6, "the earliest version"),
    ("coi-sturmovik-rocket-kills", "", 4, 4, "1 To Kill roll"),
    ("coi-sturmovik-rocket-kills", "", 6, 6, "3 To Kill rolls"),
    ("coi-random-immobilization", "", 3, 3, "the kill stands"),
    ("coi-random-immobilization", "", 4, 4, "immobilized instead"),
    ("coi-immobilization-repair", "", 2, 2, "repaired"),
    ("coi-immobilization-repair", "leader=-1", 3, 2, "repaired"),
    ("coi-immobilization-repair", "", 9, 9, "permanently immobilized"),
    ("coi-burning-wreck", "", 1, 1, "the fire is out"),
    ("coi-overrun-grenades", "case=open-topped-open-ground", 11, 11, "destroyed"),
    ("coi-overrun-grenades", "case=open-topped-cover", 10, 10, "destroyed"),
    ("coi-overrun-grenades", "case=closed-cover", 11, 11, "immobilized"),
    ("coi-overrun-grenades", "case=closed-open-ground", 11, 11, "no harm"),
    ("coi-bog", "", 6, 6, "bogged"),
    ("coi-bog", "mud", 4, 6, "bogged"),
    ("coi-bog", "mud", 3, 5, "passes"),
    ("coi-bog-low-pressure", "mud", 10, 12, "bogged"),
    ("coi-bog-low-pressure", "", 11, 11, "passes"),
    ("coi-bog-free", "leader=-1", 2, 1, "free"),
    ("coi-speed-breakdown", "", 11, 11, "no breakdown"),
    ("coi-speed-breakdown", "over=4", 8, 12, "breakdown"),  # the 79.2 Tiger: 12 - 4 = 8
    ("coi-atm-placement", "", 4, 4, "placed"),
    ("coi-atm-placement", "leader=-1, immobilize", 6, 4, "placed"),
    ("coi-atm-dud", "side=german", 11, 11, "goes off"),
    ("coi-atm-dud", "side=german", 12, 12, "a dud"),
    ("coi-atm-dud", "side=russian", 10, 10, "a dud"),
    ("coi-atr-repair", "", 2, 2, "still malfunctioned"),
    ("coi-atr-repair", "nation=american", 2, 2, "repaired"),
    ("coi-atr-repair", "nation=american", 6, 6, "eliminated"),
    ("coi-drop-point", "", 3, 3, "the chosen hex"),
    ("coi-drop-point", "", 5, 5, "the same hex number on another board, the paratroop player's"),
    ("coi-drop-point", "", 6, 6, "the same hex number on another board, the opponent's"),
    ("coi-paratroop-drift", "wind=-2", 2, 0, "no drift"),  # the 99.26 example
    ("coi-paratroop-drift", "no_wind", 4, 3, "drifts 3 hexes"),
    ("coi-near-miss", "", 1, 1, "the adjacent hex the line of fire crosses"),
    ("coi-near-miss", "", 2, 2, "the next adjacent hex clockwise"),
    ("coi-wind-change", "", 2, 2, "the wind changes"),
    ("coi-wind-change", "", 3, 3, "no change"),
    ("coi-woods-entry", "", 6, 6, "immobilized"),
    ("coi-woods-repair", "", 1, 1, "repaired"),
    ("coi-woods-repair", "", 6, 6, "permanently"),
    ("coi-field-phone", "", 11, 11, "contact"),
    ("coi-field-phone", "barrage, squads=2", 9, 12, "no contact"),
    ("coi-gun-jam-or-empty", "", 3, 3, "jammed"),
    ("coi-gun-jam-or-empty", "", 4, 4, "out of that ammunition"),
    ("coi-hit-location", "", 2, 2, "turret"),
    ("coi-hit-location", "", 3, 3, "hull"),
    ("coi-canister", "", 1, 1, "carries canister"),
    ("coi-canister", "", 2, 2, "no canister"),
    # Red Barricades
    ("rb-search-casualties", "", 1, 1, "Casualty Reduction"),
    ("rb-search-casualties", "stealthy_defenders=2, lax_searchers", 2, 1, "Casualty Reduction"),
    ("rb-search-casualties", "defender_leader=-1, japanese", 1, 2, "no casualties"),
    ("rb-clearance", "", 2, 2, "cleared"),
    ("rb-clearance", "squad, leader=-1, bulldozers", 9, 2, "cleared"),  # the 24.71 example
    ("rb-clearance", "", 6, 6, "not cleared (a Flame is Hampered"),
    ("rb-clearance", "labor=-1", 8, 7, "not cleared; Labor"),
    ("rb-cliff-climbing", "", 9, 9, "climbs"),
    ("rb-cliff-climbing", "weather", 9, 10, "stuck"),
    ("rb-cliff-climbing", "", 12, 12, "falls"),
    ("rb-cliff-climbing", "climber=commando", 11, 11, "climbs"),
    ("rb-cliff-climbing", "climber=commando, weather", 12, 13, "falls"),
    ("rb-mol-check", "", 3, 3, "has a MOL"),
    ("rb-mol-check", "smc, cx", 1, 4, "no MOL"),
    ("rb-mol-flame", "ec=-2", 2, 0, "no Flame"),  # the 22.6111 example: wet EC
    ("rb-mol-flame", "fortified", 2, 1, "Flame placed"),
    ("rb-building-collapse", "levels=2", 6, 8, "the whole building hex collapses"),
    ("rb-building-collapse", "levels=1", 6, 7, "the rest of the building stands"),
    ("rb-atmm-check", "", 1, 1, "has an ATMM"),
    ("rb-atmm-check", "", 6, 6, "no ATMM, and the Original 6"),
]


@pytest.mark.parametrize(("chart_id", "choices", "natural", "final", "start"), BOOK)
def test_the_book_values(chart_id, choices, natural, final, start):
    rolled = on(chart_id, choices, natural)
    assert rolled.final == final and rolled.result.startswith(start)


def test_every_new_chart_has_book_values_typed_in():
    assert {row[0] for row in BOOK} == set(NEW_CHARTS)


def test_d66_reads_tens_then_units_and_shows_both_dice():
    rolled = roll_on_chart(find_chart("coi-mistaken-air-attack"), "", ScriptedDice([(6, 6), (6, 2)]))
    assert rolled.natural == 62
    assert rolled.line[:2] == ("Mistaken air attack (Cross of Iron): d66 6, 2 = ", Strong("62"))
    assert rolled.text.startswith("Mistaken air attack (Cross of Iron): d66 6, 2 = 62: mistaken")


def test_band_sets_show_each_set_and_refuse_an_unknown_choice():
    shown = "\n".join(unmarked(line) for line in describe_chart(find_chart("coi-atm-dud")))
    assert "side=german: <=11 goes off" in shown and "side=russian: <=9 goes off" in shown
    with pytest.raises(Exception, match="side is one of german, russian"):
        roll_on_chart(find_chart("coi-atm-dud"), "side=italian", ScriptedDice([]))


BASE = {"id": "x", "title": "X", "source": "test", "dice": "d6"}


@pytest.mark.parametrize(
    ("bands", "modifiers", "message"),
    [
        ([{"max": 3, "result": "a"}, {"min": 3, "result": "b"}], [], "overlap"),
        ([{"min": 4, "result": "b"}, {"max": 3, "result": "a"}], [], "overlap or are out of order"),
        ([{"max": 2, "result": "a"}, {"min": 4, "result": "b"}], [], "a roll of 3 is read by no band"),
        ([{"min": 1, "max": 3, "result": "a"}, {"min": 4, "max": 6, "result": "b"}], [], None),
        (
            [{"min": 1, "max": 3, "result": "a"}, {"min": 4, "max": 6, "result": "b"}],
            [{"id": "m", "name": "m", "value": 1}],
            "must be open-ended",
        ),
        (
            [{"max": 2, "result": "a"}, {"min": 4, "result": "b"}],
            [{"id": "m", "name": "m", "value": 1}],
            "has no band",
        ),
    ],
)
def test_bands_with_a_gap_or_overlap_are_refused_on_load(bands, modifiers, message):
    raw = {**BASE, "bands": bands, "modifiers": modifiers}
    if message is None:
        assert Chart.model_validate(raw).bands
    else:
        with pytest.raises(ValueError, match=message):
            Chart.model_validate(raw)


def test_d66_bands_need_only_cover_the_rolls_two_dice_can_make():
    bands = [{"min": 10 * tens + 1, "max": 10 * tens + 6, "result": str(tens)} for tens in range(1, 7)]
    assert len(Chart.model_validate({**BASE, "dice": "d66", "bands": bands}).bands) == 6
    with pytest.raises(ValueError, match="a roll of 66 is read by no band"):
        short = [*bands[:-1], {"min": 61, "max": 65, "result": "6"}]
        Chart.model_validate({**BASE, "dice": "d66", "bands": short})
