"""A quick reference: a document whose structure is its tables, cut into sections.

A quick reference card has no headings in capitals and no numbered rules: a few words alone
between blank lines name each part (``Visibility``, ``Close combat``), and most of what it says
is in tables, a row a line, its cells separated by tabs (or ``|``). Each part is a section, its
tables kept in its text, and so is each row of a table, titled by its first cell (``Panther``)
and saying the table's caption and each cell under its column's name (``Armour: 17/13``).

In a table, a row whose only cell is the first names the table (at its top) or a group of the
rows under it (``Fall back``); the first other row names the columns when it starts with an
empty cell or has no digit past its first cell (``Name  Type  Move``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

HEADING_WORDS = 6
CAPTION_LENGTH = 80
_HEADING = re.compile(r"[A-Z][^.;,]*[^.;,\s]")  # "Close combat", "Firing: to hit", "Failure:"
_SCORE = re.compile(r"[\d\s\-–\"″'.,/+]+")  # a first cell that is a score or a range: "4-5", "1-2\""


def is_table_row(line: str) -> bool:
    return "\t" in line or line.lstrip().startswith("|")


def cells_of(line: str) -> list[str]:
    """A row's cells, stripped (a Markdown row's outer bars and its separator dashes left out)."""
    row = line.strip()
    if row.startswith("|"):
        return [cell.strip() for cell in row.strip("|").split("|")]
    return [cell.strip() for cell in line.split("\t")]


@dataclass
class _Table:
    caption: list[str]
    columns: list[str] | None = None
    group: str = ""
    started: bool = False  # a row past the caption was read
    rows: list[tuple[str, str]] = field(default_factory=list)


def quick_reference_parts(lines: list[str]) -> list[tuple[str, str]]:
    """(title, text) of each part of the document and, after it, of each row of its tables."""
    parts: list[tuple[str, str]] = []
    title, body, rows, said = "", [], [], ""  # said: the part's last line of text before a table
    table: _Table | None = None

    def close() -> None:
        text = "\n".join(body).strip()
        if text or title:
            parts.append((title or text.split("\n", 1)[0][:80], text))
        parts.extend(rows)

    for i, line in enumerate(lines):
        if not is_table_row(line):
            table = None
            if _is_heading(lines, i):
                close()
                title, body, rows, said = _heading_title(line), [], [], ""
            else:
                body.append(line)
                said = line.strip() or said
            continue
        cells = cells_of(line)
        if all(set(cell) <= set("-: ") for cell in cells):
            continue  # a Markdown table's line under its column names
        body.append(line)
        if table is None and _is_label(cells):
            close()  # a table that names itself on its first row starts a part
            title, body, rows, said = _heading_title(cells[0]), [line], [], ""
        if table is None:
            table = _Table(caption=[part for part in (title, _caption(said)) if part])
        rows.extend(_row(table, cells))
    close()
    return parts


def _row(table: _Table, cells: list[str]) -> list[tuple[str, str]]:
    """The section of one row (none for a row naming the table, a group or the columns)."""
    if _is_label(cells):
        if table.started:
            table.group = cells[0]
        elif cells[0] not in table.caption:
            table.caption.append(cells[0])
        return []
    if not table.started:
        table.started = True
        if not cells[0] or not any(c.isdigit() for cell in cells[1:] for c in cell):
            table.columns = cells
            return []
    name = cells[0]
    if table.columns and table.columns[0] and _SCORE.fullmatch(name):
        name = f"{table.columns[0]} {name}"  # "Score 4-5", "Distance 1-2\""
    if table.group:
        name = f"{name} ({table.group})"
    values = cells[1:]
    if table.columns and len(table.columns) >= len(cells):
        named = zip(table.columns[1:], values, strict=False)
        said = [f"{column}: {value}" if column else value for column, value in named if value]
    else:
        said = [" · ".join(value for value in values if value)]
    context = " — ".join([*table.caption, table.group] if table.group else table.caption)
    return [(name, "\n".join([context, *said]).strip())]


def _caption(line: str) -> str:
    """The line of text just before a table, as part of its caption: "Reaction score needed"."""
    line = line.strip("-•*: ")
    return line if len(line) <= CAPTION_LENGTH else line[: CAPTION_LENGTH - 1].rsplit(" ", 1)[0] + "…"


def _is_label(cells: list[str]) -> bool:
    return bool(cells[0]) and not any(cells[1:])


def _is_heading(lines: list[str], i: int) -> bool:
    """A few words alone between blank lines, starting with a capital, ending in no full stop."""
    line = lines[i].strip()
    alone = all(not lines[j].strip() for j in (i - 1, i + 1) if 0 <= j < len(lines))
    return alone and len(line.split()) <= HEADING_WORDS and bool(_HEADING.fullmatch(line))


def _heading_title(text: str) -> str:
    return text.strip().rstrip(":").strip()
