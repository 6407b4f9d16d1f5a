"""Reacting partway through an enemy move (Iron Cross 2015, p. 6).

A reaction may interrupt the enemy "at any point of its movement" and before any dice are rolled
("my Panzer IV fires as your Sherman crosses the road"). The reactor names the point; the active
unit's move is split there: it moves to that point, the reactor's first half happens, and then
the active unit carries on with the rest of its action.
"""

from __future__ import annotations

from typing import cast

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from engine import geometry
from engine.actions.base import actions_of
from engine.actions.registry import action_type
from engine.commands import Disembark, Move, Order, UnitOrder
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.order_kinds import order_kind
from engine.state import Going, Point

ON_THE_PATH = 1.0  # inches: how near the declared path the named point must be


def interrupted_move(state: GameState, order: Order) -> int:
    """The index of the move a reaction can interrupt: the active order's first move, if no
    shot or smoke comes before it (their dice would already be rolled)."""
    for index, action in enumerate(_activation(order).actions):
        kind = action_type(state, action)
        if kind.may_be_interrupted:
            return index
        if kind.closes_reaction_route:
            break
    raise IllegalCommand("The enemy's action has no move before its dice are rolled: react without a point")


def _activation(order: Order) -> UnitOrder:
    """The enemy's order as a unit's activation: no other kind of order moves partway."""
    activation = order_kind(order).activation(order)
    if activation is None:
        raise IllegalCommand("Only a unit's declared move can be interrupted partway (a reaction point)")
    return activation


def _path(state: GameState, order: UnitOrder, index: int) -> list[Point]:
    """The whole route of the interrupted move, from where its mover starts."""
    move = cast(Move, order.actions[index])
    unit = state.units[order.unit]
    earlier = actions_of(order.actions[:index], Disembark)
    if earlier:
        start = earlier[-1].to
    elif unit.in_reserve:
        start = move.path[0]
    elif move.own_transport and unit.transport:
        start = state.units[unit.transport].position
    elif unit.embarked_in:
        start = state.units[unit.embarked_in].position
    else:
        start = unit.position
    return [start, *move.path]


def points_on_route(state: GameState, order: Order, spacing: float) -> list[tuple[float, Point]]:
    """Points ``spacing`` apart along the route of the move a reaction may interrupt, each with
    its distance from the mover's start, where a reaction may name it (:func:`interrupt_point`
    accepts it); none if the order has no such move."""
    try:
        index = interrupted_move(state, order)
    except IllegalCommand:
        return []
    route = LineString([(p.x, p.y) for p in _path(state, _activation(order), index)])
    found = []
    for step in range(1, int(route.length / spacing) + 1):
        along = step * spacing
        spot = route.interpolate(along)
        try:
            found.append((along, interrupt_point(state, order, Point(x=spot.x, y=spot.y))))
        except IllegalCommand:
            continue
    return found


def interrupt_point(state: GameState, order: Order, at: Point) -> Point:
    """The point on the enemy's declared route nearest ``at``; refused if ``at`` is off the route
    or inside terrain the mover must test for (the move would be tested twice)."""
    index = interrupted_move(state, order)
    activation = _activation(order)
    route = LineString([(p.x, p.y) for p in _path(state, activation, index)])
    wanted = ShapelyPoint(at.x, at.y)
    if route.distance(wanted) > ON_THE_PATH:
        raise IllegalCommand(f"{at} is not on {state.units[activation.unit].name}'s declared route")
    snapped = route.interpolate(route.project(wanted))
    point = Point(x=round(snapped.x, 2), y=round(snapped.y, 2))
    mover = state.units[activation.unit]
    for feature in geometry.features_at(point, state.terrain):
        if feature.going_for(mover.profile) is not Going.EASY:
            raise IllegalCommand(f"Pick a point outside the {feature.kind}: it is not clear going")
    return point


def split_move(state: GameState, order: UnitOrder, index: int, at: Point) -> tuple[Move, Move]:
    """The declared move cut at the interrupt point: the way there, and the rest of the way
    (which keeps the declared final facing)."""
    move = cast(Move, order.actions[index])
    path = _path(state, order, index)
    split = LineString([(p.x, p.y) for p in path]).project(ShapelyPoint(at.x, at.y))
    walked, before, after = 0.0, [], []
    for a, b in zip(path, path[1:], strict=False):
        walked += geometry.path_length((a, b))
        (before if walked < split else after).append(b)
    to_point = move.model_copy(update={"path": (*before, at), "facing": None})
    onward = move.model_copy(update={"path": tuple(after) or (at,)})
    return to_point, onward
