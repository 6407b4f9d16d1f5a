"""The console's shorthands for team games and referees (p. 25), written out as Discord's options
before the commands' handlers (:mod:`bot.handlers.referees`, :mod:`bot.handlers.teams`) take them.

``/team give ann:1 bob:3`` hands out the CO's bonus tokens to several players at once;
``value:`` stands for a correction's ``count:`` or ``number:`` (``/ref markers unit: value:1
reason:``); ``area:X1,Y1,X2,Y2`` gives a deployment zone's two corners at once (``/ref zone
side: area:``).
"""

from __future__ import annotations

from dataclasses import replace

from bot.console_grammar import Line, whole_bounds
from bot.services.limits import measure, whole_number
from engine.errors import IllegalCommand

VALUE = "value"  # the console-only option that stands for the correction's own
VALUED = ("count", "number")  # the options it may stand for
AREA = "area"
CORNERS = ("x1", "y1", "x2", "y2")


def discord_options(line: Line) -> Line:
    """The line with ``value:`` given as the command's ``count:`` (or ``number:``), unless that
    is given too, and ``area:X1,Y1,X2,Y2`` as the four corners."""
    assert line.spec is not None
    options = dict(line.options)
    if VALUE in options and line.spec.option(VALUE) is not None:
        named = next(name for name in VALUED if line.spec.option(name))
        options.setdefault(named, options.pop(VALUE))
    if AREA in options and line.spec.option(AREA) is not None:
        corners = options.pop(AREA).split(",")
        if len(corners) != len(CORNERS) or not all(corner.strip() for corner in corners):
            raise IllegalCommand(
                "Give the zone as area:X1,Y1,X2,Y2 (or x1: y1: x2: y2:), two opposite corners"
            )
        options.update(zip(CORNERS, (str(measure(AREA, corner)) for corner in corners), strict=True))
    return line if options == line.options else replace(line, options=options)


def bonus_pairs(line: Line) -> list[tuple[str, int]] | None:
    """``/team give ann:1 bob:3``: each player named and the bonus tokens they get; None for
    a line that gives ``player:`` and ``tokens:`` as Discord does (or no pairs at all)."""
    assert line.spec is not None
    if not line.spec.pairs or not line.options or line.gives(line.spec.options[0].name):
        return None
    tokens = line.spec.options[1]
    least, most = whole_bounds(tokens)
    return [
        (player, whole_number(f"tokens for {player}", n, least, most)) for player, n in line.options.items()
    ]
