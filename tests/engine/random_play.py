"""A random player: legal-ish random commands, for whole-game property tests and benchmarks."""

from __future__ import annotations

import math
import random

from engine import geometry
from engine.battlefield import live_units, visible_enemies
from engine.commands import (
    AnswerReserve,
    CallReserves,
    ChooseInitiative,
    Command,
    Declare,
    DeclineReaction,
    FallBackOrder,
    Fire,
    GiveBonusTokens,
    MoraleTestOrder,
    Move,
    PassInitiative,
    React,
    RequestReserve,
    StartGame,
    UnitOrder,
)
from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import apply, awaiting
from engine.game_state import GameState
from engine.orders import unit_in_the_way
from engine.rules.movement import movement_allowance
from engine.rulesets import rules_of
from engine.state import Phase, Point, Unit
from engine.teams import co_lost


def _step_towards(state: GameState, unit: Unit, rng: random.Random, scale: float) -> Point:
    mover = state.units[unit.embarked_in] if unit.embarked_in else unit
    reach = movement_allowance(mover.profile, rapid=False, road=False) * scale
    enemies = [e for e in live_units(state) if e.side != unit.side]
    if enemies and rng.random() < 0.7:
        target = rng.choice(enemies).position
        heading = math.atan2(target.y - mover.position.y, target.x - mover.position.x)
    else:
        heading = rng.uniform(0, 2 * math.pi)
    heading += rng.uniform(-0.6, 0.6)
    dist = rng.uniform(0.3, 1.0) * reach
    x = min(max(mover.position.x + dist * math.cos(heading), 0.5), state.table.width - 0.5)
    y = min(max(mover.position.y + dist * math.sin(heading), 0.5), state.table.depth - 0.5)
    path = (mover.position, Point(x=x, y=y))
    facing = geometry.end_facing(mover.facing, path)

    def blocked(reach: float) -> bool:  # stop in contact with the first unit in the way
        way = (mover.position, geometry.point_along(path, reach))
        return unit_in_the_way(state, mover, way, facing) is not None

    end = geometry.point_along(path, geometry.furthest_clear(geometry.path_length(path), blocked))
    return Point(x=round(end.x, 2), y=round(end.y, 2))


def random_unit_order(state: GameState, side: str, rng: random.Random) -> UnitOrder | FallBackOrder:
    units = [u for u in live_units(state, side) if not u.bogged and not u.platoon_moved]
    if not units:
        raise IllegalCommand(f"{side} has no unit to give an order to")
    unit = rng.choice(units)
    targets = visible_enemies(state, unit)
    roll = rng.random()
    if roll < 0.05:
        return FallBackOrder(unit=unit.id, path=(_step_towards(state, unit, rng, 0.8),))
    actions: list = []
    if targets and roll < 0.75:
        fire = Fire(target=rng.choice(targets).id)
        if rng.random() < 0.4:
            actions = [Move(path=(_step_towards(state, unit, rng, 0.45),)), fire]
        else:
            actions = [fire]
    else:
        actions = [Move(path=(_step_towards(state, unit, rng, 0.9),))]
    return UnitOrder(unit=unit.id, actions=tuple(actions))


def entering_order(state: GameState, unit: Unit, rng: random.Random) -> UnitOrder:
    """An available reserve comes on at a random point of its side's edge and moves in a little."""
    edge = state.sides[unit.side].entry_edge
    width, depth = state.table.width, state.table.depth
    along = rng.uniform(2, (width if edge in ("near", "far") else depth) - 2)
    entry, step = {
        "near": (Point(x=along, y=0), Point(x=along, y=3)),
        "far": (Point(x=along, y=depth), Point(x=along, y=depth - 3)),
        "left": (Point(x=0, y=along), Point(x=3, y=along)),
        "right": (Point(x=width, y=along), Point(x=width - 3, y=along)),
    }[edge]
    return UnitOrder(unit=unit.id, actions=(Move(path=(entry, step)),))


def _payer(state: GameState, side: str, rng: random.Random) -> str | None:
    """In a team game, a player of the side whose tokens pay for an order that names no unit."""
    team = state.sides[side].team
    if team is None:
        return None
    holding = sorted(player for player, tokens in team.tokens.items() if tokens > 0)
    return rng.choice(holding) if holding else team.co


def team_business(state: GameState, rng: random.Random) -> Command | None:
    """In a team game, the active side's CO hands out the turn's bonus tokens while they can;
    now and then a player asks for a unit of the CO's reserve pool and the CO answers (p. 25)."""
    side = state.active_side
    team = state.sides[side].team if side and state.phase is Phase.ACTIVE else None
    if team is None:
        return None
    players = state.sides[side].players
    if team.bonus and not co_lost(state, side):
        return GiveBonusTokens(side=side, player=team.co, shares=((rng.choice(players), team.bonus),))
    if rng.random() < 0.5:
        return None
    if team.requests:
        unit = rng.choice(team.requests).unit
        return AnswerReserve(side=side, player=team.co, unit=unit, grant=rng.random() < 0.7)
    pool = [u.id for u in state.units_of(side) if u.in_reserve and not (u.destroyed or u.reserve_available)]
    if pool and rng.random() < 0.3:
        return RequestReserve(side=side, player=rng.choice(players), unit=rng.choice(pool))
    return None


def random_command(state: GameState, rng: random.Random) -> Command:
    side = awaiting(state)
    if state.phase is Phase.SETUP:
        return StartGame()
    assert side is not None
    if state.phase is Phase.RESERVES:
        waiting = [u.id for u in state.units_of(side) if u.in_reserve and not u.destroyed]
        return CallReserves(side=side, units=tuple(rng.sample(waiting, rng.randint(0, len(waiting)))))
    if state.phase is Phase.INITIATIVE:
        return ChooseInitiative(side=side, go_first=rng.random() < 0.7)
    pending = state.pending
    if state.phase is Phase.CHOICE:
        assert pending and pending.choice
        return rng.choice(rules_of(state).answers(pending.choice))
    if state.phase is Phase.REACTION:
        assert pending
        if rng.random() < 0.6:
            return DeclineReaction(side=side, window=pending.window)
        if rng.random() < 0.15:
            return React(
                side=side, window=pending.window, order=MoraleTestOrder(), player=_payer(state, side, rng)
            )
        return React(side=side, window=pending.window, order=random_unit_order(state, side, rng))
    roll = rng.random()
    if roll < 0.08:
        return PassInitiative(side=side)
    if roll < 0.16:
        return Declare(side=side, order=MoraleTestOrder(), player=_payer(state, side, rng))
    arriving = [u for u in state.units_of(side) if u.reserve_available]
    if arriving and rng.random() < 0.5:
        return Declare(side=side, order=entering_order(state, rng.choice(arriving), rng))
    return Declare(side=side, order=random_unit_order(state, side, rng))


def apply_purely(state: GameState, command: Command, dice: SeededDice) -> tuple[GameState, list[Event]]:
    """Apply a command and check the engine's promise: the state given to it reads exactly as
    before, whether the command was played or refused."""
    before = state.model_dump_json()
    try:
        return apply(state, command, dice)
    finally:
        assert state.model_dump_json() == before, f"{command!r} changed the state it was given"


def play_random_game(
    state: GameState, seed: int, max_commands: int = 3000
) -> tuple[GameState, list[tuple[Command, list[Event]]]]:
    """Play until the game is over; returns the final state and the (command, events) history.
    Every command, played or refused, is checked to leave the state it was given unchanged."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    history: list[tuple[Command, list[Event]]] = []
    for _ in range(max_commands):
        if state.phase is Phase.OVER:
            break
        for _attempt in range(40):
            try:
                command = team_business(state, rng) or random_command(state, rng)
                state, events = apply_purely(state, command, dice)
            except IllegalCommand:
                continue
            history.append((command, events))
            break
        else:
            side = awaiting(state)
            command = (
                Declare(side=side, order=MoraleTestOrder(), player=_payer(state, side, rng))
                if state.phase is Phase.ACTIVE
                else DeclineReaction(side=side, window=state.pending.window)
            )
            state, events = apply_purely(state, command, dice)
            history.append((command, events))
    return state, history
