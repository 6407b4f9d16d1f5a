"""Close combat in play (House Rules V1.0, s. 6): the initiation test, the two rounds of fire
between infantry, and the attackers' fall back if the defenders stand. What may be assaulted
is checked in :mod:`engine.assault`."""

from __future__ import annotations

import math

from engine import geometry
from engine.events import EventLog
from engine.game_state import GameState
from engine.house.activation import close_combat_initiation_passes
from engine.house.close_combat import (
    ATTACKER_FALL_BACK,
    INFANTRY_ROUNDS,
    close_combat_column,
    close_combat_dice,
    close_combat_modifier,
)
from engine.house.firing import Protection, casualty_markers, casualty_score_needed, hits
from engine.house.shot import traits_of
from engine.resolve import add_markers
from engine.state import Point, Unit


def initiation_test(state: GameState, attacker: Unit, log: EventLog) -> bool:
    """s. 6: a second activation test, scored as a reaction for a morale test; no token."""
    roll = log.d6(f"close combat initiation, {attacker.name}")
    tokens = max(attacker.tokens - 1, 0)  # those already on it before this activation
    passed = close_combat_initiation_passes(traits_of(attacker), tokens, attacker.morale_markers, roll)
    log.emit(
        "close_combat",
        f"{attacker.name} goes in: initiation test rolled {roll}: {'passed' if passed else 'failed'}",
        attacker.id,
        side=attacker.side,
    )
    return passed


def fight(state: GameState, attacker: Unit, defender: Unit, log: EventLog) -> None:
    """s. 6 Infantry combat: contact, then two rounds in which the defenders fire first; if the
    defenders still stand, the attackers fall back 6" straight away from them."""
    _to_contact(attacker, defender)
    for round_number in range(1, INFANTRY_ROUNDS + 1):
        for firer, target in ((defender, attacker), (attacker, defender)):
            if firer.destroyed or target.destroyed:
                break
            _exchange(state, firer, target, round_number, log)
        if attacker.destroyed or defender.destroyed:
            break
    if not attacker.destroyed and not defender.destroyed:
        attacker.position = _away(attacker.position, defender.position, ATTACKER_FALL_BACK, state)
        log.emit(
            "close_combat",
            f"{defender.name} holds: {attacker.name} falls back to {attacker.position}",
            attacker.id,
            side=attacker.side,
        )


def _exchange(state: GameState, firer: Unit, target: Unit, round_number: int, log: EventLog) -> None:
    """One side's fire in a round: the to-hit throw, then the casualty throw in the open."""
    traits = traits_of(firer)
    modifiers = close_combat_modifier(traits, firer.morale_markers)
    total = sum(value for _, value in modifiers)
    rolls = [
        log.d10(f"close combat round {round_number}, {firer.name}") for _ in range(close_combat_dice(traits))
    ]
    scored = hits(rolls, total)
    needed = casualty_score_needed(close_combat_column(traits), Protection.OPEN)
    casualties = [log.d6(f"close combat casualty, {firer.name} at {target.name}") for _ in range(scored)]
    markers = casualty_markers(scored, casualties, needed)
    detail = ", ".join(f"{name} {value:+d}" for name, value in modifiers)
    text = (
        f"Round {round_number}: {firer.name} fires at {target.name}: "
        f"needs 5+{f' ({detail})' if detail else ''}; "
        f"rolled {', '.join(map(str, rolls))}: "
        + (f"{scored} hit{'s' * (scored != 1)}" if scored else "miss")
    )
    if scored:
        text += f"; casualty {needed}+ rolled {', '.join(map(str, casualties))}: {markers} marker(s)"
    log.emit("close_combat", text, firer.id, target.id, side=firer.side)
    add_markers(state, target, markers, log)


def _to_contact(attacker: Unit, defender: Unit) -> None:
    """The 3" dash: the attacker ends beside the defender, on its side of it."""
    gap = geometry.distance(attacker, defender)
    start, end = attacker.position, defender.position
    centres = math.dist((start.x, start.y), (end.x, end.y))
    if centres > 0 and gap > 0:
        step = min(gap, centres) / centres
        attacker.position = Point(
            x=round(start.x + (end.x - start.x) * step, 2), y=round(start.y + (end.y - start.y) * step, 2)
        )


def _away(point: Point, threat: Point, distance: float, state: GameState) -> Point:
    """``distance`` straight away from ``threat``, kept on the table."""
    dx, dy = point.x - threat.x, point.y - threat.y
    length = math.hypot(dx, dy) or 1.0
    x = point.x + dx / length * distance
    y = point.y + dy / length * distance
    return Point(
        x=round(min(max(x, 0.5), state.table.width - 0.5), 2),
        y=round(min(max(y, 0.5), state.table.depth - 0.5), 2),
    )
