"""The scenarios' own ways to win besides breaking the enemy (pp. 28-31), registered by name:
a scenario names in ``engine/data/scenarios.yaml`` the one checked at the end of each turn
(``won_at_turn_end``) and the one that decides when the last turn is over (``won_at_the_end``),
so the flow never asks which scenario is played."""

from __future__ import annotations

from collections.abc import Callable

from engine import geometry
from engine.battlefield import live_units
from engine.game_state import GameResult, GameState
from engine.rules.scenario import breakthrough_succeeds, capture_attacker_wins, defender_near_objectives
from engine.scenarios.book import find_scenario
from engine.state import Objective, Unit
from engine.wording import counted, side_name

TurnEndCondition = Callable[[GameState], GameResult | None]
EndCondition = Callable[[GameState], GameResult]

AT_TURN_END: dict[str, TurnEndCondition] = {}
AT_THE_END: dict[str, EndCondition] = {}


def at_turn_end(name: str) -> Callable[[TurnEndCondition], TurnEndCondition]:
    """Register a way to win checked at the end of each turn under ``name``."""

    def register(condition: TurnEndCondition) -> TurnEndCondition:
        AT_TURN_END[name] = condition
        return condition

    return register


def at_the_end(name: str) -> Callable[[EndCondition], EndCondition]:
    """Register a way to decide the game when its last turn is over under ``name``."""

    def register(condition: EndCondition) -> EndCondition:
        AT_THE_END[name] = condition
        return condition

    return register


def turn_end_result(state: GameState) -> GameResult | None:
    """The result the played scenario's end-of-turn condition gives, if it has one and it is met."""
    name = find_scenario(state.scenario).won_at_turn_end if state.scenario else None
    return AT_TURN_END[name](state) if name else None


def end_result(state: GameState) -> GameResult:
    """Who wins when the last turn is over, by the played scenario's condition; a game with no
    book scenario counts its objectives (p. 28)."""
    name = find_scenario(state.scenario).won_at_the_end if state.scenario else "objectives_held"
    return AT_THE_END[name](state)


@at_turn_end("objectives_left_bare")
def capture_result(state: GameState) -> GameResult | None:
    """Capture (p. 30): a whole turn with no defender within 12" of any objective wins for the
    attacker. Remembers this turn's answer for the next."""
    objectives = [o for o in state.objectives if counts_for(o, state.attacker or "")]
    if state.attacker is None or not objectives:
        return None
    defender = state.other_side(state.attacker)
    distances = [
        min(geometry.distance_to_point(unit, o.position) for o in objectives)
        for unit in live_units(state, defender)
    ]
    bare = not defender_near_objectives(distances)
    won = capture_attacker_wins(
        defenders_near_objective_now=not bare, defenders_near_last_turn=not state.objectives_left_bare
    )
    state.objectives_left_bare = bare
    if won:
        return GameResult(
            winner=state.attacker,
            reason=f'no {defender} unit came within 12" of an objective for a whole turn',
        )
    return None


def counts_for(objective: Objective, side: str) -> bool:
    """Whether an objective counts towards a side's victory: the scenario's count for both sides;
    one the referee set for a single side (p. 25: the sides may have different objectives)
    counts for that side only, though the enemy may still take it from them."""
    return objective.side is None or objective.side == side


def objectives_held(state: GameState) -> dict[str, int]:
    """Meeting Engagement (p. 28): with both forces unbroken at the end, the objectives each side
    holds decide; each side counts those held that count for it (:func:`counts_for`)."""
    return {
        name: sum(1 for o in state.objectives if o.held_by == name and counts_for(o, name))
        for name in state.sides
    }


@at_the_end("objectives_held")
def objectives_result(state: GameState) -> GameResult:
    """Meeting Engagement (p. 28), and Capture when time runs out (p. 30): the side holding
    more objectives wins; as many each is a draw."""
    held = objectives_held(state)
    first, second = sorted(held)
    if held[first] == held[second]:
        return GameResult(winner=None, reason="time ran out with the objectives shared")
    winner = first if held[first] > held[second] else second
    return GameResult(
        winner=winner, reason=f"time ran out; {side_name(winner)} hold {counted(held[winner], 'objective')}"
    )


def in_far_third(state: GameState, unit: Unit, start_edge: str) -> bool:
    """Whether a unit stands in the third of the table furthest from an edge (p. 31)."""
    width, depth = state.table.width, state.table.depth
    x, y = unit.position.x, unit.position.y
    return {
        "near": y >= depth * 2 / 3,
        "far": y <= depth / 3,
        "left": x >= width * 2 / 3,
        "right": x <= width / 3,
    }[start_edge]


@at_the_end("attacker_in_far_third")
def breakthrough_result(state: GameState) -> GameResult:
    """Breakthrough (p. 31): at the end, a third of the attacker's total BP in the far third of
    the table wins; otherwise reinforcements arrive and the attacker withdraws."""
    assert state.attacker is not None
    attacker = state.attacker
    edge = state.sides[attacker].entry_edge
    total = sum(u.profile.break_points for u in state.units_of(attacker))
    in_zone = sum(u.profile.break_points for u in live_units(state, attacker) if in_far_third(state, u, edge))
    if breakthrough_succeeds(in_zone, total):
        return GameResult(
            winner=attacker, reason=f"{attacker} broke through with {in_zone} of {total} BP in the far third"
        )
    return GameResult(
        winner=state.other_side(attacker),
        reason=f"{attacker} has {in_zone} of {total} BP in the far third, short of a third: it withdraws",
    )
