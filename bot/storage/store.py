"""The game store: load a channel's game, append a command atomically, read its history."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from pydantic import TypeAdapter
from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import select

from bot.storage.database import make_engine, make_sessions
from bot.storage.migrate import upgrade_to_head
from bot.storage.tables import (
    GAME_POSTS,
    ArchivedGameRow,
    CommandRow,
    DeadlinePostRow,
    GameRow,
    PausedClockRow,
    PlayerDeadlineRow,
    SideThreadRow,
    SnapshotRow,
    WindowRow,
    utcnow,
)
from engine.commands import Command, UndoActions
from engine.events import Event
from engine.game_state import GameState
from engine.state import Phase

COMMAND = TypeAdapter(Command)
EVENTS = TypeAdapter(list[Event])
SNAPSHOT_EVERY = 50  # commands between two snapshots of a game's state


class StaleGame(Exception):
    """Another writer changed the game after it was loaded: reload and try again."""


@dataclass(frozen=True)
class Applied:
    """A command already stored for a Discord interaction: the version it made, its events."""

    version: int
    events: list[Event]


@dataclass(frozen=True)
class OpenWindow:
    channel_id: str
    window: int
    deadline: datetime
    message_id: str | None = None


SET_UP = Applied(0, [])  # what an interaction that set a game up made: its version 0


@dataclass(frozen=True)
class StoredGame:
    channel_id: str
    version: int
    state: GameState
    reaction_seconds: int = 120
    closed_window_message: str | None = None  # the message of a window this write closed
    already: Applied | None = None  # the interaction asked about was applied before
    # read with the game, in its one load (the referee's clock, the deadlines, the threads):
    paused_at: datetime | None = None  # when the referee stopped the game's clock
    window: OpenWindow | None = None  # the reaction window stored open
    deadline_sides: frozenset[str] = frozenset()  # the sides the referee gave a deadline
    threads: dict[str, str] = field(default_factory=dict)  # audience -> private thread id


class GameStore:
    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self.engine = make_engine(database_url)
        self.sessions = make_sessions(self.engine)

    @classmethod
    async def open(cls, database_url: str) -> GameStore:
        """Migrate the schema to the latest version, then open the store."""
        await upgrade_to_head(database_url)
        return cls(database_url)

    async def close(self) -> None:
        await self.engine.dispose()

    async def load(self, channel_id: str, interaction_id: str | None = None) -> StoredGame | None:
        """The channel's game (parsed off the event loop), and whether ``interaction_id`` (a
        Discord interaction) already sent a command to it, or set it up (as version 0); with
        what an action needs besides (the clock's pause, the open window, the sides with a
        deadline, the private threads), all in one session."""
        game = (
            select(GameRow, PausedClockRow.paused_at, WindowRow)
            .outerjoin(PausedClockRow, PausedClockRow.channel_id == GameRow.channel_id)
            .outerjoin(WindowRow, WindowRow.channel_id == GameRow.channel_id)
            .where(GameRow.channel_id == channel_id)
        )
        async with self.sessions() as session:
            found = (await session.execute(game)).first()
            if found is None:
                return None
            row, paused_at, window = found
            done = None
            if interaction_id is not None and row.interaction_id != interaction_id:
                query = select(CommandRow).where(
                    CommandRow.channel_id == channel_id, CommandRow.interaction_id == interaction_id
                )
                done = (await session.execute(query)).scalars().first()
            sides = select(PlayerDeadlineRow.side).where(PlayerDeadlineRow.channel_id == channel_id)
            deadline_sides = frozenset((await session.execute(sides)).scalars())
            threads = select(SideThreadRow.side, SideThreadRow.thread_id).where(
                SideThreadRow.channel_id == channel_id
            )
            thread_ids = {side: thread for side, thread in (await session.execute(threads)).all()}
        state = await asyncio.to_thread(GameState.model_validate_json, row.state)
        already = Applied(done.seq, EVENTS.validate_json(done.events)) if done else None
        if interaction_id is not None and row.interaction_id == interaction_id:
            already = SET_UP
        return StoredGame(
            channel_id,
            row.version,
            state,
            row.reaction_seconds,
            already=already,
            paused_at=datetime.fromisoformat(paused_at) if paused_at else None,
            window=window
            and OpenWindow(
                channel_id, window.window, datetime.fromisoformat(window.deadline), window.message_id
            ),
            deadline_sides=deadline_sides,
            threads=thread_ids,
        )

    async def create(
        self,
        channel_id: str,
        state: GameState,
        reaction_seconds: int = 120,
        may_replace: Callable[[GameState], None] = lambda _game: None,
        interaction_id: str | None = None,
    ) -> StoredGame:
        """Start a channel's game afresh, replacing a finished one and its log. ``may_replace``
        sees the game in the channel, in the same transaction (row locked), and raises to keep
        it; two creations at once in a channel without a game: one wins, the other is
        :class:`StaleGame`. A Discord interaction (``interaction_id``) that set up the game in
        the channel already finds it (``already``) and replaces nothing."""
        as_json = state.model_dump_json()
        try:
            async with self.sessions() as session, session.begin():
                current = await session.get(GameRow, channel_id, with_for_update=True)
                if (
                    current is not None
                    and interaction_id is not None
                    and current.interaction_id == interaction_id
                ):
                    return await self._set_up_before(current)
                if current is not None:
                    old = GameState.model_validate_json(current.state)
                    may_replace(old)
                    await self._archive_finished(session, channel_id, old)
                await self._clear_channel(session, channel_id)
                session.add(
                    GameRow(
                        channel_id=channel_id,
                        initial_state=as_json,
                        state=as_json,
                        reaction_seconds=reaction_seconds,
                        interaction_id=interaction_id,
                    )
                )
        except IntegrityError:  # set up at the same moment: by this same interaction, or another
            async with self.sessions() as session:
                current = await session.get(GameRow, channel_id)
            if current is None or interaction_id is None or current.interaction_id != interaction_id:
                raise StaleGame(channel_id) from None
            return await self._set_up_before(current)
        return StoredGame(channel_id, 0, state, reaction_seconds)

    @staticmethod
    async def _set_up_before(row: GameRow) -> StoredGame:
        """The game an interaction set up before, as it stands now."""
        state = await asyncio.to_thread(GameState.model_validate_json, row.state)
        return StoredGame(row.channel_id, row.version, state, row.reaction_seconds, already=SET_UP)

    @staticmethod
    async def _clear_channel(session, channel_id: str) -> None:
        """A new game: new threads, a running clock, no deadlines, no log, no post of the old
        game still to make."""
        posts = DeadlinePostRow
        await session.execute(delete(posts).where(posts.channel_id == channel_id, posts.kind.in_(GAME_POSTS)))
        for table in (
            WindowRow,
            SnapshotRow,
            CommandRow,
            SideThreadRow,
            PausedClockRow,
            PlayerDeadlineRow,
            GameRow,
        ):
            await session.execute(delete(table).where(table.channel_id == channel_id))

    @staticmethod
    async def _archive_finished(session, channel_id: str, state: GameState) -> None:
        """Keep a finished game's result and log before a new game takes the channel."""
        if state.result is None:
            return
        rows = (
            await session.execute(
                select(CommandRow).where(CommandRow.channel_id == channel_id).order_by(CommandRow.seq)
            )
        ).scalars()
        lines = [event.text for row in rows for event in EVENTS.validate_json(row.events)]
        winner = f"{state.result.winner} won" if state.result.winner else "a draw"
        session.add(
            ArchivedGameRow(
                channel_id=channel_id, result=f"{winner}: {state.result.reason}", log="\n".join(lines)
            )
        )

    async def archived(self, channel_id: str) -> list[ArchivedGameRow]:
        """The channel's finished games, newest first."""
        async with self.sessions() as session:
            query = (
                select(ArchivedGameRow)
                .where(ArchivedGameRow.channel_id == channel_id)
                .order_by(ArchivedGameRow.id.desc())
            )
            return list((await session.execute(query)).scalars())

    async def append(
        self,
        game: StoredGame,
        user_id: str,
        command: Command,
        events: list[Event],
        state: GameState,
        window_deadline: datetime | None = None,
        *,
        interaction_id: str | None = None,
        window_message: str | None = None,
        also: Callable[[AsyncSession], Awaitable[None]] | None = None,
    ) -> StoredGame:
        """Store one command, its events and the new state, if nobody else wrote first: one
        transaction, the JSON made off the event loop.

        The channel's open reaction window is recorded in the same transaction: the one the
        new state has open (closing at ``window_deadline``, its buttons on ``window_message``
        when that is known already), or none; and so are the game's snapshots (see
        :meth:`_keep_snapshots`).
        """
        version = game.version + 1
        state_json, command_json, events_json = await asyncio.to_thread(
            lambda: (
                state.model_dump_json(),
                COMMAND.dump_json(command).decode(),
                EVENTS.dump_json(events).decode(),
            )
        )
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(GameRow)
                .where(GameRow.channel_id == game.channel_id, GameRow.version == game.version)
                .values(version=version, state=state_json, updated_at=utcnow())
            )
            if result.rowcount != 1:
                raise StaleGame(game.channel_id)
            await self._keep_snapshots(session, game.channel_id, version, command, state_json)
            session.add(
                CommandRow(
                    channel_id=game.channel_id,
                    seq=version,
                    user_id=user_id,
                    command=command_json,
                    events=events_json,
                    interaction_id=interaction_id,
                )
            )
            previous = await session.get(WindowRow, game.channel_id)
            still_open = (
                state.phase is Phase.REACTION
                and state.pending
                and previous is not None
                and previous.window == state.pending.window
            )
            closed = previous.message_id if previous is not None and not still_open else None
            await session.execute(delete(WindowRow).where(WindowRow.channel_id == game.channel_id))
            if state.phase is Phase.REACTION and state.pending and window_deadline:
                session.add(
                    WindowRow(
                        channel_id=game.channel_id,
                        window=state.pending.window,
                        deadline=window_deadline.isoformat(),
                        message_id=previous.message_id if still_open and previous else window_message,
                    )
                )
            if also is not None:
                await also(session)
        return StoredGame(game.channel_id, version, state, game.reaction_seconds, closed)

    async def set_window_message(self, channel_id: str, window: int, message_id: str) -> None:
        """Remember the message that shows a window's buttons, to take them away when it closes."""
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(WindowRow)
                .where(WindowRow.channel_id == channel_id, WindowRow.window == window)
                .values(message_id=message_id)
            )

    async def open_windows(self) -> list[OpenWindow]:
        """Every open reaction window, for re-arming the timers after a restart."""
        async with self.sessions() as session:
            rows = (await session.execute(select(WindowRow))).scalars()
            return [
                OpenWindow(r.channel_id, r.window, datetime.fromisoformat(r.deadline), r.message_id)
                for r in rows
            ]

    async def unfinished(self) -> list[StoredGame]:
        """Every game not yet over, in every channel (for what a player owes across channels)."""
        async with self.sessions() as session:
            rows = list((await session.execute(select(GameRow).order_by(GameRow.channel_id))).scalars())
        games = [
            StoredGame(r.channel_id, r.version, GameState.model_validate_json(r.state), r.reaction_seconds)
            for r in rows
        ]
        return [game for game in games if game.state.phase is not Phase.OVER]

    @staticmethod
    async def _keep_snapshots(session, channel_id: str, seq: int, command: Command, as_json: str) -> None:
        """An undo drops the snapshots from the first command it takes back on (they hold what
        is no longer in force); every ``SNAPSHOT_EVERY`` commands the new state is kept."""
        if isinstance(command, UndoActions) and command.undone:
            await session.execute(
                delete(SnapshotRow).where(
                    SnapshotRow.channel_id == channel_id, SnapshotRow.seq >= min(command.undone)
                )
            )
        if seq % SNAPSHOT_EVERY == 0:
            session.add(SnapshotRow(channel_id=channel_id, seq=seq, state=as_json))

    async def history(self, channel_id: str) -> tuple[GameState, list[tuple[Command, list[Event]]]]:
        """The state a game started from and every command since, with its events."""
        return await self.state_at(channel_id, 0), await self.log_between(channel_id, 0)

    async def snapshot_seqs(self, channel_id: str) -> list[int]:
        """The commands after which the game's state was kept, oldest first; 0 is its start."""
        async with self.sessions() as session:
            query = (
                select(SnapshotRow.seq).where(SnapshotRow.channel_id == channel_id).order_by(SnapshotRow.seq)
            )
            return [0, *(await session.execute(query)).scalars()]

    async def state_at(self, channel_id: str, seq: int) -> GameState:
        """The game's state right after command ``seq`` (0: as it started), from a snapshot; a
        snapshot gone since it was listed means an undo by another writer (:class:`StaleGame`)."""
        async with self.sessions() as session:
            if seq == 0:
                row = await session.get(GameRow, channel_id)
                as_json = row.initial_state if row else None
            else:
                row = await session.get(SnapshotRow, (channel_id, seq))
                as_json = row.state if row else None
        if as_json is None:
            raise KeyError(channel_id) if seq == 0 else StaleGame(channel_id)
        return GameState.model_validate_json(as_json)

    async def log_between(
        self, channel_id: str, after: int, through: int | None = None
    ) -> list[tuple[Command, list[Event]]]:
        """The commands after command ``after`` up to ``through`` (or the last), with their events."""
        query = select(CommandRow.command, CommandRow.events).where(
            CommandRow.channel_id == channel_id, CommandRow.seq > after
        )
        if through is not None:
            query = query.where(CommandRow.seq <= through)
        async with self.sessions() as session:
            rows = (await session.execute(query.order_by(CommandRow.seq))).all()
        return await asyncio.to_thread(_read_log, rows)  # parsing a long log would hold the event loop


def _read_log(rows: Sequence[tuple[str, str]]) -> list[tuple[Command, list[Event]]]:
    """The log's rows parsed, the cyclic garbage collector paused meanwhile: the entries are trees,
    which it would otherwise go through again and again as they pile up (a whole log of 5,000
    commands parsed 4-5x slower)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return [(COMMAND.validate_json(command), EVENTS.validate_json(events)) for command, events in rows]
    finally:
        if collecting:
            gc.enable()
