"""Deadlines claimed from the database, so that several bot processes on one database share them
and each deadline is fired by one process.

Every stored deadline (a reaction window, a referee's deadline, a turn ping, a campaign's next
alarm, a lobby's expiry, a deadline's post still to make) carries a claim: the process that fires it
(``claimed_by``) and until when (``claimed_until``, a lease). A process fires a deadline only
once it holds its claim:

- :func:`claim_due` takes a batch of the deadlines that have fallen due and that nobody holds
  (or whose holder's lease ran out: it died, or is stuck), in one transaction that locks them
  with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so processes claiming at once each get other
  rows and never wait for each other;
- :func:`take` claims one deadline just before it fires (a timer this process armed itself), or
  renews its own claim, unless another process holds it;
- :meth:`Claims.renewing` renews a claim while its firing runs, so a firing slower than its
  lease (a slow render) is not taken over mid-flight.

What fires a deadline marks it done in the same transaction as its change to the game (the row
goes, or its moment is cleared), under the game's version check; so a second process that took
it over after a lease ran out finds it done. On SQLite (one process) ``FOR UPDATE`` is not
written and every claim is this process's own: today's behaviour, by the same path.

Times are stored as ISO 8601 UTC text, as the deadlines themselves are; they compare as text.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, false, or_, select, update
from sqlmodel import SQLModel

from bot.storage.store import GameStore
from bot.storage.tables import (
    CampaignRow,
    DeadlinePostRow,
    LobbyRow,
    PausedClockRow,
    PlayerDeadlineRow,
    TurnPingRow,
    WindowRow,
)
from engine.runtime import Clock, WindowKey

log = logging.getLogger(__name__)

LEASE = timedelta(seconds=30)  # how long a claim holds before another process may take it over


def stamp(moment: datetime) -> str:
    """A moment as stored: ISO 8601 in UTC, always with microseconds, so that it compares as text
    with the deadlines (stored with or without them)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def process_name() -> str:
    """This process, as its claims name it: host, process id, and a random part (a restarted
    process is another claimer, even with the same id)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Deadlines:
    """One table of deadlines: its rows' key, when each falls due (None: due as soon as it is
    written), whether a referee's pause holds it, and which rows hold a deadline at all."""

    table: type[SQLModel]
    key: tuple[str, ...]
    due: str | None
    paused_by_referee: bool = False
    kept: Any = None  # a condition the rows must meet, besides being due

    def column(self, name: str):
        return getattr(self.table, name)

    def where_key(self, key: Sequence[object]):
        return and_(*(self.column(name) == value for name, value in zip(self.key, key, strict=True)))


WINDOWS = Deadlines(WindowRow, ("channel_id",), "deadline", paused_by_referee=True)
REFEREE_DEADLINES = Deadlines(PlayerDeadlineRow, ("channel_id", "side"), "deadline", paused_by_referee=True)
TURN_PINGS = Deadlines(TurnPingRow, ("channel_id",), "due", paused_by_referee=True)
CAMPAIGN_ALARMS = Deadlines(
    CampaignRow,
    ("id",),
    "due",  # None on a campaign stored before its next alarm was: claimed to be looked at
    kept=and_(CampaignRow.kind == "red_barricades", CampaignRow.finished == false()),
)
DEADLINE_POSTS = Deadlines(DeadlinePostRow, ("channel_id", "post"), None)
# a lobby expires while open, or while a join its process gave up holds it
LOBBIES = Deadlines(LobbyRow, ("id",), "expires_at", kept=LobbyRow.status.in_(["open", "joining"]))


def _free(deadlines: Deadlines, now: str, owner: str | None = None):
    """Nobody holds it, its holder's lease has run out, or (``owner``) it is the owner's own."""
    until = deadlines.column("claimed_until")
    free = or_(until.is_(None), until < now)
    return free if owner is None else or_(free, deadlines.column("claimed_by") == owner)


async def claim_due(
    store: GameStore,
    deadlines: Deadlines,
    owner: str,
    now: datetime,
    lease: timedelta = LEASE,
    limit: int = 500,
) -> list[Any]:
    """Claim for ``owner`` up to ``limit`` deadlines of the table that are due at ``now`` and free
    (earliest first; not those of a game whose clock a referee has stopped), until ``now +
    lease``: the rows as claimed. Processes claiming at once get different rows."""
    table, at = deadlines.table, stamp(now)
    query = select(table).where(_free(deadlines, at)).limit(limit)
    if deadlines.due is not None:
        due = deadlines.column(deadlines.due)
        query = query.where(or_(due <= at, due.is_(None)) if deadlines.kept is not None else due <= at)
        query = query.order_by(due)
    if deadlines.kept is not None:
        query = query.where(deadlines.kept)
    if deadlines.paused_by_referee:
        query = query.where(deadlines.column("channel_id").not_in(select(PausedClockRow.channel_id)))
    async with store.sessions() as session, session.begin():
        rows = list((await session.execute(query.with_for_update(skip_locked=True, of=table))).scalars())
        for row in rows:
            row.claimed_by, row.claimed_until = owner, stamp(now + lease)
    return rows


async def take(
    store: GameStore,
    deadlines: Deadlines,
    key: Sequence[object],
    owner: str,
    now: datetime,
    lease: timedelta = LEASE,
) -> bool:
    """Claim one deadline for ``owner`` until ``now + lease`` (or renew the owner's claim): False
    if another process holds it, or it is gone."""
    table = deadlines.table
    async with store.sessions() as session, session.begin():
        result = await session.execute(
            update(table)
            .where(deadlines.where_key(key), _free(deadlines, stamp(now), owner))
            .values(claimed_by=owner, claimed_until=stamp(now + lease))
        )
    return result.rowcount == 1


@dataclass(frozen=True)
class Claims:
    """One process's claims on a store's deadlines, on its clock."""

    store: GameStore
    owner: str
    lease: timedelta = LEASE

    async def take(self, deadlines: Deadlines, key: Sequence[object], now: datetime) -> bool:
        return await take(self.store, deadlines, key, self.owner, now, self.lease)

    async def claim_due(self, deadlines: Deadlines, now: datetime, limit: int = 500) -> list[Any]:
        return await claim_due(self.store, deadlines, self.owner, now, self.lease, limit)

    def renewing(
        self,
        deadlines: Deadlines,
        clock: Clock,
        fire: Callable[[WindowKey], Awaitable[None]],
        claimed: Callable[[WindowKey], Sequence[object]] | None = None,
    ) -> Callable[[WindowKey], Awaitable[None]]:
        """``fire`` (a timer's firing of a deadline this process claimed, whose row's key is
        ``claimed(key)``), renewing the claim every third of the lease while it runs; the
        renewals stop once the claim is gone (the firing marked the deadline done)."""

        async def renewed(key: WindowKey) -> None:
            task = asyncio.get_running_loop().create_task(
                self._renew(deadlines, claimed(key) if claimed else key, clock)  # type: ignore[arg-type]
            )
            try:
                await fire(key)
            finally:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

        return renewed

    async def _renew(self, deadlines: Deadlines, key: Sequence[object], clock: Clock) -> None:
        while True:
            await clock.sleep_until(clock.now() + self.lease / 3)
            try:
                if not await self.take(deadlines, key, clock.now()):
                    return
            except Exception:  # a lost connection: the next renewal tries again, inside the lease
                log.warning("renewing the claim on %s failed", key, exc_info=True)
