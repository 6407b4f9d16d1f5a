"""Turn pings as stored: each channel's delay, the players its game waits for and when they are
to be told, and how each user likes to be told. Kept across restarts, like reaction windows.

A channel's ping is written only over the version it was read at (:func:`save_ping`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sqlalchemy import Connection, Insert, bindparam, update
from sqlmodel import select

from bot.storage.prepared import Prepared
from bot.storage.store import PINGS, GameStore
from bot.storage.tables import PingChoiceRow, TurnPingRow
from bot.storage.turn_ping import TurnPing, stored_ping
from bot.storage.writes import INSERTS, upsert


def _upsert(dialect_insert) -> Insert:
    """A ping's whole row written in place of the one stored at version ``:read``, if one is
    stored (none is at version 0): nothing is written if another writer stored it since."""
    insert = dialect_insert(PINGS).values({column.name: bindparam(column.name) for column in PINGS.columns})
    changes = {
        column.name: insert.excluded[column.name] for column in PINGS.columns if not column.primary_key
    }
    over = PINGS.c.version == bindparam("read")
    return insert.on_conflict_do_update(index_elements=["channel_id"], set_=changes, where=over)


# what an action reads and writes of its ping, made once
HELD_PING = select(PINGS).where(PINGS.c.channel_id == bindparam("channel")).with_for_update()
PING_WRITTEN = {name: Prepared(_upsert(dialect_insert)) for name, dialect_insert in INSERTS.items()}


def read_ping(row: TurnPingRow) -> TurnPing:
    return stored_ping(row.channel_id, row.minutes, row.players, row.due, row.version)


async def ping_of(store: GameStore, channel_id: str) -> TurnPing:
    """The channel's ping, or the default one if the channel has none stored."""
    async with store.sessions() as session:
        row = await session.get(TurnPingRow, channel_id)
    return TurnPing(channel_id) if row is None else read_ping(row)


def held_ping(connection: Connection, channel_id: str) -> TurnPing:
    """The channel's ping, read and locked inside the transaction that will write it."""
    row = connection.execute(HELD_PING, {"channel": channel_id}).first()
    return TurnPing(channel_id) if row is None else read_ping(row)


def _written(ping: TurnPing) -> dict[str, object]:
    """The columns a ping writes over its row, at the next version."""
    return {
        "minutes": ping.minutes,
        "players": ",".join(ping.players),
        "due": ping.due.isoformat() if ping.due else None,
        "version": ping.version + 1,
        "claimed_by": None,  # a new moment is claimed afresh
        "claimed_until": None,
    }


def write_ping(connection: Connection, ping: TurnPing) -> bool:
    """Store the ping over the version it was read at (``ping.version``), in the transaction of
    ``connection``: one statement, which writes nothing (False) if another writer stored the
    channel's ping since. A ping read with :func:`held_ping` in the same transaction is always
    written (its row is held)."""
    row = {"channel_id": ping.channel_id, **_written(ping), "read": ping.version}
    return PING_WRITTEN[connection.dialect.name].rowcount(connection, row) == 1


async def save_ping(store: GameStore, ping: TurnPing) -> bool:
    """Store the ping over the version it was read at (``ping.version``): False if another
    writer stored the channel's ping since."""
    values = _written(ping)
    async with store.sessions() as session, session.begin():
        result = await session.execute(
            update(TurnPingRow)
            .where(TurnPingRow.channel_id == ping.channel_id, TurnPingRow.version == ping.version)
            .values(values)
        )
        if result.rowcount == 0 and ping.version == 0:  # the channel's first ping
            insert = INSERTS[session.bind.dialect.name](TurnPingRow)
            result = await session.execute(
                insert.values(channel_id=ping.channel_id, **values).on_conflict_do_nothing()
            )
    return result.rowcount == 1


async def due_pings(store: GameStore) -> list[TurnPing]:
    """Every ping still to send, for re-arming after a restart."""
    async with store.sessions() as session:
        rows = (await session.execute(select(TurnPingRow).where(TurnPingRow.due.is_not(None)))).scalars()
        return [read_ping(row) for row in rows]


async def claim_ping(
    store: GameStore, ping: TurnPing, also: Callable[[Connection], None] | None = None
) -> bool:
    """Mark the ping sent, if it is still the one due at ``ping.due``, with what ``also`` writes
    in the same transaction (the post to make), on the store's writer: True for the one caller
    that may send it."""
    assert ping.due is not None
    here = (PINGS.c.channel_id == ping.channel_id, PINGS.c.due == ping.due.isoformat())
    sent = (
        update(PINGS)
        .where(*here)
        .values(due=None, version=PINGS.c.version + 1, claimed_by=None, claimed_until=None)
    )

    def claim(connection: Connection) -> bool:
        claimed = connection.execute(sent).rowcount == 1
        if claimed and also is not None:
            also(connection)
        return claimed

    return await store.transactions.write(claim)


async def ping_choices(store: GameStore, users: Iterable[str]) -> dict[str, str]:
    """How each of ``users`` who chose likes to be told."""
    async with store.sessions() as session:
        query = select(PingChoiceRow).where(PingChoiceRow.user_id.in_(list(users)))
        return {row.user_id: row.how for row in (await session.execute(query)).scalars()}


async def set_ping_choice(store: GameStore, user_id: str, how: str) -> None:
    async with store.sessions() as session, session.begin():
        await upsert(session, PingChoiceRow(user_id=user_id, how=how), ("user_id",))
