"""The referee's clock (2015 rulebook p. 25: the referee runs the game): pause and resume every
timer of a game, give the open reaction window more time or close it now, and give a side whose
players are away a deadline, after which the game passes or declines for them.

Each request goes through the permission table and into the game's log (the engine's
:class:`~engine.commands.RefereeClock`; closing a window is the referee's "no reaction"). The
times are kept in storage (:mod:`bot.storage.clock_store`), so a restart finds a paused game
still paused and a deadline still running.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import Connection

from bot.services.deadline_posts import DeadlinePost, DeadlinePosts, followed, logged_outcome
from bot.services.outcome import GameError, Outcome, unpictured
from bot.services.permissions import Role, roles_of
from bot.storage import clock_store
from bot.storage.clock_store import PlayerDeadline
from bot.storage.deadline_claims import REFEREE_DEADLINES, Claims, stamp
from bot.storage.store import GameStore, StoredGame
from bot.storage.tables import REFEREE_DEADLINE
from engine.commands import Command, DeclineReaction, PassInitiative, RefereeClock
from engine.game_state import GameState
from engine.referee import pass_for_absent
from engine.runtime import Clock, ReactionTimers, WindowKey
from engine.state import Phase
from engine.wording import side_name

log = logging.getLogger(__name__)

ALREADY_PAUSED = "The clock is already paused: /ref resume starts it again"
NOT_PAUSED = "The clock is not paused: there is nothing to resume"


@dataclass(frozen=True)
class WindowTime:
    """When the reaction window a command leaves open closes, and whether its timer runs."""

    deadline: datetime | None
    paused: bool = False

    @property
    def running(self) -> datetime | None:
        """The deadline to arm now: none while the clock is paused."""
        return None if self.paused else self.deadline


class Games(Protocol):
    """What the clock needs of the game service that makes it: its store, clock and reaction
    timers, the game of a channel, and a way to act in it."""

    store: GameStore
    clock: Clock
    timers: ReactionTimers
    claims: Claims
    posts: DeadlinePosts
    # writes that go into every action's own transaction (see ``GameService.in_commit``)
    in_commit: list[Callable[[Connection, StoredGame, str, GameState], Callable[[], None] | None]]

    async def game(self, channel_id: str) -> GameState: ...

    def missing(
        self,
        state: GameState,
        side: str,
        also: Callable[[Connection, str, int], None],
        follows: list[Callable[[], Awaitable[None]]],
    ) -> Callable[[Connection, str, int], None]: ...

    async def act(
        self,
        channel_id: str,
        user_id: str,
        command: Command,
        *,
        interaction_id: str | None = None,
        also: Callable[[Connection, str, int], None] | None = None,
    ) -> Outcome: ...


class ClockService:
    """The timers a referee controls, beside the game service's reaction windows.
    ``on_deadline_passed(channel, text, outcome)`` hears what the game did at a deadline."""

    def __init__(self, games: Games) -> None:
        self.games = games
        fire = games.claims.renewing(REFEREE_DEADLINES, games.clock, self._deadline_passed)
        self.deadlines = ReactionTimers(
            games.clock, fire, still_due=self._deadline_due, limit=games.timers.limit
        )
        self.on_deadline_passed: Callable[[str, str, Outcome | None], Awaitable[None]] | None = None
        self.resumed: list[Callable[[str], Awaitable[None]]] = []  # other timers of a channel to re-arm
        games.posts.senders[REFEREE_DEADLINE] = self._post_passed
        games.in_commit.append(self.deadlines_ended)

    # -- what the game service asks ----------------------------------------------------------

    def window_time(self, game: StoredGame, after: GameState) -> WindowTime:
        """A window still open after a command keeps its deadline; a new one gets the game's
        full time, counted from now or, while the clock is paused, from the pause (both as
        loaded with the game). Plain work, done where the command was decided."""
        if after.phase is not Phase.REACTION or after.pending is None:
            return WindowTime(None)
        paused_at = game.paused_at
        before = game.state.pending
        if game.state.phase is Phase.REACTION and before and before.window == after.pending.window:
            stored = game.window
            if stored is not None and stored.window == before.window:
                return WindowTime(stored.deadline, paused_at is not None)
        start = paused_at or self.games.clock.now()
        return WindowTime(start + timedelta(seconds=game.reaction_seconds), paused_at is not None)

    def deadlines_ended(
        self, connection: Connection, game: StoredGame, user_id: str, after: GameState
    ) -> Callable[[], None] | None:
        """Written with each action (``connection``: its transaction): a player of a side with a
        deadline (as loaded with ``game``) has acted, so the deadline is off; a finished game
        keeps none. Once the action is stored, their timers go."""
        channel_id = game.channel_id
        ended = [
            side
            for side in sorted(game.deadline_sides)
            if after.phase is Phase.OVER or user_id in getattr(after.sides.get(side), "players", ())
        ]
        if not ended:
            return None
        clock_store.drop_deadlines(connection, channel_id, ended)

        def cancel() -> None:
            for side in ended:
                self.deadlines.cancel((channel_id, side))

        return cancel

    async def window_due(self, channel_id: str, window: int) -> bool:
        """A window still has to close at its deadline while it is the one stored open, its
        deadline has passed and the game's clock is not paused."""
        stored = await clock_store.window_of(self.games.store, channel_id)
        if stored is None or stored.window != window or stored.deadline > self.games.clock.now():
            return False
        return not await self.is_paused(channel_id)

    async def rearm(self) -> None:
        """After a start-up: every stored window and deadline runs again with the time it has
        left, except in games whose clock is paused; those already past fall due at once."""
        store = self.games.store
        paused = await clock_store.paused_channels(store)
        windows = [w for w in await store.open_windows() if w.channel_id not in paused]
        self.games.timers.rearm(((w.channel_id, w.window), w.deadline) for w in windows)
        deadlines = await clock_store.player_deadlines(store)
        running = [d for d in deadlines if d.channel_id not in paused]
        self.deadlines.rearm(((d.channel_id, d.side), d.deadline) for d in running)

    async def close(self) -> None:
        await self.deadlines.close()

    # -- the referee's requests ------------------------------------------------------------

    async def pause(self, channel_id: str, user_id: str, interaction_id: str | None = None) -> Outcome:
        """Stop every timer of the game; the open window keeps the time it has left. The pause
        is stored with the referee's command, once per interaction (``interaction_id``)."""
        await self._refereed(channel_id, user_id)
        now = self.games.clock.now()

        def stop(connection: Connection, _channel: str, _seq: int) -> None:
            if not clock_store.pause_in(connection, channel_id, now):
                raise GameError(ALREADY_PAUSED)

        command = RefereeClock(referee=user_id, action="pause")
        outcome = await self.games.act(channel_id, user_id, command, interaction_id=interaction_id, also=stop)
        for timers in (self.games.timers, self.deadlines):
            for key in [k for k in timers.armed if k[0] == channel_id]:  # type: ignore[index]
                timers.cancel(key)
        return replace(outcome, window_deadline=None)

    async def resume(self, channel_id: str, user_id: str, interaction_id: str | None = None) -> Outcome:
        """Start the clock again: the open window and each deadline get back the time they had
        left, from now."""
        await self._refereed(channel_id, user_id)
        now = self.games.clock.now()

        def start(connection: Connection, _channel: str, _seq: int) -> None:
            if not clock_store.resume_in(connection, channel_id, now):
                raise GameError(NOT_PAUSED)

        command = RefereeClock(referee=user_id, action="resume")
        outcome = await self.games.act(
            channel_id, user_id, command, interaction_id=interaction_id, also=start
        )
        window = await clock_store.window_of(self.games.store, channel_id)
        if window is not None:
            self.games.timers.arm((channel_id, window.window), window.deadline)
        for deadline in await clock_store.player_deadlines(self.games.store, channel_id):
            self.deadlines.arm((channel_id, deadline.side), deadline.deadline)
        for rearm in self.resumed:
            await rearm(channel_id)
        return replace(outcome, window_deadline=window.deadline if window else None)

    async def extend(
        self, channel_id: str, user_id: str, minutes: int, interaction_id: str | None = None
    ) -> Outcome:
        """Give the open reaction window ``minutes`` more."""
        await self._refereed(channel_id, user_id)

        def extend(connection: Connection, _channel: str, _seq: int) -> None:
            if clock_store.extend_window_in(connection, channel_id, timedelta(minutes=minutes)) is None:
                raise GameError("No reaction window is open")  # the engine saw one: never reached

        command = RefereeClock(referee=user_id, action="extend", minutes=minutes)
        outcome = await self.games.act(
            channel_id, user_id, command, interaction_id=interaction_id, also=extend
        )
        window = await clock_store.window_of(self.games.store, channel_id)
        if window is None or await self.is_paused(channel_id):
            return replace(outcome, window_deadline=None)
        self.games.timers.arm((channel_id, window.window), window.deadline)
        return replace(outcome, window_deadline=window.deadline)

    async def close_window(self, channel_id: str, user_id: str, interaction_id: str | None = None) -> Outcome:
        """Close the open reaction window now, as its deadline would: the reacting side did not
        react."""
        await self._refereed(channel_id, user_id)

        def decline(state: GameState) -> DeclineReaction:
            if state.phase is not Phase.REACTION or state.pending is None:
                raise GameError("No reaction window is open")
            return DeclineReaction(side=state.pending.reactor_side, window=state.pending.window)

        return await self.games.act(channel_id, user_id, decline, interaction_id=interaction_id)

    async def set_deadline(
        self, channel_id: str, user_id: str, side: str, hours: float, interaction_id: str | None = None
    ) -> tuple[Outcome, datetime | None]:
        """Give ``side``, which the game waits for, ``hours`` to act; then the game passes or
        declines for it in the referee's name. Also returns when the deadline falls (None while
        the clock is paused: it falls ``hours`` after the clock runs again)."""
        await self._refereed(channel_id, user_id)
        now = self.games.clock.now()

        def keep(connection: Connection, _channel: str, _seq: int) -> None:
            due = (clock_store.paused_since_in(connection, channel_id) or now) + timedelta(hours=hours)
            clock_store.set_player_deadline_in(connection, PlayerDeadline(channel_id, side, due, user_id))

        command = RefereeClock(referee=user_id, action="deadline", side=side, hours=hours)
        outcome = await self.games.act(channel_id, user_id, command, interaction_id=interaction_id, also=keep)
        kept = [d for d in await clock_store.player_deadlines(self.games.store, channel_id) if d.side == side]
        if not kept or await self.is_paused(channel_id):
            return outcome, None
        self.deadlines.arm((channel_id, side), kept[0].deadline)
        return outcome, kept[0].deadline

    async def check_paused(self, channel_id: str, paused: bool) -> None:
        """Refuse a pause of a paused clock (``paused=False``), or a resume of a running one."""
        if await self.is_paused(channel_id) is not paused:
            raise GameError(NOT_PAUSED if paused else ALREADY_PAUSED)

    async def is_paused(self, channel_id: str) -> bool:
        return await clock_store.paused_since(self.games.store, channel_id) is not None

    async def _refereed(self, channel_id: str, user_id: str) -> GameState:
        """The channel's game, if the user is one of its referees (the permission table's role)."""
        state = await self.games.game(channel_id)
        if Role.REFEREE not in roles_of(state, user_id, None):
            raise GameError("Only the game's referees may do that")
        return state

    async def _due_deadline(self, key: WindowKey) -> PlayerDeadline | None:
        """The side's stored deadline, if it has passed and the game's clock runs."""
        channel_id, side = key  # type: ignore[misc]
        stored = await clock_store.player_deadlines(self.games.store, channel_id)
        due = next((d for d in stored if d.side == side), None)
        if due is None or due.deadline > self.games.clock.now() or await self.is_paused(channel_id):
            return None
        return due

    async def _deadline_due(self, key: WindowKey) -> bool:
        """Due, and this process holds its claim (bot.storage.deadline_claims)."""
        if await self._due_deadline(key) is None:
            return False
        return await self.games.claims.take(REFEREE_DEADLINES, key, self.games.clock.now())  # type: ignore[arg-type]

    async def _deadline_passed(self, key: WindowKey) -> None:
        """A side's deadline fell due: pass or decline for it, unless it acted in time, and drop
        the stored deadline, writing what to tell the channel with it; then tell it. A failure
        is raised, for the timers to try again."""
        due = await self._due_deadline(key)
        if due is None:  # the side acted just as it fell due
            return
        follows: list[Callable[[], Awaitable[None]]] = []
        post = await self._act_for_absent(due, follows)
        if post is None:  # another process dropped it first
            return
        log.info("deadline passed", extra={"channel": due.channel_id, "side": due.side})
        await self.games.posts.deliver(post)
        await followed(follows)

    async def _post_passed(self, post: DeadlinePost) -> None:
        """Tell the channel a deadline passed, and what the game did (from its log)."""
        seq = post.payload["seq"]
        outcome = None
        if seq is not None:
            outcome = await logged_outcome(self.games.store, post.channel_id, seq, post.payload["message_id"])
        if self.on_deadline_passed:
            await self.on_deadline_passed(post.channel_id, post.payload["text"], outcome)

    async def _act_for_absent(
        self, due: PlayerDeadline, follows: list[Callable[[], Awaitable[None]]]
    ) -> DeadlinePost | None:
        """Pass or decline for a side that missed its deadline, dropping it, in one transaction
        with the post telling the channel and the miss counted (:meth:`GameService.missing`:
        what that asks for once stored goes in ``follows``); the post, or None if the deadline
        was gone. A refusal of the game as it stands is told; any other failure is raised."""
        side = due.side
        channel_id = due.channel_id
        post = DeadlinePost(channel_id, f"deadline {side} {stamp(due.deadline)}", REFEREE_DEADLINE, {})
        game = await self.games.store.load(channel_id)
        if game is None or (command := pass_for_absent(game.state, side)) is None:
            text = (
                f"The referee's deadline for {side_name(side)} has passed, but the game is not waiting for "
                "them to act or react: nothing is done"
            )
            return await self._drop_telling(due, replace(post, payload=_said(text)))
        done, what = (
            ("passes the initiative", "pass the initiative")
            if isinstance(command, PassInitiative)
            else ("declines the reaction", "decline the reaction")
        )
        window = await clock_store.window_of(self.games.store, channel_id)
        message_id = window.message_id if window else None
        text = (
            f"{side_name(side, start=True)} did not act by the referee's deadline: the game {done} for them"
        )

        def drop(connection: Connection, _channel: str, seq: int) -> None:
            if not clock_store.drop_held_deadline(connection, channel_id, side):
                raise GameError("The deadline was dropped meanwhile")  # by another process
            self.games.posts.write(connection, replace(post, payload=_said(text, seq, message_id)))

        missed = self.games.missing(game.state, side, drop, follows)
        try:  # the deadline is dropped with the game's change: a second firer finds it gone
            with unpictured():  # told from the log (_post_passed): a picture begun here goes unused
                outcome = await self.games.act(channel_id, due.referee, command, also=missed)
        except GameError as refusal:
            now = await self.games.store.load(channel_id)
            if now is None or now.version != game.version:
                raise  # refused on a game that has changed since (a lost race): tried again
            text = (
                f"{side_name(side, start=True)} did not act by the referee's deadline, but the game cannot "
                f"{what}: {refusal}"
            )
            if isinstance(command, PassInitiative):  # the rule stands (p. 5); the referee may step in
                text += ". A referee may give the initiative to the other side: /ref initiative"
            return await self._drop_telling(due, replace(post, payload=_said(text)))
        return replace(post, payload=_said(text, outcome.version, message_id))

    async def _drop_telling(self, due: PlayerDeadline, post: DeadlinePost) -> DeadlinePost | None:
        """Drop the deadline, writing ``post`` with it; None if it was gone already."""

        def drop(connection: Connection) -> DeadlinePost | None:
            if not clock_store.drop_held_deadline(connection, due.channel_id, due.side):
                return None
            self.games.posts.write(connection, post)
            return post

        return await self.games.store.transactions.write(drop)


def _said(text: str, seq: int | None = None, message_id: str | None = None) -> dict[str, object]:
    """A referee deadline's post: its text, and the command the game made at it (its log's seq)
    with the window message whose buttons go."""
    return {"text": text, "seq": seq, "message_id": message_id}
