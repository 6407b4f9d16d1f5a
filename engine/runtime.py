"""Deadline timers: one per open reaction window (or any other deadline), on a clock that can be
swapped for tests.

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
share).

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


class ReactionTimers:
    """One timer per open reaction window (or other deadline).

    When a window's deadline passes before it is cancelled, re-armed or :meth:`close`\\ d, the
    timers ask ``still_due(key)`` (if given) and, while it is, await ``on_expire(key)``. Either
    raising anything is logged (with the key) and tried again after the next wait of ``backoff``
    on the timers' clock, until ``on_expire`` returns or ``still_due`` says False. So
    ``on_expire`` must return only once its work is stored, and raise otherwise; it should check
    again, under its own lock, that the work is still to do.

    ``on_expire`` runs in the timer's own task, after the timer has been forgotten, so it may
    freely arm, re-arm or cancel any window, its own included (a failed attempt is then not
    tried again if the key was armed meanwhile). At most ``limit`` attempts run at once (a
    semaphore; pass the same one to several timers to share it). ``retries`` counts the
    attempts made again after a failure.

    All methods except :meth:`close` are synchronous but must be called while an asyncio event
    loop is running (timers are asyncio tasks).
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
        self._waiting: dict[WindowKey, asyncio.Task[None]] = {}
        self._deadlines: dict[WindowKey, datetime] = {}
        # Timers whose callback is running; kept so that the tasks are not garbage-collected
        # and so that close() can let them finish.
        self._firing: set[asyncio.Task[None]] = set()
        self._closed = False

    def arm(self, key: WindowKey, deadline: datetime) -> None:
        """Start the timer of a window, replacing any timer already armed for the same key.

        A deadline that has already passed fires on the next turn of the event loop.
        Raises ``ValueError`` for a naive deadline and ``RuntimeError`` after :meth:`close`.
        """
        _require_aware(deadline, "deadline")
        if self._closed:
            raise RuntimeError("reaction timers are closed")
        self.cancel(key)
        self._deadlines[key] = deadline
        task = asyncio.get_running_loop().create_task(
            self._wait(key, deadline), name=f"reaction-window {key!r}"
        )
        self._waiting[key] = task

    def cancel(self, key: WindowKey) -> bool:
        """The window was answered: stop its timer (and its retries, if it failed before).

        Returns True if a timer was waiting, False if there was none (never armed, already
        cancelled, or already fired — including while its callback is still running).
        """
        task = self._waiting.pop(key, None)
        self._deadlines.pop(key, None)
        if task is None:
            return False
        task.cancel()
        return True

    def rearm(self, stored: Iterable[tuple[WindowKey, datetime]]) -> None:
        """Arm windows read back from storage after a restart.

        Each window gets the time it has left. Those already past their deadline fire on the
        next turn of the event loop, in deadline order (earliest first), before any window that
        still has time left. Entries are armed earliest first, so if a key is listed twice its
        later deadline is the one kept. Windows already armed and not listed are left alone.
        """
        for key, deadline in sorted(stored, key=lambda item: item[1]):
            self.arm(key, deadline)

    def time_left(self, key: WindowKey) -> timedelta | None:
        """Time until the window's deadline (zero once due), or None if no timer is waiting."""
        deadline = self._deadlines.get(key)
        if deadline is None:
            return None
        return max(deadline - self.clock.now(), timedelta(0))

    def deadline(self, key: WindowKey) -> datetime | None:
        """The deadline the window is armed with (also while it waits to be tried again), or
        None if no timer is waiting."""
        return self._deadlines.get(key)

    @property
    def overdue(self) -> int:
        """How many deadlines have fallen due and are not done yet: firing, waiting for their
        turn to fire (see ``limit``), or waiting to be tried again."""
        now = self.clock.now()
        return len(self._firing) + sum(deadline <= now for deadline in self._deadlines.values())

    @property
    def armed(self) -> frozenset[WindowKey]:
        """The keys of the windows whose timer is still waiting (or waiting to try again)."""
        return frozenset(self._waiting)

    async def close(self) -> None:
        """Shut down: cancel every waiting timer, then wait for callbacks already running.

        Callbacks that have started are allowed to finish (so a "no reaction" being written is
        not cut off half-way); one that fails is not tried again. After close, :meth:`arm`
        raises ``RuntimeError``.
        """
        self._closed = True
        waiting = list(self._waiting.values())
        self._waiting.clear()
        self._deadlines.clear()
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        me = asyncio.current_task()
        while firing := [task for task in self._firing if task is not me]:
            await asyncio.gather(*firing, return_exceptions=True)
            self._firing.difference_update(firing)

    async def _wait(self, key: WindowKey, deadline: datetime) -> None:
        """The body of one timer: sleep, then fire until done, waiting longer after each failure."""
        me = asyncio.current_task()
        assert me is not None
        await self.clock.sleep_until(deadline)
        for wait in self.backoff.waits():
            if self._waiting.get(key) is not me:  # replaced or cancelled just as it woke
                return
            del self._waiting[key]
            del self._deadlines[key]
            self._firing.add(me)
            try:
                if await self._attempt(key, wait):
                    return
            finally:
                self._firing.discard(me)
            if self._closed or key in self._waiting:  # shut down, or armed again meanwhile
                return
            self._waiting[key] = me
            self._deadlines[key] = deadline
            self.retries += 1
            await self.clock.sleep_until(self.clock.now() + wait)

    async def _attempt(self, key: WindowKey, wait: timedelta) -> bool:
        """Fire once, if still due: True when done, False (the failure logged) to try again."""
        async with self.limit:
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
