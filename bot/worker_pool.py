"""Work that holds the interpreter lock for milliseconds at a time, done in worker processes off
the event loop's: the battlefield pictures (:mod:`bot.picture_pool`) and the stand-in's
decisions (:mod:`bot.services.stand_in_service`).

In a thread of the bot's process such work holds the interpreter lock the event loop needs too,
so every other answer waits behind it. A pool of worker processes (:mod:`bot.worker_process`),
spawned at start-up (:meth:`WorkerPool.start`), each lowered ``niceness`` below the bot's
priority and warmed before it takes a job, does it instead: a job's inputs go to a worker as
plain data and its answer comes back.

Each worker has a socket of its own to the event loop, which writes a job straight to a free
worker and reads its answer back, with no thread of this process in between (a process pool's
queues take two threads to wake for each job, each waiting for the interpreter lock while the
event loop holds it). One job at a time goes to each worker, so what waits for a worker is the
caller's own coroutine, and its inputs are made only once a worker takes it; a job begun
(:meth:`WorkerPool.begun`) is written to a free worker at once, before the caller goes on. A job
goes to the first free worker in the order they started: under a light load the same worker
draws every picture, its caches and the core's warm; a burst spreads over all of them. Measured
(benchmarks/pipeline.py, 2 cores), against a process pool: a picture's trip to its worker 0.6
ms -> 0.1-0.4, its answer back 0.35 -> 0.15, its drawing 6.8 -> 5.2-5.9 ms (in one process,
4.9); the whole pipeline 1.3-1.4x -> 1.03-1.1x a blank encode at p50.

A worker that dies (killed, out of memory) is replaced by a new one, and the jobs that find no
worker left meanwhile are done in a thread of this process. The job it had is given once to
another worker (the new one, if no other is left): it may be what killed the worker, so it is
never done in this process, where it could take every channel down with it; if it kills that
worker too, or no worker can be had, it fails (:class:`WorkerDied`). With no workers (the tests,
the console table), when they cannot start, or once the pool is closing, the work is done in a
thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import pickle
import socket
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from bot.worker_process import LENGTH, framed, serve

log = logging.getLogger(__name__)
Plain = TypeVar("Plain")
Answer = TypeVar("Answer")
MEETING_SECONDS = 120  # how long a worker may take to start and warm itself
LEAVING_SECONDS = 5  # how long a closing worker may take to finish its job and exit
Lost = (OSError, EOFError, asyncio.IncompleteReadError)  # what a worker's end looks like
Answered = tuple[bool, Any] | None  # a job's answer: (True, result), (False, exception); None: lost


class WorkerDied(RuntimeError):
    """A job whose worker died under it, and died again (or found none) when given another."""


@dataclass(eq=False)
class Worker:
    """One worker process, and the event loop's ends of its socket."""

    process: BaseProcess
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    pid: int = 0

    async def answer(self) -> Any:
        """The next frame the worker writes, unpickled."""
        head = await self.reader.readexactly(LENGTH.size)
        return pickle.loads(await self.reader.readexactly(LENGTH.unpack(head)[0]))

    async def end(self) -> None:
        """Close its socket (so it exits once its job is done), and stop it if it lingers."""
        self.writer.close()
        await asyncio.to_thread(self._exited)

    def _exited(self) -> None:
        self.process.join(LEAVING_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


class WorkerPool:
    """``workers`` processes (0: a thread of this process), each ``niceness`` below the bot's
    priority, each started by ``warm(niceness)`` (which lowers its priority and loads what its
    jobs need); ``name`` says what they do, in the log."""

    def __init__(self, workers: int, niceness: int, warm: Callable[[int], None], name: str) -> None:
        self.name = name
        self.workers = workers
        self.niceness = niceness
        self.warm = warm
        self._live: list[Worker] = []  # in the order they started: the first free one takes a job
        self._free: set[Worker] = set()
        self._waiting: deque[asyncio.Future[Worker | None]] = deque()  # jobs waiting for a worker
        self._replacing: set[asyncio.Task[None]] = set()
        self._closed = False

    @property
    def pids(self) -> list[int]:
        """The live workers' process ids."""
        return sorted(worker.pid for worker in self._live)

    async def start(self) -> None:
        """Spawn the workers, each warmed, before the first job; if they cannot start, jobs are
        done in a thread."""
        if self.workers < 1 or self._live:
            return
        self._closed = False
        started = await asyncio.gather(*(self._spawn() for _ in range(self.workers)), return_exceptions=True)
        workers = [worker for worker in started if isinstance(worker, Worker)]
        if len(workers) < self.workers:
            failure = next(error for error in started if not isinstance(error, Worker))
            log.warning(
                "the %s workers did not start: their jobs are done in a thread",
                self.name,
                exc_info=failure,  # type: ignore[arg-type]
            )
            await asyncio.gather(*(worker.end() for worker in workers))
            return
        self._live = workers
        self._free = set(workers)

    async def _spawn(self) -> Worker:
        """A new worker, once it has warmed itself and said its process id."""
        ours, theirs = socket.socketpair()
        process = multiprocessing.get_context("spawn").Process(
            target=serve, args=(theirs, self.warm, self.niceness), name=f"{self.name} worker", daemon=True
        )
        try:
            await asyncio.to_thread(process.start)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        worker = Worker(process, reader, writer)
        try:
            worker.pid = await asyncio.wait_for(worker.answer(), MEETING_SECONDS)
        except BaseException:
            await worker.end()
            raise
        return worker

    async def run(
        self, job: Callable[[Plain], Answer], plain: Callable[[], Plain], here: Callable[[], Answer]
    ) -> Answer:
        """``job`` of what ``plain()`` makes (plain data a worker parses back) in a worker; with
        no worker, or if the worker dies on it, ``here()`` in a thread (the same answer, from
        the objects in hand)."""
        worker = await self._taken()
        if worker is None:
            return await asyncio.to_thread(here)
        return await self._outcome(self._sent(worker, job, plain), job, plain, here)

    def begun(
        self, job: Callable[[Plain], Answer], plain: Callable[[], Plain], here: Callable[[], Answer]
    ) -> asyncio.Future[Answer]:
        """:meth:`run`, begun now: written at once to the first free worker, if one is free
        (not as the event loop next turns, after what the caller does next), else waiting for
        one; the future of its answer (what fails in making the job fails there, not here)."""
        worker = self._first_free()
        if worker is not None:
            try:
                return asyncio.ensure_future(self._outcome(self._sent(worker, job, plain), job, plain, here))
            except Exception:  # noqa: BLE001 - raised again by run, to whoever awaits the answer
                pass
        return asyncio.ensure_future(self.run(job, plain, here))

    def _first_free(self) -> Worker | None:
        """The first free worker in the order they started, taken; None if every one is busy."""
        for worker in self._live:
            if worker in self._free:
                self._free.discard(worker)
                return worker
        return None

    async def _taken(self) -> Worker | None:
        """The first free worker, taken (waiting for one while every worker is busy); None when
        there is no worker."""
        if (worker := self._first_free()) is not None or not self._live:
            return worker
        waiter = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.result() is not None:
                self._release(waiter.result())  # handed over just as the caller stopped waiting
            raise

    def _release(self, worker: Worker) -> None:
        """``worker`` free again: handed to the first job still waiting, else kept free."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._free.add(worker)

    def _sent(
        self, worker: Worker, job: Callable[[Plain], Answer], plain: Callable[[], Plain]
    ) -> asyncio.Task[Answered]:
        """The job written to ``worker`` now (one frame: its socket buffers it, the worker reads
        it); the task that reads its answer (:meth:`_answer`)."""
        try:
            worker.writer.write(framed((job, plain())))
        except BaseException:
            self._release(worker)
            raise
        return asyncio.ensure_future(self._answer(worker))

    async def _answer(self, worker: Worker) -> Answered:
        """The answer ``worker`` writes back: (True, the job's result) or (False, the exception
        it raised, or why its answer could not be read); None if the worker died meanwhile."""
        try:
            answered = await worker.answer()
        except Lost:
            self._lost(worker)
            return None
        except Exception as error:  # noqa: BLE001 - its frame was read whole: the worker is in step
            self._release(worker)
            return False, error
        self._release(worker)
        return answered

    async def _outcome(
        self,
        answering: asyncio.Task[Answered],
        job: Callable[[Plain], Answer],
        plain: Callable[[], Plain],
        here: Callable[[], Answer],
    ) -> Answer:
        """The job's result, or the exception it raised; if its worker died, the job given to
        another (:meth:`_again`), or ``here()`` in a thread if the pool is closing. Its answer is
        read even if the caller stops waiting (the worker's next frame is the next job's)."""
        answered = await asyncio.shield(answering)
        if answered is None and not self._closed:
            answered = await self._again(job, plain)
        if answered is None:
            return await asyncio.to_thread(here)
        done, answer = answered
        if not done:
            raise answer
        return answer

    async def _again(self, job: Callable[[Plain], Answer], plain: Callable[[], Plain]) -> Answered:
        """The answer of a job whose worker died under it, from another worker (with none left,
        the one taking the dead one's place, once it is up); None if the pool closed meanwhile.
        Raises :class:`WorkerDied` if that worker dies too, or if none can be had."""
        if not self._live and self._replacing:
            await asyncio.wait(set(self._replacing))  # not cancelled with the caller
        worker = await self._taken()
        if worker is not None:
            answered = await asyncio.shield(self._sent(worker, job, plain))
            if answered is not None or self._closed:
                return answered
        elif self._closed:
            return None
        raise WorkerDied(f"a {self.name} job's worker died under it, and no other could do it")

    def _lost(self, worker: Worker) -> None:
        """A worker died: its place taken by a new one (unless the pool is closing); while no
        worker is left, the jobs waiting are done in a thread."""
        if worker not in self._live:
            return
        self._live.remove(worker)
        self._free.discard(worker)
        if not self._live:
            while self._waiting:
                waiter = self._waiting.popleft()
                if not waiter.done():
                    waiter.set_result(None)
        if self._closed:
            return
        log.warning("a %s worker stopped (process %s): a new one takes its place", self.name, worker.pid)
        replacing = asyncio.ensure_future(self._replace(worker))
        self._replacing.add(replacing)
        replacing.add_done_callback(self._replacing.discard)

    async def _replace(self, lost: Worker) -> None:
        """A new worker in the place of ``lost`` (once that one is gone), free for the jobs
        waiting; if it cannot start, the others (or a thread) do them."""
        with contextlib.suppress(OSError):
            await lost.end()
        try:
            worker = await self._spawn()
        except Exception:  # noqa: BLE001 - whatever kept it from starting is logged, the pool goes on
            log.warning("a new %s worker did not start", self.name, exc_info=True)
            return
        if self._closed:
            await worker.end()
            return
        self._live.append(worker)
        self._release(worker)

    async def close(self) -> None:
        """Stop the workers, waiting for them to exit (the jobs they had are done in a thread)."""
        self._closed = True
        for replacing in list(self._replacing):
            replacing.cancel()
        await asyncio.gather(*self._replacing, return_exceptions=True)  # none left starting a worker
        workers = list(self._live)
        for worker in workers:
            self._lost(worker)
        await asyncio.gather(*(worker.end() for worker in workers))
