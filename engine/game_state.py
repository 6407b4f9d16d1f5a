"""The whole game as one pydantic model, including the declaration being resolved."""

from __future__ import annotations

from functools import cache
from typing import Literal, get_args, get_origin

from pydantic import BaseModel, Field, SerializeAsAny, model_validator

from engine.cards import Cards
from engine.commands import Move, Order
from engine.deployment.areas import DeploymentAreas
from engine.deployment.plan import DeploymentPlan, RefereeZone
from engine.state import (
    ForceGuideline,
    Objective,
    Phase,
    Point,
    RefereeRule,
    Side,
    TableSize,
    TerrainFeature,
    Unit,
)
from engine.variant_parts import VariantPart, WithVariant, part_for

Who = Literal["active", "reactor"]


class Step(BaseModel):
    """One piece of a declaration's resolution, run in order (reaction sequence, p. 6)."""

    kind: Literal["test", "act", "morale_test", "fall_back", "platoon"]
    who: Who
    index: int = 0
    leg: Literal["whole", "to_interrupt", "onward"] = "whole"  # of a move a reaction cut in two


class Interrupt(BaseModel):
    """A reaction that happens partway through the active unit's move (p. 6)."""

    index: int  # of the move among the active order's actions
    at: Point
    to_point: Move
    onward: Move


class Aim(BaseModel):
    """What a firing unit aimed at when it declared, for changing target (p. 7)."""

    target: str
    at: Point
    visible: list[str]  # enemies it could see when it declared


class Choice(BaseModel):
    """A decision the resolution waits for."""

    kind: str  # remove_markers, choose_target, or a choice only the game's rule set has
    side: str
    options: list[str]
    remove_all: bool = False  # Company Morale Test of 6
    roll: int = 0  # the Company Morale Test's die (veterans under the house rules, s. 7)
    who: Who = "active"


class Pending(WithVariant):
    """A declared order between its declaration and the end of its resolution."""

    window: int
    side: str
    order: Order
    first_action: bool  # the first token spent since this side gained the initiative
    reactor_side: str
    reaction: Order | None = None
    seized: bool = False
    steps: list[Step] = Field(default_factory=list)
    stopped: list[Who] = Field(default_factory=list)  # activations cut short
    aims: dict[str, Aim] = Field(default_factory=dict)  # by firing unit id
    target_override: dict[str, str | None] = Field(default_factory=dict)
    choice: Choice | None = None
    tokens_before: dict[str, int] = Field(default_factory=dict)  # by unit id
    fire_target_moved: list[str] = Field(default_factory=list)  # units that declared moves
    interrupt: Interrupt | None = None
    variant: SerializeAsAny[VariantPart] | None = None  # what only the game's rule set has (engine.variants)

    def order_of(self, who: Who) -> Order | None:
        return self.order if who == "active" else self.reaction

    def side_of(self, who: Who) -> str:
        return self.side if who == "active" else self.reactor_side


class PlannedScenario(BaseModel):
    """A book scenario chosen at /game new, set up once both sides have brought their forces."""

    id: str
    roles: dict[str, str]  # side -> its role in the briefing
    attacker_choice: Literal["aggressive_command", "preliminary_bombardment"] | None = None
    plotted: bool = False  # both sides set up in secret at once, instead of turn about
    areas: DeploymentAreas = "edges"  # the deployment areas' shape


class GameResult(BaseModel):
    winner: str | None  # None: a draw
    reason: str


class GameState(WithVariant):
    ruleset: str = "core_2015"
    table: TableSize = Field(default_factory=TableSize)
    terrain: tuple[TerrainFeature, ...] = ()
    breached_wire: list[str] = Field(default_factory=list)
    objectives: list[Objective] = Field(default_factory=list)
    team_size: int | None = None  # players bringing a force to each side, in a team game (p. 25)
    referees: list[str] = Field(default_factory=list)  # users who see everything and may correct
    player_names: dict[str, str] = Field(default_factory=dict)  # each player's shown name (engine.roster)
    # the bot plays a side whose player missed this many deadlines in a row (0: never; a daily
    # game's setting, engine.stand_in)
    stand_in_after: int = 0
    referee_roles: tuple[str, ...] = ()  # server roles whose holders may take a referee's seat
    referee_rules: tuple[RefereeRule, ...] = ()  # special rules the referee added (p. 25)
    force_guidelines: tuple[ForceGuideline, ...] = ()  # what each side may bring, set by the referee (p. 25)
    deployment_zones: tuple[RefereeZone, ...] = ()  # where each side sets up, set by the referee (p. 25)
    sides: dict[str, Side]
    units: dict[str, Unit]
    turn: int = 0
    last_turn: int | None = None  # the scenario's length; None plays until a force breaks
    random_length: bool = False  # after the last turn a d6 of 4+ adds one more (p. 27)
    extended: bool = False
    phase: Phase = Phase.SETUP
    active_side: str | None = None
    initiative_winner: str | None = None
    reserve_calls_due: list[str] = Field(default_factory=list)  # sides yet to call reserves this turn
    scenario: str | None = None  # the book scenario's id (engine/data/scenarios.yaml)
    deployment: DeploymentPlan | None = None  # setting up for the scenario, before the game starts
    planned_scenario: PlannedScenario | None = None  # waiting for the sides' forces
    cards: Cards | None = None  # Tactical Advantage Cards, if the players use them (p. 33)
    attacker: str | None = None  # the attacking side, in Capture and Breakthrough
    attacker_starts: bool = False  # the attacker has the initiative in the first turn (pp. 30-31)
    objectives_left_bare: bool = False  # Capture: no defender near an objective at the last turn's end
    spent_since_initiative: int = 0
    declarations: int = 0
    pending: Pending | None = None
    result: GameResult | None = None
    variant: SerializeAsAny[VariantPart] | None = None  # what only the game's rule set has (engine.variants)

    @model_validator(mode="after")
    def _with_rule_set_parts(self) -> GameState:
        self.add_rule_set_parts()
        return self

    def add_rule_set_parts(self) -> None:
        """Give the game and its units the parts their rule set has, where they lack them."""
        part = part_for(GameState, self.ruleset)
        if part is not None and self.variant is None:
            self.variant = part()
        part = part_for(Unit, self.ruleset)
        if part is not None:
            for unit in self.units.values():
                unit.variant = unit.variant or part()

    def fork(self) -> GameState:
        """A copy to change freely: every list, dict and unfrozen model in it is the copy's own.
        Frozen models (profiles, terrain, points, orders) cannot change, so both share them."""
        return _forked(self)

    def other_side(self, side: str) -> str:
        (other,) = (name for name in self.sides if name != side)
        return other

    def units_of(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def unit(self, unit_id: str) -> Unit:
        return self.units[unit_id]


@cache
def _changeable_fields(model: type[BaseModel]) -> tuple[str, ...] | None:
    """The fields of a model that may hold something the engine changes in place; None for a
    frozen model, which is shared whole (it must hold nothing changeable itself)."""
    if model.model_config.get("frozen", False):
        return None
    return tuple(name for name, field in model.model_fields.items() if _may_change(field.annotation))


def _may_change(annotation: object) -> bool:
    """Whether a value of this type could be changed in place: a list, dict or set, an
    unfrozen model, or a tuple or union with one of them in it."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _changeable_fields(annotation) is not None
    origin = get_origin(annotation)
    if origin in (list, dict, set):
        return True
    return origin is not Literal and any(_may_change(arg) for arg in get_args(annotation))


def _forked(value):
    """``value`` with everything in it that may change copied, and the rest shared."""
    if isinstance(value, BaseModel):
        fields = _changeable_fields(type(value))
        if fields is None:
            return value
        if not fields:
            return value.model_copy()
        return value.model_copy(update={name: _forked(value.__dict__[name]) for name in fields})
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return [_forked(item) for item in value]
    if isinstance(value, dict):
        return {key: _forked(item) for key, item in value.items()}
    if isinstance(value, set | tuple):
        return type(value)(_forked(item) for item in value)
    return value
