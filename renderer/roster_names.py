"""Units' names as the roster beside the table shows them: in full where they fit on the line,
else shortened so that no two under one heading read the same.

Shortening goes step by step, each step only if the last did not fit: leave off whose the unit is
(the heading over it says so), the usual shortenings ("Inf Det 1"), then long words clipped to
four letters, then three, then two, longest first ("Mor. Team 1", "Sh. 75mm 1"). A name still
too long keeps its number, then the words that tell it from its neighbours' that begin alike,
then its first word, in that order as they fit, with "…" where words are left out ("…222 1",
"Panzer IV G…1").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from renderer.canvas import text_width
from renderer.layout import TEXT_FONT

SHORTENINGS = (  # the usual shortenings of words in a unit's name, tried first
    ("Tank Destroyer", "TD"),
    ("Anti-tank", "AT"),
    ("Infantry", "Inf"),
    ("Detachment", "Det"),
    ("Squad", "Sqd"),
    ("Section", "Sec"),
    ("Platoon", "Plt"),
    ("Company", "Coy"),
    ("Command", "Cmd"),
    ("Halftrack", "HT"),
)
CLIPS = (4, 3, 2)  # letters a long word keeps, with a dot after it, the longest first
LEFT_OUT = "…"


def abbreviated(name: str) -> str:
    for long, short in SHORTENINGS:
        name = re.sub(rf"(?<![\w-]){re.escape(long)}(?![\w-])", short, name, flags=re.IGNORECASE)
    return name


def clipped(name: str) -> list[str]:
    """The name with one long word (all letters) more clipped each time, longest first, to
    four letters, then to three, then two; a word is long if clipping saves two letters."""
    words = name.split(" ")
    shown = list(words)
    forms = []
    for keep in CLIPS:
        for i in sorted(range(len(words)), key=lambda i: -len(words[i])):
            if words[i].isalpha() and len(words[i]) > keep + 2:
                shown[i] = words[i][:keep] + "."
                forms.append(" ".join(shown))
    return forms


def _fits(text: str, room: float) -> bool:
    return text_width(text, TEXT_FONT) <= room


def shortened(name: str, room: float, whose: str = "", rivals: Sequence[str] = ()) -> str:
    """The name as it fits in ``room`` pixels (see the module's notes); ``whose``: what its end
    says of whose it is; ``rivals``: the names of the units under the same heading."""
    plain = name.removesuffix(whose).rstrip() if whose else name
    short = abbreviated(plain)
    forms = [name, plain, short, *clipped(short)]
    for shown in forms:
        if _fits(shown, room):
            return shown
    return _gist(short.split(" "), room, rivals)


def _gist(words: list[str], room: float, rivals: Sequence[str]) -> str:
    """As many of the words as fit, most telling first, "…" where some are left out: the last
    (the unit's number), then those that names beginning alike (``rivals``) lack, then the first."""
    alike = [set(abbreviated(r).casefold().split(" ")) for r in rivals]
    alike = [t for t in alike if words[0].casefold() in t]
    telling = [i for i, w in enumerate(words) if any(w.casefold() not in t for t in alike)]
    order = list(dict.fromkeys([len(words) - 1, *telling, 0, *range(len(words))]))
    kept: set[int] = set()
    for i in order:
        if _fits(_joined(words, kept | {i}), room):
            kept.add(i)
    return _joined(words, kept)


def _joined(words: list[str], kept: set[int]) -> str:
    out, gap = "", False
    for i, word in enumerate(words):
        if i in kept:
            out += (LEFT_OUT if gap else " " if out else "") + word
        gap = i not in kept
    return out + (LEFT_OUT if gap else "")
