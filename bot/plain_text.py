"""Discord's Markdown as plain text, for the console: the services write their replies for
Discord (``**bold**``, code fences, ``<@id>`` mentions, ``<t:seconds:R>`` timestamps), and the
console shows them through :func:`plain`, its one formatter.

What remains toward structured replies: the services still return one Markdown string; a reply
made of text blocks, its readers, its pictures and its buttons would let each front end format
it, instead of Discord's marks being taken back out here.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from typing import TextIO

from bot.services.campaign_service import utc_text

_MARKS = re.compile(r"\*\*|__|~~|^```\w*\n?", re.MULTILINE)
_MENTION = re.compile(r"<@[!&]?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_TIME = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>")


def plain(text: str) -> str:
    """``text`` without Discord's marks: bold, underline and strike-through marks and code fences
    go; a mention shows as @id, a channel as #id, a timestamp as its UTC time."""
    text = _MARKS.sub("", text)
    text = _MENTION.sub(r"@\1", text)
    text = _CHANNEL.sub(r"#\1", text)
    return _TIME.sub(lambda m: utc_text(datetime.fromtimestamp(int(m.group(1)), UTC)), text)


class PlainWriter(io.TextIOBase):
    """A text stream that writes everything it is given as :func:`plain` text."""

    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self.out = out

    def write(self, text: str) -> int:  # type: ignore[override]
        return self.out.write(plain(text))

    def flush(self) -> None:
        self.out.flush()
