"""How much any one input may ask for: the size of every free text and the range of every number.

Every option a member types (a name, a label, a ruling, a search, a number of points or hours)
goes through one of these checks before any work is done, so no input costs more than a bounded
amount of work, and going past a limit is refused with a sentence that says the limit. A
refusal quotes at most the start of what was typed.
"""

from __future__ import annotations

from bot.services.game_service import GameError

NAME = 80  # a force, document, deck, campaign or unit label
TEXT = 1000  # a ruling, a reason, a brief, a special rule, a chart's choices
LINE = 2000  # a whole console line or a form's answer
NUMBER_DIGITS = 12  # no whole number in the game needs more digits
QUOTED = 40  # characters of a refused input quoted back


def quoted(text: str) -> str:
    """What was typed, quoted, cut short when long: ``'aaaa…' (6,000 characters)``."""
    if len(text) <= QUOTED:
        return repr(text)
    return f"{text[:QUOTED]!r}… ({len(text):,} characters)"


def bounded_text(what: str, text: str, most: int = TEXT) -> str:
    """``text`` itself, or a refusal if it is longer than ``most`` characters."""
    if len(text) > most:
        raise GameError(f"{what} has at most {most:,} characters; this one has {len(text):,}")
    return text


def whole_number(what: str, typed: str | int, least: int, most: int) -> int:
    """A whole number typed as text (or given), from ``least`` to ``most``; anything else is
    refused with the range. Only the digits 0-9 are read, and never more than a few of them."""
    if isinstance(typed, int):
        number = typed
    else:
        text = typed.strip()
        digits = text.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > NUMBER_DIGITS:
            raise GameError(f"{what} is a whole number from {least:,} to {most:,}, not {quoted(text)}")
        number = int(text)
    if not least <= number <= most:
        raise GameError(f"{what} is a whole number from {least:,} to {most:,}, not {number:,}")
    return number
