"""The order registry: every kind of order a command token buys (pp. 4-5, 13), by its ``kind``.
An order is registered by writing its :class:`OrderKind` subclass for its command model.

The game flow never asks what class an order is: it asks the order's kind (:func:`order_kind`),
which checks it, names its units, lays out the steps that carry it out, splits it into the halves
of a reaction, and words it. This module is the only one that knows the order classes apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from pydantic import BaseModel

from engine.actions.activation import check_unit_order, describe_actions
from engine.actions.base import actions_of
from engine.actions.registry import action_type
from engine.commands import Action, FallBackOrder, MoraleTestOrder, Move, Order, PlatoonOrder, UnitOrder
from engine.events import EventLog
from engine.game_state import GameState, Pending, Step, Who
from engine.orders import check_fall_back, check_platoon_order
from engine.rules.activation import TestScore, morale_test_reaction_score_needed
from engine.state import Unit

C = TypeVar("C", bound=BaseModel)

ORDER_KINDS: dict[str, OrderKind] = {}  # every kind of order there is, by its command's ``kind``

Naming = Callable[[Unit], str]


class OrderKind(Generic[C]):
    """One kind of order. Subclasses say which command model they answer (``command``) and how
    the order is checked, carried out and told."""

    command: type[C]
    falls_back = False  # its tests are a falling back unit's (p. 13)
    reaction_refusal: str | None = None  # why it may not be a reaction, if it may not

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Every order kind written is registered under its command's ``kind``."""
        super().__init_subclass__(**kwargs)
        kind = cls.command.model_fields["kind"].default
        if kind in ORDER_KINDS:
            raise TypeError(f"{cls.__name__} needs a kind of its own: {kind} is taken")
        ORDER_KINDS[kind] = cls()

    def check(self, state: GameState, side: str, order: C) -> None:
        """Raise :class:`~engine.errors.IllegalCommand` if ``side`` may not declare the order now."""

    def activation(self, order: C) -> UnitOrder | None:
        """The order as one unit's activation for its actions (p. 5), or None if it is not one."""
        return None

    def moves(self, order: C) -> list[tuple[str, Move]]:
        """The units the order moves, each with its move, known as it is declared."""
        return []

    def movers(self, order: C) -> list[str]:
        """The units the order declares a move for: a target that has declared a move counts as
        moving (p. 10)."""
        return [unit for unit, _ in self.moves(order)]

    def steps(self, order: C) -> list[Step]:
        """The steps that carry the order out when the active side declared it (pp. 4-5)."""
        raise NotImplementedError

    def reaction_halves(self, order: C) -> tuple[list[Step], list[Step]]:
        """The steps of the order as a reaction: the first half goes before the active unit's
        action, the rest after it (p. 6)."""
        raise NotImplementedError

    def set_reaction_score(self) -> TestScore | None:
        """The score its reaction test needs whatever the unit, or None when the reacting
        unit's own score counts (p. 6)."""
        return None

    def at_declaration(self, state: GameState, pending: Pending, order: C, log: EventLog) -> str | None:
        """What happens as the order is declared, before any reaction; why no reaction is
        allowed to it, or None."""
        return None

    def reaction_problem(self, state: GameState, order: C, reaction: Order) -> str | None:
        """Why the enemy may not react this way to the order, or None."""
        return None

    def mark_declared(self, state: GameState, order: C) -> None:
        """What declaring the order marks on its units, besides the token."""

    def describe(self, state: GameState, order: C, name: Naming) -> str:
        """The order in words, its units called by ``name``."""
        raise NotImplementedError


class UnitOrderKind(OrderKind[UnitOrder]):
    """Activate (or reactivate) a unit for its actions (pp. 4-5)."""

    command = UnitOrder

    def check(self, state: GameState, side: str, order: UnitOrder) -> None:
        check_unit_order(state, side, order)

    def activation(self, order: UnitOrder) -> UnitOrder:
        return order

    def movers(self, order: UnitOrder) -> list[str]:
        return [order.unit] if actions_of(order.actions, Move) else []

    def steps(self, order: UnitOrder) -> list[Step]:
        acts = [Step(kind="act", who="active", index=i) for i in range(len(order.actions))]
        return [Step(kind="test", who="active"), *acts]

    def reaction_halves(self, order: UnitOrder) -> tuple[list[Step], list[Step]]:
        first = [Step(kind="act", who="reactor", index=0)]
        rest = [Step(kind="act", who="reactor", index=i) for i in range(1, len(order.actions))]
        return first, rest

    def at_declaration(
        self, state: GameState, pending: Pending, order: UnitOrder, log: EventLog
    ) -> str | None:
        """What its first action does as it is declared (:meth:`ActionType.at_declaration`)."""
        if not order.actions:
            return None
        return action_type(state, order.actions[0]).at_declaration(state, pending, order, log)

    def reaction_problem(self, state: GameState, order: UnitOrder, reaction: Order) -> str | None:
        """The first problem an action of the order has with the reaction."""
        problems = (action_type(state, action).reaction_problem(reaction) for action in order.actions)
        return next((problem for problem in problems if problem), None)

    def describe(self, state: GameState, order: UnitOrder, name: Naming) -> str:
        return f"{name(state.units[order.unit])}: " + describe_actions(state, order.actions)


class FallBackKind(OrderKind[FallBackOrder]):
    """Fall back (p. 13): a rapid move away from the enemy, then a chance to rally."""

    command = FallBackOrder
    falls_back = True

    def check(self, state: GameState, side: str, order: FallBackOrder) -> None:
        check_fall_back(state, side, order)

    def moves(self, order: FallBackOrder) -> list[tuple[str, Move]]:
        return [(order.unit, Move(path=order.path, reverse=order.reverse))]

    def steps(self, order: FallBackOrder) -> list[Step]:
        return [Step(kind="test", who="active"), Step(kind="fall_back", who="active")]

    def reaction_halves(self, order: FallBackOrder) -> tuple[list[Step], list[Step]]:
        return [Step(kind="fall_back", who="reactor")], []

    def describe(self, state: GameState, order: FallBackOrder, name: Naming) -> str:
        return f"{name(state.units[order.unit])} falls back to {order.path[-1]}"


class MoraleTestKind(OrderKind[MoraleTestOrder]):
    """A Company Morale Test (p. 13): a token spent to rally the side's units."""

    command = MoraleTestOrder

    def steps(self, order: MoraleTestOrder) -> list[Step]:
        return [Step(kind="morale_test", who="active")]

    def reaction_halves(self, order: MoraleTestOrder) -> tuple[list[Step], list[Step]]:
        return [Step(kind="morale_test", who="reactor")], []

    def set_reaction_score(self) -> TestScore:
        return morale_test_reaction_score_needed()

    def at_declaration(
        self, state: GameState, pending: Pending, order: MoraleTestOrder, log: EventLog
    ) -> str | None:
        if pending.first_action:
            return "No reaction is allowed to a Company Morale Test taken first after gaining the initiative"
        return None

    def describe(self, state: GameState, order: MoraleTestOrder, name: Naming) -> str:
        return "Company Morale Test"


class PlatoonKind(OrderKind[PlatoonOrder]):
    """Platoon movement (p. 9): three units make one normal move each for one token."""

    command = PlatoonOrder
    reaction_refusal = "A platoon move cannot be a reaction"

    def check(self, state: GameState, side: str, order: PlatoonOrder) -> None:
        check_platoon_order(state, side, order, state.sides[side].nation)

    def moves(self, order: PlatoonOrder) -> list[tuple[str, Move]]:
        return [(m.unit, m.move) for m in order.members]

    def steps(self, order: PlatoonOrder) -> list[Step]:
        return [Step(kind="platoon", who="active")]

    def mark_declared(self, state: GameState, order: PlatoonOrder) -> None:
        for member in order.members:
            state.units[member.unit].platoon_moved = True

    def describe(self, state: GameState, order: PlatoonOrder, name: Naming) -> str:
        names = ", ".join(name(state.units[m.unit]) for m in order.members)
        return f"platoon move of {names}"


def order_kind(order: Order) -> OrderKind:
    """The kind of this order, found by the ``kind`` its command names."""
    return ORDER_KINDS[order.kind]


def order_units(order: Order) -> list[str]:
    """Every unit an order activates (:attr:`engine.commands.UnitOrder.units`)."""
    return list(order.units)


def order_unit(order: Order) -> str | None:
    """The unit an order activates: a platoon's first member, none for a morale test."""
    units = order_units(order)
    return units[0] if units else None


def reaction_problem(state: GameState, order: Order, reaction: Order) -> str | None:
    """Why the enemy may not react to ``order`` with ``reaction`` (pp. 6-7), or None."""
    refusal = order_kind(reaction).reaction_refusal
    return refusal or order_kind(order).reaction_problem(state, order, reaction)


def declared_actions(order: Order) -> tuple[Action, ...]:
    """The actions an order declares: a unit's activation's, none for any other kind."""
    activation = order_kind(order).activation(order)
    return activation.actions if activation else ()


def activation_of(pending: Pending, who: Who) -> UnitOrder | None:
    """The active or the reacting side's order as one unit's activation, if it is one."""
    order = pending.order_of(who)
    return order_kind(order).activation(order) if order is not None else None
