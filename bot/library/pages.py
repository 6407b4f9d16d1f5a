"""The numbers a printed page puts under its text, taken out of a document before it is split.

Text taken from a printed book keeps each page's number (``45``, ``46``, ...) and the number
printed with it on every page (a print code such as ``110922``) as lines of their own, between
blank lines, wherever the page broke: inside a rule's text. They are told from the text:

- the page numbers are the longest run of such lines whose numbers go up, a few at a time, through
  the document (a number alone between blank lines that is not in the run, say a chart's cell, is
  text);
- a print code is a number that stands alone at least :data:`REPEATS` times within :data:`NEAR`
  lines of a page number.

A page's words (a running title such as the book's name) stay: they are words, and they start a
section of their own where the page breaks, which keeps a rule that runs on from page to page in
parts a section can hold.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter

MOST_PAGES_SKIPPED = 10  # a page of pictures prints no text, and no page number in it
FEWEST_PAGES = 3  # fewer numbers going up are no run of pages
PAGE_LINES = 4  # the fewest lines from a page's number to the next: a chart's numbers stand closer
KEPT = 4  # the lines of one number a run may go on from (a page's, and a few of a chart's)
REPEATS = 3
NEAR = 6  # lines


def without_page_furniture(lines: list[str]) -> list[str]:
    """The lines without the page numbers and the print codes printed with them."""
    text = [line.strip() for line in lines]
    last = len(text) - 1
    alone = [
        i
        for i, number in enumerate(text)
        if number.isdecimal() and (i == 0 or not text[i - 1]) and (i == last or not text[i + 1])
    ]
    pages = _page_numbers(text, alone)
    if not pages:
        return lines
    in_order = sorted(pages)
    near = [i for i in alone if i not in pages and _near(in_order, i)]
    repeated = Counter(text[i] for i in near)
    printed = {code for code, count in repeated.items() if count >= REPEATS}
    furniture = pages | {i for i in alone if text[i] in printed}
    return [line for i, line in enumerate(lines) if i not in furniture]


def _page_numbers(text: list[str], alone: list[int]) -> set[int]:
    """The lines of the longest run of numbers going up by 1 to :data:`MOST_PAGES_SKIPPED` at a
    time, in the document's order, each at least :data:`PAGE_LINES` after the one before (of the
    longest runs, the one of the smallest steps)."""
    ending: dict[int, list[tuple[int, int]]] = {}  # a number: the runs ending at its last lines
    before: dict[int, int | None] = {}  # a line: the line of the number before it in its run
    runs: dict[int, int] = {}  # a line: the length of its run
    best: int | None = None
    for i in alone:
        if len(text[i]) > 4:
            continue  # a print code, not a page's number
        number = int(text[i])
        previous: tuple[int, int | None] = (0, None)
        for step in range(1, MOST_PAGES_SKIPPED + 1):
            for run, line in ending.get(number - step, ()):
                if i - line >= PAGE_LINES and run > previous[0]:
                    previous = (run, line)
        runs[i], before[i] = previous[0] + 1, previous[1]
        ending[number] = [*ending.get(number, [])[1 - KEPT :], (runs[i], i)]
        if best is None or runs[i] > runs[best]:
            best = i
    if best is None or runs[best] < FEWEST_PAGES:
        return set()
    found: set[int] = set()
    at: int | None = best
    while at is not None:
        found.add(at)
        at = before[at]
    return found


def _near(pages: list[int], i: int) -> bool:
    """Whether line ``i`` is within :data:`NEAR` lines of a page number (``pages`` in order)."""
    at = bisect_left(pages, i)
    return any(abs(pages[j] - i) <= NEAR for j in (at - 1, at) if 0 <= j < len(pages))
