"""Exact odds, by enumerating the dice rather than by simulation.

An Iron Cross shot is run through :func:`~engine.rules.shot_resolution.resolve_shot` once for
every sequence of dice it can roll, so the odds come from the same rule functions as play.
A plain test ("needs 4+ on a d6, re-roll failures") is counted with icepool.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import TypeVar

import icepool
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.battlefield import cannot_see
from engine.commands import Fire
from engine.errors import IllegalCommand
from engine.firing.aiming import measure_shot, shot_problem, target_in_sight
from engine.game_state import GameState
from engine.profiles import NATIONS, UnitProfile, find_profile, load_orbat
from engine.rich_text import Block, Line
from engine.rules.armour import Damage
from engine.rules.firing import Shot, cover_counts, dice_to_fire, to_hit_score_needed, why_cannot_fire
from engine.rules.morale import is_destroyed_by_markers
from engine.rules.shot_resolution import Fate, ShotResult, resolve_shot
from engine.state import CoverKind, Point, Unit

Outcome = TypeVar("Outcome", bound=Hashable)
Model = TypeVar("Model", bound=BaseModel)
BAR_WIDTH = 20
NO_COVER_FOR_VEHICLES = (
    "Cover does not count against a vehicle (pp. 10-12): its armour takes the hit; "
    "a vehicle behind terrain is hull down (hull_down) instead"
)


def read_options(model: type[Model], options: dict[str, object]) -> Model:
    """Options as typed by a player, checked; a bad one is refused with what was expected."""
    try:
        return model.model_validate(options)
    except ValidationError as problem:
        reasons = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'options'}: {e['msg'].lower()}" for e in problem.errors()
        )
        raise IllegalCommand(f"I can't work that out: {reasons}") from None


class _DiceAlongAPath:
    """Dice that show the given faces in order, then 1s; they remember each die's size."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.sides: list[int] = []

    def roll(self, sides: int, purpose: str) -> int:
        if len(self.sides) == len(self.faces):
            self.faces.append(1)
        self.sides.append(sides)
        return self.faces[len(self.sides) - 1]


def enumerate_dice(run: Callable[[_DiceAlongAPath], Outcome]) -> dict[Outcome, Fraction]:
    """Every outcome of ``run`` with its exact probability (:func:`rolls_of`, summed)."""
    odds: dict[Outcome, Fraction] = defaultdict(Fraction)
    for outcome, chance in rolls_of(run):
        odds[outcome] += chance
    return dict(odds)


def rolls_of(run: Callable[[_DiceAlongAPath], Outcome]) -> Iterator[tuple[Outcome, Fraction]]:
    """The outcome of ``run`` for each sequence of faces it can roll, with that sequence's chance,
    one at a time (a caller looking for one outcome stops when it has it).

    ``run`` must decide everything from the dice it rolls. Each sequence of faces it can roll
    is tried once, like an odometer: the last die turns over first, and a die that has shown
    all its faces is dropped so the one before it turns.
    """
    faces: list[int] = []
    while True:
        dice = _DiceAlongAPath(faces)
        outcome = run(dice)
        yield outcome, Fraction(1, math.prod(dice.sides))
        faces = dice.faces[: len(dice.sides)]
        while faces and faces[-1] == dice.sides[len(faces) - 1]:
            faces.pop()
        if not faces:
            return
        faces[-1] += 1


# --- an Iron Cross shot --------------------------------------------------------------------


class ShotOutcome(StrEnum):
    NO_EFFECT = "no effect"
    ONE_MARKER = "1 marker"
    TWO_MARKERS = "2 markers"
    THREE_MARKERS = "3 markers"
    DAMAGED = "damaged (Screech!)"
    DESTROYED = "destroyed"
    KABOOM = "Kaboom!"


MARKER_OUTCOMES = (ShotOutcome.NO_EFFECT, ShotOutcome.ONE_MARKER, ShotOutcome.TWO_MARKERS)


def shot_outcome(shot: Shot, result: ShotResult) -> ShotOutcome:
    """Sort a shot's result into the outcomes players ask about."""
    if result.fate is Fate.KABOOM:
        return ShotOutcome.KABOOM
    after = shot.target.model_copy(update={"morale_markers": result.markers})
    if result.fate is not Fate.STANDS or is_destroyed_by_markers(after):
        return ShotOutcome.DESTROYED
    if result.damage is Damage.SCREECH:
        return ShotOutcome.DAMAGED
    added = result.markers - shot.target.morale_markers
    return MARKER_OUTCOMES[added] if added < len(MARKER_OUTCOMES) else ShotOutcome.THREE_MARKERS


@dataclass(frozen=True)
class ShotOdds:
    shot: Shot
    outcomes: dict[ShotOutcome, Fraction]  # in the order of :class:`ShotOutcome`
    hit: Fraction  # at least one hit
    expected_hits: Fraction


def shot_odds(shot: Shot) -> ShotOdds:
    """The exact chance of each outcome of one shot (pp. 10-12, 18-20)."""
    results = enumerate_dice(lambda dice: resolve_shot(shot, dice))
    by_outcome: dict[ShotOutcome, Fraction] = defaultdict(Fraction)
    for result, chance in results.items():
        by_outcome[shot_outcome(shot, result)] += chance
    hits: dict[int, Fraction] = defaultdict(Fraction)
    for result, chance in results.items():
        hits[result.hits] += chance
    return ShotOdds(
        shot=shot,
        outcomes={o: by_outcome[o] for o in ShotOutcome if by_outcome[o]},
        hit=1 - hits[0],
        expected_hits=sum((n * p for n, p in hits.items()), Fraction(0)),
    )


def may_have_effect(shot: Shot) -> bool:
    """Whether some roll of the dice gives the shot an effect (a marker, damage or worse): the
    rolls are tried until one does, where :func:`shot_odds` works out every one."""
    rolls = rolls_of(lambda dice: resolve_shot(shot, dice))
    return any(shot_outcome(shot, result) is not ShotOutcome.NO_EFFECT for result, _ in rolls)


def hit_chance(shot: Shot) -> Fraction:
    """The exact chance of at least one hit (p. 10: each d10 rolled to fire hits on the score
    needed or more), worked out directly: a menu of targets needs it for many shots at once,
    where :func:`shot_odds` enumerates every die of every outcome."""
    needed = min(max(to_hit_score_needed(shot).needed, 1), 11)
    return 1 - Fraction(needed - 1, 10) ** dice_to_fire(shot)


class ShotSetup(BaseModel):
    """A shot described in words rather than measured on a table, for ``/odds shot``."""

    model_config = ConfigDict(frozen=True)

    firer: str  # "Panther" or "Sherman 75mm (us)"
    target: str
    range: float = Field(ge=0, le=200, description="inches, edge to edge; 0 is contact")
    aspect: str = Field(default="front", pattern="^(front|side)$")
    cover: CoverKind = CoverKind.OPEN
    firer_moved: bool = False
    target_moved: bool = False
    smoke: bool = False
    hull_down: bool = False
    firer_markers: int = Field(default=0, ge=0, le=10)
    target_markers: int = Field(default=0, ge=0, le=10)
    infantry_close: bool = False
    ranged_in: int = Field(default=0, ge=0, le=10)
    in_building: bool = False
    flamethrower: bool = False
    iaw: bool = False


def profile_labels() -> list[str]:
    """Every unit of every order of battle, as "Name (nation)"."""
    return [f"{u.name} ({u.nation})" for nation in NATIONS for u in load_orbat(nation).units]


def find_any_profile(label: str) -> UnitProfile:
    """A profile from "Name" or "Name (nation)"; a name in several orders of battle needs its nation."""
    name, _, nation = label.strip().removesuffix(")").partition(" (")
    if nation:
        try:
            return find_profile(nation.casefold(), name)
        except (KeyError, FileNotFoundError):
            raise IllegalCommand(f"No unit called {label!r}; pick one from the list as you type") from None
    found = [u for n in NATIONS for u in load_orbat(n).units if u.name.casefold() == name.casefold()]
    if not found:
        raise IllegalCommand(f"No unit called {label!r}; pick one from the list as you type")
    if len(found) > 1:
        choices = ", ".join(f"{u.name} ({u.nation})" for u in found)
        raise IllegalCommand(f"{name} is in several orders of battle: say which, {choices}")
    return found[0]


def setup_shot(setup: ShotSetup) -> Shot:
    """The :class:`Shot` a setup describes. Refuses a shot the rules do not allow, with the reason."""
    firer_profile, target_profile = find_any_profile(setup.firer), find_any_profile(setup.target)
    iaw = load_orbat(firer_profile.nation).iaw.weapon if setup.iaw else None
    firer = Unit(
        id="firer",
        name=firer_profile.name,
        side="firing",
        profile=firer_profile,
        position=Point(x=0, y=0),
        morale_markers=setup.firer_markers,
        iaw_weapon=iaw,
    )
    target = Unit(
        id="target",
        name=target_profile.name,
        side="target",
        profile=target_profile,
        position=Point(x=0, y=setup.range),
        morale_markers=setup.target_markers,
    )
    shot = Shot(
        firer=firer,
        target=target,
        range=setup.range,
        firer_moved=setup.firer_moved,
        firer_stationary=not setup.firer_moved,
        target_moved=setup.target_moved,
        target_in_smoke=setup.smoke,
        enemy_infantry_close=setup.infantry_close,
        cover=setup.cover,
        target_in_building=setup.in_building,
        flamethrower=setup.flamethrower,
        mortar_previous_shots=setup.ranged_in,
        aspect=setup.aspect if target.is_vehicle else None,
        hull_down=setup.hull_down and target.is_vehicle,
    )
    problem = why_cannot_fire(shot, rapid_move=False)
    if problem:
        raise IllegalCommand(problem)
    return shot


def table_shot(state: GameState, firer_id: str, target_id: str, *, moving: bool = False) -> Shot:
    """The shot as the table stands, measured as play measures it; ``moving`` if the firer
    also moves in the activation. Hidden and carried units cannot be aimed at."""
    firer, target = state.units[firer_id], state.units[target_id]
    for unit in (firer, target):
        if not unit.on_table:
            raise IllegalCommand(f"{unit.name} is not on the table")
    if target.side == firer.side:
        raise IllegalCommand(f"{target.name} is on {firer.name}'s own side")
    if target.hidden or target.embarked_in:
        raise IllegalCommand(f"{firer.name} has no shot at {target.name}")
    if not target_in_sight(state, firer, target):
        raise IllegalCommand(cannot_see(state, firer, target))
    shot = measure_shot(
        state, firer, target, Fire(target=target_id), order_moves=moving, target_declared_move=False
    )
    problem = shot_problem(state, shot, rapid_move=False)
    if problem:
        raise IllegalCommand(problem)
    return shot


def _bar(chance: Fraction) -> str:
    return "█" * round(chance * BAR_WIDTH)


def _percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:5.1f}%"


def describe_shot_odds(odds: ShotOdds) -> tuple[Line, ...]:
    """The shot, what it needs, and each outcome's chance with a bar."""
    shot = odds.shot
    score, dice = to_hit_score_needed(shot), dice_to_fire(shot)
    if cover_counts(shot.target):
        where = f"{shot.cover.value}, "
    else:
        where = f"{shot.aspect}, " + "hull down, " * shot.hull_down
    width = max(len(o.value) for o in odds.outcomes)
    rows = [f"{o.value:<{width}} {_percent(p)} {_bar(p)}" for o, p in odds.outcomes.items()]
    lines: list[Line] = [
        (
            f'{shot.firer.name} at {shot.target.name} ({where}{round(shot.range, 1):g}"): '
            f"{dice}d10, each hits on {score.describe()}",
        )
    ]
    if not cover_counts(shot.target) and shot.cover is not CoverKind.OPEN:
        lines.append((NO_COVER_FOR_VEHICLES,))
    lines.append(
        (f"At least one hit {_percent(odds.hit).strip()}, {float(odds.expected_hits):.2f} hits expected",)
    )
    lines.append((Block("\n".join(rows)),))
    return tuple(lines)


# --- any test --------------------------------------------------------------------------------


class Reroll(StrEnum):
    NONE = "none"
    FAILED = "failed"  # every failed die is rolled again, once
    ONE = "one"  # one failed die is rolled again


class SuccessTest(BaseModel):
    """A test such as "needs 4+ on a d6 with a re-roll"."""

    model_config = ConfigDict(frozen=True)

    needs: int = Field(ge=1, le=1000)
    sides: int = Field(default=6, ge=2, le=1000)
    dice: int = Field(default=1, ge=1, le=50)
    reroll: Reroll = Reroll.NONE
    at_least: int = Field(default=1, ge=1, le=50)

    def describe(self) -> str:
        dice = f"{self.dice}d{self.sides}" if self.dice > 1 else f"a d{self.sides}"
        again = {
            Reroll.NONE: "",
            Reroll.FAILED: ", failed dice rolled again once",
            Reroll.ONE: ", one failed die rolled again",
        }[self.reroll]
        wanted = f", {self.at_least} or more successes" if self.dice > 1 else ""
        return f"{self.needs}+ on {dice}{again}{wanted}"


def successes(test: SuccessTest) -> dict[int, Fraction]:
    """The exact chance of each number of successes."""
    die = icepool.d(test.sides)
    if test.reroll is Reroll.FAILED:
        die = die.reroll(lambda face: face < test.needs, depth=1)
    success = die.map(lambda face: int(face >= test.needs))
    count = test.dice @ success
    if test.reroll is Reroll.ONE:
        count = count.map(lambda n: n if n == test.dice else n + success)
    return {n: Fraction(quantity, count.denominator()) for n, quantity in count.items() if quantity}


def chance_of(test: SuccessTest) -> Fraction:
    """The chance of at least ``test.at_least`` successes."""
    return sum((p for n, p in successes(test).items() if n >= test.at_least), Fraction(0))


def describe_test_odds(test: SuccessTest) -> tuple[Line, ...]:
    """The chance of passing, and with several dice the chance of each number of successes."""
    chance: Line = (f"{test.describe()}: {_percent(chance_of(test)).strip()}",)
    if test.dice == 1:
        return (chance,)
    rows = [
        f"{f'{n} success' + 'es' * (n != 1):<13} {_percent(p)} {_bar(p)}"
        for n, p in sorted(successes(test).items())
    ]
    return chance, (Block("\n".join(rows)),)
