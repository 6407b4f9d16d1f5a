"""The four scenarios as the briefings set them (Iron Cross 2015, pp. 28-31)."""

from fractions import Fraction

import pytest

from engine.errors import IllegalCommand
from engine.scenarios.book import find_scenario, load_scenarios
from engine.state import Point, TableSize

F = Fraction


def test_the_four_scenarios_of_the_book():
    assert {s.id: (s.title, s.page) for s in load_scenarios().values()} == {
        "meeting": ("Meeting Engagement", 28),
        "escalating": ("Escalating Engagement", 29),
        "capture": ("Capture", 30),
        "breakthrough": ("Breakthrough", 31),
    }


def test_meeting_engagement_p28():
    s = find_scenario("Meeting Engagement")
    assert (s.points, s.on_table_at_start, s.reserves_from_turn, s.turns) == (
        "equal",
        {"first": F(3, 4), "second": F(3, 4)},
        3,
        7,
    )
    assert s.special_rules == ("objectives", "random_operation_length", "reserves")
    assert (s.initiative, s.counts_as_moved, s.random_operation_length) == ("roll", "all", True)
    assert s.break_fraction == {"first": F(2, 3), "second": F(2, 3)}


def test_escalating_engagement_p29():
    s = find_scenario("escalating")
    assert s.on_table_at_start == {"first": F(1, 3), "second": F(1, 3)}
    assert s.command_unit_in_reserve and s.deploy_within_one_move
    assert (s.reserves_from_turn, s.reserves_half_first, s.turns) == (2, True, None)


def test_capture_p30():
    s = find_scenario("capture")
    assert s.has_attacker and s.points == "attacker_double"
    assert s.on_table_at_start == {"attacker": F(2, 3), "defender": F(1)}
    assert s.break_fraction == {"attacker": F(1, 2), "defender": F(2, 3)}
    assert (
        s.defender_extra_tokens and s.initiative == "attacker" and s.defender_distance_from_start_line == 12
    )
    assert {"dug_in_and_waiting", "hidden_deployment"} <= set(s.special_rules)


def test_breakthrough_p31():
    s = find_scenario("breakthrough")
    assert s.defender_infantry_half and s.reserves_from_turn is None and s.counts_as_moved == "attacker"
    assert s.defender_distance_from_start_line == 24 and s.objectives == "far_third"


def test_objectives_are_placed_as_the_briefing_says_p28_p30():
    table = TableSize(width=72, depth=48)
    meeting, capture = find_scenario("meeting"), find_scenario("capture")
    assert meeting.objective_problem(Point(x=36, y=24), table) is None
    assert meeting.objective_problem(Point(x=4, y=24), table) == (
        'an objective must be at least 6" from every table edge'
    )
    assert capture.objective_problem(Point(x=20, y=28), table) is None
    assert capture.objective_problem(Point(x=20, y=34), table) == (
        'an objective must be within 6" of the centreline; this one is 10" off'
    )


def test_an_unknown_scenario_is_refused_with_the_choices():
    with pytest.raises(IllegalCommand, match="choose meeting, escalating, capture, breakthrough"):
        find_scenario("ambush")
