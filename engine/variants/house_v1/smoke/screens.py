"""Smoke under the House Rules V1.0 (s. 5 Smoke): 2" puffs fired at a spot, joined into
screens, blocking sight, and thinning one puff a turn from the end the wind takes."""

from __future__ import annotations

import math

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from engine import geometry
from engine.dice import DieCategory
from engine.errors import IllegalCommand
from engine.event_data import FireData
from engine.events import EventLog
from engine.game_state import GameState
from engine.profiles import Special, UnitClass
from engine.state import Point, Unit
from engine.variants.house_v1.citation import cited
from engine.variants.house_v1.firing import (
    FireCategory,
    FireSituation,
    Weapon,
    hits,
    to_hit_dice,
    to_hit_modifiers,
    to_hit_throw,
)
from engine.variants.house_v1.shot import traits_of
from engine.variants.house_v1.smoke.rules import PUFF_WIDTH, End, puff_removed_from
from engine.variants.house_v1.state import SmokeScreen


def check_smoke_round(state: GameState, unit: Unit, at: Point | None) -> None:
    """Direct smoke: a gun able to fire HE aims at a spot it can see."""
    if at is None:
        raise IllegalCommand("Under the house rules smoke is fired at a spot: give it (smoke at x,y)")
    if traits_of(unit).he is None or unit.unit_class is UnitClass.INFANTRY:
        raise IllegalCommand(f"{unit.name} has no gun to fire smoke with")
    if unit.profile.has(Special.MORTAR):
        raise IllegalCommand(f"{unit.name} fires indirectly only: smoke at the fire marker (bombard smoke)")
    if not (0 <= at.x <= state.table.width and 0 <= at.y <= state.table.depth):
        raise IllegalCommand(f"{at} is off the table")
    if not geometry.line_of_sight(unit.position, at, state.terrain) or blocked_by_smoke(
        state, unit.position, at
    ):
        raise IllegalCommand(f"{unit.name} cannot see {at}")


def fire_smoke_round(state: GameState, unit: Unit, at: Point, log: EventLog) -> None:
    """The normal direct-fire to-hit throw at the spot; a hit puts a puff there."""
    distance = geometry.distance_to_point(unit, at)
    situation = FireSituation(FireCategory.HE, firer_markers=unit.morale_markers)
    modifiers = to_hit_modifiers(situation)
    modifier = sum(value for _, value in modifiers)
    rolls = [
        log.roll_against(
            10, f"smoke round, {unit.name}", lambda face: hits([face], modifier) > 0, DieCategory.TO_HIT
        )
        for _ in range(to_hit_dice(Weapon.GUN, distance))
    ]
    landed = hits(rolls, modifier) > 0
    text = f"{unit.name} fires smoke at {at}: needs 5+; rolled {', '.join(map(str, rolls))}: "
    fired = FireData(
        firer=unit.id, target=None, at=at, distance=distance, to_hit=to_hit_throw(modifiers, rolls)
    )
    told = cited(text + ("on target" if landed else "wide"), "5.97")
    log.emit("smoke", told, unit.id, side=unit.side, data=fired)
    if landed:
        add_puff(state, at, log)


def add_puff(state: GameState, at: Point, log: EventLog) -> None:
    """A puff within 2" of a screen goes next to it and lengthens it; else it starts a screen."""
    for index, screen in enumerate(state.smoke_screens):
        nearest = min(screen.puffs, key=lambda p: math.dist((p.x, p.y), (at.x, at.y)))
        gap = math.dist((nearest.x, nearest.y), (at.x, at.y))
        if gap <= PUFF_WIDTH:
            if gap:
                step = PUFF_WIDTH / gap
                at = Point(
                    x=round(nearest.x + (at.x - nearest.x) * step, 2),
                    y=round(nearest.y + (at.y - nearest.y) * step, 2),
                )
            state.smoke_screens[index] = screen.model_copy(update={"puffs": _in_line((*screen.puffs, at))})
            log.emit("smoke", f"The smoke screen grows to {len(screen.puffs) + 1} puffs, with one at {at}")
            return
    state.smoke_screens.append(SmokeScreen(puffs=(at,)))
    log.emit("smoke", f"A puff of smoke at {at}")


def _in_line(puffs: tuple[Point, ...]) -> tuple[Point, ...]:
    """A screen's puffs from its left end to its right (by x, then y)."""
    return tuple(sorted(puffs, key=lambda p: (p.x, p.y)))


def blocked_by_smoke(state: GameState, a: Point, b: Point) -> bool:
    """Smoke blocks observation (s. 5): a line of sight through any puff is blocked."""
    if not state.smoke_screens:
        return False
    sight = LineString([(a.x, a.y), (b.x, b.y)])
    return any(
        sight.distance(ShapelyPoint(p.x, p.y)) < PUFF_WIDTH / 2
        for screen in state.smoke_screens
        for p in screen.puffs
    )


def thin_smoke(state: GameState, log: EventLog) -> None:
    """End of turn: an isolated puff goes; a longer screen loses one puff from the end the wind
    takes. The first time a d6 chooses (1-3 left, 4-5 right, a 6 thrown again); after that, for
    this and every other screen, 1-5 keeps the wind and a 6 turns it."""
    kept = []
    for screen in state.smoke_screens:
        if len(screen.puffs) == 1:
            log.emit("smoke", f"The puff of smoke at {screen.puffs[0]} clears")
            continue
        end = None
        while end is None:
            roll = log.d6("smoke drift")
            end = puff_removed_from(roll, End(state.wind) if state.wind else None)
        state.wind = end.value
        puffs = screen.puffs[1:] if end is End.LEFT else screen.puffs[:-1]
        gone = screen.puffs[0] if end is End.LEFT else screen.puffs[-1]
        text = f"The wind thins the screen from the {end.value} (d6 {roll}): the puff at {gone} clears"
        log.emit("smoke", cited(text, "5.97"))
        kept.append(SmokeScreen(puffs=puffs))
    state.smoke_screens = kept
