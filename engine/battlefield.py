"""Questions about the table that several rules ask: who sees whom, cover, nearby enemies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shapely.geometry import LineString

from engine import geometry
from engine.game_state import GameState
from engine.profiles import Special, UnitClass
from engine.rulesets import rules_of
from engine.state import CoverKind, Point, TerrainFeature, Unit


def live_units(state: GameState, side: str | None = None) -> list[Unit]:
    """Units on the table and not destroyed (embarked ones included). Dummy hidden markers are
    not units (p. 26)."""
    return [
        u for u in state.units.values() if u.on_table and not u.dummy and (side is None or u.side == side)
    ]


def enemies_of(state: GameState, unit: Unit) -> list[Unit]:
    return [u for u in live_units(state) if u.side != unit.side]


def can_see(state: GameState, viewer: Unit, target: Unit) -> bool:
    """Line of sight between centres over blocking terrain; hidden enemies are never seen; and
    the rule set's observation distances (House Rules V1.0, s. 8)."""
    if target.hidden and target.side != viewer.side:
        return False
    rules = rules_of(state)
    return rules.sight_clear(state, viewer, target, state.terrain) and rules.observed(state, viewer, target)


UNSPOTTED = "not spotted"  # a hidden enemy (p. 26)
SMOKE = "smoke"
OBSERVATION = "observation distance"  # under a rule set that has one (the rule set's observed)


def what_blocks(state: GameState, viewer: Unit, target: Unit) -> list[str]:
    """Why ``viewer`` does not see ``target`` (as :func:`can_see` judges it): each terrain piece
    that alone would block the line under the game's rule set (a wood, a named building, a hill,
    a wall), by name; else what keeps a target in sight from being observed under a rule set that
    has observation (House Rules V1.0, s. 8): :data:`SMOKE` when it would be observed in clear
    air, else :data:`OBSERVATION`; or :data:`UNSPOTTED` for a hidden enemy. Empty when the target
    is seen."""
    if target.hidden and target.side != viewer.side:
        return [UNSPOTTED]
    rules = rules_of(state)
    if not rules.sight_clear(state, viewer, target, state.terrain):
        line = LineString([(viewer.position.x, viewer.position.y), (target.position.x, target.position.y)])
        on_line = [f for f in state.terrain if geometry.feature_shape(f).intersects(line)]
        alone = [f for f in on_line if not rules.sight_clear(state, viewer, target, (f,))]
        return [terrain_name(f) for f in alone] or ["the terrain between them"]
    if rules.observed(state, viewer, target):
        return []
    clear_air = state.model_copy(update={"smoke_screens": []})
    return [SMOKE if rules.observed(clear_air, viewer, target) else OBSERVATION]


def blocked_because(blockers: Sequence[str]) -> str:
    """What :func:`what_blocks` found, as the end of a sentence."""
    if list(blockers) == [UNSPOTTED]:
        return "it has not been spotted"
    if list(blockers) == [OBSERVATION]:
        return "it has neither moved nor fired and is beyond observation distance"
    names = ", ".join(blockers[:-1]) + " and " + blockers[-1] if len(blockers) > 1 else blockers[0]
    plural = len(blockers) > 1 or names.split(" (")[0].endswith("s")  # "the woods block"
    return f"{names} {'block' if plural else 'blocks'} the line of sight"


def cannot_see(state: GameState, viewer: Unit, target: Unit) -> str:
    """The refusal of a shot at a target out of sight, saying what blocks the line."""
    blockers = what_blocks(state, viewer, target)
    return f"{viewer.name} cannot see {target.name}" + (f": {blocked_because(blockers)}" if blockers else "")


def terrain_name(feature: TerrainFeature) -> str:
    """A terrain piece as a player reads it: "the wood", "the church (building)"."""
    name = feature.id.replace("-", " ").replace("_", " ")
    if feature.kind in name or feature.kind.startswith(name):
        return f"the {name}"
    return f"the {name} ({feature.kind})"


@dataclass(frozen=True)
class Sighting:
    """What a unit would see of a target or a spot: the distance (edge to edge, or from its edge
    to the spot), what blocks the line (nothing: it is seen) and the cover the target, or a unit
    like the viewer standing at the spot, would have against fire from the viewer, and whether
    it would be hull down."""

    distance: float
    blocked_by: tuple[str, ...]
    cover: CoverKind
    hull_down: bool  # a vehicle half hidden by the ground or just behind it (p. 12)

    @property
    def seen(self) -> bool:
        return not self.blocked_by


def sighting(state: GameState, viewer: Unit, target: Unit | Point) -> Sighting:
    """Measure from ``viewer`` to a unit or a spot on the table: distance, line of sight and
    what blocks it (:func:`what_blocks`), and cover (p. 10). A spot is looked at as a unit like
    the viewer standing there (inside the building there, if any) that has just moved, so
    observation distances do not apply."""
    if isinstance(target, Point):
        distance = geometry.distance_to_point(viewer, target)
        building = next((f.id for f in geometry.features_at(target, state.terrain) if f.building), None)
        target = viewer.model_copy(
            update={
                "id": f"{viewer.id}@spot",
                "name": str(target),
                "side": "",
                "position": target,
                "in_building": building,
                "hidden": False,
                "moved_this_turn": True,
            }
        )
    else:
        distance = geometry.distance(viewer, target)
    cover = geometry.cover_for(target, viewer.position, state.terrain)
    hull_down = geometry.is_hull_down(target, viewer.position, state.terrain)
    return Sighting(distance, tuple(what_blocks(state, viewer, target)), cover, hull_down)


def visible_enemies(state: GameState, unit: Unit) -> list[Unit]:
    return [e for e in enemies_of(state, unit) if e.embarked_in is None and can_see(state, unit, e)]


def cover_of(state: GameState, target: Unit, firer: Unit) -> CoverKind:
    return geometry.cover_for(target, firer.position, state.terrain)


def in_building(state: GameState, unit: Unit) -> bool:
    return any(f.building for f in geometry.features_at(unit.position, state.terrain))


def in_trees_or_building(state: GameState, unit: Unit) -> bool:
    """Mortars may not fire from within trees or buildings (p. 20)."""
    return any(
        f.building or f.kind in ("woods", "trees", "orchard")
        for f in geometry.features_at(unit.position, state.terrain)
    )


def area_cover(state: GameState, unit: Unit) -> CoverKind:
    """The best cover of the area terrain a unit stands in (woods, buildings, trenches), for
    fire that comes from above rather than from one direction."""
    kinds = [f.cover for f in geometry.features_at(unit.position, state.terrain) if not f.linear]
    order = [CoverKind.OPEN, CoverKind.COVER, CoverKind.FORTIFICATION]
    return max(kinds, key=order.index, default=CoverKind.OPEN)


def starts_in_cover(state: GameState, unit: Unit, seen_from: Unit) -> bool:
    """Whether a unit starts its action in cover as the reacting unit sees it, behind a hedge
    or wall as well as inside woods or a building (vehicle reaction penalty, p. 7)."""
    return cover_of(state, unit, seen_from) is not CoverKind.OPEN


def unscreened_enemy_infantry(
    state: GameState, vehicle: Unit, *, seen_only: bool, radius: float = 12.0
) -> list[Unit]:
    """Enemy infantry or support squads within ``radius`` of a vehicle with no friendly infantry
    detachment as close to them as the vehicle is. Moving (p. 8) counts only enemies the vehicle
    can see; firing (p. 10) counts any that are on the table and not hidden (a hidden team's
    presence is not given away by a modifier)."""
    screens = [
        u
        for u in live_units(state, vehicle.side)
        if u.unit_class is UnitClass.INFANTRY and u.embarked_in is None
    ]
    enemies = (
        visible_enemies(state, vehicle)
        if seen_only
        else [
            e for e in live_units(state) if e.side != vehicle.side and not e.hidden and e.embarked_in is None
        ]
    )
    threats = []
    for enemy in enemies:
        if enemy.is_vehicle:
            continue
        gap = geometry.distance(vehicle, enemy)
        if gap > radius:
            continue
        if not any(geometry.distance(s, enemy) <= gap for s in screens):
            threats.append(enemy)
    return threats


def command_reroll_available(state: GameState, unit: Unit, radius: float) -> bool:
    """The once-a-turn re-roll (p. 18): a living command unit (or sub-commander) within
    ``radius`` of the unit (the rule set's command radius), and not yet used this turn."""
    side = state.sides[unit.side]
    if side.reroll_used:
        return False
    commanders = [u for u in state.units_of(unit.side) if u.is_command]
    if not commanders or any(not c.on_table for c in commanders):
        return False
    sources = [u for u in live_units(state, unit.side) if u.is_command or u.is_subcommander]
    return any(geometry.distance(s, unit) <= radius for s in sources)


def command_unit_lost(state: GameState, side: str) -> bool:
    return any(u.is_command and u.destroyed for u in state.units_of(side))


COMMAND_UNIT_TOKENS = 2  # p. 4


def tokens_for_turn(units: list[Unit]) -> int:
    """Command tokens drawn at the start of a turn for these units, a side's or in a team game
    one player's (p. 4): one per unit on the table or reserve unit available to come on
    (p. 26), plus two for a living command unit, even one in reserve (p. 18). Transports draw
    none (p. 20)."""
    drawing = [u for u in units if (u.on_table or u.reserve_available) and not u.dummy]
    count = sum(1 for u in drawing if not u.profile.has(Special.TRANSPORT))
    if any(u.is_command and not u.destroyed for u in units):
        count += COMMAND_UNIT_TOKENS
    return count


def lost_break_points(state: GameState, side: str) -> int:
    return sum(u.profile.break_points for u in state.units_of(side) if u.destroyed)
