"""StatsService: ``/stats``, every die of a channel's game by player (see :mod:`engine.dice_stats`).

The dice come from the stored commands' events, each die counted for the player who owns the
unit it was rolled for, and from the channel's ``/roll`` and ``/chart`` log since the game began,
each counted for its roller. The statistics are shown to the whole channel, so they count the
dice :mod:`engine.view` shows the spectators: secret events' (hidden units') are left out, and so
are secret rolls. Several channels' dice add up into one report; a
campaign's battles are counted by :mod:`bot.services.campaign_stats`.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from sqlmodel import select

from bot.reply import Line, Reply
from bot.services.dice_service import logged_dice_of, logged_text, roll_lines
from bot.storage.store import EVENTS, GameStore
from bot.storage.tables import CommandRow, GameRow, RollRow
from engine.dice import DiceSource, DieRoll
from engine.dice_stats import DiceReport, PlayerDie, dice_report, report_text
from engine.events import Event
from engine.game_state import GameState
from engine.rolls.charts import find_chart, roll_on_chart
from engine.rolls.expressions import roll
from engine.rolls.readback import dice_behind
from engine.state import Unit
from engine.view import SPECTATORS, dice_shown
from engine.wording import counted, side_label

READ_BACK_SECONDS = 0.3  # at most this long reading back the dice of rolls logged before they were kept


@dataclass(frozen=True)
class DiceStats:
    report: DiceReport
    unread_rolls: int  # logged rolls whose dice could not be read back from their text
    sides: dict[str, list[str]]  # the sides each player played
    heading: Line = ()  # what the dice are of, when not the channel's game ("Normandy: 3 battles")

    def sides_of(self, player: str) -> str:
        """What follows a player's name: the sides they played, " (Allies)"."""
        return f" ({', '.join(map(side_label, self.sides[player]))})" if player in self.sides else ""

    def named(self, name_of: Callable[[str], str]) -> Callable[[str], str]:
        """``name_of`` with the player's sides after the name: "Ann (Allies)"."""
        return lambda player: name_of(player) + self.sides_of(player)

    def reply(self) -> Reply:
        lines = report_text(self.report, self.sides_of)
        unread: tuple[Line, ...] = (
            (
                f"({counted(self.unread_rolls, 'logged roll')} left out: their dice cannot be told "
                "for sure from what was shown)",
            ),
        )
        return Reply(
            ((self.heading,) if self.heading else ()) + lines + (unread if self.unread_rolls else ())
        )


@dataclass(frozen=True)
class ChannelDice:
    """The dice of a channel's game and of its roll log since the game began."""

    dice: list[PlayerDie]
    unread_rolls: int
    sides: dict[str, list[str]]  # the sides each player played


def sides_played(games: Iterable[dict[str, list[str]]]) -> dict[str, list[str]]:
    """The sides each player played in any of these games, in the order first played."""
    sides: dict[str, list[str]] = {}
    for game in games:
        for player, names in game.items():
            played = sides.setdefault(player, [])
            played += [name for name in names if name not in played]
    return sides


class StatsService:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def stats(self, channel_ids: Sequence[str]) -> DiceStats:
        """The dice of the games in these channels (one for a game, several for a campaign)."""
        gathered = [await self.channel_dice(channel_id) for channel_id in channel_ids]
        return DiceStats(
            dice_report(die for channel in gathered for die in channel.dice),
            sum(channel.unread_rolls for channel in gathered),
            sides_played(channel.sides for channel in gathered),
        )

    async def channel_dice(self, channel_id: str) -> ChannelDice:
        """Every public die of the channel's game, and of its roll log since the game began."""
        game, commands, rolls = await self._load(channel_id)
        sides: dict[str, list[str]] = {}
        for name, side in game.sides.items() if game else ():
            for player in side.players:
                sides.setdefault(player, []).append(name)
        logged, unread = await asyncio.to_thread(logged_dice, rolls)
        return ChannelDice(game_dice(game, commands) + logged, unread, sides)

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
        if dice_shown(event, SPECTATORS)  # the statistics are shown to the whole channel
        for die in event.rolls
    ]


class Owners:
    """Whose die is whose in one game."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.units: dict[str, list[Unit]] = {}
        for unit in state.units.values():
            self.units.setdefault(unit.name, []).append(unit)
        names = sorted(set(self.units) | set(state.sides), key=len, reverse=True)  # "Panther 10" first
        self.names = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")(?!\w)")

    def unit_named(self, name: str, event: Event) -> Unit | None:
        """The unit of that name; when both sides have one ("Infantry Detachment 1" in a linked
        campaign), the first of the event's units that has it, else the event's side's."""
        units = self.units.get(name, [])
        if len(units) < 2:
            return units[0] if units else None
        by_id = {unit.id: unit for unit in units}
        return next(
            (by_id[unit_id] for unit_id in event.units if unit_id in by_id),
            next((unit for unit in units if unit.side == event.side), units[0]),
        )

    def owner(self, die: DieRoll, event: Event, user: str) -> str:
        """The player of the first unit (or side) the die's purpose names, else of the event's
        side; a side nobody has joined (a hot-seat game) counts as its own player; a die that
        names no side is the command's user's."""
        named = self.names.search(die.purpose)
        side = event.side
        if named:
            unit = self.unit_named(named[0], event)
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
    """The dice of the logged rolls with their rollers, and how many rolls could not be read.

    A roll keeps its dice (since migration 0016); an older one's are read back from its text
    (:mod:`engine.rolls.readback`), within :data:`READ_BACK_SECONDS` in all: past it, the older
    rolls left are counted unread, so no roll log makes /stats slow."""
    dice: list[PlayerDie] = []
    unread = 0
    deadline = time.monotonic() + READ_BACK_SECONDS
    for row in rolls:
        if row.dice is not None:
            dice += [PlayerDie(row.user_id, die) for die in logged_dice_of(row)]
            continue
        found = dice_behind(row.result, _replay(row.asked)) if time.monotonic() < deadline else None
        if found is None:
            unread += 1
        else:
            dice += [PlayerDie(row.user_id, die) for die in found]
    return dice, unread


def _replay(asked: str) -> Callable[[DiceSource], str]:
    """What the log says was asked, rolled again with the dice given: the text it shows."""
    if asked.startswith("chart "):
        chart, _, choices = asked.removeprefix("chart ").partition(": ")
        return lambda dice: logged_text([roll_on_chart(find_chart(chart), choices, dice).line])
    return lambda dice: logged_text(roll_lines(roll(asked, dice)))
