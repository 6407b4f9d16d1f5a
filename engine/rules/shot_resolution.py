"""Resolving a shot from its dice: hits, markers, penetration, damage (Iron Cross 2015, pp. 10-12, 18-20).

:func:`resolve_shot` reads a measured :class:`~engine.rules.firing.Shot`, rolls the dice it
needs and says what the shot did, without touching the game. Play applies the result to the
table; ``/odds`` runs it over every possible die to get exact chances, so the two cannot
disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.dice import DiceSource, DieCategory, roll_as, roll_needing
from engine.event_data import ToHit
from engine.profiles import Special
from engine.rules.armour import (
    Damage,
    Penetration,
    armour_facing,
    armour_penetration,
    damage_result,
    damage_score,
    flamethrower_penetrates,
    screech_markers,
    weapon_can_exceed_armour,
)
from engine.rules.firing import (
    Shot,
    anti_vehicle_weapon,
    casualty_markers,
    casualty_score_needed,
    counts_as_infantry_target,
    dice_to_fire,
    markers_for_hits,
    to_hit_score_needed,
    weapon_named,
)
from engine.wording import counted


class Fate(StrEnum):
    """What the damage table does to a vehicle beyond its markers (p. 12)."""

    STANDS = "stands"
    KNOCKED_OUT = "knocked out"  # Screech! on a vehicle that cannot take three more markers
    FOOM = "destroyed"
    KABOOM = "explodes"


@dataclass(frozen=True)
class ShotResult:
    """What one shot did to its target."""

    text: str  # the whole shot in words, dice included
    hits: int
    markers: int  # the target's morale markers after the shot
    damage: Damage | None = None  # the damage table's result, if the shot penetrated
    fate: Fate = Fate.STANDS
    passengers_out: bool = False  # a loaded transport that survives must let its passengers out (p. 12)
    to_hit: ToHit | None = None  # the to-hit throw


def resolve_shot(shot: Shot, dice: DiceSource) -> ShotResult:
    """Roll to hit, then the hits' effect on infantry or on a vehicle (pp. 10-12)."""
    firer, target = shot.firer, shot.target
    score = to_hit_score_needed(shot)
    rolls = [
        roll_needing(dice, 10, f"to hit, {firer.name} at {target.name}", score.needed)
        for _ in range(dice_to_fire(shot))
    ]
    hits = sum(1 for r in rolls if r >= score.needed)
    to_hit = ToHit(needed=score.needed, modifiers=score.modifiers, rolls=tuple(rolls), hits=hits)
    fires = " ".join(filter(None, ("fires", weapon_named(shot))))
    text = f'{firer.name} {fires} at {target.name} ({shot.range:.1f}"): needs {to_hit.needs_text()}; '
    text += to_hit.result_text()
    if not hits:
        result = ShotResult(text, hits, target.morale_markers)
    elif counts_as_infantry_target(target):
        result = _hit_infantry(shot, hits, dice, text)
    else:
        result = _hit_vehicle(shot, hits, dice, text)
    return replace(result, to_hit=to_hit)


def _hit_infantry(shot: Shot, hits: int, dice: DiceSource, text: str) -> ShotResult:
    """Markers for the hits, then a casualty roll per hit (p. 10)."""
    target = shot.target
    markers = markers_for_hits(shot, hits)
    needed = casualty_score_needed(shot)
    rolls = [
        roll_as(dice, 6, f"casualty roll, {shot.firer.name} at {target.name}", DieCategory.CASUALTY)
        for _ in range(hits)
    ]
    extra = casualty_markers(shot, rolls)
    total = target.morale_markers + markers + extra
    text += (
        f"; {counted(markers, 'marker')}, casualty {needed}+ rolled "
        f"{', '.join(map(str, rolls))}: +{extra} -> {target.name} has {counted(total, 'marker')}"
    )
    return ShotResult(text, hits, total)


def _hit_vehicle(shot: Shot, hits: int, dice: DiceSource, text: str) -> ShotResult:
    """Against a vehicle (pp. 11-12, 18-20): the hit's marker if the weapon could hurt it,
    then penetration and damage."""
    firer, target = shot.firer, shot.target
    markers = target.morale_markers
    if shot.flamethrower:
        if not target.profile.open_topped:
            text += "; the flame only rattles the enclosed crew: 1 marker"
            return ShotResult(text, hits, markers + 1)
        roll = roll_as(dice, 6, f"flame penetration, {firer.name} at {target.name}", DieCategory.PENETRATION)
        if not flamethrower_penetrates(target, roll):
            text += f"; 1 marker; flame on the open vehicle needs 2+, rolled {roll}: no effect"
            return ShotResult(text, hits, markers + 1)
        text += f"; 1 marker; flame penetrates on 2+ (rolled {roll})"
        return _damage(shot, hits, markers + 1, dice, text)
    if firer.profile.has(Special.SNIPER):
        return ShotResult(text + "; 1 marker", hits, markers + 1)
    aspect = shot.aspect or "front"
    armour = armour_facing(target, aspect)
    weapon = anti_vehicle_weapon(shot)
    if not weapon_can_exceed_armour(weapon, armour, shot):
        text += f"; weapon {weapon} cannot hurt {aspect} armour {armour}: no effect"
        return ShotResult(text, hits, markers)
    roll = roll_as(dice, 10, f"penetration, {firer.name} at {target.name}", DieCategory.PENETRATION)
    result = armour_penetration(roll, weapon, armour, shot)
    text += f"; 1 marker. Penetration ({aspect}) {result.explanation}"
    if result.outcome is Penetration.NONE:
        return ShotResult(text + ": bounces", hits, markers + 1)
    if result.outcome is Penetration.EQUAL:
        return ShotResult(text + ": equal, +1 marker", hits, markers + 2, passengers_out=True)
    return _damage(shot, hits, markers + 1, dice, text + ": penetrates")


def _damage(shot: Shot, hits: int, markers: int, dice: DiceSource, text: str) -> ShotResult:
    """The damage table (p. 12) with its modifiers, on a vehicle already carrying ``markers``."""
    target = shot.target
    roll = roll_as(dice, 6, f"damage, {shot.firer.name} at {target.name}", DieCategory.PENETRATION)
    score, how = damage_score(roll, shot)
    damage = damage_result(score)
    text += f". Damage {how}: {damage.value}"
    fate = Fate.STANDS
    if damage is Damage.RATTLED:
        markers += 1
    elif damage is Damage.SMOKE_AND_SHRAPNEL:
        markers += 2
    elif damage is Damage.SCREECH:
        raised = screech_markers(target.model_copy(update={"morale_markers": markers}))
        if raised is None:
            fate = Fate.KNOCKED_OUT
        else:
            markers = raised
    elif damage is Damage.FOOM:
        fate = Fate.FOOM
    elif damage is Damage.KABOOM:
        fate = Fate.KABOOM
    return ShotResult(text, hits, markers, damage, fate, passengers_out=True)
