"""Hidden deployment and dug-in defenders on the table (Iron Cross 2015, p. 26).

Every unit of the hiding side (sniper teams aside) goes on the table as a numbered marker, and
half as many again dummy markers go with them. While hidden, a unit is known to everyone else
only as "Marker N": its name is swapped for the marker's and it moves at infantry rates, so no
event, picture or modifier tells the enemy what is underneath. Dummies are markers with nothing
underneath: they are not units (they draw no tokens, count for nothing and are left out of
:func:`engine.battlefield.live_units`) and are taken off when revealed.
"""

from __future__ import annotations

from engine import geometry
from engine.battlefield import can_see, cover_of
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.game_state import GameState
from engine.profiles import Drive, Special, UnitClass, UnitProfile
from engine.rules.scenario import (
    hidden_markers,
    marker_revealed_by_infantry,
    marker_revealed_in_open,
    may_stop_spending_tokens,
)
from engine.state import CoverKind, Point, Unit


def marker_profile(nation: str) -> UnitProfile:
    """What a hidden marker is to the enemy: a foot unit of no value, moving at infantry rates."""
    return UnitProfile(
        name="hidden marker",
        nation=nation,
        unit_class=UnitClass.INFANTRY,
        weapon=None,
        morale=None,
        points=0,
        break_points=0,
        drive=Drive.FOOT,
    )


def under_marker(unit: Unit) -> bool:
    return unit.hidden and unit.marker is not None


def as_seen(unit: Unit) -> Unit:
    """The unit as the enemy knows it: a hidden marker stands in for what is underneath (p. 26)."""
    if not under_marker(unit):
        return unit
    return unit.model_copy(update={"profile": marker_profile(unit.profile.nation)})


def add_dummy_markers(state: GameState, side: str) -> list[str]:
    """The dummies that make up a side's 1.5 markers per unit, waiting off the table (p. 26);
    transports, like sniper teams, are left out of the count, as from every other count of units."""
    real = [
        u
        for u in state.units_of(side)
        if not (u.profile.has(Special.SNIPER) or u.profile.has(Special.TRANSPORT))
    ]
    nation = state.sides[side].nation
    ids = []
    for number in range(1, hidden_markers(len(real)) - len(real) + 1):
        dummy = Unit(
            id=f"{side}-dummy-{number}",
            name=f"Dummy {number}",
            side=side,
            profile=marker_profile(nation),
            position=Point(x=0, y=0),
            dummy=True,
            hidden=True,
            in_reserve=True,
        )
        state.units[dummy.id] = dummy
        ids.append(dummy.id)
    return ids


def hide_under_marker(state: GameState, unit: Unit) -> int:
    """Set a unit (or dummy) up as the side's next numbered marker; returns its number. The
    owner picks which unit goes next, so the numbers tell the enemy nothing."""
    number = 1 + max((u.marker or 0 for u in state.units_of(unit.side)), default=0)
    unit.hidden, unit.marker, unit.true_name = True, number, unit.name
    unit.name = f"Marker {number}"
    return number


def reveal_marker(state: GameState, unit: Unit, log: EventLog, why: str) -> None:
    """Turn a marker over (p. 26): a dummy comes off the table, a unit is known from now on and
    never hides again."""
    unit.hidden = False
    if unit.dummy:
        unit.destroyed = True
        log.emit("revealed", f"{unit.name} is revealed ({why}): a dummy, taken off", unit.id, side=unit.side)
        return
    marker, unit.name, unit.true_name = unit.name, unit.true_name or unit.name, None
    what = unit.name if unit.name == unit.profile.name else f"{unit.name} ({unit.profile.name})"
    log.emit("revealed", f"{marker} is revealed ({why}): {what}", unit.id, side=unit.side)


def check_marker_reveals(state: GameState, log: EventLog) -> None:
    """After each move, reveal every marker the enemy may ask to see (p. 26): one within 4" of
    its infantry that did not rapid move this turn, or a vehicle in the open in its sight."""
    for marker in [u for u in state.units.values() if under_marker(u) and u.on_table and not u.embarked_in]:
        enemies = [
            e
            for e in state.units.values()
            if e.side != marker.side and e.on_table and not e.hidden and not e.embarked_in and not e.dummy
        ]
        why = _reveal_reason(state, marker, enemies)
        if why:
            reveal_marker(state, marker, log, why)


def _reveal_reason(state: GameState, marker: Unit, enemies: list[Unit]) -> str | None:
    for enemy in enemies:
        if enemy.unit_class is UnitClass.INFANTRY and marker_revealed_by_infantry(
            geometry.distance(enemy, as_seen(marker)),  # measured to the marker, whatever is under it
            enemy.rapid_moved,
        ):
            return f'{enemy.name} is within 4"'
    if marker.dummy or not marker.is_vehicle:
        return None
    seen = marker.model_copy(update={"hidden": False})
    for enemy in enemies:
        in_open = cover_of(state, seen, enemy) is CoverKind.OPEN
        if marker_revealed_in_open(True, in_open, can_see(state, enemy, seen)):
            return f"a vehicle in the open, in sight of {enemy.name}"
    return None


def enemy_revealed(state: GameState, side: str) -> bool:
    """Whether any of the other side's markers has turned out to be a unit (p. 26)."""
    return any(
        u.marker is not None and not u.hidden and not u.dummy for u in state.units.values() if u.side != side
    )


def must_keep_spending(state: GameState, side: str, tokens: int) -> str | None:
    """Why the attacker facing hidden markers, with ``tokens`` in hand, may not stop spending
    them yet, or None (p. 26)."""
    if side != state.attacker or not any(u.marker is not None for u in state.units.values()):
        return None
    mine = state.sides[side]
    if may_stop_spending_tokens(enemy_revealed(state, side), mine.tokens_drawn, tokens):
        return None
    spent = mine.tokens_drawn - tokens
    return (
        "Until an enemy unit is revealed you must keep spending command tokens until half of them "
        f"are spent ({spent} of {mine.tokens_drawn} so far)"
    )


def check_marker_order(unit: Unit, kinds: list[str]) -> None:
    """A hidden marker may move, or fire and so be revealed (p. 26); a dummy can only move."""
    if not under_marker(unit):
        return
    if unit.dummy and "fire" in kinds:
        raise IllegalCommand(f"{unit.name} is a dummy marker: it can only move")
    if set(kinds) - {"move", "fire"}:
        raise IllegalCommand(f"{unit.name} is hidden: it may only move, or fire and be revealed")
