"""The battlefield pictures drawn and encoded in worker processes (:mod:`bot.worker_pool`), off
the event loop's.

Drawing and encoding one picture takes some 3-5 ms of CPU (:mod:`renderer.encode`). In a thread
of the bot's process it holds the interpreter lock the event loop needs too, so when many channels
act at once their cards wait behind each other's pictures and every other answer waits with them.
Each worker, having imported the renderer once and drawn one picture to warm it (its collector set
up as the bot's), draws them instead: a picture's inputs go to a worker as plain data
(:class:`Sight`: the game and the events as JSON), and its PNG bytes and its alt text come back.
Each worker keeps its own cache of base layers (:mod:`renderer.base`), filled by the tables it
draws. With no workers (the tests, the console table), or while none is up (one died and the new
one is still warming), a picture is drawn in a thread of this process.

The spectators' picture of an action is begun as soon as the action is decided
(:meth:`PicturePool.begin`, the game service's ``picturing``), so that it is drawn while the
action's write commits, its sync to disk being a wait, not work; its card posts it once the
action is stored (:meth:`PicturePool.spectators`). The JSON the store writes of the new state
and the events, and the JSON the game was read as, go to the worker as they are: no dump of
either is made again on the event loop.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import TypeAdapter

from bot import collector
from bot.services.outcome import Drawn, Outcome, Scene
from bot.worker_pool import WorkerPool
from engine.events import Event
from engine.game_state import GameState
from engine.scenarios.quick_battle import quick_battle
from renderer import render
from renderer.description import describe

EVENTS = TypeAdapter(tuple[Event, ...])
# The workers yield the cores to the bot's process when both want them: its event loop answers
# every interaction first (acknowledgements, the store, the cards' sending); a picture takes the
# core left over. Measured with 200 channels acting at once on 2 cores (benchmarks/first_response):
# the card p50 2.7 s against 3.8-4.1 s with the workers at the bot's own priority. On a host
# whose other programs keep the cores busy, a lower niceness (PICTURE_NICENESS) keeps the cards
# from waiting behind them.
NICENESS = 10


def drawn(
    state: GameState, viewer: str | None, events: Sequence[Event] = (), before: GameState | None = None
) -> Drawn:
    """The battlefield as ``viewer`` sees it (None: spectators) and in words, drawn here;
    ``before`` (the game the events were applied to) adds the trails."""
    shown = {"last_events": tuple(events), "before": before}
    return render(state, viewer, **shown), describe(state, viewer, **shown)


@dataclass(frozen=True)
class Sight:
    """What one picture is drawn from, as plain data a worker process parses back."""

    state: str
    viewer: str | None
    events: str
    before: str | None

    @classmethod
    def of(
        cls,
        state: GameState,
        viewer: str | None,
        events: Sequence[Event] = (),
        before: GameState | None = None,
    ) -> Sight:
        kept = before.model_dump_json() if before is not None else None
        return cls(state.model_dump_json(), viewer, EVENTS.dump_json(tuple(events)).decode(), kept)

    @classmethod
    def of_scene(cls, scene: Scene) -> Sight:
        """The spectators' picture of an action, from the JSON already made of it (the game it
        was applied to dumped here only if it was not at hand)."""
        kept = scene.before.model_dump_json() if scene.before_json is None else scene.before_json
        return cls(scene.state_json, None, scene.events_json, kept)

    def drawn(self) -> Drawn:
        """The picture, drawn from the parsed game (in a worker)."""
        before = GameState.model_validate_json(self.before) if self.before is not None else None
        state = GameState.model_validate_json(self.state)
        return drawn(state, self.viewer, EVENTS.validate_json(self.events), before)


def draw_sight(sight: Sight) -> Drawn:
    """A worker's job: one picture."""
    return sight.drawn()


def warm(niceness: int) -> None:
    """A worker's start: its priority lowered by ``niceness``, one picture drawn, so its fonts
    and code are loaded, and what that left kept out of the garbage collector's way, as in the
    bot's process (:mod:`bot.collector`)."""
    os.nice(niceness)
    collector.tune()
    drawn(quick_battle(), None)
    collector.settle()


class PicturePool(WorkerPool):
    """Where a process draws its pictures: ``workers`` processes (0: a thread of its own), each
    ``niceness`` below the bot's priority; the stand-in decides in the same workers
    (:mod:`bot.services.stand_in_service`)."""

    def __init__(self, workers: int = 0, niceness: int = NICENESS) -> None:
        super().__init__(workers, niceness, warm, "picture")

    async def picture(
        self,
        state: GameState,
        viewer: str | None,
        events: Sequence[Event] = (),
        before: GameState | None = None,
    ) -> Drawn:
        """The battlefield as ``viewer`` sees it and in words, drawn off the event loop."""
        return await self.run(
            draw_sight,
            lambda: Sight.of(state, viewer, events, before),
            lambda: drawn(state, viewer, events, before),
        )

    def begin(self, scene: Scene) -> asyncio.Future[Drawn]:
        """The spectators' picture of an action just decided, begun now (written to a free worker
        at once, before the action's write starts), to be awaited once the action is stored."""
        return self.begun(
            draw_sight,
            lambda: Sight.of_scene(scene),
            lambda: drawn(scene.state, None, scene.events, scene.before),
        )

    async def spectators(self, outcome: Outcome) -> Drawn:
        """The spectators' picture of an outcome: the one begun while it was stored, else drawn
        now."""
        if outcome.picture is not None:
            return await outcome.picture
        return await self.picture(outcome.state, None, outcome.events, outcome.before)
