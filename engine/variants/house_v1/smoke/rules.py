"""Smoke under the House Rules V1.0, s. 5 Smoke: 2" puffs, and how a screen thins each turn."""

from __future__ import annotations

from enum import StrEnum

PUFF_WIDTH = 2.0


class End(StrEnum):
    LEFT = "left"
    RIGHT = "right"


def puff_removed_from(roll: int, previous: End | None) -> End | None:
    """End of turn: one puff goes from one end of each screen (an isolated puff goes). The first
    time, a d6 of 1-3 takes it from the left and 4-5 from the right; the book gives no wind for
    a 6, which we read as throwing again (None). After that, 1-5 keeps to the same end and a 6
    switches."""
    if previous is None:
        if roll == 6:
            return None
        return End.LEFT if roll <= 3 else End.RIGHT
    if roll == 6:
        return End.RIGHT if previous is End.LEFT else End.LEFT
    return previous
