"""The actions only the House Rules V1.0 have, each registered under its name as it is written
(:class:`~engine.actions.base.ActionType`) and offered by :class:`~engine.variants.house_v1.rules.HouseRules`:
moves that keep out of buildings and 3" from the enemy, going into and out of buildings (s. 4),
smoke rounds at a spot, HE at a building and indirect fire (s. 5), and close combat (s. 6): the
last action of an activation; charged as the first, its initiation test is taken when it is
declared and no reaction is allowed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.actions.base import ActionType, Activation, OrderOption, TapButton, Turn, actions_of
from engine.actions.moving import MoveAction
from engine.actions.shooting import FireAction, SmokeAction
from engine.commands import Action, Fire, LaySmoke, Move, Order, UnitOrder
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.game_state import GameState, Pending
from engine.order_kinds import declared_actions
from engine.state import Unit
from engine.variants.house_v1.buildings import (
    check_enter_building,
    check_leave_building,
    check_not_into_buildings,
    check_shell_building,
    enter_building,
    leave_building,
    shell_building,
)
from engine.variants.house_v1.close_combat.assault import (
    check_close_combat,
    check_closing,
    check_no_assault_after_light_mortar,
)
from engine.variants.house_v1.close_combat.play import (
    building_defence_choice,
    fall_back_choice,
    fight,
    initiation_test,
)
from engine.variants.house_v1.commands import (
    Bombard,
    CloseCombat,
    EnterBuilding,
    LeaveBuilding,
    RequestFire,
    ShellBuilding,
)
from engine.variants.house_v1.indirect_fire.orders import check_bombard, check_request_fire
from engine.variants.house_v1.indirect_fire.play import bombard, request_fire
from engine.variants.house_v1.smoke.screens import check_smoke_round, fire_smoke_round
from engine.variants.house_v1.traits import MoveClass

if TYPE_CHECKING:
    from engine.rulesets import RuleSet

FIRE = FireAction()  # what a unit that fails its initiation test does instead (s. 6)


class HouseMoveAction(MoveAction):
    """A move under the House Rules V1.0 (s. 4): vehicles keep out of buildings, a gun that
    cannot move itself is towed, and no unit ends nearer than 3" to an enemy unless it assaults."""

    name = "house_move"

    def check_route(self, state: GameState, mover: Unit, move: Move) -> None:
        check_not_into_buildings(state, mover, move.path)
        house = mover.profile.house
        if mover.embarked_in is None and house and house.move is MoveClass.NONE:
            raise IllegalCommand(f"{mover.name} cannot move on its own: it must be towed")

    def check_end(self, state: GameState, mover: Unit, following: Action | None) -> None:
        """s. 4: no nearer than 3" to an enemy, unless the move leads into close combat with it."""
        charges = actions_of([following] if following is not None else [], CloseCombat)
        check_closing(state, mover, charges[0].target if charges else None)


class SmokeRoundAction(SmokeAction):
    """A smoke round fired at a spot, a 2" puff joining any screen beside it (House Rules V1.0,
    s. 5)."""

    name = "smoke_round"
    options = (
        OrderOption(
            "smoke_at", "position", 'House rules: a gun fires a smoke round at this spot (a 2" puff)'
        ),
    )

    def from_options(self, given: Mapping[str, Any]) -> LaySmoke | None:
        return LaySmoke(at=given["smoke_at"]) if given["smoke_at"] else super().from_options(given)

    def check(self, activation: Activation, index: int, action: LaySmoke) -> None:
        check_smoke_round(activation.state, activation.current, action.at)

    def execute(self, turn: Turn, action: LaySmoke) -> bool:
        fire_smoke_round(turn.state, turn.unit, action.at or turn.unit.position, turn.log)
        return True


class ShellBuildingAction(ActionType[ShellBuilding]):
    """Medium or heavy HE fired at a building as a whole (House Rules V1.0, s. 5 Buildings)."""

    name = "shell_building"
    command = ShellBuilding
    what = "Firing at a building as a whole"
    is_shot = True
    fires = True
    options = (
        OrderOption(
            "shell", "text", "House rules: fire medium or heavy HE at this building as a whole, e.g. church"
        ),
    )
    place = 70

    def from_options(self, given: Mapping[str, Any]) -> ShellBuilding | None:
        return ShellBuilding(building=given["shell"].strip()) if given["shell"] else None

    def check(self, activation: Activation, index: int, action: ShellBuilding) -> None:
        check_shell_building(activation.state, activation.current, action.building)

    def execute(self, turn: Turn, action: ShellBuilding) -> bool:
        shell_building(turn.state, turn.unit, action.building, turn.log)
        return True

    def describe(self, state: GameState, action: ShellBuilding) -> str:
        return f"fire HE at {action.building}"


class RequestFireAction(ActionType[RequestFire]):
    """A spotter calls indirect fire onto a spot it sees (House Rules V1.0, s. 5)."""

    name = "request_fire"
    command = RequestFire
    what = "Indirect fire with spotters"
    options = (
        OrderOption(
            "call_fire",
            "position",
            "House rules: a spotter calls indirect fire onto this spot (its whole activation)",
        ),
    )
    place = 90

    def from_options(self, given: Mapping[str, Any]) -> RequestFire | None:
        return RequestFire(at=given["call_fire"]) if given["call_fire"] else None

    def check(self, activation: Activation, index: int, action: RequestFire) -> None:
        check_request_fire(activation.state, activation.current, action.at, len(activation.actions))

    def execute(self, turn: Turn, action: RequestFire) -> bool:
        request_fire(turn.state, turn.unit, action.at, turn.log)
        return True

    def describe(self, state: GameState, action: RequestFire) -> str:
        return f"call for fire at {action.at}"


class BombardAction(ActionType[Bombard]):
    """A mortar, infantry gun or howitzer fires at its side's fire marker (House Rules V1.0, s. 5)."""

    name = "bombard"
    command = Bombard
    what = "Indirect fire with spotters"
    fires = True
    options = (
        OrderOption(
            "bombard",
            "flag",
            "House rules: a mortar, infantry gun or howitzer fires at your fire marker (with smoke: smoke)",
            default=False,
            claims=("smoke",),
        ),
    )
    place = 100

    def from_options(self, given: Mapping[str, Any]) -> Bombard | None:
        return Bombard(smoke=given["smoke"]) if given["bombard"] else None

    def check(self, activation: Activation, index: int, action: Bombard) -> None:
        check_bombard(activation.state, activation.current, activation.kinds)

    def execute(self, turn: Turn, action: Bombard) -> bool:
        """Fired only if the marker is still there to fire at."""
        try:
            check_bombard(turn.state, turn.unit)
        except IllegalCommand as problem:
            return turn.wasted(f"{turn.unit.name} cannot fire: {problem}")
        bombard(turn.state, turn.unit, turn.log, smoke=action.smoke)
        return True

    def describe(self, state: GameState, action: Bombard) -> str:
        return "fire at the fire marker"


class EnterBuildingAction(ActionType[EnterBuilding]):
    """Going into a building as into a transport (House Rules V1.0, s. 4)."""

    name = "enter_building"
    command = EnterBuilding
    what = "Occupying buildings"
    counts_as_moving = True
    moves_unit = True
    options = (
        OrderOption("enter", "text", "House rules: the building to go into (after any move), e.g. church"),
    )
    place = 60

    def from_options(self, given: Mapping[str, Any]) -> EnterBuilding | None:
        return EnterBuilding(building=given["enter"].strip()) if given["enter"] else None

    def check(self, activation: Activation, index: int, action: EnterBuilding) -> None:
        check_enter_building(activation.state, activation.current, action.building)
        activation.current = activation.current.model_copy(update={"in_building": action.building})

    def execute(self, turn: Turn, action: EnterBuilding) -> bool:
        enter_building(turn.state, turn.unit, action.building, turn.log)
        return True

    def describe(self, state: GameState, action: EnterBuilding) -> str:
        return f"go into {action.building}"


class LeaveBuildingAction(ActionType[LeaveBuilding]):
    """Coming out of a building to a point, as out of a transport (House Rules V1.0, s. 4)."""

    name = "leave_building"
    command = LeaveBuilding
    what = "Occupying buildings"
    counts_as_moving = True
    moves_unit = True
    options = (
        OrderOption(
            "leave", "position", "House rules: come out of the building to here first (x,y or a grid square)"
        ),
    )
    place = 20

    def from_options(self, given: Mapping[str, Any]) -> LeaveBuilding | None:
        return LeaveBuilding(to=given["leave"]) if given["leave"] else None

    def check(self, activation: Activation, index: int, action: LeaveBuilding) -> None:
        check_leave_building(activation.state, activation.current, action.to)
        activation.current = activation.current.model_copy(
            update={"in_building": None, "position": action.to}
        )

    def execute(self, turn: Turn, action: LeaveBuilding) -> bool:
        leave_building(turn.state, turn.unit, action.to, turn.log)
        return True

    def describe(self, state: GameState, action: LeaveBuilding) -> str:
        return f"come out to {action.to}"


class CloseCombatAction(ActionType[CloseCombat]):
    """An assault on an enemy within 3" (House Rules V1.0, s. 6)."""

    name = "close_combat"
    command = CloseCombat
    what = "Close combat"
    last_in_activation = "Close combat ends an activation: nothing may follow it (House Rules s. 6)"
    options = (
        OrderOption(
            "assault",
            "unit",
            'House rules: the enemy within 3" (after any move) to close with, last',
            whose="enemy",
            reacts=True,
            reaction_description='House rules: the enemy within 3" to close with',
            tap=TapButton("Assault", after_move="Move and assault"),
        ),
        OrderOption(
            "overrun",
            "flag",
            "House rules: an AFV's assault drives through after the round (default), or falls back",
            default=True,
        ),
    )
    place = 80

    def from_options(self, given: Mapping[str, Any]) -> CloseCombat | None:
        return CloseCombat(target=given["assault"], overrun=given["overrun"]) if given["assault"] else None

    def check(self, activation: Activation, index: int, action: CloseCombat) -> None:
        check_no_assault_after_light_mortar(activation.unit, activation.actions)
        check_close_combat(activation.state, activation.current, action)

    def at_declaration(
        self, state: GameState, pending: Pending, order: UnitOrder, log: EventLog
    ) -> str | None:
        """Charged as the first action, the initiation test is taken at once: passed, no reaction
        is allowed (s. 3); failed, the unit fires at its target instead (s. 6)."""
        pending.initiated = initiation_test(
            state, state.units[order.unit], pending.tokens_before.get(order.unit, 0), log
        )
        if not pending.initiated:
            pending.order = fire_instead(order, order.actions[0])
            return None
        return "No reaction is allowed to a close combat charged at once (House Rules s. 3)"

    def reaction_problem(self, reaction: Order) -> str | None:
        """s. 6: before a close combat the enemy reacts by firing or by moving."""
        if len(declared_actions(reaction)) > 1:
            return "Before a close combat the enemy may react by firing or moving, not both (s. 6)"
        return None

    def execute(self, turn: Turn, action: CloseCombat) -> bool:
        """The initiation test (unless passed at declaration), then the fight; a unit that fails
        fires instead if it has not fired yet."""
        state, unit, log, pending = turn.state, turn.unit, turn.log, turn.pending
        defender = state.units[action.target]
        if defender.destroyed or not defender.on_table:
            return turn.wasted(f"{unit.name} has nobody left to assault")
        try:
            check_close_combat(state, unit, action)
        except IllegalCommand as problem:
            return turn.wasted(f"{unit.name} cannot assault: {problem}")
        who = turn.step.who
        tokens = pending.tokens_before.get(unit.id, 0)
        if (who == "active" and pending.initiated) or initiation_test(state, unit, tokens, log):
            pending.choice = building_defence_choice(state, unit, defender, who, log)  # s. 6
            if pending.choice is not None:
                return False
            if fight(state, unit, defender, log, overrun=action.overrun):
                return True
            pending.choice = fall_back_choice(defender, who, log)  # s. 6: the vehicle may fall back
            return False
        if actions_of(turn.order.actions, Fire):
            return True
        return FIRE.execute(turn, Fire(target=action.target))

    def describe(self, state: GameState, action: CloseCombat) -> str:
        return f"close combat with {state.units[action.target].name}"

    def refusal(self, offering: Sequence[RuleSet]) -> str:
        """Naming how to start a game that has it."""
        hints = " or ".join(f"/game new ruleset:{r.name}" for r in offering)
        return f"{super().refusal(offering)} ({hints})"


def fire_instead(order: UnitOrder, charge: CloseCombat) -> UnitOrder:
    """s. 6: a unit that fails its initiation test may fire at its target instead, unless it
    has already fired in this activation."""
    fired = bool(actions_of(order.actions, Fire))
    kept = tuple(a for a in order.actions if a is not charge)
    return order.model_copy(update={"actions": kept if fired else (*kept, Fire(target=charge.target))})


def charge_of(order: UnitOrder, index: int) -> CloseCombat:
    """The close combat a choice in the middle of it belongs to."""
    (charge,) = actions_of(order.actions[index : index + 1], CloseCombat)
    return charge
