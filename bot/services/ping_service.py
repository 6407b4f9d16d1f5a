"""Turn pings: after each action, the players a game waits for (:func:`game_wait`) are told,
once the delay the game set has passed, unless they act first.

A *wait* starts when the players waited for change, or when one of them acts (the game may wait
for them again, for something new); each wait gets one ping at most. Actions by others that
leave the same players waited for (a referee's ruling, say) do not start the delay again. The
moment is stored (``turn_pings``), so :meth:`TurnPings.resume` arms it again after a restart,
and a ping that fell due while the bot was down is sent at once, once: the stored moment is
cleared in the transaction that writes the ping's post to the outbox
(:mod:`bot.services.deadline_posts`), which makes it even if this process dies. Each player
chooses to be told by a mention in the game's channel (the default), by a direct message, or not
at all. A ping never changes the game.

The game's players and referees may change its delay mid-game (:meth:`TurnPings.change_delay`);
the wait going on keeps its start.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import Connection

from bot.services.deadline_posts import DeadlinePost
from bot.services.game_service import GameError, GameService, duration_text
from bot.services.limits import quoted
from bot.services.owed_service import deadlines, game_wait
from bot.services.permissions import Role, held_by_referees, roles_of
from bot.storage import clock_store
from bot.storage.deadline_claims import TURN_PINGS, stamp
from bot.storage.ping_store import (
    TurnPing,
    claim_ping,
    due_pings,
    held_ping,
    ping_choices,
    ping_of,
    save_ping,
    set_ping_choice,
    write_ping,
)
from bot.storage.store import StoredGame
from bot.storage.tables import TURN_PING
from bot.storage.writes import TRIES, back_off
from engine.game_state import GameState
from engine.runtime import ReactionTimers, WindowKey
from engine.state import Phase

log = logging.getLogger(__name__)

MAX_MINUTES = 7 * 24 * 60  # a game waits at most a week before pinging
CHOICES = {
    "mention": "When a game waits for you, you are mentioned in its channel.",
    "dm": "When a game waits for you, you get a direct message (a mention in its channel if that fails).",
    "off": "You are no longer told when a game waits for you.",
}


def ping_delay(text: str, option: str = "ping_minutes") -> int:
    """The minutes a game waits before a ping, as typed in ``option``: 0 (never) to a week."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6 or int(digits) > MAX_MINUTES:
        raise GameError(f"{option} is 0 (no pings) to {MAX_MINUTES} (a week), not {quoted(text)}")
    return int(digits)


@dataclass(frozen=True)
class Ping:
    """Whom to tell in a channel that its game waits for them, and how."""

    channel_id: str
    mention: tuple[str, ...]  # told by a mention in the channel
    dm: tuple[str, ...]  # told by a direct message
    what: str  # what the game waits for
    closes: datetime | None = None  # when the game stops waiting: its reaction window or referee's deadline


Pinged = Callable[[Ping], Awaitable[None]]


class TurnPings:
    """Pings for every game of ``games``: each action's ping is written in the action's own
    transaction (``GameService.in_commit``); the adapter sends what ``on_ping`` is given."""

    def __init__(self, games: GameService, on_ping: Pinged | None = None) -> None:
        self.games = games
        self.store = games.store
        self.on_ping = on_ping
        fire = games.claims.renewing(TURN_PINGS, games.clock, self._due, lambda key: (key,))
        self.timers = ReactionTimers(games.clock, fire, still_due=self._ping_due, limit=games.timers.limit)
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)  # one change at a time
        games.in_commit.append(self.follow)
        games.clocks.resumed.append(self._rearm)
        games.posts.senders[TURN_PING] = self._post_ping

    async def resume(self) -> None:
        """After a start-up: arm every stored ping; those already due are sent at once."""
        self.timers.rearm((ping.channel_id, ping.due) for ping in await due_pings(self.store) if ping.due)

    def taken_over(self, pings: list[TurnPing]) -> None:
        """Pings this process claimed (bot.services.deadline_loop): armed unless they are already."""
        self.timers.rearm((p.channel_id, p.due) for p in pings if p.due and p.channel_id not in self.timers)

    async def close(self) -> None:
        await self.timers.close()

    async def _rearm(self, channel_id: str) -> None:
        """The referee started the clock again: the ping waits the time it had left."""
        ping = await ping_of(self.store, channel_id)
        if ping.due is not None:
            self.timers.arm(channel_id, ping.due)

    async def set_delay(self, channel_id: str, minutes: int) -> None:
        """A new game's delay before a ping (0: no pings); any ping of the game before is dropped."""

        async def fresh(ping: TurnPing) -> TurnPing:
            return TurnPing(channel_id, minutes, version=ping.version)

        await self._rewrite(channel_id, fresh)

    async def change_delay(
        self, channel_id: str, user_id: str, minutes: int, server_roles: Collection[str] = ()
    ) -> str:
        """The channel's game pings after ``minutes`` from now on (0: never), if the user plays or
        referees it (anyone at a table nobody has joined and no referee holds, as
        :mod:`bot.services.permissions` has it). The wait going on keeps its start: a ping still
        to come falls ``minutes`` after the wait began (at once if that moment has passed); a
        wait nobody was to be told of, as pings were off, is told ``minutes`` from now. A wait
        already told is not told again."""
        state = await self.games.game(channel_id)
        if state.phase is Phase.OVER:
            raise GameError("The game in this channel is over: it waits for nobody")
        joined = any(side.players for side in state.sides.values())
        roles = roles_of(state, user_id, None, server_roles=server_roles)
        if (joined and not roles & {Role.PLAYER, Role.REFEREE}) or held_by_referees(
            state, user_id, server_roles
        ):
            raise GameError("Only the game's players and referees may change when its turn pings come")

        async def delayed(ping: TurnPing) -> TurnPing:
            due, players = None, ping.players
            if ping.due is not None and minutes:
                due = ping.due + timedelta(minutes=minutes - ping.minutes)
            elif ping.minutes == 0 and ping.players and minutes:
                due = await self._after_delay(channel_id, minutes)
            elif ping.due is None and ping.minutes and not minutes:
                players = ()  # told already: turning pings on again must not tell this wait twice
            return replace(ping, minutes=minutes, due=due, players=players)

        await self._rewrite(channel_id, delayed)
        if not minutes:
            return "Turn pings for this game are now off: nobody is told when it waits for them."
        return f"Turn pings for this game now come after {duration_text(minutes * 60)}."

    async def choose(self, user_id: str, how: str | None, channel_id: str) -> str:
        """How the user is told a game waits for them: "mention", "dm" or "off"; None: what
        they chose, and the delay of ``channel_id``'s game."""
        if how is None:
            chosen = (await ping_choices(self.store, [user_id])).get(user_id, "mention")
            try:
                await self.games.game(channel_id)
            except GameError:
                return f"{CHOICES[chosen]} (/games ping how: to change it)"
            minutes = (await ping_of(self.store, channel_id)).minutes
            delay = f"after {duration_text(minutes * 60)}" if minutes else "never: turn pings are off"
            return f"{CHOICES[chosen]} (/games ping how: to change it)\nThis channel's game pings {delay}."
        if how not in CHOICES:
            raise GameError(f"Choose how you are told: {', '.join(CHOICES)}")
        await set_ping_choice(self.store, user_id, how)
        return CHOICES[how]

    def follow(
        self, connection: Connection, game: StoredGame, user_id: str, after: GameState
    ) -> Callable[[], None] | None:
        """Written with each action (``connection``: its transaction): a new wait starts its delay;
        a wait going on is left alone. Once the action is stored, the timer follows."""
        channel_id = game.channel_id
        wait = game_wait(after)
        players = wait.players if wait else ()
        changed = self._waiting(game, game.ping or held_ping(connection, channel_id), user_id, players)
        if changed is not None and not write_ping(connection, changed):  # stored since it was loaded
            changed = self._waiting(game, held_ping(connection, channel_id), user_id, players)
            if changed is not None:
                write_ping(connection, changed)
        if changed is None:
            return None
        due = changed.due
        if due is None:
            return lambda: self.timers.cancel(channel_id)
        return lambda: self.timers.arm(channel_id, due)

    def _waiting(
        self, game: StoredGame, ping: TurnPing, user_id: str, players: tuple[str, ...]
    ) -> TurnPing | None:
        """The ping that follows an action by ``user_id`` after which the game waits for
        ``players``, or None if it stays as stored (``ping``: as loaded with the game, or held).

        Deciding on the ping as loaded, without holding it, loses no update: a ping changed is
        written only over the version it was loaded at (decided again on the ping held if
        another writer stored one since), and a ping left alone is written by nobody, so a
        change another writer made to it meanwhile stands, as if made just after the action."""
        if players == ping.players and user_id not in players:
            return None  # the same wait goes on
        due = None
        if players and ping.minutes:  # the clock's pause as loaded: pausing changes the game's version
            due = self._after(game.paused_at, ping.minutes)
        changed = replace(ping, players=players, due=due)
        return None if changed == ping else changed

    async def _rewrite(self, channel_id: str, change: Callable[[TurnPing], Awaitable[TurnPing]]) -> None:
        """The channel's ping, changed by ``change``, stored over the version it was read at (made
        again on a fresh read if another process stored it since); then its timer follows it. One
        change at a time in this process."""
        async with self._locks[channel_id]:
            for lost in range(TRIES):
                await back_off(lost)
                ping = await ping_of(self.store, channel_id)
                changed = await change(ping)
                if changed == ping:
                    return
                if await save_ping(self.store, changed):
                    if changed.due is None:
                        self.timers.cancel(channel_id)
                    else:
                        self.timers.arm(channel_id, changed.due)
                    return
        raise GameError("This game's turn ping changed under you: try again")

    async def _after_delay(self, channel_id: str, minutes: int) -> datetime:
        """When a wait beginning now is told: ``minutes`` from now, or from the pause while the
        referee holds the clock (resuming moves the stored moment on by the time it stood)."""
        return self._after(await clock_store.paused_since(self.store, channel_id), minutes)

    def _after(self, paused_at: datetime | None, minutes: int) -> datetime:
        return (paused_at or self.games.clock.now()) + timedelta(minutes=minutes)

    async def _ping_due(self, key: WindowKey) -> bool:
        """A ping is still to send while its moment has passed and the referee has not stopped
        the clock (the ping then waits for the resume); this process sends it if it holds its
        claim (bot.storage.deadline_claims)."""
        channel_id = str(key)
        ping = await ping_of(self.store, channel_id)
        if ping.due is None or ping.due > self.games.clock.now():
            return False
        if await clock_store.paused_since(self.store, channel_id) is not None:
            return False
        return await self.games.claims.take(TURN_PINGS, (channel_id,), self.games.clock.now())

    async def _due(self, key: WindowKey) -> None:
        """Send the ping that fell due: what to tell is read first, then the ping is claimed (its
        one write, with the post to make), then sent (bot.services.deadline_posts). A failure
        is raised, for the timers to try again while it is due."""
        channel_id = str(key)
        ping = await ping_of(self.store, channel_id)
        if ping.due is None:
            return
        told = await self._ping_for(ping)
        post = None
        if told is not None and (told.mention or told.dm):
            post = DeadlinePost(channel_id, f"ping {stamp(ping.due)}", TURN_PING, _payload(told))
        posts = self.games.posts
        async with self._locks[channel_id]:  # not while the delay changes
            if not await claim_ping(self.store, ping, (lambda c: posts.write(c, post)) if post else None):
                return
        if told is None:
            return  # the game moved on without this service hearing of it
        log.info("pinged", extra={"channel": channel_id, "players": len(told.mention) + len(told.dm)})
        if post is not None:
            await posts.deliver(post)

    async def _post_ping(self, post: DeadlinePost) -> None:
        if self.on_ping:
            said = post.payload
            closes = datetime.fromisoformat(said["closes"]) if said["closes"] else None
            await self.on_ping(
                Ping(post.channel_id, tuple(said["mention"]), tuple(said["dm"]), said["what"], closes)
            )

    async def _ping_for(self, ping: TurnPing) -> Ping | None:
        """Whom to tell and how, if the game still waits for the players of ``ping``."""
        try:
            state = await self.games.game(ping.channel_id)
        except GameError:
            return None
        wait = game_wait(state)
        if wait is None or wait.players != ping.players:
            return None
        choices = await ping_choices(self.store, wait.players)
        closes = (await deadlines(self.store)).first(ping.channel_id, state, wait.players)
        return Ping(
            ping.channel_id,
            mention=tuple(p for p in wait.players if choices.get(p, "mention") == "mention"),
            dm=tuple(p for p in wait.players if choices.get(p) == "dm"),
            what=wait.what,
            closes=closes,
        )


def _payload(ping: Ping) -> dict[str, object]:
    """A ping as its post keeps it (bot.services.deadline_posts)."""
    closes = ping.closes.isoformat() if ping.closes else None
    return {"mention": list(ping.mention), "dm": list(ping.dm), "what": ping.what, "closes": closes}
