"""A reply as data (issue 20, step 5): what a service tells, and each front end writes it its own
way. Its lines are pieces: plain words, an emphasised word (:class:`Strong`), a list's heading
(:class:`Heading`), a command to type (:class:`Typed`), a user (:class:`Mention`, by id), a
channel (:class:`Channel`, by id) and a moment (:class:`Moment`, a datetime). Whether only the
asker may read it is :attr:`Reply.private`.

Discord writes a reply as Markdown with mentions and relative times
(:func:`bot.discord_adapter.markdown.markdown`); the console as plain text
(:func:`bot.plain_text.plain_reply`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Words:
    """Words the front end marks in its own way."""

    text: str


class Strong(Words):
    """Words to stand out: a side's name, a game's result."""


class Heading(Words):
    """The heading of a part of a list: a book above its charts."""


class Typed(Words):
    """A command as the reader would type it: ``/game start``."""


@dataclass(frozen=True)
class Mention:
    """A user, by id: named the way the front end names users."""

    user_id: str


@dataclass(frozen=True)
class Channel:
    """A channel, by id: a link in Discord."""

    channel_id: str


@dataclass(frozen=True)
class Moment:
    """A moment: "in 2 hours" in Discord, its UTC time at the console."""

    at: datetime


Piece = str | Words | Mention | Channel | Moment
Line = tuple[Piece, ...]


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
