"""What one audience may see: the only place the renderer decides about hidden information.

A hidden unit shows normally to its own side and to the referee. Everyone else (the enemy and
spectators) sees nothing of it, except that a hidden unit with a dummy marker shows as two
identical "?" markers, one where it is and one at the dummy, sorted by position so that not even
the drawing order tells them apart. The overlay of the last action may only mention units in
``known``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game_state import GameState
from engine.state import Point, Unit

REFEREE = "referee"


@dataclass(frozen=True)
class View:
    units: tuple[Unit, ...]  # drawn as themselves (live or destroyed)
    markers: tuple[Point, ...]  # anonymous "?" markers
    dummies: tuple[Point, ...]  # dummy markers the viewer knows are dummies (owner, referee)
    known: frozenset[str]  # ids of the units drawn as themselves
    passengers: dict[str, int]  # transport id -> units carried


def sees(unit: Unit, viewer: str | None) -> bool:
    """Whether the viewer may know this unit: it is not hidden, or it is theirs, or they referee."""
    return not unit.hidden or viewer == REFEREE or (viewer is not None and unit.side == viewer)


def view_for(state: GameState, viewer: str | None) -> View:
    units: list[Unit] = []
    markers: list[Point] = []
    dummies: list[Point] = []
    passengers: dict[str, int] = {}
    for unit in state.units.values():
        if unit.in_reserve:
            continue
        if not sees(unit, viewer):
            if unit.decoy is not None and not unit.destroyed and unit.embarked_in is None:
                markers += [unit.position, unit.decoy]
            continue
        if unit.embarked_in is not None:
            passengers[unit.embarked_in] = passengers.get(unit.embarked_in, 0) + 1
            continue
        units.append(unit)
        if unit.hidden and unit.decoy is not None and not unit.destroyed:
            dummies.append(unit.decoy)
    return View(
        units=tuple(units),
        markers=tuple(sorted(markers, key=lambda p: (p.x, p.y))),
        dummies=tuple(dummies),
        known=frozenset(u.id for u in units),
        passengers=passengers,
    )
