"""DiceService: /roll and /chart for any channel, game or no game, with a roll log per channel."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import desc
from sqlmodel import or_, select

from bot.services.game_service import GameError
from bot.storage.store import GameStore
from bot.storage.tables import RollRow
from engine.dice import DiceSource, SeededDice
from engine.errors import IllegalCommand
from engine.rolls.charts import find_chart, roll_on_chart
from engine.rolls.expressions import Roll, roll

LOG_LINES = 20


def roll_text(rolls: list[Roll]) -> str:
    """The lines a /roll shows (and logs): each roll, after its label if it has one."""
    return "\n".join(f"{r.label}: {r.text}" if r.label else r.text for r in rolls)


@dataclass(frozen=True)
class Rolled:
    """What to show: the lines, and whether only the roller may see them."""

    text: str
    secret: bool


class DiceService:
    def __init__(self, store: GameStore, dice: Callable[[], DiceSource] = SeededDice) -> None:
        self.store = store
        self.dice = dice

    async def roll(self, channel_id: str, user_id: str, expression: str, *, secret: bool = False) -> Rolled:
        """Roll a dice expression (see :mod:`engine.rolls.expressions`) and log it."""
        try:
            rolls = roll(expression, self.dice())
        except IllegalCommand as refusal:
            raise GameError(str(refusal)) from refusal
        return await self._log(channel_id, user_id, expression.strip(), roll_text(rolls), secret)

    async def chart(
        self, channel_id: str, user_id: str, chart: str, choices: str = "", *, secret: bool = False
    ) -> Rolled:
        """Roll on a named chart with the user's choices, and log it."""
        try:
            found = find_chart(chart)
            rolled = roll_on_chart(found, choices, self.dice())
        except IllegalCommand as refusal:
            raise GameError(str(refusal)) from refusal
        asked = f"chart {found.id}" + (f": {choices.strip()}" if choices.strip() else "")
        return await self._log(channel_id, user_id, asked, rolled.text, secret)

    async def log(
        self, channel_id: str, viewer_id: str, lines: int = LOG_LINES, *, referee: bool = False
    ) -> list[RollRow]:
        """The channel's latest rolls, oldest first, that ``viewer_id`` may see: everyone's open
        rolls and the viewer's own secret ones; a referee sees every secret roll."""
        async with self.store.sessions() as session:
            query = select(RollRow).where(RollRow.channel_id == channel_id)
            if not referee:
                query = query.where(or_(RollRow.secret == False, RollRow.user_id == viewer_id))  # noqa: E712
            query = query.order_by(desc(RollRow.id)).limit(lines)
            rows = list((await session.execute(query)).scalars())
        return rows[::-1]

    async def _log(self, channel_id: str, user_id: str, asked: str, result: str, secret: bool) -> Rolled:
        async with self.store.sessions() as session, session.begin():
            session.add(
                RollRow(channel_id=channel_id, user_id=user_id, asked=asked, result=result, secret=secret)
            )
        return Rolled(result, secret)
