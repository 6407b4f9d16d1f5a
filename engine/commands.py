"""Commands players send to the engine, and the orders they declare.

An *order* is what a side declares with a command token (pp. 4-5): activate a unit for up to
two actions, fall back, take a Company Morale Test, or move a platoon. The active side
declares orders with :class:`Declare`; the other side answers the reaction window with
:class:`React` (carrying an order of its own) or :class:`DeclineReaction`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, SerializeAsAny

from engine.cards import Card
from engine.state import Point, Unit


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


# --- kinds: each action and command adds itself as it is written ---------------------------


ACTION_KINDS: dict[str, type[BaseAction]] = {}  # every kind of action, by its ``kind``
COMMAND_KINDS: dict[str, type[BaseCommand]] = {}  # every kind of command, by its ``kind``


class _Kind(_Frozen):
    """A model told apart from its siblings by its ``kind``: each subclass, in this module or in
    a rule set's package, adds itself to its family's table as it is written."""

    _family: ClassVar[dict]

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: object) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if "kind" not in cls.model_fields:  # the family's base
            return
        kind = cls.model_fields["kind"].default
        if cls._family.get(kind, cls) is not cls:
            raise TypeError(f"Two {cls.__name__} kinds are called {kind!r}")
        cls._family[kind] = cls


def _reader(base: type[_Kind], family: dict[str, type], what: str) -> Callable[[object], _Kind]:
    """Read a model of ``family`` from its data, by the ``kind`` it names."""

    def read(value: object) -> _Kind:
        if isinstance(value, base):
            return value
        kind = value.get("kind") if isinstance(value, dict) else None
        if kind not in family:
            raise ValueError(f"There is no {what} of the kind {kind!r}")
        return family[kind].model_validate(value)

    return read


# --- actions inside one activation (p. 5) -------------------------------------------------


class BaseAction(_Kind):
    """One action of an activation; a rule set's package adds its own by subclassing."""

    _family = ACTION_KINDS

    @property
    def action_cost(self) -> int:
        """Actions used of the two an activation allows: one, or two for a rapid move."""
        return 1


class Move(BaseAction):
    """Move along ``path`` (waypoints after the start position). Rapid costs two actions."""

    kind: Literal["move"] = "move"
    path: tuple[Point, ...]
    rapid: bool = False
    road: bool = False  # claims the rapid road rate (p. 8)
    reverse: bool = False
    facing: float | None = None  # final facing; for vehicles it counts against the turn limit
    own_transport: bool = False  # move the unit's own (empty) transport instead of the unit (p. 20)

    @property
    def action_cost(self) -> int:
        return 2 if self.rapid else 1


class Fire(BaseAction):
    kind: Literal["fire"] = "fire"
    target: str
    flamethrower: bool = False  # a tank with both a gun and a flamethrower fires the flame (p. 22)
    # House Rules V1.0: which of a vehicle's weapons (s. 5; "+hull_mg": the hull MG joins in), or a
    # squad's light mortar firing direct HE (s. 5 Light mortars); the 2015 rules: "light_mortar", a
    # British infantry command unit's 2" mortar (p. 22)
    weapon: (
        Literal["gun", "mg", "hull_mg", "gun+hull_mg", "mg+hull_mg", "light_mortar", "second_gun"] | None
    ) = None
    # House Rules V1.0, s. 5 Firing from buildings: the side and storey a unit in a building fires out
    # of (None: the side facing the target, and the storey it holds, else the ground floor)
    face: str | None = None
    storey: int | None = None


class Embark(BaseAction):
    kind: Literal["embark"] = "embark"
    transport: str


class Disembark(BaseAction):
    kind: Literal["disembark"] = "disembark"
    to: Point


class LaySmoke(BaseAction):
    """The unit rolls to hide itself in smoke (p. 12): this is its fire action."""

    kind: Literal["smoke"] = "smoke"
    from_bearing: float | None = None
    supporter: str | None = None  # a friendly unit able to fire anti-tank rounds over 12"
    at: Point | None = None  # House Rules V1.0: the spot a gun fires its smoke round at


# any action of the table, read by its kind and written with all its fields
Action = Annotated[SerializeAsAny[BaseAction], PlainValidator(_reader(BaseAction, ACTION_KINDS, "action"))]


# --- orders (what a command token buys) ---------------------------------------------------


class UnitOrder(_Frozen):
    """Activate (or reactivate) a unit for its actions, in the order given."""

    kind: Literal["unit"] = "unit"
    unit: str
    actions: tuple[Action, ...]
    reroll: bool = True  # use the command re-roll on a failed test if it is available

    @property
    def units(self) -> tuple[str, ...]:
        """Every unit the order activates, the one its token goes on first (p. 4)."""
        return (self.unit,)


class FallBackOrder(_Frozen):
    kind: Literal["fall_back"] = "fall_back"
    unit: str
    path: tuple[Point, ...]
    reverse: bool = False
    reroll: bool = True

    @property
    def units(self) -> tuple[str, ...]:
        return (self.unit,)


class MoraleTestOrder(_Frozen):
    kind: Literal["company_morale_test"] = "company_morale_test"

    @property
    def units(self) -> tuple[str, ...]:
        return ()


class PlatoonMember(_Frozen):
    unit: str
    move: Move


class PlatoonOrder(_Frozen):
    kind: Literal["platoon"] = "platoon"
    members: tuple[PlatoonMember, ...]

    @property
    def units(self) -> tuple[str, ...]:
        return tuple(m.unit for m in self.members)


Order = Annotated[UnitOrder | FallBackOrder | MoraleTestOrder | PlatoonOrder, Field(discriminator="kind")]


# --- commands ----------------------------------------------------------------------------


class BaseCommand(_Kind):
    """One command a player sends; a rule set's package adds its own by subclassing."""

    _family = COMMAND_KINDS


DISPLAY_NAME_LIMIT = 100  # characters of a display name a command carries (engine.roster keeps fewer)


class JoinSide(BaseCommand):
    """A player takes a place on a side (several players may share one), in a scenario game
    bringing the side's force: its nation and its units, not yet on the table."""

    kind: Literal["join_side"] = "join_side"
    side: str
    player: str
    name: str | None = Field(default=None, max_length=DISPLAY_NAME_LIMIT)  # the player's display name
    nation: str | None = None
    units: tuple[Unit, ...] = ()
    points_limit: int | None = None  # the force's points limit, for the scenario's points rule
    rules: str | None = None  # the rule set the force was built under, if it has units of its own


class StartGame(BaseCommand):
    kind: Literal["start_game"] = "start_game"


class Deploy(BaseCommand):
    """Set one unit up on the table before the game starts (pp. 28-31)."""

    kind: Literal["deploy"] = "deploy"
    side: str
    unit: str
    at: Point
    facing: float = 90.0
    decoy: Point | None = None  # a sniper team's dummy marker (p. 20)


class FinishDeployment(BaseCommand):
    """A side has set up all it wants; the rest wait in reserve (pp. 26-29)."""

    kind: Literal["finish_deployment"] = "finish_deployment"
    side: str
    player: str | None = None  # in a team game, the player done with their own units (None: the side)


class DealCards(BaseCommand):
    """Shuffle the server's Tactical Advantage deck, set two aside, deal seven each (p. 33)."""

    kind: Literal["deal_cards"] = "deal_cards"
    deck: tuple[Card, ...]


class CardAction(BaseCommand):
    """Exchange a card (once), play one for its cost, put a token on a lasting card in play, or
    trigger it (p. 33)."""

    kind: Literal["card"] = "card"
    side: str
    action: Literal["exchange", "play", "token", "trigger"]
    card: str


class CallReserves(BaseCommand):
    """At the start of a turn, the reserves a side calls in, in order of preference (p. 26)."""

    kind: Literal["call_reserves"] = "call_reserves"
    side: str
    units: tuple[str, ...] = ()


class ChooseInitiative(BaseCommand):
    kind: Literal["choose_initiative"] = "choose_initiative"
    side: str
    go_first: bool


class Declare(BaseCommand):
    kind: Literal["declare"] = "declare"
    side: str
    order: Order
    player: str | None = None  # in a team game, whose tokens pay (p. 25)


class React(BaseCommand):
    kind: Literal["react"] = "react"
    side: str
    window: int
    order: Order
    at: Point | None = None  # where along the enemy's declared move the reaction happens (p. 6)
    player: str | None = None  # in a team game, whose tokens pay (p. 25)


class DeclineReaction(BaseCommand):
    kind: Literal["decline_reaction"] = "decline_reaction"
    side: str
    window: int


class RemoveMarkers(BaseCommand):
    """After a Company Morale Test: the unit that loses its marker(s) (p. 13)."""

    kind: Literal["remove_markers"] = "remove_markers"
    side: str
    unit: str


class ChooseTarget(BaseCommand):
    """After the declared target was lost: a new target within 4", or none (p. 7)."""

    kind: Literal["choose_target"] = "choose_target"
    side: str
    target: str | None


class PassInitiative(BaseCommand):
    kind: Literal["pass_initiative"] = "pass_initiative"
    side: str


class GiveBonusTokens(BaseCommand):
    """The commanding officer hands out the turn's bonus tokens (p. 25)."""

    kind: Literal["give_bonus_tokens"] = "give_bonus_tokens"
    side: str
    player: str
    shares: tuple[tuple[str, int], ...]


class RequestReserve(BaseCommand):
    """A player asks the commanding officer for a unit of the reserve pool (p. 25)."""

    kind: Literal["request_reserve"] = "request_reserve"
    side: str
    player: str
    unit: str


class AnswerReserve(BaseCommand):
    """The commanding officer grants or refuses a request for reserves (p. 25)."""

    kind: Literal["answer_reserve"] = "answer_reserve"
    side: str
    player: str
    unit: str
    grant: bool


class RefereeCorrection(BaseCommand):
    """A referee puts the game right (p. 25: the referee adjudicates), giving a reason that
    goes in the log. ``change`` says what is corrected; the other fields are its details."""

    kind: Literal["referee_correction"] = "referee_correction"
    referee: str
    reason: str
    change: Literal[
        "move",
        "markers",
        "tokens",
        "turn",
        "initiative",
        "reveal",
        "hide",
        "destroy",
        "restore",
        "give_units",
        "stand_in",
    ]
    unit: str | None = None
    side: str | None = None
    player: str | None = None
    at: Point | None = None
    facing: float | None = None
    value: int | None = None
    to: str | None = None  # give_units: the player who takes over
    to_name: str | None = Field(default=None, max_length=DISPLAY_NAME_LIMIT)  # give_units: their display name


class AppointReferee(BaseCommand):
    """``by`` makes ``user`` one of the game's referees, or (``appoint`` False) no longer one.
    Who may is the bot's to say (a referee, the holder of a referee role, a server admin)."""

    kind: Literal["appoint_referee"] = "appoint_referee"
    by: str
    user: str
    appoint: bool = True


class RefereeRuling(BaseCommand):
    """A referee decides a situation the rules do not cover; the ruling is logged (p. 25)."""

    kind: Literal["referee_ruling"] = "referee_ruling"
    referee: str
    ruling: str


class UndoActions(BaseCommand):
    """A referee takes back the last actions: the game is rebuilt from its log without the
    commands numbered in ``undone`` (positions in the game's log, from 1)."""

    kind: Literal["undo_actions"] = "undo_actions"
    referee: str
    reason: str
    undone: tuple[int, ...]


class RefereeClock(BaseCommand):
    """A referee runs the clock (p. 25): stops or restarts every timer of the game, gives the
    open reaction window more minutes, or gives the side the game waits for some hours to act,
    after which the game passes or declines for it. The times are the bot's to keep; the
    engine checks the request and logs it."""

    kind: Literal["referee_clock"] = "referee_clock"
    referee: str
    action: Literal["pause", "resume", "extend", "deadline"]
    side: str | None = None  # deadline: the side the game waits for
    minutes: int | None = None  # extend
    hours: float | None = None  # deadline


class RefereeObjective(BaseCommand):
    """A referee sets an objective (p. 25: the sides may have different objectives): for one
    side only, or for both (``side`` None)."""

    kind: Literal["referee_objective"] = "referee_objective"
    referee: str
    id: str
    at: Point
    side: str | None = None


class RefereeSpecialRule(BaseCommand):
    """A referee adds a special rule known to one side, to both, or to the referee only (p. 25)."""

    kind: Literal["referee_special_rule"] = "referee_special_rule"
    referee: str
    audience: str  # a side, "both" or "referee"
    text: str


class RefereeBriefing(BaseCommand):
    """A referee sends one side intelligence that only it reads (p. 25)."""

    kind: Literal["referee_briefing"] = "referee_briefing"
    referee: str
    side: str
    text: str


class RefereeForceGuideline(BaseCommand):
    """A referee sets what force a side may bring to a scenario game (p. 25): a points limit,
    and a guideline in words read by that side alone."""

    kind: Literal["referee_force_guideline"] = "referee_force_guideline"
    referee: str
    side: str
    points: int
    text: str = ""


class RefereeDeploymentZone(BaseCommand):
    """A referee sets the rectangle a side sets up in (p. 25), corner (x1, y1) to (x2, y2) in
    inches, in place of the scenario's area."""

    kind: Literal["referee_deployment_zone"] = "referee_deployment_zone"
    referee: str
    side: str
    x1: float
    y1: float
    x2: float
    y2: float


class Concede(BaseCommand):
    kind: Literal["concede"] = "concede"
    side: str


# any command of the table, read by its kind and written with all its fields
Command = Annotated[
    SerializeAsAny[BaseCommand], PlainValidator(_reader(BaseCommand, COMMAND_KINDS, "command"))
]
