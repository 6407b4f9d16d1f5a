"""Questions about the table that several rules ask: who sees whom, cover, nearby enemies."""

from __future__ import annotations

from engine import geometry
from engine.game_state import GameState
from engine.profiles import Special, UnitClass
from engine.rulesets import rules_of
from engine.state import CoverKind, Unit


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
