"""Every die thrown against a score keeps the score it needed (``DieRoll.needs``, or
``DieRoll.at_most`` for the break point test), so ``/stats`` counts its luck: reaction and
re-rolled tests, the Company Morale Test, fall back rallies, break point tests, close combat and
indirect fire, each with scripted dice."""

import pytest

from engine.commands import Declare, DeclineReaction, FallBackOrder, Fire, MoraleTestOrder, React, UnitOrder
from engine.dice import d6, d10, passing_score
from engine.dice_stats import Category, PlayerDie, dice_report, die_chance, die_passed
from engine.scenarios.new_game import make_unit
from engine.variants.house_v1.commands import Bombard, RequestFire
from tests.engine.helpers import P, act, game, play, started
from tests.engine.test_house_rules_combat import shelled
from tests.engine.test_house_rules_flow import charge, house, melee
from tests.engine.test_reaction_flow import failed_reaction_rerolled, move
from tests.engine.test_turns import small_game


def scores(events):
    """(purpose, face, needs, at_most) of every die rolled."""
    return [(d.purpose, d.value, d.needs, d.at_most) for e in events for d in e.rolls]


def luck(events):
    """The single player's luck by category: (dice, scored, expected)."""
    (player,) = dice_report([PlayerDie("ann", d) for e in events for d in e.rolls]).players
    return {entry.purpose: (entry.dice, entry.scored, round(entry.expected, 6)) for entry in player.luck}


def test_the_score_is_read_from_the_test_itself():
    assert passing_score(6, lambda face: face >= 4) == (4, None)
    assert passing_score(6, lambda face: face == 6 or face >= 9) == (6, None)  # a natural 6 passes
    assert passing_score(6, lambda face: face <= 2) == (None, 2)
    assert passing_score(10, lambda face: False) == (11, None)
    assert passing_score(6, lambda face: True) == (1, None)
    with pytest.raises(ValueError, match=r"a d6 test passed on \[1, 6\] has no score to reach"):
        passing_score(6, lambda face: face in (1, 6))


def test_a_failed_reaction_and_its_command_re_roll_both_keep_their_score_p6_p18():
    _, events = failed_reaction_rerolled()
    assert scores(events) == [
        ("reaction test, Infantry Detachment", 1, 3, None),
        ("reaction test, Infantry Detachment (command re-roll)", 5, 3, None),
    ]
    assert luck(events) == {Category.REACTION: (2, 1, round(2 * 4 / 6, 6))}


def test_a_company_morale_test_as_a_reaction_passes_on_3_or_more_p13():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a", morale_markers=2),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=move("gren", 80, 56)))
    state, events = play(
        state, React(side="allies", window=state.pending.window, order=MoraleTestOrder()), d6(3), d6(2)
    )
    assert scores(events) == [
        ("reaction test, the Allies' Company Morale Test", 3, 3, None),
        ("Company Morale Test, allies", 2, 3, None),
    ]
    assert luck(events) == {
        Category.REACTION: (1, 1, round(4 / 6, 6)),
        Category.MORALE: (1, 0, round(4 / 6, 6)),
    }


def test_a_fall_back_rally_needs_4_p13():
    mg = make_unit("german", "MG Team", "axis", (30, 60), unit_id="mg-nest", morale_markers=3)
    mortar = make_unit("british", "Mortar Team", "allies", (30, 20), facing=90)
    state = started(game(mg, mortar, sides={"allies": "british", "axis": "german"}), "allies")
    state.units["mg-nest"].tokens = 1
    order = UnitOrder(unit="mortar-team", actions=(Fire(target="mg-nest"),))
    state, _ = play(state, Declare(side="allies", order=order))
    fall_back = FallBackOrder(unit="mg-nest", path=(P(30, 69),))
    state, events = play(
        state, React(side="axis", window=state.pending.window, order=fall_back), d6(4), d6(5), d10(9), d6(3)
    )
    assert scores(events)[:3] == [
        ("reaction test, MG Team", 4, 4, None),
        ("fall back rally, MG Team", 5, 4, None),
        ("to hit, Mortar Team at MG Team", 9, 9, None),
    ]


def test_the_break_point_test_must_roll_low_p27():
    state = started(small_game(), "axis", tokens=None)
    state, _ = play(state, Declare(side="axis", order=move("gren", 80, 56)))
    state, _ = play(state, DeclineReaction(side="allies", window=state.pending.window))
    # both sides out of tokens: the turn ends; the axis breaks, which ends the game
    state, events = play(state, Declare(side="allies", order=move("gis", 10, 14)), d6(1), d6(3))
    # each side's break point is 2, nothing lost: it holds on 1 or 2
    assert scores(events)[:2] == [
        ("break point test, allies", 1, None, 2),
        ("break point test, axis", 3, None, 2),
    ]
    allies, axis = [d for e in events for d in e.rolls][:2]
    assert (die_passed(allies), die_passed(axis)) == (True, False)
    assert die_chance(allies) == pytest.approx(2 / 6)


def test_close_combat_initiation_and_rounds_keep_their_scores_hr6():
    faces = [
        d6(3),  # initiation: 3+ (no tokens, no markers)
        *(d10(5), d10(2), d6(4)),  # round 1, the defenders first: 5+
        *(d10(7), d10(8), d6(1), d6(4)),  # the attackers, 2 markers: 7+
        *(d10(1), d10(1)),  # round 2: the defenders, 2 markers: 7+
        *(d10(9), d10(7), d6(6), d6(6)),  # the attackers: 7+
    ]
    _, events = charge(melee(), "tommies", "gruppe", *faces)
    thrown = [(purpose, face, needs) for purpose, face, needs, _ in scores(events) if needs is not None]
    assert thrown == [
        ("close combat initiation, Infantry Detachment", 3, 3),
        ("close combat round 1, Infantry Detachment", 5, 5),
        ("close combat round 1, Infantry Detachment", 2, 5),
        ("close combat round 1, Infantry Detachment", 7, 7),
        ("close combat round 1, Infantry Detachment", 8, 7),
        ("close combat round 2, Infantry Detachment", 1, 7),
        ("close combat round 2, Infantry Detachment", 1, 7),
        ("close combat round 2, Infantry Detachment", 9, 7),
        ("close combat round 2, Infantry Detachment", 7, 7),
    ]
    assert luck(events) == {
        Category.TO_HIT: (8, 5, round(0.6 + 0.6 + 6 * 0.4, 6)),
        Category.MORALE: (1, 1, round(4 / 6, 6)),
    }


def test_the_shot_at_the_marker_fails_only_on_a_1_hr5():
    state = shelled("Truck/Kubelwagen", 1.5)
    state, events = act(state, "allies", "mortar", Bombard(), faces=[d10(1), d6(3)])
    assert scores(events) == [
        ("indirect fire, Mortar Team", 1, 2, None),
        ("deviation, Mortar Team", 3, None, None),
    ]
    assert luck(events) == {Category.TO_HIT: (1, 0, 0.9)}


def test_request_fire_needs_5_less_the_spotters_markers_hr5():
    state = started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (20, 10), unit_id="hq", command=True),
            make_unit("british", "Mortar Team", "allies", (20, 2), unit_id="mortar", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (20, 40), unit_id="gruppe"),
        ),
        "allies",
    )
    state.units["hq"].morale_markers = 1
    _, events = act(state, "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    assert "needs 5+-1; rolled 5: no marker" in events[-1].text
    assert scores(events) == [("request fire, Infantry Detachment", 5, 6, None)]
