"""Firing out of buildings under the House Rules V1.0, s. 5 Firing from buildings: a building's
sides and storeys, the post (side and storey) a unit fires from, its 90 degree arc, and when
taking a post counts as moving.

Sides are the faces of the building's outline, named by the compass direction they face, north
being the far table edge (+y) and east the right-hand edge (+x): north, east, south and west for
a building square to the table. Where two faces would share a name the eight-point names
(northeast...) are used, and faces that still share one are numbered in outline order (north-1,
north-2). A side may also be given by its number, 1 for the outline's first face. Storeys count
0 for the ground floor, 1 for the first upper storey, up to the building's ``storeys`` - 1.

Our reading of "only one unit may fire per side in an activation per storey": each side of each
storey is one firing post. The unit that fires from it holds it for the rest of the turn; another
unit may take it over later in the turn, but that counts as moving ("any unit that moves in to
replace a unit"), as does firing from another post than the one a unit holds. So no two units
fire from one post in an activation, and the posts are free again when the next turn begins.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from shapely.geometry import LineString

from engine import geometry
from engine.commands import Fire
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.state import Point, TerrainFeature, Unit
from engine.variants.house_v1.state import BuildingPost

FIRING_ARC = 90.0  # s. 5: 45 degrees either side of straight out
COMPASS_4 = ("east", "north", "west", "south")
COMPASS_8 = ("east", "northeast", "north", "northwest", "west", "southwest", "south", "southeast")


@dataclass(frozen=True)
class BuildingSide:
    """One face of a building's outline, and the bearing straight out of it."""

    name: str
    number: int  # 1 for the outline's first face
    start: Point
    end: Point
    outward: float

    @property
    def middle(self) -> Point:
        return Point(x=round((self.start.x + self.end.x) / 2, 2), y=round((self.start.y + self.end.y) / 2, 2))


def building(state: GameState, building_id: str) -> TerrainFeature:
    for feature in state.terrain:
        if feature.id == building_id and feature.building:
            return feature
    raise IllegalCommand(f"There is no building called {building_id!r}")


def occupants(state: GameState, building_id: str) -> list[Unit]:
    return [u for u in state.units.values() if u.in_building == building_id and not u.destroyed]


def building_sides(feature: TerrainFeature) -> tuple[BuildingSide, ...]:
    """The faces of the building's outline, in outline order, each named as the module says."""
    points = list(feature.outline)
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    area = sum(a.x * b.y - b.x * a.y for a, b in zip(points, points[1:] + points[:1], strict=True))
    faces = []
    for a, b in zip(points, points[1:] + points[:1], strict=True):
        dx, dy = b.x - a.x, b.y - a.y
        if math.hypot(dx, dy) < 1e-9:
            continue
        out_x, out_y = (dy, -dx) if area > 0 else (-dy, dx)  # outline counter-clockwise or clockwise
        faces.append((a, b, math.degrees(math.atan2(out_y, out_x)) % 360.0))
    names = _compass_names([outward for _, _, outward in faces])
    return tuple(
        BuildingSide(name, number, a, b, outward)
        for number, (name, (a, b, outward)) in enumerate(zip(names, faces, strict=True), start=1)
    )


def _compass_names(bearings: list[float]) -> list[str]:
    """Four-point names if each face looks within 22.5 degrees of one and no two share it, else
    eight-point names, numbered where two faces still share one."""
    for points in (COMPASS_4, COMPASS_8):
        step = 360.0 / len(points)
        nearest = [int(math.floor(b / step + 0.5)) for b in bearings]
        names = [points[n % len(points)] for n in nearest]
        square = all(
            geometry.angle_between(b, n * step) <= 22.5 + 1e-6 for b, n in zip(bearings, nearest, strict=True)
        )
        if len(set(names)) == len(names) and (square or points is COMPASS_8):
            return names
    counts, seen = Counter(names), Counter[str]()
    numbered = []
    for name in names:
        seen[name] += 1
        numbered.append(f"{name}-{seen[name]}" if counts[name] > 1 else name)
    return numbered


def find_side(sides: tuple[BuildingSide, ...], name: str) -> BuildingSide | None:
    """A side by its name or its number, as a player types it."""
    key = name.strip().casefold()
    return next((s for s in sides if key in (s.name, str(s.number))), None)


def side_names(sides: tuple[BuildingSide, ...]) -> str:
    names = [s.name for s in sides]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]


def storeys_text(feature: TerrainFeature) -> str:
    if feature.storeys <= 1:
        return "only the ground floor (0)"
    return f"storeys 0 (the ground floor) to {feature.storeys - 1}"


def in_firing_arc(side: BuildingSide, at: Point) -> bool:
    """s. 5 Firing from buildings: a unit fires out at targets within 45 degrees either side of
    straight out from the side it fires from (measured from the middle of that side)."""
    return geometry.in_arc(side.middle, side.outward, at, FIRING_ARC)


def _facing(sides: tuple[BuildingSide, ...], held: BuildingPost | None, target: Point) -> BuildingSide:
    """The obvious side to fire from: the one the unit holds if the target is in its arc, else the
    side looking most nearly at the target."""
    if held is not None and not held.displaced:
        kept = find_side(sides, held.side)
        if kept is not None and in_firing_arc(kept, target):
            return kept
    return min(sides, key=lambda s: geometry.angle_between(s.outward, geometry.bearing(s.middle, target)))


def held_post(state: GameState, unit_id: str, building_id: str) -> BuildingPost | None:
    """The post the unit has fired from in that building this turn, if any."""
    unit = state.units.get(unit_id)
    return unit.firing_post if unit is not None and unit.in_building == building_id else None


def posted_firer(state: GameState, firer: Unit, fire: Fire, target: Unit) -> tuple[Unit, bool]:
    """s. 5 Firing from buildings: the firer as it stands at the post it fires from, and whether
    taking that post counts as moving. The post is the side named (by default the side facing the
    target) and the storey named (by default the one it holds, else the ground floor); the firer
    stands at the middle of that side, facing straight out, so its arc is that side's. A side
    that does not exist, or a unit outside naming one, is left for :func:`post_problem`."""
    if firer.in_building is None:
        if fire.face is None and fire.storey is None:
            return firer, False
        asked = BuildingPost(side=fire.face or "", storey=fire.storey or 0)
        return firer.model_copy(update={"firing_post": asked}), False
    held = held_post(state, firer.id, firer.in_building)
    sides = building_sides(building(state, firer.in_building))
    side = _facing(sides, held, target.position) if fire.face is None else find_side(sides, fire.face)
    storey = fire.storey if fire.storey is not None else held.storey if held else 0
    if side is None:
        return firer.model_copy(
            update={"firing_post": BuildingPost(side=fire.face or "", storey=storey)}
        ), False
    post = BuildingPost(side=side.name, storey=storey)
    placed = firer.model_copy(update={"firing_post": post, "position": side.middle, "facing": side.outward})
    return placed, moves_to_post(state, firer.id, firer.in_building, post)


def moves_to_post(state: GameState, unit_id: str, building_id: str, post: BuildingPost) -> bool:
    """s. 5 Firing from buildings: firing from another side or storey than the one a unit has
    already fired from this turn counts as moving, and so does taking over a post another unit
    holds."""
    held = held_post(state, unit_id, building_id)
    changed = held is not None and (held.displaced or not same_post(held, post))
    return changed or any(
        other.id != unit_id and holds(other, post) for other in occupants(state, building_id)
    )


def same_post(a: BuildingPost, b: BuildingPost) -> bool:
    return (a.side, a.storey) == (b.side, b.storey)


def holds(unit: Unit, post: BuildingPost) -> bool:
    return (
        unit.firing_post is not None and not unit.firing_post.displaced and same_post(unit.firing_post, post)
    )


def post_problem(state: GameState, posted: Unit, target: Unit) -> str | None:
    """Why the firer may not fire from the post :func:`posted_firer` placed it at, or None: the
    building must have that side and storey, and the target must be in that side's arc."""
    post = posted.firing_post
    if post is None:
        return None
    if posted.in_building is None:
        return f"{posted.name} is not in a building: leave out the side and storey"
    feature = building(state, posted.in_building)
    sides = building_sides(feature)
    side = find_side(sides, post.side)
    if side is None:
        return f"{feature.id} has no side {post.side!r}: its sides are {side_names(sides)}"
    if not 0 <= post.storey < feature.storeys:
        return f"{feature.id} has no storey {post.storey}: it has {storeys_text(feature)}"
    if not in_firing_arc(side, target.position):
        return (
            f"{target.name} is not within 45 degrees of straight out from the {side.name} side of "
            f"{feature.id}: fire from another side"
        )
    return None


def attacked_side(feature: TerrainFeature, attacker: Unit) -> BuildingSide:
    """s. 6 Attacking buildings: the side an assault comes in by, the one nearest the attacker."""
    foot = geometry.footprint(attacker)
    return min(
        building_sides(feature),
        key=lambda s: foot.distance(LineString([(s.start.x, s.start.y), (s.end.x, s.end.y)])),
    )
