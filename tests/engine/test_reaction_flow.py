"""Reactions and their sequence (Iron Cross 2015, pp. 6-7, 13, 18)."""

import pytest

from engine.commands import (
    ChooseTarget,
    Declare,
    DeclineReaction,
    Fire,
    MoraleTestOrder,
    Move,
    PassInitiative,
    React,
    RemoveMarkers,
    UnitOrder,
)
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind, Going, Phase, TerrainFeature
from tests.engine.helpers import P, box, game, play, started, text

HILL = box("hill", "hill", 12, 8, 28, 14, blocks_sight=True)
WOODS = box("woods", "woods", 0, 50, 30, 70, going=Going.ROUGH, cover=CoverKind.COVER, blocks_sight=True)


def move(unit, x, y, **kw):
    return UnitOrder(unit=unit, actions=(Move(path=(P(x, y),), **kw),))


def test_company_morale_test_as_a_reaction_then_the_player_chooses_p6_p13():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a", morale_markers=2),
            make_unit("us", "Infantry Detachment", "allies", (20, 10), unit_id="b", morale_markers=3),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=move("gren", 80, 56)))
    state, events = play(
        state, React(side="allies", window=state.pending.window, order=MoraleTestOrder()), d6(3), d6(6)
    )
    assert "needs 3+, rolled 3: success" in text(events)
    assert "rolled 6: remove all markers from one unit" in text(events)
    assert state.phase is Phase.CHOICE and state.pending.choice.options == ["a", "b"]
    with pytest.raises(IllegalCommand, match="Choose one of your units"):
        play(state, RemoveMarkers(side="allies", unit="gren"))
    state, events = play(state, RemoveMarkers(side="allies", unit="b"))
    assert state.units["b"].morale_markers == 0 and state.units["a"].morale_markers == 2
    assert state.units["gren"].position == P(80, 56)  # the active unit then completes its move
    assert state.phase is Phase.ACTIVE and state.active_side == "axis"


def test_no_reaction_to_a_morale_test_taken_first_after_a_pass_p6():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a", morale_markers=1),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=move("gren", 80, 56)))
    state, _ = play(state, DeclineReaction(side="allies", window=state.pending.window))
    state, _ = play(state, PassInitiative(side="axis"))
    state, events = play(state, Declare(side="allies", order=MoraleTestOrder()), d6(4))
    assert "No reaction is allowed" in text(events)
    assert state.units["a"].morale_markers == 0


def test_one_reaction_per_activation_and_stale_windows_are_refused_p6():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a"),
            make_unit("us", "Infantry Detachment", "allies", (20, 10), unit_id="b"),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=move("gren", 80, 56)))
    window = state.pending.window
    state, _ = play(state, React(side="allies", window=window, order=move("a", 10, 12)), d6(3))
    with pytest.raises(IllegalCommand, match="No reaction window is open"):
        play(state, React(side="allies", window=window, order=move("b", 20, 12)))
    state, _ = play(state, Declare(side="axis", order=move("gren", 80, 52)))
    with pytest.raises(IllegalCommand, match=f"Reaction window {window} has closed"):
        play(state, DeclineReaction(side="allies", window=window))
    with pytest.raises(IllegalCommand, match="Only the Allies may react"):
        play(state, DeclineReaction(side="axis", window=state.pending.window))


def test_failed_reaction_spends_the_token_and_counts_as_an_activation_p6():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a"),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=move("gren", 80, 56)))
    state, events = play(
        state, React(side="allies", window=state.pending.window, order=move("a", 10, 14)), d6(2)
    )
    assert "rolled 2: failed" in text(events)
    assert state.units["a"].tokens == 1 and state.units["a"].position == P(10, 10)
    assert state.sides["allies"].tokens == 9
    assert state.units["gren"].position == P(80, 56)


def test_vehicle_reacting_to_infantry_that_started_in_cover_needs_5_p7():
    state = started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (20, 30), facing=90),
            make_unit("german", "Infantry Detachment", "axis", (20, 52), unit_id="gren", iaw=True),
            terrain=[WOODS],
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=move("gren", 20, 47)))
    state, events = play(
        state,
        React(
            side="allies",
            window=state.pending.window,
            order=UnitOrder(unit="sherman-75mm", actions=(Fire(target="gren"),)),
        ),
        d6(4),
    )
    assert (
        "needs 5+ (+1 vehicle reacting to infantry, +1 infantry started in cover), rolled 4: failed"
    ) in text(events)


def test_vehicle_reacting_to_mounted_infantry_has_no_penalty_p7():
    state = started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (20, 20), facing=90),
            make_unit("german", "Infantry Detachment", "axis", (20, 50), unit_id="gren", embarked_in="ht"),
            make_unit("german", "251 Halftrack", "axis", (20, 50), unit_id="ht", facing=270),
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=move("gren", 20, 44)))
    state, events = play(
        state,
        React(
            side="allies",
            window=state.pending.window,
            order=UnitOrder(unit="sherman-75mm", actions=(Fire(target="ht"),)),
        ),
        d6(3),
        d10(1),
    )
    assert "needs 3+, rolled 3: success" in text(events)
    assert state.units["ht"].position == P(20, 44)
    assert state.units["gren"].position == P(20, 44)


def test_changing_target_within_4_inches_after_the_target_moves_out_of_sight_p7():
    """p. 7: the Panther's target reacts by backing behind a hill; the Panther may switch
    to another enemy within 4" of where the target was."""
    state = started(
        game(
            make_unit("german", "Panther", "axis", (20, 60), facing=270),
            make_unit("us", "Sherman 75mm", "allies", (20, 17), facing=90, unit_id="a", name="Sherman A"),
            make_unit("us", "Sherman 75mm", "allies", (23, 17), facing=90, unit_id="b", name="Sherman B"),
            terrain=[HILL],
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=UnitOrder(unit="panther", actions=(Fire(target="a"),))))
    state, events = play(
        state, React(side="allies", window=state.pending.window, order=move("a", 20, 7, reverse=True)), d6(3)
    )
    assert state.phase is Phase.CHOICE
    assert state.pending.choice.options == ["b"]
    assert "Panther has lost its target" in text(events)
    with pytest.raises(IllegalCommand, match="Choose a new target among Sherman B"):
        play(state, ChooseTarget(side="axis", target="a"))
    state, events = play(state, ChooseTarget(side="axis", target="b"), d10(7), d10(5), d6(1))
    assert "Panther fires at Sherman B" in text(events)
    assert "Damage d6 1: Rattled" in text(events)
    assert state.units["b"].morale_markers == 2
    assert state.phase is Phase.ACTIVE


def test_shot_is_wasted_when_no_new_target_is_eligible_p7():
    state = started(
        game(
            make_unit("german", "Panther", "axis", (20, 60), facing=270),
            make_unit("us", "Sherman 75mm", "allies", (20, 17), facing=90, unit_id="a"),
            make_unit("us", "Sherman 75mm", "allies", (90, 5), facing=90, unit_id="far"),
            terrain=[HILL],
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=UnitOrder(unit="panther", actions=(Fire(target="a"),))))
    state, events = play(
        state, React(side="allies", window=state.pending.window, order=move("a", 20, 7, reverse=True)), d6(3)
    )
    assert "Panther has lost its target: the shot is wasted" in text(events)
    assert state.phase is Phase.ACTIVE


def test_seizing_player_must_spend_a_token_before_passing_back_p5_p7():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a"),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=move("gren", 80, 56)))
    state, events = play(
        state, React(side="allies", window=state.pending.window, order=move("a", 10, 14)), d6(6)
    )
    assert "The Allies are now the active player" in text(events)
    assert [e.units[0] for e in events if e.kind == "move"] == ["a", "gren"]
    with pytest.raises(IllegalCommand, match="spend at least one command token"):
        play(state, PassInitiative(side="allies"))


def test_reactor_destroying_the_active_unit_cancels_its_action_p6():
    state = started(
        game(
            make_unit("german", "Panther", "axis", (20, 40), facing=270),
            make_unit("us", "Sherman 76mm", "allies", (20, 20), facing=90),
        ),
        "axis",
    )
    state, _ = play(
        state,
        Declare(
            side="axis",
            order=UnitOrder(unit="panther", actions=(Move(path=(P(20, 38),)), Fire(target="sherman-76mm"))),
        ),
    )
    state, events = play(
        state,
        React(
            side="allies",
            window=state.pending.window,
            order=UnitOrder(unit="sherman-76mm", actions=(Fire(target="panther"),)),
        ),
        d6(3),
        d10(9),
        d10(10),
        d6(4),
    )
    log = text(events)
    assert "Foom!" in log
    assert "Panther was destroyed before it could act" in log
    assert state.units["panther"].destroyed
    assert state.units["panther"].position == P(20, 40)


def failed_reaction_rerolled():
    """Axis moves; allies' squad beside its command unit reacts, fails on a 1 and passes the
    command unit's re-roll on a 5 (p. 18)."""
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="hq", command=True),
            make_unit("us", "Infantry Detachment", "allies", (16, 10), unit_id="a"),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=move("gren", 80, 56)))
    return play(
        state, React(side="allies", window=state.pending.window, order=move("a", 16, 14)), d6(1), d6(5)
    )


def test_command_unit_rerolls_a_failed_reaction_once_a_turn_p18():
    state, events = failed_reaction_rerolled()
    assert "the command unit orders a re-roll" in text(events)
    assert state.units["a"].position == P(16, 14)
    assert state.sides["allies"].reroll_used
    state, _ = play(state, Declare(side="axis", order=move("gren", 80, 52)))
    state, events = play(
        state, React(side="allies", window=state.pending.window, order=move("hq", 10, 14)), d6(1), d6(6)
    )
    assert "re-roll" not in text(events)


def test_a_failed_reaction_move_does_not_make_the_unit_a_moving_target_p6_p10():
    """The token stays on a unit whose reaction fails, but it does not move, so a shot at it
    gets no -1 for a moving target."""
    state = started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (50, 20), facing=90, unit_id="sherman"),
            make_unit("german", "Panther", "axis", (50, 45), facing=270),
        ),
        "axis",
    )
    state, _ = play(
        state, Declare(side="axis", order=UnitOrder(unit="panther", actions=(Fire(target="sherman"),)))
    )
    state, events = play(
        state, React(side="allies", window=state.pending.window, order=move("sherman", 40, 20)), d6(2), d10(4)
    )
    assert "rolled 2: failed" in text(events)
    assert "needs 5+; rolled 4: miss" in text(events)
    assert state.units["sherman"].position == P(50, 20) and state.units["sherman"].tokens == 1


def test_infantry_behind_a_wall_starts_in_cover_for_a_reacting_vehicle_p7():
    wall = TerrainFeature(
        id="wall",
        kind="wall",
        outline=(P(10, 49), P(30, 49)),
        linear=True,
        width=0.5,
        going=Going.ROUGH,
        cover=CoverKind.COVER,
    )
    state = started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (20, 30), facing=90),
            make_unit("german", "Infantry Detachment", "axis", (20, 51), unit_id="gren", iaw=True),
            terrain=[wall],
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=move("gren", 20, 56)))
    fire_back = UnitOrder(unit="sherman-75mm", actions=(Fire(target="gren"),))
    state, events = play(state, React(side="allies", window=state.pending.window, order=fire_back), d6(4))
    assert (
        "needs 5+ (+1 vehicle reacting to infantry, +1 infantry started in cover), rolled 4: failed"
    ) in text(events)


def crossing_the_road():
    """A Sherman drives north past a gap between two blocks that hide it from a Panzer IV."""
    return started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (20, 20), facing=90, unit_id="sherman"),
            make_unit("german", "Panzer IV G (late) to J", "axis", (60, 25), facing=180, unit_id="panzer"),
            terrain=[
                box("north", "building", 40, 27, 45, 60, blocks_sight=True),
                box("south", "building", 40, 0, 45, 23, blocks_sight=True),
            ],
        ),
        "allies",
    )


def test_a_reaction_can_fire_as_the_enemy_crosses_a_point_of_its_move_p6():
    state = crossing_the_road()
    state, _ = play(state, Declare(side="allies", order=move("sherman", 20, 30)))
    fire = UnitOrder(unit="panzer", actions=(Fire(target="sherman"),))
    state, events = play(
        state, React(side="axis", window=state.pending.window, order=fire, at=P(20.4, 25)), d6(4), d10(1)
    )
    lines = text(events).splitlines()
    assert lines[1].startswith('Sherman 75mm moves 5.0" to 20.0,25.0')
    assert lines[2].startswith("Panzer IV G (late) to J fires at Sherman 75mm")
    assert "-1 target moved" in lines[2]
    assert lines[3].startswith('Sherman 75mm moves 5.0" to 20.0,30.0')
    assert state.units["sherman"].position == P(20, 30)


def test_without_a_point_the_reactor_fires_before_the_enemy_moves_and_cannot_see_it_p6():
    state = crossing_the_road()
    state, _ = play(state, Declare(side="allies", order=move("sherman", 20, 30)))
    fire = UnitOrder(unit="panzer", actions=(Fire(target="sherman"),))
    with pytest.raises(IllegalCommand, match="cannot see"):
        play(state, React(side="axis", window=state.pending.window, order=fire))


@pytest.mark.parametrize(
    ("at", "refusal"),
    [(P(30, 25), "is not on Sherman 75mm's declared route"), (P(20, 28), None)],
)
def test_a_reaction_point_must_lie_on_the_route_and_changes_nothing_if_refused(at, refusal):
    state = crossing_the_road()
    state, _ = play(state, Declare(side="allies", order=move("sherman", 20, 30)))
    smoke_first = UnitOrder(unit="panzer", actions=(Move(path=(P(60, 34),)),))
    if refusal is None:
        play(state, React(side="axis", window=state.pending.window, order=smoke_first, at=at), d6(4))
        return
    with pytest.raises(IllegalCommand, match=refusal):
        play(state, React(side="axis", window=state.pending.window, order=smoke_first, at=at))
    assert state.sides["axis"].tokens == 10
