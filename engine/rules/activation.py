"""Activation, reaction, the command re-roll and seizing the initiative (Iron Cross 2015, pp. 4-7, 18)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.profiles import Special
from engine.state import Unit
from engine.wording import counted


@dataclass(frozen=True)
class TestScore:
    """The d6 score a test needs, with each modifier named, for the player to read."""

    needed: int
    reasons: tuple[str, ...] = field(default=())

    def passes(self, roll: int) -> bool:
        """A natural 6 always succeeds, whatever the modifiers (pp. 4, 6)."""
        return roll == 6 or roll >= self.needed

    def describe(self) -> str:
        detail = ", ".join(self.reasons)
        return f"{self.needed}+" + (f" ({detail})" if detail else "")


def reactivation_score_needed(unit: Unit, tokens: int, *, falling_back: bool = False) -> TestScore:
    """Activation test for a unit already activated this turn (p. 4; heavy p. 19; fall back p. 13).

    The d6 must beat the ``tokens`` already on the unit (placed before this activation)
    plus its morale markers; heavy units
    take -1 on the roll, i.e. need one more. A fall back ignores the morale markers.
    """
    markers = 0 if falling_back else unit.morale_markers
    needed = tokens + markers + 1
    reasons = [counted(tokens, "token")]
    if markers:
        reasons.append(counted(markers, "morale marker"))
    elif falling_back and unit.morale_markers:
        reasons.append("morale markers ignored to fall back")
    if unit.profile.is_heavy:
        needed += 1
        reasons.append("heavy -1")
    return TestScore(needed, tuple(reasons))


def reaction_score_needed(
    unit: Unit,
    tokens: int,
    *,
    enemy_is_foot_soldiers: bool,
    enemy_mounted: bool,
    enemy_started_in_cover: bool,
    falling_back: bool = False,
) -> TestScore:
    """Reaction test (pp. 6-7; scout cars p. 19; fall back p. 13).

    3+ on a d6, one more per morale marker and per command token already on the reacting
    unit (``tokens``, not counting the one spent on this reaction).
    A vehicle reacting to infantry or a support squad needs one more unless that enemy is
    mounted in a transport, and one more again if it is on foot and began its action in cover.
    Scout cars and tanks react on 2+ and ignore morale markers (not tokens). A fall back
    reaction ignores morale markers.
    """
    scout = unit.profile.has(Special.SCOUT)
    needed = 2 if scout else 3
    reasons: list[str] = ["scout 2+"] if scout else []
    if tokens:
        needed += tokens
        reasons.append(f"+{counted(tokens, 'token')}")
    if unit.morale_markers and not (scout or falling_back):
        needed += unit.morale_markers
        reasons.append(f"+{counted(unit.morale_markers, 'morale marker')}")
    if unit.is_vehicle and enemy_is_foot_soldiers and not enemy_mounted:
        needed += 1
        reasons.append("+1 vehicle reacting to infantry")
        if enemy_started_in_cover:
            needed += 1
            reasons.append("+1 infantry started in cover")
    return TestScore(needed, tuple(reasons))


def morale_test_reaction_score_needed() -> TestScore:
    """A Company Morale Test taken as a reaction needs the base 3+ (p. 6): no unit is involved."""
    return TestScore(3)


def seizes_initiative(reaction_roll: int) -> bool:
    """A reaction roll of 6 seizes the initiative (p. 7)."""
    return reaction_roll == 6


def command_radius(small_table: bool) -> float:
    """The command unit's re-roll reaches 12", or 6" on a 6' x 4' table (p. 18)."""
    return 6.0 if small_table else 12.0


def initiative_winner(first: int, second: int) -> int | None:
    """Initiative (p. 4): the higher d6 wins (0 or 1); a tie is rolled again (None)."""
    if first == second:
        return None
    return 0 if first > second else 1
