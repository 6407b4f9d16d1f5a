"""Names as players type them: the one matcher behind every "did you mean" and every list of
suggestions (units, orders of battle, charts, tables, forces, cards).

A name scores by rapidfuzz's token-set ratio (every word typed found in it, in any order: "Panzer
IV" is all of "Panzer IV G (late) to J") or, a little lower, by its best partial match (a name
begun, "Pant", or mistyped, "Panthr"), after folding case and punctuation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rapidfuzz import fuzz, process, utils

CLOSE = 70.0  # the least score a "did you mean" names
LIKELY = 75.0  # the least score a list of suggestions shows (a name begun scores 90)


def _score(typed: str, name: str, **_: object) -> float:
    return max(fuzz.token_set_ratio(typed, name), 0.9 * fuzz.partial_ratio(typed, name))


def ranked(typed: str, names: Iterable[str], *, limit: int = 25, cutoff: float = LIKELY) -> list[str]:
    """The names nearest to what was typed, best first (ties keep the names' own order); every
    name, in order, while nothing is typed."""
    names = list(dict.fromkeys(names))
    if not utils.default_process(typed):
        return names[:limit]
    found = process.extract(
        typed, names, scorer=_score, processor=utils.default_process, limit=limit, score_cutoff=cutoff
    )
    return [name for name, _, _ in sorted(found, key=lambda f: (-f[1], f[2]))]


def closest(typed: str, names: Iterable[str], *, limit: int = 3) -> list[str]:
    """The few names a player most likely meant, best first, for a "did you mean"."""
    return ranked(typed, names, limit=limit, cutoff=CLOSE) if typed.strip() else []


def either(choices: Sequence[str]) -> str:
    """Choices joined for a sentence: a; a or b; a, b or c."""
    return " or ".join(filter(None, (", ".join(choices[:-1]), choices[-1])))
