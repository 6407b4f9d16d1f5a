"""Reaction-window timers: one per open window, on an injectable clock.

A window closes early when a player answers it (:meth:`ReactionTimers.cancel`), or at its
deadline, when the timers call ``on_expire(key)``; the caller answers the window with the
same "no reaction" command a player would send. Deadlines are kept by the caller's storage:
after a restart, :meth:`ReactionTimers.rearm` arms every stored window again with the time it
has left, and those that expired while nobody was watching expire at once, oldest first.

Tests use :class:`VirtualClock`, so a 48-hour window takes no real time.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Hashable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Protocol

log = logging.getLogger(__name__)

WindowKey = Hashable


class Clock(Protocol):
    def now(self) -> datetime: ...

    async def sleep_until(self, when: datetime) -> None: ...


class SystemClock:
    """Wall-clock time (UTC)."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep_until(self, when: datetime) -> None:
        while (left := (when - self.now()).total_seconds()) > 0:
            await asyncio.sleep(left)


class VirtualClock:
    """Time that moves only when a test calls :meth:`advance`."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._sleepers: list[tuple[datetime, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> datetime:
        return self._now

    async def sleep_until(self, when: datetime) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._order), future))
        await future

    async def advance(self, seconds: float) -> None:
        """Move time forward, waking each sleeper at its own moment, in deadline order."""
        target = self._now + timedelta(seconds=seconds)
        await _settle()
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, future = heapq.heappop(self._sleepers)
            self._now = max(self._now, when)
            if not future.done():
                future.set_result(None)
            await _settle()
        self._now = target
        await _settle()


async def _settle() -> None:
    """Let woken tasks run to their next wait."""
    for _ in range(10):
        await asyncio.sleep(0)


class ReactionTimers:
    """One timer per open reaction window."""

    def __init__(self, clock: Clock, on_expire: Callable[[WindowKey], Awaitable[None]]) -> None:
        self.clock = clock
        self.on_expire = on_expire
        self._tasks: dict[WindowKey, asyncio.Task[None]] = {}
        self._deadlines: dict[WindowKey, datetime] = {}

    def arm(self, key: WindowKey, deadline: datetime) -> None:
        """Start (or restart) the timer of a window."""
        self.cancel(key)
        self._deadlines[key] = deadline
        self._tasks[key] = asyncio.get_running_loop().create_task(self._wait(key, deadline))

    def cancel(self, key: WindowKey) -> bool:
        """The window was answered: stop its timer. True if one was running."""
        self._deadlines.pop(key, None)
        task = self._tasks.pop(key, None)
        if task is None or task.done():
            return False
        if task is not asyncio.current_task():
            task.cancel()
        return True

    def rearm(self, stored: Iterable[tuple[WindowKey, datetime]]) -> None:
        """Arm stored windows after a restart; expired ones fire at once, oldest first."""
        for key, deadline in sorted(stored, key=lambda item: item[1]):
            self.arm(key, deadline)

    def time_left(self, key: WindowKey) -> timedelta | None:
        deadline = self._deadlines.get(key)
        if deadline is None:
            return None
        return max(deadline - self.clock.now(), timedelta(0))

    @property
    def armed(self) -> frozenset[WindowKey]:
        return frozenset(self._tasks)

    async def close(self) -> None:
        """Stop every timer (shutdown)."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        self._deadlines.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _wait(self, key: WindowKey, deadline: datetime) -> None:
        await self.clock.sleep_until(deadline)
        if self._tasks.get(key) is not asyncio.current_task():
            return
        del self._tasks[key]
        self._deadlines.pop(key, None)
        try:
            await self.on_expire(key)
        except Exception:
            log.exception("closing reaction window %r failed", key)
