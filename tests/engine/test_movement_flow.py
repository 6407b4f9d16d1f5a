"""Movement through the game flow: commands in, scripted dice, exact outcome (Iron Cross 2015,
pp. 8-9; Kampfgruppe p. 21; transports p. 20).

Every expectation here is read from the rulebook; the engine must match it.
"""

import pytest

from engine.commands import (
    Declare,
    Disembark,
    Embark,
    Fire,
    Move,
    PassInitiative,
    PlatoonMember,
    PlatoonOrder,
    React,
    UnitOrder,
)
from engine.dice import d6
from engine.errors import IllegalCommand
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind, Going, Phase, TerrainFeature
from tests.engine.helpers import P, act, box, declare, game, play, started, text, texts

ROAD = box("road", "road", 0, 28, 96, 32, road=True)
WOODS = box("woods", "woods", 30, 40, 70, 60, going=Going.ROUGH, cover=CoverKind.COVER)
RUBBLE = box("rubble", "rubble", 20, 44, 30, 54, going=Going.VERY_ROUGH, cover=CoverKind.COVER)
WIRE = TerrainFeature(
    id="wire",
    kind="wire",
    outline=(P(0, 20), P(96, 20)),
    linear=True,
    width=0.5,
    going=Going.VERY_ROUGH,
    going_for_vehicles=Going.EASY,
    wire=True,
)


def far_enemy(side="axis"):
    nation = "german" if side == "axis" else "us"
    return make_unit(nation, "Infantry Detachment", side, (94, 70), unit_id="far", name="Far away")


# --- rates (p. 8) ---------------------------------------------------------------------------


def test_move_longer_than_the_allowance_is_refused_with_the_allowance_p8():
    state = started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (20, 20), facing=90, unit_id="sherman"),
            make_unit("us", "Infantry Detachment", "allies", (60, 20), unit_id="gis", name="GIs"),
            make_unit("german", "Tiger I", "axis", (10, 60), facing=0, unit_id="tiger"),
        ),
        "allies",
    )
    with pytest.raises(IllegalCommand, match='^Sherman 75mm may move 10" \\(normal\\); that path is 10.5"$'):
        declare(state, "allies", "sherman", Move(path=(P(20, 30.5),)))
    with pytest.raises(IllegalCommand, match='^GIs may move 6" \\(normal\\); that path is 7.0"$'):
        declare(state, "allies", "gis", Move(path=(P(60, 27),)))
    with pytest.raises(IllegalCommand, match='^GIs may move 9" \\(rapid\\); that path is 9.5"$'):
        declare(state, "allies", "gis", Move(path=(P(60, 29.5),), rapid=True))

    moved, events = act(state, "allies", "sherman", Move(path=(P(20, 30),)))
    assert texts(events) == ["The Axis do not react", 'Sherman 75mm moves 10.0" to 20.0,30.0']
    assert moved.units["sherman"].position == P(20, 30)

    state.active_side = "axis"
    with pytest.raises(IllegalCommand, match='^Tiger I may move 10" \\(rapid\\); that path is 11.0"$'):
        declare(state, "axis", "tiger", Move(path=(P(21, 60),), rapid=True))
    moved, events = act(state, "axis", "tiger", Move(path=(P(18, 60),)))
    assert moved.units["tiger"].position == P(18, 60)


def test_a_move_that_goes_nowhere_is_refused_and_spends_nothing_p8():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (60, 20), unit_id="gis", name="GIs"),
            far_enemy(),
        ),
        "allies",
    )
    tokens = state.sides["allies"].tokens
    for path in ((P(60, 20),), (P(60, 20), P(60, 20))):
        with pytest.raises(IllegalCommand) as refused:
            declare(state, "allies", "gis", Move(path=path))
        nowhere = "GIs is already at 60.0,20.0: a move must go somewhere (nothing is spent)"
        assert str(refused.value) == nowhere
    assert state.sides["allies"].tokens == tokens and state.pending is None


def test_rapid_road_move_of_20_for_a_medium_tank_on_the_road_only_p8():
    state = started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (10, 30), facing=0, unit_id="on-road"),
            make_unit("us", "Sherman 75mm", "allies", (10, 50), facing=0, unit_id="off-road"),
            far_enemy(),
            terrain=[ROAD],
        ),
        "allies",
    )
    moved, events = act(state, "allies", "on-road", Move(path=(P(30, 30),), rapid=True, road=True))
    assert texts(events) == ["The Axis do not react", 'Sherman 75mm moves 20.0" to 30.0,30.0']
    assert moved.units["on-road"].position == P(30, 30)
    with pytest.raises(IllegalCommand, match='may move 20" \\(rapid\\); that path is 20.5"'):
        declare(state, "allies", "on-road", Move(path=(P(30.5, 30),), rapid=True, road=True))
    with pytest.raises(IllegalCommand, match="must stay on the road"):
        declare(state, "allies", "off-road", Move(path=(P(30, 50),), rapid=True, road=True))
    with pytest.raises(IllegalCommand, match='may move 15" \\(rapid\\); that path is 20.0"'):
        declare(state, "allies", "off-road", Move(path=(P(30, 50),), rapid=True))


def road_game():
    wide_road = box("road", "road", 0, 20, 96, 40, road=True)
    return started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (10, 30), facing=0, unit_id="sherman"),
            far_enemy(),
            terrain=[wide_road],
        ),
        "allies",
    )


def test_rapid_road_move_allows_two_slight_turns_of_45_degrees_or_less_p8():
    state = road_game()
    moved, _ = act(
        state, "allies", "sherman", Move(path=(P(20, 30), P(28.660254, 35)), rapid=True, road=True)
    )
    assert moved.units["sherman"].position == P(28.660254, 35)
    with pytest.raises(IllegalCommand, match="^A rapid road move goes one way"):  # one 60 degree turn
        declare(state, "allies", "sherman", Move(path=(P(20, 30), P(25, 38.660254)), rapid=True, road=True))
    with pytest.raises(IllegalCommand, match="^A rapid road move goes one way"):  # three 14 degree turns
        declare(
            state,
            "allies",
            "sherman",
            Move(path=(P(14, 30), P(18, 31), P(22, 31), P(26, 32)), rapid=True, road=True),
        )


# --- vehicle turning and turrets (p. 8) ----------------------------------------------------------


def turning_game():
    return started(
        game(make_unit("us", "Sherman 75mm", "allies", (50, 30), facing=90, unit_id="sherman"), far_enemy()),
        "allies",
    )


def test_vehicle_turns_up_to_180_at_normal_rate_p8():
    state = turning_game()
    moved, _ = act(state, "allies", "sherman", Move(path=(P(50, 33), P(53, 33), P(53, 30))))
    assert moved.units["sherman"].position == P(53, 30)
    assert moved.units["sherman"].facing == 270
    pivoted, _ = act(state, "allies", "sherman", Move(path=(P(50, 30),), facing=270))  # a U-turn on the spot
    assert pivoted.units["sherman"].position == P(50, 30)
    assert pivoted.units["sherman"].facing == 270
    with pytest.raises(
        IllegalCommand,
        match="^Sherman 75mm would turn 270 degrees; vehicles may turn at most 180 degrees in a normal move$",
    ):
        declare(state, "allies", "sherman", Move(path=(P(50, 32), P(52, 32), P(52, 30), P(50, 30))))


def test_vehicle_turns_up_to_90_at_rapid_rate_p8():
    state = turning_game()
    moved, _ = act(state, "allies", "sherman", Move(path=(P(50, 32), P(60, 32)), rapid=True))
    assert moved.units["sherman"].position == P(60, 32)
    assert moved.units["sherman"].facing == 0
    with pytest.raises(
        IllegalCommand,
        match="^Sherman 75mm would turn 180 degrees; vehicles may turn at most 90 degrees in a rapid move$",
    ):
        declare(state, "allies", "sherman", Move(path=(P(50, 32), P(55, 32), P(55, 30)), rapid=True))
    # driving straight back without reversing is a 180 degree turn
    with pytest.raises(IllegalCommand, match="at most 90 degrees in a rapid move$"):
        declare(state, "allies", "sherman", Move(path=(P(50, 18),), rapid=True))


def test_vehicle_may_reverse_at_any_speed_p8():
    state = turning_game()
    moved, events = act(state, "allies", "sherman", Move(path=(P(50, 15),), rapid=True, reverse=True))
    assert texts(events) == ["The Axis do not react", 'Sherman 75mm moves 15.0" to 50.0,15.0']
    assert moved.units["sherman"].position == P(50, 15)
    assert moved.units["sherman"].facing == 90  # still facing forwards


def turret_game():
    return started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (50, 30), facing=90, unit_id="sherman"),
            make_unit(
                "german", "Panzer IV G (late) to J", "axis", (20.25, 30), unit_id="west", name="Panzer West"
            ),
            make_unit(
                "german", "Panzer IV G (late) to J", "axis", (30, 10), unit_id="southwest", name="Panzer SW"
            ),
            make_unit(
                "german",
                "Panzer IV G (late) to J",
                "axis",
                (50, 10),
                facing=90,
                unit_id="south",
                name="Panzer South",
            ),
        ),
        "allies",
    )


def test_turret_traverse_up_to_90_degrees_is_not_a_move_p8():
    state = turret_game()
    _, events = act(state, "allies", "sherman", Fire(target="west"), faces=[(10, 4)])
    assert texts(events)[-1] == 'Sherman 75mm fires at Panzer West (26.5"): needs 5+; rolled 4: miss'


def test_turret_traverse_over_90_degrees_counts_as_moving_p8():
    state = turret_game()
    _, events = act(state, "allies", "sherman", Fire(target="southwest"), faces=[(10, 6)])
    assert texts(events)[-1] == 'Sherman 75mm fires at Panzer SW (23.7"): needs 7+ (-2 moved); rolled 6: miss'
    _, events = act(state, "allies", "sherman", Fire(target="south"), faces=[(10, 6)])  # right behind
    assert (
        texts(events)[-1] == 'Sherman 75mm fires at Panzer South (16.0"): needs 7+ (-2 moved); rolled 6: miss'
    )


def test_turret_traverse_is_measured_from_where_the_turret_points_p8():
    """After firing west the turret points west; turning it on to the south is 90 degrees,
    although the target is directly behind the hull."""
    state = turret_game()
    state, _ = act(state, "allies", "sherman", Fire(target="west"), faces=[(10, 4)])
    _, events = act(state, "allies", "sherman", Fire(target="south"), faces=[d6(2), (10, 4)])
    assert texts(events)[-1] == 'Sherman 75mm fires at Panzer South (16.0"): needs 5+; rolled 4: miss'


def test_turret_traverse_over_90_degrees_makes_the_vehicle_count_as_moving_this_turn_p8():
    """p. 8: "A vehicle counts as moving if it traverses its turret more than 90 degrees", so a
    shot at it later in the turn takes the -1 for a target that moved this turn."""
    state = turret_game()
    state, _ = act(state, "allies", "sherman", Fire(target="southwest"), faces=[(10, 6)])
    state, _ = play(state, PassInitiative(side="allies"))
    _, events = act(state, "axis", "southwest", Fire(target="sherman"), faces=[(10, 1)])
    assert (
        texts(events)[-1]
        == 'Panzer SW fires at Sherman 75mm (23.7"): needs 6+ (-1 target moved); rolled 1: miss'
    )


# --- vehicles near enemy infantry (p. 8) ---------------------------------------------------------


def caution_game(*extra, terrain=()):
    return started(
        game(
            make_unit(
                "german",
                "Panzer IV G (late) to J",
                "axis",
                (50, 30),
                facing=270,
                unit_id="panzer",
                name="Panzer",
            ),
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis", name="GIs"),
            *extra,
            terrain=terrain,
        ),
        "axis",
    )


def test_vehicle_near_visible_unscreened_enemy_infantry_moves_only_half_p8():
    state = caution_game()
    with pytest.raises(
        IllegalCommand, match='^Panzer may move 5" \\(half rate near enemy infantry\\); that path is 6.0"$'
    ):
        declare(state, "axis", "panzer", Move(path=(P(50, 24),)))
    moved, events = act(state, "axis", "panzer", Move(path=(P(50, 25),)))
    assert texts(events) == ["The Allies do not react", 'Panzer moves 5.0" to 50.0,25.0']


def test_vehicle_near_unscreened_enemy_infantry_may_not_rapid_move_towards_it_p8():
    state = caution_game()
    with pytest.raises(IllegalCommand, match="it may only move half its normal distance, or move away$"):
        declare(state, "axis", "panzer", Move(path=(P(50, 26),), rapid=True))


def test_vehicle_moving_away_from_enemy_infantry_moves_its_full_distance_p8():
    state = caution_game()
    moved, events = act(state, "axis", "panzer", Move(path=(P(50, 40),), reverse=True))
    assert texts(events) == ["The Allies do not react", 'Panzer moves 10.0" to 50.0,40.0']


def test_friendly_infantry_closer_to_the_enemy_lifts_the_half_rate_p8():
    gren = make_unit("german", "Infantry Detachment", "axis", (44, 20), unit_id="gren", name="Grenadiers")
    moved, events = act(caution_game(gren), "axis", "panzer", Move(path=(P(56, 26),)))
    assert texts(events) == ["The Allies do not react", 'Panzer moves 7.2" to 56.0,26.0']


def test_enemy_infantry_out_of_sight_does_not_slow_a_vehicle_p8():
    hedge = box("bank", "bank", 46, 23, 54, 27, blocks_sight=True)
    moved, events = act(caution_game(terrain=[hedge]), "axis", "panzer", Move(path=(P(42, 25),)))
    assert texts(events) == ["The Allies do not react", 'Panzer moves 9.4" to 42.0,25.0']


# --- terrain (p. 9) ---------------------------------------------------------------------------


def bogging_game(vehicle, unit_id):
    return started(
        game(
            make_unit("us", vehicle, "allies", (50, 34), facing=90, unit_id=unit_id),
            make_unit("german", "Infantry Detachment", "axis", (90, 45), unit_id="gren", name="Grenadiers"),
            terrain=[WOODS],
        ),
        "allies",
    )


def test_terrain_test_failure_stops_a_tank_and_ends_its_turn_p9():
    """A tracked tank needs 2+ for rough ground. On a 1 it stops past the edge with its rear
    touching the woods, its declared shot is lost and it may not act or react again."""
    state = bogging_game("Sherman 75mm", "sherman")
    state, events = act(
        state, "allies", "sherman", Move(path=(P(50, 44),)), Fire(target="gren"), faces=[d6(1)]
    )
    assert texts(events)[:2] == [
        "The Axis do not react",
        "Sherman 75mm needs 2+ to cross woods: rolled 1, stuck; no more actions this turn",
    ]
    assert [e.kind for e in events] == ["no_reaction", "terrain_test", "move"]  # no shot
    sherman = state.units["sherman"]
    assert sherman.position == P(50, 42)  # medium tank 4" long: its rear on the woods' edge at y=40
    assert sherman.bogged
    assert state.units["gren"].morale_markers == 0
    with pytest.raises(
        IllegalCommand, match="^Sherman 75mm failed a terrain test and may not act again this turn$"
    ):
        declare(state, "allies", "sherman", Fire(target="gren"))
    state, _ = play(state, PassInitiative(side="allies"))
    state, _ = play(
        state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(86, 45),)),)))
    )
    with pytest.raises(IllegalCommand, match="failed a terrain test"):
        play(
            state,
            React(
                side="allies",
                window=state.pending.window,
                order=UnitOrder(unit="sherman", actions=(Fire(target="gren"),)),
            ),
        )


def test_terrain_test_wheeled_truck_needs_6_in_rough_ground_p9():
    state = bogging_game("Truck/Jeep", "truck")
    stuck, events = act(state, "allies", "truck", Move(path=(P(50, 44),)), faces=[d6(5)])
    assert "Truck/Jeep needs 6+ to cross woods: rolled 5, stuck; no more actions this turn" in texts(events)
    assert stuck.units["truck"].position == P(50, 41.5) and stuck.units["truck"].bogged
    through, events = act(state, "allies", "truck", Move(path=(P(50, 44),)), faces=[d6(6)])
    assert "Truck/Jeep needs 6+ to cross woods: rolled 6, through" in texts(events)
    assert through.units["truck"].position == P(50, 44) and not through.units["truck"].bogged


@pytest.mark.parametrize(
    ("vehicle", "unit_id", "roll", "report"),
    [
        ("Sherman 75mm", "sherman", 1, 'Sherman 75mm moves 8.0" to 50.0,42.0'),
        ("Truck/Jeep", "truck", 5, 'Truck/Jeep moves 7.5" to 50.0,41.5'),
    ],
)
def test_terrain_test_failure_reports_the_distance_actually_moved_p9(vehicle, unit_id, roll, report):
    """p. 9: the unit stops with its rear touching the terrain; the move it reports is the
    distance it actually covered, not the distance it was ordered to go (10")."""
    state = bogging_game(vehicle, unit_id)
    _, events = act(state, "allies", unit_id, Move(path=(P(50, 44),)), faces=[d6(roll)])
    assert texts(events)[-1] == report


def test_terrain_test_failed_inside_terrain_moves_half_the_normal_rate_p9():
    """p. 9: a vehicle already in the terrain that fails its test moves at half its normal rate."""
    state = bogging_game("Sherman 75mm", "sherman")
    state.units["sherman"].position = P(50, 45)
    state, events = act(state, "allies", "sherman", Move(path=(P(50, 55),)), faces=[d6(1)])
    assert "Sherman 75mm needs 2+ to cross woods: rolled 1, stuck; no more actions this turn" in texts(events)
    assert state.units["sherman"].position == P(50, 50) and state.units["sherman"].bogged


def test_terrain_test_heavy_tank_takes_no_test_in_rough_ground_p9():
    state = started(
        game(
            make_unit("german", "Tiger I", "axis", (50, 34), facing=90, unit_id="tiger"),
            make_unit("us", "Infantry Detachment", "allies", (90, 10), unit_id="gis"),
            terrain=[WOODS],
        ),
        "axis",
    )
    moved, events = act(state, "axis", "tiger", Move(path=(P(50, 42),)))
    assert texts(events) == ["The Allies do not react", 'Tiger I moves 8.0" to 50.0,42.0']


def test_terrain_test_very_rough_needs_4_for_infantry_and_rough_none_p9():
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (25, 40), unit_id="gren", name="Grenadiers"),
            make_unit("german", "Infantry Detachment", "axis", (50, 36), unit_id="woodsmen", name="Woodsmen"),
            far_enemy("allies"),
            terrain=[RUBBLE, WOODS],
        ),
        "axis",
    )
    stuck, events = act(state, "axis", "gren", Move(path=(P(25, 46),)), faces=[d6(3)])
    assert "Grenadiers needs 4+ to cross rubble: rolled 3, stuck; no more actions this turn" in texts(events)
    assert stuck.units["gren"].position == P(25, 45) and stuck.units["gren"].bogged
    through, events = act(state, "axis", "gren", Move(path=(P(25, 46),)), faces=[d6(4)])
    assert "Grenadiers needs 4+ to cross rubble: rolled 4, through" in texts(events)
    assert through.units["gren"].position == P(25, 46)
    _, events = act(state, "axis", "woodsmen", Move(path=(P(50, 42),)))
    assert texts(events) == ["The Allies do not react", 'Woodsmen moves 6.0" to 50.0,42.0']


@pytest.mark.parametrize(
    ("profile", "going", "needed"),
    [
        ("Truck/Kubelwagen", Going.ROUGH, 6),
        ("Truck/Kubelwagen", Going.VERY_ROUGH, None),
        ("251 Halftrack", Going.ROUGH, 3),
        ("251 Halftrack", Going.VERY_ROUGH, 4),
        ("Panther", Going.ROUGH, 2),
        ("Panther", Going.VERY_ROUGH, 3),
        ("Sd.Kfz 234/2 8-Rad Puma", Going.ROUGH, 2),
        ("Sd.Kfz 234/2 8-Rad Puma", Going.VERY_ROUGH, 3),
        ("Tiger I", Going.ROUGH, 0),
        ("Tiger I", Going.VERY_ROUGH, 2),
        ("Infantry Detachment", Going.ROUGH, 0),
        ("Infantry Detachment", Going.VERY_ROUGH, 4),
        ("MG Team", Going.VERY_ROUGH, 4),
        ("PaK40 Anti-tank Gun", Going.ROUGH, 2),
        ("PaK40 Anti-tank Gun", Going.VERY_ROUGH, None),
    ],
)
def test_terrain_test_scores_by_unit_type_p9(profile, going, needed):
    """p. 9 tables: 0 means no test; None means impassable."""
    ground = box("ground", "bocage" if going is Going.VERY_ROUGH else "woods", 30, 40, 70, 60, going=going)
    state = started(
        game(
            make_unit("german", profile, "axis", (50, 36), facing=90, unit_id="mover", name="Mover"),
            far_enemy("allies"),
            terrain=[ground],
        ),
        "axis",
    )
    move = Move(path=(P(50, 41),))
    if needed is None:
        with pytest.raises(IllegalCommand, match=f"^Mover cannot cross {ground.kind} \\(ground\\)$"):
            declare(state, "axis", "mover", move)
        return
    faces = [] if needed == 0 else [d6(needed)]
    moved, events = act(state, "axis", "mover", move, faces=faces)
    expected = ["The Allies do not react", 'Mover moves 5.0" to 50.0,41.0']
    if needed:
        expected.insert(1, f"Mover needs {needed}+ to cross {ground.kind}: rolled {needed}, through")
    assert texts(events) == expected


def test_terrain_test_wire_is_minus_1_so_infantry_need_5_p9():
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (70, 24), unit_id="gren", name="Grenadiers"),
            far_enemy("allies"),
            terrain=[WIRE],
        ),
        "axis",
    )
    stuck, events = act(state, "axis", "gren", Move(path=(P(70, 18.5),)), faces=[d6(4)])
    assert "Grenadiers needs 5+ to cross wire: rolled 4, stuck; no more actions this turn" in texts(events)
    assert stuck.units["gren"].position == P(70, 18.75)  # over the wire, its rear touching it
    through, events = act(state, "axis", "gren", Move(path=(P(70, 18.5),)), faces=[d6(5)])
    assert "Grenadiers needs 5+ to cross wire: rolled 5, through" in texts(events)
    assert through.units["gren"].position == P(70, 18.5)


def test_anti_tank_guns_may_not_cross_wire_until_it_is_breached_p9():
    state = started(
        game(
            make_unit("german", "PaK40 Anti-tank Gun", "axis", (30, 24), facing=270, unit_id="pak"),
            make_unit("german", "Panther", "axis", (60, 26), facing=270, unit_id="panther"),
            far_enemy("allies"),
            terrain=[WIRE],
        ),
        "axis",
    )
    with pytest.raises(
        IllegalCommand, match="^PaK40 Anti-tank Gun may not cross unbreached wire \\(wire\\)$"
    ):
        declare(state, "axis", "pak", Move(path=(P(30, 18),)))
    assert state.breached_wire == []
    state, events = act(state, "axis", "panther", Move(path=(P(60, 18),)))
    assert texts(events) == ["The Allies do not react", 'Panther moves 8.0" to 60.0,18.0']
    assert state.breached_wire == ["wire"]
    state, events = act(state, "axis", "pak", Move(path=(P(30, 18),)), faces=[d6(3)])
    assert state.units["pak"].position == P(30, 18)
    # breached wire is rough ground for a gun (2+), and wire is one harder
    assert "PaK40 Anti-tank Gun needs 3+ to cross wire: rolled 3, through" in texts(events)


def test_no_rapid_move_through_rough_ground_p9():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (40, 36), unit_id="gis", name="GIs"),
            make_unit("us", "Sherman 75mm", "allies", (60, 32), facing=90, unit_id="sherman"),
            make_unit("german", "Infantry Detachment", "axis", (90, 10), unit_id="gren"),
            terrain=[WOODS],
        ),
        "allies",
    )
    with pytest.raises(IllegalCommand, match="^GIs may not make a rapid move through rough ground$"):
        declare(state, "allies", "gis", Move(path=(P(40, 44),), rapid=True))
    with pytest.raises(IllegalCommand, match="^Sherman 75mm may not make a rapid move through rough ground$"):
        declare(state, "allies", "sherman", Move(path=(P(60, 46),), rapid=True))
    moved, events = act(state, "allies", "gis", Move(path=(P(49, 36),), rapid=True))
    assert texts(events) == ["The Axis do not react", 'GIs moves 9.0" to 49.0,36.0']


# --- embarking and disembarking (p. 9; transports p. 20) -------------------------------------------


def transport_game(*extra):
    return started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (50, 30), unit_id="gis", name="GIs"),
            make_unit(
                "us",
                "M3 Halftrack/Dodge WC-51",
                "allies",
                (50, 35),
                facing=90,
                unit_id="ht",
                name="Halftrack",
            ),
            make_unit("us", "Truck/Jeep", "allies", (58.5, 30), facing=90, unit_id="truck", name="Truck"),
            make_unit("german", "Infantry Detachment", "axis", (94, 70), unit_id="gren"),
            *extra,
        ),
        "allies",
    )


def test_embark_is_one_action_then_the_transport_makes_a_normal_move_carrying_the_unit_p9():
    state = transport_game()
    moved, events = act(state, "allies", "gis", Embark(transport="ht"), Move(path=(P(50, 47),)))
    assert texts(events) == [
        "The Axis do not react",
        "GIs embarks in Halftrack",
        'Halftrack moves 12.0" to 50.0,47.0',
    ]
    assert moved.units["ht"].position == P(50, 47)
    assert moved.units["gis"].embarked_in == "ht" and moved.units["gis"].position == P(50, 47)
    assert moved.sides["allies"].tokens == 9  # one token for the whole activation
    assert moved.units["gis"].tokens == 1 and moved.units["ht"].tokens == 0
    with pytest.raises(IllegalCommand, match='^Halftrack may move 12" \\(normal\\); that path is 13.0"$'):
        declare(state, "allies", "gis", Embark(transport="ht"), Move(path=(P(50, 48),)))


def test_embarking_reaches_only_a_normal_infantry_move_p9():
    state = transport_game()
    with pytest.raises(
        IllegalCommand, match='^Truck is 6.5" away; embarking reaches a normal move \\(6"\\)$'
    ):
        declare(state, "allies", "gis", Embark(transport="truck"))
    state.units["truck"].position = P(58, 30)
    moved, _ = act(state, "allies", "gis", Embark(transport="truck"))
    assert moved.units["gis"].embarked_in == "truck"


def test_disembark_within_6_inches_of_the_transport_p9():
    state = transport_game()
    state.units["ht"].position = P(50, 47)
    state.units["gis"].position = P(50, 47)
    state.units["gis"].embarked_in = "ht"
    with pytest.raises(IllegalCommand, match='^50.0,55.0 is 6.5" from Halftrack; disembarking reaches 6"$'):
        declare(state, "allies", "gis", Disembark(to=P(50, 55)))
    out, events = act(state, "allies", "gis", Disembark(to=P(50, 54.5)))
    assert texts(events) == ["The Axis do not react", "GIs disembarks from Halftrack at 50.0,54.5"]
    assert out.units["gis"].embarked_in is None and out.units["gis"].position == P(50, 54.5)
    # the transport's normal move, then disembarking up to 6" from where it now is
    out, events = act(state, "allies", "gis", Move(path=(P(50, 57),)), Disembark(to=P(50, 64.5)))
    assert texts(events) == [
        "The Axis do not react",
        'Halftrack moves 10.0" to 50.0,57.0',
        "GIs disembarks from Halftrack at 50.0,64.5",
    ]
    assert out.units["ht"].position == P(50, 57) and out.units["gis"].position == P(50, 64.5)


def test_embark_and_disembark_in_one_activation_is_refused_p9():
    state = transport_game()
    with pytest.raises(IllegalCommand, match="^A unit may not embark and disembark in the same activation"):
        declare(state, "allies", "gis", Embark(transport="ht"), Disembark(to=P(50, 38)))


def test_no_embarking_with_a_rapid_move_p9():
    state = transport_game()
    with pytest.raises(IllegalCommand, match="rapid move"):
        declare(state, "allies", "gis", Embark(transport="ht"), Move(path=(P(50, 50),), rapid=True))
    with pytest.raises(IllegalCommand, match="a rapid move counts as two"):
        declare(state, "allies", "gis", Move(path=(P(50, 32),), rapid=True), Embark(transport="ht"))


def test_a_truck_carries_two_units_a_halftrack_one_p20():
    state = transport_game(
        make_unit("us", "Infantry Detachment", "allies", (54, 26), unit_id="gis2", name="GIs 2"),
        make_unit("us", "Infantry Detachment", "allies", (62, 26), unit_id="gis3", name="GIs 3"),
    )
    state.units["truck"].position = P(58, 30)
    state, _ = act(state, "allies", "gis", Embark(transport="ht"))
    with pytest.raises(IllegalCommand, match="^Halftrack is full \\(1 unit\\)$"):
        declare(state, "allies", "gis2", Embark(transport="ht"))
    state, _ = act(state, "allies", "gis2", Embark(transport="truck"))
    state, _ = act(state, "allies", "gis3", Embark(transport="truck"))
    assert state.units["gis2"].embarked_in == "truck" and state.units["gis3"].embarked_in == "truck"
    state.units["gis"].embarked_in = None
    state.units["gis"].tokens = 0
    state.units["gis"].position = P(56, 26)
    with pytest.raises(IllegalCommand, match="^Truck is full \\(2 units\\)$"):
        declare(state, "allies", "gis", Embark(transport="truck"))


def test_activating_a_unit_may_move_its_own_transport_instead_p20():
    """p. 20: a unit's activation may move its empty transport (e.g. to fetch it); the token
    counts as the parent's activation and the parent itself stays put."""
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (50, 30), unit_id="gren", transport="ht"),
            make_unit("german", "251 Halftrack", "axis", (50, 45), facing=270, unit_id="ht"),
            far_enemy("allies"),
        ),
        "axis",
    )
    state, _ = act(state, "axis", "gren", Move(path=(P(50, 34),), own_transport=True))
    assert state.units["ht"].position == P(50, 34)
    assert state.units["gren"].position == P(50, 30) and not state.units["gren"].moved_this_turn
    assert state.units["gren"].tokens == 1 and state.units["ht"].tokens == 0
    state.units["ht"].destroyed = True
    with pytest.raises(IllegalCommand, match="has no transport on the table"):
        declare(state, "axis", "gren", Move(path=(P(50, 31),), own_transport=True))


# --- platoons (p. 9; Kampfgruppe p. 21) -----------------------------------------------------------


def platoon(*moves, rapid=False):
    return PlatoonOrder(
        members=tuple(PlatoonMember(unit=u, move=Move(path=(P(x, y),), rapid=rapid)) for u, x, y in moves)
    )


def shermans(third=("Sherman 75mm", 40, 10)):
    name, x, y = third
    return started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (20, 10), facing=90, unit_id="s1", name="Sherman 1"),
            make_unit("us", "Sherman 75mm", "allies", (30, 10), facing=90, unit_id="s2", name="Sherman 2"),
            make_unit("us", name, "allies", (x, y), facing=90, unit_id="s3", name="Sherman 3"),
            make_unit("german", "Infantry Detachment", "axis", (50, 60), unit_id="gren", name="Grenadiers"),
        ),
        "allies",
    )


def test_platoon_move_of_three_medium_tanks_takes_one_token_and_is_their_only_activation_p9():
    state = shermans()
    state, _ = play(
        state, Declare(side="allies", order=platoon(("s1", 20, 20), ("s2", 30, 20), ("s3", 40, 20)))
    )
    assert state.phase is Phase.REACTION
    state, events = play(
        state,
        React(
            side="axis",
            window=state.pending.window,
            order=UnitOrder(unit="gren", actions=(Move(path=(P(50, 56),)),)),
        ),
        d6(1),
    )
    assert [state.units[u].position for u in ("s1", "s2", "s3")] == [P(20, 20), P(30, 20), P(40, 20)]
    assert state.sides["allies"].tokens == 9
    for unit in ("s1", "s2", "s3"):
        with pytest.raises(IllegalCommand, match="moved as part of a platoon: no more actions this turn"):
            declare(state, "allies", unit, Move(path=(P(state.units[unit].position.x, 22),)))
    state, _ = play(state, PassInitiative(side="allies"))
    state, _ = play(
        state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(50, 58),)),)))
    )
    for unit in ("s1", "s2", "s3"):
        with pytest.raises(IllegalCommand, match="moved as part of a platoon"):
            play(
                state,
                React(
                    side="allies",
                    window=state.pending.window,
                    order=UnitOrder(unit=unit, actions=(Fire(target="gren"),)),
                ),
            )


def test_platoon_members_must_each_be_within_12_of_another_and_move_normally_p9():
    state = shermans(third=("Sherman 75mm", 55, 10))
    with pytest.raises(IllegalCommand, match='^Sherman 3 is not within 12" of another platoon member$'):
        play(state, Declare(side="allies", order=platoon(("s1", 20, 18), ("s2", 30, 18), ("s3", 55, 18))))
    state = shermans()
    with pytest.raises(IllegalCommand, match="^Platoons make normal moves only$"):
        play(
            state,
            Declare(side="allies", order=platoon(("s1", 20, 22), ("s2", 30, 22), ("s3", 40, 22), rapid=True)),
        )
    state.units["s2"].tokens = 1
    with pytest.raises(IllegalCommand, match="^Sherman 2 has already activated this turn$"):
        play(state, Declare(side="allies", order=platoon(("s1", 20, 18), ("s2", 30, 18), ("s3", 40, 18))))


def test_platoon_of_mixed_types_is_refused_for_the_us_p9():
    state = shermans(third=("M5 Stuart", 40, 10))
    with pytest.raises(IllegalCommand, match="^Platoon members must be of one type"):
        play(state, Declare(side="allies", order=platoon(("s1", 20, 18), ("s2", 30, 18), ("s3", 40, 18))))


def test_platoon_of_infantry_and_support_squads_counts_as_one_type_p9():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (20, 10), unit_id="a"),
            make_unit("us", "Infantry Detachment", "allies", (28, 10), unit_id="b"),
            make_unit("us", "MG Team", "allies", (36, 10), facing=90, unit_id="mg"),
            make_unit("german", "Infantry Detachment", "axis", (50, 60), unit_id="gren"),
        ),
        "allies",
    )
    state, _ = play(
        state, Declare(side="allies", order=platoon(("a", 20, 16), ("b", 28, 16), ("mg", 36, 16)))
    )
    assert state.phase is Phase.REACTION


def test_german_kampfgruppe_mixes_types_at_the_slowest_members_rate_p21():
    state = started(
        game(
            make_unit("german", "Panther", "axis", (20, 60), facing=270, unit_id="panther"),
            make_unit("german", "Tiger I", "axis", (30, 60), facing=270, unit_id="tiger"),
            make_unit("german", "Infantry Detachment", "axis", (40, 60), unit_id="gren"),
            make_unit("us", "Infantry Detachment", "allies", (90, 5), unit_id="gis"),
        ),
        "axis",
    )
    with pytest.raises(IllegalCommand, match="^A Kampfgruppe moves at its slowest member's rate \\(6\"\\)$"):
        play(
            state,
            Declare(side="axis", order=platoon(("panther", 20, 52), ("tiger", 30, 54), ("gren", 40, 54))),
        )
    state, _ = play(
        state, Declare(side="axis", order=platoon(("panther", 20, 54), ("tiger", 30, 54), ("gren", 40, 54)))
    )
    assert state.sides["axis"].tokens == 9
    state, events = play(
        state,
        React(
            side="allies",
            window=state.pending.window,
            order=UnitOrder(unit="gis", actions=(Move(path=(P(90, 8),)),)),
        ),
        d6(1),
    )
    assert [state.units[u].position for u in ("panther", "tiger", "gren")] == [
        P(20, 54),
        P(30, 54),
        P(40, 54),
    ]
    assert text(events).count('moves 6.0"') == 3
