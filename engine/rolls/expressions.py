"""Dice expressions for ``/roll``, on the d20 library (the dice engine of Avrae) with the forms
wargames need on top:

- anything d20 reads: ``3d6+2``, ``4d6kh3``, ``2d20kl1``, ``1d6e6``, with a label after it;
- success counting against a target, the Iron Cross to-hit form: ``2d10 5+`` counts each die
  showing 5 or more; so does Roll20's ``2d10>5`` (``>`` there is "5 or more"), and ``2d10<3``
  counts the dice showing 3 or less;
- the forms of other dice bots (Roll20, Foundry VTT, Avrae's ``1d20+5 adv``) read in d20's words
  or refused with the form that works (:mod:`engine.rolls.habits`);
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
from d20 import AdvType, diceast

from engine.dice import DiceSource, DieRoll
from engine.errors import IllegalCommand
from engine.rich_text import CLOSE, STRONG, STRUCK, TYPED, Line, Strong, marked
from engine.rolls.habits import advantage_in, in_d20_words, refuse_operator_words

MAX_LENGTH = 200  # characters in one command
MAX_ROLLS = 10  # rolls separated by ";"
MAX_DICE = 100  # dice in one roll, rerolls and explosions included
MAX_SIDES = 1000

_ASL = re.compile(r"^(?P<kind>DR|dr)(?P<drms>(?:\s*[+-]\s*\d+)*)(?:\s+(?P<label>.*))?$")
_SUCCESS = re.compile(r"^(?P<expr>.+?)\s+(?P<target>\d+)\+(?:\s+(?P<label>.*))?$")


@dataclass(frozen=True)
class Target:
    """What a die must show to be a success: ``face`` or more, or with ``at_most`` ``face`` or
    less."""

    face: int
    at_most: bool = False

    def met_by(self, value: int) -> bool:
        return value <= self.face if self.at_most else value >= self.face

    def __str__(self) -> str:
        return f"{self.face} or less" if self.at_most else f"{self.face}+"


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
            f"I can't read {expression!r} as dice: try 2d6+1, 4d6kh3, 2d10 5+, 8d6>4, DR +1 or dr"
        ) from None
    _check_limits(parsed)
    _check_something_is_rolled(expression, parsed)
    return parsed


def _leftmost_is_one_d20(node: diceast.Node) -> bool:
    while node.children:
        node = node.children[0]
    return isinstance(node, diceast.Dice) and (node.num, node.size) == (1, 20)


def _roll_d20(
    expression: str, dice: DiceSource, advantage: AdvType = AdvType.NONE
) -> tuple[d20.RollResult, list[DieRoll]]:
    """The expression rolled by d20 with our dice; with ``advantage``, Avrae's adv or dis: its
    first 1d20 is rolled twice, the higher (or lower) kept."""
    parsed = _parse(expression)
    if advantage and not _leftmost_is_one_d20(parsed):
        raise IllegalCommand(
            f"{expression!r} cannot be rolled with adv or dis: they roll a first 1d20 twice, "
            "and this roll does not start with 1d20 (1d20+5 adv)"
        )
    source = _DiceForD20(dice, f"/roll {expression}")
    try:
        with _d20_rolling_with(source):
            result = _ROLLER.roll(parsed, stringifier=_Pieces(), advantage=advantage)
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


def _success_roll(
    expression: str, target: Target, label: str, dice: DiceSource, advantage: AdvType = AdvType.NONE
) -> Roll:
    """Each die of the expression that meets ``target`` is a success."""
    if _counted_against(_parse(expression).roll):
        raise IllegalCommand(f"{expression!r} {target}: say the target for the successes once")
    result, faces = _roll_d20(expression, dice, advantage)
    kept = [die.number for die in _kept_dice(result.expr)]
    successes = sum(1 for value in kept if target.met_by(value))
    asked = f"{_with_advantage(expression, advantage)} {target}"
    line = (
        f"{asked}: {', '.join(map(str, kept))} -> ",
        Strong(f"{successes} success{'es' * (successes != 1)}"),
    )
    return Roll(asked, label, successes, line, tuple(faces))


def _with_advantage(expression: str, advantage: AdvType) -> str:
    return f"{expression} {advantage.name.lower()}" if advantage else expression


_AT_LEAST, _AT_MOST = (">", ">="), ("<", "<=")


def _counted_against(node: diceast.Node) -> tuple[diceast.Node, Target] | None:
    """Roll20's success count, ``8d6>4``: the dice (with their modifiers, nothing added) compared
    with a number count each die showing 4 or more; ``<3`` counts those showing 3 or less. A
    total compared with a number (``1d20+5>15``) stays d20's comparison, 1 if true."""
    if not (isinstance(node, diceast.BinOp) and node.op in _AT_LEAST + _AT_MOST):
        return None
    if not isinstance(node.left, diceast.Dice | diceast.OperatedDice):
        return None
    if not (isinstance(node.right, diceast.Literal) and isinstance(node.right.value, int)):
        raise IllegalCommand(
            f"{str(node)!r}: successes are counted against one number (8d6>=4); "
            "for more rolls, separate them with ;"
        )
    return node.left, Target(node.right.value, at_most=node.op in _AT_MOST)


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
        advantage, label = advantage_in((asl["label"] or "").strip())
        if advantage:
            raise IllegalCommand(f"{text!r}: adv and dis are for a d20; a DR takes its DRMs (DR -1)")
        refuse_operator_words(label)
        return _asl_roll(asl["kind"], asl["drms"] or "", label, dice)
    text = in_d20_words(text)
    success = _SUCCESS.match(text)
    if success and not success["expr"].rstrip().endswith(("+", "-", "*", "/")):
        advantage, label = advantage_in(success["label"] or "")
        refuse_operator_words(label)
        target = Target(int(success["target"]))
        return _success_roll(success["expr"].strip(), target, label, dice, advantage)
    comment = _parse(text).comment or ""
    expression = text[: len(text) - len(comment)].strip() if comment else text
    advantage, label = advantage_in(comment.strip())
    refuse_operator_words(label)
    counted = _counted_against(_parse(expression).roll)
    if counted:
        return _success_roll(str(counted[0]), counted[1], label, dice, advantage)
    result, faces = _roll_d20(expression, dice, advantage)
    return Roll(
        _with_advantage(expression, advantage), label, result.total, marked(result.result), tuple(faces)
    )


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
