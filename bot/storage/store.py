"""The game store: load a channel's game, append a command atomically, read its history."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from pydantic import TypeAdapter
from sqlalchemy import (
    Connection,
    Engine,
    Select,
    and_,
    bindparam,
    case,
    delete,
    func,
    insert,
    literal_column,
    null,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from bot.storage.database import Body, Done, Transactions, make_engine, make_sessions
from bot.storage.migrate import upgrade_to_head
from bot.storage.prepared import Prepared
from bot.storage.state_cache import StateCache
from bot.storage.tables import (
    GAME_POSTS,
    ArchivedGameRow,
    CommandRow,
    DeadlinePostRow,
    GameRow,
    MissedDeadlinesRow,
    PausedClockRow,
    PlayerDeadlineRow,
    SideThreadRow,
    SnapshotRow,
    TurnPingRow,
    WindowRow,
    utcnow,
)
from bot.storage.turn_ping import TurnPing, stored_ping
from engine.commands import Command, UndoActions
from engine.events import Event
from engine.game_state import GameState
from engine.state import STAND_IN, Phase

COMMAND = TypeAdapter(Command)
EVENTS = TypeAdapter(list[Event])
SNAPSHOT_EVERY = 50  # commands between two snapshots of a game's state
# the tables of the hot path, written through SQLAlchemy Core
GAMES, COMMANDS, SNAPSHOTS, WINDOWS = (
    row.__table__
    for row in (GameRow, CommandRow, SnapshotRow, WindowRow)  # type: ignore[attr-defined]
)
CLOCKS, DEADLINES, THREADS, PINGS = (
    row.__table__
    for row in (PausedClockRow, PlayerDeadlineRow, SideThreadRow, TurnPingRow)  # type: ignore[attr-defined]
)


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


class Written(NamedTuple):
    """What a stored command writes, as JSON: the new state, the command, its events."""

    state: str
    command: str
    events: str

    @classmethod
    def of(cls, state: GameState, command: Command, events: list[Event]) -> Written:
        return cls(
            state.model_dump_json(), COMMAND.dump_json(command).decode(), EVENTS.dump_json(events).decode()
        )


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
    ping: TurnPing | None = None  # the channel's turn ping as stored (None: not loaded with it)
    # the state as its row holds it (JSON), when read for an action
    as_json: str | None = field(default=None, compare=False, repr=False)


class GameStore:
    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self.engine = make_engine(database_url)
        self.sessions = make_sessions(self.engine)
        self.transactions = Transactions(self.engine, database_url)  # the hot path's
        self.states = StateCache()  # the games this process last read or wrote, parsed

    @classmethod
    async def open(cls, database_url: str) -> GameStore:
        """Migrate the schema to the latest version, then open the store."""
        await upgrade_to_head(database_url)
        return cls(database_url)

    @property
    def engines(self) -> list[Engine]:
        """Every engine the store sends statements through, to listen to their events: its async
        engine's, and the one of its worker threads on a SQLite file."""
        return [self.engine.sync_engine, *filter(None, [self.transactions.threaded])]

    async def close(self) -> None:
        await self.transactions.close()
        await self.engine.dispose()

    async def load(self, channel_id: str, interaction_id: str | None = None) -> StoredGame | None:
        """The channel's game, and whether ``interaction_id`` (a Discord interaction) already sent
        a command to it, or set it up (as version 0); with what an action needs besides (the
        clock's pause, the open window, the sides with a deadline, the private threads, the
        turn ping): one statement, read and parsed off the event loop (not parsed again while
        the process holds the state the row names: :mod:`bot.storage.state_cache`)."""
        return await self.transactions.read(
            lambda connection: _stored(connection, channel_id, interaction_id, self.states)
        )

    async def load_then_append(
        self,
        channel_id: str,
        interaction_id: str | None,
        then: Callable[[StoredGame | None], tuple[Done, Body[StoredGame] | None]],
    ) -> tuple[Done, StoredGame | None]:
        """What ``then`` makes of the game :meth:`load` finds, made where it was read (an action
        decided off the event loop), and the append it asks for (:meth:`appending`; None: none)
        stored: handed from the reader straight to the store's writer, so that the event loop
        waits once, for the commit (:meth:`Transactions.read_then_write`)."""
        return await self.transactions.read_then_write(
            lambda connection: _stored(connection, channel_id, interaction_id, self.states), then
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
                        state=as_json,
                        reaction_seconds=reaction_seconds,
                        interaction_id=interaction_id,
                    )
                )
                await session.flush()  # the game's row before its start's snapshot
                session.add(SnapshotRow(channel_id=channel_id, seq=0, state=as_json))
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
        """A new game: new threads, a running clock, no deadlines (set or missed), no log, no post of the old
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
            MissedDeadlinesRow,
            GameRow,
        ):
            await session.execute(delete(table).where(table.channel_id == channel_id))

    @staticmethod
    async def _archive_finished(session, channel_id: str, state: GameState) -> None:
        """Keep a finished game's result and log before a new game takes the channel."""
        finished = await GameStore._as_finished(session, channel_id, state)
        if finished is not None:
            session.add(finished)

    @staticmethod
    async def _as_finished(session, channel_id: str, state: GameState) -> ArchivedGameRow | None:
        """The channel's game as it is archived once over (None while it goes on): its result,
        its whole log, and when its last command was given."""
        if state.result is None:
            return None
        rows = list(
            (
                await session.execute(
                    select(CommandRow).where(CommandRow.channel_id == channel_id).order_by(CommandRow.seq)
                )
            ).scalars()
        )
        lines = [event.text for row in rows for event in EVENTS.validate_json(row.events)]
        winner = f"{state.result.winner} won" if state.result.winner else "a draw"
        return ArchivedGameRow(
            channel_id=channel_id,
            result=f"{winner}: {state.result.reason}",
            log="\n".join(lines),
            finished_at=rows[-1].created_at if rows else utcnow(),
        )

    async def finished_games(self, channel_id: str) -> list[ArchivedGameRow]:
        """The channel's finished games, newest first: the one still in the channel, if it is
        over (it is archived when a new game takes its place), then those archived."""
        async with self.sessions() as session:
            query = (
                select(ArchivedGameRow)
                .where(ArchivedGameRow.channel_id == channel_id)
                .order_by(ArchivedGameRow.id.desc())
            )
            kept = list((await session.execute(query)).scalars())
            current = await session.get(GameRow, channel_id)
            state = GameState.model_validate_json(current.state) if current is not None else None
            over = await self._as_finished(session, channel_id, state) if state is not None else None
        return [over, *kept] if over is not None else kept

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
        with_it: Callable[[Connection], None] | None = None,
        written: Written | None = None,
    ) -> StoredGame:
        """Store one command, its events and the new state, if nobody else wrote first: the
        write :meth:`appending` makes, on the store's writer."""
        return await self.transactions.write(
            self.appending(
                game,
                user_id,
                command,
                events,
                state,
                window_deadline,
                interaction_id=interaction_id,
                window_message=window_message,
                with_it=with_it,
                written=written,
            )
        )

    def appending(
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
        with_it: Callable[[Connection], None] | None = None,
        written: Written | None = None,
    ) -> Body[StoredGame]:
        """The write that stores one command, its events and the new state, if nobody else wrote
        first (else :class:`StaleGame`): one transaction, made (the JSON too) off the event loop.

        The channel's open reaction window is recorded in the same transaction: the one the
        new state has open (closing at ``window_deadline``, its buttons on ``window_message``
        when that is known already), or none; and so are the game's snapshots (see
        :func:`_keep_snapshots`) and what ``with_it`` writes on the transaction's connection (the
        turn ping, the deadlines the action ends, the caller's own writes). All of it on the
        store's writer; the JSON too, unless ``written`` brings it made already (where the action
        was decided, so that the one writer spends its time writing).
        """
        version = game.version + 1

        def write(connection: Connection) -> StoredGame:
            as_json = written or Written.of(state, command, events)
            now = utcnow()
            stored = NEXT_VERSION.first(
                connection,
                {"channel": game.channel_id, "read": game.version, "version": version}
                | {"state": as_json.state, "updated_at": now},
            )
            if stored is None:
                raise StaleGame(game.channel_id)
            # kept for use once committed
            self.states.keep(game.channel_id, version, stored.updated_at, state, as_json.state)
            _keep_snapshots(connection, game.channel_id, version, command, as_json.state)
            logged = {"channel_id": game.channel_id, "seq": version, "user_id": user_id}
            LOGGED.run(
                connection,
                logged
                | {"command": as_json.command, "events": as_json.events}
                | {"created_at": now, "interaction_id": interaction_id},
            )
            closed = _replace_window(connection, game, state, window_deadline, window_message)
            if with_it is not None:
                with_it(connection)
            return StoredGame(game.channel_id, version, state, game.reaction_seconds, closed)

        return write

    async def set_window_message(self, channel_id: str, window: int, message_id: str) -> None:
        """Remember the message that shows a window's buttons, to take them away when it closes:
        one statement, on the store's writer."""

        def remember(connection: Connection) -> None:
            WINDOW_MESSAGE.run(connection, {"channel": channel_id, "open": window, "message": message_id})

        await self.transactions.write(remember)

    async def open_windows(self) -> list[OpenWindow]:
        """Every open reaction window, for re-arming the timers after a restart: plain rows,
        read and made into windows off the event loop (a restart may find 100,000)."""
        return await self.transactions.read(_open_windows)

    async def unfinished(self) -> list[StoredGame]:
        """Every game not yet over, in every channel (for what a player owes across channels)."""
        async with self.sessions() as session:
            rows = list((await session.execute(select(GameRow).order_by(GameRow.channel_id))).scalars())
        games = [
            StoredGame(r.channel_id, r.version, GameState.model_validate_json(r.state), r.reaction_seconds)
            for r in rows
        ]
        return [game for game in games if game.state.phase is not Phase.OVER]

    async def stood_in(self) -> list[tuple[str, GameState]]:
        """Every unfinished game a side of which the bot plays, by channel: only the games whose
        stored state names the stand-in are read, and parsed off the event loop."""
        rows = await self.transactions.read(_naming_the_stand_in)
        return await asyncio.to_thread(_stood_in, rows)

    async def history(self, channel_id: str) -> tuple[GameState, list[tuple[Command, list[Event]]]]:
        """The state a game started from and every command since, with its events."""
        return await self.state_at(channel_id, 0), await self.log_between(channel_id, 0)

    async def snapshot_seqs(self, channel_id: str) -> list[int]:
        """The commands after which the game's state was kept, oldest first; 0 is its start."""
        async with self.sessions() as session:
            query = (
                select(SnapshotRow.seq).where(SnapshotRow.channel_id == channel_id).order_by(SnapshotRow.seq)
            )
            return list((await session.execute(query)).scalars())

    async def state_at(self, channel_id: str, seq: int) -> GameState:
        """The game's state right after command ``seq`` (0: as it started), from a snapshot; a
        snapshot gone since it was listed means an undo by another writer (:class:`StaleGame`)."""
        async with self.sessions() as session:
            row = await session.get(SnapshotRow, (channel_id, seq))
        if row is None:
            raise KeyError(channel_id) if seq == 0 else StaleGame(channel_id)
        return GameState.model_validate_json(row.state)

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


def _game_query(asked: bool) -> Select:
    """The game of channel ``:channel`` with its clock's pause, its open window, its sides with a
    deadline and its threads (each list in one string, an entry a line), its turn ping; if ``asked``, with the
    command the interaction ``:interaction`` sent to it, if it sent one. Its state is NULL when
    the row still names the state the process holds (version ``:kept`` written at
    ``:written_at``)."""
    here = GAMES.c.channel_id
    held = and_(GAMES.c.version == bindparam("kept"), GAMES.c.updated_at == bindparam("written_at"))
    line = literal_column("'\n'")  # in the SQL itself: each run sends only its own parameters
    sides = select(func.aggregate_strings(DEADLINES.c.side, line)).where(DEADLINES.c.channel_id == here)
    threads = select(func.aggregate_strings(THREADS.c.side + " " + THREADS.c.thread_id, line)).where(
        THREADS.c.channel_id == here
    )
    columns = [
        GAMES.c.version,
        GAMES.c.updated_at,
        case((held, null()), else_=GAMES.c.state).label("state"),
        GAMES.c.reaction_seconds,
        GAMES.c.interaction_id,
        CLOCKS.c.paused_at,
        WINDOWS.c.window,
        WINDOWS.c.deadline,
        WINDOWS.c.message_id,
        sides.scalar_subquery().label("deadline_sides"),
        threads.scalar_subquery().label("threads"),
        *(PINGS.c[name].label(f"ping_{name}") for name in ("version", "minutes", "players", "due")),
    ]
    joined = (
        GAMES.outerjoin(CLOCKS, CLOCKS.c.channel_id == here)
        .outerjoin(WINDOWS, WINDOWS.c.channel_id == here)
        .outerjoin(PINGS, PINGS.c.channel_id == here)
    )
    if asked:
        columns += [COMMANDS.c.seq, COMMANDS.c.events]
        joined = joined.outerjoin(
            COMMANDS,
            and_(COMMANDS.c.channel_id == here, COMMANDS.c.interaction_id == bindparam("interaction")),
        )
    return select(*columns).select_from(joined).where(here == bindparam("channel"))


def _each(*names: str) -> dict[str, object]:
    """The columns ``names``, each given by the parameter of its name."""
    return {name: bindparam(name) for name in names}


# the hot path's statements, each compiled once by dialect and sent to the driver itself
GAME, GAME_ASKED = Prepared(_game_query(asked=False)), Prepared(_game_query(asked=True))
NEXT_VERSION = Prepared(
    update(GAMES)
    .where(GAMES.c.channel_id == bindparam("channel"), GAMES.c.version == bindparam("read"))
    .values(_each("version", "state", "updated_at"))
    .returning(GAMES.c.updated_at)
)
LOGGED = Prepared(
    insert(COMMANDS).values(
        _each("channel_id", "seq", "user_id", "command", "events", "created_at", "interaction_id")
    )
)
WINDOW_OPENED = Prepared(insert(WINDOWS).values(_each("channel_id", "window", "deadline", "message_id")))
WINDOW_MESSAGE = Prepared(
    update(WINDOWS)
    .where(WINDOWS.c.channel_id == bindparam("channel"), WINDOWS.c.window == bindparam("open"))
    .values(message_id=bindparam("message"))
)
WINDOW_REPLACED = Prepared(
    delete(WINDOWS)
    .where(WINDOWS.c.channel_id == bindparam("channel"))
    .returning(WINDOWS.c.window, WINDOWS.c.message_id)
)


def _open_windows(connection: Connection) -> list[OpenWindow]:
    columns = WINDOWS.c
    rows = connection.execute(
        select(columns.channel_id, columns.window, columns.deadline, columns.message_id)
    )
    return [
        OpenWindow(channel, window, datetime.fromisoformat(deadline), message)
        for channel, window, deadline, message in rows
    ]


def _naming_the_stand_in(connection: Connection) -> list[tuple[str, str]]:
    named = GAMES.c.state.contains(f'"{STAND_IN}"', autoescape=True)
    return [tuple(row) for row in connection.execute(select(GAMES.c.channel_id, GAMES.c.state).where(named))]


def _stood_in(rows: list[tuple[str, str]]) -> list[tuple[str, GameState]]:
    games = ((channel, GameState.model_validate_json(state)) for channel, state in rows)
    return [(channel, state) for channel, state in games if state.phase is not Phase.OVER]


def _stored(
    connection: Connection, channel_id: str, interaction_id: str | None, states: StateCache
) -> StoredGame | None:
    """The game :data:`GAME` finds, its state parsed, or the one ``states`` holds if the row
    still names it; with the JSON of either."""
    query = GAME if interaction_id is None else GAME_ASKED
    kept = states.get(channel_id)
    held = {"kept": kept.version, "written_at": kept.written_at} if kept else {"kept": -1, "written_at": None}
    row = query.first(connection, {"channel": channel_id, "interaction": interaction_id} | held)
    if row is None:
        return None
    if row.state is None and kept is not None:
        state, as_json = kept.state, kept.as_json
    else:
        state, as_json = GameState.model_validate_json(row.state), row.state
        states.keep(channel_id, row.version, row.updated_at, state, as_json)
    already = None
    if interaction_id is not None and row.interaction_id == interaction_id:
        already = SET_UP
    elif interaction_id is not None and row.seq is not None:
        already = Applied(row.seq, EVENTS.validate_json(row.events))
    threads = (line.rsplit(" ", 1) for line in (row.threads or "").splitlines())
    window = None
    if row.window is not None:
        window = OpenWindow(channel_id, row.window, datetime.fromisoformat(row.deadline), row.message_id)
    return StoredGame(
        channel_id,
        row.version,
        state,
        row.reaction_seconds,
        already=already,
        paused_at=datetime.fromisoformat(row.paused_at) if row.paused_at else None,
        window=window,
        deadline_sides=frozenset((row.deadline_sides or "").splitlines()),
        threads=dict(threads),
        ping=TurnPing(channel_id)
        if row.ping_version is None
        else stored_ping(channel_id, row.ping_minutes, row.ping_players, row.ping_due, row.ping_version),
        as_json=as_json,
    )


def _keep_snapshots(
    connection: Connection, channel_id: str, seq: int, command: Command, as_json: str
) -> None:
    """An undo drops the snapshots from the first command it takes back on (they hold what is no
    longer in force); every ``SNAPSHOT_EVERY`` commands the new state is kept."""
    if isinstance(command, UndoActions) and command.undone:
        connection.execute(
            delete(SNAPSHOTS).where(
                SNAPSHOTS.c.channel_id == channel_id, SNAPSHOTS.c.seq >= min(command.undone)
            )
        )
    if seq % SNAPSHOT_EVERY == 0:
        connection.execute(insert(SNAPSHOTS), {"channel_id": channel_id, "seq": seq, "state": as_json})


def _replace_window(
    connection: Connection,
    game: StoredGame,
    state: GameState,
    deadline: datetime | None,
    message_id: str | None,
) -> str | None:
    """Store the window ``state`` has open (closing at ``deadline``), or none, in place of the
    channel's window before; the message of that window if this closed it. A window still open
    keeps its message (on which its buttons are).

    Windows are opened and closed only by actions, each over the game's version, so the window
    loaded with ``game`` is the one stored: one still open as loaded, with the deadline it was
    loaded with, is left alone (no statement), and with none loaded there is none to take away.
    What may have changed in its row since is its message (set once the card that shows it is
    posted), so a message kept is the one the replaced row held."""
    open_now = state.pending.window if state.phase is Phase.REACTION and state.pending else None
    loaded = game.window
    if loaded is not None and (loaded.window, loaded.deadline) == (open_now, deadline):
        return None
    previous = None
    if loaded is not None:
        previous = WINDOW_REPLACED.first(connection, {"channel": game.channel_id})
    still_open = previous is not None and open_now is not None and previous.window == open_now
    if open_now is not None and deadline:
        message_id = previous.message_id if still_open and previous else message_id
        window = {"channel_id": game.channel_id, "window": open_now, "deadline": deadline.isoformat()}
        WINDOW_OPENED.run(connection, {**window, "message_id": message_id})
    return previous.message_id if previous is not None and not still_open else None


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
