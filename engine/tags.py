"""Unit tags: the few letters a unit is shown under on the battlefield's picture ("Sh1" for
Sherman 1), unique among each side's units that an audience sees. A player may name a unit by
its tag in a command, as they read it off the picture (:attr:`engine.view.View.tags`).

A tag is made of the name's own words, so that it reads as the unit: the first word shortened
(its first two letters, a short word whole, or the usual shortening: "Inf" for Infantry), then
the unit's number ("Infantry Detachment 1" -> "Inf1", "MG Team 1" -> "MG1", "M10 Tank Destroyer
1" -> "M10-1"). Numbers are never cut and never run together: a dash parts two of them. Where
two of a side's units would read the same, both take their next word too ("Sherman 75mm 1" and
"Sherman 76mm 1" -> "Sh75-1", "Sh76-1"); only units whose names are the same but for whose they
are take a letter after ("Inf1a", "Inf1b")."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from functools import lru_cache
from itertools import product
from string import ascii_lowercase

from engine.state import Unit

ROMAN = re.compile(r"^[IVX]+$")
ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th)$", re.IGNORECASE)
NUMBER = re.compile(r"^\d+$")
CALIBRE = re.compile(r"^(\d+)mm$", re.IGNORECASE)
WHOLE = 4  # a word this short is kept whole
SHORT = {  # the usual shortenings of a word in a unit's name
    "panzer": "Pz",
    "sturmgeschütz": "StuG",
    "infantry": "Inf",
    "detachment": "Det",
    "mortar": "Mor",
    "sniper": "Snp",
    "flamethrower": "Flm",
    "halftrack": "HT",
    "anti-tank": "AT",
    "truck": "Trk",
    "jeep": "Jp",
    "scout": "Sc",
    "destroyer": "TD",
}


def _bare(word: str) -> str:
    return re.sub(r"[^\w/]", "", word)


def piece(word: str, first: bool = False) -> str:
    """What a word of a name reads as in a tag: a calibre's number, a word with digits or a roman
    numeral whole (less its dots and dashes), the usual shortening, a short word whole, else its
    first two letters (three for a name of one word)."""
    calibre = CALIBRE.match(word)
    if calibre:
        return calibre[1]
    bare = _bare(word)
    if any(c.isdigit() for c in bare) or ROMAN.match(bare):
        return bare
    short = SHORT.get(word.casefold())
    if short:
        return short
    letters = re.sub(r"\W", "", bare)
    if len(letters) <= WHOLE:
        return letters
    return letters[: 3 if first else 2]


def join(pieces: Iterable[str]) -> str:
    """Pieces run together, a dash between two numbers."""
    out = ""
    for part in pieces:
        if out and out[-1].isdigit() and part[:1].isdigit():
            out += "-"
        out += part
    return out


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", text) if w]


def given_words(name: str) -> tuple[list[str], str, str]:
    """A name's words before its number, its number ("" if none) and the number's place: "lead"
    ("1st Squad") or "end" ("Sherman 1"). A transport's name ("Infantry Detachment 1 (251
    Halftrack)") reads as the transport, with the carried unit's number."""
    inside = re.search(r"\(([^)]*)\)\s*$", name)
    outer = _words(re.sub(r"\s*\([^)]*\)", "", name))
    number, place = "", "end"
    if len(outer) > 1 and NUMBER.match(outer[-1]):
        number, outer = outer[-1], outer[:-1]
    elif len(outer) > 1 and ORDINAL.match(outer[0]):
        number, outer, place = ORDINAL.match(outer[0])[1], outer[1:], "lead"
    words = _words(inside[1]) if inside and number else outer
    return words, number, place


@lru_cache(maxsize=4096)
def unit_tag(name: str, depth: int = 1) -> str:
    """The tag of a name (its whose-suffix left off), from its first ``depth`` words: short names
    whole ("M10", "StuG", "MG42"), a number at the end ("Sherman 1" -> "Sh1", "M10 Tank Destroyer
    1" -> "M10-1"), an ordinal at the front ("1st Squad" -> "1Sq"). A first word of digits alone
    ("57mm Anti-tank Gun 1") takes the next word with it ("57AT1"). Past its last word, each
    depth more spells one letter more of the first word ("Jagdtiger 1" -> "Jagdt1")."""
    head, number, place = _head(name, depth)
    return join([number, head] if place == "lead" else [head, number])


@lru_cache(maxsize=4096)
def _head(name: str, depth: int) -> tuple[str, str, str]:
    """A tag's words before (or after) its number, the number and its place (engine.tags.given_words)."""
    words, number, place = given_words(name)
    if not words:
        return (_bare(name)[:WHOLE] if not number else ""), number, place
    if not number and len(words) == 1:
        return piece(words[0], first=True), number, place
    pieces = [piece(w) for w in words]
    taken = max(depth, 1)
    while taken < len(pieces) and not any(c.isalpha() for c in "".join(pieces[:taken])):
        taken += 1
    if not number:  # "Panzer IV G (late) to J" -> "PzIV": a model's mark comes with it
        while taken < len(pieces) and not pieces[taken - 1][-1:].isdigit() and _marks(words[taken]):
            taken += 1
    letters = re.sub(r"\W", "", _bare(words[0]))
    if depth > len(pieces) and pieces[0] == letters[:2]:
        pieces[0] = letters[: 2 + depth - len(pieces)]
    return join(pieces[:taken]), number, place


def _marks(word: str) -> bool:
    """Whether a word is a model's mark ("IV", "222")."""
    bare = _bare(word)
    return bool(ROMAN.match(bare)) or any(c.isdigit() for c in bare)


def tag_name(unit: Unit) -> str:
    """The name a unit's tag is made from: the name its force gave it (not whose it is)."""
    true = unit.true_name or unit.name
    return unit.called if unit.called and true.startswith(unit.called) else true


def tags_for(units: Iterable[Unit], public: Collection[str] | None = None) -> dict[str, str]:
    """A tag per unit id, unique among each side's units (the chip's colour tells the sides
    apart). The units the public sees (``public``, ids; all of them if not given) are tagged
    first and among themselves, so each reads the same on every audience's picture; a hidden
    unit its own side or the referee sees takes a tag none of those has, and so never tells
    anyone else it is there."""
    units = list(units)
    shown = [u for u in units if public is None or u.id in public]
    tags = _tagged(shown, set())
    hidden = [u for u in units if u.id not in tags]
    return tags | _tagged(hidden, {(u.side, tags[u.id]) for u in shown})


def _wanted(units: list[Unit]) -> dict[str, str]:
    """Each unit's tag from as few words as tell it apart from the side's others: units whose
    tags would begin alike ("Sherman 75mm 2" and "Sherman 76mm 1" both "Sh") take more words,
    together, as few more as tell any of them apart ("Sh75-2", "Sh76-1")."""
    names = {u.id: tag_name(u) for u in units}
    depth = dict.fromkeys(names, 1)
    while True:
        groups: dict[tuple[str, str], list[Unit]] = defaultdict(list)
        for unit in units:
            groups[unit.side, _head(names[unit.id], depth[unit.id])[0]].append(unit)
        grown = False
        for group in (g for g in groups.values() if len(g) > 1):
            most = max(len(names[u.id]) for u in group)  # past this, no depth reads any other way
            more = next((k for k in range(1, most + 1) if _apart(group, names, depth, k)), None)
            if more:
                for unit in group:
                    depth[unit.id] += more
                grown = True
        if not grown:
            return {u.id: unit_tag(names[u.id], depth[u.id]) for u in units}


def _apart(group: list[Unit], names: dict[str, str], depth: dict[str, int], more: int) -> bool:
    """Whether ``more`` words each tell any of a group of units (whose tags begin alike) apart."""
    return len({_head(names[u.id], depth[u.id] + more)[0] for u in group}) > 1


def _tagged(units: list[Unit], taken: set[tuple[str, str]]) -> dict[str, str]:
    """Tags for the units, none of them one of ``taken`` (side, tag) or another's."""
    wanted = _wanted(units)
    count: dict[tuple[str, str], int] = defaultdict(int)
    for unit in units:
        count[unit.side, wanted[unit.id]] += 1
    tags: dict[str, str] = {}
    for unit in units:
        tag = wanted[unit.id]
        if count[unit.side, tag] > 1 or (unit.side, tag) in taken:
            tag = next(t for t in _lettered(tag) if (unit.side, t) not in taken)
        taken.add((unit.side, tag))
        tags[unit.id] = tag
    return tags


def _lettered(tag: str) -> Iterator[str]:
    """The tag with a letter after it, then with two."""
    for letter in ascii_lowercase:
        yield tag + letter
    for first, second in product(ascii_lowercase, repeat=2):
        yield tag + first + second
