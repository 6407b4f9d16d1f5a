"""Dice expressions for ``/roll``, on the d20 library (the dice engine of Avrae) with the forms
wargames need on top:

- anything d20 reads: ``3d6+2``, ``4d6kh3``, ``2d20kl1``, ``1d6e6``, with a label after it;
- success counting against a target, the Iron Cross to-hit form: ``2d10 5+`` counts each die
  showing 5 or more;
- Squad Leader / ASL: ``DR`` is two d6, a coloured and a white die, both shown, with the
  Original and Final DR when DRMs follow (``DR +2 -1``); ``dr`` is one d6;
- several rolls in one command, separated by ``;``.

Every die comes from a :class:`~engine.dice.DiceSource` and is kept, so a roll can be scripted
in tests and shown die by die. Limits keep a roll small and quick; going past one is refused
with a sentence saying which.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

import d20
import d20.expression
from d20 import diceast

from engine.dice import DiceSource, DieRoll
from engine.errors import IllegalCommand
from engine.rich_text import CLOSE, STRONG, STRUCK, TYPED, Line, Strong, marked

MAX_LENGTH = 200  # characters in one command
MAX_ROLLS = 10  # rolls separated by ";"
MAX_DICE = 100  # dice in one roll, rerolls and explosions included
MAX_SIDES = 1000

_ASL = re.compile(r"^(?P<kind>DR|dr)(?P<drms>(?:\s*[+-]\s*\d+)*)(?:\s+(?P<label>.*))?$")
_SUCCESS = re.compile(r"^(?P<expr>.+?)\s+(?P<target>\d+)\+(?:\s+(?P<label>.*))?$")


@dataclass(frozen=True)
class Roll:
    """One roll: what was asked, its label, the dice and the line to show (its result
    :class:`Strong`, a dropped die :class:`Struck`)."""

    expression: str
    label: str
    total: int
    line: Line
    dice: tuple[DieRoll, ...]


class _Pieces(d20.SimpleStringifier):
    """d20's Markdown layout with our pieces: a die showing 1 or its highest face stands out, a
    dropped die is struck out (and nothing more), the total is set as typed. The marks are private
    characters that :func:`engine.rich_text.marked` turns into pieces; one writer a roll."""

    def __init__(self) -> None:
        super().__init__()
        self.dropped = False

    def _stringify(self, node: d20.Number) -> str:
        if node.kept or self.dropped:
            return super()._stringify(node)
        self.dropped = True
        inside = super()._stringify(node)
        self.dropped = False
        return f"{STRUCK}{inside}{CLOSE}"

    def _str_expression(self, node: d20.Expression) -> str:
        return f"{self._stringify(node.roll)} = {TYPED}{int(node.total)}{CLOSE}"

    def _str_die(self, node: d20.Die) -> str:
        faces = [
            (self._stringify(value), value.kept and value.number in (1, node.size)) for value in node.values
        ]
        return ", ".join(
            f"{STRONG}{face}{CLOSE}" if high and not self.dropped else face for face, high in faces
        )


class _DiceForD20:
    """Stands in for the ``random`` module inside d20 while a roll is made, so that every die
    comes from our dice source (scriptable in tests) and is recorded."""

    def __init__(self, source: DiceSource, purpose: str) -> None:
        self.source = source
        self.purpose = purpose
        self.rolled: list[DieRoll] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:  # randrange(size) + 1 is a die of ``size`` faces
            face = self._die(start)
            return face - 1
        face = self._die(len(range(start, stop, step)))  # d20's percentile die: 0, 10 .. 90
        return start + (face - 1) * step

    def _die(self, sides: int) -> int:
        value = self.source.roll(sides, self.purpose)
        self.rolled.append(DieRoll(sides=sides, value=value, purpose=self.purpose))
        return value


@contextmanager
def _d20_rolling_with(dice: _DiceForD20) -> Iterator[None]:
    original = d20.expression.random
    d20.expression.random = dice  # type: ignore[assignment]
    try:
        yield
    finally:
        d20.expression.random = original


def _check_limits(node: diceast.Node) -> None:
    if isinstance(node, diceast.Dice):
        if isinstance(node.size, int) and node.size > MAX_SIDES:
            raise IllegalCommand(f"Dice have at most {MAX_SIDES} sides; d{node.size} is too many")
        if node.num > MAX_DICE:
            raise IllegalCommand(f"A roll has at most {MAX_DICE} dice; {node.num} is too many")
    for child in node.children:
        _check_limits(child)


def _dice_in(node: diceast.Node) -> list[diceast.Dice]:
    found = [node] if isinstance(node, diceast.Dice) else []
    for child in node.children:
        found.extend(_dice_in(child))
    return found


def _check_something_is_rolled(expression: str, parsed: diceast.Expression) -> None:
    """Refuse what rolls nothing: a word glued to the dice (``2q7``: q is no die), zero dice, dice
    without sides, or a bare number (``2 q7`` would read ``q7`` as a label on the number 2)."""
    comment = parsed.comment or ""
    before = expression[: len(expression) - len(comment)] if comment else expression
    if comment and not before[-1:].isspace():
        raise IllegalCommand(
            f"{expression!r} cannot be rolled: {comment.split()[0]!r} is not a die; "
            "write dice as NdS (2d6, 1d10)"
        )
    dice = _dice_in(parsed)
    if not dice:
        raise IllegalCommand(
            f"{expression!r} cannot be rolled: it has no dice in it; write dice as NdS (2d6)"
        )
    for die in dice:
        if die.num == 0:
            raise IllegalCommand(f"{expression!r} cannot be rolled: {die} rolls zero dice")
        if die.size == 0:
            raise IllegalCommand(f"{expression!r} cannot be rolled: {die} asks for dice with no sides")


_ROLLER = d20.Roller(context=d20.RollContext(max_rolls=MAX_DICE))


@lru_cache(maxsize=512)
def _parse(expression: str) -> diceast.Expression:
    """The expression's tree, within the limits; parsing is most of a roll's cost, so the trees
    of recent expressions are kept (rolling never changes them)."""
    try:
        parsed = _ROLLER.parse(expression, allow_comments=True)
    except d20.RollSyntaxError:
        raise IllegalCommand(
            f"I can't read {expression!r} as dice: try 2d6+1, 4d6kh3, 2d10 5+, DR +1 or dr"
        ) from None
    _check_limits(parsed)
    _check_something_is_rolled(expression, parsed)
    return parsed


def _roll_d20(expression: str, dice: DiceSource) -> tuple[d20.RollResult, list[DieRoll]]:
    parsed = _parse(expression)
    source = _DiceForD20(dice, f"/roll {expression}")
    try:
        with _d20_rolling_with(source):
            result = _ROLLER.roll(parsed, stringifier=_Pieces())
            _ = result.total  # d20 works the arithmetic out only when asked: dividing by zero shows here
    except d20.TooManyRolls:
        raise IllegalCommand(f"A roll has at most {MAX_DICE} dice, rerolls and explosions included") from None
    except (d20.RollError, ArithmeticError) as problem:
        raise IllegalCommand(f"{expression!r} cannot be rolled: {problem}") from None
    return result, source.rolled


def _asl_roll(kind: str, drms_text: str, label: str, dice: DiceSource) -> Roll:
    """ASL's DR (coloured and white d6) and dr (one d6), with their DRMs (A.7 in ASL terms)."""
    drms = [int(m.replace(" ", "")) for m in re.findall(r"[+-]\s*\d+", drms_text)]
    purpose = f"/roll {kind}" + (f" {label}" if label else "")
    if kind == "DR":
        coloured, white = dice.roll(6, purpose + " (coloured)"), dice.roll(6, purpose + " (white)")
        faces = [
            DieRoll(sides=6, value=coloured, purpose=purpose + " (coloured)"),
            DieRoll(sides=6, value=white, purpose=purpose + " (white)"),
        ]
        original = coloured + white
        shown = f"coloured {coloured}, white {white}" + (" (doubles)" if coloured == white else "")
        name = "DR"
    else:
        original = dice.roll(6, purpose)
        faces = [DieRoll(sides=6, value=original, purpose=purpose)]
        shown = f"{original}"
        name = "dr"
    final = original + sum(drms)
    if drms:
        line: Line = (
            f"{shown}: Original {name} {original}, DRM {sum(drms):+d}, Final {name} ",
            Strong(str(final)),
        )
    else:
        line = (f"{shown}: {name} ", Strong(str(original)))
    return Roll(f"{kind}{drms_text}".strip(), label, final, line, tuple(faces))


def _success_roll(expression: str, target: int, label: str, dice: DiceSource) -> Roll:
    """Each die of the expression that shows ``target`` or more is a success."""
    result, faces = _roll_d20(expression, dice)
    kept = [die.number for die in _kept_dice(result.expr)]
    successes = sum(1 for value in kept if value >= target)
    line = (
        f"{expression} {target}+: {', '.join(map(str, kept))} -> ",
        Strong(f"{successes} success{'es' * (successes != 1)}"),
    )
    return Roll(f"{expression} {target}+", label, successes, line, tuple(faces))


def _kept_dice(node: d20.Number) -> list[d20.Die]:
    """The dice that count in a rolled expression (dropped and rerolled ones left out)."""
    if isinstance(node, d20.Die):
        return [node] if node.kept else []
    found: list[d20.Die] = []
    for child in node.values if isinstance(node, d20.Set) else node.children:
        if child.kept:
            found.extend(_kept_dice(child))
    return found


def roll_one(text: str, dice: DiceSource) -> Roll:
    """One roll: an ASL DR/dr, a success count, or a d20 expression, each with a label."""
    text = text.strip()
    if not text:
        raise IllegalCommand("Say what to roll, e.g. 2d6+1, 2d10 5+, DR or dr")
    asl = _ASL.match(text)
    if asl:
        return _asl_roll(asl["kind"], asl["drms"] or "", (asl["label"] or "").strip(), dice)
    success = _SUCCESS.match(text)
    if success and not success["expr"].rstrip().endswith(("+", "-", "*", "/")):
        return _success_roll(success["expr"].strip(), int(success["target"]), success["label"] or "", dice)
    result, faces = _roll_d20(text, dice)
    label = (result.comment or "").strip()
    expression = text[: len(text) - len(result.comment or "")].strip() if result.comment else text
    return Roll(expression, label, result.total, marked(result.result), tuple(faces))


def roll(command: str, dice: DiceSource) -> list[Roll]:
    """Every roll in a command (separated by ``;``), refused whole if any part is bad."""
    if len(command) > MAX_LENGTH:
        raise IllegalCommand(
            f"A roll command has at most {MAX_LENGTH} characters; this one has {len(command)}"
        )
    parts = [part for part in command.split(";") if part.strip()]
    if len(parts) > MAX_ROLLS:
        raise IllegalCommand(f"At most {MAX_ROLLS} rolls in one command; this one asks for {len(parts)}")
    if not parts:
        raise IllegalCommand("Say what to roll, e.g. 2d6+1, 2d10 5+, DR or dr")
    return [roll_one(part, dice) for part in parts]
