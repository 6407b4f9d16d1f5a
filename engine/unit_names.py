"""Every unit's name unique in its game. Forces are built apart, so both sides (or two team-mates)
may well bring an "Infantry Detachment 1". When a force arrives with a name already in the game,
every unit of that name says whose it is after it: the player's in a team game ("Infantry
Detachment 1 (bob)"), the side's otherwise ("Infantry Detachment 1 (Axis)"). The name its force
gave it stays what it is ``called``, so players may still type it (:func:`bot.text_orders.find_unit`
looks among their own units, or the enemy's, first)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.game_state import GameState
from engine.roster import name_of
from engine.state import Unit


def given_name(unit: Unit) -> str:
    """The name the unit's force gave it, before it said whose it is."""
    return unit.called or unit.name


def whose(state: GameState, unit: Unit) -> str:
    """What tells the unit apart from another of its name: its player's name in a team game, else
    its side."""
    if unit.player is None:
        return unit.side.capitalize()
    return name_of(state, unit.player) or unit.player


def _say_whose(state: GameState, unit: Unit) -> Unit:
    called = given_name(unit)
    return unit.model_copy(update={"called": called, "name": f"{called} ({whose(state, unit)})"})


def names_apart(state: GameState, arriving: Sequence[Unit]) -> list[Unit]:
    """The arriving units, each unit of a name already in the game (theirs, and the one there
    before) saying whose it is; those already in the game are renamed in place."""
    shared = {given_name(u).casefold() for u in state.units.values()} & {
        given_name(u).casefold() for u in arriving
    }
    for unit in list(state.units.values()):
        if given_name(unit).casefold() in shared and unit.called is None:
            state.units[unit.id] = _say_whose(state, unit)
    return [_say_whose(state, u) if given_name(u).casefold() in shared else u for u in arriving]
