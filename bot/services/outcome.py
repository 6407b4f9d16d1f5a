"""What the game service answers: the outcome of a command, or a refusal to show the user. The
services built on the game service (its clock, campaigns) share them without importing it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import NamedTuple

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


Drawn = tuple[bytes, str]  # a picture: its PNG, and the same in words (its alt text)
# the block of unpictured() the action being applied runs in, if any, and the blocks running
_BLOCK: ContextVar[object | None] = ContextVar("unpictured", default=None)
_RUNNING: set[object] = set()


@contextmanager
def unpictured() -> Iterator[None]:
    """The actions applied inside are shown on a card with no battlefield (a side joined, a
    referee's news): the game service begins no picture for them (:func:`pictured`). One shown
    after all (a card that follows, such as the stand-in handing back) is drawn when asked for.
    It holds only while the block runs: a task started inside it (a timer's) that outlives it
    begins its actions' pictures again."""
    block = object()
    _RUNNING.add(block)
    token = _BLOCK.set(block)
    try:
        yield
    finally:
        _BLOCK.reset(token)
        _RUNNING.discard(block)


def pictured() -> bool:
    """Whether the card of the action being applied shows its battlefield: unless it is applied
    inside :func:`unpictured`."""
    return _BLOCK.get() not in _RUNNING


class Scene(NamedTuple):
    """An action decided, as its spectators' picture is drawn: the game it was applied to and the
    game it made, its events, and the JSON each was read or written as (made already, for a
    worker process to parse; ``before_json`` None: not at hand)."""

    before: GameState
    state: GameState
    events: list[Event]
    before_json: str | None
    state_json: str
    events_json: str


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
    # the spectators' picture, begun while the command was stored (GameService.picturing), if it was
    picture: asyncio.Future[Drawn] | None = field(default=None, compare=False, repr=False)

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
