"""GameService: load a channel's game, check who may act, apply a command, store the result."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import Connection

from bot import metrics
from bot.reply import Reply, Strong, Typed
from bot.services.clock_service import ClockService, WindowTime
from bot.services.deadline_posts import DeadlinePost, DeadlinePosts, followed, logged_outcome
from bot.services.limits import PACES, REACTION_SECONDS, bounded_command
from bot.services.outcome import Drawn, GameError, Outcome, Scene, pictured, refusals
from bot.services.permissions import Refused, authorise, held_by_referees
from bot.storage import clock_store
from bot.storage.database import Body
from bot.storage.deadline_claims import WINDOWS, Claims, process_name
from bot.storage.store import GameStore, StaleGame, StoredGame, Written
from bot.storage.tables import WINDOW_CLOSED
from bot.storage.thread_store import keep_side_threads, side_threads
from engine.commands import Command, DeclineReaction, UndoActions
from engine.deployment.areas import AREA_WORDS
from engine.dice import DiceSource, SeededDice
from engine.errors import IllegalCommand
from engine.events import Event
from engine.forces import NATION_NAMES
from engine.game import apply, replay
from engine.game_state import GameState
from engine.names import either
from engine.referee import actions_to_undo, live_actions, live_history
from engine.rich_text import Line
from engine.rulesets import rules_of
from engine.runtime import Clock, ReactionTimers, SystemClock, WindowKey
from engine.scenarios.book import find_scenario
from engine.scenarios.quick_battle import quick_battle, quick_forces, table_title
from engine.state import Phase
from engine.tables.layout import BattleTable
from engine.wording import counted, side_label, side_name

log = logging.getLogger(__name__)

TIMER = "reaction-timer"  # the user id recorded when a window closes at its deadline
OUT_OF_DATE = "This card is out of date: the game has moved on. Use the newest card in the channel."


# a write that goes with every action, on its transaction's connection (off the event loop), told
# the game as loaded, the user and the state after; returns what to do once committed
InCommit = Callable[[Connection, StoredGame, str, GameState], Callable[[], None] | None]
# a write of the caller's in the action's own transaction (on its connection, off the event loop),
# told the channel and the seq written
Also = Callable[[Connection, str, int], None]


@dataclass(frozen=True)
class Prelude:
    """A command stored on its own before a user's (in the same turn of the channel's lock), in
    ``user``'s name, with the caller's write ``also``; ``then`` is told its outcome (to post it)
    before the user's command goes on."""

    user: str
    command: Command
    also: Also
    then: Callable[[Outcome], Awaitable[None]]


Missed = Callable[[Connection, GameState, str, str], Callable[[], Awaitable[None]] | None]


class GameService:
    """Games by channel. Reaction windows close by themselves at their deadline through the
    same "no reaction" command a player would send; ``on_window_closed`` hears about it."""

    def __init__(
        self,
        store: GameStore,
        dice: Callable[[], DiceSource] = SeededDice,
        clock: Clock | None = None,
        on_window_closed: Callable[[str, Outcome], Awaitable[None]] | None = None,
        claims: Claims | None = None,
    ) -> None:
        self.store = store
        # which deadlines this process fires (bot.storage.deadline_claims): those it claims
        self.claims = claims or Claims(store, process_name())
        self.dice = dice
        self.clock = clock or SystemClock()
        self.on_window_closed = on_window_closed
        # told (channel, final state) when a game ends, under the channel's lock: not to act on it
        self.on_game_over: list[Callable[[str, GameState], Awaitable[None]]] = []
        # called inside every action's own write, so what follows the game (the turn pings, the
        # referee's deadlines it ends) is stored with it
        self.in_commit: list[InCommit] = []
        # told (channel, state) once each action is stored, not awaited: what follows the game
        # by itself (the stand-in's turn) arms its own timer
        self.on_stored: list[Callable[[str, GameState], None]] = []
        # what comes first when a user's command arrives (the side the bot took over from a
        # returning player handed back), from the game as loaded for the command
        self.returning: Callable[[str, GameState, str], Prelude | None] | None = None
        # told, in the transaction of what the game does for a side that missed a deadline (a
        # reaction window its timer closed, a referee's deadline passed), the game as loaded for
        # it, the channel and the side; returns what to do once that is stored and told
        self.on_missed: Missed | None = None
        # begins the spectators' picture of each action once it is decided, to be drawn while its
        # write commits (what a front end that posts it with every action asks for); the outcome
        # carries it, and a write that fails cancels it
        self.picturing: Callable[[Scene], asyncio.Future[Drawn]] | None = None
        fire = self.claims.renewing(WINDOWS, self.clock, self._window_expired, lambda key: key[:1])  # type: ignore[index]
        self.timers = ReactionTimers(self.clock, fire, still_due=self._window_due)
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        # what the deadlines post, each made once (bot.services.deadline_posts)
        self.posts = DeadlinePosts(store, self.clock, self.claims, limit=self.timers.limit)
        self.posts.senders[WINDOW_CLOSED] = self._post_closed_again
        self.clocks = ClockService(self)  # the referee's pause, extensions and deadlines

    async def resume(self) -> None:
        """After a start-up: re-arm every stored window and referee's deadline (not in a game
        whose clock is paused); those already past close at once."""
        await self.clocks.rearm()

    async def close(self) -> None:
        await self.clocks.close()
        await self.timers.close()
        await self.posts.close()

    async def new_game(
        self,
        channel_id: str,
        state: GameState | None = None,
        reaction_seconds: int = 120,
        user_id: str | None = None,
        interaction_id: str | None = None,
    ) -> Outcome:
        """Set up a game in a channel (the quick battle unless a state is given). It replaces a
        finished game, or one not yet started that nobody else has joined. A Discord
        interaction (``interaction_id``) that set up the channel's game before finds it, as it
        stands now, marked ``repeated``."""
        if reaction_seconds not in REACTION_SECONDS:
            raise GameError("A reaction window lasts from 15 seconds to 48 hours")
        async with self._locks[channel_id]:
            try:
                stored = await self.store.create(
                    channel_id,
                    state or quick_battle(),
                    reaction_seconds,
                    may_replace=lambda current: refuse_replacing(current, user_id),
                    interaction_id=interaction_id,
                )
            except StaleGame:
                raise GameError("Another game was set up here at the same moment: see /game status") from None
        return Outcome(stored.state, [], stored.version, repeated=stored.already is not None)

    async def remember_window_message(self, channel_id: str, window: int, message_id: str) -> None:
        """The message that shows a window's buttons, reported back when the window closes."""
        await self.store.set_window_message(channel_id, window, message_id)

    async def finished_games(self, channel_id: str, number: int | None = None) -> Reply:
        """The channel's finished games (newest is 1), or one game's whole log."""
        games = await self.store.finished_games(channel_id)
        if not games:
            return Reply.of("No finished games in this channel yet")
        if number is None:
            return Reply.of(
                *(
                    f"{n}. {g.finished_at:%Y-%m-%d %H:%M} UTC: {g.result}"
                    for n, g in enumerate(games, start=1)
                ),
                (Typed("/game history number:N"), " shows one game's log"),
            )
        if not 1 <= number <= len(games):
            raise GameError(
                f"This channel has {counted(len(games), 'finished game')}: choose 1 to {len(games)}"
            )
        game = games[number - 1]
        return Reply.of(Strong(game.result), game.log)

    async def history(self, channel_id: str) -> tuple[GameState, list[tuple[Command, list[Event]]]]:
        """The channel's game as it began, and every command stored since with its events."""
        return await self.store.history(channel_id)

    async def stored_version(self, channel_id: str, interaction_id: str) -> int | None:
        """The version of the channel's game that an interaction's command made, if it was
        stored (a failure during or after the commit leaves it unknown to the command's path)."""
        game = await self.store.load(channel_id, interaction_id)
        return game.already.version if game is not None and game.already is not None else None

    async def side_threads(self, channel_id: str) -> dict[str, str]:
        """The private threads of the channel's game, by audience (none: not opened)."""
        return await side_threads(self.store, channel_id)

    async def keep_side_threads(self, channel_id: str, threads: dict[str, str]) -> None:
        await keep_side_threads(self.store, channel_id, threads)

    async def game(self, channel_id: str) -> GameState:
        return (await self._load(channel_id)).state

    async def game_now(self, channel_id: str) -> tuple[GameState, int]:
        """The game and the version it stands at, for a card drawn from it now."""
        game = await self._load(channel_id)
        return game.state, game.version

    async def game_at(self, channel_id: str, version: int) -> GameState:
        """The game, if it is still at ``version`` (a card's buttons are made for one version);
        else a refusal that the card is out of date."""
        game = await self._load(channel_id)
        if game.version != version:
            raise GameError(OUT_OF_DATE)
        return game.state

    async def act(
        self,
        channel_id: str,
        user_id: str,
        command: Command | Callable[[GameState], Command],
        *,
        admin: bool = False,
        server_roles: tuple[str, ...] = (),
        interaction_id: str | None = None,
        window_message: str | None = None,
        version: int | None = None,
        also: Also | None = None,
    ) -> Outcome:
        """Apply a user's command, if the permission table lets them (``server_roles``: the ids of
        the user's Discord roles). ``command`` may be made from the game as loaded (a front end's
        options turned into a command for the user's side), so the game is loaded once.

        A Discord interaction (``interaction_id``) already applied is not applied again: its
        stored outcome comes back, marked ``repeated``. ``window_message``: the message that
        will show the buttons of a reaction window this command opens. ``also``: the caller's
        own write that goes with the command, in its transaction (a :class:`GameError` it
        raises refuses the command: nothing is stored). ``version``: the game's version the
        command was made for (a card's button), refused as out of date once the game has moved
        on. Two commands at once are serialised; a write that lost a race with another process
        is retried once on the fresh state."""
        build = command if callable(command) else (lambda _state: command)

        def check(state: GameState) -> Command:
            with refusals():
                made = bounded_command(build(state))
            return permitted(state, user_id, made, admin, server_roles)

        try:
            return await self._act(
                channel_id,
                user_id,
                check,
                interaction_id=interaction_id,
                window_message=window_message,
                version=version,
                also=also,
            )
        except GameError:
            metrics.REFUSALS.inc()
            raise

    async def act_as_game(
        self,
        channel_id: str,
        user_id: str,
        command: Callable[[GameState], Command],
        *,
        version: int | None = None,
        interaction_id: str | None = None,
        also: Also | None = None,
        welcome: bool = True,
    ) -> Outcome:
        """Apply a command the caller has checked itself against the game as loaded (``command``
        makes it, or refuses with a :class:`GameError`), not against the permission table: what
        the game does by itself (the bot taking over a side), or a player's request that the
        table has no row for (handing their own side to the bot, or taking it back: with no
        ``welcome`` first, :meth:`_act`)."""
        return await self._act(
            channel_id,
            user_id,
            command,
            version=version,
            interaction_id=interaction_id,
            also=also,
            welcome=welcome,
        )

    async def _act(
        self,
        channel_id: str,
        user_id: str,
        check: Callable[[GameState], Command],
        *,
        interaction_id: str | None = None,
        window_message: str | None = None,
        version: int | None = None,
        also: Also | None = None,
        welcome: bool = True,
    ) -> Outcome:
        """Load the game once, decide where it was read and write once, off the event loop, which
        waits once for the commit (:meth:`GameStore.load_then_append`). First, unless not to
        ``welcome`` them, the command a returning player's brings with it (:attr:`returning`) is
        stored on its own, and the game read again for theirs."""
        loop = asyncio.get_running_loop()

        def deciding(asked: int | None, greet: bool, picture: Picture) -> Deciding:
            def decide(found: StoredGame | None) -> tuple[Found, Body[StoredGame] | None]:
                game = _found(found)
                if game.already is not None:
                    return (game, None), None
                if asked is not None and game.version != asked:
                    raise GameError(OUT_OF_DATE)
                returning = self.returning if greet else None
                prelude = returning(channel_id, game.state, user_id) if returning else None
                if prelude is not None:
                    return (game, prelude), None
                decided = self._decided(channel_id, user_id, game.state, check(game.state))
                planned = self._planned(
                    game,
                    user_id,
                    decided,
                    picture,
                    loop,
                    interaction_id=interaction_id,
                    window_message=window_message,
                    also=also,
                )
                return (game, planned), planned.write

            return decide

        async with self._locks[channel_id]:
            for attempt in (1, 2):
                picture = Picture()
                try:
                    with picture.dropped_if_failed():
                        read = deciding(version, welcome, picture)
                        (game, planned), stored = await self.store.load_then_append(
                            channel_id, interaction_id, read
                        )
                        if isinstance(planned, Prelude):
                            await planned.then(await self._prelude(game, planned, loop))
                            read = deciding(None, False, picture)  # theirs now, on the game as it is since
                            (game, planned), stored = await self.store.load_then_append(
                                channel_id, interaction_id, read
                            )
                        if planned is None:
                            done = game.already
                            assert done is not None
                            return Outcome(
                                game.state, done.events, done.version, before=game.state, repeated=True
                            )
                        assert isinstance(planned, Planned) and stored is not None
                        return await self._followed(planned, stored, picture)
                except StaleGame:
                    if attempt == 2:
                        raise GameError("The game changed under this command: try again") from None
        raise AssertionError("unreachable")

    def _decided(self, channel_id: str, user_id: str, state: GameState, command: Command) -> Decided:
        """``command`` applied to ``state`` with fresh dice, and what is written of it made (in
        the thread the game was read in, off the event loop)."""
        started = time.perf_counter()
        try:
            after, events = apply(state, command, self.dice())
        except IllegalCommand as refusal:
            log.info("refused", extra={"channel": channel_id, "user": user_id, "reason": str(refusal)})
            raise GameError(str(refusal)) from refusal
        return Decided(command, after, events, started, Written.of(after, command, events))

    def _planned(
        self,
        game: StoredGame,
        user_id: str,
        decided: Decided,
        picture: Picture,
        loop: asyncio.AbstractEventLoop,
        *,
        interaction_id: str | None = None,
        window_message: str | None = None,
        also: Also | None = None,
    ) -> Planned:
        """The write of a command decided on the game as loaded (else :class:`StaleGame`), made
        where it was decided. Its spectators' picture (:attr:`picturing`; none for a card that
        shows none, :func:`~bot.services.outcome.unpictured`) is begun on the event loop at once
        (``loop``: a thread-safe call, the loop being free while it waits for the commit), to be
        drawn while the write commits, in ``picture``, which drops it if the write or what
        follows it fails: nothing of an action not stored is shown."""
        command, state, events, _, written = decided
        if self.picturing is not None and picture.wanted:
            scene = Scene(game.state, state, events, game.as_json, written.state, written.events)
            begin = self.picturing
            loop.call_soon_threadsafe(picture.begin, lambda: begin(scene))
        window = self.clocks.window_time(game, state)
        committed: list[Callable[[], None]] = []
        write = self.store.appending(
            game,
            user_id,
            command,
            events,
            state,
            window.deadline,
            interaction_id=interaction_id,
            window_message=window_message,
            with_it=self._writing_with(game, user_id, state, committed, also),
            written=written,
        )
        return Planned(game, user_id, decided, window, committed, write)

    async def _prelude(self, game: StoredGame, prelude: Prelude, loop: asyncio.AbstractEventLoop) -> Outcome:
        """A command stored on its own before a user's (:class:`Prelude`): decided off the event
        loop, then written."""
        picture = Picture()
        with picture.dropped_if_failed():
            planned = await asyncio.to_thread(
                lambda: self._planned(
                    game,
                    prelude.user,
                    self._decided(game.channel_id, prelude.user, game.state, prelude.command),
                    picture,
                    loop,
                    also=prelude.also,
                )
            )
            stored = await self.store.transactions.write(planned.write)
            return await self._followed(planned, stored, picture)

    async def _followed(self, planned: Planned, stored: StoredGame, picture: Picture) -> Outcome:
        """What follows a stored command (its window's timer, what the hooks asked for once it
        committed, the game-over news); its outcome carries its picture, if one was begun."""
        game, user_id, (command, state, events, started, _), window, committed, _ = planned
        channel_id = game.channel_id
        deadline = window.running  # none while a referee has the clock paused
        self._follow_windows(channel_id, game.state, state, deadline)
        for then in committed:
            then()
        for follow in self.on_stored:
            follow(channel_id, stored.state)
        log.info(
            "applied",
            extra={
                "channel": channel_id,
                "user": user_id,
                "command": command.kind,
                "version": stored.version,
                "ms": round((time.perf_counter() - started) * 1000, 1),
            },
        )
        metrics.COMMANDS_STORED.labels(command.kind).inc()
        await self._after_commit(game, stored.state)
        return Outcome(
            stored.state,
            events,
            stored.version,
            deadline,
            stored.closed_window_message,
            before=game.state,
            threads=game.threads,
            picture=picture.drawing,
        )

    def _writing_with(
        self,
        game: StoredGame,
        user_id: str,
        after: GameState,
        committed: list[Callable[[], None]],
        also: Also | None = None,
    ) -> Callable[[Connection], None]:
        """The writes of :attr:`in_commit` that go into an action's own transaction, then the
        caller's (``also``); what each hook asks to be done once it is committed is put in
        ``committed``."""

        def write(connection: Connection) -> None:
            for hook in self.in_commit:
                then = hook(connection, game, user_id, after)
                if then is not None:
                    committed.append(then)
            if also is not None:
                also(connection, game.channel_id, game.version + 1)

        return write

    async def _after_commit(self, game: StoredGame, after: GameState) -> None:
        """What follows a stored action (the game-over news), each hook on its own. The action
        stands whatever happens here, so a failure is logged, never passed on as the action's,
        and never keeps the next hook from running."""
        channel_id, before = game.channel_id, game.state
        if after.phase is not Phase.OVER or before.phase is Phase.OVER:
            return
        for hook in self.on_game_over:
            try:
                await hook(channel_id, after)
            except Exception:
                log.exception("after a stored action in channel %s", channel_id)

    def _follow_windows(
        self, channel_id: str, before: GameState, after: GameState, deadline: datetime | None
    ) -> None:
        if before.pending and before.phase is Phase.REACTION:
            self.timers.cancel((channel_id, before.pending.window))
        if deadline and after.pending:
            self.timers.arm((channel_id, after.pending.window), deadline)

    async def undo(
        self, channel_id: str, user_id: str, count: int, reason: str, interaction_id: str | None = None
    ) -> Outcome:
        """A referee takes back the last ``count`` actions: the game is rebuilt from the newest
        snapshot before the first of them by replaying every command since that is still in
        force, with its recorded dice, off the event loop; the undo is stored as a command of its
        own, so the log keeps what was undone and why."""
        async with self._locks[channel_id]:
            game = await self._load(channel_id, interaction_id)
            if game.already is not None:  # the same interaction again: undone once
                done = game.already
                return Outcome(game.state, done.events, done.version, before=game.state, repeated=True)
            if user_id not in game.state.referees:
                raise GameError("Only the game's referees may do that")
            try:
                undo, state, produced = await self._rebuilt_without(channel_id, user_id, count, reason)
                window = self.clocks.window_time(game, state)
                committed: list[Callable[[], None]] = []
                stored = await self.store.append(
                    game,
                    user_id,
                    undo,
                    produced[-1],
                    state,
                    window.deadline,
                    interaction_id=interaction_id,
                    with_it=self._writing_with(game, user_id, state, committed),
                )
            except StaleGame:
                raise GameError("The game changed under this command: try again") from None
            deadline = window.running
            self._follow_windows(channel_id, game.state, state, deadline)
            for then in committed:
                then()
            for follow in self.on_stored:  # a turn of the bot's undone: it plays it again
                follow(channel_id, stored.state)
            await self._after_commit(game, stored.state)
            return Outcome(stored.state, produced[-1], stored.version, deadline, stored.closed_window_message)

    async def _window_due(self, key: WindowKey) -> bool:
        """Whether a window's timer still has to close it (see :meth:`ClockService.window_due`),
        in this process: the one that holds its claim."""
        channel_id, window = key  # type: ignore[misc]
        return await self.clocks.window_due(channel_id, window) and await self.claims.take(
            WINDOWS, (channel_id,), self.clock.now()
        )

    async def undo_command(self, channel_id: str, user_id: str, count: int, reason: str) -> UndoActions:
        """The undo of the last ``count`` actions as :meth:`undo` would store it now (to try it
        before a referee's seat is taken), read from the newest snapshot's log, not the whole."""
        undo, _, _ = await self._undo_in_log(channel_id, user_id, count, reason)
        return undo

    async def _rebuilt_without(
        self, channel_id: str, user_id: str, count: int, reason: str
    ) -> tuple[UndoActions, GameState, list[list[Event]]]:
        """The undo of the last ``count`` actions, the game rebuilt without them (replayed off
        the event loop) and the events of every command replayed, the undo's last."""
        undo, since, log = await self._undo_in_log(channel_id, user_id, count, reason)
        with refusals():
            start = await self.store.state_at(channel_id, since)
            state, produced = await asyncio.to_thread(
                replay, start, live_history([*log, (undo, [])], first=since + 1)
            )
        return undo, state, produced

    async def _undo_in_log(
        self, channel_id: str, user_id: str, count: int, reason: str
    ) -> tuple[UndoActions, int, list[tuple[Command, list[Event]]]]:
        """The undo of the last ``count`` actions, the newest snapshot with that many actions in
        force after it (or the game's start, 0), and the log since: an undo reads and replays
        only that much, however long the game."""
        if not reason.strip():
            raise GameError("Give a reason: every correction is logged with it")
        snapshots = await self.store.snapshot_seqs(channel_id)
        since = snapshots.pop()
        log = await self.store.log_between(channel_id, since)
        while snapshots and len(live_actions(log, first=since + 1)) < count:
            earlier = snapshots.pop()
            log = [*await self.store.log_between(channel_id, earlier, through=since), *log]
            since = earlier
        with refusals():
            undone = actions_to_undo(log, count, first=since + 1)
        return UndoActions(referee=user_id, reason=reason, undone=undone), since, log

    async def _window_expired(self, key: WindowKey) -> None:
        """The deadline passed: answer the window as "no reaction", unless it was answered. A
        failure is raised, so that the timers try again while the window is still due."""
        channel_id, window = key  # type: ignore[misc]
        state = await self.game(channel_id)
        if state.phase is not Phase.REACTION or state.pending is None or state.pending.window != window:
            return
        decline = DeclineReaction(side=state.pending.reactor_side, window=window)
        stored = await clock_store.window_of(self.store, channel_id)
        said = {"message_id": stored.message_id if stored else None}

        def notice(connection: Connection, _channel: str, seq: int) -> None:
            self.posts.write(connection, DeadlinePost(channel_id, str(seq), WINDOW_CLOSED, said))

        follows: list[Callable[[], Awaitable[None]]] = []
        missed = self.missing(state, decline.side, notice, follows)
        try:  # the close and its post still to make, in one transaction
            outcome = await self._act(channel_id, TIMER, lambda _: decline, also=missed)
        except GameError:
            if await self._window_due(key):
                raise  # a write that lost its race twice: tried again
            return  # answered by a player at the same moment
        post = DeadlinePost(channel_id, str(outcome.version), WINDOW_CLOSED, said)
        await self.posts.deliver(post, lambda: self._post_closed(channel_id, outcome))
        await followed(follows)

    def missing(
        self, state: GameState, side: str, also: Also, follows: list[Callable[[], Awaitable[None]]]
    ) -> Also:
        """``also``, and the side's missed deadline told (:attr:`on_missed`) in the same
        transaction; what that asks to be done once stored goes in ``follows``."""

        def write(connection: Connection, channel_id: str, seq: int) -> None:
            also(connection, channel_id, seq)
            if self.on_missed is not None and (then := self.on_missed(connection, state, channel_id, side)):
                follows.append(then)

        return write

    async def _post_closed(self, channel_id: str, outcome: Outcome) -> None:
        if self.on_window_closed:
            await self.on_window_closed(channel_id, outcome)

    async def _post_closed_again(self, post: DeadlinePost) -> None:
        """A window's "closed" post made from the stored close (the game as it is now)."""
        seq, message_id = int(post.post), post.payload["message_id"]
        outcome = await logged_outcome(self.store, post.channel_id, seq, message_id)
        if outcome is not None:  # else a new game took the channel since: nothing to tell
            await self._post_closed(post.channel_id, outcome)

    async def _load(self, channel_id: str, interaction_id: str | None = None) -> StoredGame:
        return _found(await self.store.load(channel_id, interaction_id))


class Decided(NamedTuple):
    """What an action was decided to be, where its game was read: the command, the state and
    events it makes, when the engine started on it, and what it writes."""

    command: Command
    state: GameState
    events: list[Event]
    started: float
    written: Written


class Planned(NamedTuple):
    """An action decided and its write made, where its game was read (GameService._planned):
    its reaction window's time, and what its write's hooks ask to be done once it committed."""

    game: StoredGame
    user_id: str
    decided: Decided
    window: WindowTime
    committed: list[Callable[[], None]]
    write: Body[StoredGame]


# what an action finds on the game as read: already applied (None), a prelude first, or its write
Found = tuple[StoredGame, Planned | Prelude | None]
# how an action is decided on the game as read (see GameService._act)
Deciding = Callable[[StoredGame | None], tuple[Found, Body[StoredGame] | None]]


class Picture:
    """The spectators' picture of one action (:attr:`GameService.picturing`), begun on the event
    loop once the action is decided, wherever that was, if its card shows one (made on the loop,
    it asks :func:`~bot.services.outcome.pictured` there: the thread that decides has none of the
    loop's context); dropped if the action fails, even before it was begun (what waited for the
    action cancelled while it was being decided)."""

    def __init__(self) -> None:
        self.drawing: asyncio.Future[Drawn] | None = None  # None: not begun, or not asked for
        self.wanted = pictured()  # asked on the event loop, where the action's card is known
        self._dropped = False

    def begin(self, drawing: Callable[[], asyncio.Future[Drawn]]) -> None:
        """On the event loop: the picture begun, unless its action failed already."""
        if not self._dropped:
            self.drawing = drawing()

    @contextmanager
    def dropped_if_failed(self) -> Iterator[None]:
        try:
            yield
        except BaseException:
            self._dropped = True
            if self.drawing is not None:
                self.drawing.cancel()
            raise


def _found(game: StoredGame | None) -> StoredGame:
    if game is None:
        raise GameError("There is no game in this channel: start one with /game new")
    return game


def refuse_replacing(state: GameState, user_id: str | None) -> None:
    """A new game may replace a finished one, or one in setup whose players (if any) include
    the user asking; one with referees that nobody has joined, only its seated referees (a
    referee role's holder takes a seat with any referee's command first)."""
    if state.phase is Phase.OVER:
        return
    if state.phase is not Phase.SETUP:
        raise GameError("A game is already running in this channel: finish or concede it first")
    others = [p for side in state.sides.values() for p in side.players if p != user_id]
    if others:
        raise GameError("Players have joined the game set up here: only they may replace it")
    if user_id is not None and held_by_referees(state, user_id):
        raise GameError("The game set up here has referees: only they may replace it before it starts")


def setup_text(table: str | BattleTable, forces: str, reaction_seconds: int) -> Reply:
    """What a new quick battle holds, in a few lines."""
    return Reply.of(
        f"A quick battle on the {table_title(table)}.",
        (Strong(side_label("allies")), f": {quick_forces()[forces]}"),
        (Strong(side_label("axis")), f": {quick_forces()['german']}"),
        window_text(reaction_seconds),
    )


def statistics_text(state: GameState) -> list[Line]:
    """What a new game's rule set leaves as the 2015 rules have it: each side whose nation it
    lists no units of its own for fights with its 2015 statistics."""
    rules = rules_of(state)
    lines: list[Line] = []
    for side in rules.sides_without_own_units(state):
        nations = either(sorted({NATION_NAMES[u.profile.nation] for u in state.units_of(side)}))
        lines.append(
            (
                f"{rules.title} list no {nations} units of their own: ",
                Strong(side_name(side)),
                " fight with their Iron Cross 2015 statistics.",
            )
        )
    return lines


def scenario_text(state: GameState, table: str | BattleTable, reaction_seconds: int) -> Reply:
    """What a new scenario game is, who plays which part, and what to do next."""
    planned = state.planned_scenario
    assert planned is not None
    scenario = find_scenario(planned.id)
    roles = [
        piece
        for i, (side, role) in enumerate(planned.roles.items())
        for piece in ((", " if i else "Roles: "), Strong(side_name(side)), f" {role}")
    ]
    plotted = "both at once and in secret until the game starts, " if planned.plotted else ""
    choice = (
        f" The attacker has chosen {planned.attacker_choice.replace('_', ' ')}."
        if planned.attacker_choice
        else ""
    )
    if planned.areas != "edges":
        choice += f" The sides set up {AREA_WORDS[planned.areas]} (pp. 28-31)."
    return Reply.of(
        (Strong(scenario.title), f" (p. {scenario.page}) on the {table_title(table)}: {scenario.summary}"),
        (*roles, f".{choice} {window_text(reaction_seconds)}"),
        (
            "Each side joins with its force (",
            Typed("/game join side: force:"),
            "), then sets up with ",
            Typed("/deploy"),
            f", {plotted}then ",
            Typed("/game start"),
            ".",
        ),
    )


def window_text(seconds: int) -> str:
    """How long reaction windows stay open, and the pace that gives it: ``pace:live`` (the
    default) or ``pace:daily`` when the game is played over days."""
    pace = next((name for name, pace_seconds in PACES.items() if pace_seconds == seconds), None)
    how = {
        "live": "the live pace; for a game played over days, pace:daily gives 24 hours",
        "daily": "the daily pace, for a game played over days",
    }.get(pace or "", "set with reaction_seconds")
    return f"Reaction windows stay open {duration_text(seconds)} ({how})."


def duration_text(seconds: int) -> str:
    """``90`` -> "1 minute 30 seconds", ``7200`` -> "2 hours"."""
    parts = []
    for name, size in (("hour", 3600), ("minute", 60), ("second", 1)):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {name}{'s' if count > 1 else ''}")
    return " ".join(parts) or "0 seconds"


def permitted(
    state: GameState, user_id: str, command: Command, admin: bool = False, server_roles: tuple[str, ...] = ()
) -> Command:
    """The permission table's answer (bot.services.permissions), as a refusal to show."""
    try:
        return authorise(state, user_id, command, admin=admin, server_roles=server_roles)
    except Refused as refusal:
        raise GameError(str(refusal)) from None
