"""Every deadline's post made exactly once, on SQLite and PostgreSQL, in virtual time: a process
that fires a deadline and dies before posting leaves the post to another, which makes it once
with the same nonce; a post Discord refuses is tried again, not dropped; and a post slower than
its lease keeps its claim while it works."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from hashlib import blake2b
from types import SimpleNamespace

import discord
import pytest
from alembic import command
from sqlalchemy import select, text

from bot.discord_adapter.common import post_nonce
from bot.services.campaign_service import CampaignService
from bot.services.deadline_loop import DeadlineLoop
from bot.services.deadline_posts import DeadlinePost, making
from bot.services.game_service import GameService
from bot.services.ping_service import TurnPings
from bot.storage.deadline_claims import DEADLINE_POSTS, Claims
from bot.storage.migrate import alembic_config
from bot.storage.store import GameStore
from bot.storage.tables import DeadlinePostRow
from engine.dice import ScriptedDice
from engine.runtime import VirtualClock
from tests.bot.overdue import channel, store_overdue_windows
from tests.bot.test_overdue_retries import every_kind_of_deadline

LEASE = timedelta(seconds=30)
EVERY_KIND = [  # (kind, channel) of each post the deadlines of every_kind_of_post make
    ("campaign_reminder", "reminder"),
    ("campaign_reveal", "campaign"),
    ("referee_deadline", "deadline"),
    ("turn_ping", "ping"),
    ("window_closed", "window"),
]


class Process:
    """One bot process on a shared database: its services share one claimer and one outbox; each
    post it makes is written down as (kind, channel, nonce), the nonce Discord would be sent."""

    def __init__(self, store: GameStore, clock: VirtualClock, name: str) -> None:
        self.posted: list[tuple[str, str, int]] = []
        self.refused: list[tuple[str, str, int]] = []  # posts Discord answered with an error
        self.refuse_first_tries = False  # Discord refuses each post the first time it is sent
        self.died_before_posting: list[DeadlinePost] = []
        claims = Claims(store, name, LEASE)
        self.games = GameService(store, clock=clock, on_window_closed=self._window_closed, claims=claims)
        self.games.clocks.on_deadline_passed = self._deadline_passed
        self.pings = TurnPings(self.games, on_ping=self._ping)
        self.campaigns = CampaignService(
            store,
            dice=lambda: ScriptedDice([]),
            clock=clock,
            on_reminder=self._reminder,
            on_reveal=self._reveal,
            claims=claims,
            posts=self.games.posts,
        )
        self.loop = DeadlineLoop(self.games, self.pings, self.campaigns)

    def dies_after_firing(self) -> None:
        """The process dies between a firing's commit and its post (a SIGKILL at that moment)."""

        async def dead(post: DeadlinePost, send=None) -> None:
            self.died_before_posting.append(post)

        self.games.posts.deliver = dead  # type: ignore[method-assign]

    async def _made(self, kind: str) -> None:
        post = making.get()
        assert post is not None and post.kind == kind
        made = (kind, post.channel_id, post_nonce(post.channel_id, post.post))
        if self.refuse_first_tries and made not in self.refused:
            self.refused.append(made)
            raise discord.DiscordServerError(SimpleNamespace(status=503, reason="Service Unavailable"), "")
        self.posted.append(made)

    async def _window_closed(self, channel_id, outcome) -> None:
        await self._made("window_closed")

    async def _deadline_passed(self, channel_id, text, outcome) -> None:
        await self._made("referee_deadline")

    async def _ping(self, ping) -> None:
        await self._made("turn_ping")

    async def _reminder(self, channel_id, users, text) -> None:
        await self._made("campaign_reminder")

    async def _reveal(self, channel_id, text, open_phase) -> None:
        await self._made("campaign_reveal")

    async def stop(self) -> None:
        await self.pings.close()
        await self.campaigns.close()
        await self.games.close()


async def posts_left(store: GameStore) -> list[DeadlinePostRow]:
    async with store.sessions() as session:
        return list((await session.execute(select(DeadlinePostRow))).scalars())


async def every_kind_of_post(store: GameStore, clock: VirtualClock) -> None:
    """Deadlines of every kind, left by a process that stopped, then the time they all fell due:
    a window, a turn ping, a referee's deadline, a campaign phase (every_kind_of_deadline) and a
    campaign's reminder (its first, a day before its deadline in two days)."""
    await every_kind_of_deadline(store, clock)
    campaigns = CampaignService(store, clock=clock)
    players, cpp = {"german": ["ann"], "russian": ["cat"]}, {"german": 1, "russian": 1}
    await campaigns.create("reminder", "Barrikady", players, "17 Oct", cpp, 1, timedelta(days=2))
    await campaigns.close()
    await clock.advance(timedelta(days=1, hours=2))


def kinds(posts: list[tuple[str, str, int]]) -> list[tuple[str, str]]:
    return sorted((kind, channel_id) for kind, channel_id, _ in posts)


@pytest.mark.both_databases
async def test_each_kind_of_post_a_process_died_before_making_is_made_once_by_another(store):
    clock = VirtualClock()
    await every_kind_of_post(store, clock)
    dying = Process(store, clock, "dying")
    dying.dies_after_firing()
    assert await dying.loop.claim_once() == 5  # a window, a ping, a deadline, two campaigns
    await clock.advance(0)
    died = dying.died_before_posting
    assert sorted((post.kind, post.channel_id) for post in died) == EVERY_KIND
    assert len(await posts_left(store)) == len(EVERY_KIND)  # each written with its firing

    alive = Process(store, clock, "alive")
    assert await alive.loop.claim_once() == 0  # the dying process's lease still holds them
    await clock.advance(LEASE + timedelta(seconds=1))
    assert await alive.loop.claim_once() == len(EVERY_KIND)
    await clock.advance(0)
    assert sorted(alive.posted) == sorted(
        (post.kind, post.channel_id, post_nonce(post.channel_id, post.post)) for post in died
    )  # each once, with the nonce the dying process would have sent
    assert await posts_left(store) == []
    await clock.advance(LEASE * 3)
    assert await alive.loop.claim_once() == 0
    assert len(alive.posted) == len(EVERY_KIND) and dying.posted == []
    for process in (dying, alive):
        await process.stop()


@pytest.mark.both_databases
async def test_each_kind_of_post_discord_refuses_is_tried_again_not_dropped(store):
    clock = VirtualClock()
    await every_kind_of_post(store, clock)
    flaky = Process(store, clock, "flaky")
    flaky.refuse_first_tries = True  # Discord answers 503 to each post's first try
    assert await flaky.loop.claim_once() == 5
    await clock.advance(0)
    assert kinds(flaky.refused) == EVERY_KIND
    assert sorted(flaky.posted) == sorted(flaky.refused)  # each made again, with the same nonce
    assert await posts_left(store) == []
    other = Process(store, clock, "other")
    await clock.advance(LEASE * 3)
    assert [await flaky.loop.claim_once(), await other.loop.claim_once()] == [0, 0]
    assert len(flaky.posted) == len(EVERY_KIND) and other.posted == []
    for process in (flaky, other):
        await process.stop()


@pytest.mark.both_databases
async def test_a_post_slower_than_its_lease_renews_its_claim_and_is_not_taken_over(database_url):
    clock = VirtualClock()
    await store_overdue_windows(database_url, 1, clock, small=True)
    await clock.advance(timedelta(hours=1))
    store = GameStore(database_url)
    slow = Process(store, clock, "slow")
    rendered = []

    async def slow_render(channel_id, outcome) -> None:  # three leases to draw the picture
        await clock.sleep_until(clock.now() + LEASE * 3)
        rendered.append(making.get())

    slow.games.on_window_closed = slow_render
    other = Claims(store, "other", LEASE)
    assert await slow.loop.claim_once() == 1
    await clock.advance(LEASE * 2)  # the window closed; its post is still being drawn
    (post,) = await posts_left(store)
    assert post.claimed_by == "slow"
    assert await other.claim_due(DEADLINE_POSTS, clock.now()) == []  # renewed: not taken over
    await clock.advance(LEASE * 2)
    assert [(p.channel_id, p.kind) for p in rendered] == [(channel(0), "window_closed")]
    assert await posts_left(store) == []
    assert await other.claim_due(DEADLINE_POSTS, clock.now()) == []
    await slow.stop()
    await store.close()


@pytest.mark.both_databases
async def test_the_upgrade_moves_the_window_notices_left_into_the_outbox_with_their_nonce(new_empty_database):
    url = new_empty_database()
    await asyncio.to_thread(command.upgrade, alembic_config(url), "0020")
    old = GameStore(url)
    async with old.engine.begin() as connection:
        await connection.execute(
            text(
                "INSERT INTO window_notices (channel_id, seq, message_id, claimed_by, claimed_until) "
                "VALUES ('c1', 7, 'm9', 'gone', '2026-01-01T00:00:00.000000+00:00')"
            )
        )
    await old.close()
    store = await GameStore.open(url)
    (row,) = await posts_left(store)
    assert (row.channel_id, row.post, row.kind, json.loads(row.payload)) == (
        "c1",
        "7",
        "window_closed",
        {"message_id": "m9"},
    )
    assert (row.claimed_by, row.claimed_until) == ("gone", "2026-01-01T00:00:00.000000+00:00")
    # the nonce of the close of command 7, as the notice's post was sent before the upgrade
    assert post_nonce("c1", row.post) == int.from_bytes(blake2b(b"c1:7", digest_size=8).digest()) >> 1
    await store.close()
