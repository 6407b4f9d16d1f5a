"""Pictures through whole games: every phase draws, the header says where the game stands."""

from __future__ import annotations

from engine.game import replay
from engine.game_state import GameResult
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase
from engine.tags import tags_for
from renderer import render
from renderer.header import audience_text, phase_text, reason_text, turn_text
from renderer.tags import chip_text
from tests.engine.random_play import play_random_game
from tests.renderer.pixels import png
from tests.renderer.scenes import quick_started

MiB = 1024 * 1024


def test_a_random_game_draws_at_every_stage():
    final, history = play_random_game(quick_battle(), seed=1)
    assert final.phase is Phase.OVER
    state = quick_battle()
    assert png(render(state, None)).size[0] <= 960  # set up, before the first turn
    viewers = ["allies", "axis", "referee", None]
    for i, (command, events) in enumerate(history):
        state, _ = replay(state, [(command, events)])
        if i % 7 == 0 or i == len(history) - 1:
            data = render(state, viewers[i % 4], last_events=events)
            assert len(data) < MiB
            assert png(data).mode == "P"


def test_header_texts():
    setup = quick_battle()
    assert (turn_text(setup), phase_text(setup)) == ("Before turn 1", "Setting up")
    state, _ = quick_started()
    assert (turn_text(state), phase_text(state)) == ("Turn 1/7", "The Allies to act")
    over = state.model_copy(update={"phase": Phase.OVER, "result": GameResult(winner="axis", reason="a")})
    assert (phase_text(over), reason_text(over)) == ("Game over: the Axis win", "A")
    assert reason_text(state) is None
    assert [audience_text(v) for v in ("allies", "referee", None)] == ["Allies view", "referee", "spectators"]


def test_units_in_reserve_or_embarked_are_not_drawn_and_a_transport_shows_its_load():
    state, _ = quick_started()
    gone = state.fork()
    del gone.units["3rd-squad"]
    reserve = state.fork()
    reserve.units["3rd-squad"].in_reserve = True
    assert render(reserve, "allies") == render(gone, "allies")
    carried = state.fork()
    carried.units["3rd-squad"].embarked_in = "sherman-2"
    assert render(carried, "allies") != render(gone, "allies")
    tags = tags_for(state.units.values())
    assert chip_text(carried.units["sherman-2"], tags["sherman-2"], passengers=1) == "Sh2+1"
    assert chip_text(state.units["1st-squad"], tags["1st-squad"], passengers=0) == "1Sq"
