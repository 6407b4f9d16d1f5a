"""Indirect fire in play (House Rules V1.0, s. 5 Indirect Fire): a spotter calls fire onto a
spot it can see, mortars, infantry guns and howitzers fire at that marker, each shot lands
where the dice say, and the unit nearest to where it lands takes the effect. What may be
ordered is checked in :mod:`engine.variants.house_v1.indirect_fire.orders`. Every roll's message names the
house-rules section that decided it."""

from __future__ import annotations

import math

from engine import geometry
from engine.battlefield import area_cover
from engine.deployment.hidden import reveal_marker, under_marker
from engine.dice import DieCategory
from engine.event_data import FireData, RolledTest
from engine.events import EventLog
from engine.firing.losses import destroy
from engine.game_state import GameState
from engine.state import Point, Unit
from engine.variants.house_v1.buildings import collateral, occupants
from engine.variants.house_v1.citation import cited
from engine.variants.house_v1.close_combat.play import markers_to_bearer
from engine.variants.house_v1.firing import (
    HE_COLUMN,
    FireCategory,
    FireSituation,
    Protection,
    casualty_score_needed,
    to_hit_modifiers,
)
from engine.variants.house_v1.indirect_fire.orders import active_marker, indirect_he, marker_at
from engine.variants.house_v1.indirect_fire.rules import (
    AFV_DIRECT_HIT,
    EFFECT_REACH,
    afv_destroyed_by_direct_hit,
    effect_dice,
    landing,
    request_fire_succeeds,
)
from engine.variants.house_v1.shot import PROTECTION, traits_of
from engine.variants.house_v1.smoke.screens import add_puff
from engine.variants.house_v1.state import FireMarker
from engine.variants.house_v1.traits import HEClass, TroopType
from engine.wording import counted


def request_fire(state: GameState, spotter: Unit, at: Point, log: EventLog) -> None:
    """Place (or take up again) the side's fire marker: the to-hit throw with one d10, or the
    best of two at a spot already tried this turn; a marker from last turn is taken up by a
    spotter that sees it."""
    earlier = marker_at(state, spotter.side, at)
    if earlier is not None and earlier.placed and earlier.turn == state.turn - 1:
        state.fire_markers[state.fire_markers.index(earlier)] = earlier.model_copy(
            update={"turn": state.turn}
        )
        log.emit(
            "indirect",
            cited(f"{spotter.name} takes up the fire marker at {earlier.at} again", "5.91"),
            spotter.id,
            side=spotter.side,
        )
        return
    tried = earlier is not None and earlier.turn == state.turn
    situation = FireSituation(FireCategory.HE, firer_markers=spotter.morale_markers)
    modifier = sum(value for _, value in to_hit_modifiers(situation))
    purpose = f"request fire, {spotter.name}"
    rolls = [
        log.roll_against(
            10, purpose, lambda face: request_fire_succeeds([face], modifier), DieCategory.TO_HIT
        )
        for _ in range(2 if tried else 1)
    ]
    placed = request_fire_succeeds(rolls, modifier)
    marker = FireMarker(side=spotter.side, at=at, turn=state.turn, placed=placed)
    if earlier is not None:
        state.fire_markers.remove(earlier)
    state.fire_markers.append(marker)
    best = " (best of two)" if tried else ""
    how = f"{modifier:+d}" if modifier else ""
    rolled = ", ".join(map(str, rolls))
    text = f"{spotter.name} calls for fire at {at}: needs 5+{how}; rolled {rolled}{best}: "
    test = RolledTest.of(
        "request fire",
        lambda face: request_fire_succeeds([face], modifier),
        max(rolls),  # the better of two dice counts
        sides=10,
        unit=spotter.id,
        side=spotter.side,
    )
    log.emit(
        "indirect",
        cited(text + ("marker placed" if placed else "no marker"), "5.91"),
        spotter.id,
        side=spotter.side,
        data=test,
    )


def bombard(state: GameState, firer: Unit, log: EventLog, *, smoke: bool = False) -> None:
    """One indirect shot at the marker: where it lands, then its effect on the nearest unit, or
    a smoke round's 2" puff (s. 5 Smoke)."""
    marker = active_marker(state, firer.side)
    assert marker is not None
    later = firer.id in marker.fired_by
    d10 = log.roll_against(
        10, f"indirect fire, {firer.name}", lambda face: not landing(face, [1]).failed, DieCategory.TO_HIT
    )
    d6s = [log.d6(f"deviation, {firer.name}") for _ in range(2 if later else 1)]
    state.fire_markers[state.fire_markers.index(marker)] = marker.model_copy(
        update={"fired_by": (*marker.fired_by, firer.id)}
    )
    falls = landing(d10, d6s)
    dice = f"d10 {d10}, d6 {' and '.join(map(str, d6s))}"
    shell = FireData(
        firer=firer.id,
        target=None,
        distance=geometry.distance_to_point(firer, marker.at),
        indirect=True,
        aim=marker.at,
    )
    if falls.failed:
        text = cited(f"{firer.name} fires at the marker: {dice}: the shot fails", "5.92")
        log.emit("indirect", text, firer.id, side=firer.side, data=shell)
        return
    at = marker.at if falls.direct_hit else _deviated(state, marker.at, falls.inches, falls.bearing)
    where = "on the marker" if falls.direct_hit else f'{falls.inches}" off, at {at}'
    text = cited(f"{firer.name} fires at the marker: {dice}: lands {where}", "5.92")
    log.emit("indirect", text, firer.id, side=firer.side, data=shell.model_copy(update={"at": at}))
    if smoke:
        add_puff(state, at, log)
    elif (hit := next((f for f in geometry.features_at(at, state.terrain) if f.building), None)) is not None:
        _on_building(state, firer, hit.id, log)
    else:
        _effect(state, firer, at, log)


def _on_building(state: GameState, firer: Unit, building_id: str, log: EventLog) -> None:
    """s. 5 Indirect fire on buildings: a shell landing on one puts the collateral throw to every
    unit inside (light HE does them no harm)."""
    inside = occupants(state, building_id)
    log.emit(
        "indirect",
        cited(f"The shell lands on {building_id}" + ("" if inside else ", empty"), "5.95"),
        firer.id,
        side=firer.side,
    )
    for unit in [u for u in inside if under_marker(u)]:
        reveal_marker(state, unit, log, "its building is shelled")
    he = indirect_he(firer)
    assert he is not None
    collateral(state, [u for u in inside if not u.destroyed], building_id, he, log, rule="5.95")


def _deviated(state: GameState, at: Point, inches: float, bearing: float) -> Point:
    rad = math.radians(bearing)
    x = min(max(at.x + inches * math.cos(rad), 0.0), state.table.width)
    y = min(max(at.y + inches * math.sin(rad), 0.0), state.table.depth)
    return Point(x=round(x, 2), y=round(y, 2))


def _effect(state: GameState, firer: Unit, at: Point, log: EventLog) -> None:
    """s. 5: the unit nearest the effect marker, either side's, by the distance table. AFVs only
    by a direct hit within 1", enclosed ones as in defences, open-topped in the open; soft
    vehicles, not being AFVs, like troops, by the table and their cover. A double six on a
    direct hit destroys an open-topped or soft vehicle. Markers on a loaded transport go on the
    unit it carries (s. 5 Transports)."""
    he = indirect_he(firer)
    assert he is not None
    standing = [u for u in state.units.values() if u.on_table and u.embarked_in is None]  # dummies too
    if not standing:
        return
    victim = min(standing, key=lambda u: math.dist((u.position.x, u.position.y), (at.x, at.y)))
    gap = math.dist((victim.position.x, victim.position.y), (at.x, at.y))
    if under_marker(victim) and geometry.within(gap, EFFECT_REACH):
        reveal_marker(state, victim, log, "the shell falls on it")  # its effect would tell anyway
        if victim.dummy:
            return
    kind = traits_of(victim).troop_type
    if not geometry.within(gap, EFFECT_REACH) or (kind.is_afv and not geometry.within(gap, AFV_DIRECT_HIT)):
        log.emit("indirect", cited("Nobody is close enough to be hurt", "5.93"), firer.id, side=firer.side)
        return
    count = effect_dice(he, gap)
    if count == 0:
        text = f'{victim.name} is {gap:.1f}" away: too far for {he.value} HE'
        log.emit("indirect", cited(text, "5.93"), victim.id, side=firer.side)
        return
    rolls = [log.d6(f"indirect effect, {victim.name}", DieCategory.CASUALTY) for _ in range(count)]
    direct_hit = victim.is_vehicle and geometry.within(gap, AFV_DIRECT_HIT)
    open_topped = kind in (TroopType.OPEN_AFV, TroopType.SOFT)
    if direct_hit and open_topped and he is HEClass.LIGHT and rolls[0] == 6:
        rolls.append(log.d6(f"indirect effect, {victim.name}, a second die after a 6", DieCategory.CASUALTY))
    protection = _protection(state, victim)
    needed = casualty_score_needed(HE_COLUMN[he], protection)
    markers = sum(1 for roll in rolls[:count] if roll >= needed)
    text = (
        f'{victim.name} ({gap:.1f}" away, {protection.value}) takes {count} {he.value} HE '
        f"dice needing {needed}+: rolled {', '.join(map(str, rolls))}: {counted(markers, 'marker')}"
    )
    hit = FireData(
        firer=firer.id, target=victim.id, distance=gap, at=at, indirect=True, markers_placed=markers
    )
    log.emit("indirect", cited(text, "5.94" if direct_hit else "5.93"), victim.id, side=firer.side, data=hit)
    if direct_hit and afv_destroyed_by_direct_hit(rolls, open_topped=open_topped, he=he):
        destroy(state, victim, log, cited(f"{victim.name} is destroyed: the shell lands inside", "5.94"))
        return
    markers_to_bearer(state, victim, markers, log)


def _protection(state: GameState, victim: Unit) -> Protection:
    """s. 5 Hits on AFVs: an enclosed AFV counts as in defences, an open-topped one as in the
    open; troops and soft vehicles as the ground they stand on."""
    kind = traits_of(victim).troop_type
    if kind is TroopType.ENCLOSED_AFV:
        return Protection.DEFENCES
    if kind is TroopType.OPEN_AFV:
        return Protection.OPEN
    return PROTECTION[area_cover(state, victim)]


def expire_fire_markers(state: GameState) -> None:
    """s. 5 Request fire: a marker is removed after a full turn unused; failed requests lapse."""
    state.fire_markers = [m for m in state.fire_markers if m.placed and m.turn >= state.turn - 1]
