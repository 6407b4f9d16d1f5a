"""Events: what happened, in words a player can read, with every die that was rolled."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from engine.dice import DiceSource, DieCategory, DieRoll, RecordingDice, passing_score
from engine.event_data import EventData, Secret


class Event(BaseModel):
    """One thing that happened. ``rolls`` holds the dice rolled to decide it, in order, and
    ``data`` what it did as numbers and unit ids (None for events stored before events had data).

    An event about something hidden carries ``kept``: what of it is its ``side``'s alone (and the
    referee's), from which :func:`engine.view.told` words it for everyone else; ``text`` is the
    truth. An event stored before then carries instead ``public``, the words everyone else was
    told ("" tells them nothing). ``data`` is the truth too: of a secret event, only its side and
    the referee may be shown it."""

    model_config = ConfigDict(frozen=True)

    kind: str
    text: str
    rolls: tuple[DieRoll, ...] = ()
    units: tuple[str, ...] = ()
    side: str | None = None
    public: str | None = None  # an event stored before ``kept``: what the others read of it
    data: EventData | None = None
    kept: Secret | None = None  # None (and no ``public``): the text itself is public

    def __str__(self) -> str:
        return self.text

    @property
    def secret(self) -> bool:
        return self.kept is not None or self.public is not None


class EventLog:
    """Collects events while a command resolves; each event takes the dice rolled since the last."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = RecordingDice(dice)
        self.events: list[Event] = []

    def roll(self, sides: int, purpose: str, category: DieCategory = DieCategory.OTHER) -> int:
        return self.dice.roll(sides, purpose, category=category).value

    def roll_as(self, sides: int, purpose: str, category: DieCategory) -> int:
        return self.roll(sides, purpose, category)

    def roll_needing(
        self, sides: int, purpose: str, needs: int, category: DieCategory = DieCategory.TO_HIT
    ) -> int:
        return self.dice.roll(sides, purpose, needs, category=category).value

    def roll_against(
        self, sides: int, purpose: str, passes: Callable[[int], bool], category: DieCategory
    ) -> int:
        """Roll a die thrown against a test that ``passes`` decides; the die keeps the score the
        test needs (``/stats`` counts the successes expected from it)."""
        needs, at_most = passing_score(sides, passes)
        return self.dice.roll(sides, purpose, needs, at_most, category).value

    def d6(self, purpose: str, category: DieCategory = DieCategory.OTHER) -> int:
        return self.roll(6, purpose, category)

    def d10(self, purpose: str, category: DieCategory = DieCategory.OTHER) -> int:
        return self.roll(10, purpose, category)

    def emit(
        self,
        kind: str,
        text: str,
        *units: str,
        side: str | None = None,
        data: EventData | None = None,
        kept: Secret | None = None,
    ) -> Event:
        event = Event(
            kind=kind,
            text=text,
            rolls=tuple(self.dice.take()),
            units=units,
            side=side,
            data=data,
            kept=kept,
        )
        self.events.append(event)
        return event
