"""The referee's corrections, rulings and undo (2015 rulebook p. 25)."""

import pytest

from engine.commands import (
    Declare,
    DeclineReaction,
    Move,
    RefereeCorrection,
    RefereeRuling,
    UndoActions,
    UnitOrder,
)
from engine.dice import ScriptedDice
from engine.errors import IllegalCommand
from engine.game import apply, replay
from engine.referee import actions_to_undo, live_history
from engine.view import told
from tests.engine.helpers import P, play
from tests.engine.team_games import HELD_BACK, turn_one

ANNS = "allies-infantry-detachment-1"  # the allied CO's unit
BOBS_TANK = "allies-sherman-75mm-1"


def refereed():
    state = turn_one()
    state.referees = ["ref"]
    return state


def fix(change, **details):
    return RefereeCorrection(
        referee="ref", reason=details.pop("reason", "misplaced"), change=change, **details
    )


def test_only_a_referee_corrects_and_always_with_a_reason():
    state = refereed()
    with pytest.raises(IllegalCommand, match="Only the game's referees"):
        play(state, fix("markers", unit=ANNS, value=1).model_copy(update={"referee": "ann"}))
    with pytest.raises(IllegalCommand, match="Give a reason"):
        play(state, fix("markers", unit=ANNS, value=1, reason=" "))


def test_the_referee_moves_a_unit_and_the_log_says_why():
    state = refereed()
    state, events = play(state, fix("move", unit=BOBS_TANK, at=P(40, 10), facing=450))
    tank = state.units[BOBS_TANK]
    assert (tank.position, tank.facing) == (P(40, 10), 90)
    assert told(events[0], None) == "Referee puts Sherman 75mm 1 at 40.0,10.0 (misplaced)"
    with pytest.raises(IllegalCommand, match="off the table"):
        play(state, fix("move", unit=BOBS_TANK, at=P(90, 10)))


def test_a_unit_in_reserve_placed_by_the_referee_is_on_the_table():
    state, _ = play(refereed(), fix("move", unit=HELD_BACK, at=P(20, 5), reason="arrived late"))
    assert state.units[HELD_BACK].on_table and state.units[HELD_BACK].position == P(20, 5)


def test_markers_tokens_turn_and_initiative():
    state = refereed()
    state, _ = play(state, fix("markers", unit=ANNS, value=2))
    assert state.units[ANNS].morale_markers == 2
    state, events = play(state, fix("tokens", side="allies", player="bob", value=1))
    assert state.sides["allies"].team.tokens == {"ann": 3, "bob": 1} and state.sides["allies"].tokens == 4
    assert events[0].text == "Referee: bob has 1 token in hand (misplaced)"
    with pytest.raises(IllegalCommand, match="Name the player: one of ann, bob"):
        play(state, fix("tokens", side="allies", value=1))
    state, _ = play(state, fix("turn", value=3))
    assert state.turn == 3
    state, _ = play(state, fix("initiative", side="axis"))
    assert state.active_side == "axis" and state.spent_since_initiative == 0


def test_a_unit_hidden_again_is_named_by_its_marker_to_the_other_side():
    state = refereed()
    state, events = play(state, fix("hide", unit=BOBS_TANK, reason="revealed by mistake"))
    tank = state.units[BOBS_TANK]
    assert tank.hidden and tank.name == "Marker 1" and tank.true_name == "Sherman 75mm 1"
    assert (
        told(events[0], "allies")
        == "Referee: Sherman 75mm 1 is hidden again, as Marker 1 (revealed by mistake)"
    )
    assert "Sherman" not in told(events[0], "axis")
    state, events = play(state, fix("move", unit=BOBS_TANK, at=P(40, 10)))
    assert told(events[0], "axis") == "Referee puts Marker 1 at 40.0,10.0 (misplaced)"
    assert told(events[0], "allies") == "Referee puts Sherman 75mm 1 at 40.0,10.0 (misplaced)"
    state, events = play(state, fix("reveal", unit=BOBS_TANK, reason="seen"))
    assert not state.units[BOBS_TANK].hidden and state.units[BOBS_TANK].name == "Sherman 75mm 1"
    assert (
        told(events[0], "axis")
        == "Marker 1 is revealed (by the referee: seen): Sherman 75mm 1 (Sherman 75mm)"
    )


def test_destroy_and_restore():
    state = refereed()
    state, events = play(state, fix("destroy", unit=ANNS, reason="hit by the barrage we forgot"))
    assert state.units[ANNS].destroyed
    assert "Referee: Infantry Detachment 1 (ann) is destroyed (hit by the barrage we forgot)" in [
        e.text for e in events
    ]
    with pytest.raises(IllegalCommand, match="already destroyed|no unit"):
        play(state, fix("destroy", unit=ANNS))
    state, _ = play(state, fix("restore", unit=ANNS, reason="the barrage missed after all"))
    assert not state.units[ANNS].destroyed


def test_a_reserve_restored_is_said_to_be_back_in_reserve_not_on_the_table():
    state, _ = play(refereed(), fix("destroy", unit=HELD_BACK, reason="lost on the road"))
    state, events = play(state, fix("restore", unit=HELD_BACK, reason="it got through"))
    unit = state.units[HELD_BACK]
    assert not unit.destroyed and unit.in_reserve and not unit.on_table
    assert events[0].text == (
        "Referee: Infantry Detachment 2 (ann) is back in play in reserve, off the table (it got through)"
    )


def test_an_absent_players_units_go_to_a_team_mate_or_a_newcomer():
    state = refereed()
    merged, _ = play(state, fix("give_units", player="ann", to="bob", reason="ann is away"))
    allies = merged.sides["allies"]
    assert allies.players == ["bob"] and allies.team.co == "bob" and allies.team.tokens == {"bob": 7}
    assert merged.units[ANNS].player == "bob"
    newcomer, _ = play(state, fix("give_units", player="ann", to="eve", reason="eve stands in"))
    assert newcomer.sides["allies"].players == ["eve", "bob"] and newcomer.sides["allies"].team.co == "eve"
    with pytest.raises(IllegalCommand, match="plays the other side"):
        play(state, fix("give_units", player="ann", to="cat"))
    with pytest.raises(IllegalCommand, match="ref referees this game: a referee sees everything"):
        play(state, fix("give_units", player="ann", to="ref", reason="I will play her units"))


def test_a_ruling_is_logged_for_everyone():
    state, events = play(
        refereed(), RefereeRuling(referee="ref", ruling="The bridge holds one tank at a time")
    )
    assert told(events[0], None) == "Referee's ruling: The bridge holds one tank at a time"


def test_undo_takes_back_the_last_actions_and_replays_to_the_state_without_them():
    start = refereed()
    history = []
    state = start
    for command in (
        Declare(
            side="allies", player="bob", order=UnitOrder(unit=BOBS_TANK, actions=(Move(path=(P(64.1, 8),)),))
        ),
        DeclineReaction(side="axis", window=1),
        fix("markers", unit=ANNS, value=1),
    ):
        state, events = apply(state, command, ScriptedDice([]))
        history.append((command, events))
    after_first, _ = replay(start, history[:1])

    undone = actions_to_undo(history, 2)
    assert undone == (2, 3)
    undo = UndoActions(referee="ref", reason="the reaction window closed too early", undone=undone)
    rebuilt, produced = replay(start, live_history([*history, (undo, [])]))
    assert rebuilt == after_first
    assert (
        produced[-1][0].text
        == "The referee takes back the last 2 actions: the reaction window closed too early"
    )

    history.append((undo, produced[-1]))
    assert live_history(history) == [history[0], history[3]]
    assert actions_to_undo(history, 1) == (1,)
    with pytest.raises(IllegalCommand, match="There are 1 actions to take back"):
        actions_to_undo(history, 2)
