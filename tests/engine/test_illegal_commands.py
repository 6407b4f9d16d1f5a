"""Illegal commands raise IllegalCommand with a message a player understands, and change nothing."""

import pytest

from engine.commands import (
    ChooseTarget,
    Concede,
    Declare,
    Embark,
    FallBackOrder,
    Fire,
    Move,
    PassInitiative,
    UnitOrder,
)
from engine.dice import ScriptedDice
from engine.errors import IllegalCommand
from engine.game import apply
from engine.scenarios.new_game import make_unit
from engine.state import TerrainFeature
from tests.engine.helpers import P, game, play, started

WOODS = TerrainFeature(
    id="woods", kind="woods", blocks_sight=True, outline=(P(40, 30), P(60, 30), P(60, 40), P(40, 40))
)


def table():
    return started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis"),
            make_unit("us", "Infantry Detachment", "allies", (14, 10), unit_id="gis2"),
            make_unit("us", "Sherman 75mm", "allies", (50, 20), facing=90, unit_id="sherman"),
            make_unit("us", "Truck/Jeep", "allies", (60, 10), unit_id="truck"),
            make_unit("german", "Infantry Detachment", "axis", (20, 14), unit_id="gren"),
            make_unit("german", "Mortar Team", "axis", (12, 20), facing=270, unit_id="mortar"),
            make_unit("german", "StuG IV, StuG III F-H", "axis", (80, 20), facing=0, unit_id="stug"),
            make_unit("german", "PaK40 Anti-tank Gun", "axis", (50, 5), facing=90, unit_id="pak"),
            make_unit("german", "Panther", "axis", (50, 50), facing=270, unit_id="panther"),
            terrain=[WOODS],
        ),
        "axis",
    )


def act(unit, *actions, side="axis"):
    return Declare(side=side, order=UnitOrder(unit=unit, actions=actions))


CASES = [
    (act("gis", Move(path=(P(10, 12),)), side="allies"), "The Axis have the initiative, not the Allies"),
    (act("ghost", Move(path=(P(10, 12),))), "There is no unit called 'ghost'"),
    (act("gis", Move(path=(P(10, 12),))), "belongs to the other side"),
    (act("gren", Fire(target="mortar")), "is on your own side"),
    (
        act("panther", Move(path=(P(50, 46),), rapid=True), Fire(target="sherman")),
        "two actions; a rapid move counts as two",
    ),
    (act("gren", Move(path=(P(20, 16),)), Move(path=(P(20, 18),))), "must differ"),
    (act("panther", Move(path=(P(50, 38),))), 'Panther may move 10" (normal); that path is 12.0"'),
    (act("panther", Fire(target="gis2")), "Panther cannot see Infantry Detachment"),
    (act("mortar", Fire(target="gis")), 'mortars may not fire under 12"'),
    (act("gren", Fire(target="sherman")), "must be in contact with Sherman 75mm"),
    (act("gren", Move(path=(P(-1, 14),))), "off the table"),
    (act("pak", Move(path=(P(50, 7),)), Fire(target="sherman")), "fires only when stationary"),
    (act("stug", Fire(target="sherman")), "outside StuG IV, StuG III F-H's 45 degree arc"),
    (act("gren", Move(path=(P(20, 16),)), Embark(transport="truck")), "not one of your transports"),
    (act("panther", Move(path=(P(50, 45),), rapid=True, road=True)), "stay on the road"),
    (PassInitiative(side="axis"), "spend at least one command token"),
    (ChooseTarget(side="axis", target="gis"), "Nothing of that kind is waiting"),
    (
        Declare(side="axis", order=FallBackOrder(unit="gren", path=(P(20, 10),))),
        "must move further away from Infantry Detachment",
    ),
]


@pytest.mark.parametrize(("command", "message"), CASES, ids=[c[1][:40] for c in CASES])
def test_illegal_command_is_explained_and_changes_nothing(command, message):
    state = table()
    before = state.model_dump()
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, command, ScriptedDice([]))
    assert message in str(refusal.value)
    assert state.model_dump() == before


def test_commands_after_the_game_is_over_are_refused():
    state, _ = play(table(), Concede(side="allies"))
    assert state.result.winner == "axis"
    with pytest.raises(IllegalCommand, match="The game is over"):
        play(state, act("gren", Move(path=(P(20, 16),))))


def test_no_tokens_left_p4():
    state = table()
    state.sides["axis"].tokens = 0
    with pytest.raises(IllegalCommand, match="no command tokens left"):
        play(state, act("gren", Move(path=(P(20, 16),))))


def test_a_unit_that_falls_back_once_may_not_again_p13():
    state = table()
    state.units["gren"].fell_back_this_turn = True
    with pytest.raises(IllegalCommand, match="already fallen back this turn"):
        play(state, Declare(side="axis", order=FallBackOrder(unit="gren", path=(P(24, 20),))))
