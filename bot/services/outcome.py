"""What the game service answers: the outcome of a command, or a refusal to show the user. The
services built on the game service (its clock, campaigns) share them without importing it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from bot.services.next_steps import NextStep, waits_for
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game_state import GameState
from engine.rich_text import Line, Piece, unmarked
from engine.view import REFEREE, SPECTATORS, Audience, shows_more


class GameError(Exception):
    """A refusal to show the user: what was wrong and what to do instead. Its words may name a
    user or a command to type as pieces (:mod:`engine.rich_text`), each front end writing them
    its own way; ``str()`` gives them bare, for the logs."""

    def __init__(self, *words: Piece) -> None:
        super().__init__(unmarked(words))
        self.words: Line = words


@contextmanager
def refusals() -> Iterator[None]:
    """The engine's refusals, passed on as the service's."""
    try:
        yield
    except IllegalCommand as refusal:
        raise GameError(str(refusal)) from refusal


@dataclass(frozen=True)
class Outcome:
    state: GameState
    events: list[Event]
    version: int
    window_deadline: datetime | None = None  # when the reaction window now open closes
    closed_window_message: str | None = None  # the message whose buttons should now go
    before: GameState | None = None  # the game as the command found it
    repeated: bool = False  # the command's interaction had been applied before: nothing new
    threads: dict[str, str] | None = None  # the game's private threads, as loaded (None: not read)
    referee_deadline: datetime | None = None  # when a deadline the referee just set falls (None: paused)

    @property
    def next(self) -> tuple[NextStep, ...]:
        """What the game waits for after the command (:mod:`bot.services.next_steps`)."""
        return waits_for(self.state)

    @cached_property
    def pictured(self) -> tuple[Audience, ...]:
        """The audiences shown a picture of the battlefield after the command: the spectators
        always (the channel's); each side, and the referee, whose view shows more than theirs
        (hidden units, dummies), each in its own place (Discord: its private thread)."""
        return (SPECTATORS, *(a for a in (*self.state.sides, REFEREE) if shows_more(self.state, a)))

    def picture_for(self, reader: Audience) -> Audience:
        """Whose picture ``reader`` is shown: their own when the outcome pictures it, else the
        spectators'."""
        return reader if reader in self.pictured else SPECTATORS
