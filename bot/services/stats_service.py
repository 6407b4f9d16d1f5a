"""StatsService: ``/stats``, every die of a channel's game by player (see :mod:`engine.dice_stats`).

The dice come from the stored commands' events, each die counted for the player who owns the
unit it was rolled for, and from the channel's ``/roll`` and ``/chart`` log since the game began,
each counted for its roller. Dice of secret events (hidden units) and secret rolls are left out:
the statistics are shown to the whole channel. Several channels' dice add up into one report, for
campaigns.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from sqlmodel import select

from bot.services.dice_service import roll_text
from bot.storage.store import EVENTS, GameStore
from bot.storage.tables import CommandRow, GameRow, RollRow
from engine.dice import DiceSource, DieRoll
from engine.dice_stats import DiceReport, PlayerDie, dice_report, report_text
from engine.events import Event
from engine.game_state import GameState
from engine.rolls.charts import find_chart, roll_on_chart
from engine.rolls.expressions import roll
from engine.rolls.readback import dice_behind


@dataclass(frozen=True)
class DiceStats:
    report: DiceReport
    unread_rolls: int  # logged rolls whose dice could not be read back from their text
    sides: dict[str, list[str]]  # the sides each player played

    def named(self, name_of: Callable[[str], str]) -> Callable[[str], str]:
        """``name_of`` with the player's sides after the name: "<@301> (allies)"."""
        return lambda p: name_of(p) + (f" ({', '.join(self.sides[p])})" if p in self.sides else "")

    def text(self, name_of: Callable[[str], str] = str, *, fenced: bool = False) -> str:
        text = report_text(self.report, self.named(name_of), fenced=fenced)
        if self.unread_rolls:
            text += (
                f"\n({self.unread_rolls} logged roll(s) left out: their dice cannot be told "
                "for sure from what was shown)"
            )
        return text


class StatsService:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def stats(self, channel_ids: Sequence[str]) -> DiceStats:
        """The dice of the games in these channels (one for a game, several for a campaign)."""
        dice: list[PlayerDie] = []
        unread = 0
        sides: dict[str, list[str]] = {}
        for channel_id in channel_ids:
            game, commands, rolls = await self._load(channel_id)
            dice += game_dice(game, commands)
            for name, side in game.sides.items() if game else ():
                for player in side.players:
                    played = sides.setdefault(player, [])
                    if name not in played:
                        played.append(name)
            logged, unreadable = await asyncio.to_thread(logged_dice, rolls)
            dice += logged
            unread += unreadable
        return DiceStats(dice_report(dice), unread, sides)

    async def text(self, channel_id: str) -> str:
        """The channel's statistics as plain text (the console's ``/stats``)."""
        return (await self.stats([channel_id])).text()

    async def _load(self, channel_id: str) -> tuple[GameState | None, list[CommandRow], list[RollRow]]:
        async with self.store.sessions() as session:
            row = await session.get(GameRow, channel_id)
            commands = (
                await session.execute(
                    select(CommandRow).where(CommandRow.channel_id == channel_id).order_by(CommandRow.seq)
                )
            ).scalars()
            query = select(RollRow).where(RollRow.channel_id == channel_id, RollRow.secret == False)  # noqa: E712
            if row is not None:
                query = query.where(RollRow.created_at >= row.created_at)
            rolls = (await session.execute(query.order_by(RollRow.id))).scalars()
            game = GameState.model_validate_json(row.state) if row is not None else None
            return game, list(commands), list(rolls)


def game_dice(state: GameState | None, commands: Iterable[CommandRow]) -> list[PlayerDie]:
    """Every die of the public events, with its player."""
    if state is None:
        return []
    owners = Owners(state)
    return [
        PlayerDie(owners.owner(die, event, row.user_id), die)
        for row in commands
        for event in EVENTS.validate_json(row.events)
        if not event.secret
        for die in event.rolls
    ]


class Owners:
    """Whose die is whose in one game."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.units = {u.name: u for u in state.units.values()}
        names = sorted(set(self.units) | set(state.sides), key=len, reverse=True)  # "Panther 10" first
        self.names = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")(?!\w)")

    def owner(self, die: DieRoll, event: Event, user: str) -> str:
        """The player of the first unit (or side) the die's purpose names, else of the event's
        side; a side nobody has joined (a hot-seat game) counts as its own player; a die that
        names no side is the command's user's."""
        named = self.names.search(die.purpose)
        side = event.side
        if named:
            unit = self.units.get(named[0])
            if unit is not None and unit.player:
                return unit.player
            side = unit.side if unit is not None else named[0]
        if side not in self.state.sides:
            return user
        players = self.state.sides[side].players
        if user in players:
            return user
        return players[0] if players else side


def logged_dice(rolls: Iterable[RollRow]) -> tuple[list[PlayerDie], int]:
    """The dice of the logged rolls with their rollers, and how many rolls could not be read back."""
    dice: list[PlayerDie] = []
    unread = 0
    for row in rolls:
        found = dice_behind(row.result, _replay(row.asked))
        if found is None:
            unread += 1
        else:
            dice += [PlayerDie(row.user_id, die) for die in found]
    return dice, unread


def _replay(asked: str) -> Callable[[DiceSource], str]:
    """What the log says was asked, rolled again with the dice given: the text it shows."""
    if asked.startswith("chart "):
        chart, _, choices = asked.removeprefix("chart ").partition(": ")
        return lambda dice: roll_on_chart(find_chart(chart), choices, dice).text
    return lambda dice: roll_text(roll(asked, dice))
