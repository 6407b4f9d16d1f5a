"""What an event did, as data: who fired at whom and with what dice, who moved from where to
where, markers placed, units destroyed, tests taken. One small model per kind of event, told apart
by ``what``; :class:`~engine.events.Event` carries one in ``data`` (None for events stored before
events had data, and for the events that carry none). Rule tests assert these numbers; the dice
statistics and the picture overlay read them instead of the event's words. A secret event also
carries a :class:`Secret`: what of it the others may not know, from which the view words it for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.dice import passing_score
from engine.state import Point
from engine.wording import counted


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True)


class ToHit(_Data):
    """A to-hit throw: the score each die needs, the modifiers that made it, the faces rolled."""

    needed: int
    modifiers: tuple[tuple[str, int], ...] = ()
    rolls: tuple[int, ...] = ()
    hits: int = 0

    def needs_text(self) -> str:
        """``5+ (+1 moved, -1 cover)``."""
        mods = ", ".join(f"{v:+d} {name}" for name, v in self.modifiers)
        return f"{self.needed}+" + (f" ({mods})" if mods else "")

    def result_text(self) -> str:
        """``rolled 3, 7: 1 hit``, or ``... : miss``."""
        outcome = counted(self.hits, "hit") if self.hits else "miss"
        return f"rolled {', '.join(map(str, self.rolls))}: {outcome}"


class FireData(_Data):
    """One shot (a house close-combat volley or smoke round too): its to-hit throw and effect."""

    what: Literal["fire"] = "fire"
    firer: str
    target: str | None  # None: a shot at a spot (``at``: smoke, a shell) or at a ``building``
    distance: float  # inches, edge to edge (an indirect shell's effect: from where it fell)
    at: Point | None = None  # where a smoke round or an indirect shot fell, or a close combat is fought
    aim: Point | None = None  # the fire marker an indirect shot was fired at (it may stray from it)
    building: str | None = None  # HE fired at a building (House Rules V1.0, s. 5)
    close_combat_round: int | None = None  # a volley of close combat (House Rules V1.0, s. 6)
    indirect: bool = False  # a shell fired at a fire marker (House Rules V1.0, s. 5)
    to_hit: ToHit | None = None
    markers_placed: int = 0  # morale markers the shot left on its target
    markers: int | None = None  # the target's markers after the shot, when they went on it
    damage: str | None = None  # the damage table's result, when a hit got through armour
    fate: str = "stands"  # stands, knocked out, destroyed, explodes

    @property
    def along_a_line_of_fire(self) -> bool:
        """A direct shot from the firer at its target (not a volley in contact, a shell or smoke)."""
        return self.target is not None and not self.in_contact and not self.indirect

    @property
    def in_contact(self) -> bool:
        """A volley of close combat (House Rules V1.0, s. 6), or a shot from a unit in contact with
        its target (the 2015 rules fight close combat as shooting, p. 12)."""
        return (
            self.target is not None
            and not self.indirect
            and (self.close_combat_round is not None or self.distance <= 0)
        )


class MoveData(_Data):
    """A unit's move (or fall back) from one point to another."""

    what: Literal["move"] = "move"
    unit: str
    start: Point
    end: Point
    distance: float
    fall_back: bool = False

    def went(self) -> str:
        """``moves 6.0" to 12.0,30.0``."""
        return f'{"falls back" if self.fall_back else "moves"} {self.distance:.1f}" to {self.end}'


class MarkersData(_Data):
    """Morale markers placed on a unit (or removed: ``added`` below zero)."""

    what: Literal["markers"] = "markers"
    unit: str
    added: int
    total: int

    def carried_text(self, name: str) -> str:
        """The markers a shot at a transport leaves on the unit that takes them for it."""
        return f"{name}, carried, takes the {counted(self.added, 'marker')}"


class DestroyedData(_Data):
    """A unit removed from play."""

    what: Literal["destroyed"] = "destroyed"
    unit: str
    markers: int | None = None  # destroyed by its morale markers: how many it had...
    morale: int | None = None  # ...against its morale

    def markers_text(self, name: str) -> str:
        return f"{name} has {self.markers} morale markers (morale {self.morale}): destroyed"


class RolledTest(_Data):
    """A die thrown against a test: reaction, Company Morale Test, rally, break point, smoke..."""

    what: Literal["test"] = "test"
    test: str  # the test's name in the game's words: "company morale test", "fall back rally"
    unit: str | None = None
    side: str | None = None
    needed: int | None = None  # the lowest face that passes
    at_most: int | None = None  # the highest face that passes, for a test passed low
    roll: int
    passed: bool
    result: str | None = None  # a test with more outcomes than pass and fail: what it gave

    @classmethod
    def of(
        cls, test: str, passes: Callable[[int], bool], roll: int, *, sides: int = 6, **who: str | None
    ) -> RolledTest:
        """The test ``passes`` decides, taken with ``roll``; ``who``: its ``unit``, ``side``, ``result``."""
        needed, at_most = passing_score(sides, passes)
        return cls(test=test, needed=needed, at_most=at_most, roll=roll, passed=passes(roll), **who)


class TokensData(_Data):
    """Tokens a side gains (or spends: ``count`` below zero)."""

    what: Literal["tokens"] = "tokens"
    side: str
    count: int


class InitiativeData(_Data):
    """The initiative roll: each side's die, and the side that won it."""

    what: Literal["initiative"] = "initiative"
    rolls: tuple[tuple[str, int], ...]
    winner: str


class SetUpData(_Data):
    """A unit set up on the table before the battle (p. 28), or a hidden sniper team with its
    dummy marker (p. 20), or a unit under a numbered marker (p. 26)."""

    what: Literal["set_up"] = "set_up"
    unit: str
    at: Point
    decoy: Point | None = None  # a hidden sniper team's dummy marker
    marker: str | None = None  # the marker a unit set up under hidden deployment goes under


EventData = Annotated[
    FireData | MoveData | MarkersData | DestroyedData | RolledTest | TokensData | InitiativeData | SetUpData,
    Field(discriminator="what"),
]


class Secret(_Data):
    """What of an event is its side's alone (and the referee's), as facts: the view
    (:func:`engine.view.told`) words the event for everyone else from them."""

    told: bool = True  # False: the others are told nothing of it
    names: tuple[tuple[str, str], ...] = ()  # a name the text gives, and the name the others know instead
    withheld: tuple[str, ...] = ()  # words of the text the others are not told: its dice, a true name
