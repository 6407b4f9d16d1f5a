"""The players' choices in close combat under the House Rules V1.0, s. 6 (a defending soft or
open-topped vehicle falling back after the first round; an overrunning AFV driving through or
falling back), the hull MG's die in close combat, and the house-rules tag on Company Morale
Test and break-test results (s. 7, s. 1), with scripted dice and exact outcomes."""

import pytest

from engine.commands import Declare, MoraleTestOrder, UnitOrder
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.scenarios.new_game import make_unit
from engine.state import Phase
from engine.variants.house_v1.commands import ChooseFallBack, CloseCombat
from engine.variants.house_v1.units import find_house_profile
from tests.engine.helpers import P, declare, game, play, started, texts
from tests.engine.test_house_rules_combat import carrier
from tests.engine.test_house_rules_flow import charge, house, melee

# --- a vehicle attacked by infantry may fall back after the first round (s. 6) ---------------------

FIRST_ROUND = (
    d6(3),  # initiation
    d10(2),  # the carried squad misses
    *(d10(6), d10(1), d6(5)),  # the section hits the halftrack (in cover, 5+): 2 markers on its squad
)


def test_a_halftrack_that_comes_through_the_first_round_waits_for_its_sides_choice_s6():
    state, events = charge(carrier(facing=90), "tommies", "sdkfz", *FIRST_ROUND)
    assert state.phase is Phase.CHOICE and state.pending.choice.kind == "close_combat_fall_back"
    assert state.pending.choice.side == "axis" and state.pending.choice.options == ["fall_back", "fight_on"]
    assert texts(events)[-1] == (
        "251 Halftrack came through the first round: fall back or fight on (/choose fall_back|fight_on) "
        "(House Rules HR6.4)"
    )
    with pytest.raises(IllegalCommand, match="The Axis make this choice"):
        play(state, ChooseFallBack(side="allies", fall_back=True))


def test_a_halftrack_falls_back_its_normal_move_with_its_squad_and_the_fight_ends_s6():
    state, _ = charge(carrier(facing=90), "tommies", "sdkfz", *FIRST_ROUND)
    contact = state.units["tommies"].position
    state, events = play(state, ChooseFallBack(side="axis", fall_back=True))  # no second round: no dice
    # a fast vehicle's normal move is 12": straight away from the section, from (30, 14)
    assert texts(events) == ["251 Halftrack falls back out of the fight to 30.0,26.0 (House Rules HR6.4)"]
    assert state.units["sdkfz"].position == P(30, 26) and state.units["gruppe"].position == P(30, 26)
    assert state.units["tommies"].position == contact  # the attackers do not fall back
    assert state.phase is Phase.ACTIVE and state.pending is None
    with pytest.raises(IllegalCommand, match="Nothing of that kind is waiting to be chosen"):
        play(state, ChooseFallBack(side="axis", fall_back=False))


def test_an_enclosed_afv_fights_its_one_round_with_no_choice_s6():
    state = melee()
    panzer = state.units["panzer"]
    panzer.position, panzer.facing = P(33, 10), 180.0  # facing the section: turret and hull MG bear
    faces = [
        d6(3),  # initiation
        *(d10(5), d10(1), d6(3)),  # turret and hull MG, a d10 each: 1 hit; MG in the open 3+: 2 markers
        *(d10(9), d10(1)),  # the section (-2): one hit, a marker whatever the armour
        d10(1),  # penetration 1 + AP 3 against side armour 10: bounces
    ]
    state, events = charge(state, "tommies", "panzer", *faces)
    assert texts(events)[3] == (
        "Round 1: Panzer IV G (late) to J fires at Infantry Detachment: needs 5+; rolled 5, 1: 1 hit; "
        "casualty 3+ rolled 3: 2 markers (House Rules HR6.5)"
    )
    assert state.phase is Phase.ACTIVE
    assert (state.units["tommies"].morale_markers, state.units["panzer"].morale_markers) == (2, 1)


# --- an overrunning AFV drives through, or falls back, as its order says (s. 6) ---------------------


def overrun_mg_team(tank="Sherman 75mm", nation="british"):
    return started(
        house(
            make_unit(nation, tank, "allies", (45, 14), unit_id="tank", facing=90),
            make_unit("german", "MG Team", "axis", (45, 20), unit_id="mg", facing=270),
        ),
        "allies",
    )


def test_an_afv_that_declared_it_falls_back_leaves_the_troops_it_charged_s6():
    order = UnitOrder(unit="tank", actions=(CloseCombat(target="mg", overrun=False),))
    faces = [d6(3), d6(2), d10(4), d10(2)]  # in; the MG team does not stand; hull and turret MGs miss
    state, events = play(overrun_mg_team(), Declare(side="allies", order=order), *faces)
    # the 3" dash puts it in contact at (45, 17); then a medium vehicle's normal move, 10",
    # straight away from the team
    assert texts(events)[-1] == "Sherman 75mm falls back from MG Team to 45.0,7.0 (House Rules HR6.6)"
    assert state.units["tank"].position == P(45, 7)
    assert not state.units["mg"].destroyed and state.units["mg"].morale_markers == 0


def test_only_an_overrunning_afv_declares_a_fall_back_s6():
    with pytest.raises(IllegalCommand, match="Only an AFV overrunning chooses to fall back"):
        declare(melee(), "allies", "tommies", CloseCombat(target="gruppe", overrun=False))


def test_an_afv_without_turret_or_hull_mg_fires_nothing_as_it_overruns_s6():
    state = overrun_mg_team("StuG IV, StuG III F-H", "german")  # a captured one, say
    assert state.units["tank"].profile.name == "StuG IIIG"  # the quick reference's: no hull MG
    state, events = charge(state, "tank", "mg", d6(3), d6(2))
    assert texts(events)[-2:] == [
        "StuG IV, StuG III F-H has no MG to fire (House Rules HR6.6)",
        "StuG IV, StuG III F-H drives over MG Team: crushed (House Rules HR6.6)",
    ]


def test_the_quick_reference_afvs_with_a_hull_mg_s5():
    assert find_house_profile("british", "Sherman 75mm").house.hull_mg
    assert not find_house_profile("british", "Sherman Firefly").house.hull_mg
    assert not find_house_profile("german", "StuG IIIG").house.hull_mg


# --- results of the shared rules name the house rules in a house game (issue 6) --------------------


def test_company_morale_test_and_break_test_results_carry_the_house_rules_tag_s7():
    units = (
        make_unit("british", "Infantry Detachment", "allies", (10, 10), unit_id="tommies"),
        make_unit("german", "Infantry Detachment", "axis", (60, 45), unit_id="gruppe"),
    )
    state = started(house(*units), "allies")
    state.sides["allies"].tokens, state.sides["axis"].tokens = 1, 0  # the turn ends after the test
    state.units["tommies"].morale_markers = 2
    # the test 4: one marker off; then the break tests, allies 3 and axis 2 against break point 2
    state, events = play(state, Declare(side="allies", order=MoraleTestOrder()), d6(4), d6(3), d6(2))
    assert texts(events)[2:6] == [
        "The Allies' Company Morale Test: rolled 4: remove one marker (House Rules HR7.1)",
        "Infantry Detachment loses 1 morale marker (1 left) (House Rules HR7.1)",
        "End of turn 1, the Allies: lost 0 + d6 3 = 3 vs break point 2: breaks (House Rules HR1.1)",
        "End of turn 1, the Axis: lost 0 + d6 2 = 2 vs break point 2: holds (House Rules HR1.1)",
    ]
    core = started(game(*units, sides={"allies": "british", "axis": "german"}), "allies")
    core.sides["allies"].tokens, core.sides["axis"].tokens = 1, 0
    core.units["tommies"].morale_markers = 2
    core, events = play(core, Declare(side="allies", order=MoraleTestOrder()), d6(4), d6(3), d6(2))
    assert not any("House Rules" in line for line in texts(events))
