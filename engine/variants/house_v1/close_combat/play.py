"""Close combat in play (House Rules V1.0, s. 6): the initiation test, the rounds of fire
between the two sides, the attackers' fall back if the defenders stand, and AFV overruns.
What may be assaulted is checked in :mod:`engine.variants.house_v1.close_combat.assault`.
Every roll's message names the house-rules section that decided it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine import geometry
from engine.actions.carrying_out import execute_fire
from engine.battlefield import area_cover
from engine.commands import Fire
from engine.dice import DieCategory
from engine.event_data import FireData, MarkersData, RolledTest
from engine.events import EventLog
from engine.firing.aiming import turret_traverse
from engine.firing.losses import add_markers, destroy, explode, passengers_of
from engine.game_state import Choice, GameState, Who
from engine.orders import stop_in_contact
from engine.profiles import Special, UnitClass
from engine.rules.movement import movement_allowance
from engine.rulesets import rules_of
from engine.state import CoverKind, Going, Point, TerrainFeature, Unit
from engine.variants.house_v1.activation import close_combat_initiation_passes
from engine.variants.house_v1.buildings import breach, building_assault, building_defenders, enter_building
from engine.variants.house_v1.citation import cited
from engine.variants.house_v1.close_combat.rules import (
    ATTACKER_FALL_BACK,
    FALL_BACK_OPTIONS,
    INFANTRY_ROUNDS,
    attackers_fall_back,
    close_combat_column,
    close_combat_dice,
    close_combat_modifier,
    overrun_mg_dice,
    vehicle_may_fall_back,
)
from engine.variants.house_v1.firing import (
    CasualtyWeapon,
    Damage,
    Protection,
    casualty_markers,
    casualty_score_needed,
    damage_markers,
    damage_result,
    describe_throw,
    hits,
    hull_mg_bears,
    to_hit_throw,
    vehicle_mg_bears,
)
from engine.variants.house_v1.shot import PROTECTION, mg_crew_problem, traits_of
from engine.variants.house_v1.traits import TroopType
from engine.wording import counted, side_name

FALL_BACK_STEP = 0.5  # inches: how finely a fall back is cut short of a building
OVERRUN_BEYOND = 3.0  # inches past the overrun unit's centre (our reading of "moving through")
OVERRUN = "6.6"  # the rules library's section for AFVs overrunning infantry


@dataclass(frozen=True)
class Volley:
    """One side's fire in a round of close combat: so many d10 from ``firer`` (whose markers
    and quality modify them), resolved by the casualty table, or as an AP attack on armour."""

    firer: Unit
    dice: int
    column: CasualtyWeapon = CasualtyWeapon.INFANTRY
    protection: Protection = Protection.OPEN  # the target's
    ap: int | None = None  # an AP attack on a vehicle's side armour, a marker for any hit


def initiation_test(state: GameState, unit: Unit, tokens: int, log: EventLog, verb: str = "goes in") -> bool:
    """s. 6: a second activation test, scored as a reaction for a morale test, with no token of
    its own (``tokens``: those on the unit before this activation): the attacker's, or that of
    troops an AFV overruns."""
    traits = traits_of(unit)

    def passes(face: int) -> bool:
        return close_combat_initiation_passes(traits, tokens, unit.morale_markers, face)

    roll = log.roll_against(6, f"close combat initiation, {unit.name}", passes, DieCategory.MORALE)
    test = RolledTest.of("close combat initiation", passes, roll, unit=unit.id, side=unit.side)
    outcome = "passed" if test.passed else "failed"
    log.emit(
        "close_combat",
        cited(f"{unit.name} {verb}: initiation test rolled {roll}: {outcome}", "6.2"),
        unit.id,
        side=unit.side,
        data=test,
    )
    return test.passed


def fight(state: GameState, attacker: Unit, defender: Unit, log: EventLog, *, overrun: bool = True) -> bool:
    """s. 6, once in contact: infantry against infantry or support squads (two rounds), against
    a soft or open-topped vehicle (two rounds, the vehicle as a target in cover), against an
    enclosed AFV (one round, an AP attack on its side armour); or an enclosed AFV overrunning
    infantry (``overrun``: it drives through after the round, else it falls back). False when
    the fight waits after the first round for the defending vehicle's side to choose whether it
    falls back (:func:`after_first_round`). An assault on a building may find the enemy only
    upstairs, or another unit bound to defend (:func:`building_assault`)."""
    defender = building_assault(state, attacker, defender, log)
    if defender is None:
        return True
    if attacker.in_building is None or attacker.in_building != defender.in_building:
        _to_contact(state, attacker, defender)
    if attacker.is_vehicle:
        _overrun(state, attacker, defender, log, drive_through=overrun)
        return True
    return _rounds(state, attacker, defender, 1, log)


def _rounds(state: GameState, attacker: Unit, defender: Unit, first: int, log: EventLog) -> bool:
    """The rounds from ``first`` on, the defenders firing first in each, and what follows; False
    if a vehicle defender that came through the first round may now fall back (s. 6)."""
    rule = _combat_rule(defender)
    rounds = 1 if traits_of(defender).troop_type is TroopType.ENCLOSED_AFV else INFANTRY_ROUNDS
    for round_number in range(first, rounds + 1):
        exchanges = [(volley, attacker) for volley in _defence(state, defender, attacker)]
        exchanges.append((_attack(attacker, defender), defender))
        for volley, target in exchanges:
            if not (volley.firer.destroyed or target.destroyed):
                _fire(state, volley, target, round_number, rule, log)
        if attacker.destroyed or defender.destroyed:
            break
        if round_number == 1 and round_number < rounds and vehicle_may_fall_back(traits_of(defender)):
            return False
    _after_the_rounds(state, attacker, defender, log)
    return True


def fall_back_choice(defender: Unit, who: Who, log: EventLog) -> Choice:
    """s. 6 Infantry attacking vehicles: the side of a soft or open-topped vehicle that came
    through the first round chooses whether it falls back or fights the second."""
    text = f"{defender.name} came through the first round: fall back or fight on (/choose fall_back|fight_on)"
    log.emit("choice", cited(text, "6.4"), defender.id, side=defender.side)
    return Choice(kind="close_combat_fall_back", side=defender.side, options=list(FALL_BACK_OPTIONS), who=who)


def building_defence_choice(
    state: GameState, attacker: Unit, named: Unit, who: Who, log: EventLog
) -> Choice | None:
    """s. 6 Attacking buildings: the defending side chooses which of its units inside meets the
    assault, when more than one may (:func:`building_defenders`); None when there is no choice."""
    defenders = building_defenders(state, attacker, named)
    if len(defenders) < 2:
        return None
    names = ", ".join(u.name for u in defenders)
    chooser = side_name(named.side, start=True)
    text = f"{chooser} choose who defends {named.in_building} against {attacker.name}: {names}"
    text += " (/choose unit:...)"
    log.emit("choice", cited(text, "6.7"), *(u.id for u in defenders), side=named.side)
    return Choice(kind="building_defender", side=named.side, options=[u.id for u in defenders], who=who)


def after_first_round(
    state: GameState, attacker: Unit, defender: Unit, fall_back: bool, log: EventLog
) -> None:
    """The defending vehicle's choice after the first round (s. 6): it falls back its normal
    move straight away from the attackers, with whatever it carries, and the fight is over; or
    the second round is fought."""
    if not fall_back:
        _rounds(state, attacker, defender, 2, log)
        return
    reach = movement_allowance(defender.profile, rapid=False, road=False)
    defender.position = _away(state, defender, defender.position, attacker.position, reach)
    defender.moved_this_turn = True
    for passenger in passengers_of(state, defender):
        passenger.position = defender.position
    text = cited(f"{defender.name} falls back out of the fight to {defender.position}", "6.4")
    log.emit("close_combat", text, defender.id, side=defender.side)


def _after_the_rounds(state: GameState, attacker: Unit, defender: Unit, log: EventLog) -> None:
    """s. 6: attackers who destroyed a building's defenders are established inside; attackers
    inside stay there; others fall back if the defenders still stand (:func:`_attackers_fall_back`)."""
    if defender.destroyed and defender.in_building and not attacker.destroyed:
        if attacker.in_building == defender.in_building:
            enter_building(state, attacker, defender.in_building, log)
        else:
            breach(state, attacker, defender.in_building, log)  # s. 6: established inside
    inside = attacker.in_building is not None and attacker.in_building == defender.in_building
    if not attacker.destroyed and not defender.destroyed and inside:
        log.emit("close_combat", f"{defender.name} holds: {attacker.name} stays in {attacker.in_building}")
    elif not attacker.destroyed and not defender.destroyed:
        _attackers_fall_back(state, attacker, defender, log)


def _attackers_fall_back(state: GameState, attacker: Unit, defender: Unit, log: EventLog) -> None:
    """s. 6: attackers facing defenders who still stand fall back straight away from them, 6"
    or into the first cover met on the way beyond 3" (:func:`attackers_fall_back`); area
    cover such as woods (a building is entered only by its own procedure, s. 4)."""
    start, threat = attacker.position, defender.position
    line = (start, _beyond(start, threat, ATTACKER_FALL_BACK))
    covers = [(f, met) for f, met in geometry.crossings(line, state.terrain) if _is_cover(f)]
    reach = attackers_fall_back([met for _, met in covers])
    cover = next((f for f, met in covers if met == reach), None)
    attacker.position = _away(state, attacker, start, threat, reach, into=cover)
    sheltered = cover is not None and geometry.features_at(attacker.position, [cover])
    into = f" into the {cover.kind}" if sheltered else ""
    log.emit(
        "close_combat",
        f"{defender.name} holds: {attacker.name} falls back{into} to {attacker.position}",
        attacker.id,
        side=attacker.side,
    )


def _is_cover(feature: TerrainFeature) -> bool:
    """Area terrain that puts a unit standing in it in cover (woods, trenches), not a building."""
    return not (feature.linear or feature.building or feature.going is Going.IMPASSABLE) and (
        feature.cover is not CoverKind.OPEN
    )


def _combat_rule(defender: Unit) -> str:
    """The rules library's section for an infantry attack on this defender (s. 6)."""
    kind = traits_of(defender).troop_type
    if kind is TroopType.ENCLOSED_AFV:
        return "6.5"
    if defender.is_vehicle:
        return "6.4"
    return "6.7" if defender.in_building else "6.3"


def _attack(attacker: Unit, defender: Unit) -> Volley:
    """The infantry attackers' fire: at troops in the open; at a soft or open-topped vehicle as
    a target in cover; at an enclosed AFV an AP attack with their own AP value (no IAW)."""
    mine, theirs = traits_of(attacker), traits_of(defender)
    dice = close_combat_dice(mine)
    if theirs.troop_type is TroopType.ENCLOSED_AFV:
        return Volley(attacker, dice, ap=mine.ap or 0)
    protection = Protection.COVER if defender.is_vehicle else Protection.OPEN
    return Volley(attacker, dice, close_combat_column(mine), protection)


def _defence(state: GameState, defender: Unit, attacker: Unit) -> list[Volley]:
    """The defenders' fire: troops with their own weapons; a vehicle with its machine gun if
    that bears on the attacker (s. 6), and the units it carries, a die each like support squads
    with their own weapons."""
    traits = traits_of(defender)
    if not defender.is_vehicle:
        return [Volley(defender, close_combat_dice(traits), close_combat_column(traits))]
    guns = sum((_mg_bears(state, defender, attacker), _hull_mg_bears(defender, attacker)))
    volleys = [Volley(defender, guns, CasualtyWeapon.MG)] if guns else []
    carried = passengers_of(state, defender)
    return volleys + [Volley(p, 1, close_combat_column(traits_of(p))) for p in carried]


def _mg_bears(state: GameState, vehicle: Unit, attacker: Unit) -> bool:
    """s. 6: a vehicle's machine gun fires in close combat only at an attacker in its arc,
    without moving (s. 5 Arc of fire), and a transport's only with a crew (s. 2)."""
    traits = traits_of(vehicle)
    if not (traits.mg or traits.ap is not None) or mg_crew_problem(state, vehicle):
        return False
    off_centreline = geometry.angle_between(
        geometry.bearing(vehicle.position, attacker.position), vehicle.facing
    )
    turn = turret_traverse(vehicle, attacker) if vehicle.profile.turret else None
    return vehicle_mg_bears(turret_turn=turn, off_centreline=off_centreline)


def _hull_mg_bears(vehicle: Unit, attacker: Unit) -> bool:
    """s. 5 and 6: a turreted AFV's hull MG adds its d10 to the turret MG's if the attacker is
    within 45 degrees of its centreline (a turretless vehicle's one MG is counted already)."""
    if not (vehicle.profile.turret and traits_of(vehicle).hull_mg):
        return False
    bearing = geometry.bearing(vehicle.position, attacker.position)
    return hull_mg_bears(geometry.angle_between(bearing, vehicle.facing))


def _overrun(state: GameState, afv: Unit, defender: Unit, log: EventLog, *, drive_through: bool) -> None:
    """s. 6 AFVs overrunning infantry: the defenders answer only if they pass an initiation
    test (and are then in the open); the AFV's hull and turret MGs fire a d10 each at troops
    otherwise in cover (or their defences); then, if it stands, it drives through (support
    squads other than snipers are crushed unless the AFV is light, any other unit takes a
    marker), or, as its order chose, falls back."""
    answered = initiation_test(state, defender, defender.tokens, log, verb="stands to face it")
    if answered:
        _answer(state, defender, afv, log)
    if afv.destroyed:
        return
    dug_in = PROTECTION[area_cover(state, defender)] is Protection.DEFENCES
    protection = Protection.OPEN if answered else Protection.DEFENCES if dug_in else Protection.COVER
    guns = overrun_mg_dice(turret=afv.profile.turret, hull_mg=traits_of(afv).hull_mg)
    if guns:
        _fire(state, Volley(afv, guns, CasualtyWeapon.MG, protection), defender, 1, OVERRUN, log)
    else:
        log.emit("close_combat", cited(f"{afv.name} has no MG to fire", OVERRUN), afv.id, side=afv.side)
    if defender.destroyed:
        return
    if not drive_through:
        reach = movement_allowance(afv.profile, rapid=False, road=False)
        afv.position = _away(state, afv, afv.position, defender.position, reach)
        text = cited(f"{afv.name} falls back from {defender.name} to {afv.position}", OVERRUN)
        log.emit("close_combat", text, afv.id, side=afv.side)
        return
    afv.position = _away(state, afv, defender.position, afv.position, OVERRUN_BEYOND)
    crushed = defender.unit_class is UnitClass.SUPPORT and not defender.profile.has(Special.SNIPER)
    if crushed and not traits_of(afv).light:
        destroy(state, defender, log, cited(f"{afv.name} drives over {defender.name}: crushed", OVERRUN))
        return
    text = cited(f"{afv.name} drives through {defender.name}: +1 marker", OVERRUN)
    log.emit("close_combat", text, afv.id, side=afv.side)
    add_markers(state, defender, 1, log)


def _answer(state: GameState, defender: Unit, afv: Unit, log: EventLog) -> None:
    """s. 6: troops who stand fire back with whatever weapon they have in arc, by its normal
    fire (s. 5): an anti-tank gun's or IAW's AP fire, a flamethrower's, a tripod MG's; infantry
    without an IAW make the close-combat AP attack on the side armour instead."""
    traits = traits_of(defender)
    if traits.troop_type is TroopType.INFANTRY and defender.iaw_weapon is None:
        volley = Volley(defender, close_combat_dice(traits), ap=traits.ap or 0)
        _fire(state, volley, afv, 1, OVERRUN, log)
        return
    execute_fire(state, defender, afv, Fire(target=afv.id), log, order_moves=False, target_declared_move=True)


def _fire(
    state: GameState, volley: Volley, target: Unit, round_number: int, rule: str, log: EventLog
) -> None:
    """One volley: the to-hit throw, then the casualty throw or the AP attack."""
    firer = volley.firer
    modifiers = close_combat_modifier(traits_of(firer), firer.morale_markers)
    total = sum(value for _, value in modifiers)
    purpose = f"close combat round {round_number}, {firer.name}"
    rolls = [
        log.roll_against(10, purpose, lambda face: hits([face], total) > 0, DieCategory.TO_HIT)
        for _ in range(volley.dice)
    ]
    scored = hits(rolls, total)
    throw = describe_throw(modifiers, rolls, scored)
    text = f"Round {round_number}: {firer.name} fires at {target.name}: {throw}"
    volley_data = FireData(
        firer=firer.id,
        target=target.id,
        distance=0.0,
        at=geometry.midpoint(firer.position, target.position),
        to_hit=to_hit_throw(modifiers, rolls),
        close_combat_round=round_number,
    )
    if scored and volley.ap is not None:
        _armour_attack(state, volley, target, scored, text, rule, log, volley_data)
        return
    markers = 0
    if scored:
        needed = casualty_score_needed(volley.column, volley.protection)
        casualties = [
            log.d6(f"close combat casualty, {firer.name} at {target.name}", DieCategory.CASUALTY)
            for _ in range(scored)
        ]
        markers = casualty_markers(scored, casualties, needed)
        text += f"; casualty {needed}+ rolled {', '.join(map(str, casualties))}: {counted(markers, 'marker')}"
    volley_data = volley_data.model_copy(update={"markers_placed": markers})
    log.emit("close_combat", cited(text, rule), firer.id, target.id, side=firer.side, data=volley_data)
    markers_to_bearer(state, target, markers, log)


def markers_to_bearer(state: GameState, target: Unit, count: int, log: EventLog) -> None:
    """Markers for the target, or for the unit a loaded transport carries (s. 3 and 5
    Transports: the rule set's marker bearer)."""
    bearer = rules_of(state).marker_bearer(target, passengers_of(state, target))
    if bearer is not target and count > 0:
        carried = MarkersData(unit=bearer.id, added=count, total=bearer.morale_markers + count)
        log.emit("markers", carried.carried_text(bearer.name), bearer.id, side=bearer.side, data=carried)
    add_markers(state, bearer, count, log)


def _armour_attack(
    state: GameState,
    volley: Volley,
    target: Unit,
    scored: int,
    text: str,
    rule: str,
    log: EventLog,
    volley_data: FireData,
) -> None:
    """s. 6: infantry at close quarters mark an AFV with any hit, whatever its armour; then the
    penetration throw against the side armour (+2 for a double hit) and the damage throw."""
    firer = volley.firer
    armour = target.profile.armour_side or 0
    roll = log.d10(f"close combat penetration, {firer.name} at {target.name}", DieCategory.PENETRATION)
    total = roll + (volley.ap or 0) + (2 if scored >= 2 else 0)
    text += f"; 1 marker; penetration {total} against side armour {armour}"
    if total <= armour:
        equal = total == armour
        placed = 2 if equal else 1
        log.emit(
            "close_combat",
            cited(text + (": equal, +1 marker" if equal else ": bounces"), rule),
            firer.id,
            target.id,
            side=firer.side,
            data=volley_data.model_copy(update={"markers_placed": placed}),
        )
        markers_to_bearer(state, target, 2 if equal else 1, log)
        return
    damage_roll = log.d6(f"close combat damage, {firer.name} at {target.name}", DieCategory.PENETRATION)
    damage = damage_result(damage_roll)
    text += f": penetrates. Damage {damage_roll}: {damage.value}"
    volley_data = volley_data.model_copy(update={"damage": damage.value})
    log.emit("close_combat", cited(text, rule), firer.id, target.id, side=firer.side, data=volley_data)
    if damage is Damage.EXPLOSION:
        explode(state, target, log)
    elif damage is Damage.DESTROYED:
        destroy(state, target, log, f"{target.name} is destroyed")
    else:
        after_hit = target.morale_markers + 1
        extra = damage_markers(damage, target.profile.morale or 0)
        raised = max(after_hit, extra) if damage is Damage.SHAKEN else after_hit + extra
        markers_to_bearer(state, target, raised - target.morale_markers, log)


def _to_contact(state: GameState, attacker: Unit, defender: Unit) -> None:
    """The 3" dash: the attacker goes straight at the defender, as far as the gap between their
    bases, ending beside it on its side of it; it stops in contact with any unit in its way
    (units never overlap, :func:`stop_in_contact`)."""
    gap = geometry.distance(attacker, defender)
    start, end = attacker.position, defender.position
    centres = math.dist((start.x, start.y), (end.x, end.y))
    if centres > 0 and gap > 0:
        step = min(gap, centres) / centres
        contact = Point(
            x=round(start.x + (end.x - start.x) * step, 2), y=round(start.y + (end.y - start.y) * step, 2)
        )
        attacker.position = stop_in_contact(state, attacker, contact)


def _beyond(start: Point, threat: Point, distance: float) -> Point:
    """The point ``distance`` from ``start`` straight away from ``threat`` (off the table or not)."""
    dx, dy = start.x - threat.x, start.y - threat.y
    length = math.hypot(dx, dy) or 1.0
    return Point(x=start.x + dx / length * distance, y=start.y + dy / length * distance)


def _away(
    state: GameState,
    unit: Unit,
    start: Point,
    threat: Point,
    distance: float,
    *,
    into: TerrainFeature | None = None,
) -> Point:
    """Where ``unit``, going from ``start`` up to ``distance`` straight away from ``threat``,
    ends: kept on the table, short of any building or impassable ground on the way (never ending
    inside one), and in contact with any unit in its way (:func:`stop_in_contact`); inside the
    cover ``into`` when it ends on that cover's edge (:func:`_hundredths_in`)."""
    reach = distance
    while reach > 0:
        far = _beyond(start, threat, reach)
        x = min(max(far.x, 0.5), state.table.width - 0.5)
        y = min(max(far.y, 0.5), state.table.depth - 0.5)
        end = _hundredths_in(x, y, into)
        if not any(
            f.building or f.going is Going.IMPASSABLE for f in geometry.features_at(end, state.terrain)
        ):
            return stop_in_contact(state, unit.model_copy(update={"position": start}), end)
        reach -= FALL_BACK_STEP
    return unit.position


def _hundredths_in(x: float, y: float, cover: TerrainFeature | None) -> Point:
    """(x, y) to the hundredth of an inch: the nearest corner of the hundredths around it that
    lies in ``cover`` (a fall back to a cover's edge ends in it, not a rounding short of it),
    else the nearest hundredth."""
    nearest = Point(x=round(x, 2), y=round(y, 2))
    if cover is None:
        return nearest
    corners = [
        Point(x=round_x(round(x * 100, 6)) / 100, y=round_y(round(y * 100, 6)) / 100)
        for round_x in (math.floor, math.ceil)
        for round_y in (math.floor, math.ceil)
    ]
    inside = [c for c in corners if geometry.features_at(c, [cover])]
    return min(inside, key=lambda c: math.dist((c.x, c.y), (x, y)), default=nearest)
