"""What a user owes, across every channel: games waiting for them and campaigns waiting for
their side's orders (``/games mine``), and :func:`game_wait`, whom a game waits for and for what,
which the turn pings (:mod:`bot.services.ping_service`) also use. Both say when a game stops
waiting by itself (:class:`Deadlines`): the reaction window closes, or the referee's deadline for
the side falls and the game passes or declines for it. While a referee holds a game's clock, it
has no such moment.

Whom a game waits for: the players of the side :func:`engine.game.awaiting` names (the side to
act, to react, to choose, to call reserves, or to choose who starts). In a team game, when that
side acts or reacts, only its players holding tokens (and its commanding officer while bonus
tokens are left to hand out) are waited for; all its players when none holds any. During set-up
the side placing next (both sides at once in a plotted set-up) is waited for, in a team game
only its players with units still to place; once everyone has joined a game with nothing to set
up, every player is waited for to start it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.reply import Channel, Line, Moment, Reply, Strong
from bot.storage import clock_store
from bot.storage.campaign_store import CampaignStore
from bot.storage.store import GameStore
from engine.campaign import phases
from engine.campaign.calendar import SIDE_NAMES
from engine.deployment.placing import whose_turn
from engine.game import awaiting
from engine.game_state import GameState
from engine.state import STAND_IN, Phase
from engine.wording import side_name

WAITING_FOR = {
    Phase.INITIATIVE: "{side} won the initiative: choose who starts (/initiative)",
    Phase.RESERVES: "{side} call their reserves (/reserves)",
    Phase.ACTIVE: "{side} to act: declare an order or pass (/act, /pass)",
    Phase.REACTION: "{side} may react (/react) or let it pass (/noreact)",
    Phase.CHOICE: "{side} to choose (/choose)",
}


@dataclass(frozen=True)
class Wait:
    """Whom a game waits for, and for what."""

    players: tuple[str, ...]
    what: str


def game_wait(state: GameState) -> Wait | None:
    """Whom the game waits for now (see the module's docstring), or None: nobody in particular."""
    if state.phase is Phase.SETUP:
        return _set_up_wait(state)
    side = awaiting(state)
    if side is None or state.phase not in WAITING_FOR:
        return None
    if state.phase in (Phase.ACTIVE, Phase.REACTION):
        players = _holding_tokens(state, side)
    else:
        players = tuple(state.sides[side].players)
    players = tuple(p for p in players if p != STAND_IN)  # the bot plays its turns unasked
    return Wait(players, WAITING_FOR[state.phase].format(side=side_name(side))) if players else None


def _holding_tokens(state: GameState, side: str) -> tuple[str, ...]:
    players = tuple(state.sides[side].players)
    team = state.sides[side].team
    if team is None:
        return players
    holding = tuple(p for p in players if team.tokens.get(p, 0) > 0 or (p == team.co and team.bonus > 0))
    return holding or players


def _set_up_wait(state: GameState) -> Wait | None:
    plan = state.deployment
    if plan is not None:
        placing = [s for s, p in plan.sides.items() if not p.done] if plan.order == "plotted" else []
        placing = placing or [side for side in [whose_turn(plan)] if side]
        players = tuple(p for side in placing for p in _setting_up(state, side))
        setting_up = " and ".join(side_name(side) for side in placing)
        return Wait(players, f"{setting_up} to set up (/deploy)") if players else None
    everyone = [p for side in state.sides.values() for p in side.players]
    if state.planned_scenario is None and all(side.players for side in state.sides.values()):
        return Wait(tuple(everyone), "everyone has joined: start the game (/game start)")
    return None


def _setting_up(state: GameState, side: str) -> tuple[str, ...]:
    players = tuple(state.sides[side].players)
    if state.sides[side].team is None or state.deployment is None:
        return players
    waiting = {state.units[u].player for u in state.deployment.sides[side].waiting if u in state.units}
    return tuple(p for p in players if p in waiting) or players


@dataclass(frozen=True)
class Deadlines:
    """When the games stop waiting by themselves: each channel's open reaction window closes
    (by channel), and the referee's deadline for a side falls (by channel and side), after which
    the game declines or passes for that side; none in the channels whose clock is ``paused``."""

    windows: dict[str, datetime]
    sides: dict[tuple[str, str], datetime]
    paused: set[str]

    def window(self, channel_id: str, state: GameState) -> datetime | None:
        running = state.phase is Phase.REACTION and channel_id not in self.paused
        return self.windows.get(channel_id) if running else None

    def referees(self, channel_id: str, state: GameState, players: tuple[str, ...]) -> datetime | None:
        """The soonest referee's deadline of a side any of ``players`` plays."""
        if channel_id in self.paused:
            return None
        sides = [name for name, side in state.sides.items() if set(side.players) & set(players)]
        return min(filter(None, (self.sides.get((channel_id, side)) for side in sides)), default=None)

    def first(self, channel_id: str, state: GameState, players: tuple[str, ...]) -> datetime | None:
        """When the game stops waiting for ``players``, if it does by itself."""
        moments = [self.window(channel_id, state), self.referees(channel_id, state, players)]
        return min(filter(None, moments), default=None)


async def deadlines(store: GameStore) -> Deadlines:
    return Deadlines(
        {window.channel_id: window.deadline for window in await store.open_windows()},
        {(d.channel_id, d.side): d.deadline for d in await clock_store.player_deadlines(store)},
        await clock_store.paused_channels(store),
    )


class OwedService:
    """``/games mine``: a reply whose channels and moments each front end writes (in Discord a
    channel link and a relative timestamp)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.campaigns = CampaignStore(store)

    async def mine(self, user_id: str) -> Reply:
        """Every game and campaign waiting for the user, soonest deadline first."""
        owed = [*await self._games(user_id), *await self._campaigns(user_id)]
        if not owed:
            return Reply.of("Nothing waits for you: no game or campaign needs your move.", private=True)
        owed.sort(key=lambda item: (item[0] is None, item[0] or datetime.min.replace(tzinfo=UTC)))
        return Reply.of("Waiting for you:", *(("- ", *line) for _, line in owed), private=True)

    async def _games(self, user_id: str) -> list[tuple[datetime | None, Line]]:
        due = await deadlines(self.store)
        owed = []
        for game in await self.store.unfinished():
            wait = game_wait(game.state)
            if wait is None or user_id not in wait.players:
                continue
            line: Line = (Channel(game.channel_id), f": game: {wait.what}")
            window = due.window(game.channel_id, game.state)
            if window is not None:
                line += (", the window closes ", Moment(window))
            referees = due.referees(game.channel_id, game.state, (user_id,))
            if referees is not None:
                line += (", the referee's deadline ", Moment(referees), " (then the game acts for your side)")
            if game.channel_id in due.paused:
                line += (", the referee has stopped the clock",)
            owed.append((due.first(game.channel_id, game.state, (user_id,)), line))
        return owed

    async def _campaigns(self, user_id: str) -> list[tuple[datetime | None, Line]]:
        owed = []
        for stored in await self.campaigns.unfinished():
            campaign, index = stored.campaign, stored.campaign.open_phase
            side = phases.side_of(campaign, user_id)
            if index is None or side is None or side not in phases.owing(campaign, index):
                continue
            phase = campaign.phases[index]
            grace = (", grace until ", Moment(phase.closes_at)) if phase.grace else ()
            line = (
                Channel(stored.channel_id),
                ": campaign ",
                Strong(campaign.name),
                f", {phases.describe_phase(index, phase)}: the {SIDE_NAMES[side]} side owes "
                f"{phases.WHAT_TO_SUBMIT[phase.kind]} (/campaign submit), deadline ",
                Moment(phase.deadline),
                *grace,
            )
            owed.append((phase.deadline, line))
        return owed
