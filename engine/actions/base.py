"""What every kind of action is (p. 5): a command it answers to, a check made when the order is
declared, the carrying out when its turn comes, and the words that tell it.

An action is checked against an :class:`Activation` (the unit as it will stand after the actions
before it) and carried out in a :class:`Turn` (the pending declaration and the log). A rule set
offers an action by naming it (:attr:`engine.rulesets.RuleSet.actions`). Each action also declares
the options of ``/act`` a player asks for it with (:class:`OrderOption`) and makes itself from
them (:meth:`ActionType.from_options`): both front ends read ``/act`` from these declarations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from engine.commands import Action, Order, UnitOrder
from engine.events import EventLog
from engine.game_state import GameState, Pending, Step
from engine.state import Unit

if TYPE_CHECKING:
    from engine.rulesets import RuleSet

A = TypeVar("A")

ACTION_TYPES: dict[str, ActionType] = {}  # every kind of action there is, by the name rule sets list it under


@dataclass(frozen=True)
class TapButton:
    """The button of the tap flow's order choice that gives an option: alone (``label``) and, if
    ``after_move`` labels one, after a move too."""

    label: str
    after_move: str | None = None


@dataclass(frozen=True)
class OrderOption:
    """An option of the order a player gives a unit (``/act``), declared by the action it asks for.
    The front ends read the typed text by its kind before the action sees it: a ``position`` as a
    point, a ``path`` as the waypoints of a move, a ``unit`` as the id of a unit (``whose`` says
    which side's: the player's own, or the enemy's, aimed at); others as typed. An option that
    ``reacts`` is one of ``/react``'s too; one with a ``tap`` button is offered by taps, a flag
    set or an enemy aimed at."""

    name: str
    kind: Literal["text", "flag", "choice", "position", "path", "unit"]
    description: str
    choices: tuple[str, ...] = ()
    default: object = None
    whose: Literal["own", "enemy"] | None = None
    claims: tuple[str, ...] = ()  # options it takes over from other actions when given
    reacts: bool = False  # a reaction may be given it too (/react)
    reaction_description: str | None = None  # its description in /react, where /act's does not fit
    tap: TapButton | None = None

    def __post_init__(self) -> None:
        if self.tap is not None and self.kind != "flag" and (self.kind, self.whose) != ("unit", "enemy"):
            raise TypeError(f"{self.name}: a tap button sets a flag or aims at an enemy unit")


@dataclass
class Activation:
    """An activation being checked before any die is rolled, one action after another."""

    state: GameState
    unit: Unit  # the unit ordered, as it stands when the order is declared
    actions: tuple[Action, ...]
    moves: bool  # the activation includes movement (the firer-moved penalty, p. 10)
    rapid: bool  # the activation includes a rapid move
    current: Unit  # the unit as it will stand after the actions checked so far
    transport: Unit | None  # its transport, likewise

    @property
    def kinds(self) -> list[str]:
        return [a.kind for a in self.actions]

    def following(self, index: int) -> Action | None:
        return self.actions[index + 1] if index + 1 < len(self.actions) else None


@dataclass
class Turn:
    """One action of a declared order being carried out."""

    state: GameState
    pending: Pending
    step: Step
    unit: Unit
    order: UnitOrder
    order_moves: bool  # the activation includes movement (p. 10)
    log: EventLog

    def wasted(self, text: str) -> bool:
        """The action is lost, told in the log; the declaration goes on."""
        self.log.emit("wasted", text, self.unit.id, side=self.unit.side)
        return True


class ActionType(Generic[A]):
    """One kind of action. Subclasses say which command they answer (``command``) and how the
    action is checked, carried out and told."""

    name: str  # how rule sets list it
    command: type[A]
    what: str  # the action in words, for the refusal under a rule set that lacks it
    counts_as_moving = False  # for the firer-moved penalty (p. 10)
    is_shot = False  # an activation has one shot at most (p. 5)
    # for units that may move or fire in an activation, not both (House Rules V1.0, s. 4)
    moves_unit = False
    fires = False
    may_be_interrupted = False  # a reaction may name a point along it (p. 6)
    closes_reaction_route = False  # no reaction point after it: its dice are rolled (p. 6)
    last_in_activation: str | None = None  # why no action may follow it, if none may
    options: tuple[OrderOption, ...] = ()  # the options of /act that ask for it
    place = 0  # where it stands among the actions of an order read from /act's options
    place_if_first: int | None = None  # where it stands instead with first:fire (a shot)

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Every action class written is registered under its own name."""
        super().__init_subclass__(**kwargs)
        if cls.name in ACTION_TYPES:
            raise TypeError(f"{cls.__name__} needs a name of its own: {cls.name} is taken")
        ACTION_TYPES[cls.name] = cls()

    def from_options(self, given: Mapping[str, Any]) -> A | None:
        """The action that the order's options ask for (every option of /act, read, or its
        default), or None when they ask for none."""
        return None

    def check(self, activation: Activation, index: int, action: A) -> None:
        """Raise :class:`~engine.errors.IllegalCommand` if the action may not be declared."""

    def execute(self, turn: Turn, action: A) -> bool:
        """Carry the action out; False when a player must choose before the rest can follow."""
        raise NotImplementedError

    def describe(self, state: GameState, action: A) -> str:
        raise NotImplementedError

    def at_declaration(
        self, state: GameState, pending: Pending, order: UnitOrder, log: EventLog
    ) -> str | None:
        """What happens as ``order``, which begins with this action, is declared, before any
        reaction; why no reaction is allowed to it, or None."""
        return None

    def reaction_problem(self, reaction: Order) -> str | None:
        """Why the enemy may not react this way to an order that includes this action, or None."""
        return None

    def refusal(self, offering: Sequence[RuleSet]) -> str:
        """Why a game under another rule set may not take this action."""
        return f"{self.what} is part of the {' and '.join(r.title for r in offering)}"


def actions_of(actions: Sequence[Action], command: type[A]) -> list[A]:
    """The actions of one command class among an activation's, in order."""
    return [a for a in actions if isinstance(a, command)]
