"""Units' names as the roster beside the table shows them: in full where they fit on the line,
else shortened so that no two under one heading read the same.

Shortening goes step by step, each step only if the last did not fit: leave off whose the unit is
(the heading over it says so), the usual shortenings ("Inf Det 1"), then long words clipped to
four letters, then three, then two, longest first ("Mor. Team 1", "Sh. 75mm 1"). A name still
too long keeps its number, then the words that tell it from its neighbours' that begin alike,
then its first word, in that order as they fit, with "…" where words are left out ("…222 1",
"Panzer IV G…1"); a line too full even for its number (a wide tag, badges and the square of a unit
left untagged) shows no name: its tag tells it apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

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


@lru_cache(maxsize=4096)
def abbreviated(name: str) -> str:
    for long, short in SHORTENINGS:
        name = re.sub(rf"(?<![\w-]){re.escape(long)}(?![\w-])", short, name, flags=re.IGNORECASE)
    return name


def clipped(name: str) -> list[str]:
    """The name with one long word more clipped each time, longest first, to four letters, then
    to three, then two: a run of letters is long if clipping it saves two characters ("Ferdinand/Elefant"
    -> "Ferd./Elef.")."""
    words = name.split(" ")
    shown = list(words)
    forms = []
    for keep in CLIPS:
        long = re.compile(rf"(?<![^\W\d_])([^\W\d_]{{{keep}}})[^\W\d_]{{3,}}(?![^\W\d_])")
        for i in sorted(range(len(words)), key=lambda i: -len(words[i])):
            if long.search(words[i]) and not any(c.isdigit() for c in words[i]):
                shown[i] = long.sub(r"\1.", words[i])
                forms.append(" ".join(shown))
    return forms


def _fits(text: str, room: float) -> bool:
    return text_width(text, TEXT_FONT) <= room


def shown_names(names: Sequence[tuple[str, float, str]]) -> list[str]:
    """The names of the units under one heading as their lines show them, each (name, room in
    pixels, what its end says of whose it is) shortened to fit (see the module's notes). Two
    that would still read the same keep first what tells them apart; if nothing that does fits,
    neither shows a name (its tag tells it apart)."""
    whole = [n for n, _, _ in names]
    shown = [
        shortened(n, room, whose, tuple(whole[:i] + whole[i + 1 :]))
        for i, (n, room, whose) in enumerate(names)
    ]
    for i, (name, room, whose) in enumerate(names):
        clash = [
            whole[j]
            for j, other in enumerate(shown)
            if j != i and other and other.casefold() == shown[i].casefold()
        ]
        if clash:
            apart = shortened(name, room, whose, tuple(clash), telling_first=True)
            shown[i] = (
                "" if any(apart.casefold() == s.casefold() for s in shown[:i] + shown[i + 1 :]) else apart
            )
    return shown


@lru_cache(maxsize=4096)
def shortened(
    name: str, room: float, whose: str = "", rivals: tuple[str, ...] = (), telling_first: bool = False
) -> str:
    """The name as it fits in ``room`` pixels; ``whose``: what its end says of whose it is;
    ``rivals``: the names of the units under the same heading; ``telling_first``: keep the words
    that tell it from theirs before its number."""
    plain = name.removesuffix(whose).rstrip() if whose else name
    short = abbreviated(plain)
    forms = [name, plain, short, *clipped(short)]
    for shown in forms:
        if _fits(shown, room):
            return shown
    return _gist(forms[-1].split(" "), short.split(" "), room, rivals, telling_first)


def _gist(words: list[str], whole: list[str], room: float, rivals: Sequence[str], telling_first: bool) -> str:
    """As many of the (clipped) words as fit, most telling first, "…" where some are left out:
    the unit's number (its last number, else its last word), then those that names beginning
    alike (``rivals``) lack, then the first; ``whole``: the words before clipping."""
    alike = [set(abbreviated(r).casefold().split(" ")) for r in rivals]
    alike = alike if telling_first else [t for t in alike if whole[0].casefold() in t]
    telling = [i for i, w in enumerate(whole) if any(w.casefold() not in t for t in alike)]
    number = max((i for i, w in enumerate(whole) if w.isdigit()), default=len(whole) - 1)
    first = [*telling, number] if telling_first else [number, *telling]
    order = list(dict.fromkeys([*first, 0, *range(len(words))]))
    kept: set[int] = set()
    for i in order:
        if _fits(_joined(words, kept | {i}), room):
            kept.add(i)
    return _joined(words, kept) if kept else ""


def _joined(words: list[str], kept: set[int]) -> str:
    out, gap = "", False
    for i, word in enumerate(words):
        if i in kept:
            out += (LEFT_OUT if gap else " " if out else "") + word
        gap = i not in kept
    return out + (LEFT_OUT if gap else "")
