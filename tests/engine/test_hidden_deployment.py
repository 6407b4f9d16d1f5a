"""Hidden deployment and dug-in defenders (Iron Cross 2015, p. 26), and the sniper team's own
deployment (p. 20), played through the engine with scripted dice."""

import pytest

from engine.battlefield import live_units
from engine.commands import (
    Declare,
    DeclineReaction,
    Deploy,
    FinishDeployment,
    Fire,
    LaySmoke,
    MoraleTestOrder,
    Move,
    PassInitiative,
    React,
    StartGame,
    UnitOrder,
)
from engine.dice import ScriptedDice, SeededDice, d6
from engine.errors import IllegalCommand
from engine.event_data import DestroyedData
from engine.events import EventLog
from engine.firing.losses import add_markers
from engine.game import apply
from engine.rules.scenario import (
    dug_in_seizes_initiative,
    marker_revealed_by_infantry,
    marker_revealed_in_open,
    may_stop_spending_tokens,
)
from engine.scenarios.book import find_scenario
from engine.scenarios.new_game import make_unit
from engine.scenarios.setup import set_up_scenario
from engine.state import CoverKind, Going
from engine.summary import game_summary
from engine.view import REFEREE, told
from tests.engine.helpers import P, act, box, declare, game, play

# --- the rules on their own ---------------------------------------------------------------


@pytest.mark.parametrize(
    "is_vehicle, in_open, in_sight, revealed",
    [
        (True, True, True, True),
        (False, True, True, False),
        (True, False, True, False),
        (True, True, False, False),
    ],
)
def test_only_a_vehicle_in_the_open_in_enemy_sight_is_revealed_by_sight_p26(
    is_vehicle, in_open, in_sight, revealed
):
    assert marker_revealed_in_open(is_vehicle, in_open, in_sight) is revealed


@pytest.mark.parametrize(
    "distance, rapid, revealed",
    [(4.0, False, True), (4.01, False, False), (1.0, True, False), (0.5, False, True)],
)
def test_infantry_within_4_that_did_not_rapid_move_reveals_any_marker_p26(distance, rapid, revealed):
    assert marker_revealed_by_infantry(distance, rapid) is revealed


@pytest.mark.parametrize(
    "revealed, drawn, left, may_stop",
    [
        (False, 7, 4, False),
        (False, 7, 3, True),
        (False, 4, 2, True),
        (False, 4, 3, False),
        (True, 7, 7, True),
    ],
)
def test_the_attacker_spends_half_his_tokens_until_a_unit_is_revealed_p26(revealed, drawn, left, may_stop):
    assert may_stop_spending_tokens(revealed, drawn, left) is may_stop


@pytest.mark.parametrize(
    "first, passed, seizes", [(True, True, True), (True, False, False), (False, True, False)]
)
def test_dug_in_units_seize_the_initiative_only_on_their_very_first_reaction_p26(first, passed, seizes):
    assert dug_in_seizes_initiative(first, passed) is seizes


# --- setting up ----------------------------------------------------------------------------

WOODS = box("woods", "woods", 54, 34, 66, 46, going=Going.ROUGH, cover=CoverKind.COVER)


def capture():
    """Capture (p. 30): the allies defend with two infantry units, a Sherman and a sniper team."""
    state = game(
        make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id="gis", command=True),
        make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id="squad"),
        make_unit("us", "Sherman 75mm", "allies", (0, 0), unit_id="sherman"),
        make_unit("us", "Sniper Team", "allies", (0, 0), unit_id="sniper"),
        make_unit("german", "Infantry Detachment", "axis", (0, 0), unit_id="gren", command=True),
        make_unit("german", "Panzer IV G (late) to J", "axis", (0, 0), unit_id="panzer"),
        make_unit("german", "Infantry Detachment", "axis", (0, 0), unit_id="pio"),
        terrain=[WOODS],
    )
    return set_up_scenario(state, find_scenario("capture"), {"allies": "defender", "axis": "attacker"})


def deploy(state, side, unit, x, y, **kw):
    return play(state, Deploy(side=side, unit=unit, at=P(x, y), **kw))


def test_the_defender_gets_half_as_many_again_dummies_sniper_teams_aside_p26():
    state = capture()
    dummies = [u for u in state.units.values() if u.dummy]
    assert [u.name for u in dummies] == ["Dummy 1", "Dummy 2"]  # 3 units: 5 markers
    defenders = state.units_of("allies")
    assert all(u.hidden and u.dug_in for u in defenders)
    assert not any(u.hidden or u.dug_in for u in state.units_of("axis"))


def test_each_unit_goes_down_as_the_next_numbered_marker_and_only_its_owner_knows_which_p26():
    state = capture()
    state, events = deploy(state, "allies", "allies-dummy-2", 30, 50)
    (event,) = events
    assert told(event, "allies") == "The Allies set up Dummy 2 as Marker 1 at 30.0,50.0"
    assert told(event, REFEREE) == told(event, "allies")
    assert told(event, "axis") == told(event, None) == "The Allies set up Marker 1 at 30.0,50.0"
    assert event.units == ()
    state, events = deploy(state, "allies", "sherman", 60, 40)
    assert told(events[0], "axis") == "The Allies set up Marker 2 at 60.0,40.0"
    sherman = state.units["sherman"]
    assert (sherman.name, sherman.true_name, sherman.marker, sherman.hidden) == (
        "Marker 2",
        "Sherman 75mm",
        2,
        True,
    )


def test_markers_go_anywhere_12_from_the_attackers_start_line_p30():
    state = capture()
    with pytest.raises(IllegalCommand, match='must set up at least 12" from the far edge'):
        deploy(state, "allies", "gis", 20, 61)


def test_a_dummy_not_put_down_is_simply_left_out():
    state = capture()
    for unit, x in (("gis", 20), ("squad", 40), ("sherman", 60), ("allies-dummy-1", 30)):
        state, _ = deploy(state, "allies", unit, x, 40)
    state, _ = deploy(state, "allies", "sniper", 10, 30, decoy=P(80, 30))
    state, events = play(state, FinishDeployment(side="allies"))
    assert "allies-dummy-2" not in state.units
    assert events[0].text == "The Allies have finished setting up"


def test_a_sniper_team_sets_up_anywhere_hidden_with_its_dummy_p20():
    state = capture()
    with pytest.raises(IllegalCommand, match="give Sniper Team a decoy point"):
        deploy(state, "allies", "sniper", 10, 65)
    with pytest.raises(IllegalCommand, match="Only a sniper team sets up with a decoy marker"):
        deploy(state, "allies", "gis", 10, 30, decoy=P(20, 30))
    state, events = deploy(state, "allies", "sniper", 50, 65, decoy=P(10, 30))  # even near the attacker
    sniper = state.units["sniper"]
    assert sniper.hidden and sniper.decoy == P(10, 30) and sniper.marker is None
    assert (
        told(events[0], "axis") == "The Allies set up a sniper team's two markers, at 10.0,30.0 and 50.0,65.0"
    )


def deployed():
    """Capture set up: markers 1-5 are gis, squad, the Sherman (in the woods) and two dummies;
    the attacker has its infantry and a Panzer IV on the table, a second infantry in reserve."""
    state = capture()
    for unit, at in (
        ("gis", (20, 40)),
        ("squad", (40, 40)),
        ("sherman", (60, 42)),
        ("allies-dummy-1", (30, 50)),
        ("allies-dummy-2", (80, 50)),
    ):
        state, _ = deploy(state, "allies", unit, *at)
    state, _ = deploy(state, "allies", "sniper", 5, 5, decoy=P(90, 5))
    state, _ = deploy(state, "axis", "gren", 30, 68)
    state, _ = deploy(state, "axis", "panzer", 60, 68)
    state, _ = play(state, FinishDeployment(side="axis"))
    # the defender's extra tokens (p. 30): 4 units (the sniper too, no dummies) and the command unit's 2
    state, events = play(state, StartGame(), *[d6(1)] * 6)
    assert state.sides["allies"].tokens == 6 and state.sides["axis"].tokens == 4
    assert state.active_side == "axis"
    return state


# --- playing -------------------------------------------------------------------------------


def test_a_hidden_marker_moves_at_infantry_rates_p26():
    state = deployed()
    state.active_side = "allies"
    with pytest.raises(IllegalCommand, match='Marker 3 may move 6" \\(normal\\); that path is 8.0"'):
        declare(state, "allies", "sherman", Move(path=(P(60, 34),)))
    state, events = act(state, "allies", "sherman", Move(path=(P(60, 37),)))
    assert state.units["sherman"].position == P(60, 37) and state.units["sherman"].hidden


def test_a_hidden_sniper_team_moves_unnamed_to_the_enemy_p20():
    """The enemy sees two identical markers for a hidden sniper team: the channel's texts never
    name it, where its owner's say which unit it is."""
    state = deployed()
    state.active_side = "allies"
    state, declared = declare(state, "allies", "sniper", Move(path=(P(5, 9),)))
    (order,) = [e for e in declared if e.kind == "declare"]
    assert told(order, "allies") == "The Allies declare: Sniper Team: move to 5.0,9.0"
    assert told(order, "axis") == "The Allies declare: a sniper marker: move to 5.0,9.0"
    state, events = play(state, DeclineReaction(side="axis", window=state.pending.window))
    (moved,) = [e for e in events if e.kind == "move"]
    assert told(moved, None) == 'a sniper marker moves 4.0" to 5.0,9.0'
    assert told(moved, REFEREE) == 'Sniper Team moves 4.0" to 5.0,9.0'
    assert state.units["sniper"].hidden


def test_a_hidden_marker_may_only_move_or_fire_and_a_dummy_only_move_p26():
    state = deployed()
    state.active_side = "allies"
    with pytest.raises(IllegalCommand, match="Marker 1 is hidden: it may only move, or fire and be revealed"):
        declare(state, "allies", "gis", LaySmoke())
    with pytest.raises(IllegalCommand, match="Marker 4 is a dummy marker: it can only move"):
        declare(state, "allies", "allies-dummy-1", Fire(target="gren"))


def test_a_marker_that_fires_is_revealed_before_its_shot_p26():
    state = deployed()
    state.active_side = "allies"
    state, _ = declare(state, "allies", "squad", Fire(target="gren"))
    state, events = apply(state, DeclineReaction(side="axis", window=state.pending.window), SeededDice(3))
    kinds = [e.kind for e in events]
    assert kinds.index("revealed") < kinds.index("fire")
    assert events[kinds.index("revealed")].text == "Marker 2 is revealed (it fires): Infantry Detachment"
    squad = state.units["squad"]
    assert not squad.hidden and squad.name == "Infantry Detachment" and squad.true_name is None


def test_enemy_infantry_within_4_reveals_a_marker_and_a_dummy_comes_off_p26():
    state = deployed()
    state.units["gren"].position = P(30, 58)
    state, events = act(state, "axis", "gren", Move(path=(P(30, 54),)))
    assert events[-1].text == 'Marker 4 is revealed (Infantry Detachment is within 4"): a dummy, taken off'
    dummy = state.units["allies-dummy-1"]
    assert dummy.destroyed and dummy not in live_units(state)
    assert "lost 0 units" in game_summary(state).splitlines()[1]  # a dummy is no loss


def test_a_unit_revealed_by_infantry_shows_its_true_name_p26():
    state = deployed()
    state.units["gren"].position = P(20, 50)
    state, events = act(state, "axis", "gren", Move(path=(P(20, 44),)))
    assert events[-1].text == 'Marker 1 is revealed (Infantry Detachment is within 4"): Infantry Detachment'
    assert state.units["gis"].name == "Infantry Detachment" and not state.units["gis"].hidden


def test_infantry_that_rapid_moved_this_turn_reveals_nothing_p26():
    state = deployed()
    state.units["gren"].position = P(30, 62)
    state, events = act(state, "axis", "gren", Move(path=(P(30, 54),), rapid=True))
    assert state.units["allies-dummy-1"].hidden and all(e.kind != "revealed" for e in events)
    state.active_side = "allies"
    state, events = act(state, "allies", "allies-dummy-1", Move(path=(P(30, 52),)))
    assert state.units["allies-dummy-1"].hidden  # the marker came closer, but that infantry ran


def test_a_vehicle_marker_leaving_cover_into_enemy_sight_is_revealed_p26():
    state = deployed()
    state.active_side = "allies"
    state, events = act(state, "allies", "sherman", Move(path=(P(60, 48),)))
    assert events[-1].text == (
        "Marker 3 is revealed (a vehicle in the open, in sight of Infantry Detachment): Sherman 75mm"
    )


def test_an_infantry_marker_in_the_open_in_sight_stays_hidden_p26():
    state = deployed()
    state, events = act(state, "axis", "panzer", Move(path=(P(60, 60),)))
    assert all(state.units[u].hidden for u in ("gis", "squad", "allies-dummy-1"))


def test_the_attacker_must_spend_half_his_tokens_before_passing_until_a_reveal_p26():
    state = deployed()
    state, _ = act(state, "axis", "gren", Move(path=(P(30, 66),)))
    with pytest.raises(IllegalCommand, match=r"until half of them are spent \(1 of 4 so far\)"):
        play(state, PassInitiative(side="axis"))
    state, _ = act(state, "axis", "panzer", Move(path=(P(62, 66),)))
    state, events = play(state, PassInitiative(side="axis"))
    assert state.active_side == "allies"


def test_once_a_unit_is_revealed_the_attacker_may_pass_freely_p26():
    state = deployed()
    state.units["gren"].position = P(20, 50)
    state, _ = act(state, "axis", "gren", Move(path=(P(20, 44),)))  # reveals gis
    state, _ = play(state, PassInitiative(side="axis"))
    assert state.active_side == "allies"


def react(state, unit, *actions, faces):
    command = React(side="allies", window=state.pending.window, order=UnitOrder(unit=unit, actions=actions))
    return play(state, command, *faces)


def test_a_dug_in_units_first_reaction_that_succeeds_seizes_the_initiative_p26():
    state = deployed()
    state, _ = declare(state, "axis", "gren", Move(path=(P(30, 63),)))
    state, events = react(state, "squad", Move(path=(P(40, 36),)), faces=[d6(3)])
    test = next(e for e in events if e.kind == "reaction_test")
    assert told(test, "allies").endswith("needs 3+, rolled 3: success")
    assert told(test, "axis") == "The Allies react with Marker 2: move to 40.0,36.0: success"
    assert "Dug in and waiting, and the first reaction succeeds: the Allies seize the initiative" in [
        e.text for e in events
    ]
    assert state.active_side == "allies" and state.units["squad"].hidden
    assert not state.units["squad"].dug_in and state.units["gis"].dug_in


def test_a_failed_first_reaction_reveals_nothing_and_uses_up_the_chance_p26():
    state = deployed()
    state, _ = declare(state, "axis", "gren", Move(path=(P(30, 63),)))
    state, events = react(state, "squad", Move(path=(P(40, 36),)), faces=[d6(2)])
    assert state.units["squad"].hidden and state.sides["allies"].dug_in_tried
    state, _ = declare(state, "axis", "panzer", Move(path=(P(60, 63),)))
    state, events = react(state, "gis", Move(path=(P(20, 36),)), faces=[d6(5)])
    assert "seizes" not in " ".join(e.text for e in events)
    assert state.active_side == "axis"


def test_an_attacking_vehicle_reacts_to_any_marker_as_to_infantry_p26_p7():
    state = deployed()
    state.active_side = "allies"
    state, _ = declare(state, "allies", "sherman", Move(path=(P(60, 36),)))
    command = React(side="axis", window=state.pending.window, order=UnitOrder(unit="panzer", actions=()))
    command = command.model_copy(
        update={"order": UnitOrder(unit="panzer", actions=(Move(path=(P(60, 66),)),))}
    )
    state, events = play(state, command, d6(4))
    test = next(e for e in events if e.kind == "reaction_test")
    assert (
        "needs 5+ (+1 vehicle reacting to infantry, +1 infantry started in cover), rolled 4: failed"
        in test.text
    )


# --- found in review: nothing about a marker may leak, and the rules as the book has them ------


def test_the_defender_may_hold_nothing_back_under_hidden_deployment_p30():
    state = capture()
    for unit, x in (("gis", 20), ("squad", 40), ("allies-dummy-1", 30)):
        state, _ = deploy(state, "allies", unit, x, 40)
    with pytest.raises(IllegalCommand, match="must set up every unit"):
        play(state, FinishDeployment(side="allies"))


def test_transports_are_left_out_of_the_count_of_dummies_p26():
    state = game(
        make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id="a", command=True),
        make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id="b"),
        make_unit("us", "M3 Halftrack/Dodge WC-51", "allies", (0, 0), unit_id="ht1"),
        make_unit("us", "M3 Halftrack/Dodge WC-51", "allies", (0, 0), unit_id="ht2"),
        make_unit("german", "Infantry Detachment", "axis", (0, 0), unit_id="x", command=True),
    )
    state = set_up_scenario(state, find_scenario("capture"), {"allies": "defender", "axis": "attacker"})
    assert [u.name for u in state.units.values() if u.dummy] == ["Dummy 1"]  # 2 units: 3 markers


def test_markers_are_checked_at_the_start_of_every_turn_p26():
    state = deployed()
    gren = state.units["gren"]
    gren.position, gren.rapid_moved = P(30, 53), True  # it ran up last turn: nothing seen then
    state.sides["axis"].tokens = state.sides["allies"].tokens = 0
    state.objectives_left_bare = False
    state, events = apply(state, PassInitiative(side="axis"), SeededDice(4))
    assert 'Marker 4 is revealed (Infantry Detachment is within 4"): a dummy, taken off' in [
        e.text for e in events
    ]


def test_the_4_inches_are_measured_to_the_marker_not_to_what_is_under_it_p26():
    state = deployed()
    state.units["sherman"].position, state.units["sherman"].facing = P(60, 44), 90.0  # in the woods
    state.units["gren"].position = P(60, 56)
    # 6.5" between centres: 4.5" from a marker's edge (the tank's hull would be 3.5" off)
    state, events = act(state, "axis", "gren", Move(path=(P(60, 50.5),)))
    assert state.units["sherman"].hidden


def test_a_hidden_unit_destroyed_is_turned_over_first_p26():
    state = deployed()
    log = EventLog(ScriptedDice([]))
    add_markers(state, state.units["squad"], 6, log)
    assert [e.text for e in log.events][0] == "Marker 2 is revealed (destroyed): Infantry Detachment"
    assert state.units["squad"].destroyed and state.units["squad"].name == "Infantry Detachment"
    assert log.events[-1].data == DestroyedData(unit="squad", markers=6, morale=5)


def test_a_hidden_units_markers_coming_off_are_told_to_its_owner_only_p26():
    state = deployed()
    state.units["squad"].morale_markers = 1
    state.active_side = "allies"
    state, events = play(state, Declare(side="allies", order=MoraleTestOrder()), d6(4))
    rally = next(e for e in events if e.kind == "rally")
    assert told(rally, "allies") == "Marker 2 loses 1 morale marker (0 left)" and told(rally, "axis") == ""


def test_a_hidden_tank_moves_at_infantry_rates_but_not_where_no_tank_may_go_p26():
    state = deployed()
    wall = box("pond", "pond", 58, 47, 62, 49, going=Going.IMPASSABLE)
    state.terrain = (*state.terrain, wall)
    state.active_side = "allies"
    with pytest.raises(IllegalCommand, match="Marker 3 cannot cross pond"):
        declare(state, "allies", "sherman", Move(path=(P(60, 47.5),)))


def test_under_plotted_deployment_nothing_of_either_force_shows_until_the_start_p28():
    state = set_up_scenario(
        game(
            make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id="a", command=True),
            make_unit("german", "Infantry Detachment", "axis", (0, 0), unit_id="x", command=True),
        ),
        find_scenario("meeting"),
        {"allies": "first", "axis": "second"},
        plotted=True,
    )
    assert all(u.hidden for u in state.units.values())
