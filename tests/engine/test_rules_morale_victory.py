"""Morale and victory rules (Iron Cross 2015, pp. 13, 27)."""

import pytest

from engine.rules.morale import (
    MoraleTestResult,
    company_morale_test,
    fall_back_removes_marker,
    is_destroyed_by_markers,
)
from engine.rules.victory import break_point_test, force_break_point, turn_outcome
from engine.scenarios.new_game import make_unit


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        (1, MoraleTestResult.FAILED),
        (2, MoraleTestResult.FAILED),
        (3, MoraleTestResult.REMOVE_ONE),
        (5, MoraleTestResult.REMOVE_ONE),
        (6, MoraleTestResult.REMOVE_ALL),
    ],
)
def test_company_morale_test_p13(roll, result):
    assert company_morale_test(roll) is result


def test_unit_destroyed_when_markers_exceed_morale_p13():
    sherman = make_unit("us", "Sherman 75mm", "allies", (0, 0), morale_markers=5)
    assert not is_destroyed_by_markers(sherman)
    sherman.morale_markers = 6
    assert is_destroyed_by_markers(sherman)


def test_transport_without_morale_never_destroyed_by_markers():
    truck = make_unit("us", "Truck/Jeep", "allies", (0, 0), morale_markers=9)
    assert not is_destroyed_by_markers(truck)


def test_fall_back_rally_on_4_plus_p13():
    assert [fall_back_removes_marker(r) for r in range(1, 7)] == [False] * 3 + [True] * 3


def test_break_point_test_p27():
    test = break_point_test(10, 3, commander_lost=False, break_point=13)
    assert (test.total, test.broken) == (13, False)
    test = break_point_test(10, 3, commander_lost=True, break_point=13)
    assert (test.total, test.broken) == (15, True)
    assert "+ 2 commander lost" in test.describe()


def test_force_break_point_two_thirds_rounded_down_p28():
    assert force_break_point(40) == 26


def test_both_break_is_a_draw_p27():
    assert turn_outcome(True, True) == "draw"
    assert turn_outcome(True, False) == "second"
    assert turn_outcome(False, True) == "first"
    assert turn_outcome(False, False) is None
