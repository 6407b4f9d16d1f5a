"""Work that holds the interpreter lock for milliseconds at a time, done in worker processes off
the event loop's: the battlefield pictures (:mod:`bot.picture_pool`) and the stand-in's
decisions (:mod:`bot.services.stand_in_service`).

In a thread of the bot's process such work holds the interpreter lock the event loop needs too,
so every other answer waits behind it. A pool of worker processes, spawned once at start-up
(:meth:`WorkerPool.start`), each lowered ``niceness`` below the bot's priority and warmed as it
starts (the pool's initializer), does it instead: a job's inputs go to a worker as plain data and
its answer comes back.

Start-up waits until every worker has met the others at a barrier, with a first job each: else
one quick worker could take another's first job, and ``pids`` would miss the other (whose warming
is then still to come).

With no workers (the tests, the console table), or once the pool broke (a worker killed),
the work is done in a thread of this process, as before; a client's pool shuts down with it.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from threading import BrokenBarrierError
from typing import Any, TypeVar

log = logging.getLogger(__name__)
Plain = TypeVar("Plain")
Answer = TypeVar("Answer")
MEETING_SECONDS = 120  # how long start-up waits for every worker to have started
_everyone: Any = None  # in a worker: the barrier its first job waits at (see _begin)


def _begin(warm: Callable[[int], None], niceness: int, everyone: Any) -> None:
    """A worker's start (the pool's initializer): ``warm(niceness)``, and ``everyone``, the
    barrier of all the workers' first jobs, kept for :func:`_meet`."""
    global _everyone
    warm(niceness)
    _everyone = everyone


def _meet() -> int:
    """A worker's first job: wait until every worker holds one (so none takes two), then its
    process id."""
    _everyone.wait(MEETING_SECONDS)
    return os.getpid()


class WorkerPool:
    """``workers`` processes (0: a thread of this process), each ``niceness`` below the bot's
    priority, each started by ``warm(niceness)`` (which lowers its priority and loads what its
    jobs need); ``name`` says what they do, in the log."""

    def __init__(self, workers: int, niceness: int, warm: Callable[[int], None], name: str) -> None:
        self.name = name
        self.workers = workers
        self.niceness = niceness
        self.warm = warm
        self._pool: ProcessPoolExecutor | None = None
        self.pids: list[int] = []  # the workers' process ids, once started

    async def start(self) -> None:
        """Spawn the workers (each warmed once) before the first job; if they cannot start,
        jobs are done in a thread."""
        if self.workers < 1 or self._pool is not None:
            return
        spawn = multiprocessing.get_context("spawn")
        everyone = spawn.Barrier(self.workers)
        self._pool = ProcessPoolExecutor(
            self.workers, mp_context=spawn, initializer=_begin, initargs=(self.warm, self.niceness, everyone)
        )
        loop = asyncio.get_running_loop()
        jobs = (loop.run_in_executor(self._pool, _meet) for _ in range(self.workers))
        try:
            self.pids = sorted(await asyncio.gather(*jobs))
        except (BrokenProcessPool, BrokenBarrierError, OSError):
            log.warning(
                "the %s workers did not start: their jobs are done in a thread", self.name, exc_info=True
            )
            self._broken()

    async def run(
        self, job: Callable[[Plain], Answer], plain: Callable[[], Plain], here: Callable[[], Answer]
    ) -> Answer:
        """``job`` of what ``plain()`` makes (plain data a worker parses back) in a worker; with
        no workers, ``here()`` in a thread (the same answer, from the objects in hand)."""
        if self._pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(self._pool, job, plain())
            except BrokenProcessPool:
                log.warning("the %s workers stopped: their jobs are done in a thread from now on", self.name)
                self._broken()
        return await asyncio.to_thread(here)

    def _broken(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers, waiting for them to exit."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
