"""The game state: pydantic models for the table, the units on it, the sides and the turn.

Coordinates are table inches: x runs along the table's width from the left edge, y along its
depth from the near edge. Facing is in degrees, counter-clockwise from the +x direction.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny

from engine.profiles import UnitClass, UnitProfile
from engine.variant_parts import VariantPart, WithVariant


class Point(BaseModel):
    model_config = ConfigDict(frozen=True)

    x: float
    y: float

    def __str__(self) -> str:
        """Table inches to one decimal, as a player types a position: ``13.3,6.0``."""
        return f"{self.x:.1f},{self.y:.1f}"


class Going(StrEnum):
    """Terrain classes (p. 8)."""

    EASY = "easy"
    ROUGH = "rough"
    VERY_ROUGH = "very_rough"
    IMPASSABLE = "impassable"


class CoverKind(StrEnum):
    """What a terrain piece gives a unit in it (casualty-roll table, p. 10)."""

    OPEN = "open"
    COVER = "cover"
    FORTIFICATION = "fortification"  # bunkers, foxholes, trenches


class TerrainHeight(StrEnum):
    """How tall a terrain piece stands, for what it hides (House Rules V1.0, s. 8 Blocking terrain)."""

    LOW = "low"  # walls and hedges up to a man's height
    MEDIUM = "medium"  # buildings, woods, low hills
    HIGH = "high"  # steep hills and towers that dominate the table


class TerrainFeature(BaseModel):
    """One terrain piece: a polygon (or a line, for hedges and walls, given a width).

    ``going_for_vehicles`` overrides ``going`` for vehicles, e.g. wire is very rough for
    infantry but not for tanks, tank obstacles are impassable to vehicles only (p. 8).
    """

    model_config = ConfigDict(frozen=True)

    id: str
    kind: str  # woods, building, hedge, wall, road, field, wire, river, hill...
    outline: tuple[Point, ...]
    linear: bool = False  # a hedge/wall/wire line: ``outline`` is a polyline with ``width``
    width: float = 0.5
    going: Going = Going.EASY
    going_for_vehicles: Going | None = None
    cover: CoverKind = CoverKind.OPEN
    blocks_sight: bool = False
    road: bool = False
    wire: bool = False
    building: bool = False
    hull_down: bool = False  # vehicles behind or in it may count as hull down (p. 12)
    storeys: int = 1  # a building's floors: 1 the ground floor only (House Rules V1.0, s. 5)
    height: TerrainHeight | None = None  # None: as its kind says (house_v1.sight.terrain_height)

    def going_for(self, profile: UnitProfile) -> Going:
        if profile.is_vehicle and self.going_for_vehicles is not None:
            return self.going_for_vehicles
        return self.going


class Objective(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    position: Point
    held_by: str | None = None
    side: str | None = None  # set by a referee for this side alone (p. 25); None: for both sides


class RefereeRule(BaseModel):
    """A special rule the referee wrote for this game (p. 25), read by ``audience``: one side,
    "both", or "referee" alone."""

    model_config = ConfigDict(frozen=True)

    audience: str
    text: str


class ForceGuideline(BaseModel):
    """The force a referee lets a side bring (p. 25): at most ``points``, and a guideline in
    words for that side."""

    model_config = ConfigDict(frozen=True)

    side: str
    points: int
    text: str = ""


class Smoke(BaseModel):
    """A smoke marker on a unit: it is obscured from ``from_bearing`` until the turn ends."""

    model_config = ConfigDict(frozen=True)

    from_bearing: float | None = None


class MortarAim(BaseModel):
    """Where a mortar has fired this turn, for the repeated-shot bonus (p. 20)."""

    model_config = ConfigDict(frozen=True)

    target: str
    at: Point
    shots: int


class Unit(WithVariant):
    """A unit on (or off) the table."""

    id: str  # stable key, e.g. "panther-1"
    name: str  # what players call it, e.g. "Panther 1": unique in its game (engine.unit_names)
    called: str | None = None  # its force's name for it, when another unit shares it (still typed)
    side: str
    profile: UnitProfile
    position: Point
    facing: float = 0.0
    turret_facing: float | None = None  # None: the weapon points along the hull
    morale_markers: int = 0
    tokens: int = 0  # command tokens placed on it this turn (activations and reactions)
    moved_this_turn: bool = False
    fell_back_this_turn: bool = False
    platoon_moved: bool = False
    bogged: bool = False  # failed a terrain test: no more actions this turn (p. 9)
    must_move_away: bool = False  # after falling back (p. 13)
    embarked_in: str | None = None  # the transport carrying it (or towing it)
    transport: str | None = None  # this unit's own transport, bought with it
    iaw_weapon: int | None = None  # weapon value of its infantry anti-tank weapon, if bought
    is_command: bool = False
    is_subcommander: bool = False
    hidden: bool = False
    decoy: Point | None = None  # sniper's dummy marker while hidden (p. 20)
    marker: int | None = None  # its numbered hidden marker, under hidden deployment (p. 26)
    true_name: str | None = None  # while it shows only as "Marker N"
    dummy: bool = False  # a dummy hidden marker: nothing underneath (p. 26)
    dug_in: bool = False  # dug in and waiting, until first activated (p. 26)
    rapid_moved: bool = False  # made a rapid move this turn
    fired_this_turn: bool = False  # fired this turn, so it is seen (House Rules V1.0, s. 8)
    player: str | None = None  # in a team game, the player who commands it (p. 25)
    in_reserve: bool = False
    reserve_available: bool = False  # called this turn and rolled in: it must enter or be lost (p. 26)
    destroyed: bool = False
    smoke: Smoke | None = None
    mortar_aim: MortarAim | None = None
    variant: SerializeAsAny[VariantPart] | None = None  # what only a rule set has (engine.variants)

    @property
    def unit_class(self) -> UnitClass:
        return self.profile.unit_class

    @property
    def is_vehicle(self) -> bool:
        return self.profile.is_vehicle

    @property
    def on_table(self) -> bool:
        return not (self.destroyed or self.in_reserve)

    @property
    def is_infantry_or_support(self) -> bool:
        return not self.profile.is_vehicle


class ReserveRequest(BaseModel):
    """A player asks the commanding officer for a unit of the reserve pool (p. 25)."""

    unit: str
    player: str


class Team(BaseModel):
    """A side played by several players (Multi-Player Games, p. 25): each has their own tokens,
    spent only on their own units; the commanding officer hands out bonus tokens and holds the
    reserve pool."""

    co: str  # the commanding officer, one of the side's players
    tokens: dict[str, int] = Field(default_factory=dict)  # each player's tokens in hand this turn
    bonus: int = 0  # the CO's bonus tokens still to hand out this turn
    bonus_rule: Literal["even", "co"] = "even"  # who gets bonus tokens the CO did not hand out
    requests: list[ReserveRequest] = Field(default_factory=list)


STAND_IN = "stand-in"  # the player of a side the bot plays (engine.stand_in)
STAND_IN_NAME = "the bot"  # the name it goes by


class Side(BaseModel):
    """One side of the battle: its players, command arrangements and token pool."""

    name: str  # key, e.g. "allies"
    nation: str
    players: list[str] = Field(default_factory=list)
    tokens: int = 0  # command tokens still in hand this turn
    break_point: int = 0  # the force breaks when lost BP + d6 (+2) exceeds this (p. 27)
    reroll_used: bool = False  # the command unit's once-a-turn re-roll (p. 18)
    broken: bool = False
    aggressive_command: bool = False  # the command unit brings a d6 of tokens, not two (p. 26)
    extra_token_dice: bool = False  # a d6 per token drawn, 5+ adds one (Capture's defender, p. 30)
    bombarded: bool = False  # a preliminary bombardment falls on it before the first turn (p. 26)
    entry_edge: Literal["near", "far", "left", "right"] = "near"  # where its reserves come on
    reserves_from_turn: int | None = None  # the first turn its reserves may be called (p. 26)
    reserves_half_first: bool = False  # only half of them in that first turn (Escalating, p. 29)
    reserves_at_start: int = 0
    tokens_drawn: int = 0  # at the start of this turn
    dug_in_tried: bool = False  # a dug-in unit has tried to react once in this battle (p. 26)
    points_limit: int | None = None  # of the force a player brought to a scenario game
    team: Team | None = None  # its players' own tokens, in a team game (p. 25)
    stood_in_for: str | None = None  # the player the bot plays for (engine.stand_in), handed back later
    # who handed the side to the bot: a referee, its player, or the bot itself (STAND_IN) after
    # the player missed the game's deadlines (the player's next command hands it back)
    stood_in_by: str | None = None


class Phase(StrEnum):
    SETUP = "setup"
    RESERVES = "reserves"  # sides say which reserves they call, before tokens are drawn (p. 26)
    INITIATIVE = "initiative"  # the initiative winner chooses who starts
    ACTIVE = "active"  # the active side may declare
    REACTION = "reaction"  # a reaction window is open for the other side
    CHOICE = "choice"  # a side must choose (e.g. which unit loses markers)
    OVER = "over"


class TableSize(BaseModel):
    model_config = ConfigDict(frozen=True)

    width: float = 96.0
    depth: float = 72.0

    @property
    def is_small(self) -> bool:
        """A 6' x 4' table or smaller shortens the Kaboom and command radii to 6" (pp. 12, 18)."""
        return self.width <= 72.0 and self.depth <= 48.0
