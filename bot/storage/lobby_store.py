"""Lobbies as stored: each a row of ``lobbies``, changed only by a write that says which state it
finds the row in (``UPDATE ... WHERE status = ...``), on the store's writer. So two joiners at
once (in one process or two) never both take a lobby, and a lobby taken at the moment it expires
is either taken or expired, never both. A join holds the lobby for :data:`JOIN_LEASE` at most:
one whose process died is given up then, and the lobby may be joined (or expire) again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, and_, delete, insert, or_, select, update

from bot.storage.deadline_claims import stamp
from bot.storage.store import GameStore
from bot.storage.tables import LobbyRow

LOBBIES = LobbyRow.__table__  # type: ignore[attr-defined]
OPEN, JOINING, TAKEN, EXPIRED, CANCELLED = "open", "joining", "taken", "expired", "cancelled"
JOIN_LEASE = timedelta(minutes=15)  # a join's most (an interaction's token lasts as long)


@dataclass(frozen=True)
class StoredLobby:
    """A lobby's row, read."""

    id: int
    guild_id: str
    channel_id: str
    message_id: str | None
    forum_id: str | None
    poster: str
    poster_name: str
    side: str
    offer: str  # JSON
    note: str
    status: str
    joiner: str | None
    joining_until: datetime | None
    thread_id: str | None
    expires_at: datetime


def _read(row) -> StoredLobby:
    return StoredLobby(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        forum_id=row.forum_id,
        poster=row.poster,
        poster_name=row.poster_name,
        side=row.side,
        offer=row.offer,
        note=row.note,
        status=row.status,
        joiner=row.joiner,
        joining_until=datetime.fromisoformat(row.joining_until) if row.joining_until else None,
        thread_id=row.thread_id,
        expires_at=datetime.fromisoformat(row.expires_at),
    )


async def add_lobby(store: GameStore, values: dict[str, object], now: datetime) -> int:
    """Store a new open lobby (``values``: its columns but the id and times, and ``expires_at``
    as a moment): its id."""
    row = {**values, "created_at": stamp(now), "expires_at": stamp(values["expires_at"]), "status": OPEN}  # type: ignore[arg-type]

    def add(connection: Connection) -> int:
        return connection.execute(insert(LOBBIES).values(row)).inserted_primary_key[0]

    return await store.transactions.write(add)


async def lobby_of(store: GameStore, lobby_id: int) -> StoredLobby | None:
    found = await store.transactions.read(
        lambda connection: connection.execute(select(LOBBIES).where(LOBBIES.c.id == lobby_id)).first()
    )
    return None if found is None else _read(found)


async def open_lobbies(store: GameStore, guild_id: str | None = None) -> list[StoredLobby]:
    """The open lobbies (of one server), whose post was made, oldest first."""
    query = select(LOBBIES).where(LOBBIES.c.status == OPEN).order_by(LOBBIES.c.id)
    if guild_id is not None:
        query = query.where(LOBBIES.c.guild_id == guild_id, LOBBIES.c.message_id.is_not(None))
    rows = await store.transactions.read(lambda connection: list(connection.execute(query)))
    return [_read(row) for row in rows]


async def _changed(store: GameStore, lobby_id: int, found, **values: object) -> bool:
    """Write ``values`` over the lobby if ``found`` (a condition on its row) holds: whether it did."""
    change = update(LOBBIES).where(LOBBIES.c.id == lobby_id, found).values(**values)
    return await store.transactions.write(lambda connection: connection.execute(change).rowcount == 1)


async def keep_message(store: GameStore, lobby_id: int, message_id: str) -> None:
    await _changed(store, lobby_id, LOBBIES.c.message_id.is_(None), message_id=message_id)


async def drop_lobby(store: GameStore, lobby_id: int) -> None:
    """A lobby whose post could not be made: gone, as if never asked for."""
    gone = delete(LOBBIES).where(LOBBIES.c.id == lobby_id)
    await store.transactions.write(lambda connection: connection.execute(gone).rowcount)


def _given_up(now: datetime):
    """A join whose time ran out: its process died before it was done."""
    return and_(LOBBIES.c.status == JOINING, LOBBIES.c.joining_until < stamp(now))


async def claim_lobby(store: GameStore, lobby_id: int, joiner: str, now: datetime) -> bool:
    """The joiner takes the lobby until its game is made, if it is open (or held by a join given
    up) and not yet expired at ``now``; or they took it already and their game is still being
    made (a join tried again)."""
    free = and_(or_(LOBBIES.c.status == OPEN, _given_up(now)), LOBBIES.c.expires_at > stamp(now))
    again = and_(LOBBIES.c.status == JOINING, LOBBIES.c.joiner == joiner)
    held = {"status": JOINING, "joiner": joiner, "joining_until": stamp(now + JOIN_LEASE)}
    return await _changed(store, lobby_id, or_(free, again), **held)


def _joining(joiner: str):
    return and_(LOBBIES.c.status == JOINING, LOBBIES.c.joiner == joiner)


async def release_lobby(store: GameStore, lobby_id: int, joiner: str) -> None:
    """The joiner's game could not be made: the lobby is open again (its thread, if made, kept
    for the next joiner)."""
    await _changed(store, lobby_id, _joining(joiner), status=OPEN, joiner=None, joining_until=None)


async def keep_thread(store: GameStore, lobby_id: int, joiner: str, thread_id: str) -> None:
    await _changed(store, lobby_id, _joining(joiner), thread_id=thread_id)


async def lobby_taken(store: GameStore, lobby_id: int, joiner: str) -> bool:
    """The joiner's game is made and both players seated: the lobby is taken, for good."""
    return await _changed(store, lobby_id, _joining(joiner), status=TAKEN, joining_until=None)


async def cancel_lobby(store: GameStore, lobby_id: int) -> bool:
    """Withdraw the lobby, if it is still open."""
    return await _changed(store, lobby_id, LOBBIES.c.status == OPEN, status=CANCELLED)


def expire_lobby(connection: Connection, lobby_id: int, now: datetime) -> bool:
    """In the caller's transaction: the lobby expires, if its moment passed while it is open or
    held by a join given up."""
    held = or_(LOBBIES.c.status == OPEN, _given_up(now))
    due = and_(LOBBIES.c.id == lobby_id, held, LOBBIES.c.expires_at <= stamp(now))
    expired = update(LOBBIES).where(due).values(status=EXPIRED, claimed_by=None, claimed_until=None)
    return connection.execute(expired).rowcount == 1
