"""How much any one input may ask for: the size of every free text and the range of every number.

Every option a member types (a name, a label, a ruling, a search, a number of points or hours)
goes through one of these checks before any work is done, so no input costs more than a bounded
amount of work, and going past a limit is refused with a sentence that says the limit. A
refusal quotes at most the start of what was typed.

The same checks clean what was typed, once, where it comes in (:func:`cleaned`): no character
that shows nothing or turns the text around reaches the game, so two names that look alike are
alike. How a front end shows the words (Discord's Markdown and mentions) is its own business.
"""

from __future__ import annotations

import math
import re
import unicodedata
from enum import Enum

from pydantic import BaseModel

from engine.errors import IllegalCommand
from engine.forces import MOST_POINTS
from engine.wording import quoted

NAME = 80  # a force, document, deck, campaign or unit label
TEXT = 1000  # a ruling, a reason, a brief, a special rule, a chart's choices
LINE = 2000  # a whole console line or a form's answer
NUMBER_DIGITS = 12  # no whole number in the game needs more digits
MEASURE = 100_000  # inches, degrees, hours: no measure in the game comes near it
ITEMS = 1000  # units in one order, players in one list ...
REACTION_SECONDS = range(15, 48 * 3600 + 1)  # a window lasts 15 s to 48 h
STAND_IN_POINTS = range(50, 5001)  # a side's points in a scenario against the bot
STAND_IN_POINTS_DEFAULT = 300
MAX_POINTS = MOST_POINTS  # a force's points limit (the force builder's, engine.forces)
MAX_TEAM = 8  # players a side in a team game
UNDO_MOST = 1000  # actions a referee takes back at once
MAX_DAYS = 30  # CG Days in a campaign
MAX_CPP = 1000  # campaign purchase points a side gets a CG Day
MAX_ENTRIES = 1_000_000  # a campaign ledger's entry numbers
MAX_DURATION_DAYS = 365  # a campaign phase, a grace period, a reminder
LOBBY_HOURS = range(1, 24 * 7 + 1)  # a lobby stays open an hour to a week
LOBBY_DEFAULT_HOURS = 24
LOBBY_NOTE = 200  # characters of a lobby's note to whoever joins


_BREAKS = re.compile(r"\r\n?|[\v\f\x1c-\x1e\x85\u2028\u2029]")  # every other way to end a line
_KEPT_IN_LINES = "\n\t"


def cleaned(text: str, *, lines: bool = False) -> str:
    """``text`` without the characters that show nothing or turn the rest around: control,
    zero-width and direction characters (Unicode's Cc and Cf). With ``lines`` (a ruling, a brief,
    a file) its line breaks stay, each written ``\\n``, and its tabs; else (a name) every run of
    spaces and line breaks is one space, and none at either end."""
    if text.isascii() and text.isprintable():  # the usual text: nothing to take out, no break in it
        return text if lines else " ".join(text.split())
    if lines:
        text = _BREAKS.sub("\n", text)
        return "".join(c for c in text if c in _KEPT_IN_LINES or unicodedata.category(c) not in ("Cc", "Cf"))
    kept = "".join(
        " " if c.isspace() else c for c in text if unicodedata.category(c) not in ("Cc", "Cf") or c.isspace()
    )
    return " ".join(kept.split())


def bounded_text(what: str, text: str, most: int = TEXT) -> str:
    """``text`` cleaned with its lines kept (:func:`cleaned`), or a refusal if it is longer than
    ``most`` characters."""
    if len(text) > most:
        raise IllegalCommand(f"{what} has at most {most:,} characters; this one has {len(text):,}")
    return cleaned(text, lines=True)


def bounded_name(what: str, text: str, most: int = NAME) -> str:
    """A name as typed, cleaned on one line (:func:`cleaned`), or a refusal if it is longer than
    ``most`` characters."""
    return cleaned(bounded_text(what, text, most))


def whole_number(what: str, typed: str | int, least: int, most: int) -> int:
    """A whole number typed as text (or given), from ``least`` to ``most``; anything else is
    refused with the range. Only the digits 0-9 are read, and never more than a few of them."""
    if isinstance(typed, int):
        number = typed
    else:
        text = typed.strip()
        digits = text.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > NUMBER_DIGITS:
            raise IllegalCommand(f"{what} is a whole number from {least:,} to {most:,}, not {quoted(text)}")
        number = int(text)
    if not least <= number <= most:
        raise IllegalCommand(f"{what} is a whole number from {least:,} to {most:,}, not {number:,}")
    return number


def reaction_seconds(typed: str) -> int:
    """How long a reaction window stays open, as typed: 15 s to 48 h."""
    return whole_number("reaction_seconds", typed, REACTION_SECONDS.start, REACTION_SECONDS.stop - 1)


# a game's pace: played live at one sitting, or over days with a move or two a day
PACES = {"live": 120, "daily": 24 * 3600}
MOST_MISSED = 10  # a daily game hands a side to the bot after at most this many missed deadlines
DAILY = 3600  # the shortest reaction window of a game played over days (for stand_in_after)


def window_seconds(pace: str, seconds: int | None = None) -> int:
    """How long a new game's reaction windows stay open: ``seconds`` if given, else its pace's
    (live: 2 minutes; daily: 24 hours)."""
    if pace not in PACES:
        raise IllegalCommand(f"The pace is live or daily, not {quoted(pace)}")
    return PACES[pace] if seconds is None else seconds


def measure(what: str, typed: str | float, least: float = -MEASURE, most: float = MEASURE) -> float:
    """A number that may have a fraction (inches, degrees, hours), from ``least`` to ``most``."""
    if isinstance(typed, str):
        try:
            number = float(typed) if len(typed.strip()) <= 2 * NUMBER_DIGITS else math.nan
        except ValueError:
            number = math.nan
    else:
        number = typed
    if not least <= number <= most:  # also refuses nan
        shown = quoted(typed) if isinstance(typed, str) else f"{typed:g}"
        raise IllegalCommand(f"{what} is a number from {least:,g} to {most:,g}, not {shown}")
    return number


def bounded_command(command: BaseModel) -> BaseModel:
    """The command with its every text cleaned (:func:`bounded_text`), if its every text, number
    and list is within the limits, else a refusal naming the field: the one check every command
    passes before the game works on it."""
    changed = {
        name: bounded
        for name, field in command
        if (bounded := _bounded_field(name, field)) is not field and bounded != field
    }
    return command.model_copy(update=changed) if changed else command


def _bounded_field(name: str, field: object) -> object:
    """``field`` checked and cleaned; the same object if nothing in it changed."""
    if isinstance(field, Enum):  # one of the game's own words, whatever its type
        return field
    if isinstance(field, str):
        return bounded_text(name, field)
    if isinstance(field, bool) or field is None:
        return field
    if isinstance(field, int):
        return whole_number(name, field, -(10**NUMBER_DIGITS), 10**NUMBER_DIGITS)
    if isinstance(field, float):
        return measure(name, field)
    if isinstance(field, BaseModel):
        return bounded_command(field)
    if isinstance(field, list | tuple | set | frozenset | dict):
        items = list(field.items()) if isinstance(field, dict) else list(field)
        if len(items) > ITEMS:
            raise IllegalCommand(f"{name} has at most {ITEMS:,} items; this one has {len(items):,}")
        bounded = [_bounded_field(name, item) for item in items]
        if all(new is old for new, old in zip(bounded, items, strict=True)):
            return field
        return dict(bounded) if isinstance(field, dict) else type(field)(bounded)
    return field


MOST_SEED = 2**31 - 1  # a generated table's seed (fits a Discord integer option)
TABLE_FILE = 100_000  # characters of a table's YAML file (a full 16' table takes about 15,000)
FORCE_TEXT = 40_000  # characters of a force's text (a force of 200 units takes about 17,000)
