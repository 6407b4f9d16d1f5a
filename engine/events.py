"""Events: what happened, in words a player can read, with every die that was rolled."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.dice import DiceSource, DieRoll, RecordingDice


class Event(BaseModel):
    """One thing that happened. ``rolls`` holds the dice rolled to decide it, in order."""

    model_config = ConfigDict(frozen=True)

    kind: str
    text: str
    rolls: tuple[DieRoll, ...] = ()
    units: tuple[str, ...] = ()
    side: str | None = None

    def __str__(self) -> str:
        return self.text


class EventLog:
    """Collects events while a command resolves; each event takes the dice rolled since the last."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = RecordingDice(dice)
        self.events: list[Event] = []

    def roll(self, sides: int, purpose: str) -> int:
        return self.dice.roll(sides, purpose).value

    def d6(self, purpose: str) -> int:
        return self.roll(6, purpose)

    def d10(self, purpose: str) -> int:
        return self.roll(10, purpose)

    def emit(
        self, kind: str, text: str, *units: str, side: str | None = None
    ) -> Event:
        event = Event(
            kind=kind, text=text, rolls=tuple(self.dice.take()), units=units, side=side
        )
        self.events.append(event)
        return event
