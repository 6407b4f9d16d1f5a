"""Whether a command is legal, and why not, without rolling a die; and the legal choices of a
step, for menus: the units that may act, where a unit may go, what it may fire at.

:func:`why_illegal` runs the very checks :func:`engine.game.apply` runs before it rolls anything:
a command that rolls dice has its check separated out (:data:`CHECKS`) and its handler calls that
same function first, so the two can never disagree. A command that rolls no dice is checked by
carrying it out on a copy with dice that cannot be rolled: its handler's refusals are its checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice
from typing import Any, Literal

from engine.actions.activation import check_combination
from engine.actions.registry import action_type
from engine.battlefield import live_units
from engine.commands import (
    CallReserves,
    ChooseInitiative,
    ChooseTarget,
    Command,
    DealCards,
    Declare,
    DeclineReaction,
    FallBackOrder,
    Fire,
    Move,
    Order,
    PassInitiative,
    React,
    RemoveMarkers,
    StartGame,
    UnitOrder,
)
from engine.dice import DiceScriptError, ScriptedDice
from engine.errors import IllegalCommand
from engine.firing.aiming import target_in_sight
from engine.firing.odds import ShotOdds, ShotOutcome, may_have_effect, shot_odds, table_shot
from engine.flow.activation import check_declaration, check_pass
from engine.flow.interrupts import points_on_route
from engine.flow.playing_cards import check_dealing
from engine.flow.reaction import check_decline, check_reaction, reaction_score, table_at_reaction_point
from engine.flow.resolution import check_markers_choice, check_target_choice
from engine.flow.sequence import check_initiative_choice, check_reserve_call
from engine.flow.setting_up import check_start
from engine.game import apply
from engine.game_state import GameState
from engine.geometry import end_facing
from engine.orders import check_may_activate, unit_of_side
from engine.rules.activation import TestScore
from engine.rules.firing import Shot
from engine.rules.movement import fall_back_allowance, movement_allowance
from engine.rulesets import rules_of
from engine.state import Phase, Point, Unit
from engine.teams import paying_player

CHECKS: dict[type, Callable[[GameState, Any], object]] = {
    StartGame: check_start,
    DealCards: check_dealing,
    CallReserves: check_reserve_call,
    ChooseInitiative: check_initiative_choice,
    Declare: check_declaration,
    PassInitiative: check_pass,
    React: check_reaction,
    DeclineReaction: check_decline,
    RemoveMarkers: check_markers_choice,
    ChooseTarget: check_target_choice,
}
"""The checks of the commands that roll dice, each the one its handler calls before any die (a
rule set's own commands have theirs from :meth:`engine.rulesets.RuleSet.checks`)."""

MoveKind = Literal["move", "rapid", "fall_back"]
FireWhen = Literal["after", "before"]  # a move's shot: after it (move and fire), or before it (fire and move)
SPACING = 1.0  # inches between the points :func:`destinations` tries when given none


def why_illegal(state: GameState, command: Command, *, after: Sequence[Command] = ()) -> str | None:
    """Why the engine would refuse the command, or None if it is legal (see :func:`check`)."""
    try:
        check(state, command, after=after)
    except IllegalCommand as refusal:
        return str(refusal)
    return None


def is_legal(state: GameState, command: Command) -> bool:
    return why_illegal(state, command) is None


def check(state: GameState, command: Command, *, after: Sequence[Command] = ()) -> None:
    """Raise :class:`IllegalCommand` as :func:`engine.game.apply` would, rolling no die;
    ``after``: once these commands, which roll no dice (taking a referee's seat, say), were
    played first."""
    for earlier in after:
        state = _played_without_dice(state, earlier)
    if state.phase is Phase.OVER:
        raise IllegalCommand("The game is over")
    own_check = CHECKS.get(type(command)) or rules_of(state).checks().get(type(command))
    if own_check is not None:
        own_check(state, command)
    else:
        _played_without_dice(state, command)


def _played_without_dice(state: GameState, command: Command) -> GameState:
    try:
        return apply(state, command, ScriptedDice([]))[0]
    except DiceScriptError as needing:
        raise TypeError(f"{type(command).__name__} rolls dice: its check belongs in CHECKS") from needing


# --- the choices of a step -------------------------------------------------------------------


@dataclass(frozen=True)
class MayAct:
    """A unit its side may give an order to now, and the test the order needs (a reactivation
    or a reaction test), if any."""

    unit: Unit
    test: TestScore | None


def units_that_may_act(state: GameState, side: str) -> list[MayAct]:
    """On the side's turn to act, the units it may activate (a unit already holding a token
    takes a reactivation test, p. 4); in a reaction window open to it, the units that may react
    (each with its reaction test, p. 6). None whose token no one could pay (p. 25)."""
    pending = state.pending
    if state.phase is Phase.ACTIVE and side == state.active_side:

        def test(unit: Unit) -> TestScore | None:
            if not unit.tokens:
                return None
            return rules_of(state).reactivation_score(unit, unit.tokens, falling_back=False)

    elif state.phase is Phase.REACTION and pending is not None and side == pending.reactor_side:

        def test(unit: Unit) -> TestScore | None:
            return reaction_score(state, pending, unit)

    else:
        return []
    if side not in state.sides or state.sides[side].tokens < 1:
        return []
    found = []
    for unit in state.units_of(side):
        try:
            check_may_activate(unit_of_side(state, side, unit.id, entering=True))
            paying_player(state, side, [unit.id], None)  # in a team game its player has a token
        except IllegalCommand:
            continue
        found.append(MayAct(unit, test(unit)))
    return found


def order_now(state: GameState, side: str, order: Order, at: Point | None = None) -> Command:
    """The command that gives the order now: a declaration on the side's turn to act, else a
    reaction in the open window (``at``: partway through the enemy's move, p. 6)."""
    if state.phase is Phase.REACTION and state.pending is not None:
        return React(side=side, window=state.pending.window, order=order, at=at)
    return Declare(side=side, order=order)


def reaction_points(state: GameState, spacing: float = 1.0) -> list[tuple[float, Point]]:
    """In an open reaction window, the points ``spacing`` apart along the enemy's declared move
    at which a reaction may cut in (p. 6), each with how far along the route it lies; none when
    the declared order has no move to interrupt."""
    if state.phase is not Phase.REACTION or state.pending is None:
        return []
    return points_on_route(state, state.pending.order, spacing)


def seen_at(state: GameState, at: Point | None) -> GameState:
    """The table as a reaction at ``at`` on the enemy's route sees it (the enemy there); as it
    stands for any other order."""
    return state if at is None else table_at_reaction_point(state, at)


def destinations(
    state: GameState,
    unit_id: str,
    kind: MoveKind = "move",
    among: Iterable[Point] | None = None,
    at: Point | None = None,
    fire: FireWhen | None = None,
    enough: int | None = None,
) -> list[Point]:
    """The points (of ``among``; else of a grid an inch apart around the unit) that the unit may
    be ordered to move straight to now, by the kind of move given (``at``: reacting at that
    point of the enemy's move): the move rules accept the way there (its length by the unit's
    rate, terrain, other units, the table's edge), and it leads somewhere (never the spot the
    unit stands on). ``fire``: the order also fires, after the move or before it; then only the
    points for which some enemy :func:`targets` offers (seen and hurt from where the shot is
    fired) makes the whole order one the engine takes (:func:`fires_with_move`). ``enough``: at
    most that many, the first found (whether a square of a menu has any asks for one)."""
    return list(islice(_destinations(state, unit_id, kind, among, at, fire), enough))


def _destinations(
    state: GameState,
    unit_id: str,
    kind: MoveKind,
    among: Iterable[Point] | None,
    at: Point | None,
    fire: FireWhen | None,
) -> Iterator[Point]:
    """:func:`destinations`, one at a time. A shot before the move is fired from where the unit
    stands, the move then checked as it is alone (the last action): so an order that fires first
    and goes to one point the move rules accept is taken for every such point, and is checked
    once, at the first."""
    unit = state.units[unit_id]
    here = state.units.get(unit.embarked_in or "", unit).position
    points = (p for p in (_around(state, unit, kind) if among is None else among) if p != here)
    if fire is not None and not may_move_and_fire(state, unit, kind, fire):
        return
    if fire == "after":
        yield from (p for p in points if fires_with_move(state, unit_id, kind, p, fire, at))
        return
    moves = (
        p for p in points if is_legal(state, order_now(state, unit.side, moving_to(unit_id, kind, p), at))
    )
    first = next(moves, None)
    if first is None or fire == "before" and not fires_with_move(state, unit_id, kind, first, fire, at):
        return
    yield first
    yield from moves


def moving_to(unit_id: str, kind: MoveKind, point: Point) -> Order:
    """The order that moves the unit straight to ``point`` by the kind of move given."""
    if kind == "fall_back":
        return FallBackOrder(unit=unit_id, path=(point,))
    return UnitOrder(unit=unit_id, actions=(Move(path=(point,), rapid=kind == "rapid"),))


def moving_and_firing(unit_id: str, kind: MoveKind, point: Point, target: str, fire: FireWhen) -> UnitOrder:
    """The order that moves the unit straight to ``point`` and fires at ``target``, the shot
    after the move or before it (a fall back is an order of its own, with no shot)."""
    if kind == "fall_back":
        raise ValueError("A fall back has no shot")
    move, shot = Move(path=(point,), rapid=kind == "rapid"), Fire(target=target)
    return UnitOrder(unit=unit_id, actions=(move, shot) if fire == "after" else (shot, move))


def may_move_and_fire(state: GameState, unit: Unit, kind: MoveKind, fire: FireWhen) -> bool:
    """Whether the game's rule set lets the unit move and fire in one activation at all, wherever
    it goes and whatever it aims at (the check of an activation's actions together,
    :func:`engine.actions.activation.check_combination`: under the House Rules a support squad
    may not, s. 4)."""
    actions = moving_and_firing(unit.id, kind, unit.position, unit.id, fire).actions  # to and at: any
    try:
        check_combination(state, unit, actions, [action_type(state, a) for a in actions])
    except IllegalCommand:
        return False
    return True


def fires_with_move(
    state: GameState, unit_id: str, kind: MoveKind, point: Point, fire: FireWhen, at: Point | None = None
) -> bool:
    """Whether the unit may move to ``point`` and fire, the shot after the move or before it, at
    some enemy :func:`targets` offers from where the shot is fired (``point``, or where it stands;
    with the enemy where the reaction at ``at`` cuts in): one for which the whole order is one the
    engine takes. Once one is refused, a refused move ends the search: no other target helps."""
    unit = state.units[unit_id]
    table = seen_at(state, at)
    if fire == "after":
        table = moved_to(table, unit_id, point)
    move_checked = False
    for enemy, shot in _shots(table, unit_id, moving=True):
        if not may_have_effect(shot):
            continue
        order = moving_and_firing(unit_id, kind, point, enemy.id, fire)
        if is_legal(state, order_now(state, unit.side, order, at)):
            return True
        if not move_checked and not is_legal(
            state, order_now(state, unit.side, moving_to(unit_id, kind, point), at)
        ):
            return False
        move_checked = True
    return False


def moved_to(state: GameState, unit_id: str, point: Point) -> GameState:
    """The table with the unit moved straight to ``point``, facing the way the move leaves it
    (:func:`engine.geometry.end_facing`, as a move the rules accept ends), to measure its shots
    from there."""
    unit = state.units[unit_id]
    facing = end_facing(unit.facing, (unit.position, point))
    moved = unit.model_copy(update={"position": point, "facing": facing})
    return state.model_copy(update={"units": {**state.units, unit_id: moved}})


def _around(state: GameState, unit: Unit, kind: MoveKind) -> list[Point]:
    """The points an inch apart on the table within the mover's reach."""
    mover = state.units.get(unit.embarked_in or "", unit)
    if kind == "fall_back":
        reach = fall_back_allowance(mover.profile, reverse=False)
    else:
        reach = movement_allowance(mover.profile, rapid=kind == "rapid", road=False)
    here, steps = mover.position, math.floor(reach / SPACING)
    found = []
    for i in range(-steps, steps + 1):
        for j in range(-steps, steps + 1):
            x, y = here.x + i * SPACING, here.y + j * SPACING
            inside = 0 <= x <= state.table.width and 0 <= y <= state.table.depth
            if (i or j) and inside and math.hypot(i, j) * SPACING <= reach:
                found.append(Point(x=round(x, 2), y=round(y, 2)))
    return found


def targets(
    state: GameState, unit_id: str, *, moving: bool = False, among: Iterable[str] | None = None
) -> list[tuple[Unit, Fraction]]:
    """The enemy units (of ``among``, if given) the unit sees and may fire at as the table stands
    (``moving``: in an activation that also moves), each with the exact chance that the shot has
    an effect (a marker or damage or worse, :func:`engine.firing.odds.shot_odds`); a shot that
    can have none (a weapon too weak for the armour it meets) is left out."""
    found = []
    for enemy, odds in shots_and_odds(state, unit_id, moving=moving, among=among):
        effect = 1 - odds.outcomes.get(ShotOutcome.NO_EFFECT, Fraction(0))
        if effect > 0:
            found.append((enemy, effect))
    return found


def shots_and_odds(
    state: GameState, unit_id: str, *, moving: bool = False, among: Iterable[str] | None = None
) -> Iterator[tuple[Unit, ShotOdds]]:
    """The enemy units (of ``among``, if given) the unit sees and may fire at as the table
    stands, each with the exact chance of every outcome of its shot (:func:`shot_odds`)."""
    for enemy, shot in _shots(state, unit_id, moving=moving, among=among):
        yield enemy, shot_odds(shot)


def may_fire_at(state: GameState, unit_id: str, *, moving: bool = False) -> list[Unit]:
    """The enemies :func:`targets` offers, without working out each shot's chances: those for
    which some roll of the dice has an effect (a player weighing the shots plays them out)."""
    return [enemy for enemy, shot in _shots(state, unit_id, moving=moving) if may_have_effect(shot)]


def _shots(
    state: GameState, unit_id: str, *, moving: bool, among: Iterable[str] | None = None
) -> Iterator[tuple[Unit, Shot]]:
    """The shots the unit may take at enemy units (of ``among``, if given) as the table stands,
    nearest first, one at a time, so that a caller wanting only the first measures no more; an
    enemy out of sight is passed over before its shot is measured (and its refusal worded)."""
    unit = state.units[unit_id]
    asked = None if among is None else set(among)
    here = (unit.position.x, unit.position.y)
    for enemy in sorted(live_units(state), key=lambda e: math.dist(here, (e.position.x, e.position.y))):
        if enemy.side == unit.side or asked is not None and enemy.id not in asked:
            continue
        if not target_in_sight(state, unit, enemy):
            continue
        try:
            shot = table_shot(state, unit_id, enemy.id, moving=moving)
        except IllegalCommand:
            continue
        yield enemy, shot
