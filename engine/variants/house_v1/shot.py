"""One direct shot under the House Rules V1.0, s. 5, from its dice: which weapon and fire
category the firer uses, the to-hit throw, then penetration and damage against an armoured
vehicle, or the casualty throw against anything else. Like the 2015
:func:`engine.rules.shot_resolution.resolve_shot`, it reads a measured :class:`Shot` and
changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine import geometry
from engine.dice import DiceSource, DieCategory, roll_as, roll_needing
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.profiles import Special
from engine.rules.firing import Shot, turn_to_face
from engine.rules.shot_resolution import Fate, ShotResult
from engine.state import CoverKind, Unit
from engine.variants.house_v1.citation import cited
from engine.variants.house_v1.firing import (
    FRONT_ARC,
    HE_COLUMN,
    HIT_SCORE,
    LIGHT_MORTAR_OVERSHOOT_CLEAR,
    CasualtyWeapon,
    Cover,
    Damage,
    FireCategory,
    FireSituation,
    Penetration,
    Protection,
    Weapon,
    armour_penetration,
    casualty_markers,
    casualty_score_needed,
    damage_markers,
    damage_result,
    damage_score,
    describe_throw,
    fixed_gun_bears,
    flamethrower_destroys,
    hits,
    hull_mg_bears,
    in_range,
    light_mortar_reaches,
    to_hit_dice,
    to_hit_modifiers,
    to_hit_throw,
    transport_mg_crewed,
)
from engine.variants.house_v1.traits import HEClass, HouseTraits, TroopType
from engine.variants.house_v1.units import house_view
from engine.wording import counted

PROTECTION = {
    CoverKind.OPEN: Protection.OPEN,
    CoverKind.COVER: Protection.COVER,
    CoverKind.FORTIFICATION: Protection.DEFENCES,
}
CASUALTY_COLUMN = {
    FireCategory.SMALL_ARMS: CasualtyWeapon.INFANTRY,
    FireCategory.MG: CasualtyWeapon.MG,
    FireCategory.FLAMETHROWER: CasualtyWeapon.FLAMETHROWER,
}


def traits_of(unit: Unit) -> HouseTraits:
    traits = house_view(unit.profile).house
    assert traits is not None
    return traits


@dataclass(frozen=True)
class HouseFire:
    """The weapon a firer uses at a target, and how the shot is treated (s. 5)."""

    weapon: Weapon
    category: FireCategory
    ap: int | None = None
    he: HEClass | None = None


def _at_armour(firer: Unit, mine: HouseTraits) -> HouseFire:
    """s. 5: all direct fire at an AFV is armour-piercing, flamethrowers aside; infantry use
    their AP value only in close combat, unless they carry an IAW."""
    if mine.flamethrower:
        weapon = Weapon.MAN_PACK_FLAMETHROWER if not firer.is_vehicle else Weapon.VEHICLE_FLAMETHROWER
        return HouseFire(weapon, FireCategory.FLAMETHROWER)
    if mine.troop_type is TroopType.INFANTRY:
        if firer.iaw_weapon is None:
            raise IllegalCommand(
                f"{firer.name} has no anti-tank weapon: infantry fight armour only in close combat"
            )
        return HouseFire(Weapon.IAW, FireCategory.AP, ap=firer.iaw_weapon)
    if firer.profile.has(Special.MORTAR):
        raise IllegalCommand(f"{firer.name} fires indirectly only")
    if mine.ap is None:
        raise IllegalCommand(f"{firer.name} has no armour-piercing weapon")
    weapon = _machine_gun(firer) if mine.mg else Weapon.GUN
    return HouseFire(weapon, FireCategory.AP, ap=mine.ap, he=mine.he)


def _machine_gun(firer: Unit) -> Weapon:
    """s. 2: a machine gun on the ground is a tripod MG with its sustained fire (light AA guns
    too); on a vehicle it is a turret or mounted MG."""
    return Weapon.TURRET_MG if firer.is_vehicle else Weapon.TRIPOD_MG


def _at_soft_target(firer: Unit, mine: HouseTraits, target: HouseTraits) -> HouseFire:
    """s. 2 and 5: what each troop type fires at infantry, support squads and soft vehicles."""
    if mine.flamethrower:
        weapon = Weapon.MAN_PACK_FLAMETHROWER if not firer.is_vehicle else Weapon.VEHICLE_FLAMETHROWER
        return HouseFire(weapon, FireCategory.FLAMETHROWER)
    if firer.profile.has(Special.MORTAR):
        raise IllegalCommand(f"{firer.name} fires indirectly only")
    if mine.troop_type is TroopType.INFANTRY:
        return HouseFire(Weapon.INFANTRY_SQUAD, FireCategory.SMALL_ARMS)
    if mine.mg and not firer.is_vehicle:
        return HouseFire(Weapon.TRIPOD_MG, FireCategory.MG)
    if mine.troop_type is TroopType.SUPPORT_LIGHT:
        weapon = Weapon.SNIPER if firer.profile.has(Special.SNIPER) else Weapon.SUPPORT_SMALL_ARMS
        return HouseFire(weapon, FireCategory.SMALL_ARMS)
    if mine.troop_type is TroopType.SUPPORT_WHEELED:
        if target.troop_type is TroopType.SOFT and mine.ap is not None:
            return HouseFire(Weapon.GUN, FireCategory.AP, ap=mine.ap)  # an anti-tank gun's AP fire
        if mine.he is not None and firer.profile.has(Special.INFANTRY_GUN):
            return HouseFire(Weapon.GUN, FireCategory.HE, he=mine.he)
        return HouseFire(Weapon.SUPPORT_SMALL_ARMS, FireCategory.SMALL_ARMS)  # the crew's own weapons
    if mine.he is not None:
        return HouseFire(Weapon.GUN, FireCategory.HE, he=mine.he)
    if mine.mg or mine.ap is not None:
        return HouseFire(Weapon.TURRET_MG, FireCategory.MG)  # the coaxial or mounted machine gun
    raise IllegalCommand(f"{firer.name} has no weapon to fire")


HULL_MG_TOO = "+hull_mg"  # a weapon choice's suffix: the hull MG joins the gun or coaxial MG (s. 5)


def _chosen_weapon(shot: Shot, mine: HouseTraits, theirs: HouseTraits, weapon: str) -> HouseFire:
    """s. 5 AFVs with several weapons: the main gun, or the coaxial MG, or the hull MG (12", one
    die), which may also join either of the others; at an AFV every shot is AP. s. 5 Light
    mortars: an infantry squad's light mortar fires direct HE."""
    firer = shot.firer
    if weapon == "light_mortar":
        return light_mortar_fire(shot, mine, theirs)
    if not firer.is_vehicle:
        raise IllegalCommand(f"{firer.name} has one weapon: leave out the weapon choice")
    if weapon == "second_gun":
        return second_gun_fire(shot, mine, theirs)
    if weapon == "hull_mg" or weapon.endswith(HULL_MG_TOO):
        check_hull_mg(shot, mine)
    weapon = weapon.removesuffix(HULL_MG_TOO)
    if weapon == "gun":
        if mine.ap is None and mine.he is None:
            raise IllegalCommand(f"{firer.name} has no main gun")
        if theirs.troop_type.is_afv or (theirs.troop_type is TroopType.SOFT and mine.he is None):
            if mine.ap is None:
                raise IllegalCommand(f"{firer.name}'s gun has no armour-piercing round")
            return HouseFire(Weapon.GUN, FireCategory.AP, ap=mine.ap, he=mine.he)
        if mine.he is None:
            raise IllegalCommand(f"{firer.name}'s gun has no HE round: use its machine gun")
        return HouseFire(Weapon.GUN, FireCategory.HE, he=mine.he)
    return _machine_gun_fire(Weapon.HULL_MG if weapon == "hull_mg" else Weapon.TURRET_MG, theirs)


def second_gun_fire(shot: Shot, mine: HouseTraits, theirs: HouseTraits) -> HouseFire:
    """s. 5 AFVs with multiple weapons, and the quick reference's second AP rating (the Grant's
    turret 37mm, "8/M, 5"): a vehicle with two guns fires one of them at its one target in an
    activation. The second gun has an AP rating and no HE class, so it fires AP, at vehicles."""
    firer, target = shot.firer, shot.target
    if mine.second_ap is None:
        raise IllegalCommand(f"{firer.name} has no second gun")
    if not (theirs.troop_type.is_afv or theirs.troop_type is TroopType.SOFT):
        raise IllegalCommand(
            f"{firer.name}'s second gun has no HE class: fire its main gun or MG at {target.name}"
        )
    return HouseFire(Weapon.GUN, FireCategory.AP, ap=mine.second_ap)


def _machine_gun_fire(weapon: Weapon, theirs: HouseTraits) -> HouseFire:
    """A vehicle's MG: AP fire (with no AP rating) at an AFV, machine-gun fire at anything else."""
    if theirs.troop_type.is_afv:
        return HouseFire(weapon, FireCategory.AP, ap=0)
    return HouseFire(weapon, FireCategory.MG)


def check_hull_mg(shot: Shot, mine: HouseTraits) -> None:
    """s. 5 AFVs with multiple weapons: only an AFV with a hull MG fires one."""
    if not mine.hull_mg:
        raise IllegalCommand(f"{shot.firer.name} has no hull MG")


def _off_centreline(shot: Shot) -> float:
    bearing = geometry.bearing(shot.firer.position, shot.target.position)
    return geometry.angle_between(bearing, shot.firer.facing)


def light_mortar_fire(shot: Shot, mine: HouseTraits, theirs: HouseTraits) -> HouseFire:
    """s. 5 Light mortars: a squad carrying one may fire it as direct light HE at a target over
    6" away, moving in that activation neither before nor after, and not from a building (s. 4);
    an AFV, which only AP fire hurts (s. 5 Direct fire), is no target for it."""
    firer = shot.firer
    if not mine.light_mortar:
        raise IllegalCommand(f"{firer.name} carries no light mortar")
    if theirs.troop_type.is_afv:
        raise IllegalCommand(f"{shot.target.name} is armoured: a light mortar's HE cannot hurt it")
    if not light_mortar_reaches(shot.range):
        raise IllegalCommand(
            f'{shot.target.name} is {shot.range:.1f}" away: a light mortar fires direct only beyond 6"'
        )
    if shot.firer_moved:
        raise IllegalCommand(f"{firer.name} may not move in the activation it fires its light mortar")
    if firer.in_building:
        raise IllegalCommand(f"{firer.name} may not fire a mortar from inside {firer.in_building} (s. 4)")
    return HouseFire(Weapon.LIGHT_MORTAR, FireCategory.HE, he=HEClass.LIGHT)


def light_mortar_overshoots(shot: Shot, in_the_way: Unit) -> bool:
    """s. 5 Light mortars: a light mortar's direct fire passes over a unit of its own side in the
    way that is at least 3" from the target; enemies in the way still stop it (s. 8)."""
    clear = geometry.distance(in_the_way, shot.target)
    return in_the_way.side == shot.firer.side and geometry.at_least(clear, LIGHT_MORTAR_OVERSHOOT_CLEAR)


def house_fire(shot: Shot) -> HouseFire:
    """The weapon and category of a shot, or refused with the reason (s. 5 Direct Fire, Ranges)."""
    mine, theirs = traits_of(shot.firer), traits_of(shot.target)
    if shot.weapon is not None:
        fire = _chosen_weapon(shot, mine, theirs, shot.weapon)
    elif theirs.troop_type.is_afv:
        fire = _at_armour(shot.firer, mine)
    else:
        fire = _at_soft_target(shot.firer, mine, theirs)
    check_fire_into_building(shot, fire)
    if not in_range(fire.weapon, shot.range):
        raise IllegalCommand(f"{shot.firer.name}'s {fire.weapon.value} cannot reach {shot.range:.1f}\"")
    if _hull_gun(shot, fire, mine) and not fixed_gun_bears(_off_centreline(shot)):
        text = f"{shot.target.name} is outside the straight-ahead arc of {shot.firer.name}'s hull-mounted gun"
        turning = turn_to_face(shot.firer, shot.target)
        raise IllegalCommand(cited(f"{text}: {turning}, or fire the second gun", "5.3"))
    if fire.weapon is Weapon.HULL_MG and not hull_mg_bears(_off_centreline(shot)):
        raise IllegalCommand(  # fired on its own; joining the gun, it stays silent (hull_mg_joins_in)
            f"{shot.target.name} is outside {shot.firer.name}'s hull MG arc (45 degrees either side of "
            f"its centreline): {turn_to_face(shot.firer, shot.target)}"
        )
    return fire


def _hull_gun(shot: Shot, fire: HouseFire, mine: HouseTraits) -> bool:
    """s. 5: the shot fires a main gun mounted in the hull (the Grant's 75mm), not its turret's."""
    return fire.weapon is Weapon.GUN and mine.hull_gun and shot.weapon != "second_gun"


def fires_from_hull(shot: Shot) -> bool:
    """s. 5 Arcs of fire: the shot fires only hull-mounted weapons (a hull gun, or the hull MG on
    its own), so no turret turns for it. A shot the firer may not take turns nothing either way:
    its refusal comes from :func:`house_fire`."""
    if shot.weapon == "hull_mg":
        return True
    try:
        fire = house_fire(shot)
    except IllegalCommand:
        return False
    return _hull_gun(shot, fire, traits_of(shot.firer))


def check_fire_into_building(shot: Shot, fire: HouseFire) -> None:
    """s. 5 Buildings: small arms, MGs and HE reach troops in a building only if they fired out
    this turn; otherwise medium or heavy HE goes at the building as a whole (shell:)."""
    target = shot.target
    if not target.in_building or target.fired_this_turn:
        return
    if fire.category in (FireCategory.SMALL_ARMS, FireCategory.MG):
        raise IllegalCommand(
            f"{target.name} is in {target.in_building} and has not fired out: "
            "small arms and machine guns cannot reach it"
        )
    if fire.category is FireCategory.HE:
        raise IllegalCommand(
            f"{target.name} is in {target.in_building} and has not fired out: "
            f"fire HE at the building as a whole (shell:{target.in_building})"
        )


def to_hit_cover(shot: Shot) -> Cover:
    """s. 5: 50% cover (prepared defences, or a tank hull down) and lesser cover (woods, walls,
    hedges) as the 2015 table's cover kinds read them."""
    if shot.hull_down or shot.cover is CoverKind.FORTIFICATION or shot.target.in_building:
        return Cover.HALF
    return Cover.LESSER if shot.cover is CoverKind.COVER else Cover.OPEN


def resolve_house_shot(shot: Shot, dice: DiceSource) -> ShotResult:
    """The to-hit throw (s. 5), then armour penetration or the casualty throw; and the hull MG's
    own throw after it, if it joins in."""
    result = _resolve(shot, house_fire(shot), dice)
    if not (shot.weapon or "").endswith(HULL_MG_TOO) or result.fate is not Fate.STANDS:
        return result
    return hull_mg_joins_in(shot, result, dice)


def hull_mg_joins_in(shot: Shot, main: ShotResult, dice: DiceSource) -> ShotResult:
    """s. 5 AFVs with multiple weapons: the hull MG supplements the gun or coaxial MG at the same
    target if it is within the MG's 12" and its pintle arc, with its own throw of one die (MG
    fire, or AP fire with no AP rating at an AFV); otherwise it stays silent."""
    if not (in_range(Weapon.HULL_MG, shot.range) and hull_mg_bears(_off_centreline(shot))):
        return replace(main, text=f"{main.text}; the hull MG cannot bear on {shot.target.name}")
    marked = replace(shot, target=shot.target.model_copy(update={"morale_markers": main.markers}))
    extra = _resolve(marked, _machine_gun_fire(Weapon.HULL_MG, traits_of(shot.target)), dice)
    return replace(
        extra,
        text=f"{main.text}; with it, {extra.text}",
        hits=main.hits,
        passengers_out=main.passengers_out or extra.passengers_out,
        to_hit=main.to_hit,
    )


def _resolve(shot: Shot, fire: HouseFire, dice: DiceSource) -> ShotResult:
    """One weapon's shot: the to-hit throw, then penetration or the casualty throw."""
    firer, target = shot.firer, shot.target
    situation = FireSituation(
        fire.category,
        firer_markers=firer.morale_markers,
        firer_moves=shot.firer_moved,
        target_moved=shot.target_moved,
        enemy_infantry_near=shot.enemy_infantry_close,
        cover=to_hit_cover(shot),
        sniper=firer.profile.has(Special.SNIPER),
    )
    modifiers = to_hit_modifiers(situation)
    total = sum(value for _, value in modifiers)
    rolls = [
        roll_needing(dice, 10, f"to hit, {firer.name} at {target.name}", HIT_SCORE - total)
        for _ in range(to_hit_dice(fire.weapon, shot.range))
    ]
    scored = hits(rolls, total)
    text = (
        f"{firer.name} fires {fire.category.value} ({fire.weapon.value}) "
        f'at {target.name} ({shot.range:.1f}"): {describe_throw(modifiers, rolls, scored)}'
    )
    to_hit = to_hit_throw(modifiers, rolls)
    if not scored:
        result = ShotResult(cited(text, "5.4"), 0, target.morale_markers)
    elif fire.category is FireCategory.AP:
        result = _armour_piercing(shot, fire, scored, dice, text)
    else:
        result = _casualties(shot, fire, scored, dice, text)
    return replace(result, to_hit=to_hit)


def _armour_piercing(shot: Shot, fire: HouseFire, scored: int, dice: DiceSource, text: str) -> ShotResult:
    """s. 5 Armour penetration and the damage throw."""
    firer, target = shot.firer, shot.target
    front = geometry.in_arc(target.position, target.facing, firer.position, 2 * FRONT_ARC)
    armour = (target.profile.armour_front if front else target.profile.armour_side) or 0
    assert fire.ap is not None
    markers = target.morale_markers
    roll = roll_as(dice, 10, f"penetration, {firer.name} at {target.name}", DieCategory.PENETRATION)
    double = scored >= 2
    result = armour_penetration(fire.ap, armour, shot.range, roll, double_hit=double)
    aspect = "front" if front else "side"
    sum_text = f"{roll}+{fire.ap}{'+2 double hit' if double else ''} against {aspect} armour {armour}"
    if result is Penetration.NO_EFFECT:
        text += f"; AP {fire.ap} cannot hurt {aspect} armour {armour}: no effect"
        return ShotResult(cited(text, "5.5"), scored, markers)
    if result is Penetration.ONE_MARKER:
        text += f"; 1 marker; penetration {sum_text}: bounces"
        return ShotResult(cited(text, "5.5"), scored, markers + 1)
    if result is Penetration.TWO_MARKERS:
        text += f"; 1 marker; penetration {sum_text}: equal, +1 marker"
        return ShotResult(cited(text, "5.5"), scored, markers + 2)
    markers += 1
    damage_roll = roll_as(dice, 6, f"damage, {firer.name} at {target.name}", DieCategory.PENETRATION)
    machine_gun = fire.weapon in (Weapon.TRIPOD_MG, Weapon.TURRET_MG, Weapon.HULL_MG)
    score = damage_score(damage_roll, heavy_he=fire.he is HEClass.HEAVY, machine_gun=machine_gun)
    damage = damage_result(score)
    text += f"; 1 marker; penetration {sum_text}: penetrates. Damage {damage_roll}" + (
        f"+1 heavy HE = {score}" if score != damage_roll else ""
    )
    fate = {Damage.DESTROYED: Fate.FOOM, Damage.EXPLOSION: Fate.KABOOM}.get(damage, Fate.STANDS)
    if damage is Damage.SHAKEN:
        markers = max(markers, damage_markers(damage, target.profile.morale or 0))
    else:
        markers += damage_markers(damage, target.profile.morale or 0)
    text = cited(text + f": {damage.value}", "5.6")
    return ShotResult(text, scored, markers, fate=fate, passengers_out=True)


def _casualties(shot: Shot, fire: HouseFire, scored: int, dice: DiceSource, text: str) -> ShotResult:
    """s. 5 Casualty throw (and flamethrowers against vehicles)."""
    firer, target = shot.firer, shot.target
    theirs = traits_of(target)
    if fire.category is FireCategory.FLAMETHROWER and flamethrower_destroys(
        scored, soft_or_open_topped=theirs.troop_type in (TroopType.SOFT, TroopType.OPEN_AFV)
    ):
        return ShotResult(
            cited(text + ": two flamethrower hits burn the vehicle out", "5.8"),
            scored,
            target.morale_markers,
            fate=Fate.FOOM,
        )
    column = (
        HE_COLUMN[fire.he] if fire.category is FireCategory.HE and fire.he else CASUALTY_COLUMN[fire.category]
    )
    protection = Protection.DEFENCES if target.in_building else PROTECTION[shot.cover]
    needed = casualty_score_needed(column, protection)
    rolls = [
        roll_as(dice, 6, f"casualty throw, {firer.name} at {target.name}", DieCategory.CASUALTY)
        for _ in range(scored)
    ]
    added = casualty_markers(scored, rolls, needed)
    total = target.morale_markers + added
    text += (
        f"; casualty throw ({column.value}, {protection.value}) {needed}+, "
        f"rolled {', '.join(map(str, rolls))}: "
        f"{counted(added, 'marker')} -> {target.name} has {counted(total, 'marker')}"
    )
    flame = fire.category is FireCategory.FLAMETHROWER
    return ShotResult(cited(text, "5.8" if flame else "5.7"), scored, total)


def mg_crew_problem(state: GameState, vehicle: Unit) -> str | None:
    """House Rules V1.0, s. 2: why a transport's machine gun may not fire for want of a crew
    (neither carrying its unit nor with a friendly infantry squad adjacent), or None."""
    if not (vehicle.profile.has(Special.TRANSPORT) and traits_of(vehicle).mg):
        return None
    carrying = any(u.embarked_in == vehicle.id and not u.destroyed for u in state.units.values())
    squads = [
        geometry.distance(vehicle, u)
        for u in state.units.values()
        if u.side == vehicle.side
        and u.on_table
        and u.embarked_in is None
        and traits_of(u).troop_type is TroopType.INFANTRY
    ]
    if transport_mg_crewed(carrying=carrying, nearest_squad=min(squads, default=None)):
        return None
    return (
        f"{vehicle.name}'s machine gun has no crew: it fires while carrying its unit "
        "or with an infantry squad beside it"
    )
