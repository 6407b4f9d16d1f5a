"""Declaring an assault (House Rules V1.0, s. 4 and 6): who may start close combat, against
whom, from how close; and the 3" no-closer limit for everything else.

Infantry squads attack any unit; enclosed AFVs overrun infantry and support squads, choosing
when they declare whether they drive through or fall back after the round.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import geometry
from engine.actions.base import actions_of
from engine.battlefield import live_units
from engine.commands import Action, Fire
from engine.deployment.hidden import as_seen
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.rules.firing import LIGHT_MORTAR
from engine.state import Unit
from engine.variants.house_v1.buildings import building
from engine.variants.house_v1.close_combat.rules import CLOSE_COMBAT_RANGE, may_close_within_3
from engine.variants.house_v1.commands import CloseCombat
from engine.variants.house_v1.shot import traits_of
from engine.variants.house_v1.traits import TroopType


def check_no_assault_after_light_mortar(attacker: Unit, actions: Sequence[Action]) -> None:
    """s. 5 Light mortars: a squad firing its light mortar neither moves nor uses its other
    weapons in that activation, so it does not follow the shot with an assault, which is both a
    dash and an exchange of fire (s. 6)."""
    if any(fire.weapon == LIGHT_MORTAR for fire in actions_of(actions, Fire)):
        raise IllegalCommand(
            f"{attacker.name} fires its light mortar in this activation: it may not also assault (s. 5)"
        )


def check_close_combat(state: GameState, attacker: Unit, action: CloseCombat) -> Unit:
    """The defender of a legal assault by ``attacker`` (where it stands when the assault comes),
    or refused with the reason."""
    target = state.units.get(action.target)
    if target is None or target.side == attacker.side or not target.on_table or target.hidden:
        raise IllegalCommand(f"There is no enemy unit {action.target!r} to assault")
    if target.embarked_in is not None:
        raise IllegalCommand(f"{target.name} is inside a transport: assault the vehicle")
    if attacker.embarked_in is not None:
        raise IllegalCommand(f"{attacker.name} must get out of its transport first")
    if attacker.in_building is not None and attacker.in_building != target.in_building:
        raise IllegalCommand(f"{attacker.name} must come out of {attacker.in_building} first (leave:x,y)")
    kind = traits_of(attacker).troop_type
    if target.in_building and kind is not TroopType.INFANTRY:
        raise IllegalCommand(f"Only infantry squads attack {target.in_building}, an occupied building (s. 6)")
    if kind is TroopType.ENCLOSED_AFV:
        if target.is_vehicle:
            raise IllegalCommand("Vehicles cannot close combat each other (House Rules s. 6)")
    elif kind is not TroopType.INFANTRY:
        raise IllegalCommand("Only infantry squads attack in close combat, and enclosed AFVs overrun (s. 6)")
    if not action.overrun and kind is not TroopType.ENCLOSED_AFV:
        raise IllegalCommand("Only an AFV overrunning chooses to fall back instead of driving through (s. 6)")
    if target.in_building and target.in_building == attacker.in_building:
        gap = 0.0  # s. 6: a further attack by troops already established inside
    elif target.in_building:  # the walls are what must be reached
        gap = geometry.footprint(attacker).distance(
            geometry.feature_shape(building(state, target.in_building))
        )
    else:
        gap = geometry.distance(attacker, target)
    if gap > CLOSE_COMBAT_RANGE + 1e-6:
        raise IllegalCommand(
            f'{attacker.name} must be within 3" of {target.name} to assault it ({gap:.1f}" away): move first'
        )
    return target


def check_closing(state: GameState, mover: Unit, assaulting: str | None) -> None:
    """s. 4 Closing with the enemy: no unit ends a move nearer than 3" to an enemy it can see,
    unless it goes on to assault that enemy; enclosed AFVs may."""
    if may_close_within_3(traits_of(as_seen(mover))):
        return
    for enemy in live_units(state):
        if (
            enemy.side == mover.side
            or enemy.hidden
            or enemy.embarked_in is not None
            or enemy.id == assaulting
        ):
            continue
        gap = geometry.distance(mover, enemy)
        if gap < CLOSE_COMBAT_RANGE - 1e-6:
            raise IllegalCommand(
                f'{mover.name} would end {gap:.1f}" from {enemy.name}: no nearer than 3" without close combat'
            )
