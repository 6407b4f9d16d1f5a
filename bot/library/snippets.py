"""The few words of a section shown under a search's result, around the words it found.

The database marks every word a search found in a section (SQLite's ``highlight``, in time
linear in the section's length); :func:`snippet` keeps the stretch of words holding the most
different found words. FTS5's own ``snippet`` does the same in the square of the times a section
holds the words: seconds for a long section that says one word over and over.
"""

from __future__ import annotations

from collections import Counter

ELLIPSIS = "…"


def snippet(marked: str, start: str, end: str, size: int) -> str:
    """The first stretch of ``size`` words of ``marked`` (its found words between ``start`` and
    ``end``) that holds the most different found words, each mark closed within it, with
    :data:`ELLIPSIS` where it cuts the text."""
    words = marked.split()
    found = _found_words(words, start, end)
    held = Counter(word for word in found[:size] if word)
    best, most = 0, len(held)
    for first in range(1, len(words) - size + 1):
        leaving, coming = found[first - 1], found[first + size - 1]
        if leaving:
            held[leaving] -= 1
            if not held[leaving]:
                del held[leaving]
        if coming:
            held[coming] += 1
        if len(held) > most:
            best, most = first, len(held)
    stretch = " ".join(words[best : best + size])
    if _open(" ".join(words[:best]), start, end):
        stretch = start + stretch
    if _open(stretch, start, end):
        stretch += end
    cut_before = [ELLIPSIS] if best else []
    cut_after = [ELLIPSIS] if best + size < len(words) else []
    return " ".join([*cut_before, stretch, *cut_after])


def _found_words(words: list[str], start: str, end: str) -> list[str]:
    """For each word, the found word it is (in lower case, without marks and punctuation), or ''."""
    found, inside = [], False
    for word in words:
        bare = word.replace(start, "").replace(end, "").strip(".,;:!?()[]\"'“”’").casefold()
        found.append(bare if inside or start in word else "")
        inside = _open(word, start, end) or (inside and end not in word)
    return found


def _open(text: str, start: str, end: str) -> bool:
    """Whether a mark opened in ``text`` is still open at its end."""
    return text.rfind(start) > text.rfind(end)
