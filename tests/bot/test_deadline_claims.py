"""Deadlines claimed from the database, in virtual time, on SQLite and PostgreSQL: two processes'
claim loops never take the same deadline, a deadline fires in the process that claimed it only,
and one whose claimer died is taken over once its lease runs out. The settings give a process
its Discord shards."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.config import Settings
from bot.discord_adapter.run import client_for
from bot.services.deadline_loop import DeadlineLoop
from bot.services.game_service import GameService
from bot.shard_claim import shards_to_run
from bot.storage.clock_store import player_deadlines
from bot.storage.deadline_claims import WINDOWS, Claims
from bot.storage.store import GameStore
from engine.runtime import VirtualClock
from tests.bot.overdue import channel, store_overdue_windows
from tests.bot.test_overdue_retries import Bot, declines, every_kind_of_deadline

LEASE = timedelta(seconds=30)


class Process:
    """One bot process's game service and claim loop on a shared database."""

    def __init__(self, store: GameStore, clock: VirtualClock, name: str) -> None:
        self.closed: list[str] = []
        self.games = GameService(
            store, clock=clock, on_window_closed=self._closed, claims=Claims(store, name, LEASE)
        )
        self.loop = DeadlineLoop(self.games, batch=10)

    async def _closed(self, channel_id, outcome) -> None:
        self.closed.append(channel_id)


@pytest.mark.both_databases
async def test_two_claim_loops_share_the_overdue_windows_and_close_each_once(database_url):
    clock = VirtualClock()
    await store_overdue_windows(database_url, 15, clock, small=True)
    await clock.advance(timedelta(hours=1))
    store = GameStore(database_url)
    first, second = Process(store, clock, "first"), Process(store, clock, "second")
    assert await first.loop.claim_once() == 10  # a batch: no more than it has room for
    assert await second.loop.claim_once() == 5  # the rest; none of the first's
    assert await first.loop.claim_once() == 0  # its ten still wait to fire: no room
    await clock.advance(0)
    assert len(first.closed) == 10 and len(second.closed) == 5
    assert sorted(first.closed + second.closed) == [channel(n) for n in range(15)]
    assert await store.open_windows() == []
    for process in (first, second):
        await process.games.close()
    await store.close()


@pytest.mark.both_databases
async def test_a_window_claimed_by_a_process_that_died_is_closed_by_another_once_its_lease_runs_out(
    database_url,
):
    clock = VirtualClock()
    await store_overdue_windows(database_url, 1, clock, small=True)
    await clock.advance(timedelta(hours=1))
    store = GameStore(database_url)
    dead = Claims(store, "dead")  # claims, then dies before it fires
    assert len(await dead.claim_due(WINDOWS, clock.now())) == 1
    alive = Process(store, clock, "alive")
    alive.games.timers.arm((channel(0), 1), clock.now())  # armed here too: not this process's to fire
    await clock.advance(0)
    assert await alive.loop.claim_once() == 0 and alive.closed == []
    await clock.advance(LEASE + timedelta(seconds=1))
    assert await alive.loop.claim_once() == 1
    await clock.advance(0)
    assert alive.closed == [channel(0)] and await declines(store, channel(0)) == 1
    assert not await dead.take(WINDOWS, (channel(0),), clock.now()), "closed: nothing left to claim"
    await alive.games.close()
    await store.close()


@pytest.mark.both_databases
async def test_every_kind_of_deadline_a_stopped_process_left_is_fired_once_by_the_claim_loops(store):
    clock = VirtualClock()
    await every_kind_of_deadline(store, clock)
    await clock.advance(timedelta(days=1, hours=2))  # its process is gone: no timer of it runs
    bots = [Bot(store, clock) for _ in range(2)]  # two others, not re-arming at start-up
    loops = [DeadlineLoop(bot.games, bot.pings, bot.campaigns) for bot in bots]
    assert await loops[0].claim_once() == 4  # a window, a ping, a deadline, a campaign
    await clock.advance(0)  # each fired, and what it started that was due (the next phase's reminder)
    assert await loops[1].claim_once() == 0
    await clock.advance(timedelta(hours=1))
    assert [await loop.claim_once() for loop in loops] == [0, 0]
    assert [bot.closed for bot in bots] == [["window"], []]
    assert bots[0].pinged == [("ping", ("otto",))]
    assert bots[0].deadlines == [
        (
            "deadline",
            "The Allies did not act by the referee's deadline: the game declines the reaction for them",
        )
    ]
    assert bots[0].reveals == [("campaign", 1)]
    assert (bots[1].pinged, bots[1].deadlines, bots[1].reveals) == ([], [], [])
    assert await declines(store, "window") == await declines(store, "deadline") == 1
    assert await player_deadlines(store) == [] and await store.open_windows() == []
    for bot in bots:
        await bot.stop()


async def test_a_process_runs_the_shards_its_settings_give_it(store, monkeypatch):
    monkeypatch.setenv("SHARD_IDS", "2, 0")
    monkeypatch.setenv("SHARD_COUNT", "3")
    monkeypatch.setenv("DEADLINE_LEASE_SECONDS", "12")
    settings = Settings(_env_file=None)
    async with shards_to_run(store.database_url, settings.shards, settings.shard_count) as shard_ids:
        client = client_for(settings, store, shard_ids)
    assert (client.shard_ids, client.shard_count) == ([0, 2], 3)
    assert client.games.claims.lease == timedelta(seconds=12)
    assert client_for(Settings(_env_file=None, shard_ids="", shard_count=None), store).shard_ids is None
    for wrong in ({"shard_ids": "0,1"}, {"shard_ids": "0,3", "shard_count": 3}, {"shard_ids": "zero"}):
        with pytest.raises(ValueError, match="SHARD_"):
            Settings(_env_file=None, **{"shard_count": None, **wrong})
