"""Whole games with the stand-in (engine.stand_in), for its tests and its benchmark: a quick
battle on a random table, a book scenario on one with the forces the stand-in buys, and playing
either to its end, the stand-in taking the sides it is given and an opponent the others."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.commands import Command
from engine.deployment.placing import whose_turn
from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.game import apply, awaiting
from engine.game_state import GameState
from engine.legality import is_legal
from engine.rulesets import with_rule_set
from engine.scenarios.book import find_scenario
from engine.scenarios.quick_battle import allied_forces, quick_battle, scenario_battle
from engine.stand_in import stand_in_command
from engine.stand_in_force import stand_in_joins, stand_in_points
from engine.state import Phase
from engine.tables.generate import random_table

SCENARIOS = {
    "meeting": {},
    "escalating": {},
    "capture": {"attacker": "axis"},
    "breakthrough": {"attacker": "allies", "attacker_choice": "aggressive_command"},
}
MOST_COMMANDS = 3000
CHEAPEST = 20  # points: about the cheapest unit a force may buy

Opponent = Callable[[GameState, random.Random], Command]


def allies_of(seed: int) -> str:
    return allied_forces()[seed % len(allied_forces())]


def random_quick_battle(rules: str, seed: int) -> GameState:
    """A quick battle on the random table of ``seed``, an allied force drawn by it."""
    return with_rule_set(quick_battle(random_table(seed), allies_of(seed)), rules)


def stand_ins_scenario(scenario: str, rules: str, seed: int, points: int) -> GameState:
    """A book scenario on the random table of ``seed`` at ``points`` a side, both forces bought
    by the stand-in (its second side under another player's name: one player plays one side)."""
    state = with_rule_set(scenario_battle(scenario, random_table(seed), **SCENARIOS[scenario]), rules)
    roles = state.planned_scenario.roles
    doubled = find_scenario(scenario).points == "attacker_double"
    dice = SeededDice(seed)
    for side, nation in (("allies", allies_of(seed)), ("axis", "german")):
        # in Capture the attacker must cost twice what the defender does (p. 30): the defender
        # spends a little less than its limit, as the attacker may fall a cheap unit short of its own
        spent = points - CHEAPEST if doubled and roles[side] == "defender" else points
        joining = stand_in_joins(scenario, side, roles[side], nation, spent, rules)
        bot = {"player": f"bot {side}", "points_limit": stand_in_points(scenario, roles[side], points)}
        state, _ = apply(state, joining.model_copy(update=bot), dice)
    return state


def side_to_act(state: GameState) -> str:
    """The side the game waits for, or the side setting up now (either, before it starts)."""
    side = awaiting(state)
    if side is None and state.deployment is not None:
        side = whose_turn(state.deployment)
    return side or next(iter(state.sides))


@dataclass
class Played:
    """A game played out: how it ended, and what the stand-in did on the way."""

    state: GameState
    illegal: int = 0
    decisions: list[float] = field(default_factory=list)  # ms of CPU for each of its orders


def play_out(
    state: GameState,
    seed: int,
    throws: int,
    stand_ins: tuple[str, ...] = ("allies", "axis"),
    opponent: Opponent | None = None,
) -> Played:
    """The game to its end: the stand-in playing ``stand_ins``, ``opponent`` the other side (its
    refused commands tried again; with nothing found, the stand-in's own choice for it)."""
    played = Played(state)
    dice, rng = SeededDice(seed), random.Random(seed)
    for number in range(MOST_COMMANDS):
        if played.state.phase is Phase.OVER:
            break
        side = side_to_act(played.state)
        if side in stand_ins or opponent is None:
            started = time.process_time()
            command = stand_in_command(played.state, side, seed * 100_000 + number, throws)
            played.decisions.append((time.process_time() - started) * 1000)
            if not is_legal(played.state, command):
                played.illegal += 1
        else:
            command = _opponent_command(played.state, opponent, rng, side, seed)
        played.state, _ = apply(played.state, command, dice)
    return played


def _opponent_command(
    state: GameState, opponent: Opponent, rng: random.Random, side: str, seed: int
) -> Command:
    for _ in range(40):
        try:
            command = opponent(state, rng)
        except IllegalCommand:  # it found nothing to say this time (no unit it may order, say)
            continue
        if is_legal(state, command):
            return command
    return stand_in_command(state, side, seed, 1)


def result_for(state: GameState, side: str) -> str:
    """ "won", "drawn" or "lost" for ``side``; "unfinished" if the game never ended."""
    if state.phase is not Phase.OVER or state.result is None:
        return "unfinished"
    winner = state.result.winner
    return "drawn" if winner is None else "won" if winner == side else "lost"
