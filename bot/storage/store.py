"""The game store: load a channel's game, append a command atomically, read its history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import TypeAdapter
from sqlalchemy import delete, update
from sqlmodel import select

from bot.storage.database import make_engine, make_sessions
from bot.storage.migrate import upgrade_to_head
from bot.storage.tables import (
    ArchivedGameRow,
    CommandRow,
    GameRow,
    PausedClockRow,
    PlayerDeadlineRow,
    SideThreadRow,
    WindowRow,
    utcnow,
)
from engine.commands import Command
from engine.events import Event
from engine.game_state import GameState
from engine.state import Phase

COMMAND = TypeAdapter(Command)
EVENTS = TypeAdapter(list[Event])


class StaleGame(Exception):
    """Another writer changed the game after it was loaded: reload and try again."""


@dataclass(frozen=True)
class StoredGame:
    channel_id: str
    version: int
    state: GameState
    reaction_seconds: int = 120
    closed_window_message: str | None = None  # the message of a window this write closed


@dataclass(frozen=True)
class OpenWindow:
    channel_id: str
    window: int
    deadline: datetime
    message_id: str | None = None


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

    async def load(self, channel_id: str) -> StoredGame | None:
        async with self.sessions() as session:
            row = await session.get(GameRow, channel_id)
        if row is None:
            return None
        return StoredGame(
            channel_id, row.version, GameState.model_validate_json(row.state), row.reaction_seconds
        )

    async def create(self, channel_id: str, state: GameState, reaction_seconds: int = 120) -> StoredGame:
        """Start a channel's game afresh, replacing a finished one and its log."""
        as_json = state.model_dump_json()
        async with self.sessions() as session, session.begin():
            await self._archive_finished(session, channel_id)
            for table in (  # a new game: new threads, a running clock, no deadlines
                WindowRow,
                CommandRow,
                SideThreadRow,
                PausedClockRow,
                PlayerDeadlineRow,
                GameRow,
            ):
                await session.execute(delete(table).where(table.channel_id == channel_id))
            session.add(
                GameRow(
                    channel_id=channel_id,
                    initial_state=as_json,
                    state=as_json,
                    reaction_seconds=reaction_seconds,
                )
            )
        return StoredGame(channel_id, 0, state, reaction_seconds)

    async def _archive_finished(self, session, channel_id: str) -> None:
        """Keep a finished game's result and log before a new game takes the channel."""
        game = await session.get(GameRow, channel_id)
        if game is None:
            return
        state = GameState.model_validate_json(game.state)
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
    ) -> StoredGame:
        """Store one command, its events and the new state, if nobody else wrote first.

        The channel's open reaction window is recorded in the same transaction: the one the
        new state has open (closing at ``window_deadline``), or none.
        """
        version = game.version + 1
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(GameRow)
                .where(GameRow.channel_id == game.channel_id, GameRow.version == game.version)
                .values(version=version, state=state.model_dump_json(), updated_at=utcnow())
            )
            if result.rowcount != 1:
                raise StaleGame(game.channel_id)
            session.add(
                CommandRow(
                    channel_id=game.channel_id,
                    seq=version,
                    user_id=user_id,
                    command=COMMAND.dump_json(command).decode(),
                    events=EVENTS.dump_json(events).decode(),
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
                        message_id=previous.message_id if still_open and previous else None,
                    )
                )
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

    async def history(self, channel_id: str) -> tuple[GameState, list[tuple[Command, list[Event]]]]:
        """The state a game started from and every command since, with its events."""
        async with self.sessions() as session:
            game = await session.get(GameRow, channel_id)
            rows = (
                await session.execute(
                    select(CommandRow).where(CommandRow.channel_id == channel_id).order_by(CommandRow.seq)
                )
            ).scalars()
            log = [(COMMAND.validate_json(r.command), EVENTS.validate_json(r.events)) for r in rows]
        if game is None:
            raise KeyError(channel_id)
        return GameState.model_validate_json(game.initial_state), log
