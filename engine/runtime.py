"""Deadline timers: one queue for the open reaction windows (or any other deadlines), on a clock
that can be swapped for tests.

When a player declares an action, the opponent has until a deadline to react. The window
closes early when they answer it (the caller calls :meth:`ReactionTimers.cancel`), or at the
deadline, when the timers call ``on_expire(key)``; the caller then closes the window with the
same "no reaction" command a player would send, through the same path. Referee deadlines,
turn pings and campaign phases use the same timers with their own ``on_expire``.

The deadlines themselves are kept by the caller's storage, not here. After a restart the
caller passes every stored window to :meth:`ReactionTimers.rearm`: each one is armed again
with the time it has left, and those whose deadline passed while nobody was watching expire
at once, oldest first.

A deadline is forgotten only once ``on_expire`` has returned, or once the caller's
``still_due(key)`` says it is no longer wanted (answered, paused, game over). Any failure (a
locked database, a pool timeout, a lost race, a bug) is logged and the deadline is tried again
after a :class:`Backoff` (1 s, 2 s, 4 s ... at most 60 s), for as long as it takes. So that a
restart with thousands of overdue deadlines does not run them all at once against the
database, at most ``limit`` of them fire at the same time (a semaphore that several timers may
share); the others wait in the queue, still armed.

Two clocks are provided: :class:`SystemClock` for real time, and :class:`VirtualClock` for
tests, where time only moves when the test says so, so a 48-hour window (or an hour of
retries) takes no real time.

This module uses only the standard library (asyncio and datetime). All times are
timezone-aware; naive datetimes are refused.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

__all__ = ["Backoff", "Clock", "ReactionTimers", "SystemClock", "VirtualClock", "WindowKey"]

log = logging.getLogger(__name__)

WindowKey = Hashable
"""Whatever identifies a window to the caller, for example ``(channel_id, window_id)``."""

FIRING_AT_ONCE = 4
"""How many deadlines fire at the same time by default: well under a database pool's size."""


@dataclass(frozen=True)
class Backoff:
    """How long a deadline whose firing failed waits before it is tried again: ``first``, then
    twice as long after each failure, never longer than ``longest``."""

    first: timedelta = timedelta(seconds=1)
    longest: timedelta = timedelta(seconds=60)

    def __post_init__(self) -> None:
        if not timedelta(0) < self.first <= self.longest:
            raise ValueError("a backoff needs 0 < first <= longest")

    def waits(self) -> Iterator[timedelta]:
        """The waits before the second, third ... attempt: endless."""
        wait = self.first
        while True:
            yield wait
            wait = min(wait * 2, self.longest)


def _require_aware(moment: datetime, what: str) -> None:
    """Refuse a naive datetime: it cannot be compared with the clock's timezone-aware time."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware (for example UTC), got naive {moment!r}")


class Clock(Protocol):
    """Where the timers get the time from and how they wait for it."""

    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...

    async def sleep_until(self, when: datetime) -> None:
        """Return once ``now() >= when``; return promptly if that is already so."""
        ...


class SystemClock:
    """Real time: ``datetime.now(UTC)``, waiting with ``asyncio.sleep``.

    A wait is made of naps of at most ``max_nap`` seconds, and the wall clock is read again
    after each one. That way a wake-up that comes a little early just naps again, and a change
    of the system clock (or a machine that was suspended) is noticed within ``max_nap`` seconds
    instead of after a 48-hour nap.
    """

    def __init__(self, max_nap: float = 60.0) -> None:
        if max_nap <= 0:
            raise ValueError("max_nap must be positive")
        self.max_nap = max_nap

    def now(self) -> datetime:
        """The current UTC time."""
        return datetime.now(UTC)

    async def sleep_until(self, when: datetime) -> None:
        """Nap until the wall clock reads ``when`` or later."""
        _require_aware(when, "when")
        while (left := (when - self.now()).total_seconds()) > 0:
            await asyncio.sleep(min(left, self.max_nap))


class VirtualClock:
    """Time for tests: it stands still until the test calls :meth:`advance`.

    Nothing here sleeps in real time. ``await clock.advance(seconds)`` moves time forward one
    sleeper at a time, in deadline order (sleepers with the same deadline in the order they went
    to sleep). Each woken sleeper is allowed to run until it finishes or goes back to sleep on
    this clock before the next one is woken, and ``advance`` returns only when all of that is
    done. So after ``await clock.advance(120)`` every timer due within those 120 seconds has
    fired and its callback has completed.

    A sleeper whose time has already come (``sleep_until`` with a moment that is not in the
    future) returns on the next turn of the event loop without waiting for ``advance``;
    ``await clock.advance(0)`` is a convenient way to let all of those finish.

    Caveat: because ``advance`` waits for woken tasks, a woken task must not wait for something
    that only the caller of ``advance`` would do after ``advance`` returns, or the test hangs.
    """

    def __init__(self, start: datetime | None = None) -> None:
        """Start at ``start`` (timezone-aware), or at 2026-01-01 00:00 UTC."""
        if start is None:
            start = datetime(2026, 1, 1, tzinfo=UTC)
        _require_aware(start, "start")
        self._now = start
        self._sleepers: list[tuple[datetime, int, asyncio.Future[None], asyncio.Task[object] | None]] = []
        self._order = itertools.count()
        # Tasks that were woken (or never had to sleep) and have not yet finished or gone back to sleep.
        self._busy: set[asyncio.Task[object]] = set()
        self._idle: asyncio.Future[None] | None = None

    def now(self) -> datetime:
        """The current virtual time."""
        return self._now

    async def sleep_until(self, when: datetime) -> None:
        """Wait until :meth:`advance` reaches ``when``; if it already has, yield once and return."""
        _require_aware(when, "when")
        task = asyncio.current_task()
        if when <= self._now:
            self._mark_busy(task)
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._order), future, task))
        self._mark_idle(task)
        await future

    async def advance(self, seconds: float | timedelta) -> None:
        """Move time forward, waking each sleeper at its own moment, in deadline order.

        Returns once every sleeper due by the new time has run until it finished or slept
        again (including sleepers that those sleepers started with deadlines inside the span).
        """
        step = seconds if isinstance(seconds, timedelta) else timedelta(seconds=seconds)
        if step < timedelta(0):
            raise ValueError("time cannot go backwards")
        target = self._now + step
        await self._run_until_idle()
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, future, task = heapq.heappop(self._sleepers)
            if future.done():  # its task was cancelled while asleep
                continue
            self._now = max(self._now, when)
            self._mark_busy(task)
            future.set_result(None)
            await self._run_until_idle()
        self._now = target
        await self._run_until_idle()

    @property
    def sleepers(self) -> int:
        """How many tasks are asleep on this clock (useful in test assertions)."""
        return sum(1 for _, _, future, _ in self._sleepers if not future.done())

    def _mark_busy(self, task: asyncio.Task[object] | None) -> None:
        if task is None or task in self._busy:
            return
        self._busy.add(task)
        task.add_done_callback(self._forget)

    def _mark_idle(self, task: asyncio.Task[object] | None) -> None:
        if task is None or task not in self._busy:
            return
        task.remove_done_callback(self._forget)
        self._forget(task)

    def _forget(self, task: asyncio.Task[object]) -> None:
        self._busy.discard(task)
        if not self._busy and self._idle is not None and not self._idle.done():
            self._idle.set_result(None)

    async def _run_until_idle(self) -> None:
        """Let every woken task run until it finishes or sleeps on this clock again."""
        me = asyncio.current_task()
        while True:
            # One turn of the loop lets tasks that were just created or woken take their first step.
            await asyncio.sleep(0)
            if me in self._busy:  # advance() called from a woken task: don't wait for ourselves
                self._mark_idle(me)
            if not self._busy:
                return
            self._idle = asyncio.get_running_loop().create_future()
            await self._idle


@dataclass(slots=True)
class _Due:
    """A deadline waiting: when it falls due, when it is next tried (later after a failure), and
    the waits left before the tries after that."""

    deadline: datetime
    tried_at: datetime
    number: int  # its place in the queue: a later arm of the same key replaces it
    waits: Iterator[timedelta] | None = None  # made at the first failure


class ReactionTimers:
    """The timers of every open reaction window (or other deadline), one queue for them all.

    When a window's deadline passes before it is cancelled, re-armed or :meth:`close`\\ d, the
    timers ask ``still_due(key)`` (if given) and, while it is, await ``on_expire(key)``. Either
    raising anything is logged (with the key) and tried again after the next wait of ``backoff``
    on the timers' clock, until ``on_expire`` returns or ``still_due`` says False. So
    ``on_expire`` must return only once its work is stored, and raise otherwise; it should check
    again, under its own lock, that the work is still to do.

    A waiting deadline is a small entry in a queue ordered by time, not a task of its own: one
    task sleeps until the earliest, so 100,000 armed windows cost little memory and leave the
    garbage collector little to walk. A deadline that falls due waits in the queue (still armed,
    still cancellable) until one of the ``limit`` places is free (a semaphore; pass the same one
    to several timers to share it), then fires in a task of its own, after it has been
    forgotten, so ``on_expire`` may freely arm, re-arm or cancel any window, its own included (a
    failed attempt is then not tried again if the key was armed meanwhile). ``retries`` counts
    the attempts made again after a failure.

    All methods except :meth:`close` are synchronous but must be called while an asyncio event
    loop is running.
    """

    def __init__(
        self,
        clock: Clock,
        on_expire: Callable[[WindowKey], Awaitable[None]],
        *,
        still_due: Callable[[WindowKey], Awaitable[bool]] | None = None,
        backoff: Backoff = Backoff(),
        limit: asyncio.Semaphore | None = None,
    ) -> None:
        self.clock = clock
        self.on_expire = on_expire
        self.still_due = still_due
        self.backoff = backoff
        self.limit = asyncio.Semaphore(FIRING_AT_ONCE) if limit is None else limit
        self.retries = 0
        self._due: dict[WindowKey, _Due] = {}  # every armed key
        self._queue: list[tuple[datetime, int, WindowKey]] = []  # (tried at, number, key), a heap
        self._numbers = itertools.count()
        self._runner: asyncio.Task[None] | None = None  # the task that fires what falls due
        self._wakes_at: datetime | None = None  # when the runner, asleep, wakes
        # Deadlines whose callback is running; kept so that the tasks are not garbage-collected
        # and so that close() can let them finish.
        self._firing: set[asyncio.Task[None]] = set()
        self._closed = False

    def __contains__(self, key: WindowKey) -> bool:
        """Whether a deadline is armed for ``key`` (waiting, or waiting to be tried again)."""
        return key in self._due

    def arm(self, key: WindowKey, deadline: datetime) -> None:
        """Start the timer of a window, replacing any timer already armed for the same key.

        A deadline that has already passed fires on the next turns of the event loop.
        Raises ``ValueError`` for a naive deadline and ``RuntimeError`` after :meth:`close`.
        """
        _require_aware(deadline, "deadline")
        if self._closed:
            raise RuntimeError("reaction timers are closed")
        self._queue_up(key, _Due(deadline, deadline, next(self._numbers)))

    def cancel(self, key: WindowKey) -> bool:
        """The window was answered: stop its timer (and its retries, if it failed before).

        Returns True if a timer was waiting, False if there was none (never armed, already
        cancelled, or already fired — including while its callback is still running).
        """
        return self._due.pop(key, None) is not None  # its entry in the queue is passed over

    def rearm(self, stored: Iterable[tuple[WindowKey, datetime]]) -> None:
        """Arm windows read back from storage after a restart.

        Each window gets the time it has left. Those already past their deadline fire on the
        next turns of the event loop, in deadline order (earliest first), before any window that
        still has time left. Entries are armed earliest first, so if a key is listed twice its
        later deadline is the one kept. Windows already armed and not listed are left alone.
        """
        for key, deadline in sorted(stored, key=lambda item: item[1]):
            self.arm(key, deadline)

    def time_left(self, key: WindowKey) -> timedelta | None:
        """Time until the window's deadline (zero once due), or None if no timer is waiting."""
        due = self._due.get(key)
        if due is None:
            return None
        return max(due.deadline - self.clock.now(), timedelta(0))

    def deadline(self, key: WindowKey) -> datetime | None:
        """The deadline the window is armed with (also while it waits to be tried again), or
        None if no timer is waiting."""
        due = self._due.get(key)
        return None if due is None else due.deadline

    @property
    def overdue(self) -> int:
        """How many deadlines have fallen due and are not done yet: firing, waiting for their
        turn to fire (see ``limit``), or waiting to be tried again."""
        now = self.clock.now()
        return len(self._firing) + sum(due.deadline <= now for due in self._due.values())

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called: no timer may be armed any more."""
        return self._closed

    @property
    def armed(self) -> frozenset[WindowKey]:
        """The keys of the windows whose timer is still waiting (for its deadline, its turn to
        fire, or to try again); ``key in timers`` asks about one key without copying them."""
        return frozenset(self._due)

    async def close(self) -> None:
        """Shut down: cancel every waiting timer, then wait for callbacks already running.

        Callbacks that have started are allowed to finish (so a "no reaction" being written is
        not cut off half-way); one that fails is not tried again. After close, :meth:`arm`
        raises ``RuntimeError``.
        """
        self._closed = True
        self._due.clear()
        self._queue.clear()
        if self._runner is not None:
            self._runner.cancel()
            await asyncio.gather(self._runner, return_exceptions=True)
        me = asyncio.current_task()
        while firing := [task for task in self._firing if task is not me]:
            await asyncio.gather(*firing, return_exceptions=True)
            self._firing.difference_update(firing)

    def _queue_up(self, key: WindowKey, due: _Due) -> None:
        """Put a deadline in the queue, waking the runner if it must fire sooner than it sleeps."""
        self._due[key] = due
        heapq.heappush(self._queue, (due.tried_at, due.number, key))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run(), name="deadlines")
        elif self._wakes_at is not None and due.tried_at < self._wakes_at:
            self._runner.cancel()  # asleep on a later moment: a new runner sleeps on this one
            self._runner = asyncio.get_running_loop().create_task(self._run(), name="deadlines")

    def _next(self) -> tuple[datetime, WindowKey] | None:
        """The earliest deadline still armed (entries cancelled or replaced are dropped)."""
        while self._queue:
            at, number, key = self._queue[0]
            due = self._due.get(key)
            if due is not None and due.number == number:
                return at, key
            heapq.heappop(self._queue)
        return None

    async def _run(self) -> None:
        """The runner: sleep until the earliest deadline, then fire those that have fallen due as
        places free up; end when nothing is left to wait for."""
        while (earliest := self._next()) is not None:
            self._wakes_at = earliest[0]  # once due, sleeping returns at once (on a virtual clock,
            try:  # it also marks the runner as a task ``advance`` waits for)
                await self.clock.sleep_until(earliest[0])
            finally:
                self._wakes_at = None
            await self.limit.acquire()  # waits while every place is taken
            await self._start_due()
            await asyncio.sleep(0)  # their first steps, before the runner may sleep again

    async def _start_due(self) -> None:
        """Holding a place: fire the earliest deadline due, and more while places are free (taking
        one does not wait then); a place taken and not used is given back."""
        while (earliest := self._next()) is not None and earliest[0] <= self.clock.now():
            key = heapq.heappop(self._queue)[2]
            due = self._due.pop(key)
            task = asyncio.get_running_loop().create_task(self._fire(key, due), name=f"deadline {key!r}")
            task.add_done_callback(lambda _task: self.limit.release())
            self._firing.add(task)
            if self.limit.locked():
                return
            await self.limit.acquire()
        self.limit.release()

    async def _fire(self, key: WindowKey, due: _Due) -> None:
        """Fire once, with its place held; after a failure, queue it again to be tried later."""
        try:
            await self.clock.sleep_until(due.tried_at)  # already passed: on a virtual clock, this
            # marks the task as one that ``advance`` waits for
            waits = due.waits if due.waits is not None else self.backoff.waits()
            wait = next(waits)
            if await self._attempt(key, wait) or self._closed or key in self._due:
                return  # done, shut down, or armed again meanwhile
            self.retries += 1
            later = self.clock.now() + wait
            self._queue_up(key, _Due(due.deadline, later, next(self._numbers), waits))
        finally:
            self._firing.discard(asyncio.current_task())  # type: ignore[arg-type]

    async def _attempt(self, key: WindowKey, wait: timedelta) -> bool:
        """Fire once, if still due: True when done, False (the failure logged) to try again."""
        try:
            if self.still_due is None or await self.still_due(key):
                await self.on_expire(key)
            return True
        except Exception:
            log.warning(
                "deadline %r could not be handled; trying again in %s s",
                key,
                wait.total_seconds(),
                exc_info=True,
            )
            return False
