"""What one audience may see: the only place the renderer decides about hidden information.

A hidden unit shows normally to its own side and to the referee. Everyone else (the enemy and
spectators) sees nothing of it, except that a hidden sniper with a dummy marker shows as two
identical "?" markers, one where it is and one at the dummy, sorted by position so that not even
the drawing order tells them apart; under hidden deployment every marker, unit or dummy, shows
as the same "?" with its number. The overlay of the last action may only mention units in
``known``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import REFEREE
from engine.game_state import GameState
from engine.state import Point, Unit

Marker = tuple[Point, str]  # where a "?" marker stands, and its caption ("" for none)


@dataclass(frozen=True)
class View:
    units: tuple[Unit, ...]  # drawn as themselves (live or destroyed)
    markers: tuple[Marker, ...]  # "?" markers: anonymous, or numbered under hidden deployment
    dummies: tuple[Marker, ...]  # dummy markers the viewer knows are dummies (owner, referee)
    known: frozenset[str]  # ids of the units drawn as themselves
    passengers: dict[str, int]  # transport id -> units carried


def sees(unit: Unit, viewer: str | None) -> bool:
    """Whether the viewer may know this unit: it is not hidden, or it is theirs, or they referee."""
    return not unit.hidden or viewer == REFEREE or (viewer is not None and unit.side == viewer)


def view_for(state: GameState, viewer: str | None) -> View:
    units: list[Unit] = []
    markers: list[Marker] = []
    dummies: list[Marker] = []
    passengers: dict[str, int] = {}
    for unit in state.units.values():
        if unit.in_reserve or (unit.dummy and unit.destroyed):
            continue
        number = "" if unit.marker is None else str(unit.marker)
        if not sees(unit, viewer):
            if unit.destroyed or unit.embarked_in is not None:
                continue
            if unit.marker is not None:
                markers.append((unit.position, number))
            elif unit.decoy is not None:
                markers += [(unit.position, ""), (unit.decoy, "")]
            continue
        if unit.dummy:
            dummies.append((unit.position, f"dummy {number}"))
            continue
        if unit.embarked_in is not None:
            passengers[unit.embarked_in] = passengers.get(unit.embarked_in, 0) + 1
            continue
        units.append(unit)
        if unit.hidden and unit.decoy is not None and not unit.destroyed:
            dummies.append((unit.decoy, "dummy"))
    return View(
        units=tuple(units),
        markers=tuple(sorted(markers, key=lambda m: (m[0].x, m[0].y))),
        dummies=tuple(dummies),
        known=frozenset(u.id for u in units),
        passengers=passengers,
    )
