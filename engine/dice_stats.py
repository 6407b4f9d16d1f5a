"""Dice statistics for ``/stats``: every die a player rolled, by size and purpose, against fair dice.

The input is one :class:`PlayerDie` per die (who rolled it and the :class:`~engine.dice.DieRoll`
itself); the output is a :class:`DiceReport`. For each player and die size it gives the faces
counted, their mean against a fair die's, and Pearson's chi-square statistic against the uniform
distribution with its p-value (a small p says the faces were lopsided; with few dice it means
little). Each die counts under the category it was rolled with (``DieRoll.category``). The luck of
the key rolls compares the successes scored with those expected: every die
thrown against a score adds its chance of success. The engine records the score with each to-hit
die (direct fire, smoke rounds, HE at buildings, request fire and the shot at the marker, close
combat rounds), each reaction, reactivation and close-combat initiation test, and each Company
Morale Test, fall back rally and break point test (``DieRoll.needs``, or ``DieRoll.at_most`` for
the break point test, which must roll low). Reports of several games add up: pass all their dice at once.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from engine.dice import DieCategory, DieRoll
from engine.rich_text import Block, Line, Mention
from engine.wording import counted

Category = DieCategory  # what a die was rolled for, recorded with the die


ALL = "all"  # the tally of a die size over every purpose
MAX_FACES_LISTED = 20  # larger dice (a d100) are tallied but their faces not listed one by one


def chi_square_p_value(statistic: float, freedom: int) -> float:
    """P(X >= statistic) for X chi-square distributed with ``freedom`` degrees of freedom.

    The regularised upper incomplete gamma Q(k/2, x/2), built up exactly from Q(1/2) = erfc(sqrt(x/2))
    or Q(1) = exp(-x/2) by Q(a + 1) = Q(a) + (x/2)^a exp(-x/2) / Gamma(a + 1).
    """
    if freedom < 1:
        raise ValueError("a chi-square distribution has at least one degree of freedom")
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    a, q = (0.5, math.erfc(math.sqrt(half))) if freedom % 2 else (1.0, math.exp(-half))
    while a < freedom / 2:
        q += math.exp(a * math.log(half) - half - math.lgamma(a + 1))
        a += 1
    return min(1.0, q)


def success_chance(sides: int, needs: int) -> float:
    """The chance that one fair die with ``sides`` faces shows ``needs`` or more."""
    return min(1.0, max(0.0, (sides - needs + 1) / sides))


def thrown_against_a_score(die: DieRoll) -> bool:
    return die.needs is not None or die.at_most is not None


def die_passed(die: DieRoll) -> bool:
    """Whether a die thrown against a score reached it."""
    return (die.needs is None or die.value >= die.needs) and (die.at_most is None or die.value <= die.at_most)


def die_chance(die: DieRoll) -> float:
    """The chance that a fair die of its size reaches the die's score."""
    if die.at_most is not None:
        return min(1.0, max(0.0, die.at_most / die.sides))
    return success_chance(die.sides, die.needs or 1)


class PlayerDie(NamedTuple):
    """One die, and the player it counts for."""

    player: str
    die: DieRoll


class FaceTally(BaseModel):
    """The faces of one die size rolled for one purpose (or for every purpose: ``ALL``)."""

    model_config = ConfigDict(frozen=True)

    sides: int
    purpose: str  # a Category value, or ALL
    counts: tuple[int, ...]  # counts[i]: how many dice showed i + 1
    mean: float
    expected_mean: float
    chi_square: float
    p_value: float

    @property
    def dice(self) -> int:
        return sum(self.counts)

    @property
    def expected_count(self) -> float:
        """How many times each face should come up with this many fair dice."""
        return self.dice / self.sides


class Luck(BaseModel):
    """Dice thrown against a score: successes scored against successes expected."""

    model_config = ConfigDict(frozen=True)

    purpose: Category
    dice: int
    scored: int
    expected: float


class PlayerDice(BaseModel):
    model_config = ConfigDict(frozen=True)

    player: str
    tallies: tuple[FaceTally, ...]  # by die size, each size's purposes then its ALL tally
    luck: tuple[Luck, ...]

    @property
    def dice(self) -> int:
        return sum(t.dice for t in self.tallies if t.purpose == ALL)

    def faces(self, sides: int) -> FaceTally | None:
        """Every die of this size the player rolled, whatever for."""
        return next((t for t in self.tallies if t.sides == sides and t.purpose == ALL), None)


class DiceReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    players: tuple[PlayerDice, ...]  # in the order they first rolled

    @property
    def dice(self) -> int:
        return sum(p.dice for p in self.players)


def face_tally(sides: int, purpose: str, faces: Iterable[int]) -> FaceTally:
    """Counts, mean and the chi-square test against a fair die for these faces."""
    return _tally(sides, purpose, Counter(faces))


def _tally(sides: int, purpose: str, counted: Counter[int]) -> FaceTally:
    """:func:`face_tally` from the faces already counted: the work grows with the die's size, not
    with the number of dice."""
    counts = tuple(counted.get(face, 0) for face in range(1, sides + 1))
    dice = sum(counts)
    if dice == 0 or dice != counted.total():
        raise ValueError(f"faces of a d{sides} must be 1..{sides}, and at least one")
    expected = dice / sides
    statistic = sum((count - expected) ** 2 / expected for count in counts)
    return FaceTally(
        sides=sides,
        purpose=purpose,
        counts=counts,
        mean=sum(face * count for face, count in enumerate(counts, start=1)) / dice,
        expected_mean=(sides + 1) / 2,
        chi_square=statistic,
        p_value=chi_square_p_value(statistic, sides - 1) if sides > 1 else 1.0,  # a d1 cannot be unfair
    )


def _player_dice(player: str, dice: list[DieRoll]) -> PlayerDice:
    """One pass over the dice counts the faces of each size and category; the tallies and the
    luck are worked out from those counts."""
    faces: defaultdict[tuple[int, Category], Counter[int]] = defaultdict(Counter)
    thrown: defaultdict[Category, list[DieRoll]] = defaultdict(list)
    for die in dice:
        category = die.category
        faces[die.sides, category][die.value] += 1
        if thrown_against_a_score(die):
            thrown[category].append(die)
    tallies = []
    for sides in sorted({sides for sides, _ in faces}):
        every_purpose: Counter[int] = Counter()
        for category in Category:
            counted = faces.get((sides, category))
            if counted:
                tallies.append(_tally(sides, category.value, counted))
                every_purpose.update(counted)
        tallies.append(_tally(sides, ALL, every_purpose))
    luck = [
        Luck(
            purpose=category,
            dice=len(thrown[category]),
            scored=sum(1 for d in thrown[category] if die_passed(d)),
            expected=sum(die_chance(d) for d in thrown[category]),
        )
        for category in Category
        if thrown[category]
    ]
    return PlayerDice(player=player, tallies=tuple(tallies), luck=tuple(luck))


def dice_report(dice: Iterable[PlayerDie]) -> DiceReport:
    """Each player's dice, tallied."""
    by_player: defaultdict[str, list[DieRoll]] = defaultdict(list)
    for player, die in dice:
        by_player[player].append(die)
    return DiceReport(players=tuple(_player_dice(p, rolled) for p, rolled in by_player.items()))


def dice_words(count: int) -> str:
    """``1 die``, ``3 dice``."""
    return counted(count, "die", "dice")


def luck_text(luck: Luck) -> str:
    """``hits 12 vs 9.4 expected (20 dice)``."""
    what = "hits" if luck.purpose is Category.TO_HIT else f"{luck.purpose.value} successes"
    return f"{what} {luck.scored} vs {luck.expected:.1f} expected ({dice_words(luck.dice)})"


def report_text(report: DiceReport, sides_of: Callable[[str], str] = lambda player: "") -> tuple[Line, ...]:
    """The report as text tables in columns, one per player under their name (a user the front
    end names, then ``sides_of`` the player: " (allies)")."""
    if not report.players:
        return (("No dice have been rolled yet",),)
    lines: list[Line] = [(f"Dice statistics: {dice_words(report.dice)}",)]
    for player in report.players:
        lines += [(), (Mention(player.player), f"{sides_of(player.player)}: {dice_words(player.dice)}")]
        lines.append((Block(_table(player)),))
    return tuple(lines)


def _table(player: PlayerDice) -> str:
    """A player's dice in columns: each size and purpose, each size's faces, and their luck."""
    lines = [f"{'die':4} {'purpose':18} {'n':>4} {'mean':>5} {'fair':>5} {'chi2':>6} {'p':>5}"]
    purposes = Counter(t.sides for t in player.tallies)
    for t in player.tallies:
        if t.purpose == ALL and purposes[t.sides] == 2:
            continue  # a size rolled for one purpose only: its total says the same again
        lines.append(
            f"d{t.sides:<3} {t.purpose:18} {t.dice:>4} {t.mean:>5.2f} {t.expected_mean:>5.2f} "
            f"{t.chi_square:>6.2f} {t.p_value:>5.2f}"
        )
    for sides in sorted({t.sides for t in player.tallies if t.sides <= MAX_FACES_LISTED}):
        faces = player.faces(sides)
        assert faces is not None
        counts = " ".join(f"{face}:{count}" for face, count in enumerate(faces.counts, start=1))
        lines.append(f"d{sides} faces {counts} (fair {faces.expected_count:.1f} each)")
    lines += [luck_text(luck) for luck in player.luck]
    return "\n".join(lines)
