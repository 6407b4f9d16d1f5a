"""Turns, tokens, initiative, passing and the end of turn (Iron Cross 2015, pp. 4-5, 13, 18, 27)."""

import pytest

from engine.commands import (
    ChooseInitiative,
    Declare,
    DeclineReaction,
    Move,
    PassInitiative,
    StartGame,
    UnitOrder,
)
from engine.dice import d6
from engine.errors import IllegalCommand
from engine.event_data import InitiativeData
from engine.scenarios.new_game import make_unit
from engine.state import Phase
from tests.engine.helpers import P, game, play, started, text


def small_game(**kw):
    """One infantry detachment a side, no command units: one token each."""
    return game(
        make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis"),
        make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        **kw,
    )


def test_tokens_one_per_unit_plus_two_for_command_unit_p4_p18():
    """Transports draw no tokens; a command unit in reserve still gives its two (pp. 4, 18, 20)."""
    state = game(
        make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="hq", command=True),
        make_unit("us", "Infantry Detachment", "allies", (14, 10), unit_id="squad"),
        make_unit("us", "Sherman 75mm", "allies", (20, 10)),
        make_unit("us", "Truck/Jeep", "allies", (24, 10), unit_id="truck"),
        make_unit(
            "german", "Infantry Detachment", "axis", (60, 60), unit_id="hq-de", command=True, in_reserve=True
        ),
        make_unit("german", "Panther", "axis", (70, 60)),
    )
    state, events = play(state, StartGame(), d6(4), d6(2))
    assert state.sides["allies"].tokens == 5
    assert state.sides["axis"].tokens == 3
    assert "the Allies draw 5 tokens, the Axis draw 3" in text(events)


def test_initiative_tie_is_rolled_again_and_winner_chooses_p4():
    state, events = play(small_game(), StartGame(), d6(3), d6(3), d6(2), d6(5))
    assert "tie" in text(events)
    assert state.phase is Phase.INITIATIVE and state.initiative_winner == "axis"
    won = [e.data for e in events if isinstance(e.data, InitiativeData)]
    assert won == [InitiativeData(rolls=(("allies", 2), ("axis", 5)), winner="axis")]
    with pytest.raises(IllegalCommand, match="The Axis won the initiative"):
        play(state, ChooseInitiative(side="allies", go_first=True))
    state, _ = play(state, ChooseInitiative(side="axis", go_first=False))
    assert state.active_side == "allies"


def test_pass_needs_a_token_spent_since_gaining_the_initiative_p5():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis"),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
        tokens=3,
    )
    with pytest.raises(IllegalCommand, match="spend at least one command token"):
        play(state, PassInitiative(side="axis"))
    state, _ = play(
        state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(80, 56),)),)))
    )
    state, _ = play(state, DeclineReaction(side="allies", window=state.pending.window))
    state, events = play(state, PassInitiative(side="axis"))
    assert state.active_side == "allies"
    with pytest.raises(IllegalCommand, match="spend at least one command token"):
        play(state, PassInitiative(side="allies"))


def test_active_side_out_of_tokens_hands_over_then_turn_ends_when_both_spent_p4():
    state = started(small_game(), "axis", tokens=None)
    assert (state.sides["allies"].tokens, state.sides["axis"].tokens) == (1, 1)
    state, _ = play(
        state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(80, 56),)),)))
    )
    state, events = play(state, DeclineReaction(side="allies", window=state.pending.window))
    assert "The Axis have no tokens left: the Allies take the initiative" in text(events)
    assert state.active_side == "allies"
    # axis has no tokens, so no reaction window opens; both sides are spent and the turn ends:
    # break point tests (allies, axis), then turn 2 draws tokens and rolls initiative
    state, events = play(
        state,
        Declare(side="allies", order=UnitOrder(unit="gis", actions=(Move(path=(P(10, 14),)),))),
        d6(1),
        d6(1),
        d6(2),
        d6(6),
    )
    log = text(events)
    assert "The Axis have no tokens to react with" in log
    assert "End of turn 1, the Allies: lost 0 + d6 1 = 1 vs break point 2: holds" in log
    assert state.turn == 2 and state.phase is Phase.INITIATIVE
    assert state.initiative_winner == "axis"
    assert all(u.tokens == 0 and not u.moved_this_turn for u in state.units.values())


def test_the_initiative_passed_to_a_side_with_no_tokens_stays_with_the_passer_p4():
    state = started(small_game(), "axis", tokens=None)
    state.sides["allies"].tokens = 0
    state.sides["axis"].tokens = 2
    state, _ = play(
        state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(80, 56),)),)))
    )
    state, events = play(state, PassInitiative(side="axis"))
    assert text(events) == "The Allies have no tokens, so cannot take the initiative: the Axis have it"
    assert state.active_side == "axis" and state.phase is Phase.ACTIVE and state.sides["axis"].tokens == 1


def test_destroyed_units_tokens_are_gone_next_turn_p13():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a1"),
            make_unit("us", "Infantry Detachment", "allies", (14, 10), unit_id="a2"),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
        tokens=None,
    )
    state.units["a2"].destroyed = True
    assert state.sides["allies"].tokens == 2  # drawn before the loss: still in hand this turn
    state.sides["allies"].tokens = 0
    state, _ = play(
        state,
        Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(80, 56),)),))),
        d6(1),
        d6(1),
        d6(6),
        d6(1),
    )
    assert state.turn == 2
    assert state.sides["allies"].tokens == 1


def test_break_point_test_ends_the_game_p27():
    """Lost BP + d6 (+2 for a lost force commander) above the break point: defeat."""
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="hq", command=True),
            make_unit("us", "Sherman 75mm", "allies", (20, 10)),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
        tokens=None,
    )
    state.units["hq"].destroyed = True  # 4 BP lost, and the force commander
    state.sides["allies"].tokens = 0
    assert state.sides["allies"].break_point == 6  # 2/3 of 10
    state, events = play(
        state,
        Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(80, 56),)),))),
        d6(1),
        d6(2),
    )
    log = text(events)
    assert "the Allies: lost 4 + d6 1 + 2 commander lost = 7 vs break point 6: breaks" in log
    tests = {e.data.side: e.data for e in events if e.kind == "break_test"}
    allies = tests["allies"]
    assert (allies.test, allies.roll, allies.passed) == ("break point test", 1, False)
    assert (tests["axis"].roll, tests["axis"].passed) == (2, True)
    assert state.phase is Phase.OVER
    assert state.result.winner == "axis"


def test_both_forces_breaking_in_one_turn_is_a_draw_p27():
    state = started(small_game(), "axis", tokens=None)
    for side in state.sides.values():
        side.break_point = 0
    state.sides["allies"].tokens = 0
    state, _ = play(
        state,
        Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(80, 56),)),))),
        d6(1),
        d6(1),
    )
    assert state.phase is Phase.OVER
    assert state.result.winner is None


@pytest.mark.parametrize(("roll", "extra_turn"), [(4, True), (3, False)])
def test_random_operation_length_p27(roll, extra_turn):
    state = started(small_game(last_turn=1, random_length=True), "axis", tokens=None)
    state.sides["allies"].tokens = 0
    faces = [d6(1), d6(1), d6(roll)] + ([d6(2), d6(6)] if extra_turn else [])
    state, events = play(
        state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(80, 56),)),))), *faces
    )
    assert f"Random operation length: {roll}" in text(events)
    if extra_turn:
        assert state.turn == 2 and state.phase is Phase.INITIATIVE
    else:
        assert state.phase is Phase.OVER
        assert state.result.reason == "time ran out with the objectives shared"
