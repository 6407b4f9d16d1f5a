"""Unit tags: the few letters a unit is shown under on the battlefield's picture ("Sh1" for
Sherman 1), unique among each side's units that an audience sees. A player may name a unit by
its tag in a command, as they read it off the picture (:attr:`engine.view.View.tags`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

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


def tags_for(units: Iterable[Unit]) -> dict[str, str]:
    """A tag per unit id, unique among each side's units (the chip's colour tells the sides
    apart); a clash takes a, b, c... after it."""
    tags: dict[str, str] = {}
    taken: dict[tuple[str, str], int] = {}
    units = list(units)
    wanted = {u.id: (u.side, unit_tag(u.true_name or u.name)) for u in units}
    counts: dict[tuple[str, str], int] = {}
    for key in wanted.values():
        counts[key] = counts.get(key, 0) + 1
    for unit in units:
        key = wanted[unit.id]
        tag = key[1]
        if counts[key] > 1:
            taken[key] = taken.get(key, 0) + 1
            tag = tag[: MAX_TAG - 1] + "abcdefghijklmnopqrstuvwxyz"[(taken[key] - 1) % 26]
        tags[unit.id] = tag
    return tags
