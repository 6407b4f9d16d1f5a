"""The force the stand-in brings to a scenario game: bought with the force builder
(:mod:`engine.forces`) like a player's ``/force``, within the scenario's points for its side, and
legal by every restriction of the orders of battle (pp. 18-24).

It buys infantry detachments until they are half its points (a Breakthrough defender must spend
that much on infantry, p. 31, and they hold objectives), then whatever else still fits, drawn
from its nation's order of battle in an order its seed shuffles, each unit kept only if the
force stays legal; its first detachment is the command unit (p. 18).
"""

from __future__ import annotations

import random

from engine.commands import JoinSide
from engine.errors import IllegalCommand
from engine.forces import (
    MOST_UNITS,
    Force,
    add_unit,
    bought_as,
    choose_command,
    force_points,
    force_problems,
    force_units,
    new_force,
    order_of_battle,
)
from engine.profiles import UnitClass
from engine.rules.scenario import attacker_points, defends
from engine.scenarios.book import find_scenario
from engine.state import STAND_IN, STAND_IN_NAME

FORCE_NAME = "The bot's force"


def stand_in_points(scenario_id: str, role: str, points: int) -> int:
    """The points limit of the stand-in's force in a scenario played at ``points`` a side: twice
    them for the attacker where the book doubles its force (Capture, p. 30)."""
    doubled = find_scenario(scenario_id).points == "attacker_double" and role == "attacker"
    return attacker_points(points) if doubled else points


def stand_in_force(nation: str, points_limit: int, role: str, rules: str, seed: int = 0) -> Force:
    """A legal force of ``nation`` within ``points_limit``, for its ``role`` in the scenario."""
    defending = defends(role)
    rng = random.Random(seed)
    entries = order_of_battle(nation, rules)
    force = new_force(nation, FORCE_NAME, points_limit, rules=rules)
    while len(force.units) < MOST_UNITS:
        infantry_short = 2 * _infantry_points(force) < points_limit
        drawn = rng.sample(entries, len(entries))
        drawn.sort(key=lambda name: not (infantry_short and _is_infantry(force, name)))
        bought = next((f for f in (_bought(force, name, defending) for name in drawn) if f), None)
        if bought is None:
            break
        force = bought
    if not force.units or force_problems(force, defending=defending):
        raise IllegalCommand(f"The bot finds no legal {nation} force within {points_limit} points")
    return force


def stand_in_joins(scenario_id: str, side: str, role: str, nation: str, points: int, rules: str) -> JoinSide:
    """The stand-in taking ``side`` of a scenario game with a force of its own."""
    force = stand_in_force(nation, stand_in_points(scenario_id, role, points), role, rules)
    return JoinSide(
        side=side,
        player=STAND_IN,
        name=STAND_IN_NAME,
        nation=nation,
        units=tuple(force_units(force, side)),
        points_limit=force.points_limit,
        rules=rules,
    )


def _is_infantry(force: Force, name: str) -> bool:
    return bought_as(force, name).unit_class is UnitClass.INFANTRY


def _infantry_points(force: Force) -> int:
    return sum(bought_as(force, u.profile).points for u in force.units if _is_infantry(force, u.profile))


def _bought(force: Force, name: str, defending: bool) -> Force | None:
    """The force with one more ``name`` (its first unit the command unit), if still legal."""
    if force_points(force) + bought_as(force, name).points > force.points_limit:
        return None
    try:
        more = add_unit(force, name)
        if len(more.units) == 1:
            more = choose_command(more, more.units[0].label)
    except IllegalCommand:
        return None
    return None if force_problems(more, defending=defending) else more
