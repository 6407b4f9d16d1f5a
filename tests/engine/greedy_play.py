"""A greedy player, for measuring the stand-in against: it always takes the best immediate shot
(the highest exact chance of an effect, :func:`engine.legality.targets`), in its turn and in a
reaction window; with no shot to take it moves a unit toward the enemy; the rest at random."""

from __future__ import annotations

import random

from engine.commands import Command, Declare, DeclineReaction, Fire, Move, React, UnitOrder
from engine.game import awaiting
from engine.game_state import GameState
from engine.legality import targets, units_that_may_act
from engine.state import Phase
from tests.engine.random_play import _step_towards, random_command


def greedy_command(state: GameState, rng: random.Random) -> Command:
    side = awaiting(state)
    if side is None or state.phase not in (Phase.ACTIVE, Phase.REACTION):
        return random_command(state, rng)
    shots = [
        (chance, may.unit.id, enemy.id)
        for may in units_that_may_act(state, side)
        if may.unit.on_table
        for enemy, chance in targets(state, may.unit.id)
    ]
    if shots:
        _, unit, target = max(shots)
        order = UnitOrder(unit=unit, actions=(Fire(target=target),))
        if state.phase is Phase.REACTION:
            return React(side=side, window=state.pending.window, order=order)
        return Declare(side=side, order=order)
    if state.phase is Phase.REACTION:
        return DeclineReaction(side=side, window=state.pending.window)
    movers = [may.unit for may in units_that_may_act(state, side) if may.unit.on_table]
    if not movers:
        return random_command(state, rng)
    unit = rng.choice(movers)
    return Declare(
        side=side,
        order=UnitOrder(unit=unit.id, actions=(Move(path=(_step_towards(state, unit, rng, 0.9),)),)),
    )
