"""Splitting a rules document into sections for the rules library.

Rulebooks come as Markdown, as plain text with one rule a line, or as text taken from a printed
page where many numbered rules run on in one paragraph. A section starts at:

- a Markdown heading: ``## IC6.1 Smoke``, ``# Scenarios``;
- a section number wherever it stands, at the start of a line or mid-paragraph after the end of
  a sentence, followed by a capitalised title or rule sentence: ``... end. 63.22 SMOKE − Any``,
  ``A10.51 Fire ...``, ``O11.6133 ...``, ``RB9. German ...``, ``►66.1 RANDOM ...``;
- a chapter number over a title in capitals: ``63. SMOKE``, ``85.PANZERSCHRECK−``,
  ``1. VICTORY CONDITIONS:``;
- a heading on a line of its own, in capitals (``INITIATIVE``, ``SEWER EMERGENCE CHART``) or
  naming a chart or table (``Sewer Emergence Chart``, ``Table 21: Gun set-up``).

A document with none of these but tables is a quick reference, its tables its structure, cut
by :mod:`bot.library.tables` (each part and each table row a section). A printed page's numbers
and the print code under them are taken out first (:mod:`bot.library.pages`).

What is not a section: a number inside a sentence or in brackets (a reference such as
``(63.22)`` or ``see Spraying Fire 63.23``), a number followed by lower-case prose (``1.5 inches``)
unless it is the very next rule of its chapter (``12.2 columns.``, its opening moved by the page),
plain numbers (``1945``, a page number), numbered list items (``1. Roll ...``) and the rows of a
table (lines with tabs or ``|`` cells).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from bot.library.pages import without_page_furniture
from bot.library.tables import is_table_row, quick_reference_parts

SECTION_NUMBER = r"(?:[A-Z]{1,3}\d+(?:\.\d+)*[a-z]?|\d+(?:\.\d+)+[a-z]?)"
# a candidate start: an optional ► mark, then a section number and its following space, or a
# chapter number with its full stop directly before a word in capitals. Never from inside a run of
# digits (such a start is glued to what precedes it anyway): trying every digit of a long run
# would cost the square of its length.
_NUMBER = re.compile(
    rf"(?:►\s*)?(?<!\d)(?:(?P<number>{SECTION_NUMBER})\.?\s+|(?P<chapter>\d{{1,3}})\.\s*(?=[A-Z]{{2}}))"
)
_SENTENCE_END = '.?!;”"’−–—►'  # what may come before a number that starts a section mid-line
# what a rule's text opens with: a capital, a quote, a calibre or angle (60mm, 76-82mm, 360°), "vs X"
_RULE_OPENING = re.compile(r"[A-Z\"“'(\[]|(?:\d+|l\d+)(?:-\d+)?(?:mm|°)|vs\.?\s+[A-Z]")
# words that put a number inside a sentence as a reference ("see 63.22", "rules of 46.2 Smoke")
_REFERENCE_WORDS = frozenset(
    "see per in of rule rules and or to under with also at from by than step steps as use using vs "
    "section sections chapter page pages p pp nor on into after before".split()
)
# what follows a number in a book's index: more entries (a capitalised word and its number) or
# dot leaders: "64.2 Rarity factor Pg 61 Red Units 18.41 Repair 18.2", "98.3 Americans …… 50"
_INDEX_ENTRIES = re.compile(r"(?:\b[A-Z][\w)]*\s+\d+(?:\.\d+)?\b.*){2}|…|\. \. \.")
INDEX_WINDOW = 60
LOOK_BACK = 80  # characters before a number read to tell where it stands
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
_HEADING_NUMBER = re.compile(rf"^({SECTION_NUMBER}|\d{{1,3}})\.?\s+(.*)$")
_CHART_HEADING = re.compile(r"^(?:[A-Z][\w'’/&-]*\s+){0,6}(?:Chart|Table)\W*$")  # Sewer Emergence Chart
_NUMBERED_TABLE = re.compile(r"^(?:Chart|Table)\s+\d+:\s+[A-Z]")  # Table 21: Gun set-up ...
_LOWER_CASE_HEADING = re.compile(r"^[a-z]+(?: [a-z]+){0,3}$")  # "meeting engagement"
_CHAPTER_HEADING = re.compile(r"^(?:(\d{1,3})\s+)?(.*)$")  # 2 TROOP TYPES
_TITLE_CUT = re.compile(r"\s*(?:[:−–—]|\s-\s)|(?<=[a-z0-9)])\.(?:\s|$)")
_GLUED_TITLE = re.compile(r"[A-Z][A-Z0-9 &'’/,()-]*[A-Z](?=[A-Z][a-z])")  # "CHARACTERISTICSThis expansion"
_WHOLE_NUMBER = re.compile(rf"^{SECTION_NUMBER}$", re.IGNORECASE)
_PRINTED = re.compile(rf"[(\[►\s]*({SECTION_NUMBER})[.,;:)\]]*", re.IGNORECASE)
TITLE_LENGTH = 80
TITLE_SCAN = 1000  # characters of a section read for its title
HEADING_LENGTH = 60  # a longer line in capitals is text, not a heading


@dataclass(frozen=True)
class Section:
    number: str  # "63.22", "IC6.1", "63" for a chapter; empty for a heading without a number
    title: str
    body: str


def is_section_number(text: str) -> bool:
    """Whether a query looks like a section number rather than words (any letter case)."""
    return bool(_WHOLE_NUMBER.match(text.strip()))


def printed_number(text: str) -> str | None:
    """The section number in a query written as a book prints it, if it is one: ``RB9.``,
    ``(63.22)``, ``►64.121``, ``B23.711,``."""
    found = _PRINTED.fullmatch(text.strip())
    return found.group(1) if found else None


_ASKED = re.compile(rf"(?<![\w.])({SECTION_NUMBER})(?!\w|\.\d)", re.IGNORECASE)
_ASKED_CHAPTER = re.compile(r"\b(?:rules?|section|chapter|ch)\.?\s+(\d{1,3})(?!\w|\.\d)", re.IGNORECASE)
_NAMING = re.compile(r"\b(?:rules?|section|sections|see|ssr|§)\W*$", re.IGNORECASE)  # "rule 63.22"
MOST_ASKED = 3


@dataclass(frozen=True)
class Asked:
    """A section number in a question, and whether it is named as a rule beyond doubt: after
    "rule" or "see", or lettered with a dot (O11.6133), not a measure such as 1.5."""

    number: str
    named: bool


def numbers_asked(question: str) -> list[Asked]:
    """The section numbers in a question in players' words, in order, at most
    :data:`MOST_ASKED`: "what does rule 63.22 say" asks for 63.22, "is RB9 in force" for RB9,
    "rule 63" for chapter 63 (a bare number is a chapter only after such a word)."""
    return numbers_cited(question)[:MOST_ASKED]


def numbers_cited(text: str) -> list[Asked]:
    """Every section number a text names, in order, each once (as :func:`numbers_asked` reads
    them)."""
    found = [(m.start(1), m.group(1)) for m in _ASKED.finditer(text)]
    found += [(m.start(1), m.group(1)) for m in _ASKED_CHAPTER.finditer(text)]
    asked: dict[str, Asked] = {}
    for start, number in sorted(found):
        named = bool(_NAMING.search(text[:start])) or ("." in number and number[0].isalpha())
        asked.setdefault(number.casefold(), Asked(number, named))
    return list(asked.values())


def citation_of(number: str) -> re.Pattern[str]:
    """Section ``number`` named whole in a text (not 63.221, nor the 63.22 of O63.22), any case."""
    return re.compile(rf"(?<![\w.]){re.escape(number)}(?!\w|\.\d)", re.IGNORECASE)


def is_chapter_number(text: str) -> bool:
    """Whether a query may be a chapter's number ("63"), though it may as well be a word ("1945")."""
    return text.strip().isdigit() and len(text.strip()) <= 3


def split_document(text: str, most: int | None = None) -> list[Section]:
    """The document's sections in order. Text before the first section becomes an unnumbered
    section titled from its first line. Splitting stops past ``most`` sections (a document the
    caller will refuse)."""
    sections: list[Section] = []
    number, title, body = "", "", []
    last_in_chapter: dict[str, str] = {}  # the last rule started in each chapter: "12" -> "12.1"

    def close() -> None:
        content = "\n".join(body).strip()
        if content or number or title:
            sections.append(Section(number, title or _title_from(content), content))

    lines = without_page_furniture(text.splitlines())
    for i, line in enumerate(lines):
        alone = (i == 0 or not lines[i - 1].strip()) and (i + 1 == len(lines) or not lines[i + 1].strip())
        heading = _heading(line, alone)
        if heading is not None:
            close()
            if most is not None and len(sections) > most:
                return sections
            (number, title), body = heading, []
            continue
        starts = iter(()) if is_table_row(line) else _numbered_starts(line, number, last_in_chapter)
        start = next(starts, None)
        if start is None:
            body.append(line)
            continue
        if line[: start[0]].strip():
            body.append(line[: start[0]].rstrip())
        while start is not None:  # one at a time: a long line may hold thousands
            following = next(starts, None)
            close()
            if most is not None and len(sections) > most:
                return sections
            rest = line[start[2] : following[0] if following else len(line)].strip()
            number, title, body, start = start[1], _title_from(rest), [rest], following
    close()
    if len(sections) < 2 and not any(s.number for s in sections) and any(map(is_table_row, lines)):
        parts = [Section("", title, body) for title, body in quick_reference_parts(lines)]
        return parts if most is None else parts[: most + 1]
    return sections


def _heading(line: str, alone: bool) -> tuple[str, str] | None:
    """(number, title) if the line is a heading of its own: Markdown, capitals, a chart's name, or
    a few words in lower case ``alone`` between blank lines (a display font read as lower case)."""
    markdown = _HEADING.match(line)
    if markdown:
        named = _HEADING_NUMBER.match(markdown.group(1))
        return (named.group(1), named.group(2)) if named else ("", markdown.group(1))
    stripped = line.strip()
    if not stripped or is_table_row(line) or next(_numbered_starts(stripped), (1,))[0] == 0:
        return None  # "63. SMOKE" is a chapter, not a title
    if _NUMBERED_TABLE.match(stripped):
        return "", _shortened(_without_marks(stripped))
    if len(stripped) > HEADING_LENGTH:
        return None
    chapter, title = _CHAPTER_HEADING.match(stripped).groups()
    in_capitals = not any(c.islower() for c in title) and sum(c.isalpha() for c in title) >= 4
    if in_capitals and title[0].isupper():
        return chapter or "", _without_marks(title)
    if _CHART_HEADING.match(stripped) or alone and _LOWER_CASE_HEADING.match(stripped):
        return "", _without_marks(stripped)
    return None


def _numbered_starts(
    line: str, previous: str = "", last_in_chapter: dict[str, str] | None = None
) -> Iterator[tuple[int, str, int]]:
    """(where it starts, number, where its text starts) for each section starting in the line;
    ``previous`` is the number of the section the line starts in, ``last_in_chapter`` the last
    rule started in each chapter so far (kept up to date)."""
    last_in_chapter = {} if last_in_chapter is None else last_in_chapter
    for found in _NUMBER.finditer(line):
        number, start = found["number"] or found["chapter"], found.start()
        head = line[max(0, start - LOOK_BACK) : start]  # bounded: a document may be one long line
        before = head.rstrip()
        if before and len(before) == len(head) and line[start] != "►":
            continue  # glued to a word or in brackets: "B25.11", "(63.22"
        if (
            found["number"]
            and not _RULE_OPENING.match(line, found.end())
            and not _succeeds(last_in_chapter, number)
        ):
            continue  # "1.5 inches": a measure, not a rule
        if before and before[-1] not in _SENTENCE_END and not _next_in_chapter(previous, number, before):
            continue  # inside a sentence: "see Spraying Fire 63.23 ..." is a reference
        if _INDEX_ENTRIES.search(line, found.end(), found.end() + INDEX_WINDOW):
            continue  # "64.2 Rarity factor Pg 61 Red Units 18.41 Repair 18.2": a book's index
        yield start, number, found.end()
        previous = number
        if "." in number:
            last_in_chapter[number.split(".")[0]] = number


def _succeeds(last_in_chapter: dict[str, str], number: str) -> bool:
    """Whether ``number`` is the very next rule after the last one of its chapter (12.2 after
    12.1): a rule whose opening words a page's columns moved away ("12.2 columns.")."""
    last = last_in_chapter.get(number.split(".")[0])
    if last is None or "." not in number:
        return False
    before, now = _order(last), _order(number)
    return len(before) == len(now) and now == (*before[:-1], before[-1] + 1)


def _next_in_chapter(previous: str, number: str, before: str) -> bool:
    """Whether a number inside a sentence still starts a rule: the page lost the full stop before
    it (``... of breakdown 81.32 Once a combination ...``), or a reference or a colon ends the
    sentence before it (``... horses. (92.88) 92.83 Cavalry ...``). It must be the next rule of
    the chapter the text is in, and the word before it must not make it a reference (``see``,
    ``of``, ``rule``)."""
    word = re.search(r"([A-Za-z]+)\W*$", before)
    after_reference = before.endswith((")", ":"))  # "(92.88) 92.83 Cavalry", "as follows: 99.21 All"
    referring = word is None or not word.group(1).islower() or word.group(1) in _REFERENCE_WORDS
    if not after_reference and referring:
        return False
    chapter, _, rest = number.partition(".")
    previous_chapter, _, previous_rest = previous.partition(".")
    return bool(rest) and chapter == previous_chapter and _order(rest) > _order(previous_rest)


def _order(number: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", number))


def _title_from(text: str) -> str:
    """A title from the start of a section's text: up to its first colon or dash, or its first
    full stop."""
    first = text.lstrip()[:TITLE_SCAN].split("\n", 1)[0].strip()
    cut = _TITLE_CUT.split(first, maxsplit=1)[0].strip() or first
    glued = _GLUED_TITLE.match(cut)
    return _shortened(glued.group() if glued else cut)


def _without_marks(title: str) -> str:
    """A heading without the marks printed after it: "SEWER EMERGENCE CHART Δ", "SW CHART*"."""
    return re.sub(r"(?:\s+[^\sA-Za-z0-9]{1,2}|[^\w)!?])+$", "", title)


def _shortened(title: str) -> str:
    return title if len(title) <= TITLE_LENGTH else title[: TITLE_LENGTH - 1].rsplit(" ", 1)[0] + "…"
