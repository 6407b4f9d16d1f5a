"""The stand-in's turns (:mod:`engine.stand_in`): a side whose one player is the stand-in plays
by itself, through the same path as a player's command; and the sides it takes over and hands
back.

After every stored action the game service tells this service the game as it now stands; when
the game waits for a side the stand-in plays, a timer of its own is armed at once (one a
channel). When it fires, the game is loaded, the stand-in decides in a worker process (off the
event loop's, :mod:`bot.worker_pool`; a thread when there are none), and its order is applied
through :meth:`GameService.act` as the stand-in's user, for the version it was decided on:
recorded in the log with its dice like any player's, undoable by a referee, refused like any
player's if the game moved on meanwhile. Its own stored action then arms the next turn, if the
game waits for it again. After a restart, :meth:`resume` arms every unfinished game that waits
for it.

A daily game may hand a side over by itself (:attr:`GameState.stand_in_after`): each deadline
the side misses (a reaction window its timer closed, a referee's deadline passed) is counted in
the transaction of what the game did for it (:mod:`bot.storage.missed_store`), and every action
of its player starts the count afresh. Once the count reaches the game's number, the bot takes
the side over (the engine's ``stand_in`` correction in the bot's own name: logged, undoable);
the player's next command hands it back first, then goes on. A player may also hand their own
side to the bot and take it back (:meth:`hand`).

What the stand-in does by itself (its turns, a side taken over or handed back) is told through
the outbox of deadline posts (:mod:`bot.services.deadline_posts`): written with the action,
made after it, tried again when it fails, and made by another process when this one dies.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import Connection

from bot.services.deadline_posts import DeadlinePost, logged_outcome
from bot.services.game_service import GameError, GameService, Prelude
from bot.services.outcome import Outcome
from bot.storage.missed_store import count_in, forgive_in, missed_counts, missed_in
from bot.storage.store import StoredGame
from bot.storage.tables import STAND_IN_POST
from bot.worker_pool import WorkerDied, WorkerPool
from engine.commands import Command, RefereeCorrection
from engine.game_state import GameState
from engine.runtime import ReactionTimers
from engine.stand_in import ORDER, STAND_IN, order_in_json, side_stood_in, stand_in_command, taken_over_from
from engine.wording import counted, side_name

log = logging.getLogger(__name__)

PLAYS = "The stand-in plays."
TAKES_OVER = "The stand-in takes over."
HANDS_BACK = "The stand-in hands back."
FOR_ITS_PLAYER = "The bot does not play for a team's side: hand the units to a team-mate"
AGAINST_ITSELF = "The bot plays the other side: it plays no game against itself"


class StandIns:
    """The sides the bot plays, deciding in ``workers``; ``on_acted(channel, heading, outcome)``
    hears what it did by itself (the front end posts it)."""

    def __init__(self, games: GameService, workers: WorkerPool) -> None:
        self.games = games
        self.workers = workers
        self.on_acted: Callable[[str, str, Outcome], Awaitable[None]] | None = None
        self.timers = ReactionTimers(games.clock, self._turn, still_due=self._due)
        games.on_stored.append(self._follow)
        games.in_commit.append(self._forgiven)
        games.on_missed = self._missed
        games.returning = self._returning
        games.posts.senders[STAND_IN_POST] = self._post_again

    def _follow(self, channel_id: str, state: GameState) -> None:
        """After a command is stored: the bot's turn, if it is to act. Once it has stopped (the
        process shutting down), the turn is left stored for :meth:`resume` at the next start."""
        if side_stood_in(state) is not None and not self.timers.closed:
            self.timers.arm(channel_id, self.games.clock.now())

    async def resume(self) -> None:
        """After a start-up: every unfinished game that waits for the stand-in plays on (only
        games a side of which the bot plays are parsed, off the event loop), and a side that
        missed the game's number of deadlines is taken over, if the process stopped first."""
        for channel_id, state in await self.games.store.stood_in():
            self._follow(channel_id, state)
        for channel_id, side, missed in await missed_counts(self.games.store):
            await self._take_over_due(channel_id, side, missed)

    async def settled(self) -> None:
        """Wait until the stand-in has no turn to take (the console, and tests, before the next
        line)."""
        while self.timers.armed or self.timers.overdue:
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        await self.timers.close()

    # -- its turns -------------------------------------------------------------------------

    async def _due(self, channel_id: object) -> bool:
        try:
            state = await self.games.game(str(channel_id))
        except GameError:
            return False  # the channel's game is gone
        return side_stood_in(state) is not None

    async def _turn(self, channel_id: object) -> None:
        """The stand-in's order, decided on the game as loaded and applied for that version,
        with its post to make."""
        channel = str(channel_id)
        state, version = await self.games.game_now(channel)
        side = side_stood_in(state)
        if side is None:
            return
        try:
            command = await self.decide(state, side, version)
        except WorkerDied:  # the same game and seed would kill them again: not tried again
            log.error(
                "the stand-in's turn for %s in channel %s (version %s) killed the workers deciding it:"
                " it is left to a referee, or to the next start",
                side,
                channel,
                version,
                exc_info=True,
            )
            return
        try:
            outcome = await self.games.act(
                channel, STAND_IN, command, version=version, also=self._telling(PLAYS)
            )
        except GameError:
            if (await self.games.game_now(channel))[1] == version:
                raise  # refused on the game it was decided on: tried again, and logged
            return  # a player's command came first: the turn is armed again if still due
        await self._deliver(channel, PLAYS, outcome)

    async def decide(self, state: GameState, side: str, seed: int) -> Command:
        """The stand-in's order for ``side``, decided in a worker process (or a thread)."""
        made = await self.workers.run(
            order_in_json,
            lambda: (state.model_dump_json(), side, seed),
            lambda: ORDER.dump_json(stand_in_command(state, side, seed)),
        )
        return ORDER.validate_json(made)

    # -- what it tells ---------------------------------------------------------------------

    def _telling(self, heading: str) -> Callable[[Connection, str, int], None]:
        """The write, in an action's transaction, of the post telling it."""

        def write(connection: Connection, channel_id: str, seq: int) -> None:
            self.games.posts.write(connection, _post(channel_id, seq, heading))

        return write

    async def _deliver(self, channel_id: str, heading: str, outcome: Outcome) -> None:
        post = _post(channel_id, outcome.version, heading)
        await self.games.posts.deliver(post, lambda: self._tell(channel_id, heading, outcome))

    async def _tell(self, channel_id: str, heading: str, outcome: Outcome) -> None:
        if self.on_acted is not None:
            await self.on_acted(channel_id, heading, outcome)

    async def _post_again(self, post: DeadlinePost) -> None:
        """A post made from its row (after a failure, or by another process): the action from
        the game's log, the game as it is now."""
        outcome = await logged_outcome(self.games.store, post.channel_id, post.payload["seq"], None)
        if outcome is not None:  # else a new game took the channel since: nothing to tell
            await self._tell(post.channel_id, post.payload["heading"], outcome)

    # -- the sides it takes over by itself -------------------------------------------------

    def _missed(
        self, connection: Connection, state: GameState, channel_id: str, side: str
    ) -> Callable[[], Awaitable[None]] | None:
        """A side missed a deadline (in the transaction of what the game did for it): counted,
        in a game that hands sides over; the take-over, once the count reaches its number."""
        after = state.stand_in_after
        if not after or not _played_by_one(state, side):
            return None
        if missed_in(connection, channel_id, side) < after:
            return None
        return lambda: self._take_over(channel_id, side)

    def _forgiven(self, connection: Connection, game: StoredGame, user_id: str, _after: GameState) -> None:
        """A player acted (in their action's transaction): their side's count starts afresh."""
        if not game.state.stand_in_after or user_id == STAND_IN:
            return None
        side = next((s.name for s in game.state.sides.values() if user_id in s.players), None)
        if side is not None:
            forgive_in(connection, game.channel_id, [side])
        return None

    async def _take_over_due(self, channel_id: str, side: str, missed: int) -> None:
        """A side that had missed the game's number of deadlines when the process stopped."""
        try:
            state = await self.games.game(channel_id)
        except GameError:
            return
        if state.stand_in_after and missed >= state.stand_in_after and _played_by_one(state, side):
            try:
                await self._take_over(channel_id, side)
            except GameError:  # another process took it over first, or its player came back
                log.info("no side to take over", extra={"channel": channel_id, "side": side})

    async def _take_over(self, channel_id: str, side: str) -> None:
        """The bot takes the side over, if it has missed the game's number of deadlines in a row
        (checked in the take-over's own transaction, which starts the count afresh); told."""
        state = await self.games.game(channel_id)
        after = state.stand_in_after
        reason = f"{counted(after, 'deadline')} missed in a row"

        def command(state: GameState) -> Command:
            if not _played_by_one(state, side):
                raise GameError(f"The bot already plays {side_name(side)}")
            return RefereeCorrection(referee=STAND_IN, reason=reason, change="stand_in", side=side, value=1)

        def due(connection: Connection, channel: str, seq: int) -> None:
            if count_in(connection, channel, side) < after:
                raise GameError(f"{side_name(side, start=True)} have not missed {reason}")
            forgive_in(connection, channel, [side])
            self._telling(TAKES_OVER)(connection, channel, seq)

        outcome = await self.games.act_as_game(channel_id, STAND_IN, command, also=due)
        log.info("the stand-in took a side over", extra={"channel": channel_id, "side": side})
        await self._deliver(channel_id, TAKES_OVER, outcome)

    def _returning(self, channel_id: str, state: GameState, user_id: str) -> Prelude | None:
        """A player whose side the bot took over gives a command: first, it is theirs again."""
        side = taken_over_from(state, user_id)
        if side is None:
            return None
        back = RefereeCorrection(
            referee=STAND_IN, reason=f"{user_id} is back", change="stand_in", side=side, value=0
        )
        return Prelude(
            STAND_IN,
            back,
            self._telling(HANDS_BACK),
            lambda outcome: self._deliver(channel_id, HANDS_BACK, outcome),
        )

    # -- a player's own side ---------------------------------------------------------------

    async def hand(
        self, channel_id: str, user_id: str, play: bool, interaction_id: str | None = None
    ) -> Outcome:
        """The player hands their own side to the bot (``play``), or takes it back; logged as the
        engine's ``stand_in`` correction in their name."""

        def command(state: GameState) -> Command:
            return handing(state, user_id, play)

        return await self.games.act_as_game(
            channel_id, user_id, command, interaction_id=interaction_id, welcome=play
        )


def handing(state: GameState, user_id: str, play: bool) -> RefereeCorrection:
    """A player's hand-over of their own side (``play``), or its taking back, as the engine stores
    it; refused for one who plays no side (or is not the one the bot plays for), a team's side
    and a side the bot already plays (or does not); the engine refuses to hand back a side a
    referee handed over (:func:`engine.referee._may_hand`)."""
    if play:
        side = next((s for s in state.sides.values() if user_id in s.players), None)
        stood_in = next((s for s in state.sides.values() if s.stood_in_for == user_id), None)
        if stood_in is not None:
            raise GameError(f"The bot already plays {side_name(stood_in.name)} for you")
        if side is None:
            raise GameError("Only a side's player may hand it to the bot: you play no side here")
        if side.team is not None:
            raise GameError(FOR_ITS_PLAYER)
        if _bot_plays_the_other(state, side.name):
            raise GameError(AGAINST_ITSELF)
    else:
        side = next((s for s in state.sides.values() if s.stood_in_for == user_id), None)
        if side is None:
            playing = any(user_id in s.players for s in state.sides.values())
            raise GameError(
                "The bot plays no side for you: you play yours"
                if playing
                else "Only a side's player may take it back from the bot: you play no side here"
            )
    return RefereeCorrection(
        referee=user_id, reason="by its player", change="stand_in", side=side.name, value=int(play)
    )


def _played_by_one(state: GameState, side: str) -> bool:
    """Whether one player plays the side, not the bot and not a team, against a side the bot does
    not play: what the bot may take over (it plays no game against itself, which would post a
    whole battle to a channel with nobody at the table)."""
    found = state.sides.get(side)
    if found is None or found.team is not None or _bot_plays_the_other(state, side):
        return False
    return len(found.players) == 1 and found.players != [STAND_IN]


def _bot_plays_the_other(state: GameState, side: str) -> bool:
    return any(s.players == [STAND_IN] for name, s in state.sides.items() if name != side)


def _post(channel_id: str, seq: int, heading: str) -> DeadlinePost:
    """The post of what the stand-in did by itself, named by the action's seq."""
    return DeadlinePost(channel_id, f"stand-in {seq}", STAND_IN_POST, {"seq": seq, "heading": heading})
