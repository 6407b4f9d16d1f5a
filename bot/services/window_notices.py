"""The "window closed" posts, made once though the process that closed the window may die.

A window closed at its deadline writes, in the same transaction as the close, a notice that its
post is still to make (claimed by the closing process: :mod:`bot.storage.deadline_claims`). The
closing process posts it at once and drops the notice. If it dies in between, its claim runs
out and another process (its claim loop, :mod:`bot.services.deadline_loop`) takes the notice
over and posts it from the stored command. A post made but not yet dropped when its process died
is made again with the same nonce (the close's channel and command), which Discord uses to
return the first message instead of posting a second one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.deadline_claims import WINDOW_NOTICES, stamp
from bot.storage.tables import WindowNoticeRow
from engine.runtime import ReactionTimers, WindowKey

if TYPE_CHECKING:
    from bot.services.game_service import GameService, Outcome


class WindowNotices:
    """The closed windows of ``games`` still to post; each post goes to ``games.on_window_closed``."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.timers = ReactionTimers(
            games.clock, self._post_again, still_due=self._mine, limit=games.timers.limit
        )

    def writing(self, message_id: str | None) -> Callable[[AsyncSession, str, int], Awaitable[None]]:
        """What a close writes beside itself (command ``seq`` of the channel): its notice,
        claimed by this process for a lease."""

        async def write(session: AsyncSession, channel_id: str, seq: int) -> None:
            claims = self.games.claims
            until = self.games.clock.now() + claims.lease
            session.add(
                WindowNoticeRow(
                    channel_id=channel_id,
                    seq=seq,
                    message_id=message_id,
                    claimed_by=claims.owner,
                    claimed_until=stamp(until),
                )
            )

        return write

    async def post(self, channel_id: str, outcome: Outcome) -> None:
        """Post the close (``outcome``), then drop its notice."""
        if self.games.on_window_closed:
            await self.games.on_window_closed(channel_id, outcome)
        await self._drop(channel_id, outcome.version)

    async def _drop(self, channel_id: str, seq: int) -> None:
        async with self.games.store.sessions() as session, session.begin():
            await session.execute(
                delete(WindowNoticeRow).where(
                    WindowNoticeRow.channel_id == channel_id, WindowNoticeRow.seq == seq
                )
            )

    def taken_over(self, rows: list[WindowNoticeRow]) -> None:
        """Notices this process claimed from others (or from itself before a restart): posted at once."""
        now = self.games.clock.now() - timedelta(microseconds=1)
        for row in rows:
            key = (row.channel_id, row.seq, row.message_id)
            if key not in self.timers.armed:
                self.timers.arm(key, now)

    async def close(self) -> None:
        await self.timers.close()

    async def _mine(self, key: WindowKey) -> bool:
        channel_id, seq, _ = key  # type: ignore[misc]
        return await self.games.claims.take(WINDOW_NOTICES, (channel_id, seq), self.games.clock.now())

    async def _post_again(self, key: WindowKey) -> None:
        """Post a notice from the stored close: its events, the game as it is now."""
        from bot.services.game_service import Outcome

        channel_id, seq, message_id = key  # type: ignore[misc]
        logged = await self.games.store.log_between(channel_id, seq - 1, through=seq)
        game = await self.games.store.load(channel_id)
        if not logged or game is None:  # a new game took the channel since: nothing to tell
            await self._drop(channel_id, seq)
            return
        [(_, events)] = logged
        await self.post(channel_id, Outcome(game.state, events, seq, closed_window_message=message_id))
