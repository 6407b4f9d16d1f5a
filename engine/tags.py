"""Unit tags: the few letters a unit is shown under on the battlefield's picture ("Sh1" for
Sherman 1), unique among each side's units that an audience sees. A player may name a unit by
its tag in a command, as they read it off the picture (:attr:`engine.view.View.tags`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from functools import lru_cache
from itertools import product
from string import ascii_lowercase

from engine.state import Unit

MAX_TAG = 5  # characters
_ROMAN = re.compile(r"^[IVX]+$")
_SHORT = {"panzer": "Pz", "sturmgeschütz": "StuG"}  # the usual shortenings of a first word


@lru_cache(maxsize=1024)
def unit_tag(name: str) -> str:
    """A short tag for a unit's name: short names whole ("M10", "StuG", "MG42"); otherwise the
    first word's first two letters, then numbers and roman numerals whole and other words'
    initials ("Sherman 1" -> "Sh1", "Gruppe 2" -> "Gr2", "1st Squad" -> "1Sq")."""
    name = re.sub(r"\s*\([^)]*\)", "", name).strip()
    squeezed = re.sub(r"[\s.]", "", name)
    if len(squeezed) <= 4:
        return squeezed
    words = [w for w in re.split(r"[\s\-]+", name) if w]
    if len(words) == 1:
        return words[0][:3]
    letters, numbers = "", ""
    for word in words:
        if re.fullmatch(r"\d+(st|nd|rd|th)?", word):
            numbers += re.match(r"\d+", word).group()  # "1st" -> "1"
        elif word[0].isdigit():
            continue  # a calibre such as "75mm" says little
        elif _ROMAN.match(word):
            numbers += word
        elif not letters:
            letters = _SHORT.get(word.casefold()) or re.sub(r"\W", "", word)[:2]
        elif len(letters) < 3 and not numbers:
            letters += word[0].upper()
    lead = "".join(w[0] for w in words[:1] if re.fullmatch(r"\d+(st|nd|rd|th)?", w))  # "1st Squad" -> "1Sq"
    if lead:
        return (lead + letters)[:MAX_TAG]
    return (letters[: max(1, MAX_TAG - len(numbers))] + numbers)[:MAX_TAG]


def tags_for(units: Iterable[Unit], public: Collection[str] | None = None) -> dict[str, str]:
    """A tag per unit id, unique among each side's units (the chip's colour tells the sides
    apart); tags that clash take a, b, c... after them. The units the public sees (``public``,
    ids; all of them if not given) are tagged first and among themselves, so each reads the
    same on every audience's picture; a hidden unit its own side or the referee sees takes a
    tag none of those has, and so never tells anyone else it is there."""
    units = list(units)
    shown = [u for u in units if public is None or u.id in public]
    tags = _tagged(shown, set())
    hidden = [u for u in units if u.id not in tags]
    return tags | _tagged(hidden, {(u.side, tags[u.id]) for u in shown})


def _tagged(units: list[Unit], taken: set[tuple[str, str]]) -> dict[str, str]:
    """Tags for the units, none of them one of ``taken`` (side, tag) or another's."""
    wanted = {u.id: unit_tag(u.true_name or u.name) for u in units}
    clashes = Counter((u.side, wanted[u.id]) for u in units)
    tags: dict[str, str] = {}
    for unit in units:
        tag = wanted[unit.id]
        if clashes[unit.side, tag] > 1 or (unit.side, tag) in taken:
            tag = next(t for t in _lettered(tag) if (unit.side, t) not in taken)
        taken.add((unit.side, tag))
        tags[unit.id] = tag
    return tags


def _lettered(tag: str) -> Iterator[str]:
    """The tag with a letter after it (shortened to leave room), then with two."""
    for letter in ascii_lowercase:
        yield tag[: MAX_TAG - 1] + letter
    for first, second in product(ascii_lowercase, repeat=2):
        yield tag[: MAX_TAG - 2] + first + second
