"""Scenario special rules and scenario numbers (Iron Cross 2015, pp. 26-31), with scripted dice."""

from fractions import Fraction

import pytest

from engine.profiles import find_profile
from engine.rules.scenario import (
    aggressive_command_tokens,
    another_turn,
    attacker_points,
    breakthrough_spacing,
    breakthrough_succeeds,
    capture_attacker_wins,
    capture_defender_extra_tokens,
    defender_near_objectives,
    escalating_reserves_by_turn_2,
    hidden_markers,
    infantry_share_problem,
    objective_claimer,
    objectives_needed,
    preliminary_bombardment_markers,
    reserves_available,
    units_on_table_at_start,
)


@pytest.mark.parametrize("roll", range(1, 7))
def test_aggressive_command_brings_a_d6_of_tokens_p26(roll):
    assert aggressive_command_tokens(roll) == roll


def test_capture_defender_gains_a_token_for_each_5_or_6_p30():
    assert capture_defender_extra_tokens([1, 2, 3, 4]) == 0
    assert capture_defender_extra_tokens([5, 6, 4, 6]) == 3


@pytest.mark.parametrize(
    ("roll", "casualty", "needed", "markers"),
    [
        (8, 6, 4, 0),  # the barrage misses below 9
        (9, 3, 4, 1),  # infantry in the open hit, casualty roll fails
        (10, 4, 4, 2),  # ... and converts on 4+
        (9, 4, 5, 1),  # in cover it needs 5+
        (10, None, None, 1),  # a vehicle takes the marker and nothing more
    ],
)
def test_preliminary_bombardment_p26(roll, casualty, needed, markers):
    assert preliminary_bombardment_markers(roll, casualty, needed) == markers


def test_reserves_arrive_on_3_plus_but_never_more_than_called_p26():
    assert reserves_available([1, 2, 3, 6], waiting=4) == 2
    assert reserves_available([3, 4, 5], waiting=2) == 2
    assert reserves_available([1, 2], waiting=2) == 0


@pytest.mark.parametrize(("roll", "more"), [(3, False), (4, True), (6, True)])
def test_random_operation_length_adds_a_turn_on_4_plus_p26(roll, more):
    assert another_turn(roll) is more


@pytest.mark.parametrize(("points", "needed"), [(500, 4), (1000, 4), (1499, 4), (1500, 5), (2100, 6)])
def test_meeting_engagement_objectives_four_plus_one_per_500_over_1000_p28(points, needed):
    assert objectives_needed(points) == needed


@pytest.mark.parametrize(
    ("units", "share", "on_table"),
    [(8, Fraction(3, 4), 6), (10, Fraction(3, 4), 7), (10, Fraction(1, 3), 3), (9, Fraction(2, 3), 6)],
)
def test_units_on_the_table_at_the_start_round_down_pp28_30(units, share, on_table):
    assert units_on_table_at_start(units, share) == on_table


def test_escalating_half_the_reserves_from_turn_2_p29():
    assert escalating_reserves_by_turn_2(5) == 2 and escalating_reserves_by_turn_2(6) == 3


def test_capture_attacker_has_double_points_p30():
    assert attacker_points(500) == 1000


def test_breakthrough_defender_spends_half_on_infantry_p31():
    infantry = find_profile("german", "Infantry Detachment")  # 25 points
    panther = find_profile("german", "Panther")  # 100 points
    assert infantry_share_problem([infantry] * 4 + [panther], 200) is None
    assert infantry_share_problem([infantry] * 3 + [panther], 200) == (
        "the defender must spend at least half of 200 points on infantry and support squads; 75 is 25 short"
    )


def test_capture_attacker_wins_after_a_full_turn_with_no_defender_near_an_objective_p30():
    assert capture_attacker_wins(defenders_near_objective_now=False, defenders_near_last_turn=False)
    assert not capture_attacker_wins(defenders_near_objective_now=False, defenders_near_last_turn=True)
    assert not capture_attacker_wins(defenders_near_objective_now=True, defenders_near_last_turn=False)


@pytest.mark.parametrize(("in_zone", "total", "wins"), [(9, 30, False), (10, 30, True), (11, 31, True)])
def test_breakthrough_needs_a_third_of_the_attackers_bp_in_the_far_third_p31(in_zone, total, wins):
    assert breakthrough_succeeds(in_zone, total) is wins


def test_breakthrough_defenders_stand_24_apart_or_18_on_a_small_table_p31():
    assert (breakthrough_spacing(False), breakthrough_spacing(True)) == (24.0, 18.0)


@pytest.mark.parametrize(("units", "markers"), [(1, 2), (4, 6), (5, 8), (7, 11)])
def test_hidden_deployment_one_and_a_half_markers_per_unit_rounded_up_p26(units, markers):
    assert hidden_markers(units) == markers


def test_capture_a_defender_within_12_of_an_objective_holds_it_p30():
    assert defender_near_objectives([30.0, 12.0]) and not defender_near_objectives([12.5, 40.0])
    assert not defender_near_objectives([])


def test_objective_claimer_is_the_only_side_within_2_inches_p26():
    assert objective_claimer({"allies": 1.5, "axis": 6.0}) == "allies"
    assert objective_claimer({"allies": 1.5, "axis": 2.0}) is None
    assert objective_claimer({"allies": 2.5}) is None
