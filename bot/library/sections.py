"""Splitting a rules document into numbered sections for the rules library.

A section starts at a Markdown heading (``## IC6.1 Smoke``, ``# Scenarios``) or at a line that
opens with a section number followed by a capitalised word: ``63.22 Smoke ...``,
``A10.51 Fire ...``, ``O11.6133 ...``, ``RB9 ...``, ``CG9 ...``, or a chapter number over a title
in capitals (``63. SMOKE``). Plain numbers without a dot or a letter prefix (``1945 ...``),
numbered list items in prose (``1. Roll ...``) and numbers followed by lower-case prose
(``1.5 inches ...``) do not start a section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SECTION_NUMBER = r"(?:[A-Z]{1,3}\d+(?:\.\d+)*[a-z]?|\d+(?:\.\d+)+[a-z]?)"
_NUMBERED_LINE = re.compile(
    rf"^\s*({SECTION_NUMBER})\.?\s+(?=[A-Z\"'(\[])(.*)$"  # 63.22 Smoke ..., RB9 Rubble ...
    r"|^\s*(\d+)\.\s+([A-Z][A-Z0-9 ,'&()/-]*)$"  # 63. SMOKE (a chapter heading in capitals)
)
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
_HEADING_NUMBER = re.compile(rf"^({SECTION_NUMBER})\.?\s+(.*)$")
_WHOLE_NUMBER = re.compile(rf"^{SECTION_NUMBER}$", re.IGNORECASE)
TITLE_LENGTH = 80


@dataclass(frozen=True)
class Section:
    number: str  # "63.22", "IC6.1"; empty for a heading without a number
    title: str
    body: str


def is_section_number(text: str) -> bool:
    """Whether a query looks like a section number rather than words (any letter case)."""
    return bool(_WHOLE_NUMBER.match(text.strip()))


def split_document(text: str) -> list[Section]:
    """The document's sections in order. Text before the first section becomes an unnumbered
    section titled from its first line."""
    sections: list[Section] = []
    number, title, body = "", "", []

    def close() -> None:
        content = "\n".join(body).strip()
        if content or number or title:
            sections.append(Section(number, title or _title_from(content), content))

    for line in text.splitlines():
        heading = _HEADING.match(line)
        numbered = None if heading else _NUMBERED_LINE.match(line)
        if not heading and not numbered:
            body.append(line)
            continue
        close()
        if heading:
            named = _HEADING_NUMBER.match(heading.group(1))
            number, title = (named.group(1), named.group(2)) if named else ("", heading.group(1))
            body = []
        else:
            number, rest = numbered.group(1) or numbered.group(3), numbered.group(2) or numbered.group(4)
            title, body = _title_from(rest), [rest]
    close()
    return sections


def _title_from(text: str) -> str:
    """A title from the start of a section's text: up to its first full stop or colon."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    cut = re.split(r"(?<=[a-z0-9)])[.:](?:\s|$)", first, maxsplit=1)[0]
    return cut if len(cut) <= TITLE_LENGTH else cut[: TITLE_LENGTH - 1].rsplit(" ", 1)[0] + "…"
