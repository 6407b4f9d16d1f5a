"""Sight on the table under the House Rules V1.0, s. 8 Blocking terrain and Seeing through other
units: how tall each terrain piece is, who looks down from an upper storey or a hill, what walls,
woods and buildings hide from them, and the troops a shot may not pass through. The rules
themselves are in :mod:`engine.variants.house_v1.visibility`.
"""

from __future__ import annotations

from collections.abc import Sequence

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from engine import geometry
from engine.game_state import GameState
from engine.state import Point, TerrainFeature, TerrainHeight, Unit
from engine.variants.house_v1.posts import building
from engine.variants.house_v1.shot import traits_of
from engine.variants.house_v1.visibility import (
    ADJACENT,
    HEIGHT_OF_KIND,
    HILLS,
    low_terrain_blocks,
    may_fire_through_troops,
    medium_terrain_blocks,
    observed_as,
    overlooked_low_terrain_hides,
    tucked_in_behind,
)

_ORDER = (TerrainHeight.LOW, TerrainHeight.MEDIUM, TerrainHeight.HIGH)
WALL_GRAZE = 0.05  # inches of a sight line within a building's outline that only graze the post


def terrain_height(feature: TerrainFeature) -> TerrainHeight | None:
    """s. 8 Blocking terrain: the height the table gives the piece, else its kind's (walls and
    hedges low; buildings, woods and low hills medium; steep hills and towers high); any other
    piece that blocks sight counts as medium, and the rest (roads, fields, streams) hide nothing."""
    if feature.height is not None:
        return feature.height
    if feature.kind in HEIGHT_OF_KIND:
        return HEIGHT_OF_KIND[feature.kind]
    return TerrainHeight.MEDIUM if feature.blocks_sight else None


def vantage(state: GameState, unit: Unit, storey: int | None = None) -> TerrainHeight | None:
    """How high a unit looks from (s. 8 Medium and High terrain): the higher of its storey's
    (:func:`storey_vantage`) and its hill's (:func:`hill_vantage`). None: at ground level."""
    heights = (storey_vantage(state, unit, storey), hill_vantage(state, unit.position))
    return max((h for h in heights if h is not None), key=_ORDER.index, default=None)


def storey_vantage(state: GameState, unit: Unit, storey: int | None = None) -> TerrainHeight | None:
    """s. 8 Medium terrain: a unit looks down from an upper storey of its building (``storey``,
    by default the top one: a unit not firing may watch from any), as high as the building
    stands. None: on the ground floor, or outside any building."""
    if unit.in_building is None:
        return None
    feature = building(state, unit.in_building)
    floor = feature.storeys - 1 if storey is None else storey
    return terrain_height(feature) if floor >= 1 else None


def hill_vantage(state: GameState, at: Point) -> TerrainHeight | None:
    """s. 8 Medium and High terrain: the height of the highest hill the spot is on, from which a
    unit there looks down, whether it stands in the open or in a building or wood on the hill
    (the hill is under those too). None: not on a hill."""
    hills = [
        terrain_height(f)
        for f in geometry.features_at(at, state.terrain)
        if f.kind in HILLS and not f.building
    ]
    return max((h for h in hills if h is not None), key=_ORDER.index, default=None)


def house_sight_clear(
    state: GameState,
    viewer: Unit,
    target: Unit,
    terrain: Sequence[TerrainFeature],
    storey: int | None = None,
) -> bool:
    """s. 8 Blocking terrain: whether the terrain between leaves the target in view of the viewer
    (looking from ``storey`` of its building, see :func:`vantage`). The buildings the two are in
    and the hills they stand on hide nothing from them, but for a target at its post
    (:func:`own_building_hides`); high terrain blocks; medium terrain blocks but from high ground
    beyond its shadow; low terrain as :func:`low_terrain_hides`."""
    if own_building_hides(viewer, target, terrain):
        return False
    eye = vantage(state, viewer, storey)
    inside = {viewer.in_building, target.in_building}
    seen = geometry.footprint(target)
    if _tall_terrain_hides(eye, viewer.position, target.position, seen, terrain, inside):
        return False
    return not low_terrain_hides(state, viewer, target, terrain, looking_down=eye is not None)


def own_building_hides(viewer: Unit, target: Unit, terrain: Sequence[TerrainFeature]) -> bool:
    """House Rules V1.0, s. 5 Firing from buildings with s. 8 Medium terrain: a unit holding a
    post stands at the side it fires out of, and is seen through that side only: its building
    (when among ``terrain``), which blocks sight completely, hides it from a viewer outside whose
    line to it runs through the building. Our reading: a line that only meets the outline at the
    post itself (within :data:`WALL_GRAZE`) is clear. A unit not at a post, somewhere inside, is
    seen as the building's occupant (its building hides nothing of it)."""
    post = target.firing_post
    if (
        target.in_building is None
        or post is None
        or post.displaced
        or viewer.in_building == target.in_building
    ):
        return False
    walls = next((f for f in terrain if f.id == target.in_building), None)
    if walls is None:
        return False
    sight = LineString([(viewer.position.x, viewer.position.y), (target.position.x, target.position.y)])
    return sight.intersection(geometry.feature_shape(walls)).length > WALL_GRAZE


def spot_in_sight(state: GameState, viewer: Unit, at: Point, terrain: Sequence[TerrainFeature]) -> bool:
    """House Rules V1.0, s. 5 Request fire (the spot must be visible to the spotter) read with
    s. 8 Blocking terrain: a spotter sees a spot on the ground as it would a unit standing there
    (:func:`house_sight_clear`), looking down from an upper storey or a hill as they do; from
    there a wall or hedge hides no spot, as nothing lies tucked in behind it; from the ground it
    hides the spot unless the spotter or the spot is right up against it."""
    eye = vantage(state, viewer)
    spot = ShapelyPoint(at.x, at.y)
    if _tall_terrain_hides(eye, viewer.position, at, spot, terrain, {viewer.in_building}):
        return False
    if eye is not None:
        return True
    sight = LineString([(viewer.position.x, viewer.position.y), (at.x, at.y)])
    walls = [
        geometry.feature_shape(f)
        for f in terrain
        if terrain_height(f) is TerrainHeight.LOW and geometry.feature_shape(f).intersects(sight)
    ]
    return not any(
        low_terrain_blocks(geometry.footprint(viewer).distance(wall), spot.distance(wall)) for wall in walls
    )


def _tall_terrain_hides(
    eye: TerrainHeight | None,
    origin: Point,
    to: Point,
    seen: BaseGeometry,
    terrain: Sequence[TerrainFeature],
    inside: set[str | None],
) -> bool:
    """s. 8 Medium and High terrain between ``origin`` and ``seen`` (at ``to``): high terrain
    blocks; medium terrain blocks but from high ground beyond its shadow. The buildings in
    ``inside`` and the hills at either end hide nothing."""
    standing_on = {f.id for at in (origin, to) for f in geometry.features_at(at, terrain)}
    tall = [
        f
        for f in terrain
        if terrain_height(f) in (TerrainHeight.MEDIUM, TerrainHeight.HIGH)
        and f.id not in inside
        and not (f.kind in HILLS and f.id in standing_on)
    ]
    for feature in geometry.sight_crosses(origin, to, tall):
        behind = seen.distance(geometry.feature_shape(feature))
        if terrain_height(feature) is TerrainHeight.HIGH or medium_terrain_blocks(eye, target_behind=behind):
            return True
    return False


def low_terrain_hides(
    state: GameState, viewer: Unit, target: Unit, terrain: Sequence[TerrainFeature], *, looking_down: bool
) -> bool:
    """s. 8 Low terrain: a wall or hedge across the line between them hides the target unless one
    of the two is right up against it; from an upper storey or a hill, unless the viewer stands
    at the wall, it hides only infantry, support squads and small vehicles tucked in behind it and
    not firing, more than 6" away."""
    sight = LineString([(viewer.position.x, viewer.position.y), (target.position.x, target.position.y)])
    for feature in terrain:
        if terrain_height(feature) is not TerrainHeight.LOW:
            continue
        shape = geometry.feature_shape(feature)
        if not shape.intersects(sight):
            continue
        viewer_gap = geometry.footprint(viewer).distance(shape)
        target_gap = geometry.footprint(target).distance(shape)
        if not looking_down or viewer_gap <= ADJACENT:
            hidden = low_terrain_blocks(viewer_gap, target_gap)
        else:
            tucked_in = tucked_in_behind(
                observed_as(target.profile, traits_of(target), hull_down=False),
                adjacent=target_gap <= ADJACENT,
                firing=target.fired_this_turn,
            )
            hidden = overlooked_low_terrain_hides(geometry.distance(viewer, target), tucked_in=tucked_in)
        if hidden:
            return True
    return False


def troops_in_the_way(
    state: GameState, firer: Unit, aim: Point, target_shape: BaseGeometry, leave_out: set[str]
) -> list[Unit]:
    """s. 8 Seeing through other units: the infantry and support squads out in the open (not in a
    building or a transport) whose bases the line of fire from the firer to ``aim`` crosses,
    between the firer's base and the target (``target_shape``); units in ``leave_out`` aside, and
    enemies the firer's side has not spotted."""
    line = LineString([(firer.position.x, firer.position.y), (aim.x, aim.y)])
    line = line.difference(geometry.footprint(firer)).difference(target_shape)
    if line.is_empty:
        return []
    return [
        unit
        for unit in state.units.values()
        if unit.on_table
        and not unit.dummy
        and not unit.is_vehicle
        and unit.embarked_in is None
        and unit.in_building is None
        and unit.id not in leave_out
        and not (unit.hidden and unit.side != firer.side)
        and line.intersects(geometry.footprint(unit))
    ]


def fire_through_problem(
    state: GameState, firer: Unit, in_the_way: list[Unit], *, gun: bool, at_vehicle_or_building: bool
) -> str | None:
    """s. 8 Seeing through other units: why the shot may not pass the troops ``in_the_way``, or
    None. A unit fires over them from higher ground (from a building, the storey of its post)."""
    if not in_the_way:
        return None
    storey = firer.firing_post.storey if firer.in_building and firer.firing_post else None
    if may_fire_through_troops(
        from_height=vantage(state, firer, storey) is not None,
        gun=gun,
        only_enemies=all(u.side != firer.side for u in in_the_way),
        at_vehicle_or_building=at_vehicle_or_building,
    ):
        return None
    return (
        f"{in_the_way[0].name} is in the line of fire: troops may be fired over only from higher "
        "ground (a gun may fire past enemy troops at a vehicle or building beyond)"
    )
