"""The claim loop: how the deadlines stored by any process get fired by a live one.

A process arms the timers of the deadlines its own commands start, and fires each once it holds
its claim (:mod:`bot.storage.deadline_claims`). Every ``every`` seconds the loop also claims, a
batch at a time, the deadlines that have fallen due and that nobody holds: those of a process
that died (its lease ran out), those stored before this process started, those another process
armed but did not get to, the posts of deadlines fired still to make
(:mod:`bot.services.deadline_posts`), and the lobbies whose time ran out
(:mod:`bot.services.lobby_service`). Each claimed deadline is armed on the timers of the
service that fires it, and fires at once (its deadline has passed). Several processes' loops
never claim the same deadline (``FOR UPDATE SKIP LOCKED``), and a process claims no more than it
has room for (a batch, less what it has overdue and not yet fired), so a restart with 10,000
overdue deadlines is shared between the processes alive, without every process arming every
timer, and a claim's lease does not run out while its deadline waits its turn.

The loop runs on the services' clock, so a test moves it with a :class:`~engine.runtime.VirtualClock`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta

from bot.services.campaign_service import CampaignService
from bot.services.deadline_posts import DeadlinePosts
from bot.services.game_service import GameService
from bot.services.lobby_service import LobbyService
from bot.services.ping_service import TurnPings
from bot.storage.deadline_claims import (
    CAMPAIGN_ALARMS,
    LOBBIES,
    REFEREE_DEADLINES,
    TURN_PINGS,
    WINDOWS,
)
from bot.storage.ping_store import read_ping
from engine.runtime import ReactionTimers

log = logging.getLogger(__name__)

EVERY = timedelta(seconds=1)  # between two claims of what has fallen due
BATCH = 200  # deadlines of each kind claimed at a time
CATCHING_UP = 5.0  # seconds a start waits for what fell due while it was down


class DeadlineLoop:
    """Claims what has fallen due for the services of one process, and arms it on their timers."""

    def __init__(
        self,
        games: GameService,
        pings: TurnPings | None = None,
        campaigns: CampaignService | None = None,
        every: timedelta = EVERY,
        batch: int = BATCH,
        lobbies: LobbyService | None = None,
    ) -> None:
        self.games, self.pings, self.campaigns, self.lobbies = games, pings, campaigns, lobbies
        self.every, self.batch = every, batch
        self._task: asyncio.Task[None] | None = None

    def _outboxes(self) -> list[DeadlinePosts]:
        """The outboxes of the posts the services make (the campaigns may have their own)."""
        outboxes = [self.games.posts]
        if self.campaigns is not None and self.campaigns.posts is not self.games.posts:
            outboxes.append(self.campaigns.posts)
        return outboxes

    def _timers(self) -> list[ReactionTimers]:
        timers = [self.games.timers, self.games.clocks.deadlines, *(o.timers for o in self._outboxes())]
        timers += [self.pings.timers] if self.pings else []
        timers += [self.lobbies.timers] if self.lobbies else []
        return timers + ([self.campaigns.timers] if self.campaigns else [])

    def overdue(self) -> int:
        """Deadlines this process has armed that have fallen due and are not done yet."""
        return sum(timers.overdue for timers in self._timers())

    async def claim_once(self) -> int:
        """One round: claim and arm what has fallen due, as much as there is room for; how many
        deadlines were claimed."""
        room = self.batch - self.overdue()
        if room <= 0:
            return 0
        games, claims, now = self.games, self.games.claims, self.games.clock.now()
        claimed = 0
        for row in await claims.claim_due(WINDOWS, now, room):
            key = (row.channel_id, row.window)
            if key not in games.timers:
                games.timers.arm(key, _moment(row.deadline))
            claimed += 1
        deadlines = games.clocks.deadlines
        for row in await claims.claim_due(REFEREE_DEADLINES, now, room):
            if (key := (row.channel_id, row.side)) not in deadlines:
                deadlines.arm(key, _moment(row.deadline))
            claimed += 1
        for outbox in self._outboxes():
            claimed += await outbox.claim_due(now, room)
        if self.pings is not None:
            pings = await claims.claim_due(TURN_PINGS, now, room)
            self.pings.taken_over([read_ping(row) for row in pings])
            claimed += len(pings)
        if self.campaigns is not None:
            campaigns = await self.campaigns.claims.claim_due(CAMPAIGN_ALARMS, now, room)
            await self.campaigns.taken_over(campaigns)
            claimed += len(campaigns)
        if self.lobbies is not None:
            lobbies = await claims.claim_due(LOBBIES, now, room)
            self.lobbies.taken_over(lobbies)
            claimed += len(lobbies)
        return claimed

    async def caught_up(self, most: float = CATCHING_UP) -> None:
        """Claim what fell due (:meth:`claim_once`), then wait until all this process has overdue
        is fired, or ``most`` seconds (real time: a deadline whose post keeps failing waits for
        its next try on the timers), so a front end tells what passed while it was down before it
        takes the first command."""
        await self.claim_once()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(most):
                while self.overdue():
                    await asyncio.sleep(0.01)

    async def run(self) -> None:
        """Claim round after round, ``every`` apart, until cancelled; a round that fails is
        logged, and the next one tries again."""
        while True:
            try:
                await self.claim_once()
            except Exception:
                log.warning("claiming the deadlines that fell due failed; trying again", exc_info=True)
            await self.games.clock.sleep_until(self.games.clock.now() + self.every)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run(), name="deadline claims")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text)
