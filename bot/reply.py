"""A reply as data (issue 20, step 5): what a service tells, and each front end writes it its own
way. Its lines are the engine's pieces (:mod:`engine.rich_text`: plain words, :class:`Strong`,
:class:`Heading`, :class:`Typed`, :class:`Mention`, :class:`Moment`...). Whether only the asker
may read it is :attr:`Reply.private`.

Discord writes a reply as Markdown with mentions and relative times
(:func:`bot.discord_adapter.markdown.markdown`); the console as plain text
(:func:`bot.plain_text.plain_reply`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.rich_text import (
    Block,
    Channel,
    Heading,
    Line,
    Mention,
    Moment,
    Piece,
    Strong,
    Struck,
    Typed,
    Words,
)

__all__ = [
    "Block",
    "Channel",
    "Heading",
    "Line",
    "Mention",
    "Moment",
    "Piece",
    "Reply",
    "Strong",
    "Struck",
    "Typed",
    "Words",
]


@dataclass(frozen=True)
class Reply:
    """Lines to tell, each made of pieces; ``private``: for the asker's eyes only."""

    lines: tuple[Line, ...]
    private: bool = False

    @classmethod
    def of(cls, *lines: Piece | Iterable[Piece], private: bool = False) -> Reply:
        """A reply from its lines: each one piece, or several in a tuple or list."""
        return cls(tuple(_line(line) for line in lines), private)

    def __add__(self, other: Reply) -> Reply:
        """This reply's lines, then the other's."""
        return Reply(self.lines + other.lines, self.private or other.private)


def _line(line: Piece | Iterable[Piece]) -> Line:
    if isinstance(line, str | Words | Mention | Channel | Moment):
        return (line,)
    return tuple(line)
