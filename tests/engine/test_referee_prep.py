"""The referee prepares the scenario and runs the clock (2015 rulebook p. 25): objectives for
one side, special rules for one side, both or the referee, private briefings, a side's force
guideline and deployment zone; clock requests checked and logged, never taken back by an undo."""

import pytest

from engine.commands import (
    Declare,
    Deploy,
    JoinSide,
    Move,
    RefereeBriefing,
    RefereeClock,
    RefereeDeploymentZone,
    RefereeForceGuideline,
    RefereeObjective,
    RefereeRuling,
    RefereeSpecialRule,
    UndoActions,
    UnitOrder,
)
from engine.dice import d6
from engine.errors import IllegalCommand
from engine.forces import (
    add_unit,
    choose_command,
    force_points,
    force_units,
    new_force,
    set_iaw,
    set_transport,
)
from engine.referee import actions_to_undo, pass_for_absent
from engine.referee_prep import prep_text
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import scenario_battle
from engine.scenarios.winning import objectives_held
from engine.state import Objective, Phase
from engine.view import REFEREE, told
from tests.engine.helpers import P, game, play, started


def refereed(**kw):
    """One infantry detachment a side (one token each), refereed by "ref"."""
    state = game(
        make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis"),
        make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        **kw,
    )
    state.referees = ["ref"]
    return state


def objective(side=None, name="ford", at=(12, 10)):
    return RefereeObjective(referee="ref", id=name, at=P(*at), side=side)


def test_only_the_referee_prepares_and_bad_requests_are_refused():
    state = refereed()
    with pytest.raises(IllegalCommand, match="Only the game's referees"):
        play(state, objective().model_copy(update={"referee": "ann"}))
    with pytest.raises(IllegalCommand, match="off the table"):
        play(state, objective(at=(200, 10)))
    with pytest.raises(IllegalCommand, match="Name the side it is for: allies, axis or both"):
        play(state, objective(side="russians"))
    state, _ = play(state, objective())
    with pytest.raises(IllegalCommand, match="already an objective called FORD"):
        play(state, objective(name="FORD"))
    with pytest.raises(IllegalCommand, match="Say who may read it: allies, axis, both, referee"):
        play(state, RefereeSpecialRule(referee="ref", audience="everyone", text="Rain"))
    with pytest.raises(IllegalCommand, match="Write the rule out"):
        play(state, RefereeSpecialRule(referee="ref", audience="both", text="  "))
    with pytest.raises(IllegalCommand, match="Name the side to brief"):
        play(state, RefereeBriefing(referee="ref", side="both", text="Tanks ahead"))
    with pytest.raises(IllegalCommand, match="Write the briefing out"):
        play(state, RefereeBriefing(referee="ref", side="axis", text=""))


def test_a_sides_objective_is_told_to_that_side_and_the_referee_only():
    state, events = play(refereed(), objective(side="allies"))
    (event,) = events
    assert (
        told(event, "allies")
        == told(event, REFEREE)
        == "Referee: a new objective for the Allies, ford, at 12.0,10.0"
    )
    assert told(event, "axis") == told(event, None) == ""
    assert state.objectives == [Objective(id="ford", position=P(12, 10), side="allies")]
    state, events = play(state, objective(name="bridge", at=(40, 30)))
    assert told(events[0], None) == "Referee: a new objective, bridge, at 40.0,30.0"


def test_special_rules_reach_only_their_audience_and_the_listing_shows_each_reader_its_own():
    state = refereed()
    texts = {
        "allies": "Air support from turn 3",
        "both": 'Night: sight 12"',
        "referee": "Axis reserves are late",
    }
    for audience, text in texts.items():
        state, events = play(state, RefereeSpecialRule(referee="ref", audience=audience, text=text))
        heard = {viewer: told(events[0], viewer) for viewer in ("allies", "axis", None, REFEREE)}
        readers = {viewer for viewer, line in heard.items() if line}
        assert readers == {"allies": {"allies", REFEREE}, "both": {"allies", "axis", None, REFEREE}}.get(
            audience, {REFEREE}
        )
    state, _ = play(state, objective(side="axis", name="church", at=(50, 50)))
    assert prep_text(state, "axis") == (
        "The referee's special rules:\n- Night: sight 12\"\nObjectives:\n- church at 50.0,50.0"
    )
    assert prep_text(state, "allies") == (
        "The referee's special rules:\n- Air support from turn 3\n- Night: sight 12\""
    )
    assert prep_text(state, REFEREE) == (
        "The referee's special rules:\n- (for the Allies only) Air support from turn 3\n- Night: sight 12\"\n"
        "- (for the referee only) Axis reserves are late\nObjectives:\n"
        "- (for the Axis only) church at 50.0,50.0"
    )
    assert prep_text(refereed(), None) == "No special rules or objectives in this game"


def test_a_briefing_is_read_by_its_side_alone():
    state, events = play(refereed(), RefereeBriefing(referee="ref", side="axis", text="Shermans on the road"))
    assert events[0].side == "axis" and events[0].secret
    assert told(events[0], "axis") == "Intelligence for the Axis: Shermans on the road"
    assert told(events[0], "allies") == told(events[0], None) == ""


@pytest.mark.parametrize(
    ("side", "winner", "reason"),
    [
        (None, "allies", "time ran out; the Allies hold 1 objective"),
        ("allies", "allies", "time ran out; the Allies hold 1 objective"),
        ("axis", None, "time ran out with the objectives shared"),  # allies only denied it to axis
    ],
)
def test_an_objective_counts_for_the_victory_of_the_side_it_is_for_p25_p28(side, winner, reason):
    state = started(refereed(last_turn=1), "axis", tokens=None)
    state, _ = play(state, objective(side=side))
    state.sides["allies"].tokens = 0
    move = Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(80, 56),)),)))
    state, events = play(state, move, d6(1), d6(1))
    (claim,) = [e for e in events if e.kind == "objective"]
    assert claim.text == "The Allies claim objective ford"
    assert told(claim, "axis") == ("" if side == "allies" else "The Allies claim objective ford")
    assert told(claim, "allies") == ("" if side == "axis" else "The Allies claim objective ford")
    assert state.phase is Phase.OVER
    assert (state.result.winner, state.result.reason) == (winner, reason)


def test_each_side_counts_the_objectives_it_holds_that_are_its_own_or_shared():
    state = refereed()
    state.objectives = [
        Objective(id="a", position=P(1, 1), held_by="allies"),
        Objective(id="b", position=P(2, 1), held_by="allies", side="allies"),
        Objective(id="c", position=P(3, 1), held_by="allies", side="axis"),
        Objective(id="d", position=P(4, 1), held_by="axis"),
        Objective(id="e", position=P(5, 1), held_by=None, side="axis"),
    ]
    assert objectives_held(state) == {"allies": 2, "axis": 1}


def test_clock_requests_are_checked_and_logged():
    state = refereed()
    with pytest.raises(IllegalCommand, match="Only the game's referees"):
        play(state, RefereeClock(referee="ann", action="pause"))
    _, events = play(state, RefereeClock(referee="ref", action="pause"))
    assert events[0].text.startswith("Referee: the clock stops")
    state = started(state, "axis")
    with pytest.raises(IllegalCommand, match="No reaction window is open"):
        play(state, RefereeClock(referee="ref", action="extend", minutes=5))
    with pytest.raises(IllegalCommand, match="not waiting for the Allies"):
        play(state, RefereeClock(referee="ref", action="deadline", side="allies", hours=2))
    with pytest.raises(IllegalCommand, match="more than 0 and at most 168"):
        play(state, RefereeClock(referee="ref", action="deadline", side="axis", hours=0))
    _, events = play(state, RefereeClock(referee="ref", action="deadline", side="axis", hours=12))
    assert (
        events[0].text == "Referee: the Axis have 12 hours to act, or the game passes the initiative for them"
    )
    state, _ = play(
        state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(80, 56),)),)))
    )
    assert pass_for_absent(state, "allies").kind == "decline_reaction"
    assert pass_for_absent(state, "axis") is None
    with pytest.raises(IllegalCommand, match="1 or more"):
        play(state, RefereeClock(referee="ref", action="extend", minutes=0))
    _, events = play(state, RefereeClock(referee="ref", action="extend", minutes=10))
    assert events[0].text == "Referee: the reaction window stays open 10 minutes longer"


def test_an_undo_takes_back_actions_but_never_clock_requests():
    ruling = RefereeRuling(referee="ref", ruling="r")
    clock = RefereeClock(referee="ref", action="pause")
    history = [
        (ruling, []),
        (clock, []),
        (ruling, []),
        (UndoActions(referee="ref", reason="r", undone=(3,)), []),
    ]
    assert actions_to_undo(history, 1) == (1,)
    with pytest.raises(IllegalCommand, match="There are 1 actions"):
        actions_to_undo(history, 2)


# --- force guidelines and deployment zones (p. 25) ---------------------------------------------


def planned(scenario="meeting"):
    """A Meeting Engagement on the Village table (72" by 48"), refereed by "ref", waiting for
    the forces: allies first, setting up within 12" of the near edge."""
    state = scenario_battle(scenario)
    state.referees = ["ref"]
    return state


def brought(side, nation, *profiles):
    """A side's force of 1000 points' limit, its first unit the command unit."""
    force = new_force(nation, side, 1000)
    for profile in profiles:
        force = add_unit(force, profile)
    force = choose_command(force, force.units[0].label)
    units = tuple(force_units(force, side))
    return JoinSide(side=side, player=side, nation=nation, units=units, points_limit=1000), force


def guideline(side="allies", points=100, text=""):
    return RefereeForceGuideline(referee="ref", side=side, points=points, text=text)


def zone(side="allies", corners=(0, 20, 30, 30)):
    x1, y1, x2, y2 = corners
    return RefereeDeploymentZone(referee="ref", side=side, x1=x1, y1=y1, x2=x2, y2=y2)


def test_a_force_guideline_is_refused_unless_a_referee_sets_it_before_the_force_joins():
    state = planned()
    with pytest.raises(IllegalCommand, match="Only the game's referees"):
        play(state, guideline().model_copy(update={"referee": "ann"}))
    with pytest.raises(IllegalCommand, match="^Name the side: allies or axis$"):
        play(state, guideline(side="both"))
    with pytest.raises(
        IllegalCommand, match="^Give the points the Allies may spend: a whole number above 0$"
    ):
        play(state, guideline(points=0))
    too_late = "^Force guidelines are set for a scenario game, before the forces join$"
    with pytest.raises(IllegalCommand, match=too_late):
        play(refereed(), guideline())
    join, _ = brought("allies", "us", "Infantry Detachment")
    state, _ = play(state, join)
    with pytest.raises(IllegalCommand, match="^The Allies have already brought their force$"):
        play(state, guideline())


def test_a_force_guideline_is_told_to_its_side_and_the_referee_alone_and_a_new_one_replaces_it():
    state, _ = play(planned(), guideline(points=300))
    state, events = play(state, guideline(points=80, text="one platoon, no tanks"))
    (event,) = events
    truth = "Referee: the Allies bring a force of at most 80 points: one platoon, no tanks"
    assert told(event, "allies") == told(event, REFEREE) == truth
    assert told(event, "axis") == told(event, None) == ""
    mine = "Force guidelines:\n- at most 80 points: one platoon, no tanks"
    assert prep_text(state, "allies").endswith(mine)
    assert prep_text(state, REFEREE).endswith(
        "Force guidelines:\n- (for the Allies only) at most 80 points: one platoon, no tanks"
    )
    assert "Force guidelines" not in prep_text(state, "axis")


def test_a_force_over_the_referees_points_is_refused_counting_its_transports_and_upgrades():
    state, _ = play(planned(), guideline(points=77))
    join, force = brought("allies", "us", "Infantry Detachment", "Sherman 75mm")
    force = set_transport(set_iaw(force, "Infantry Detachment 1"), "Infantry Detachment 1", "Truck/Jeep")
    join = join.model_copy(update={"units": tuple(force_units(force, "allies"))})
    assert force_points(force) == 78  # 25 + 5 (Bazooka) + 3 (truck) + 45
    over = "^The referee allows the Allies at most 77 points; this force comes to 78$"
    with pytest.raises(IllegalCommand, match=over):
        play(state, join)
    state, _ = play(state, guideline(points=78))
    state, events = play(state, join)
    assert len(state.units_of("allies")) == 3
    assert "The Allies bring 3 units" in events[0].text


def test_the_referees_zone_replaces_the_scenarios_area_at_set_up():
    state, _ = play(planned(), zone(corners=(30, 30, 0, 20)))  # before the forces join, corners any way
    state, _ = play(state, brought("allies", "us", "Infantry Detachment", "Infantry Detachment")[0])
    state, _ = play(state, brought("axis", "german", "Infantry Detachment", "Infantry Detachment")[0])
    state, events = play(state, zone(side="axis", corners=(40, 30, 72, 48)))
    (event,) = events
    truth = "Referee: the Axis set up within 40.0,30.0 to 72.0,48.0"
    assert told(event, "axis") == told(event, REFEREE) == truth
    assert told(event, "allies") == told(event, None) == ""
    gis = state.deployment.sides["allies"].waiting[0]  # Meeting: one of two on the table (p. 28)
    refusal = (
        r"^Infantry Detachment 1 \(Allies\) must set up in the referee's zone for the Allies, "
        r"0.0,20.0 to 30.0,30.0"
    )
    with pytest.raises(IllegalCommand, match=refusal):
        play(state, Deploy(side="allies", unit=gis, at=P(10, 5)))  # within the scenario's 12"
    state, _ = play(state, Deploy(side="allies", unit=gis, at=P(10, 25)))  # 25" out, in the referee's zone
    assert state.units[gis].position == P(10, 25)
    gren = state.deployment.sides["axis"].waiting[0]
    with pytest.raises(IllegalCommand, match="must set up in the referee's zone for the Axis, 40.0,30.0"):
        play(state, Deploy(side="axis", unit=gren, at=P(20, 45)))  # within the scenario's 12"
    begun = "^Set-up has begun: deployment zones are drawn before the first unit goes down$"
    with pytest.raises(IllegalCommand, match=begun):
        play(state, zone())
    assert prep_text(state, "allies").endswith("\nDeployment zones:\n- 0.0,20.0 to 30.0,30.0")
    assert prep_text(state, REFEREE).endswith(
        "\nDeployment zones:\n- (for the Allies only) 0.0,20.0 to 30.0,30.0"
        "\n- (for the Axis only) 40.0,30.0 to 72.0,48.0"
    )


def test_a_deployment_zone_is_refused_off_the_table_without_room_or_outside_a_scenarios_set_up():
    state = planned()
    with pytest.raises(IllegalCommand, match="Only the game's referees"):
        play(state, zone().model_copy(update={"referee": "ann"}))
    with pytest.raises(IllegalCommand, match="^Name the side: allies or axis$"):
        play(state, zone(side="russians"))
    off = r'^The zone 0.0,40.0 to 30.0,50.0 runs off the 72" by 48" table$'
    with pytest.raises(IllegalCommand, match=off):
        play(state, zone(corners=(0, 40, 30, 50)))
    flat = r"^The zone 0.0,20.0 to 0.0,30.0 has no room: give it width and depth$"
    with pytest.raises(IllegalCommand, match=flat):
        play(state, zone(corners=(0, 20, 0, 30)))
    no_set_up = "^Deployment zones are for a scenario game that has not been set up$"
    with pytest.raises(IllegalCommand, match=no_set_up):
        play(refereed(), zone())
