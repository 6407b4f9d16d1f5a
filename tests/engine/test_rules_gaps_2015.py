"""Rules gaps of the Iron Cross 2015 rulebook found in a club trial (issue 22), each test citing
its page."""

import pytest

from engine.commands import JoinSide
from engine.errors import IllegalCommand
from engine.quick_battle import scenario_battle
from engine.rules.scenario import capture_twice_as_strong
from engine.setup import make_unit
from tests.engine.helpers import play, text


def joining(side, nation, *profiles, limit=300):
    units = tuple(
        make_unit(nation, name, side, (0, 0), unit_id=f"{side}-{n}") for n, name in enumerate(profiles)
    )
    return JoinSide(side=side, player=side, nation=nation, units=units, points_limit=limit)


def test_capture_compares_what_the_forces_cost_not_their_limits_p30():
    state = scenario_battle("capture", "village", attacker="axis")
    # 113 points of a 300-point limit: two infantry detachments, a Sherman, a sniper team
    defender = joining(
        "allies", "us", "Infantry Detachment", "Infantry Detachment", "Sherman 75mm", "Sniper Team"
    )
    state, _ = play(state, defender)
    five_squads = joining("axis", "german", *["Infantry Detachment"] * 5)  # 125 of 300
    with pytest.raises(
        IllegalCommand,
        match="Capture \\(p. 30\\): the attacker's force is worth at least twice the defender's: "
        "it costs 125 points against 113, 101 short",
    ):
        play(state, five_squads)
    twice = joining("axis", "german", "Panther", *["Infantry Detachment"] * 4, "PaK40 Anti-tank Gun")
    state, events = play(state, twice)  # 230 against 113, within twice the defender's 300
    assert "axis brings 6 units (230 points before upgrades)" in text(events)


def test_capture_attacker_stays_within_twice_the_defenders_limit_p30():
    assert capture_twice_as_strong(226, 113, 300) is None
    assert capture_twice_as_strong(225, 113, 300) == (
        "the attacker's force is worth at least twice the defender's: "
        "it costs 225 points against 113, 1 short"
    )
    assert capture_twice_as_strong(610, 113, 300) == (
        "the attacker's force is worth at most twice the defender's 300-point limit: it costs 610, 10 over"
    )


@pytest.mark.parametrize(("scenario", "page"), [("meeting", 28), ("escalating", 29)])
def test_no_side_fields_a_sniper_team_in_the_engagements_p20(scenario, page):
    title = {"meeting": "Meeting Engagement", "escalating": "Escalating Engagement"}[scenario]
    state = scenario_battle(scenario, "village")
    snipers = joining("allies", "us", "Infantry Detachment", "Infantry Detachment", "Sniper Team", limit=100)
    with pytest.raises(
        IllegalCommand,
        match=f"^{title} \\(p. {page}\\): only a defending side may field a sniper team \\(p. 20\\): "
        "allies defends nothing here$",
    ):
        play(state, snipers)
    assert not state.units_of("allies")


def test_only_the_defender_fields_a_sniper_team_in_capture_p20():
    state = scenario_battle("capture", "village", attacker="allies")
    with pytest.raises(
        IllegalCommand,
        match="only a defending side may field a sniper team \\(p. 20\\): allies attacks here$",
    ):
        play(state, joining("allies", "us", "Infantry Detachment", "Sniper Team", limit=600))
    state, events = play(state, joining("axis", "german", "Infantry Detachment", "Sniper Team"))
    assert "axis brings 2 units" in text(events)
