"""Deadlines that fail to fire are tried again until they are done, in virtual time: reaction
windows, turn pings, referee deadlines and campaign phases overdue at a restart each fire exactly
once though their writes fail at first ("database is locked", a pool timeout), and a restart with
hundreds of overdue windows on a real SQLite file closes every one of them once."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter, defaultdict
from datetime import timedelta

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from bot.services.campaign_service import CampaignService
from bot.services.game_service import GameService
from bot.services.ping_service import TurnPings
from bot.storage.campaign_store import CampaignStore
from bot.storage.clock_store import player_deadlines
from bot.storage.store import GameStore
from engine.commands import DeclineReaction
from engine.dice import ScriptedDice
from engine.runtime import VirtualClock
from tests.bot.overdue import channel, store_overdue_windows
from tests.bot.test_reaction_windows import ADVANCE
from tests.bot.test_referee_clock import refereed

pytestmark = pytest.mark.both_databases
HOUR = timedelta(hours=1)
WINDOWS = 200
WRITE = re.compile(r"\s*(?:UPDATE|INSERT INTO|DELETE FROM)\s+(\w+)", re.IGNORECASE)


class FailingWrites:
    """The first ``times`` writes to each table of a store fail, alternately as a locked
    database and as a pool that timed out; ``failed`` counts them."""

    def __init__(self, store: GameStore, times: int) -> None:
        self.left: defaultdict[str, int] = defaultdict(lambda: times)
        self.failed = 0
        for engine in store.engines:
            event.listen(engine, "before_cursor_execute", self._write)

    def _write(self, conn, cursor, statement, parameters, context, executemany) -> None:
        write = WRITE.match(statement)
        if write is None or self.left[write[1]] == 0:
            return
        self.left[write[1]] -= 1
        self.failed += 1
        if self.failed % 2:
            raise OperationalError(statement, parameters, sqlite3.OperationalError("database is locked"))
        raise PoolTimeout("QueuePool limit of size 5 overflow 10 reached, connection timed out")


class Bot:
    """One run of the bot: games (with the referee's clock), turn pings and campaigns, and what
    each told its channels."""

    def __init__(self, store: GameStore, clock: VirtualClock) -> None:
        self.closed: list[str] = []
        self.pinged: list[tuple[str, tuple[str, ...]]] = []
        self.deadlines: list[tuple[str, str]] = []
        self.reveals: list[tuple[str, int | None]] = []
        self.games = GameService(store, clock=clock, on_window_closed=self._closed)
        self.games.clocks.on_deadline_passed = self._deadline
        self.pings = TurnPings(self.games, on_ping=self._ping)
        self.campaigns = CampaignService(
            store, dice=lambda: ScriptedDice([]), clock=clock, on_reveal=self._reveal
        )

    async def _closed(self, channel_id, outcome):
        self.closed.append(channel_id)

    async def _ping(self, ping):
        self.pinged.append((ping.channel_id, ping.mention))

    async def _deadline(self, channel_id, text, outcome):
        self.deadlines.append((channel_id, text))

    async def _reveal(self, channel_id, text, open_phase):
        self.reveals.append((channel_id, open_phase))

    async def start(self) -> Bot:
        """As the Discord client's start-up does."""
        await self.games.resume()
        await self.campaigns.resume()
        await self.pings.resume()
        return self

    async def stop(self) -> None:
        await self.pings.close()
        await self.campaigns.close()
        await self.games.close()

    @property
    def retries(self) -> int:
        timers = (self.games.timers, self.games.clocks.deadlines, self.pings.timers, self.campaigns.timers)
        return sum(t.retries for t in timers)


async def declines(store: GameStore, channel_id: str) -> int:
    _, log = await store.history(channel_id)
    return sum(isinstance(command, DeclineReaction) for command, _ in log)


async def every_kind_of_deadline(store: GameStore, clock: VirtualClock) -> None:
    """A bot that leaves a channel of each kind of deadline, then stops before any falls due:
    a reaction window, a turn ping, a referee's deadline and a campaign phase."""
    before = Bot(store, clock)
    games = before.games
    await before.pings.set_delay("window", 0)  # each channel has one deadline only
    await refereed(games, channel="window")
    await games.act("window", "otto", ADVANCE)  # allies may react for 2 minutes
    await refereed(games, channel="ping")  # otto is pinged after 10 minutes
    await before.pings.set_delay("deadline", 0)
    await refereed(games, reaction_seconds=48 * 3600, channel="deadline")
    await games.act("deadline", "otto", ADVANCE)
    await games.clocks.set_deadline("deadline", "ref", "allies", 1)  # before the window's 48 h
    await before.campaigns.create(
        "campaign",
        "Barrikady",
        {"german": ["ann"], "russian": ["cat"]},
        "17 Oct",
        {"german": 10, "russian": 12},
        2,
        timedelta(days=1),
    )
    await before.stop()


async def test_every_kind_of_overdue_deadline_fires_once_though_its_writes_fail_at_first(store):
    clock = VirtualClock()
    await every_kind_of_deadline(store, clock)
    await clock.advance(timedelta(days=1, hours=2))  # the bot is down through every deadline

    restarted = GameStore(store.database_url)
    failing = FailingWrites(restarted, times=3)
    after = await Bot(restarted, clock).start()
    await clock.advance(HOUR)
    assert after.closed == ["window"]
    assert await declines(restarted, "window") == await declines(restarted, "deadline") == 1
    assert after.pinged == [("ping", ("otto",))]
    assert after.deadlines == [
        (
            "deadline",
            "The Allies did not act by the referee's deadline: the game declines the reaction for them",
        )
    ]
    assert await player_deadlines(restarted) == []
    assert after.reveals == [("campaign", 1)]
    campaign = (await CampaignStore(restarted).current("campaign")).campaign
    assert [p.state for p in campaign.phases] == ["revealed", "open"]
    assert failing.failed >= 12 and failing.left["games"] == failing.left["campaigns"] == 0
    assert after.retries >= 6
    await after.stop()
    await restarted.close()


async def test_a_window_whose_write_keeps_failing_is_tried_again_until_it_closes(store):
    clock = VirtualClock()
    await store_overdue_windows(store.database_url, 20, clock, small=True)
    await clock.advance(HOUR)
    restarted = GameStore(store.database_url)
    failures = Counter()
    appending = restarted.appending

    def flaky_append(game, *args, **kwargs):  # each channel's first 5 writes fail
        failures[game.channel_id] += 1
        if failures[game.channel_id] > 5:
            return appending(game, *args, **kwargs)
        failure = [PoolTimeout("pool timed out"), OperationalError("", {}, Exception("locked"))][
            failures[game.channel_id] % 2
        ]

        def write(connection):
            raise failure

        return write

    restarted.appending = flaky_append
    closed = []

    async def announce(channel_id, outcome):
        closed.append(channel_id)

    games = GameService(restarted, clock=clock, on_window_closed=announce)
    await games.resume()
    await clock.advance(0)
    assert closed == [] and len(games.timers.armed) == 20, "no window is dropped after a failure"
    await clock.advance(31)  # tried again after 1, 2, 4, 8 and 16 s
    assert sorted(closed) == [channel(n) for n in range(20)]
    assert games.timers.retries == 100 and games.timers.armed == frozenset()
    assert await restarted.open_windows() == []
    _, log = await restarted.history(channel(7))
    assert [type(command) for command, _ in log] == [DeclineReaction]
    await games.close()
    await restarted.close()


async def test_a_restart_with_hundreds_of_overdue_windows_closes_each_once(database_url):
    """Far more windows than the database pool has connections (15) fire at once: each is closed
    once (benchmarks/restart_overdue.py does 10,000; each close costs some 40 ms today)."""
    url = database_url
    clock = VirtualClock()
    await store_overdue_windows(url, WINDOWS, clock, small=True)
    await clock.advance(HOUR)
    store = GameStore(url)
    closed = []

    async def announce(channel_id, outcome):
        closed.append(channel_id)

    games = GameService(store, clock=clock, on_window_closed=announce)
    TurnPings(games)  # as in the bot: each close also follows the turn pings
    await games.resume()
    await clock.advance(HOUR)
    assert sorted(closed) == [channel(n) for n in range(WINDOWS)], "every window closed, none twice"
    assert await store.open_windows() == []
    assert games.timers.armed == frozenset()
    await games.close()
    await store.close()
