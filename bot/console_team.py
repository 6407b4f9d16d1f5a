"""The console's words for team games and referees (p. 25), turned into engine commands.

``/team give ann:1 bob:3`` (the CO hands out bonus tokens), ``/team request unit:NAME``,
``/team grant unit:NAME`` and ``/team refuse unit:NAME``; ``/ref CHANGE unit: at: facing:
value: side: player: to: reason:`` for a correction, ``/ref ruling TEXT`` for a ruling
(``/ref undo count:N reason:`` goes to the game service, which rebuilds the game). The referee
prepares the scenario with ``/ref objective side: id: at:``, ``/ref special to: TEXT``,
``/ref brief side: TEXT``, ``/ref force side: points: TEXT`` (the force a side may bring) and
``/ref zone side: area:X1,Y1,X2,Y2`` (where it sets up), and runs the clock with
``/ref pause|resume|close``, ``/ref extend minutes:N`` and ``/ref deadline side: hours:`` (those
go to the game service's clock).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, get_args

from bot.console_grammar import Line
from bot.services.limits import MAX_POINTS, MEASURE, measure, whole_number
from bot.text_orders import find_unit, parse_point
from engine.commands import (
    AnswerReserve,
    AppointReferee,
    Command,
    GiveBonusTokens,
    RefereeBriefing,
    RefereeCorrection,
    RefereeDeploymentZone,
    RefereeForceGuideline,
    RefereeObjective,
    RefereeRuling,
    RefereeSpecialRule,
    RequestReserve,
)
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.wording import side_name

if TYPE_CHECKING:
    from bot.services.game_service import GameService, Outcome

CORNERS = ("x1", "y1", "x2", "y2")
CHANGES = get_args(RefereeCorrection.model_fields["change"].annotation)


def team_command(state: GameState, side: str, line: Line) -> Command:
    """``/team give|request|grant|refuse``."""
    if side not in state.sides or line.player not in state.sides[side].players:
        raise IllegalCommand("Join a side of this team game first (/game join side: force:)")
    what = line.words[0].casefold()
    if what == "give":
        given = line.options
        pairs = [(given["player"], given.get("tokens", ""))] if "player" in given else list(given.items())
        shares = [
            (_player(state, side, player), whole_number(f"tokens for {player}", count, 0, 10**6))
            for player, count in pairs
        ]
        return GiveBonusTokens(side=side, player=line.player, shares=tuple(shares))
    if what in ("request", "grant", "refuse"):
        named = line.options.get("unit")
        if not named:
            raise IllegalCommand(f"Name the unit: /team {what} unit:NAME")
        unit = find_unit(state, named, side)
        if what == "request":
            return RequestReserve(side=side, player=line.player, unit=unit)
        return AnswerReserve(side=side, player=line.player, unit=unit, grant=what == "grant")
    raise IllegalCommand("Try /team, /team give PLAYER:N ..., /team request|grant|refuse unit:NAME")


def referee_command(state: GameState, line: Line) -> Command:
    """``/ref ruling TEXT`` or ``/ref CHANGE ...``."""
    what = line.words[0].casefold() if line.words else ""
    options = line.options
    text = options.get("text", "")
    if what in ("appoint", "dismiss"):
        return AppointReferee(by=line.player, user=options.get("referee", ""), appoint=what == "appoint")
    if what == "ruling":
        return RefereeRuling(referee=line.player, ruling=text)
    if what == "brief":
        return RefereeBriefing(referee=line.player, side=options.get("side", ""), text=text)
    if what == "special":
        audience = options.get("to", "")
        return RefereeSpecialRule(referee=line.player, audience=audience, text=text)
    if what == "force":
        points = whole_number("points", options.get("points", ""), 1, MAX_POINTS)
        side, guideline = options.get("side", ""), options.get("guideline", "")
        return RefereeForceGuideline(referee=line.player, side=side, points=points, text=guideline)
    if what == "zone":
        x1, y1, x2, y2 = _rectangle(options)
        side = options.get("side", "")
        return RefereeDeploymentZone(referee=line.player, side=side, x1=x1, y1=y1, x2=x2, y2=y2)
    if what == "objective":
        if "at" not in options or "id" not in options:
            raise IllegalCommand("Try /ref objective side:allies|axis|both id:NAME at:X,Y")
        side = options.get("side", "both")
        return RefereeObjective(
            referee=line.player,
            id=options["id"],
            at=parse_point(options["at"]),
            side=None if side == "both" else side,
        )
    if what not in CHANGES:
        raise IllegalCommand(
            "Try /ref ruling TEXT, /ref undo count:N reason:WHY, /ref pause|resume|close|extend|deadline, "
            f"/ref objective|special|brief|force|zone|list or /ref {'|'.join(CHANGES)}"
        )
    value = options.get("value", options.get("count", options.get("number")))
    facing = options.get("facing")
    return RefereeCorrection(
        referee=line.player,
        reason=options.get("reason", ""),
        change=what,
        unit=find_unit(state, options["unit"]) if "unit" in options else None,
        side=options.get("side"),
        player=options.get("player"),
        to=options.get("to"),
        at=parse_point(options["at"]) if "at" in options else None,
        facing=measure("facing", facing) if facing is not None else None,
        value=whole_number("value", value, 0, 10**6) if value is not None else None,
    )


def clock_request(service: GameService, channel_id: str, line: Line) -> Awaitable[Outcome] | None:
    """``/ref pause``, ``resume``, ``close``, ``extend minutes:N`` or ``deadline side: hours:``, as
    a request to the game service's clock; None for the other ``/ref`` words."""
    what = line.words[0].casefold() if line.verb == "ref" and line.words else ""
    clocks, referee = service.clocks, line.player
    if what == "pause":
        return clocks.pause(channel_id, referee)
    if what == "resume":
        return clocks.resume(channel_id, referee)
    if what == "close":
        return clocks.close_window(channel_id, referee)
    if what == "extend":
        return clocks.extend(channel_id, referee, int(_number(line, "minutes")))
    if what == "deadline":
        return _deadline(service, channel_id, line)
    return None


async def _deadline(service: GameService, channel_id: str, line: Line) -> Outcome:
    side, hours = line.options.get("side", ""), _number(line, "hours")
    outcome, _ = await service.clocks.set_deadline(channel_id, line.player, side, hours)
    return outcome


def _number(line: Line, name: str) -> float:
    if name not in line.options:
        raise IllegalCommand(f"Give {name}:N, a number")
    return measure(name, line.options[name], 0, MEASURE)


def _rectangle(options: dict[str, str]) -> tuple[float, float, float, float]:
    """Two opposite corners of a rectangle, in inches: ``x1: y1: x2: y2:`` as in Discord, or
    ``area:X1,Y1,X2,Y2`` at once."""
    corners = options["area"].split(",") if "area" in options else [options.get(c, "") for c in CORNERS]
    if len(corners) != 4 or not all(corners):
        raise IllegalCommand("Give the zone as area:X1,Y1,X2,Y2 (or x1: y1: x2: y2:), two opposite corners")
    x1, y1, x2, y2 = (measure("area", corner) for corner in corners)
    return x1, y1, x2, y2


def _player(state: GameState, side: str, name: str) -> str:
    for player in state.sides[side].players:
        if player.casefold() == name.casefold():
            return player
    players = ", ".join(state.sides[side].players)
    raise IllegalCommand(f"{name} is not one of {side_name(side)}' players: {players}")
