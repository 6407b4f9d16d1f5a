"""The console's words for team games and referees (p. 25), turned into engine commands.

``/team give ann:1 bob:3`` (the CO hands out bonus tokens), ``/team request unit:NAME``,
``/team grant unit:NAME`` and ``/team refuse unit:NAME``; ``/ref CHANGE unit: at: facing:
value: side: player: to: reason:`` for a correction, ``/ref ruling TEXT`` for a ruling
(``/ref undo count:N reason:`` goes to the game service, which rebuilds the game).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

from bot.text_orders import find_unit, parse_point
from engine.commands import (
    AnswerReserve,
    Command,
    GiveBonusTokens,
    RefereeCorrection,
    RefereeRuling,
    RequestReserve,
)
from engine.errors import IllegalCommand
from engine.game_state import GameState

if TYPE_CHECKING:
    from bot.console import Line

CHANGES = get_args(RefereeCorrection.model_fields["change"].annotation)


def team_command(state: GameState, side: str, line: Line) -> Command:
    """``/team give|request|grant|refuse``."""
    if side not in state.sides or line.player not in state.sides[side].players:
        raise IllegalCommand("Join a side of this team game first (/game join side: force:)")
    what = line.words[0].casefold()
    if what == "give":
        shares = []
        for player, count in line.options.items():
            if not count.isdigit():
                raise IllegalCommand(f"Give a whole number of tokens to {player}, not {count!r}")
            shares.append((_player(state, side, player), int(count)))
        return GiveBonusTokens(side=side, player=line.player, shares=tuple(shares))
    if what in ("request", "grant", "refuse"):
        named = line.options.get("unit") or " ".join(line.words[1:])
        if not named:
            raise IllegalCommand(f"Name the unit: /team {what} unit:NAME")
        unit = find_unit(state, named, side)
        if what == "request":
            return RequestReserve(side=side, player=line.player, unit=unit)
        return AnswerReserve(side=side, player=line.player, unit=unit, grant=what == "grant")
    raise IllegalCommand("Try /team, /team give PLAYER:N ..., /team request|grant|refuse unit:NAME")


def referee_command(state: GameState, line: Line, text: str) -> Command:
    """``/ref ruling TEXT`` or ``/ref CHANGE ...``."""
    what = line.words[0].casefold() if line.words else ""
    if what == "ruling":
        return RefereeRuling(referee=line.player, ruling=text.split("ruling", 1)[1].strip())
    if what not in CHANGES:
        raise IllegalCommand(
            f"Try /ref ruling TEXT, /ref undo count:N reason:WHY or /ref {'|'.join(CHANGES)}"
        )
    options = line.options
    value = options.get("value", options.get("count"))
    if value is not None and not value.isdigit():
        raise IllegalCommand(f"value is a whole number, not {value!r}")
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
        facing=float(facing) if facing is not None else None,
        value=int(value) if value is not None else None,
    )


def _player(state: GameState, side: str, name: str) -> str:
    for player in state.sides[side].players:
        if player.casefold() == name.casefold():
            return player
    raise IllegalCommand(f"{name} is not one of {side}'s players: {', '.join(state.sides[side].players)}")
