"""Dice statistics (engine.dice_stats): a scripted game whose every die is known, the chi-square
test against table values, and reading the dice of logged /roll and /chart results back."""

import math

import pytest

from engine.commands import ChooseInitiative, Declare, Fire, React, StartGame, UnitOrder
from engine.dice import DieRoll, ScriptedDice, d6, d10
from engine.dice_stats import (
    ALL,
    Category,
    PlayerDie,
    chi_square_p_value,
    dice_report,
    face_tally,
    report_text,
    success_chance,
)
from engine.rich_text import Block, Mention, unmarked
from engine.rolls.charts import find_chart, roll_on_chart
from engine.rolls.expressions import roll
from engine.rolls.readback import dice_behind
from engine.rulesets import with_rule_set
from engine.scenarios.new_game import make_unit
from tests.engine.helpers import act, game, play, started

OWNERS = {"GIs": "ann", "allies": "ann", "Grenadiers": "otto", "axis": "otto"}


def firefight():
    """Initiative 1 (allies) to 6 (axis); the Grenadiers fire at the GIs, who react by firing
    back: reaction test 5, GIs' to-hit 9 and 3 (needs 4+: 1 hit), casualty 2; Grenadiers' to-hit
    7 and 8 (needs 5+ with one marker: 2 hits), casualties 6 and 4."""
    state = game(
        make_unit("german", "Infantry Detachment", "axis", (50, 32), unit_id="gren", name="Grenadiers"),
        make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis", name="GIs"),
    )
    state, start = play(state, StartGame(), d6(1), d6(6))
    for side in state.sides.values():
        side.tokens = 10  # so the turn does not end under the fight
    state, _ = play(state, ChooseInitiative(side="axis", go_first=True))
    state, _ = play(state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Fire(target="gis"),))))
    react = React(
        side="allies",
        window=state.pending.window,
        order=UnitOrder(unit="gis", actions=(Fire(target="gren"),)),
    )
    scripted = (d6(5), d10(9), d10(3), d6(2), d10(7), d10(8), d6(6), d6(4))
    state, fight = play(state, react, *scripted)
    return start + fight


def players_dice(events):
    """Each die for the player of the unit (or side) its purpose names first."""
    return [
        PlayerDie(OWNERS[die.purpose.split(", ", 1)[1].split(" at ")[0]], die)
        for event in events
        for die in event.rolls
    ]


def test_every_die_of_a_scripted_game_by_player_size_and_purpose():
    report = dice_report(players_dice(firefight()))
    ann, otto = report.players
    assert (ann.player, otto.player) == ("ann", "otto")
    tallies = {(t.sides, t.purpose): t.counts for t in ann.tallies}
    assert tallies == {
        (6, Category.REACTION.value): (0, 0, 0, 0, 1, 0),
        (6, Category.CASUALTY.value): (0, 1, 0, 0, 0, 0),
        (6, Category.OTHER.value): (1, 0, 0, 0, 0, 0),  # the initiative die
        (6, ALL): (1, 1, 0, 0, 1, 0),
        (10, Category.TO_HIT.value): (0, 0, 1, 0, 0, 0, 0, 0, 1, 0),
        (10, ALL): (0, 0, 1, 0, 0, 0, 0, 0, 1, 0),
    }
    assert otto.faces(6).counts == (0, 0, 0, 1, 0, 2) and otto.faces(10).counts == (0,) * 6 + (1, 1, 0, 0)
    assert (ann.dice, otto.dice, report.dice) == (5, 5, 10)
    assert ann.faces(10).mean == 6.0 and ann.faces(10).expected_mean == 5.5
    assert otto.faces(6).mean == pytest.approx(16 / 3)


def test_the_fire_records_the_score_each_to_hit_die_needs_and_the_luck_adds_up_p10():
    events = firefight()
    fire = [e for e in events if e.kind == "fire"]
    assert "needs 4+" in fire[0].text and "needs 5+" in fire[1].text
    needs = [[d.needs for d in e.rolls] for e in fire]
    assert needs == [[4, 4, None], [5, 5, None, None]]  # casualty rolls are not to-hit throws
    ann, otto = dice_report(players_dice(events)).players
    ann_luck, ann_reaction = ann.luck
    assert (ann_luck.purpose, ann_luck.dice, ann_luck.scored) == (Category.TO_HIT, 2, 1)
    assert ann_luck.expected == pytest.approx(2 * 7 / 10)
    # the GIs' reaction test needed 3+ and rolled 5
    assert (ann_reaction.purpose, ann_reaction.dice, ann_reaction.scored) == (Category.REACTION, 1, 1)
    assert ann_reaction.expected == pytest.approx(4 / 6)
    (otto_luck,) = otto.luck
    assert (otto_luck.scored, otto_luck.expected) == (2, pytest.approx(2 * 6 / 10))


def test_house_rules_to_hit_dice_need_five_less_the_modifiers_s5():
    state = with_rule_set(
        game(
            make_unit("british", "Infantry Detachment", "allies", (30, 10), unit_id="squad", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (30, 20), unit_id="gruppe", facing=270),
            sides={"allies": "british", "axis": "german"},
        ),
        "house-v1",
    )
    state = started(state, "allies")
    state.units["squad"].morale_markers = 1  # -1 to hit
    _, events = act(state, "allies", "squad", Fire(target="gruppe"), faces=[d10(6), d10(5), d6(1)])
    (fire,) = [e for e in events if e.kind == "fire"]
    assert "rolled 6, 5: 1 hit" in fire.text  # the marker's -1 makes the 5 miss
    assert [d.needs for d in fire.rolls] == [6, 6, None]  # only to-hit throws record their score


def test_the_chi_square_test_of_a_known_distribution():
    fair = face_tally(10, ALL, range(1, 11))
    assert (fair.chi_square, fair.p_value, fair.mean) == (0.0, 1.0, 5.5)
    sixes = face_tally(6, ALL, [6] * 12)  # twelve sixes: expected 2 of each face
    assert sixes.chi_square == (5 * 2**2 + 10**2) / 2 == 60.0
    assert sixes.p_value == pytest.approx(chi_square_p_value(60.0, 5)) and sixes.p_value < 1e-10
    lopsided = face_tally(6, ALL, [1, 1, 1, 2, 2, 3, 4, 5, 6, 6, 6, 6])
    assert lopsided.counts == (3, 2, 1, 1, 1, 4)
    assert lopsided.chi_square == pytest.approx((1 + 0 + 1 + 1 + 1 + 4) / 2)


@pytest.mark.parametrize(
    ("statistic", "freedom", "p"),
    [  # the upper tail of the chi-square table
        (3.841, 1, 0.05),
        (5.991, 2, 0.05),
        (11.070, 5, 0.05),
        (15.086, 5, 0.01),
        (16.919, 9, 0.05),
        (21.666, 9, 0.01),
        (4.351, 5, 0.50),
        (8.343, 9, 0.50),
    ],
)
def test_chi_square_p_values_match_the_table(statistic, freedom, p):
    assert chi_square_p_value(statistic, freedom) == pytest.approx(p, abs=5e-4)


def test_chi_square_p_value_closed_forms():
    assert chi_square_p_value(3.0, 2) == pytest.approx(math.exp(-1.5))
    assert chi_square_p_value(2.0, 1) == pytest.approx(math.erfc(1.0))
    assert chi_square_p_value(0.0, 5) == 1.0
    with pytest.raises(ValueError, match="at least one degree of freedom"):
        chi_square_p_value(1.0, 0)


def test_faces_outside_the_die_are_refused():
    with pytest.raises(ValueError, match="faces of a d6 must be 1..6"):
        face_tally(6, ALL, [7])


def test_success_chance_of_a_score_needed():
    assert [success_chance(10, n) for n in (0, 1, 5, 10, 11)] == [1.0, 1.0, 0.6, 0.1, 0.0]


@pytest.mark.parametrize(
    ("purpose", "category"),
    [
        ("to hit, Panther 1 at Sherman 2", Category.TO_HIT),
        ("reaction test, Panther 1 (command re-roll)", Category.REACTION),
        ("reactivation test, GIs", Category.REACTIVATION),
        ("Company Morale Test, allies", Category.MORALE),
        ("break point test, axis", Category.MORALE),
        ("penetration, Panther 1 at Sherman 2", Category.PENETRATION),
        ("damage, Panther 1 at Sherman 2", Category.PENETRATION),
        ("casualty roll, GIs at Grenadiers", Category.CASUALTY),
        ("close combat round 2, GIs", Category.TO_HIT),
        ("initiative, allies", Category.OTHER),
        ("chart ic-reaction", Category.OTHER),
        ("/roll 2d10 5+", Category.OTHER),
    ],
)
def test_a_die_stored_without_a_category_takes_it_from_its_purpose(purpose, category):
    stored = DieRoll.model_validate_json(f'{{"sides": 10, "value": 3, "purpose": "{purpose}"}}')
    assert stored.category is category


def test_the_text_table_names_each_player_and_their_luck():
    lines = report_text(dice_report(players_dice(firefight())), lambda p: " (allies)" * (p == "ann"))
    heading, _, ann, (ann_table,), _, otto, (otto_table,) = lines
    assert heading == ("Dice statistics: 10 dice",)
    assert ann == (Mention("ann"), " (allies): 5 dice")  # each front end names the player its way
    assert otto == (Mention("otto"), ": 5 dice")
    assert isinstance(ann_table, Block) and "hits 1 vs 1.4 expected (2 dice)" in ann_table.text
    assert "hits 2 vs 1.2 expected (2 dice)" in ann_table.text + otto_table.text
    assert "d6 faces 1:0 2:0 3:0 4:1 5:0 6:2 (fair 0.5 each)" in ann_table.text + otto_table.text
    assert report_text(dice_report([])) == (("No dice have been rolled yet",),)


def lines(rolls):
    return "\n".join(f"{r.label}: {unmarked(r.line)}" if r.label else unmarked(r.line) for r in rolls)


@pytest.mark.parametrize(
    ("asked", "faces"),
    [
        ("2d10 5+ Panther at Sherman 2", [d10(7), d10(3)]),
        ("DR +2 sniper", [d6(2), d6(5)]),
        ("3d6+1; 1d10", [d6(6), d6(1), d6(6), d10(10)]),
        ("4d6kh3", [d6(1), d6(5), d6(1), d6(4)]),
        ("1d6e6", [d6(6), d6(6), d6(2)]),
    ],
)
def test_the_dice_of_a_logged_roll_are_read_back_from_its_text(asked, faces):
    shown = lines(roll(asked, ScriptedDice(faces)))
    dice = dice_behind(shown, lambda source: lines(roll(asked, source)))
    assert [(d.sides, d.value) for d in dice] == faces


def test_a_chart_roll_is_read_back_with_its_purpose():
    chart = find_chart("rb-rg-strength")
    shown = roll_on_chart(chart, "side=german, date=2 Nov", ScriptedDice([d6(4), d6(4)])).text
    dice = dice_behind(shown, lambda source: roll_on_chart(chart, "side=german, date=2 Nov", source).text)
    assert dice == (DieRoll(sides=6, value=4, purpose="chart rb-rg-strength"),) * 2


def test_a_roll_that_hides_a_die_is_left_unread():
    shown = lines(roll("4d6kh3 5+", ScriptedDice([d6(1), d6(5), d6(6), d6(6)])))
    assert shown == "4d6kh3 5+: 5, 6, 6 -> 3 successes"  # the dropped 1 is not shown
    assert dice_behind(shown, lambda source: lines(roll("4d6kh3 5+", source))) is None
