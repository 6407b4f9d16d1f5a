"""Lobbies: an open game posted to a server's channel for anyone to join (/lfg).

A lobby offers what ``/game new`` would set up (:class:`Offer`) and the side its poster takes;
another member joining takes the other side, and the game is then made through ``/game new`` and
``/game join`` themselves, in a channel of its own (the front end's: a Discord thread). A join
is a claim on the lobby's row (:mod:`bot.storage.lobby_store`): two joiners at once, one wins;
a join whose game could not be made gives the lobby back, open.

A lobby expires by itself after the hours it was posted for: its expiry is a deadline like a
reaction window's, armed on this process's timers and claimed from the store by any process
(:mod:`bot.storage.deadline_claims`), so it survives a restart; the expiry and the notice to
make (its post edited) are written in one transaction, and the notice is made through the
deadlines' outbox (:mod:`bot.services.deadline_posts`), tried again until it is.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection

from bot.services.deadline_posts import DeadlinePost
from bot.services.game_service import GameError, GameService
from bot.services.limits import LOBBY_HOURS as HOURS
from bot.storage.deadline_claims import LOBBIES
from bot.storage.lobby_store import (
    CANCELLED,
    EXPIRED,
    JOINING,
    OPEN,
    TAKEN,
    StoredLobby,
    add_lobby,
    cancel_lobby,
    claim_lobby,
    drop_lobby,
    expire_lobby,
    keep_message,
    keep_thread,
    lobby_of,
    lobby_taken,
    open_lobbies,
    release_lobby,
)
from bot.storage.tables import LOBBY_EXPIRED
from engine.commands import DISPLAY_NAME_LIMIT
from engine.runtime import ReactionTimers, WindowKey


@dataclass(frozen=True)
class Offer:
    """What a lobby sets up, as ``/game new`` takes it (the options a lobby does not offer take
    that command's defaults), and the poster's force in a scenario (with ``points``, the most
    a force brought to it may be built to)."""

    scenario: str = "quick"
    table: str = "village"
    seed: int | None = None
    forces: str = "us"
    ruleset: str = "core_2015"
    pace: str = "live"
    attacker: str | None = None
    force: str | None = None
    points: int | None = None

    @classmethod
    def read(cls, text: str) -> Offer:
        return cls(**json.loads(text))


@dataclass(frozen=True)
class Lobby:
    """A lobby as the front ends see it: the stored row, its offer read."""

    stored: StoredLobby
    offer: Offer

    def __getattr__(self, name: str):
        return getattr(self.stored, name)


def lobby(stored: StoredLobby) -> Lobby:
    return Lobby(stored, Offer.read(stored.offer))


Expired = Callable[[Lobby], Awaitable[None]]


class LobbyService:
    """Every server's lobbies, on the game service's store, clock and claims; ``on_expired``
    makes a lobby's expiry notice (the front end's)."""

    def __init__(self, games: GameService, on_expired: Expired | None = None) -> None:
        self.games, self.store, self.clock = games, games.store, games.clock
        self.on_expired = on_expired
        fire = games.claims.renewing(LOBBIES, games.clock, self._expire, lambda key: (key,))
        self.timers = ReactionTimers(games.clock, fire, still_due=self._due, limit=games.timers.limit)
        games.posts.senders[LOBBY_EXPIRED] = self._notice
        self._joins: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def joining(self, lobby_id: int) -> asyncio.Lock:
        """Held while a join of the lobby runs in this process (the store decides between
        processes): a second tap of the same joiner waits for the first."""
        return self._joins[lobby_id]

    async def post(
        self,
        guild_id: str,
        channel_id: str,
        poster: str,
        poster_name: str,
        side: str,
        offer: Offer,
        note: str,
        hours: int,
        forum_id: str | None = None,
    ) -> Lobby:
        """A new open lobby (``note``: bounded and cleaned by its handler), its expiry armed; its
        post is the front end's to make (:meth:`posted`, or :meth:`unposted` if it could not be)."""
        if hours not in HOURS:
            raise GameError(f"A lobby stays open {HOURS.start} to {HOURS.stop - 1} hours")
        now = self.clock.now()
        values = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "forum_id": forum_id,
            "poster": poster,
            "poster_name": poster_name[:DISPLAY_NAME_LIMIT],
            "side": side,
            "offer": json.dumps(asdict(offer)),
            "note": note,
            "expires_at": now + timedelta(hours=hours),
        }
        lobby_id = await add_lobby(self.store, values, now)
        made = await self.find(lobby_id)
        self.timers.arm(lobby_id, made.expires_at)
        return made

    async def posted(self, lobby_id: int, message_id: str) -> None:
        await keep_message(self.store, lobby_id, message_id)

    async def unposted(self, lobby_id: int) -> None:
        """The lobby's post could not be made: the lobby is gone, and its expiry."""
        self.timers.cancel(lobby_id)
        await drop_lobby(self.store, lobby_id)

    async def find(self, lobby_id: int) -> Lobby:
        found = await lobby_of(self.store, lobby_id)
        if found is None:
            raise GameError(f"There is no lobby #{lobby_id}")
        return lobby(found)

    async def listing(self, guild_id: str) -> list[Lobby]:
        """The server's open lobbies, oldest first (not those whose time ran out a moment ago)."""
        now = self.clock.now()
        return [lobby(found) for found in await open_lobbies(self.store, guild_id) if found.expires_at > now]

    async def join(self, lobby_id: int, joiner: str) -> Lobby:
        """The joiner takes the lobby's other side; refused, changing nothing, to its poster, or
        once it is taken, withdrawn or expired."""
        found = await self.find(lobby_id)
        if found.poster == joiner:
            raise GameError(
                "This is your own lobby: someone else takes the other side (/lfg cancel withdraws it)"
            )
        if found.status == TAKEN and found.joiner == joiner:
            raise GameError("You joined this game already: it is in its own thread")
        if not await claim_lobby(self.store, lobby_id, joiner, self.clock.now()):
            raise GameError(refusal(await self.find(lobby_id)))
        return await self.find(lobby_id)

    async def give_back(self, joined: Lobby) -> None:
        """The joiner's game could not be made: the lobby is open again."""
        await release_lobby(self.store, joined.id, joined.joiner)

    async def keep_thread(self, joined: Lobby, thread_id: str) -> None:
        await keep_thread(self.store, joined.id, joined.joiner, thread_id)

    async def taken(self, joined: Lobby) -> Lobby:
        """Both players are seated in the game made in its thread (:meth:`keep_thread`): the
        lobby is taken."""
        await lobby_taken(self.store, joined.id, joined.joiner)
        self.timers.cancel(joined.id)
        return await self.find(joined.id)

    async def cancel(self, lobby_id: int, user: str, moderator: bool) -> Lobby:
        """The poster (or a moderator) withdraws an open lobby."""
        found = await self.find(lobby_id)
        if found.poster != user and not moderator:
            raise GameError("Only the lobby's poster (or a moderator, with Manage Messages) withdraws it")
        if not await cancel_lobby(self.store, lobby_id):
            raise GameError(refusal(await self.find(lobby_id)))
        self.timers.cancel(lobby_id)
        return await self.find(lobby_id)

    async def resume(self) -> None:
        """After a start-up: arm every open lobby's expiry; those past expire at once."""
        self.timers.rearm((found.id, found.expires_at) for found in await open_lobbies(self.store))

    def taken_over(self, rows: list) -> None:
        """Lobbies whose expiry this process claimed (bot.services.deadline_loop)."""
        self.timers.rearm(
            (row.id, datetime.fromisoformat(row.expires_at)) for row in rows if row.id not in self.timers
        )

    async def close(self) -> None:
        await self.timers.close()

    async def _due(self, key: WindowKey) -> bool:
        """Still to expire: its moment passed, open or held by a join given up, and this process
        holds its claim."""
        found = await lobby_of(self.store, int(key))  # type: ignore[call-overload]
        now = self.clock.now()
        given_up = found is not None and found.status == JOINING and found.joining_until < now
        if found is None or (found.status != OPEN and not given_up) or found.expires_at > now:
            return False
        return await self.games.claims.take(LOBBIES, (found.id,), now)

    async def _expire(self, key: WindowKey) -> None:
        """The lobby's time ran out: it expires, and its notice is written with it, then made. A
        failure is raised, for the timers to try again while it is due."""
        lobby_id, now = int(key), self.clock.now()  # type: ignore[call-overload]
        found = await lobby_of(self.store, lobby_id)
        if found is None:
            return
        post = DeadlinePost(found.channel_id, f"lobby {lobby_id} expired", LOBBY_EXPIRED, {"lobby": lobby_id})
        posts = self.games.posts

        def expire(connection: Connection) -> bool:
            expired = expire_lobby(connection, lobby_id, now)
            if expired:
                posts.write(connection, post)
            return expired

        if await self.store.transactions.write(expire):
            await posts.deliver(post)

    async def _notice(self, post: DeadlinePost) -> None:
        if self.on_expired is not None:
            await self.on_expired(await self.find(int(post.payload["lobby"])))


def refusal(found: Lobby) -> str:
    """Why nobody may join the lobby now."""
    return {
        JOINING: "Too late: someone else is taking this game",
        TAKEN: "Too late: someone else took this game",
        EXPIRED: "This lobby expired: nobody joins it now",
        CANCELLED: "This lobby was withdrawn",
        OPEN: "This lobby's time is up: it expires now",
    }[found.status]
