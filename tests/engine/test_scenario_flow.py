"""Scenario special rules in the game flow, with scripted dice (Iron Cross 2015, pp. 26-31)."""

import pytest

from engine.commands import ChooseInitiative, Concede, Move, PassInitiative, StartGame
from engine.dice import d6, d10
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind, Going, Objective, Phase, Point, TableSize
from tests.engine.helpers import P, act, box, game, play, started, text


def two_small_forces():
    return game(
        make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a", command=True),
        make_unit("us", "Infantry Detachment", "allies", (20, 10), unit_id="b"),
        make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="x", command=True),
        make_unit("german", "Infantry Detachment", "axis", (20, 60), unit_id="y"),
    )


def test_aggressive_command_draws_a_d6_of_tokens_in_place_of_two_p26():
    state = two_small_forces()
    state.sides["axis"].aggressive_command = True
    state, events = play(state, StartGame(), d6(5), d6(6), d6(1))
    assert "The Axis' aggressive command rolls 5 tokens instead of 2" in text(events)
    assert (state.sides["allies"].tokens, state.sides["axis"].tokens) == (4, 7)


def test_aggressive_command_ends_with_the_command_unit_p26():
    state = two_small_forces()
    state.sides["axis"].aggressive_command = True
    state.units["x"].destroyed = True
    state, events = play(state, StartGame(), d6(6), d6(1))
    assert "aggressive" not in text(events) and state.sides["axis"].tokens == 1


def test_capture_defender_rolls_a_d6_per_token_and_gains_one_per_5_or_6_p30():
    state = two_small_forces()
    state.sides["allies"].extra_token_dice = True
    state, events = play(state, StartGame(), d6(5), d6(1), d6(6), d6(4), d6(6), d6(1))
    assert "The Allies roll for extra tokens: 5, 1, 6, 4: +2" in text(events)
    assert (state.sides["allies"].tokens, state.sides["axis"].tokens) == (6, 4)


def test_preliminary_bombardment_before_the_first_turn_p26():
    state = game(
        make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a", command=True),
        make_unit("us", "Sherman 75mm", "allies", (30, 10), unit_id="tank"),
        make_unit("us", "Infantry Detachment", "allies", (50, 10), unit_id="woods-gis", name="Woods GIs"),
        make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="x", command=True),
        terrain=[box("woods", "woods", 45, 5, 55, 15, going=Going.ROUGH, cover=CoverKind.COVER)],
    )
    state.sides["allies"].bombarded = True
    faces = (d10(9), d6(4), d10(10), d10(9), d6(4), d6(6), d6(1))
    state, events = play(state, StartGame(), *faces)
    assert [e.text for e in events if e.kind == "bombardment"] == [
        "Bombardment on Infantry Detachment: 9, casualty 4+ rolled 4: 2 markers",
        "Bombardment on Sherman 75mm: 10: 1 marker",
        "Bombardment on Woods GIs: 9, casualty 5+ rolled 4: 1 marker",
    ]
    markers = {u.id: u.morale_markers for u in state.units.values()}
    assert markers == {"a": 2, "tank": 1, "woods-gis": 1, "x": 0}


def objective_game():
    state = game(
        make_unit("us", "Infantry Detachment", "allies", (30, 24), unit_id="gis", command=True),
        make_unit("german", "Infantry Detachment", "axis", (30, 36), unit_id="gren", command=True),
        objectives=[Objective(id="church", position=Point(x=30, y=30))],
    )
    return started(state, "allies")


def test_an_objective_is_claimed_by_the_only_side_near_it_and_held_until_taken_p26():
    state, events = act(objective_game(), "allies", "gis", Move(path=(P(30, 28.5),)))
    assert "The Allies claim objective church" in text(events)
    state, events = act(state, "allies", "gis", Move(path=(P(30, 23),)), faces=[d6(6)])
    assert state.objectives[0].held_by == "allies" and "claims" not in text(events)
    state.active_side = "axis"
    state, events = act(state, "axis", "gren", Move(path=(P(30, 31.5),)))
    assert "The Axis claim objective church" in text(events) and state.objectives[0].held_by == "axis"


def test_an_objective_with_both_sides_near_it_does_not_change_hands_p26():
    state, _ = act(objective_game(), "allies", "gis", Move(path=(P(30, 28.5),)))
    state.active_side = "axis"
    state, events = act(state, "axis", "gren", Move(path=(P(31, 31),)))
    assert "claims" not in text(events) and state.objectives[0].held_by == "allies"


def end_turn(state, *faces):
    state.sides["allies"].tokens = state.sides["axis"].tokens = 0
    return play(state, PassInitiative(side=state.active_side), *faces)


def capture_game(defender_at):
    state = game(
        make_unit("us", "Infantry Detachment", "allies", defender_at, unit_id="gis", command=True),
        make_unit("german", "Infantry Detachment", "axis", (30, 70), unit_id="gren", command=True),
        objectives=[Objective(id="village", position=Point(x=30, y=36))],
    )
    state.scenario, state.attacker = "capture", "axis"
    return started(state, "axis")


def test_capture_attacker_wins_after_a_whole_turn_with_no_defender_near_an_objective_p30():
    state, events = end_turn(capture_game((30, 10)), d6(1), d6(1), d6(6), d6(1))
    assert state.phase is not Phase.OVER and state.objectives_left_bare
    state, _ = play(state, ChooseInitiative(side=state.initiative_winner, go_first=True))
    state, events = end_turn(state, d6(1), d6(1))
    assert state.result.winner == "axis"
    assert state.result.reason == 'no allies unit came within 12" of an objective for a whole turn'


def test_capture_a_defender_near_the_objective_holds_the_attacker_off_p30():
    state, _ = end_turn(capture_game((30, 28)), d6(1), d6(1), d6(6), d6(1))
    state, _ = play(state, ChooseInitiative(side=state.initiative_winner, go_first=True))
    state, _ = end_turn(state, d6(1), d6(1), d6(6), d6(1))
    assert state.phase is not Phase.OVER and not state.objectives_left_bare


@pytest.mark.parametrize(("at", "winner"), [((30, 40), "allies"), ((30, 30), "axis")])
def test_breakthrough_a_third_of_the_attackers_bp_in_the_far_third_wins_p31(at, winner):
    state = game(
        make_unit("us", "Infantry Detachment", "allies", at, unit_id="lead", command=True),
        make_unit("us", "Infantry Detachment", "allies", (10, 4), unit_id="rear"),
        make_unit("german", "Infantry Detachment", "axis", (60, 44), unit_id="gren", command=True),
        table=TableSize(width=72, depth=48),
        last_turn=1,
    )
    state.scenario, state.attacker = "breakthrough", "allies"
    state, _ = end_turn(started(state, "allies"), d6(1), d6(1))
    assert state.result.winner == winner
    assert "of 8 BP in the far third" in state.result.reason


def test_the_game_ends_with_a_summary_of_losses_break_points_and_objectives():
    state = objective_game()
    state.units["gren"].destroyed = True
    state.objectives[0] = state.objectives[0].model_copy(update={"held_by": "allies"})
    state, events = play(state, Concede(side="axis"))
    assert [e.kind for e in events] == ["game_over", "summary"]
    assert events[-1].text == (
        "After 1 turn:\n"
        "Allies: lost 0 units, 0 BP of a break point of 2, holds church\n"
        "Axis: lost 1 unit (Infantry Detachment), 4 BP of a break point of 2"
    )
