"""The Red Barricades CG III calendar: the CG Days 17 October to 15 November 1942, and each
side's Historical DRM for a CG Day (Historical DRM Chart, 11.6161).

The DRM is read from the ``rb-rg-strength`` chart's ``historical`` table, the one table the RG
strength, OBA ammo and gun battery rolls use too.
"""

from __future__ import annotations

import datetime
import re
from typing import Literal

from engine.errors import IllegalCommand
from engine.rolls.charts import find_chart

Side = Literal["german", "russian"]
SIDES: tuple[Side, ...] = ("german", "russian")
SIDE_NAMES = {"german": "German", "russian": "Russian"}

FIRST_CG_DAY = datetime.date(1942, 10, 17)
LAST_CG_DAY = datetime.date(1942, 11, 15)
CG_DAYS: tuple[datetime.date, ...] = tuple(
    FIRST_CG_DAY + datetime.timedelta(days=n) for n in range((LAST_CG_DAY - FIRST_CG_DAY).days + 1)
)

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_DATE = re.compile(
    r"^(?:(?P<day>\d{1,2})\s+(?P<month>[a-z]+)\.?|(?P<month2>[a-z]+)\.?\s+(?P<day2>\d{1,2}))"
    r"(?:,?\s+(?P<year>\d{4}))?$"
)


def check_side(side: str) -> Side:
    """``"German"`` -> ``"german"``; anything but the two CG sides is refused."""
    wanted = side.strip().casefold()
    if wanted not in SIDES:
        raise IllegalCommand(f"The side is german or russian, not {side!r}")
    return wanted  # type: ignore[return-value]


def day_label(day: datetime.date) -> str:
    """``date(1942, 11, 2)`` -> ``"2 Nov"``, the way the charts name a CG Day."""
    return f"{day.day} {_MONTHS[day.month - 1][:3].title()}"


def parse_cg_date(text: str) -> datetime.date:
    """Read a CG Day written "2 Nov", "2 November", "Nov 2" or "November 2" (a year, if given, is 1942)."""
    match = _DATE.match(text.strip().casefold())
    month_word = match and (match["month"] or match["month2"])
    month = next(
        (
            n
            for n, name in enumerate(_MONTHS, 1)
            if month_word and len(month_word) >= 3 and name.startswith(month_word)
        ),
        None,
    )
    if not match or month is None:
        raise IllegalCommand(f"Cannot read {text!r} as a CG Day: write e.g. 2 Nov, 2 November or Nov 2")
    try:
        day = datetime.date(int(match["year"] or 1942), month, int(match["day"] or match["day2"]))
    except ValueError:
        raise IllegalCommand(f"{text!r} is not a date") from None
    return cg_day(day)


def cg_day(day: datetime.date | str) -> datetime.date:
    """A CG Day from a date or its text; a day outside the CG III calendar is refused."""
    if isinstance(day, str):
        return parse_cg_date(day)
    if day not in CG_DAYS:
        raise IllegalCommand(
            f"{day_label(day)} {day.year} is not a CG Day: Red Barricades CG III runs "
            f"{day_label(FIRST_CG_DAY)} to {day_label(LAST_CG_DAY)} 1942"
        )
    return day


def historical_drm(side: str, day: datetime.date | str) -> int:
    """The side's Historical DRM (11.6161) for a CG Day, from the RG strength chart's table."""
    table = find_chart("rb-rg-strength").tables["historical"]
    return table[check_side(side)][day_label(cg_day(day))]
