"""Reading what players type: positions, paths and unit names.

Positions are table inches ``x,y`` or a grid square such as ``D3`` (6" squares, columns A, B,
C... from the left edge, rows 1, 2, 3... from the near edge), meaning the square's centre,
optionally with an offset in inches: ``D3+1,-2``. A move may also be given as a distance
toward a unit: ``6 toward panzer-iv``.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from engine.actions.base import OrderOption
from engine.actions.registry import order_actions, order_options
from engine.commands import CallReserves, ChooseTarget, Command, RemoveMarkers, UnitOrder
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.names import closest, either
from engine.orders import toward
from engine.state import Point
from engine.variants.house_v1.commands import ChooseDefender, ChooseFallBack
from engine.view import REFEREE, names_for, sees, units_tagged

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
    goal = state.units[
        find_unit(state, toward_unit.group(2), known_to=unit.side, first=state.other_side(unit.side))
    ]
    return (toward(state, unit, goal, float(toward_unit.group(1))),)


def _key(name: str) -> str:
    return name.strip().casefold().replace(" ", "-")


def find_unit(
    state: GameState,
    name: str,
    side: str | None = None,
    *,
    aimed_by: str | None = None,
    known_to: str | None = None,
    player: str | None = None,
    first: str | None = None,
    asked: Collection[str] = (),
) -> str:
    """A unit's id from its id, name (any case, spaces or dashes), the name its force gave it
    when another unit shares that (:mod:`engine.unit_names`), or the tag the asker sees it under
    on the picture ("Gr1"); suggests near misses.
    :mod:`engine.view` decides which units may be named, and by what (:func:`names_for`):
    ``aimed_by`` (the side aiming) leaves out hidden units (a name aimed at must not tell that one
    is there) but an enemy marker answers to its label, and reads tags as that side's picture
    shows them; ``known_to`` leaves out those that side may not know. A
    side's own hidden marker answers to its true name too; near misses suggest names, never ids,
    and never a unit the asker may not know of.
    A name several units share means one of the units ``asked`` for first (the open requests a
    CO answers), then ``player``'s own, then those of side ``first`` (the enemy's when aiming);
    still shared, it is refused with the units it could be."""
    wanted = _key(name)
    targets = aimed_by is not None
    known_to = aimed_by or known_to
    asker = REFEREE if known_to is None else known_to  # nobody named: any unit may be
    named = []  # what a near miss may suggest: only names the asker may know
    nameable = set()  # the units the asker may name, by their tag too
    sharing: dict[str, str] = {}  # the units a name shared answers to: id -> the name the asker knows
    for unit in state.units.values():
        names = names_for(unit, asker, aiming=targets) if side is None or unit.side == side else ()
        if unit.id in names:
            nameable.add(unit.id)
        own_names = (unit.true_name,) if names and unit.true_name and side == unit.side else ()
        if wanted in {_key(n) for n in (*names, *own_names)}:
            return unit.id
        if unit.called and (unit.id in names or own_names) and _key(unit.called) == wanted:
            sharing[unit.id] = (unit.true_name or unit.name) if own_names else unit.name
        if names and (sees(unit, side) or unit.marker is not None):  # a marker by its label
            named.append(unit.name)
    if sharing:
        enemy = state.other_side(aimed_by) if aimed_by is not None and first is None else first
        return _one_of(state, name, sharing, (asked, player, enemy))
    tagged = [unit for unit in units_tagged(state, asker, name, side) if unit.id in nameable]
    if len(tagged) == 1:
        return tagged[0].id
    if tagged:
        raise IllegalCommand(f"{name!r} is the tag of {either([u.name for u in tagged])}: name the unit")
    close = closest(name, named)
    hint = f" Did you mean {either(close)}?" if close else ""
    raise IllegalCommand(f"No unit called {name!r}.{hint}")


def _one_of(
    state: GameState,
    name: str,
    sharing: dict[str, str],
    preferred: tuple[Collection[str], str | None, str | None],
) -> str:
    """Of the units a name shared answers to, one asked for, else the player's own, else side
    ``first``'s, if that leaves one; otherwise a refusal naming each by its full name."""
    asked, player, first = preferred
    ids = list(sharing)
    for prefers in (
        lambda u: u.id in asked,
        lambda u: player is not None and u.player == player,
        lambda u: u.side == first,
    ):
        ids = [i for i in ids if prefers(state.units[i])] or ids
    if len(ids) == 1:
        return ids[0]
    raise IllegalCommand(
        f"{name!r} could be {either([sharing[i] for i in ids])}: name the one you mean in full"
    )


ORDER_WORDS = frozenset({"unit", *order_options()})  # the options of /act


def unit_order(
    state: GameState, side: str, unit: str, *, player: str | None = None, **options: object
) -> UnitOrder:
    """The order in play, from the options of ``/act`` as given (typed, or positions already
    read): each read by its kind, then made into actions by the actions that declare them, in
    their places (:func:`engine.actions.registry.order_actions`)."""
    unit_id = find_unit(state, unit, side, player=player)
    declared = order_options()
    given = {
        name: _read(state, side, unit_id, declared[name], value, player)
        for name, value in options.items()
        if value is not None and value != ""
    }
    actions = order_actions(given)
    if not actions:
        raise IllegalCommand("Say what the unit does: a move, a target to fire at, or both")
    return UnitOrder(unit=unit_id, actions=actions)


def _read(
    state: GameState, side: str, unit_id: str, option: OrderOption, value: object, player: str | None
) -> object:
    """An option's value as its kind reads it: a point, a move's waypoints, a unit's id."""
    if option.kind == "position":
        return parse_point(value)  # type: ignore[arg-type]
    if option.kind == "path":
        return parse_move(state, unit_id, str(value))
    if option.kind == "unit" and option.whose == "own":
        return find_unit(state, str(value), side, player=player)
    if option.kind == "unit":
        return find_unit(state, str(value), aimed_by=side)
    return value


def choice_command(
    state: GameState, side: str, unit: str | None, close_combat: str | None, player: str | None = None
) -> Command:
    """The answer to what the game waits for a side to choose, as ``/choose`` gives it in Discord,
    at the console (where a bare word fills ``unit``: ``/choose fall_back``) or by a card's menu:
    the unit that loses its markers, a new target (none wastes the shot), the unit that defends
    a building, or whether a vehicle in close combat falls back (House Rules V1.0, s. 6)."""
    choice = state.pending.choice if state.pending else None
    if choice is None:
        raise IllegalCommand("Nothing is waiting to be chosen")
    if choice.kind == "close_combat_fall_back":
        answer = (close_combat or unit or "").strip().casefold()
        if answer not in choice.options:
            raise IllegalCommand("Choose close_combat: fall_back or fight_on")
        return ChooseFallBack(side=side, fall_back=answer == "fall_back")
    named = unit if unit and unit.strip().casefold() != "none" else None
    first = state.other_side(side) if choice.kind == "choose_target" else side  # a new target, else its own
    picked = find_unit(state, named, known_to=side, player=player, first=first) if named else None
    if choice.kind == "building_defender":
        if picked is None:
            raise IllegalCommand("Choose the unit that defends the building")
        return ChooseDefender(side=side, unit=picked)
    if choice.kind == "remove_markers":
        if picked is None:
            raise IllegalCommand("Choose the unit that loses its markers")
        return RemoveMarkers(side=side, unit=picked)
    return ChooseTarget(side=side, target=picked)


def reserve_call(state: GameState, side: str, names: str, player: str | None = None) -> CallReserves:
    """Reserves named with commas, in order of preference; empty or "none" calls none (p. 26)."""
    wanted = [n.strip() for n in names.split(",") if n.strip() and n.strip().casefold() != "none"]
    return CallReserves(
        side=side, units=tuple(find_unit(state, name, side, player=player) for name in wanted)
    )
