"""The dice expressions a message holds ("we roll 2d10 5+ for the MG, then 2d6+1"), for rolling
a message from its menu: each a run of the forms :mod:`engine.rolls.expressions` reads (NdS with
its operators, terms joined by + - * /, a success target as ``5+`` or ``>5``; ASL's ``DR`` with
its DRMs and ``dr``), kept only if that module rolls it as it stands. Labels are left out: the
words around the dice are the message's, not the roll's. Dice quoted as code are preferred."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.rolls.expressions import MAX_LENGTH, MAX_ROLLS, roll_one

_DIE = r"\d{0,3}d(?:\d{1,4}|%)(?:[a-z]{1,2}[<>]?\d+)*"  # 2d6, d%, 4d6kh3, 1d6e6
_TERMS = rf"{_DIE}(?:\s*[-+*/]\s*(?:{_DIE}|\d+))*"  # 2d6+1, 3d6 * 2
_TARGET = r"(?:\s+\d+\+|\s*[<>]=?\s*\d+)"  # 2d10 5+, 2d10>5
_QUOTED = re.compile(r"`([^`]+)`")  # Markdown's code spans
_FOUND = re.compile(rf"(?<![\w.])(?:{_TERMS}{_TARGET}?|DR(?:\s*[+-]\s*\d+)*|dr)(?![\w+])")


@dataclass(frozen=True)
class DiceInText:
    """The expressions to roll together (within one roll command's limits), and how many more
    the text holds beyond them."""

    expressions: tuple[str, ...]
    left_out: int

    @property
    def command(self) -> str:
        """The roll command rolling them all, one roll each."""
        return "; ".join(self.expressions)


def dice_in(text: str) -> DiceInText:
    """The dice expressions of ``text`` in order, as many as one roll command takes; those
    beyond are counted, not tried (so a long message costs no more than a full roll). Where the
    text quotes dice as code (`` `2d6+1` ``, as a roll the bot posted shows what was asked),
    those alone are meant, not the dice its results name again."""
    quoted = [match.group() for span in _QUOTED.findall(text) for match in _FOUND.finditer(span)]
    found = quoted or [match.group() for match in _FOUND.finditer(text)]
    taken: list[str] = []
    for n, expression in enumerate(found):
        if len(taken) == MAX_ROLLS or len("; ".join([*taken, expression])) > MAX_LENGTH:
            return DiceInText(tuple(taken), len(found) - n)
        if _rolls(expression):
            taken.append(expression)
    return DiceInText(tuple(taken), 0)


def _rolls(expression: str) -> bool:
    """Whether the roll grammar takes the expression as it stands (tried on throwaway dice)."""
    try:
        roll_one(expression, SeededDice(0))
    except IllegalCommand:
        return False
    return True
