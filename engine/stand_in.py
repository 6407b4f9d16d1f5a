"""The stand-in: the bot playing a side by the rules, choosing among the orders the engine takes.

At each decision the side must make, the stand-in lists what it could say (:func:`options`):
every unit that may act firing at each enemy it may hurt, moving toward its goal (an objective
it does not hold, else the enemy) or a little to either side, moving and firing; a Company
Morale Test; passing; in a reaction window, declining or firing back; the calls, choices and
set-up of the other phases. Each is weighed by playing it on copies of the game with a few
throws of seeded dice (the enemy declining to react), and scoring the tables that result
(:func:`standing`): what each side has lost in points, destroyed or pinned by markers, the
chance each force breaks at the turn's end as its losses stand (p. 27), objectives held, command
tokens in hand, the game's result, and how near each unit stands to its goal and whether in
cover. A move is worth that less the :func:`danger` it walks its unit into: what every enemy
shot at it where it ends is expected to cost, by the engine's exact odds, beyond what it stood
in before (the enemy will react, and have its turn). The engine refuses an illegal option before
it rolls a die, so only legal ones are weighed; the best on average is the order given.

What it is handed is the game as the engine holds it: in a battle with hidden set-up or dummy
markers, its weighing knows where the hidden units are, which its side's player would not (its
orders name only units its side may name, as the engine checks).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import TypeAdapter

from engine.actions.registry import activation_moves, game_order_options, order_actions
from engine.battlefield import area_cover, command_unit_lost, live_units, lost_break_points
from engine.commands import (
    CallReserves,
    ChooseInitiative,
    Command,
    Declare,
    DeclineReaction,
    Deploy,
    FinishDeployment,
    Fire,
    MoraleTestOrder,
    Move,
    PassInitiative,
    StartGame,
    UnitOrder,
)
from engine.deployment.placing import may_still_set_up, whose_turn
from engine.deployment.plan import Box
from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.firing.odds import ShotOdds, ShotOutcome
from engine.game import apply, awaiting
from engine.game_state import GameState
from engine.geometry import distance, footprint_at, point_toward
from engine.legality import (
    is_legal,
    may_fire_at,
    moving_and_firing,
    moving_to,
    order_now,
    shots_and_odds,
    units_that_may_act,
)
from engine.profiles import Special
from engine.rules.movement import movement_allowance
from engine.rules.victory import break_point_test
from engine.rulesets import rules_of
from engine.state import STAND_IN, CoverKind, Phase, Point, Unit

THROWS = 4  # games played out with different dice for each order weighed
MARKER_COST = 0.15  # of a unit's points, each morale marker it carries
BROKEN = 1000.0
OBJECTIVE = 60.0  # points an objective held is worth: it stays held until the enemy claims it (p. 26)
WON = 10_000.0
TOWARD = 0.005  # of a unit's points, each inch nearer its goal: less than a shot's markers
COVER = 0.05  # of a unit's points, standing in cover
TOKEN = 2.0  # points a command token in hand is worth: an activation or a reaction still to come
SET_UP_TRIES = 60
DANGER = 2.0  # times a move's danger counts: the enemy may fire more than once, in reactions and its turn
DAMAGED = 0.5  # of a vehicle's points, a Screech! (it may be knocked out, or fight on weakened)
CHARGE_REACH = 3.0  # inches beyond a move's reach within which an enemy is looked at to close with (s. 6)
CHARGE_GAP = 1.0  # inches short of the enemy's base that a move to close with it stops
WAYS = ((0.95, 0.0), (0.8, 0.7), (0.8, -0.7))  # a step toward the goal: share of its reach, turn aside
AROUND = ((0.8, 1.4), (0.8, -1.4), (0.6, 2.1), (0.6, -2.1))  # wider, where those are all refused
SHORTER = (1.0, 0.6, 0.3)  # of a refused step's length, the shorter steps tried in its stead
MARKERS = {ShotOutcome.ONE_MARKER: 1, ShotOutcome.TWO_MARKERS: 2, ShotOutcome.THREE_MARKERS: 3}


@dataclass(frozen=True)
class Weighed:
    """An order the stand-in considered, and what it is worth on average to its side."""

    command: Command
    worth: float


def side_stood_in(state: GameState) -> str | None:
    """The side the game waits for now, if the stand-in is its one player; None otherwise (also
    before a game starts: a player starts it)."""
    side = awaiting(state)
    if state.phase is Phase.SETUP and state.deployment is not None:
        side = whose_turn(state.deployment)
    if side is None or side not in state.sides:
        return None
    return side if state.sides[side].players == [STAND_IN] else None


def stand_in_command(state: GameState, side: str, seed: int = 0, throws: int = THROWS) -> Command:
    """What the stand-in says for ``side`` now: the best of the legal :func:`options`, each
    weighed over ``throws`` throws of the dice."""
    return best(state, side, seed, throws).command


def best(state: GameState, side: str, seed: int = 0, throws: int = THROWS) -> Weighed:
    """The legal option worth most to ``side``, its worth (the first of equals, so the same game
    and seed always give the same order). Playing an option out is also its check: the engine
    refuses an illegal command before it rolls a die.

    The danger a move walks into (:func:`worth`) is the dearest part to work out, so it is
    worked out only for the move that leads, until a move leads with its danger counted or an
    order that moves nothing leads: no move is passed over that its danger would not have sunk
    (a move whose danger it would have lessened is not looked for)."""
    played, dangers = [], {}
    for command in options(state, side, random.Random(seed)):
        try:
            played.append((command, *_played_out(state, side, command, seed, throws)))
        except IllegalCommand:
            continue
    if not played:
        raise IllegalCommand(f"The stand-in finds nothing {side} may do now")
    weighed = [Weighed(command, average) for command, average, _ in played]
    risked: set[int] = set()
    while True:
        leader = max(range(len(weighed)), key=lambda n: weighed[n].worth)
        command, average, after = played[leader]
        if leader in risked or _mover(state, command) is None:
            return weighed[leader]
        risked.add(leader)
        weighed[leader] = Weighed(command, average - _risk(state, after, command, dangers))


def worth(
    state: GameState,
    side: str,
    command: Command,
    seed: int,
    throws: int = THROWS,
) -> float:
    """The average :func:`standing` of ``side`` after the command, over ``throws`` throws of the
    dice (one, if the command rolls none), the enemy declining any reaction window it opens;
    less, for a move, :data:`DANGER` times the :func:`danger` it walks its unit into (after the
    first throw) beyond what it stood in where it was."""
    average, after = _played_out(state, side, command, seed, throws)
    return average - _risk(state, after, command, {})


def _played_out(
    state: GameState, side: str, command: Command, seed: int, throws: int
) -> tuple[float, GameState]:
    """The average standing after the command (:func:`worth`), and the table after its first throw."""
    total, first = 0.0, state
    for throw in range(throws):
        dice = _Counted(seed * 7919 + throw)
        after, _ = apply(state, command, dice)
        while after.phase is Phase.REACTION and after.pending and after.pending.reactor_side != side:
            declined = DeclineReaction(side=after.pending.reactor_side, window=after.pending.window)
            after, _ = apply(after, declined, dice)
        total += standing(after, side)
        first = after if throw == 0 else first
        if not dice.rolled:
            return total / (throw + 1), first
    return total / throws, first


def _risk(
    state: GameState, after: GameState, command: Command, known: dict[tuple[str, Point], float]
) -> float:
    """What a move's danger costs: :data:`DANGER` times the danger where its unit ends, beyond
    the danger where it stood (nothing, for an order that moves no unit)."""
    mover = _mover(state, command)
    if mover is None:
        return 0.0
    return DANGER * (_danger_at(after, mover, known) - _danger_at(state, mover, known))


def _mover(state: GameState, command: Command) -> str | None:
    """The unit a command moves, if it orders one that moves (:func:`activation_moves`)."""
    order = getattr(command, "order", None)
    unit = getattr(order, "unit", None)
    if unit is not None and activation_moves(state, getattr(order, "actions", ())):
        return unit
    return None


def _danger_at(state: GameState, unit_id: str, known: dict[tuple[str, Point], float]) -> float:
    """:func:`danger`, worked out once for each place a unit may stand in one decision."""
    key = (unit_id, state.units[unit_id].position)
    if key not in known:
        known[key] = danger(state, unit_id)
    return known[key]


def danger(state: GameState, unit_id: str) -> float:
    """What a unit stands to lose, in points, if every enemy unit that sees it fires at it as the
    table stands (the enemy's reactions, and its next turn): the sum of each shot's expected
    markers and damage (:func:`engine.firing.odds.shot_odds`), at most the unit's points."""
    unit = state.units[unit_id]
    if unit.destroyed or not unit.on_table:
        return 0.0
    points = float(unit.profile.points)
    lost = 0.0
    for enemy in live_units(state):
        if enemy.side == unit.side or enemy.dummy or not enemy.on_table:
            continue
        for _, odds in shots_and_odds(state, enemy.id, among=(unit_id,)):
            lost += _expected_loss(odds, points)
    return min(lost, points)


def _expected_loss(odds: ShotOdds, points: float) -> float:
    """A shot's expected cost to its target, in points."""
    lost = 0.0
    for outcome, chance in odds.outcomes.items():
        share = MARKER_COST * MARKERS[outcome] if outcome in MARKERS else DAMAGED
        if outcome in (ShotOutcome.DESTROYED, ShotOutcome.KABOOM):
            share = 1.0
        elif outcome is ShotOutcome.NO_EFFECT:
            share = 0.0
        lost += float(chance) * share * points
    return lost


class _Counted(SeededDice):
    """Seeded dice that count what they rolled."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.rolled = 0

    def roll(self, sides: int, purpose: str) -> int:
        self.rolled += 1
        return super().roll(sides, purpose)


def standing(state: GameState, side: str) -> float:
    """How well the table stands for ``side``: the enemy's losses less its own, in points (a
    destroyed unit its points, each marker :data:`MARKER_COST` of them), forces broken,
    objectives held, command tokens in hand, the game won or lost; and each unit's place: nearer
    its goal, in cover."""
    if state.phase is Phase.OVER and state.result is not None:
        return 0.0 if state.result.winner is None else WON if state.result.winner == side else -WON
    score = 0.0
    goals = _goals(state)
    for unit in state.units.values():
        if unit.dummy:
            continue
        own = 1.0 if unit.side == side else -1.0
        points = float(unit.profile.points)
        if unit.destroyed:
            score -= own * points
            continue
        score -= own * points * MARKER_COST * unit.morale_markers
        toward = 0.0 if unit.side != side and _closing_on_each_other(state, unit.side) else _toward(state)
        if unit.on_table:
            score += own * points * _placed(state, unit, goals.get(unit.side, ()), toward)
        elif unit.in_reserve:  # as far from its goal as the table allows
            score -= own * points * toward * math.hypot(state.table.width, state.table.depth)
    for name, other in state.sides.items():
        breaking = 1.0 if other.broken else _break_chance(state, name)
        score += (-BROKEN if name == side else BROKEN) * breaking
        score += (TOKEN if name == side else -TOKEN) * other.tokens
    for objective in state.objectives:
        if objective.held_by is not None and objective.side in (None, objective.held_by):
            score += OBJECTIVE if objective.held_by == side else -OBJECTIVE
    return score


def _break_chance(state: GameState, side: str) -> float:
    """The chance the side breaks at the next break point test, as its losses stand (p. 27)."""
    held = state.sides[side]
    if not held.break_point:  # not yet set: no force brought
        return 0.0
    lost, commander = lost_break_points(state, side), command_unit_lost(state, side)
    tests = (
        break_point_test(lost, roll, commander_lost=commander, break_point=held.break_point)
        for roll in range(1, 7)
    )
    return sum(test.broken for test in tests) / 6


def _goals(state: GameState) -> dict[str, tuple[Point, ...]]:
    """Where each side's units are drawn: the objectives it may hold, else the enemy's units."""
    goals: dict[str, tuple[Point, ...]] = {}
    for name in state.sides:
        enemy = [u.position for u in live_units(state) if u.side != name]
        goals[name] = tuple(_objectives_left(state, name) or enemy)
    return goals


def _objectives_left(state: GameState, name: str) -> list[Point]:
    """The objectives side ``name`` may hold and does not."""
    return [o.position for o in state.objectives if o.side in (None, name) and o.held_by != name]


def _closing_on_each_other(state: GameState, name: str) -> bool:
    """Whether side ``name``'s goals are the enemy's units (no objective left to it) in a battle
    fought until a force breaks (:func:`_toward`)."""
    return state.last_turn is None and not _objectives_left(state, name)


def _placed(state: GameState, unit: Unit, goals: tuple[Point, ...], toward: float) -> float:
    """What a unit's place is worth, in shares of its points: nearer its nearest goal (``toward``
    for each inch), in cover."""
    near = min((math.dist((unit.position.x, unit.position.y), (g.x, g.y)) for g in goals), default=0.0)
    covered = COVER if area_cover(state, unit) is not CoverKind.OPEN else 0.0
    return covered - toward * near


def _toward(state: GameState) -> float:
    """What each inch nearer its goal is worth, in shares of a unit's points: :data:`TOWARD`; in
    a battle fought until a force breaks (Escalating Engagement, p. 29), as many times more as
    turns have gone, so that two wary forces close at last rather than wait for ever. There the
    goals are the enemy's units, so a unit closing on one brings that one nearer its own goal
    too: :func:`standing` then counts only the side's own closing, or the two would cancel out
    and neither side would ever move up (:func:`_closing_on_each_other`)."""
    return TOWARD * (max(1, state.turn) if state.last_turn is None else 1)


# --- what the stand-in could say --------------------------------------------------------------


def options(state: GameState, side: str, rng: random.Random) -> Iterator[Command]:
    """Everything the stand-in considers saying for ``side`` now (not yet checked as legal)."""
    plan = state.deployment
    if plan is not None and side in plan.sides and not plan.sides[side].done:
        yield from _setting_up(state, side, rng)
        return
    if state.phase is Phase.SETUP:
        yield StartGame()
        return
    if awaiting(state) != side:
        return
    pending = state.pending
    if state.phase is Phase.RESERVES:
        waiting = tuple(u.id for u in state.units_of(side) if u.in_reserve and not u.destroyed)
        yield CallReserves(side=side, units=waiting)
        yield CallReserves(side=side, units=())
    elif state.phase is Phase.INITIATIVE:
        yield ChooseInitiative(side=side, go_first=True)
        yield ChooseInitiative(side=side, go_first=False)
    elif state.phase is Phase.CHOICE and pending is not None and pending.choice is not None:
        yield from rules_of(state).answers(pending.choice)
    elif state.phase is Phase.REACTION and pending is not None:
        yield DeclineReaction(side=side, window=pending.window)
        yield from _orders(state, side, moving=False)
    elif state.phase is Phase.ACTIVE:
        yield PassInitiative(side=side)
        yield Declare(side=side, order=MoraleTestOrder())  # also a token spent, where none can act
        yield from _orders(state, side, moving=True)
        yield from _entering(state, side)


def _orders(state: GameState, side: str, moving: bool) -> Iterator[Command]:
    """Each unit that may act: a shot at each enemy it may hurt; close combat where the rule set
    has it (:func:`_charges`); and if ``moving``, the :func:`_steps` it may take and the first of
    them with a shot after it."""
    goals = _goals(state).get(side, ())
    for may in units_that_may_act(state, side):
        unit = may.unit
        if not unit.on_table:
            continue
        for enemy in may_fire_at(state, unit.id):
            yield order_now(state, side, UnitOrder(unit=unit.id, actions=(Fire(target=enemy.id),)))
        yield from _charges(state, side, unit, moving)
        if not moving:
            continue
        steps = _steps(state, side, unit, goals)
        yield from (order_now(state, side, moving_to(unit.id, "move", point)) for point in steps)
        nearest = _nearest_enemy(state, unit)
        if steps and nearest is not None:
            yield order_now(state, side, moving_and_firing(unit.id, "move", steps[0], nearest.id, "after"))


def _charges(state: GameState, side: str, unit: Unit, moving: bool) -> Iterator[Command]:
    """Where the game's rule set has an action aimed at an enemy by a button of its own, as taps
    give it (close combat, House Rules s. 6): at each enemy within :data:`CHARGE_REACH` of the
    unit from where it stands, and if ``moving`` at each within reach of a move straight at it
    that stops :data:`CHARGE_GAP` short (in a reaction, only where the action may react)."""
    options = game_order_options(state).values()
    aimed = [o for o in options if o.kind == "unit" and o.whose == "enemy" and o.tap is not None]
    if state.phase is Phase.REACTION:
        aimed = [option for option in aimed if option.reacts]
    if not aimed or unit.embarked_in is not None:
        return
    reach = movement_allowance(unit.profile, rapid=False, road=False)
    for enemy in live_units(state):
        if enemy.side == unit.side or enemy.hidden or not enemy.on_table or enemy.embarked_in:
            continue
        gap = distance(unit, enemy)
        if gap > CHARGE_REACH + (reach if moving else 0.0):
            continue
        for option in aimed:
            if gap <= CHARGE_REACH:
                at_once = order_actions({option.name: enemy.id})
                yield order_now(state, side, UnitOrder(unit=unit.id, actions=at_once))
            if moving and CHARGE_GAP < gap <= reach + CHARGE_GAP:
                point = point_toward(unit.position, enemy.position, gap - CHARGE_GAP)
                after_move = order_actions({"move": (point,), option.name: enemy.id})
                yield order_now(state, side, UnitOrder(unit=unit.id, actions=after_move))


def _nearest_enemy(state: GameState, unit: Unit) -> Unit | None:
    here = (unit.position.x, unit.position.y)
    enemies = [u for u in live_units(state) if u.side != unit.side]
    return min(enemies, key=lambda e: math.dist(here, (e.position.x, e.position.y)), default=None)


def _steps(state: GameState, side: str, unit: Unit, goals: tuple[Point, ...]) -> list[Point]:
    """Where a unit might move: most of its reach toward its nearest goal, most of it a little
    to either side, and toward its next-nearest goal. A step the engine refuses (ending too near
    an enemy, on another unit, in a building; through a unit) is tried shorter, at
    :data:`SHORTER` of its length, before it is given up, so that forces mixed together can
    still move among each other; where all are refused, steps turned wider aside
    (:data:`AROUND`) find the way round what stands in it (a building between the forces)."""
    mover = state.units.get(unit.embarked_in or "", unit)
    reach = movement_allowance(mover.profile, rapid=False, road=False)
    here = (mover.position.x, mover.position.y)
    nearest = sorted(goals, key=lambda g: math.dist(here, (g.x, g.y)))[:2]
    ways = [(goal, share, turn) for goal in nearest[:1] for share, turn in WAYS]
    ways += [(goal, 0.95, 0.0) for goal in nearest[1:]]
    ways += [(goal, share, turn) for goal in nearest[:1] for share, turn in AROUND]
    found: list[Point] = []
    for number, (goal, share, turn) in enumerate(ways):
        if found and number >= len(ways) - len(AROUND):
            break
        heading = math.atan2(goal.y - here[1], goal.x - here[0])
        longest = min(reach * share, math.dist(here, (goal.x, goal.y)) - 1.0)
        for shorter in SHORTER:
            length = longest * shorter
            if length < 0.5:
                break
            x, y = here[0] + length * math.cos(heading + turn), here[1] + length * math.sin(heading + turn)
            point = Point(x=round(x, 1), y=round(y, 1))
            if not (0 <= x <= state.table.width and 0 <= y <= state.table.depth) or point in found:
                break
            if is_legal(state, order_now(state, side, moving_to(unit.id, "move", point))):
                found.append(point)
                break
    return found


def _entering(state: GameState, side: str) -> Iterator[Command]:
    """Each reserve that must come on this turn: on its side's edge, at a few points along it."""
    edge = state.sides[side].entry_edge
    width, depth = state.table.width, state.table.depth
    length = width if edge in ("near", "far") else depth
    for unit in state.units_of(side):
        if not unit.reserve_available:
            continue
        for share in (0.25, 0.5, 0.75):
            along = round(length * share, 1)
            entry, step = {
                "near": (Point(x=along, y=0), Point(x=along, y=4)),
                "far": (Point(x=along, y=depth), Point(x=along, y=depth - 4)),
                "left": (Point(x=0, y=along), Point(x=4, y=along)),
                "right": (Point(x=width, y=along), Point(x=width - 4, y=along)),
            }[edge]
            yield Declare(side=side, order=UnitOrder(unit=unit.id, actions=(Move(path=(entry, step)),)))


def _setting_up(state: GameState, side: str, rng: random.Random) -> Iterator[Command]:
    """Set-up: the next unit waiting, facing the table's middle, at points drawn across the
    side's area (the engine refuses those too close to another unit or on impassable ground);
    where the scenario keeps the side's units apart (Breakthrough's defender, p. 31), at the
    points of a grid that far apart from the area's corner, so that all of them fit; a
    sniper team with its dummy marker at the next point (p. 20). Else done."""
    plan = state.deployment
    waiting = may_still_set_up(state, side)
    if plan is not None and waiting:
        unit = state.units[waiting[0]]
        reach = movement_allowance(unit.profile, rapid=False, road=False)
        areas = plan.sides[side].zone.rectangles(state.table, reach)
        spacing = plan.sides[side].spacing
        placed = [(u.position.x, u.position.y) for u in state.units_of(side) if u.on_table]
        step = math.ceil((spacing + max(_across(u) for u in state.units_of(side))) * 10) / 10 + 0.1
        points = (_spaced(areas, step, placed) if spacing else []) or _drawn(areas, rng)
        middle = (state.table.width / 2, state.table.depth / 2)
        sniper = unit.profile.has(Special.SNIPER)  # with its dummy marker at the next point (p. 20)
        for at, decoy in zip(points, [*points[1:], points[0]], strict=True):
            facing = math.degrees(math.atan2(middle[1] - at.y, middle[0] - at.x)) % 360
            yield Deploy(
                side=side, unit=unit.id, at=at, facing=round(facing), decoy=decoy if sniper else None
            )
    yield FinishDeployment(side=side)


def taken_over_from(state: GameState, player: str) -> str | None:
    """The side the bot took over by itself from ``player`` when they missed the game's
    deadlines (:attr:`GameState.stand_in_after`): their next command hands it back."""
    return next(
        (s.name for s in state.sides.values() if s.stood_in_for == player and s.stood_in_by == STAND_IN),
        None,
    )


ORDER = TypeAdapter(Command)


def order_in_json(asked: tuple[str, str, int]) -> bytes:
    """A worker process's job: the stand-in's order (:func:`stand_in_command`) for the game given
    as JSON, with the side and the seed; the order as JSON."""
    state, side, seed = asked
    return ORDER.dump_json(stand_in_command(GameState.model_validate_json(state), side, seed))


def _drawn(areas: list[Box], rng: random.Random) -> list[Point]:
    found = []
    for _ in range(SET_UP_TRIES):
        x0, y0, x1, y1 = rng.choice(areas)
        found.append(
            Point(x=round(rng.uniform(x0 + 0.5, x1 - 0.5), 1), y=round(rng.uniform(y0 + 0.5, y1 - 0.5), 1))
        )
    return found


def _across(unit: Unit) -> float:
    """How wide a unit's base is at its widest, corner to corner: two units whose middles are a
    scenario's spacing and this much apart (the wider one's) are the spacing apart edge to edge,
    however they face."""
    corners = footprint_at(unit.unit_class, Point(x=0, y=0), 0).exterior.coords
    return max(math.dist(a, b) for a in corners for b in corners)


def _spaced(areas: list[Box], step: float, placed: list[tuple[float, float]]) -> list[Point]:
    """The points of a grid across each area, ``step`` apart (a tenth of an inch more than the
    spacing needs, so that points rounded to tenths still are), those as far from the units
    already placed."""
    found = []
    for x0, y0, x1, y1 in areas:
        for column in range(int((x1 - x0 - 1.0) // step) + 1):
            for row in range(int((y1 - y0 - 1.0) // step) + 1):
                at = (round(x0 + 0.5 + column * step, 1), round(y0 + 0.5 + row * step, 1))
                if all(math.dist(at, other) >= step - 0.05 for other in placed):
                    found.append(Point(x=at[0], y=at[1]))
    return found
