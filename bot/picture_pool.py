"""The battlefield pictures drawn and encoded in worker processes, off the event loop's.

Drawing and encoding one picture takes some 3-5 ms of CPU (:mod:`renderer.encode`). In a thread
of the bot's process it holds the interpreter lock the event loop needs too, so when many channels
act at once their cards wait behind each other's pictures and every other answer waits with them.
A pool of worker processes, spawned once at start-up (:meth:`PicturePool.start`), each having
imported the renderer once and drawn one picture to warm it (its collector set up as the bot's),
draws them instead: a picture's inputs go to a worker as plain data (:class:`Sight`: the game and
the events as JSON), and its PNG bytes and its alt text come back. Each worker keeps its own cache
of base layers (:mod:`renderer.base`), filled by the tables it draws.

Every worker warms itself as it starts (the pool's initializer), and start-up waits until each
has met the others at a barrier: a first job per worker that would otherwise let one quick worker
take another's, leaving that one unwarmed, at the bot's own priority and missing from ``pids``.

With no workers (the tests, the console table), or once the pool broke (a worker killed), a
picture is drawn in a thread of this process, as before; a client's pool shuts down with it.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from threading import BrokenBarrierError

from pydantic import TypeAdapter

from bot import collector
from engine.events import Event
from engine.game_state import GameState
from engine.scenarios.quick_battle import quick_battle
from renderer import render
from renderer.description import describe

log = logging.getLogger(__name__)
EVENTS = TypeAdapter(tuple[Event, ...])
Drawn = tuple[bytes, str]  # the PNG, and the same picture in words (its alt text)
# The workers yield the cores to the bot's process when both want them: its event loop answers
# every interaction first (acknowledgements, the store, the cards' sending); a picture takes the
# core left over. Measured with 200 channels acting at once on 2 cores (benchmarks/first_response):
# the card p50 2.7 s against 3.8-4.1 s with the workers at the bot's own priority. On a host
# whose other programs keep the cores busy, a lower niceness (PICTURE_NICENESS) keeps the cards
# from waiting behind them.
NICENESS = 10
MEETING_SECONDS = 120  # how long start-up waits for every worker to have started
_everyone = None  # in a worker: the barrier its first job waits at (see warm)


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
    events: bytes
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
        return cls(state.model_dump_json(), viewer, EVENTS.dump_json(tuple(events)), kept)

    def drawn(self) -> Drawn:
        """The picture, drawn from the parsed game (in a worker)."""
        before = GameState.model_validate_json(self.before) if self.before is not None else None
        state = GameState.model_validate_json(self.state)
        return drawn(state, self.viewer, EVENTS.validate_json(self.events), before)


def draw_sight(sight: Sight) -> Drawn:
    """A worker's job: one picture."""
    return sight.drawn()


def warm(niceness: int, everyone) -> None:
    """A worker's start (the pool's initializer): its priority lowered by ``niceness``, one
    picture drawn, so its fonts and code are loaded, and what that left kept out of the garbage
    collector's way, as in the bot's process (:mod:`bot.collector`); ``everyone``, the barrier of
    all the workers' first jobs, kept for :func:`meet`."""
    global _everyone
    os.nice(niceness)
    collector.tune()
    drawn(quick_battle(), None)
    collector.settle()
    _everyone = everyone


def meet() -> int:
    """A worker's first job: wait until every worker holds one (so none takes two), then its
    process id."""
    _everyone.wait(MEETING_SECONDS)
    return os.getpid()


class PicturePool:
    """Where a process draws its pictures: ``workers`` processes (0: a thread of its own), each
    ``niceness`` below the bot's priority."""

    def __init__(self, workers: int = 0, niceness: int = NICENESS) -> None:
        self.workers = workers
        self.niceness = niceness
        self._pool: ProcessPoolExecutor | None = None
        self.pids: list[int] = []  # the workers' process ids, once started

    async def start(self) -> None:
        """Spawn the workers (each imports the renderer and draws once) before the first picture;
        if they cannot start, pictures are drawn in a thread."""
        if self.workers < 1 or self._pool is not None:
            return
        spawn = multiprocessing.get_context("spawn")
        everyone = spawn.Barrier(self.workers)
        self._pool = ProcessPoolExecutor(
            self.workers, mp_context=spawn, initializer=warm, initargs=(self.niceness, everyone)
        )
        loop = asyncio.get_running_loop()
        jobs = (loop.run_in_executor(self._pool, meet) for _ in range(self.workers))
        try:
            self.pids = sorted(await asyncio.gather(*jobs))
        except (BrokenProcessPool, BrokenBarrierError, OSError):
            log.warning("the picture workers did not start: pictures are drawn in a thread", exc_info=True)
            self._broken()

    async def picture(
        self,
        state: GameState,
        viewer: str | None,
        events: Sequence[Event] = (),
        before: GameState | None = None,
    ) -> Drawn:
        """The battlefield as ``viewer`` sees it and in words, drawn off the event loop."""
        if self._pool is not None:
            sight = Sight.of(state, viewer, events, before)
            try:
                return await asyncio.get_running_loop().run_in_executor(self._pool, draw_sight, sight)
            except BrokenProcessPool:
                log.warning("the picture workers stopped: pictures are drawn in a thread from now on")
                self._broken()
        return await asyncio.to_thread(drawn, state, viewer, events, before)

    def _broken(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers, waiting for them to exit."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
