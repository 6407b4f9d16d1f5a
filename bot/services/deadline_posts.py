"""What a deadline posts, posted once though the process that fired it may die.

A deadline's firing (a reaction window closed, a referee's deadline passed, a turn ping due, a
campaign's reminder or reveal) writes its post in its own transaction, as a row of the outbox
(``deadline_posts``), claimed by the firing process for a lease
(:mod:`bot.storage.deadline_claims`). That process then makes the post and drops the row. If the
post fails (Discord answered an HTTP error), the row stays and the post is tried again; if the
process dies, its claim runs out and another process's claim loop
(:mod:`bot.services.deadline_loop`) takes the row over and makes the post from it. A post made
but not yet dropped when its process died is made again with the same nonce (its channel and
name, :data:`making`), which Discord uses to return the first message instead of a second one.

Each kind of post has a sender, which the service firing that kind registers: it makes the post
from the row's payload alone (or from the game's stored log that the payload points to).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, delete, insert

from bot.services.outcome import Outcome
from bot.storage.deadline_claims import DEADLINE_POSTS, Claims, stamp
from bot.storage.store import GameStore
from bot.storage.tables import DeadlinePostRow
from engine.runtime import Clock, ReactionTimers, WindowKey

log = logging.getLogger(__name__)

POSTS = DeadlinePostRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class DeadlinePost:
    """One post of a deadline: where, its name in the channel (its nonce with the channel), its
    kind and what the kind's sender needs (JSON)."""

    channel_id: str
    post: str
    kind: str
    payload: dict[str, Any]


Sender = Callable[[DeadlinePost], Awaitable[None]]

# the post being made, while it is: the adapter gives what it sends the post's nonce
making: ContextVar[DeadlinePost | None] = ContextVar("making", default=None)


class DeadlinePosts:
    """The outbox of a store's deadline posts, for one process (``claims``, on ``clock``)."""

    def __init__(self, store: GameStore, clock: Clock, claims: Claims, limit=None) -> None:
        self.store, self.clock, self.claims = store, clock, claims
        self.senders: dict[str, Sender] = {}  # by kind: registered by the services firing them
        fire = claims.renewing(DEADLINE_POSTS, clock, self._send_stored)
        self.timers = ReactionTimers(clock, fire, still_due=self._mine, limit=limit)

    def write(self, connection: Connection, post: DeadlinePost) -> None:
        """Write the post still to make in the firing's transaction (on its ``connection``),
        claimed by this process for a lease."""
        row = {"channel_id": post.channel_id, "post": post.post, "kind": post.kind}
        claim = {
            "claimed_by": self.claims.owner,
            "claimed_until": stamp(self.clock.now() + self.claims.lease),
        }
        connection.execute(insert(POSTS), row | {"payload": json.dumps(post.payload)} | claim)

    async def deliver(self, post: DeadlinePost, send: Callable[[], Awaitable[None]] | None = None) -> None:
        """Make a post just written (by ``send``, from what its firing has in hand; else by its
        kind's sender), renewing its claim meanwhile, then drop it. If that fails, the post is
        tried again from its row."""
        try:
            await self.claims.renewing(DEADLINE_POSTS, self.clock, lambda _: self._send(post, send))(
                (post.channel_id, post.post)
            )
        except Exception:
            log.warning(
                "a deadline's post failed; trying again", extra={"channel": post.channel_id}, exc_info=True
            )
            self.timers.arm((post.channel_id, post.post), self.clock.now())

    async def claim_due(self, now: datetime, limit: int) -> int:
        """Claim (bot.services.deadline_loop) posts of the kinds this outbox sends that nobody
        holds, and make them at once: how many were claimed."""
        kinds = replace(DEADLINE_POSTS, kept=DeadlinePostRow.kind.in_(list(self.senders)))
        rows = await self.claims.claim_due(kinds, now, limit)
        moment = now - timedelta(microseconds=1)
        for row in rows:
            if (key := (row.channel_id, row.post)) not in self.timers:
                self.timers.arm(key, moment)
        return len(rows)

    async def close(self) -> None:
        await self.timers.close()

    async def _send(self, post: DeadlinePost, send: Callable[[], Awaitable[None]] | None = None) -> None:
        token = making.set(post)
        try:
            await (send() if send is not None else self.senders[post.kind](post))
        finally:
            making.reset(token)
        made = delete(POSTS).where(POSTS.c.channel_id == post.channel_id, POSTS.c.post == post.post)
        await self.store.transactions.write(lambda connection: connection.execute(made).rowcount)

    async def _mine(self, key: WindowKey) -> bool:
        return await self.claims.take(DEADLINE_POSTS, key, self.clock.now())  # type: ignore[arg-type]

    async def _send_stored(self, key: WindowKey) -> None:
        """Make a post from its row (if it is still to make)."""
        channel_id, name = key  # type: ignore[misc]
        async with self.store.sessions() as session:
            row = await session.get(DeadlinePostRow, (channel_id, name))
        if row is not None:
            await self._send(DeadlinePost(channel_id, name, row.kind, json.loads(row.payload)))


async def logged_outcome(
    store: GameStore, channel_id: str, seq: int, message_id: str | None
) -> Outcome | None:
    """The outcome of command ``seq`` of the channel's game, from its log (the game as it is now),
    for a post made again; None if a new game has taken the channel since."""
    logged = await store.log_between(channel_id, seq - 1, through=seq)
    game = await store.load(channel_id)
    if not logged or game is None:
        return None
    [(_, events)] = logged
    return Outcome(game.state, events, seq, closed_window_message=message_id)


async def followed(follows: list[Callable[[], Awaitable[None]]]) -> None:
    """What a missed deadline asked for once stored (the bot taking the side over): the miss
    stands whatever happens, so a failure is logged (and tried again at the next miss)."""
    for follow in follows:
        try:
            await follow()
        except Exception:
            log.exception("after a missed deadline")
