"""The set-up picture draws each side's area as the set-up is checked (issue 32): where the
attacker's area reaches one normal move out (Capture, pp. 30-31), infantry's outline is as
deep as infantry may go, and a tank's as deep as the tank may."""

from engine.commands import JoinSide
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import scenario_battle
from engine.tables.layout import BattleTable
from engine.view import REFEREE, view_for
from renderer.markers import zone_outlines, zones_shown
from tests.engine.helpers import P, play


def capture(*attackers: str):
    """Capture on an open 6' x 4' table, the Axis attacking from the far edge with these units."""
    state = scenario_battle("capture", BattleTable(name="Open", width=72, depth=48), "axis")
    allied = (make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id="allies-1"),)
    axis = tuple(
        make_unit("german", profile, "axis", (0, 0), unit_id=f"axis-{n}")
        for n, profile in enumerate(attackers)
    )
    for side, units in (("allies", allied), ("axis", axis)):
        state, _ = play(state, JoinSide(side=side, player=side, units=units))
    return state


def test_the_attackers_area_is_drawn_as_deep_as_its_infantry_may_set_up_p30():
    state = capture("Infantry Detachment", "Infantry Detachment")
    zone = state.deployment.sides["axis"].zone
    refusal = zone.problem(state.units["axis-0"], P(30, 39), state.table)
    assert refusal == 'Infantry Detachment (Axis) must set up within 6" of the far edge (9.0")'
    (drawn,) = [box for side, box in zones_shown(state, view_for(state, REFEREE)) if side == "axis"]
    assert drawn == (0.0, 42.0, 72.0, 48.0)  # 6" deep from the far edge, not 12"


def test_infantry_and_a_tank_each_have_their_outline_named_by_its_move():
    state = capture("Infantry Detachment", "Panzer IV G (late) to J")
    drawn = [
        (box, note) for side, box, note in zone_outlines(state, view_for(state, REFEREE)) if side == "axis"
    ]
    assert drawn == [((0.0, 42.0, 72.0, 48.0), '6" move'), ((0.0, 38.0, 72.0, 48.0), '10" move')]
