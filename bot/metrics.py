"""Metrics for operators (Prometheus), served only when ``METRICS_PORT`` is set.

The counters are counted where the work happens (an action stored or refused by the game
service, an interaction acknowledged); the two gauges are read from the database, every
``SAMPLE_SECONDS``, so every process of a scaled-out bot reports the same, whole picture (take
their ``max``, not their sum).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta

from prometheus_client import Counter, Gauge, Histogram, start_http_server
from sqlalchemy import select

from bot.storage.deadline_claims import CAMPAIGN_ALARMS
from bot.storage.store import GameStore
from bot.storage.tables import (
    CampaignRow,
    PausedClockRow,
    PlayerDeadlineRow,
    TurnPingRow,
    WindowRow,
    utcnow,
)

log = logging.getLogger(__name__)

SAMPLE_SECONDS = 15.0
OVERDUE_AFTER = timedelta(seconds=60)  # a deadline this far past and still stored was not fired

COMMANDS_STORED = Counter("ironcross_actions_applied", "Game commands stored", ["command"])
REFUSALS = Counter("ironcross_refusals", "Game commands refused (rules or permissions)")
FIRST_RESPONSE = Histogram(
    "ironcross_first_response_seconds",
    "From a Discord interaction's creation to the bot's acknowledgement (Discord allows 3 s)",
    buckets=(0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0),
)
OPEN_WINDOWS = Gauge("ironcross_open_windows", "Reaction windows open, in every game")
OVERDUE = Gauge(
    "ironcross_overdue_deadlines",
    "Deadlines more than a minute past and not yet fired (games whose clock is paused aside)",
    ["kind"],
)


async def sample(store: GameStore, now: datetime | None = None) -> None:
    """Set the gauges from the database: the open windows, and the overdue deadlines by kind."""
    now = now or utcnow()
    async with store.sessions() as session:
        paused = set((await session.execute(select(PausedClockRow.channel_id))).scalars())
        windows = (await session.execute(select(WindowRow.channel_id, WindowRow.deadline))).all()
        deadlines = (
            await session.execute(select(PlayerDeadlineRow.channel_id, PlayerDeadlineRow.deadline))
        ).all()
        pings = (
            await session.execute(
                select(TurnPingRow.channel_id, TurnPingRow.due).where(TurnPingRow.due.is_not(None))
            )
        ).all()
        campaigns = (
            await session.execute(
                select(CampaignRow.channel_id, CampaignRow.due).where(
                    CAMPAIGN_ALARMS.kept, CampaignRow.due.is_not(None)
                )
            )
        ).all()
    OPEN_WINDOWS.set(len(windows))
    for kind, rows in (("window", windows), ("player_deadline", deadlines), ("turn_ping", pings)):
        OVERDUE.labels(kind).set(overdue(rows, paused, now))
    OVERDUE.labels("campaign_phase").set(overdue(campaigns, set(), now))  # no referee's pause holds it


def overdue(rows: Iterable[tuple[str, str]], paused: set[str], now: datetime) -> int:
    """How many of the (channel, ISO time) deadlines are overdue, the paused channels aside."""
    return sum(
        1
        for channel_id, at in rows
        if channel_id not in paused and datetime.fromisoformat(at) < now - OVERDUE_AFTER
    )


@asynccontextmanager
async def served(port: int | None, store: GameStore) -> AsyncIterator[int | None]:
    """While the block runs, serve the metrics on ``port`` (nothing if None; any free port if
    0) and keep the gauges fresh; the block is given the port served."""
    if port is None:
        yield None
        return
    server, thread = start_http_server(port)
    log.info("metrics served", extra={"port": server.server_port})
    sampling = asyncio.create_task(keep_sampling(store))
    try:
        yield server.server_port
    finally:
        sampling.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampling
        server.shutdown()
        thread.join()


async def keep_sampling(store: GameStore) -> None:
    """Sample the gauges every ``SAMPLE_SECONDS``; a failed sample is logged and tried again."""
    while True:
        try:
            await sample(store)
        except Exception:
            log.exception("could not sample the metrics")
        await asyncio.sleep(SAMPLE_SECONDS)
