"""Dice sources: seeded dice for play, scripted dice for tests and replay.

Every die the engine rolls goes through a :class:`DiceSource` together with its purpose
("reaction test, Panther 1"); the engine records each roll as a :class:`DieRoll` in the
events it returns, so a game replays exactly by feeding the recorded rolls back in.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict


class DieRoll(BaseModel):
    """One die as rolled: its size, the face that came up and why it was rolled."""

    model_config = ConfigDict(frozen=True)

    sides: int
    value: int
    purpose: str
    needs: int | None = None  # the score that succeeds, for a die thrown against one (to hit)
    at_most: int | None = None  # the highest face that succeeds, for a die that must roll low

    def __str__(self) -> str:
        return f"d{self.sides}={self.value}"


class DiceSource(Protocol):
    def roll(self, sides: int, purpose: str) -> int:
        """Roll one die with ``sides`` faces and return the face (1..sides)."""
        ...


@runtime_checkable
class KeepsScores(Protocol):
    """A dice source that records each die with the score it had to reach (the EventLog)."""

    def roll_needing(self, sides: int, purpose: str, needs: int) -> int: ...


def roll_needing(dice: DiceSource, sides: int, purpose: str, needs: int) -> int:
    """Roll a die that succeeds on ``needs`` or more; a source that keeps scores records it
    with the die (``/stats`` counts hits expected from it)."""
    if isinstance(dice, KeepsScores):
        return dice.roll_needing(sides, purpose, needs)
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
                f"asked for a d{sides} ({purpose}) but the next scripted die is "
                f"a d{scripted_sides}={value}"
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
        self, sides: int, purpose: str, needs: int | None = None, at_most: int | None = None
    ) -> DieRoll:
        value = self.source.roll(sides, purpose)
        if not 1 <= value <= sides:
            raise ValueError(f"dice source returned {value} for a d{sides}")
        die = DieRoll(sides=sides, value=value, purpose=purpose, needs=needs, at_most=at_most)
        self.rolls.append(die)
        return die

    def take(self) -> list[DieRoll]:
        """Hand over the rolls made since the last call and start a new list."""
        rolls, self.rolls = self.rolls, []
        return rolls
