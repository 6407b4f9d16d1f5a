"""A finished battle's story, rebuilt from its log: the table after each activation, the kills
that decided it, and a summary in words, all as the spectators may know them (engine.view).

An activation starts with a declaration (p. 12) and ends once the game no longer waits on it:
its reaction window answered, any choice it raised made. A game replays exactly (every die is
in the log), so the story of a stored game is the same however often it is told. A long game's
story is told one moment at a time (:class:`Storyteller`), so its tables are never all held.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine.commands import Command, Declare
from engine.event_data import FireData
from engine.events import Event
from engine.game import replay
from engine.game_state import GameState
from engine.rich_text import Line, Strong
from engine.state import Phase
from engine.view import SPECTATORS, sees, told
from engine.wording import counted, side_name

MID_ACTIVATION = (Phase.REACTION, Phase.CHOICE)


@dataclass(frozen=True)
class Moment:
    """The table once an activation is over, what happened in it and the table before it (for
    the trails)."""

    state: GameState
    events: tuple[Event, ...]
    before: GameState


@dataclass(frozen=True)
class Kill:
    """A unit destroyed: in which turn, and the line that tells the spectators how."""

    turn: int
    side: str  # the side that lost it
    text: str


@dataclass(frozen=True)
class Story:
    activations: int
    kills: tuple[Kill, ...]
    final: GameState


class Storyteller:
    """Replays a game's live log (undone actions left out) from its start: :meth:`moments`
    gives the table after each activation as it is reached, keeping none of them; the kills,
    the count of activations and the final table are kept for :meth:`story`."""

    def __init__(self, start: GameState, history: Iterable[tuple[Command, list[Event]]]) -> None:
        self.start, self.history = start, history
        self.kills: list[Kill] = []
        self.activations = 0
        self.final = start

    def moments(self) -> Iterator[Moment]:
        state, opened, events = self.start, None, []
        for command, stored in self.history:
            before = state
            state, (produced,) = replay(state, [(command, stored)])
            if isinstance(command, Declare):
                opened, events = before, []
            events += produced
            self.kills += kills_in(before, state, produced)
            self.final = state
            if opened is not None and state.phase not in MID_ACTIVATION:
                self.activations += 1
                yield Moment(state, tuple(events), opened)
                opened = None

    def story(self) -> Story:
        """The story told so far: the whole story, once :meth:`moments` has run to its end."""
        return Story(self.activations, tuple(self.kills), self.final)


def battle_story(start: GameState, history: Iterable[tuple[Command, list[Event]]]) -> Story:
    """The story of the game's live log, told to its end."""
    teller = Storyteller(start, history)
    for _ in teller.moments():
        pass
    return teller.story()


def kills_in(before: GameState, after: GameState, events: list[Event]) -> list[Kill]:
    """The units these events destroyed (dummy markers aside), as the spectators are told it,
    with the unit whose shot did it when they may know that unit."""
    shots = {e.data.target: e for e in events if isinstance(e.data, FireData) and e.data.fate != "stands"}
    kills = []
    for event in events:
        unit = after.units.get(event.units[0]) if event.kind == "destroyed" and event.units else None
        text = told(event, SPECTATORS) if unit is not None and not unit.dummy else ""
        if not text:
            continue
        shot = shots.get(unit.id)
        firer = after.units.get(shot.data.firer) if shot is not None and not shot.secret else None  # type: ignore[union-attr]
        if firer is not None and sees(firer, SPECTATORS):
            text = f"{firer.name} fires: {text}"
        kills.append(Kill(before.turn, unit.side, text))
    return kills


def story_text(story: Story) -> tuple[Line, ...]:
    """The summary: turns played, who won and why, each side's losses by unit, the kills."""
    final = story.final
    result = final.result
    turns, activations = counted(final.turn, "turn"), counted(story.activations, "activation")
    lines: list[Line] = [(Strong("The battle's story"), f": {turns} played, {activations}.")]
    if result is not None:
        won: Line = (Strong(side_name(result.winner, start=True)), " won") if result.winner else ("A draw",)
        lines.append((*won, f": {result.reason}."))
    for side in sorted(final.sides):
        lost = [u for u in final.units_of(side) if u.destroyed and not u.dummy]
        named = [u.name for u in lost if sees(u, SPECTATORS)]
        unseen = len(lost) - len(named)
        names = ", ".join(named + ([f"{counted(unseen, 'unit')} never seen"] if unseen else []))
        lines.append(
            (
                f"{side_name(side, start=True)} lost {counted(len(lost), 'unit')}"
                + (f": {names}" if names else ""),
            )
        )
    if story.kills:
        lines.append(("Decisive moments:",))
        lines += [(f"- turn {kill.turn}: {kill.text}",) for kill in story.kills]
    return tuple(lines)
