"""Words as a player reads them: counts with their nouns, and the sides by name."""

from __future__ import annotations

SIDE_NAMES = {"allies": "the Allies", "axis": "the Axis"}  # each a plural: "the Allies draw"
QUOTED = 40  # characters of a refused input quoted back


def quoted(text: str, most: int = QUOTED) -> str:
    """What was typed, quoted, cut short when long: ``'aaaa…' (6,000 characters)``."""
    if len(text) <= most:
        return repr(text)
    return f"{text[:most]!r}… ({len(text):,} characters)"


def side_label(side: str) -> str:
    """A side as a label names it, without the article: "Allies" on a roster or a set-up zone."""
    return side_name(side).removeprefix("the ")


def counted(number: int, word: str, plural: str | None = None, *, signed: bool = False) -> str:
    """A count with its noun, singular for one: 1 token, 2 tokens, 3 losses (``signed``: +1 token)."""
    amount = f"{number:+d}" if signed else str(number)
    return f"{amount} {word if abs(number) == 1 else plural or word + 's'}"


def side_name(side: str, *, start: bool = False) -> str:
    """A side as a sentence names it, read as a plural ("the Allies draw", "the Axis set up");
    ``start`` capitalises it to open a sentence."""
    name = SIDE_NAMES.get(side, f"the {side.capitalize()}")
    return name[0].upper() + name[1:] if start else name
