"""Scenario special rules and the numbers the four scenarios set (Iron Cross 2015, pp. 26-31).

Each function applies one rule to numbers and dice already rolled; the game flow decides when.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from engine.profiles import UnitProfile

RESERVE_ARRIVES_ON = 3  # p. 26
EXTRA_TOKEN_ON = 5  # Capture, p. 30
BOMBARDMENT_HITS_ON = 9  # p. 26
OBJECTIVES_BASE = 4  # Meeting Engagement, p. 28
OBJECTIVE_EDGE_DISTANCE = 6.0  # inches from any table edge (p. 28)
CAPTURE_OBJECTIVE_FROM_CENTRELINE = 6.0  # p. 30
CAPTURE_DEFENDER_RADIUS = 12.0  # p. 30
BREAKTHROUGH_SPACING = 24.0  # p. 31; 18" on a 6' x 4' table
BREAKTHROUGH_SPACING_SMALL = 18.0
# The book (p. 26) keeps a claimed objective with its side until the enemy takes it, but does
# not say how one is claimed; we read it as a unit within 2" of it with no enemy as near.
OBJECTIVE_CLAIM_RANGE = 2.0


def aggressive_command_tokens(roll: int) -> int:
    """Aggressive Command (p. 26): the command unit brings a d6 of tokens, rolled every turn,
    in place of the usual two."""
    return roll


def capture_defender_extra_tokens(rolls: Sequence[int]) -> int:
    """Capture (p. 30): the defender rolls a d6 for every token drawn, the command unit's two
    included; each 5 or 6 is one more token."""
    return sum(1 for roll in rolls if roll >= EXTRA_TOKEN_ON)


def preliminary_bombardment_markers(roll: int, casualty_roll: int | None, casualty_needed: int | None) -> int:
    """Preliminary Bombardment (p. 26): a d10 per defending unit (not transports); 9+ puts a
    morale marker on it. Infantry and support squads so hit make the usual casualty roll
    (``casualty_needed`` from their cover, p. 10) for a second marker; vehicles (None) take no
    more."""
    if roll < BOMBARDMENT_HITS_ON:
        return 0
    if casualty_needed is None or casualty_roll is None:
        return 1
    return 2 if casualty_roll >= casualty_needed else 1


def reserves_available(rolls: Sequence[int], waiting: int) -> int:
    """Reserves (p. 26): a d6 for each unit the player calls in; each 3+ makes one of them
    available (owner's choice), never more than were called."""
    return min(waiting, sum(1 for roll in rolls if roll >= RESERVE_ARRIVES_ON))


def reserves_callable(
    turn: int, from_turn: int | None, *, half_first: bool, at_start: int, arrived: int
) -> int:
    """How many more reserves a side may call this turn (p. 26): none before the scenario's turn,
    in Escalating Engagement only half of them (rounded down) in that first turn (p. 29)."""
    if from_turn is None or turn < from_turn:
        return 0
    if half_first and turn == from_turn:
        return max(0, escalating_reserves_by_turn_2(at_start) - arrived)
    return at_start - arrived


def another_turn(roll: int) -> bool:
    """Random Operation Length (p. 26): after the last turn a d6 of 4+ adds one more turn, and
    only one."""
    return roll >= 4


def objectives_needed(points: int) -> int:
    """Meeting Engagement (p. 28): at least four objectives up to 1,000 points a side, and one
    more for each 500 points beyond (a part of 500 does not count)."""
    return OBJECTIVES_BASE + max(0, points - 1000) // 500


def units_on_table_at_start(units: int, share: Fraction) -> int:
    """How many units a side may start with on the table when a scenario allows "up to" a share
    of them (by number of units, pp. 28-30), rounded down."""
    return math.floor(units * share)


def escalating_reserves_by_turn_2(reserves: int) -> int:
    """Escalating Engagement (p. 29): up to half of the reserves may come on from turn 2 (rounded
    down); the rest from turn 3."""
    return reserves // 2


def attacker_points(defender_points: int) -> int:
    """Capture (p. 30): the attacker has twice the defender's points."""
    return 2 * defender_points


def scenario_points_problem(
    scenario_points: str, role: str, mine: int | None, theirs: int | None
) -> str | None:
    """Forces' points (pp. 28-31): equal, or in Capture the attacker twice the defender's.
    Checked against the other side's force once it is there."""
    if mine is None or theirs is None:
        return None
    if scenario_points == "equal" and mine != theirs:
        return f"both forces have the same points; this one is {mine} and the other {theirs}"
    if scenario_points == "attacker_double":
        attacker, defender = (mine, theirs) if role == "attacker" else (theirs, mine)
        if attacker != attacker_points(defender):
            return f"the attacker has twice the defender's points: {attacker} against {defender}"
    return None


def infantry_share_problem(forces: Sequence[UnitProfile], points_limit: int) -> str | None:
    """Breakthrough (p. 31): the defender spends at least half its points on infantry units,
    anti-tank guns, mortars and other support squads included."""
    on_foot = sum(u.points for u in forces if not u.unit_class.is_vehicle)
    if 2 * on_foot < points_limit:
        return (
            f"the defender must spend at least half of {points_limit} points on infantry and support "
            f"squads; {on_foot} is {math.ceil(points_limit / 2) - on_foot} short"
        )
    return None


def defender_near_objectives(distances: Sequence[float]) -> bool:
    """Capture (p. 30): whether any defending unit is within 12" of an objective, given each
    defender's distance to its nearest objective."""
    return any(d <= CAPTURE_DEFENDER_RADIUS for d in distances)


def objective_claimer(nearest_by_side: dict[str, float]) -> str | None:
    """The side that claims an objective (p. 26, as we read it): the only side with a unit
    within 2" of it. With both sides there, or neither, it stays with whoever held it."""
    close = [side for side, gap in nearest_by_side.items() if gap <= OBJECTIVE_CLAIM_RANGE]
    return close[0] if len(close) == 1 else None


def capture_attacker_wins(defenders_near_objective_now: bool, defenders_near_last_turn: bool) -> bool:
    """Capture (p. 30): if at the end of a turn no defender is within 12" of any objective, and
    at the end of the following turn there still is none, the attacker wins."""
    return not defenders_near_objective_now and not defenders_near_last_turn


def breakthrough_succeeds(bp_in_zone: int, attacker_total_bp: int) -> bool:
    """Breakthrough (p. 31): the attacker wins if, at the end of the game, units worth at least a
    third of his total BP stand in the third of the table furthest from his start line."""
    return 3 * bp_in_zone >= attacker_total_bp


def breakthrough_spacing(small_table: bool) -> float:
    """Breakthrough deployment (p. 31): defending units at least 24" apart (18" on a 6' x 4'
    table)."""
    return BREAKTHROUGH_SPACING_SMALL if small_table else BREAKTHROUGH_SPACING


def breakthrough_spacing_on(width: float, depth: float) -> float:
    """Breakthrough's spacing on a table of this size: 24", 18" on a 6' x 4' table (p. 31); on
    a table smaller still, 18" shrunk with its longer side (our reading of p. 27, which asks
    players to modify the scenarios for small tables: seven units 18" apart do not fit in the
    two thirds of a 4' x 4' table the defender may use)."""
    small = width <= 72.0 and depth <= 48.0
    spacing = breakthrough_spacing(small)
    if small:
        spacing *= min(1.0, max(width, depth) / 72.0)
    return spacing


def hidden_markers(units: int) -> int:
    """Hidden Deployment (p. 26): one and a half numbered markers per real unit, rounded up
    (sniper teams are left out of the count by the caller)."""
    return math.ceil(units * 3 / 2)


MARKER_SPOTTING_RANGE = 4.0  # p. 26


def marker_revealed_in_open(is_vehicle: bool, in_open: bool, in_enemy_sight: bool) -> bool:
    """Hidden Deployment (p. 26), first reveal: a marker that is really a vehicle, standing in
    the open where an enemy unit has a clear line of sight to it."""
    return is_vehicle and in_open and in_enemy_sight


def marker_revealed_by_infantry(distance: float, infantry_rapid_moved: bool) -> bool:
    """Hidden Deployment (p. 26), second reveal: any marker within 4" of an enemy infantry unit
    that did not make a rapid move this turn."""
    return distance <= MARKER_SPOTTING_RANGE and not infantry_rapid_moved


def may_stop_spending_tokens(enemy_revealed: bool, tokens_drawn: int, tokens_left: int) -> bool:
    """Hidden Deployment (p. 26): until an enemy unit has been revealed the attacker must go on
    spending command tokens, until at least half of the turn's tokens are spent."""
    return enemy_revealed or 2 * (tokens_drawn - tokens_left) >= tokens_drawn


def dug_in_seizes_initiative(first_attempt: bool, passed: bool) -> bool:
    """Dug In and Waiting (p. 26): dug-in units react on the usual 3+, and take the initiative
    if the very first reaction they try in the battle succeeds."""
    return first_attempt and passed
