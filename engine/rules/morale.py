"""Morale: destruction, the Company Morale Test and Fall Back (Iron Cross 2015, p. 13)."""

from __future__ import annotations

from enum import StrEnum

from engine.state import Unit

FALL_BACK_REMOVES_MARKER_ON = 4
FALL_BACK_ENEMY_RANGE = 12.0


class MoraleTestResult(StrEnum):
    FAILED = "failed"
    REMOVE_ONE = "remove one marker"
    REMOVE_ALL = "remove all markers from one unit"


def company_morale_test(roll: int) -> MoraleTestResult:
    """Company Morale Test (p. 13): 1-2 fails, 3-5 removes one marker from any unit, 6 all from one."""
    if roll <= 2:
        return MoraleTestResult.FAILED
    if roll == 6:
        return MoraleTestResult.REMOVE_ALL
    return MoraleTestResult.REMOVE_ONE


def is_destroyed_by_markers(unit: Unit) -> bool:
    """A unit with more morale markers than its morale value is destroyed (p. 13).

    Units without a morale value (transports) are never destroyed by markers alone.
    """
    morale = unit.profile.morale
    return morale is not None and unit.morale_markers > morale


def fall_back_removes_marker(roll: int) -> bool:
    """After a fall back move, a d6 of 4+ removes one morale marker (p. 13)."""
    return roll >= FALL_BACK_REMOVES_MARKER_ON
