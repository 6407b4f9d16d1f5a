"""Reading what players type: positions, paths and unit names.

Positions are table inches ``x,y`` or a grid square such as ``D3`` (6" squares, columns A, B,
C... from the left edge, rows 1, 2, 3... from the near edge), meaning the square's centre,
optionally with an offset in inches: ``D3+1,-2``. A move may also be given as a distance
toward a unit: ``6 toward panzer-iv``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Literal, get_args

from engine.commands import CallReserves, Disembark, Embark, Fire, LaySmoke, Move, UnitOrder
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.names import closest, either
from engine.orders import toward
from engine.state import Point
from engine.variants.house_v1.commands import (
    Bombard,
    CloseCombat,
    EnterBuilding,
    LeaveBuilding,
    RequestFire,
    ShellBuilding,
)
from engine.view import REFEREE, names_for, sees

GRID = 6.0
FACING_FROM_EDGE = {"near": 90.0, "far": 270.0, "left": 0.0, "right": 180.0}  # facing into the table
_TOWARD = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:\"|in)?\s+toward\s+(.+)$", re.IGNORECASE)
_SQUARE = re.compile(r"^([A-Za-z])(\d{1,2})(?:\+(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?))?$")


def parse_point(text: str | Point) -> Point:
    """A position as typed; one already read (a Discord option's) is taken as it is."""
    if isinstance(text, Point):
        return text
    text = text.strip().replace(" ", "")
    square = _SQUARE.match(text)
    if square:
        column, row, dx, dy = square.groups()
        x = (ord(column.upper()) - ord("A")) * GRID + GRID / 2 + float(dx or 0)
        y = (int(row) - 1) * GRID + GRID / 2 + float(dy or 0)
        return Point(x=x, y=y)
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise IllegalCommand(
            f"{text!r} is not a position: write inches as x,y (e.g. 30,18) or a grid square (e.g. D3)"
        ) from None
    return Point(x=x, y=y)


def parse_path(text: str) -> tuple[Point, ...]:
    """Waypoints separated by ``;``."""
    return tuple(parse_point(part) for part in text.split(";") if part.strip())


def parse_move(state: GameState, unit_id: str, text: str) -> tuple[Point, ...]:
    """A move's waypoints, or a straight move of some inches toward a unit, stopping in contact."""
    toward_unit = _TOWARD.match(text.strip())
    if not toward_unit:
        return parse_path(text)
    unit = state.units[unit_id]
    goal = state.units[find_unit(state, toward_unit.group(2), known_to=unit.side)]
    return (toward(state, unit, goal, float(toward_unit.group(1))),)


def _key(name: str) -> str:
    return name.strip().casefold().replace(" ", "-")


def find_unit(
    state: GameState,
    name: str,
    side: str | None = None,
    *,
    targets: bool = False,
    known_to: str | None = None,
) -> str:
    """A unit's id from its id or name (any case, spaces or dashes); suggests near misses.
    :mod:`engine.view` decides which units may be named, and by what (:func:`names_for`):
    ``targets`` leaves out hidden units (a name aimed at must not tell that one is there) but an
    enemy marker answers to its label; ``known_to`` leaves out those that side may not know. A
    side's own hidden marker answers to its true name too; near misses suggest names, never ids,
    and never a unit the asker may not know of."""
    wanted = _key(name)
    asker = REFEREE if known_to is None else known_to  # nobody named: any unit may be
    named = []  # what a near miss may suggest: only names the asker may know
    for unit in state.units.values():
        names = names_for(unit, asker, aiming=targets) if side is None or unit.side == side else ()
        own_names = (unit.true_name,) if names and unit.true_name and side == unit.side else ()
        if wanted in {_key(n) for n in (*names, *own_names)}:
            return unit.id
        if names and (sees(unit, side) or unit.marker is not None):  # a marker by its label
            named.append(unit.name)
    close = closest(name, named)
    hint = f" Did you mean {either(close)}?" if close else ""
    raise IllegalCommand(f"No unit called {name!r}.{hint}")


@dataclass(frozen=True)
class OrderWords:
    """A unit's order as a player gives it: the options of ``/act`` and ``/react``."""

    unit: str
    move: str | None = None
    fire: str | None = None
    first: Literal["move", "fire"] = "move"
    rapid: bool = False
    reverse: bool = False
    road: bool = False
    smoke: bool = False
    embark: str | None = None
    disembark: str | Point | None = None
    assault: str | None = None  # close combat under the House Rules V1.0
    call_fire: str | Point | None = None  # a spotter calls indirect fire here (House Rules V1.0)
    bombard: bool = False  # fire indirectly at the side's fire marker (House Rules V1.0)
    smoke_at: str | Point | None = None  # a gun's smoke round at this spot (House Rules V1.0)
    # gun, mg, hull_mg (+hull_mg), light_mortar, second_gun (House Rules V1.0); a flame tank's
    # flamethrower, a British infantry command unit's light_mortar (its 2" mortar; both p. 22)
    weapon: str | None = None
    overrun: bool = True  # an AFV's assault drives through, or else falls back (House Rules V1.0)
    enter: str | None = None  # a building to go into, after any move (House Rules V1.0)
    leave: str | Point | None = None  # come out of the building to here first (House Rules V1.0)
    shell: str | None = None  # fire HE at this building as a whole (House Rules V1.0)
    face: str | None = None  # the side of its building a unit fires out of (House Rules V1.0)
    storey: str | None = None  # and the storey: 0 or "ground", 1, 2... (House Rules V1.0)


ORDER_WORDS = frozenset(f.name for f in fields(OrderWords))


def unit_order(state: GameState, side: str, words: OrderWords) -> UnitOrder:
    """The order in play: get out of a transport first, then move and fire (or lay smoke) in
    the order asked, and get into a transport last."""
    unit_id = find_unit(state, words.unit, side)
    if words.fire and words.smoke:
        raise IllegalCommand("A unit either fires or lays smoke in one activation, not both")
    actions: list = []
    if words.disembark:
        actions.append(Disembark(to=parse_point(words.disembark)))
    if words.leave:
        actions.append(LeaveBuilding(to=parse_point(words.leave)))
    if words.move:
        path = parse_move(state, unit_id, words.move)
        actions.append(Move(path=path, rapid=words.rapid, reverse=words.reverse, road=words.road))
    if (words.face or words.storey) and not words.fire:
        raise IllegalCommand("A side (face:) and storey (storey:) of a building go with a target (fire:)")
    weapon = _weapon(words.weapon)
    shot = (
        Fire(
            target=find_unit(state, words.fire, targets=True),
            flamethrower=weapon == "flamethrower",
            weapon=None if weapon == "flamethrower" else weapon,
            face=words.face.strip() if words.face else None,
            storey=_storey(words.storey),
        )
        if words.fire
        else LaySmoke(at=parse_point(words.smoke_at))
        if words.smoke_at
        else LaySmoke()
        if words.smoke and not words.bombard
        else None
    )
    if shot:
        actions.insert(len(actions) - 1 if words.first == "fire" and words.move else len(actions), shot)
    if words.embark:
        actions.append(Embark(transport=find_unit(state, words.embark, side)))
    if words.enter:
        actions.append(EnterBuilding(building=words.enter.strip()))
    if words.shell:
        actions.append(ShellBuilding(building=words.shell.strip()))
    if words.assault:
        target = find_unit(state, words.assault, targets=True)
        actions.append(CloseCombat(target=target, overrun=words.overrun))
    if words.call_fire:
        actions.append(RequestFire(at=parse_point(words.call_fire)))
    if words.bombard:
        actions.append(Bombard(smoke=words.smoke))
    if not actions:
        raise IllegalCommand("Say what the unit does: a move, a target to fire at, or both")
    return UnitOrder(unit=unit_id, actions=tuple(actions))


WeaponName = Literal[
    "gun", "mg", "hull_mg", "gun+hull_mg", "mg+hull_mg", "light_mortar", "second_gun", "flamethrower"
]
WEAPONS: tuple[str, ...] = get_args(WeaponName)


def _weapon(named: str | None) -> WeaponName | None:
    """A weapon as a player names it: a vehicle's gun, mg (coaxial) or hull_mg, the gun or mg with
    the hull MG joining in (gun+hull_mg), a squad's light_mortar (the 2015 rules: a British infantry
    command unit's 2" mortar, p. 22), or a flame tank's flamethrower (p. 22)."""
    if named is None:
        return None
    key = named.strip().casefold().replace(" ", "_")
    if key not in WEAPONS:
        raise IllegalCommand(f"Name the weapon {', '.join(WEAPONS[:-1])} or {WEAPONS[-1]}, not {named!r}")
    return key  # type: ignore[return-value]


def _storey(named: str | None) -> int | None:
    """A storey as a player names it: 0 or "ground" for the ground floor, 1 for the first upper
    storey, and so on (House Rules V1.0, s. 5 Firing from buildings)."""
    if named is None:
        return None
    key = named.strip().casefold()
    if key in ("ground", "g"):
        return 0
    if not key.isdigit():
        raise IllegalCommand(f"Name the storey 0 (or ground) for the ground floor, 1, 2... not {named!r}")
    return int(key)


def reserve_call(state: GameState, side: str, names: str) -> CallReserves:
    """Reserves named with commas, in order of preference; empty or "none" calls none (p. 26)."""
    wanted = [n.strip() for n in names.split(",") if n.strip() and n.strip().casefold() != "none"]
    return CallReserves(side=side, units=tuple(find_unit(state, name, side) for name in wanted))
