"""DiceService: /roll and /chart for any channel, game or no game, with a roll log per channel."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import desc, insert
from sqlmodel import or_, select

from bot.reply import Heading, Line, Piece, Reply, Strong, Struck, Typed, Words
from bot.services.game_service import GameError
from bot.services.limits import bounded_name, bounded_text, cleaned
from bot.storage.store import GameStore
from bot.storage.tables import RollRow, utcnow
from engine.dice import DiceSource, DieRoll, SeededDice
from engine.errors import IllegalCommand
from engine.rolls.charts import charts_by_book, find_chart, roll_on_chart
from engine.rolls.expressions import Roll, roll

LOG_LINES = 20
SECRET_LABEL = re.compile(r"\bsecret\s*(;|$)", re.IGNORECASE)  # a roll labelled secret, meant in secret


def roll_lines(rolls: list[Roll]) -> tuple[Line, ...]:
    """The lines a /roll shows (and logs): each roll, after its label if it has one."""
    return tuple((f"{r.label}: ", *r.line) if r.label else r.line for r in rolls)


_LOGGED_MARKS: dict[type[Words], str] = {Strong: "**", Struck: "~~", Typed: "`"}
_LOGGED_PIECE = re.compile(r"(\*\*[^*]+\*\*|~~[^~]+~~|`[^`]+`)")


def logged_text(lines: Iterable[Line]) -> str:
    """A roll's lines as the log keeps them: marked as Discord's Markdown, the form every roll
    was logged in from the first (an older roll's dice are read back by showing it again)."""
    return "\n".join("".join(_logged(piece) for piece in line) for line in lines)


def _logged(piece: Piece) -> str:
    mark = _LOGGED_MARKS.get(type(piece), "")
    return f"{mark}{piece.text}{mark}" if isinstance(piece, Words) else str(piece)


def logged_line(text: str) -> Line:
    """A logged roll's text read back into pieces, its lines kept (a struck die keeps no other
    mark)."""
    return tuple(_read(part) for part in _LOGGED_PIECE.split(text) if part)


def _read(part: str) -> Piece:
    if _LOGGED_PIECE.fullmatch(part):
        kind = next(kind for kind, mark in _LOGGED_MARKS.items() if part.startswith(mark))
        return kind(part.strip("`*~"))
    return part


def dice_text(dice: Iterable[DieRoll]) -> str:
    """The dice of a logged roll as stored: ``"6:3 6:5 10:7"`` (sides:face)."""
    return " ".join(f"{die.sides}:{die.value}" for die in dice)


def logged_dice_of(row: RollRow) -> list[DieRoll]:
    """The dice stored with a logged roll, each with what was asked as its purpose."""
    return [_logged_die(die, row.asked) for die in (row.dice or "").split()]


@lru_cache(maxsize=65_536)
def _logged_die(stored: str, purpose: str) -> DieRoll:
    """One die as :func:`dice_text` stored it; the same die of the same roll is made once."""
    sides, _, value = stored.partition(":")
    return DieRoll(sides=int(sides), value=int(value), purpose=purpose)


@dataclass(frozen=True)
class Rolled:
    """What to show: the lines, and whether only the roller may see them."""

    lines: tuple[Line, ...]
    secret: bool


class DiceService:
    def __init__(self, store: GameStore, dice: Callable[[], DiceSource] = SeededDice) -> None:
        self.store = store
        self.dice = dice

    async def roll(self, channel_id: str, user_id: str, expression: str, *, secret: bool = False) -> Rolled:
        """Roll a dice expression (see :mod:`engine.rolls.expressions`) and log it."""
        expression = cleaned(expression)  # a label on one line, with nothing hidden in it
        if SECRET_LABEL.search(expression):
            raise GameError(
                "The word secret in the dice would be a label, shown to everyone: "
                "to roll in secret, give the option secret:true"
            )
        try:
            rolls = roll(expression, self.dice())
        except IllegalCommand as refusal:
            raise GameError(str(refusal)) from refusal
        dice = [die for rolled in rolls for die in rolled.dice]
        return await self._log(channel_id, user_id, expression.strip(), roll_lines(rolls), dice, secret)

    async def chart(
        self, channel_id: str, user_id: str, chart: str, choices: str = "", *, secret: bool = False
    ) -> Rolled:
        """Roll on a named chart with the user's choices, and log it."""
        chart = bounded_name("A chart's name", chart)
        choices = bounded_text("A chart's choices", choices)
        try:
            found = find_chart(chart)
            rolled = roll_on_chart(found, choices, self.dice())
        except IllegalCommand as refusal:
            raise GameError(str(refusal)) from refusal
        asked = f"chart {found.id}" + (f": {choices.strip()}" if choices.strip() else "")
        return await self._log(channel_id, user_id, asked, (rolled.line,), rolled.dice, secret)

    @staticmethod
    def chart_list(limit: int, written: Callable[[Reply], str]) -> list[Reply]:
        """``/chart list``: every chart under its book's heading, in pages of at most ``limit``
        characters as the front end writes them (one message each). A book that does not fit in
        the rest of a page starts a new one; a book too long for any page goes on over the next,
        its heading repeated."""
        pages: list[list[Line]] = [[]]

        def length(lines: list[Line]) -> int:
            return len(written(Reply(tuple(lines))).strip())

        def fits(lines: list[Line]) -> bool:
            return length(pages[-1] + lines) <= limit

        for book, charts in charts_by_book().items():
            heading: Line = (Heading(book), f" ({len(charts)} charts)")
            lines: list[Line] = [
                (Strong(chart.id), f": {chart.title.removesuffix(f' ({book})')}") for chart in charts
            ]
            if not fits([(), heading, *lines]) and length([heading, *lines]) <= limit:
                pages.append([])  # the whole book fits on a page of its own
            for i, line in enumerate(lines):
                added = [line] if i else [(), heading, line]
                if not fits(added):
                    pages.append([])
                    added = [(*heading, " (continued)") if i else heading, line]
                pages[-1] += added
        footer: list[Line] = [(), (Typed("/chart show CHART"), " explains one")]
        if not fits(footer):
            pages.append([])
        pages[-1] += footer
        return [Reply(tuple(page[1:] if page and not page[0] else page)) for page in pages]

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

    async def _log(
        self,
        channel_id: str,
        user_id: str,
        asked: str,
        result: tuple[Line, ...],
        dice: Iterable[DieRoll],
        secret: bool,
    ) -> Rolled:
        """One INSERT, committed before the roll is shown: a roll that was seen is in the log."""
        row = {
            "channel_id": channel_id,
            "user_id": user_id,
            "asked": asked,
            "result": logged_text(result),
            "dice": dice_text(dice),
            "secret": secret,
            "created_at": utcnow(),
        }
        async with self.store.engine.begin() as connection:
            await connection.execute(insert(RollRow), row)
        return Rolled(result, secret)
