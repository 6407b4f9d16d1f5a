"""Firing: dice, the score to hit, morale markers and casualty rolls (Iron Cross 2015, pp. 10-11, 18-20).

The caller measures the table (range, cover, movement) into a :class:`Shot`; these
functions only apply the book's numbers to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import geometry
from engine.event_data import ToHit
from engine.profiles import CommandMortar, Special, UnitClass, load_orbat
from engine.state import CoverKind, Unit

CLOSE_RANGE = 12.0  # inches (p. 10)
IAW_RANGE = 8.0  # infantry anti-tank weapons (p. 11)
FLAMETHROWER_RANGE = 8.0  # p. 18
MORTAR_MINIMUM_RANGE = 12.0  # p. 20
POINT_BLANK = 6.0  # +1 to the weapon value against armour (p. 12)
CASUALTY_SCORE = {CoverKind.OPEN: 4, CoverKind.COVER: 5, CoverKind.FORTIFICATION: 6}
LIGHT_MORTAR = "light_mortar"  # the weapon a command unit names to fire its light mortar (p. 22)


@dataclass(frozen=True)
class Shot:
    """One unit firing at another, as measured on the table."""

    firer: Unit
    target: Unit
    range: float  # edge to edge, inches
    firer_moved: bool  # moved (or traversed its turret past 90 degrees) in this activation
    firer_stationary: bool  # makes no move at all in this activation
    target_moved: bool  # moved this turn, or has declared movement in this activation
    target_in_smoke: bool = False
    enemy_infantry_close: bool = False  # unscreened enemy infantry within 12" of a firing vehicle
    cover: CoverKind = CoverKind.OPEN
    target_in_building: bool = False
    flamethrower: bool = False  # the flame weapon is used
    weapon: str | None = None  # House Rules V1.0: a vehicle's gun, coaxial MG or hull MG, if chosen
    mortar_previous_shots: int = 0  # at this target, in the same spot, this turn
    aspect: str | None = None  # "front" or "side" of a vehicle target, as seen from the firer
    hull_down: bool = False  # a vehicle target behind or in terrain that makes it hull down (p. 12)

    @property
    def close(self) -> bool:
        return self.range <= CLOSE_RANGE

    @property
    def contact(self) -> bool:
        return self.range <= 0.0


@dataclass(frozen=True)
class HitScore:
    needed: int
    modifiers: tuple[tuple[str, int], ...]

    def describe(self) -> str:
        return ToHit(needed=self.needed, modifiers=self.modifiers).needs_text()


def is_tank_gun_7_plus(firer: Unit) -> bool:
    """Vehicle guns of weapon value 7 or more (p. 10: morale markers and tank guns)."""
    return firer.is_vehicle and (firer.profile.weapon or 0) >= 7


def counts_as_infantry_target(target: Unit) -> bool:
    """Infantry detachments and support squads (AT, MG, mortar and infantry guns count as such)."""
    return not target.is_vehicle


def cover_counts(target: Unit) -> bool:
    """Cover changes the casualty roll against infantry and support squads (p. 10); a vehicle's
    armour takes the hit instead, where only being hull down helps it (p. 12)."""
    return counts_as_infantry_target(target)


def fires_flamethrower(firer: Unit, chosen: bool) -> bool:
    """Whether a unit's shot is flame (p. 18): a flamethrower team has no other weapon, and a
    flame tank that also has a gun, the Churchill Crocodile, fires one or the other as its player
    chooses (p. 22)."""
    return chosen or (firer.profile.has(Special.FLAMETHROWER) and firer.profile.weapon is None)


def command_mortar(unit: Unit) -> CommandMortar | None:
    """The light mortar the unit fires as a mortar team, or None: a British infantry command
    unit has a 2" mortar (p. 22); the other nations' command units have none."""
    mortar = load_orbat(unit.profile.nation).command_mortar
    if mortar is None or not unit.is_command or unit.unit_class is not UnitClass.INFANTRY:
        return None
    return mortar


def firing_command_mortar(unit: Unit) -> Unit | None:
    """The command unit as it fires its light mortar (p. 22): a mortar team's rules (p. 20) are
    its rules for the shot. None if it has no light mortar."""
    if command_mortar(unit) is None:
        return None
    profile = unit.profile.model_copy(update={"specials": unit.profile.specials | {Special.MORTAR}})
    return unit.model_copy(update={"profile": profile})


TURNING_MOVE = 1.0  # inches: the move suggested to turn a unit toward a target


def turn_to_face(firer: Unit, target: Unit) -> str:
    """How a unit brings a target it cannot bear on into its arc (p. 11): it turns as it moves,
    ending a move facing the way its last leg went (p. 8), so a short move at the target does it."""
    ahead = geometry.point_toward(firer.position, target.position, TURNING_MOVE)
    return (
        "turn to face it first with a move toward it, as a unit ends a move facing the way it went "
        f'(e.g. move:{ahead}, {TURNING_MOVE:g}" toward it)'
    )


def weapon_named(shot: Shot) -> str:
    """The weapon a unit with a choice of two fires, as the shot's words name it (p. 22)."""
    firer = shot.firer
    if shot.flamethrower and firer.profile.weapon is not None:
        return "its flamethrower"
    mortar = command_mortar(firer) if shot.weapon == LIGHT_MORTAR else None
    return f"its {mortar.name}" if mortar else ""


def dice_to_fire(shot: Shot) -> int:
    """Number of d10 to roll (p. 10; AT guns p. 18; flamethrowers p. 18; infantry guns p. 19; MG p. 19).

    Two dice at infantry or support squads up to 12", otherwise one; one at vehicles.
    AT guns always roll one. MG teams roll two at infantry at any range, but only if they do
    not move. Infantry guns roll two at close infantry only if stationary. Flamethrowers roll
    two at infantry.
    """
    firer = shot.firer.profile
    if firer.has(Special.ANTI_TANK_GUN):
        return 1
    if not counts_as_infantry_target(shot.target):
        return 1
    if shot.flamethrower:
        return 2
    if firer.has(Special.MG_TEAM):
        return 2 if shot.firer_stationary else 1
    if firer.has(Special.INFANTRY_GUN) and not shot.firer_stationary:
        return 1
    return 2 if shot.close else 1


def to_hit_score_needed(shot: Shot) -> HitScore:
    """The d10 score to hit (p. 10 table; mortars p. 20; snipers p. 20).

    5+ modified by: firer moved in this activation -2 (not infantry detachments), target moved
    this turn -1, target in smoke -1, close range +1, unscreened enemy infantry within 12" of a
    firing vehicle -1, -1 per morale marker on the firer. Mortars need 8+ for a first shot and
    gain +1 for each earlier shot this turn at the same target in the same spot. Snipers +2.
    """
    firer = shot.firer
    base = 5
    mods: list[tuple[str, int]] = []
    if firer.profile.has(Special.MORTAR):
        base = 8
        if shot.mortar_previous_shots:
            mods.append(("ranged in", shot.mortar_previous_shots))
    if shot.firer_moved and firer.unit_class is not UnitClass.INFANTRY:
        mods.append(("moved", -2))
    if shot.target_moved:
        mods.append(("target moved", -1))
    if shot.target_in_smoke:
        mods.append(("smoke", -1))
    if shot.close:
        mods.append(("close range", +1))
    if firer.is_vehicle and shot.enemy_infantry_close:
        mods.append(('enemy infantry within 12"', -1))
    if firer.morale_markers:
        mods.append(("morale markers", -firer.morale_markers))
    if firer.profile.has(Special.SNIPER):
        mods.append(("sniper", +2))
    return HitScore(base - sum(v for _, v in mods), tuple(mods))


def effective_cover(shot: Shot) -> CoverKind:
    """The cover that counts for the casualty roll (pp. 10, 18-20).

    Gun-shielded AT and infantry guns count as in cover against infantry fire; smoke gives
    cover. Flamethrowers ignore all cover. Mortars and tank guns of weapon 7+ treat cover as
    open and fortifications as cover. Howitzers ignore cover given by a building.
    """
    cover = shot.cover
    target, firer = shot.target, shot.firer
    if shot.target_in_smoke and cover is CoverKind.OPEN:
        cover = CoverKind.COVER
    if target.profile.gun_shield and not firer.is_vehicle and cover is CoverKind.OPEN:
        cover = CoverKind.COVER
    if shot.flamethrower:
        return CoverKind.OPEN
    if firer.profile.has(Special.HOWITZER) and shot.target_in_building:
        return CoverKind.OPEN
    if firer.profile.has(Special.MORTAR) or is_tank_gun_7_plus(firer):
        return {
            CoverKind.OPEN: CoverKind.OPEN,
            CoverKind.COVER: CoverKind.OPEN,
            CoverKind.FORTIFICATION: CoverKind.COVER,
        }[cover]
    return cover


def casualty_score_needed(shot: Shot) -> int:
    """The d6 per hit that adds a further morale marker to infantry (pp. 10, 18-20).

    4+ in the open, 5+ in cover, 6 in fortifications (after :func:`effective_cover`).
    Howitzers and infantry guns convert one better (3+ in the open); snipers one worse (5+);
    flamethrower teams are hit one easier (3+ in the open). Never easier than 2+ nor harder
    than 6.
    """
    score = CASUALTY_SCORE[effective_cover(shot)]
    firer = shot.firer.profile
    if firer.has(Special.HOWITZER) or firer.has(Special.INFANTRY_GUN):
        score -= 1
    if firer.has(Special.SNIPER):
        score += 1
    mortar = command_mortar(shot.firer) if shot.weapon == LIGHT_MORTAR else None
    if mortar is not None:  # p. 22: the 2" mortar's extra marker needs one more than a mortar team's
        score += mortar.casualty_score - CASUALTY_SCORE[CoverKind.OPEN]
    if shot.target.profile.has(Special.FLAMETHROWER):
        score -= 1
    return max(2, min(6, score))


def extra_marker_cap(shot: Shot) -> int:
    """Most fire adds at most one extra marker from casualty rolls (p. 10).

    Tank guns of weapon 7+ at close range against infantry in cover (not open, not
    fortifications) may add one per converted hit, i.e. up to two (p. 10).
    """
    if is_tank_gun_7_plus(shot.firer) and shot.close and shot.cover is CoverKind.COVER:
        return 2
    return 1


def markers_for_hits(shot: Shot, hits: int) -> int:
    """Morale markers for the hits themselves (p. 10; MG p. 19; mortar p. 20; flamethrower p. 18).

    Any number of hits gives one marker; MG teams, flamethrowers against infantry, and
    mortars against infantry give one per hit.
    """
    if hits == 0:
        return 0
    firer = shot.firer.profile
    per_hit = counts_as_infantry_target(shot.target) and (firer.has(Special.MORTAR) or shot.flamethrower)
    if firer.has(Special.MG_TEAM) or per_hit:
        return hits
    return 1


def casualty_markers(shot: Shot, casualty_rolls: list[int]) -> int:
    """Extra markers from the casualty rolls: converted hits, capped (p. 10)."""
    needed = casualty_score_needed(shot)
    converted = sum(1 for roll in casualty_rolls if roll >= needed)
    return min(converted, extra_marker_cap(shot))


def why_cannot_fire(shot: Shot, *, rapid_move: bool) -> str | None:
    """The reason a unit may not fire at a target, or None if it may (pp. 8, 11-12, 18-20).

    A transported unit may fire from its transport with its own weapons (p. 20).
    """
    firer, target = shot.firer, shot.target
    profile = firer.profile
    name = firer.name
    if rapid_move:
        return f"{name} makes a rapid move and may not fire in the same activation"
    if firer.smoke is not None:
        return f"{name} is hidden in smoke and may not fire this turn"
    if fires_flamethrower(firer, shot.flamethrower):
        if not profile.has(Special.FLAMETHROWER):
            return f"{name} has no flamethrower"
        if not shot.firer_stationary:
            return f"{name}'s flamethrower fires only when stationary"
        if shot.range > FLAMETHROWER_RANGE:
            return f'{target.name} is {shot.range:.1f}" away: flamethrowers reach 8"'
        return None
    if profile.has(Special.SNIPER):
        if not shot.firer_stationary:
            return f"{name} fires only when stationary"
        if target.is_vehicle and not target.profile.open_topped:
            return "snipers may only shoot at infantry or open-topped vehicles"
        return None
    if profile.weapon is None:
        return f"{name} has no weapon"
    if (profile.has(Special.ANTI_TANK_GUN) or profile.has(Special.MORTAR)) and not (shot.firer_stationary):
        return f"{name} fires only when stationary"
    if profile.has(Special.MORTAR) and shot.range < MORTAR_MINIMUM_RANGE:
        return f'{target.name} is {shot.range:.1f}" away: mortars may not fire under 12"'
    if firer.unit_class is UnitClass.INFANTRY and target.is_vehicle:
        if shot.contact and firer.iaw_weapon is None and shot.aspect == "front":
            return f"infantry may not attack {target.name} in contact from the front"
        if shot.contact:
            return None
        if firer.iaw_weapon is None:
            return f"{name} has no anti-tank weapon: it must be in contact with {target.name}"
        if shot.range > IAW_RANGE:
            return f'{target.name} is {shot.range:.1f}" away: anti-tank weapons reach 8"'
    return None


def anti_vehicle_weapon(shot: Shot) -> int:
    """The weapon value used against armour (pp. 11-12; IAW p. 19; MG and mortar pp. 19-20)."""
    firer = shot.firer
    if firer.profile.has(Special.MG_TEAM) or firer.profile.has(Special.MORTAR):
        return 0
    iaw = firer.iaw_weapon
    if firer.unit_class is UnitClass.INFANTRY and iaw is not None and shot.range <= IAW_RANGE:
        return max(iaw, firer.profile.weapon or 0)
    return firer.profile.weapon or 0
