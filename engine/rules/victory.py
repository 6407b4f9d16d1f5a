"""End of turn: the break point test (Iron Cross 2015, p. 27; break points p. 18)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class BreakTest:
    lost: int
    roll: int
    commander_lost: bool
    break_point: int

    @property
    def total(self) -> int:
        return self.lost + self.roll + (2 if self.commander_lost else 0)

    @property
    def broken(self) -> bool:
        return self.total > self.break_point

    def describe(self) -> str:
        parts = f"lost {self.lost} + d6 {self.roll}"
        if self.commander_lost:
            parts += " + 2 commander lost"
        verdict = "breaks" if self.broken else "holds"
        return f"{parts} = {self.total} vs break point {self.break_point}: {verdict}"


def break_point_test(lost: int, roll: int, *, commander_lost: bool, break_point: int) -> BreakTest:
    """Break point test (p. 27): lost BP + d6, +2 if the force commander is lost; above the
    force's break point, it is defeated."""
    return BreakTest(lost, roll, commander_lost, break_point)


def force_break_point(total_bp: int, fraction: Fraction = Fraction(2, 3)) -> int:
    """A force's break point as a fraction of its total BP (2/3 in most scenarios, p. 28),
    rounded down."""
    return int(total_bp * fraction)


def turn_outcome(first_broken: bool, second_broken: bool) -> str | None:
    """Both sides breaking in the same turn is a draw (p. 27)."""
    if first_broken and second_broken:
        return "draw"
    if first_broken:
        return "second"
    if second_broken:
        return "first"
    return None
