"""Dice sources: seeded dice for play, scripted dice for tests and replay.

Every die the engine rolls goes through a :class:`DiceSource` together with its purpose
("reaction test, Panther 1"); the engine records each roll as a :class:`DieRoll` in the
events it returns, so a game replays exactly by feeding the recorded rolls back in.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, model_validator


class DieCategory(StrEnum):
    """What a die was rolled for, as ``/stats`` groups them."""

    TO_HIT = "to-hit"
    REACTION = "reaction"
    REACTIVATION = "reactivation"
    MORALE = "morale"
    PENETRATION = "penetration/damage"
    CASUALTY = "casualty"
    OTHER = "chart/other"


# How the purposes of dice stored before dice had a category began; a die without a category
# (stored before, or rolled by hand with ``/roll``) takes the first that fits, else chart/other.
_PURPOSE_STARTS: tuple[tuple[str, DieCategory], ...] = (
    ("to hit", DieCategory.TO_HIT),
    ("close combat round", DieCategory.TO_HIT),
    ("he at ", DieCategory.TO_HIT),
    ("smoke round", DieCategory.TO_HIT),
    ("request fire", DieCategory.TO_HIT),
    ("indirect fire", DieCategory.TO_HIT),
    ("reaction test", DieCategory.REACTION),
    ("reactivation test", DieCategory.REACTIVATION),
    ("company morale test", DieCategory.MORALE),
    ("break point test", DieCategory.MORALE),
    ("fall back rally", DieCategory.MORALE),
    ("close combat initiation", DieCategory.MORALE),
    ("penetration", DieCategory.PENETRATION),
    ("flame penetration", DieCategory.PENETRATION),
    ("damage", DieCategory.PENETRATION),
    ("close combat penetration", DieCategory.PENETRATION),
    ("close combat damage", DieCategory.PENETRATION),
    ("casualty", DieCategory.CASUALTY),
    ("close combat casualty", DieCategory.CASUALTY),
    ("bombardment casualty", DieCategory.CASUALTY),
    ("collateral", DieCategory.CASUALTY),
    ("indirect effect", DieCategory.CASUALTY),
)


def category_of_purpose(purpose: str) -> DieCategory:
    """The category of a die that was stored without one, from its purpose's first words."""
    lowered = purpose.casefold()
    return next(
        (category for start, category in _PURPOSE_STARTS if lowered.startswith(start)), DieCategory.OTHER
    )


class DieRoll(BaseModel):
    """One die as rolled: its size, the face that came up, why it was rolled and its category."""

    model_config = ConfigDict(frozen=True)

    sides: int
    value: int
    purpose: str
    needs: int | None = None  # the score that succeeds, for a die thrown against one (to hit)
    at_most: int | None = None  # the highest face that succeeds, for a die that must roll low
    category: DieCategory = DieCategory.OTHER

    @model_validator(mode="before")
    @classmethod
    def _lift_category(cls, data: Any) -> Any:
        """A die stored before dice had a category (or rolled by hand) takes it from its purpose."""
        if isinstance(data, dict) and "category" not in data and isinstance(data.get("purpose"), str):
            return {**data, "category": category_of_purpose(data["purpose"])}
        return data

    def __str__(self) -> str:
        return f"d{self.sides}={self.value}"


class DiceSource(Protocol):
    def roll(self, sides: int, purpose: str) -> int:
        """Roll one die with ``sides`` faces and return the face (1..sides)."""
        ...


def roll_needing(
    dice: DiceSource, sides: int, purpose: str, needs: int, category: DieCategory = DieCategory.TO_HIT
) -> int:
    """Roll a die that succeeds on ``needs`` or more; a source that keeps scores records it
    with the die and its category (``/stats`` counts hits expected from it)."""
    keeping = getattr(dice, "roll_needing", None)  # an attribute test, not a protocol's: this is hot
    if keeping is not None:
        return keeping(sides, purpose, needs, category)
    return dice.roll(sides, purpose)


def roll_as(dice: DiceSource, sides: int, purpose: str, category: DieCategory) -> int:
    """Roll a die of this category; a source that keeps scores records the category with it."""
    keeping = getattr(dice, "roll_as", None)
    if keeping is not None:
        return keeping(sides, purpose, category)
    return dice.roll(sides, purpose)


def passing_score(sides: int, passes: Callable[[int], bool]) -> tuple[int | None, int | None]:
    """The score a die thrown against a test must reach, read from the test itself: ``(needs,
    None)`` when the high faces pass (``sides + 1`` when none does), ``(None, at_most)`` when
    only the low ones do. A test passed by faces that are neither is refused."""
    passing = [face for face in range(1, sides + 1) if passes(face)]
    if not passing:
        return sides + 1, None
    if passing == list(range(passing[0], sides + 1)):
        return passing[0], None
    if passing == list(range(1, passing[-1] + 1)):
        return None, passing[-1]
    raise ValueError(f"a d{sides} test passed on {passing} has no score to reach")


class SeededDice:
    """Pseudo-random dice from a seed: the same seed gives the same game."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def roll(self, sides: int, purpose: str) -> int:
        return self._random.randint(1, sides)


class DiceScriptError(AssertionError):
    """The scripted dice ran out or were asked for a die other than the one scripted."""


class ScriptedDice:
    """A fixed queue of dice, each given as ``(sides, value)``.

    Asking for a die when the queue is empty, or for a different die size than the next one
    scripted, raises :class:`DiceScriptError` naming the roll that was asked for.
    """

    def __init__(self, faces: Iterable[tuple[int, int] | DieRoll]) -> None:
        self._queue: deque[tuple[int, int]] = deque()
        for face in faces:
            sides, value = (face.sides, face.value) if isinstance(face, DieRoll) else face
            if not 1 <= value <= sides:
                raise DiceScriptError(f"d{sides} cannot show {value}")
            self._queue.append((sides, value))

    def roll(self, sides: int, purpose: str) -> int:
        if not self._queue:
            raise DiceScriptError(f"scripted dice exhausted: asked for a d{sides} ({purpose})")
        scripted_sides, value = self._queue[0]
        if scripted_sides != sides:
            raise DiceScriptError(
                f"asked for a d{sides} ({purpose}) but the next scripted die is a d{scripted_sides}={value}"
            )
        self._queue.popleft()
        return value

    @property
    def remaining(self) -> int:
        return len(self._queue)


def d6(value: int) -> tuple[int, int]:
    """A scripted d6 face, for readable test scripts."""
    return (6, value)


def d10(value: int) -> tuple[int, int]:
    """A scripted d10 face, for readable test scripts."""
    return (10, value)


class RecordingDice:
    """Wraps a dice source and keeps every :class:`DieRoll` it hands out, in order."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.rolls: list[DieRoll] = []

    def roll(
        self,
        sides: int,
        purpose: str,
        needs: int | None = None,
        at_most: int | None = None,
        category: DieCategory = DieCategory.OTHER,
    ) -> DieRoll:
        value = self.source.roll(sides, purpose)
        if not 1 <= value <= sides:
            raise ValueError(f"dice source returned {value} for a d{sides}")
        die = DieRoll(
            sides=sides, value=value, purpose=purpose, needs=needs, at_most=at_most, category=category
        )
        self.rolls.append(die)
        return die

    def take(self) -> list[DieRoll]:
        """Hand over the rolls made since the last call and start a new list."""
        rolls, self.rolls = self.rolls, []
        return rolls
