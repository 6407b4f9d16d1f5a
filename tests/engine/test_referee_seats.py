"""Referees' seats (2015 rulebook p. 25): taken and left by a logged command, never by a player
of the game, and never taken back by an undo (the referee's later commands need the seat)."""

import pytest

from engine.commands import AppointReferee, RefereeRuling, UndoActions
from engine.dice import ScriptedDice
from engine.errors import IllegalCommand
from engine.game import apply, replay
from engine.referee import actions_to_undo, live_history
from engine.view import told
from tests.engine.helpers import play
from tests.engine.team_games import turn_one


def test_a_referee_is_appointed_and_dismissed_in_the_log():
    start = turn_one()
    state, events = play(start, AppointReferee(by="boss", user="rolf"))
    assert state.referees == ["rolf"] and start.referees == []
    assert [told(e, None) for e in events] == ["rolf is a referee of this game (by boss)"]
    with pytest.raises(IllegalCommand, match="rolf is already a referee"):
        play(state, AppointReferee(by="boss", user="rolf"))
    left, events = play(state, AppointReferee(by="rolf", user="rolf", appoint=False))
    assert left.referees == [] and state.referees == ["rolf"]
    assert events[0].text == "rolf is no longer a referee of this game (by rolf)"
    with pytest.raises(IllegalCommand, match="rolf is not a referee"):
        play(left, AppointReferee(by="boss", user="rolf", appoint=False))


def test_a_player_of_the_game_cannot_referee_it():
    with pytest.raises(IllegalCommand, match="bob plays allies: a player cannot referee the same game"):
        play(turn_one(), AppointReferee(by="boss", user="bob"))


def test_an_undo_keeps_the_seat_of_the_referee_who_asks_for_it():
    start = turn_one()
    history = []
    state = start
    for command in (
        AppointReferee(by="rolf", user="rolf"),
        RefereeRuling(referee="rolf", ruling="the ford is deep"),
    ):
        state, events = apply(state, command, ScriptedDice([]))
        history.append((command, events))
    assert actions_to_undo(history, 1) == (2,)
    with pytest.raises(IllegalCommand, match="There are 1 actions to take back"):
        actions_to_undo(history, 2)
    undo = UndoActions(referee="rolf", reason="no ruling needed", undone=(2,))
    rebuilt, _ = replay(start, live_history([*history, (undo, [])]))
    assert rebuilt.referees == ["rolf"]
