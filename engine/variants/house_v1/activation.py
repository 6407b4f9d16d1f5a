"""Command tokens, reactivation, reaction and the close-combat initiation test under the
House Rules V1.0 (s. 3 Activating, s. 6 Close Combat, s. 7 Company Morale Test).

The numbers the tests need are read as in the 2015 rules: "needs 4+" means a d6 of 4 or more,
each token already on the unit and each morale marker adds one, and a "-1 on the throw" is
one more needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from engine.rules.activation import TestScore
from engine.variants.house_v1.traits import Experience, HouseTraits, Motivation
from engine.wording import counted

QUALITY_TOKEN_ON = 6  # s. 3
COMMAND_TOKENS = 2  # s. 3
COMMAND_RETHROW_RANGE = 6.0  # s. 3: from a company or platoon command
VETERAN_CMT_REMOVES_TWO_ON = 5  # s. 7


class Purpose(StrEnum):
    """What a reaction or reactivation is for: the table's three rows (s. 3)."""

    ACTION = "move, fire and the rest"
    FALL_BACK = "fall back"
    MORALE_TEST = "morale test"


def quality_token_dice(is_company_command: bool) -> int:
    """s. 3: a veteran or inexperienced unit throws a d6 for each token it brings, the company
    command's two extra included."""
    return 1 + (COMMAND_TOKENS if is_company_command else 0)


def quality_token_change(experience: Experience, rolls: Sequence[int]) -> int:
    """s. 3: each 6 gains a veteran unit a token and loses an inexperienced one a token."""
    sixes = sum(1 for roll in rolls if roll >= QUALITY_TOKEN_ON)
    if experience is Experience.VETERAN:
        return sixes
    if experience is Experience.INEXPERIENCED:
        return -sixes
    return 0


def reactivation_score_needed(
    traits: HouseTraits, tokens: int, markers: int, purpose: Purpose = Purpose.ACTION
) -> TestScore:
    """s. 3, the reactivation throw: 1 plus the tokens already on the unit plus its morale
    markers. Heavy units need one more except for morale tests, weak-morale units one more
    except to fall back. Elite units ignore their markers (s. 2), also when they fall back of
    their own accord (s. 7). A 6 always succeeds."""
    needed = 1 + tokens
    reasons = [counted(tokens, "token")]
    elite = traits.motivation is Motivation.ELITE
    if markers and not elite:
        needed += markers
        reasons.append(counted(markers, "morale marker"))
    elif markers:
        reasons.append("elite: markers ignored")
    if traits.heavy and purpose is not Purpose.MORALE_TEST:
        needed += 1
        reasons.append("heavy -1")
    if traits.motivation is Motivation.WEAK and purpose is not Purpose.FALL_BACK:
        needed += 1
        reasons.append("weak morale -1")
    return TestScore(needed, tuple(reasons))


def reaction_markers_count(traits: HouseTraits, purpose: Purpose) -> bool:
    """s. 3 reaction table, "+MMs?" column (and s. 7 for elite units falling back): to move or
    fire, markers count unless the unit is elite; to fall back, unless it is light; for a
    morale test, unless it is elite."""
    if purpose is Purpose.FALL_BACK:
        return not traits.light
    return traits.motivation is not Motivation.ELITE


def reaction_base_score(traits: HouseTraits, purpose: Purpose) -> int:
    """s. 3 reaction table, "Base" column: 3, or 2 for light units (moving, firing, falling
    back) and for elite units taking a morale test."""
    if purpose is Purpose.MORALE_TEST:
        return 2 if traits.motivation is Motivation.ELITE else 3
    return 2 if traits.light else 3


def reaction_score_needed(traits: HouseTraits, tokens: int, markers: int, purpose: Purpose) -> TestScore:
    """s. 3, the reaction throw: the table's base plus the tokens already on the unit, plus its
    morale markers where the table says they count. A 6 always succeeds."""
    needed = reaction_base_score(traits, purpose) + tokens
    reasons = [f"base {reaction_base_score(traits, purpose)}+"]
    if tokens:
        reasons.append(f"+{counted(tokens, 'token')}")
    if markers and reaction_markers_count(traits, purpose):
        needed += markers
        reasons.append(f"+{counted(markers, 'morale marker')}")
    elif markers:
        reasons.append("markers ignored")
    return TestScore(needed, tuple(reasons))


def close_combat_initiation_passes(traits: HouseTraits, tokens: int, markers: int, roll: int) -> bool:
    """s. 6, the initiation test: scored as a reaction for a morale test (elite units ignore
    their markers), weak-morale units take one off the throw, and a 6 is not an automatic pass."""
    needed = reaction_score_needed(traits, tokens, markers, Purpose.MORALE_TEST).needed
    if traits.motivation is Motivation.WEAK:
        roll -= 1
    return roll >= needed


def company_morale_markers_removed(roll: int, veteran: bool) -> int | None:
    """s. 7 on top of the 2015 Company Morale Test (p. 13): 1-2 fails (0), 3-5 removes one
    marker, 6 all of one unit's (None); a veteran unit has two removed on a 5."""
    if roll <= 2:
        return 0
    if roll == 6:
        return None
    return 2 if veteran and roll == VETERAN_CMT_REMOVES_TWO_ON else 1
