"""The dice behind a logged roll, read back from the text that was shown.

The roll log keeps what a ``/roll`` or ``/chart`` showed, not its dice. Every die shows in that
text, so the dice are found by rolling the same thing again with faces taken from the numbers in
the text, trying each way they could have come up, and keeping the one way that shows exactly the
same text. If no way or more than one way does, or the search grows too long, the roll is left
unread rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.dice import DiceSource, DieRoll
from engine.errors import IllegalCommand

MAX_REPLAYS = 300  # rolls of many dice with many different faces are left unread


class _NeedsAnotherDie(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _GivenFaces:
    """Shows the given faces in order and keeps them; asked for one more, says which die size it
    wants."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.rolled: list[DieRoll] = []

    def roll(self, sides: int, purpose: str) -> int:
        if len(self.rolled) == len(self.faces):
            raise _NeedsAnotherDie(sides)
        self.rolled.append(DieRoll(sides=sides, value=self.faces[len(self.rolled)], purpose=purpose))
        return self.rolled[-1].value


def dice_behind(shown: str, replay: Callable[[DiceSource], str]) -> tuple[DieRoll, ...] | None:
    """The dice that made ``replay`` show ``shown``, or None if they cannot be told for sure.

    ``replay`` rolls the same thing again with the dice it is given and returns its text. The
    text shows the dice in the order they were rolled, among other numbers, so the faces tried
    are the numbers of the text, each after the one before.
    """
    numbers = [int(n) for n in re.findall(r"\d+", shown)]
    found: list[tuple[DieRoll, ...]] = []
    tries: list[tuple[list[int], int]] = [([], 0)]  # faces so far, and where the next may be read
    replays = 0
    while tries:
        replays += 1
        if replays > MAX_REPLAYS:
            return None
        faces, start = tries.pop()
        source = _GivenFaces(faces)
        try:
            text = replay(source)
        except _NeedsAnotherDie as more:
            tries += reversed(_next_faces(numbers, start, more.sides, faces))
            continue
        except (IllegalCommand, AssertionError, ValueError):
            continue  # these faces cannot have been rolled
        if text == shown and len(source.rolled) == len(faces):
            found.append(tuple(source.rolled))
            if len(found) > 1:
                return None
    return found[0] if found else None


def _next_faces(numbers: list[int], start: int, sides: int, faces: list[int]) -> list[tuple[list[int], int]]:
    """Each face the next die may have shown: the first place after ``start`` where each number
    a die of ``sides`` can show is written."""
    first: dict[int, int] = {}
    for at in range(start, len(numbers)):
        if 1 <= numbers[at] <= sides:
            first.setdefault(numbers[at], at)
    return [([*faces, face], at + 1) for face, at in sorted(first.items(), key=lambda item: item[1])]
