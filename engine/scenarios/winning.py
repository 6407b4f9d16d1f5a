"""The scenarios' own ways to win, checked at the end of a turn or of the game (pp. 30-31)."""

from __future__ import annotations

from engine import geometry
from engine.battlefield import live_units
from engine.game_state import GameResult, GameState
from engine.rules.scenario import breakthrough_succeeds, capture_attacker_wins, defender_near_objectives
from engine.state import Objective, Unit


def capture_result(state: GameState) -> GameResult | None:
    """Capture (p. 30): a whole turn with no defender within 12" of any objective wins for the
    attacker. Remembers this turn's answer for the next."""
    objectives = [o for o in state.objectives if counts_for(o, state.attacker or "")]
    if state.scenario != "capture" or state.attacker is None or not objectives:
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
