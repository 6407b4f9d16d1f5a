"""Movement in play: rates, turning, terrain tests, embarking, platoons (Iron Cross 2015, pp. 8-9, 21)."""

import pytest

from engine.commands import (
    Declare,
    DeclineReaction,
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
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.setup import make_unit
from engine.state import CoverKind, Going, Phase, TerrainFeature
from tests.engine.helpers import P, act, box, game, play, started, text

ROAD = box("road", "road", 0, 28, 96, 32, road=True)
WOODS = box("woods", "woods", 40, 40, 60, 60, going=Going.ROUGH, cover=CoverKind.COVER)
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


def panther_game(*extra, terrain=()):
    return started(
        game(
            make_unit("german", "Panther", "axis", (50, 30), facing=270),
            make_unit("us", "Infantry Detachment", "allies", (90, 70), unit_id="gis"),
            *extra,
            terrain=terrain,
        ),
        "axis",
    )


def test_medium_vehicle_normal_rapid_and_road_rates_p8():
    state = panther_game(terrain=[ROAD])
    with pytest.raises(IllegalCommand, match='may move 15" \\(rapid\\); that path is 16.0"'):
        play(
            state,
            Declare(
                side="axis",
                order=UnitOrder(unit="panther", actions=(Move(path=(P(50, 46),), rapid=True, facing=270),)),
            ),
        )
    state2, events = act(state, "axis", "panther", Move(path=(P(30, 30),), rapid=True, road=True))
    assert state2.units["panther"].position == P(30, 30)
    with pytest.raises(IllegalCommand, match="stay on the road"):
        play(
            state,
            Declare(
                side="axis",
                order=UnitOrder(unit="panther", actions=(Move(path=(P(40, 40),), rapid=True, road=True),)),
            ),
        )


def test_vehicle_turn_limits_180_normal_90_rapid_and_reverse_p8():
    state = panther_game()
    # a U-turn (facing 270 to 90) is 180 degrees: allowed at normal rate, not at rapid
    act(state, "axis", "panther", Move(path=(P(50, 30),), facing=90))
    with pytest.raises(IllegalCommand, match="at most 90 degrees in a rapid move"):
        play(
            state,
            Declare(
                side="axis", order=UnitOrder(unit="panther", actions=(Move(path=(P(50, 42),), rapid=True),))
            ),
        )
    state2, _ = act(state, "axis", "panther", Move(path=(P(50, 42),), rapid=True, reverse=True))
    assert state2.units["panther"].facing == 270


def test_turret_traverse_over_90_degrees_counts_as_moving_p8():
    state = panther_game(
        make_unit("us", "Sherman 75mm", "allies", (50, 60), facing=270, unit_id="behind"),
        make_unit("us", "Sherman 75mm", "allies", (80, 30), facing=180, unit_id="beside"),
    )
    _, events = act(state, "axis", "panther", Fire(target="behind"), faces=[d10(1)])
    assert "needs 7+ (-2 moved)" in text(events)
    _, events = act(state, "axis", "panther", Fire(target="beside"), faces=[d10(1)])
    assert "needs 5+;" in text(events)


def test_vehicle_near_unscreened_enemy_infantry_moves_half_unless_moving_away_p8():
    state = started(
        game(
            make_unit("german", "Panther", "axis", (50, 30), facing=270),
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis"),
        ),
        "axis",
    )
    with pytest.raises(IllegalCommand, match='may move 5" \\(half rate near enemy infantry\\)'):
        play(state, Declare(side="axis", order=UnitOrder(unit="panther", actions=(Move(path=(P(56, 25),)),))))
    act(state, "axis", "panther", Move(path=(P(50, 38),), reverse=True))  # away: full 8"
    screened = started(
        game(
            make_unit("german", "Panther", "axis", (50, 30), facing=270),
            make_unit("german", "Infantry Detachment", "axis", (50, 24), unit_id="gren"),
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis"),
        ),
        "axis",
    )
    act(screened, "axis", "panther", Move(path=(P(56, 25),)))  # screened: the full 7.8"


def test_failed_terrain_test_stops_the_unit_and_ends_its_turn_p9():
    state = started(
        game(
            make_unit("german", "Truck/Kubelwagen", "axis", (50, 36), facing=90, unit_id="truck"),
            make_unit("german", "Panther", "axis", (45, 32), facing=90),
            make_unit("us", "Infantry Detachment", "allies", (50, 66), unit_id="gis"),
            terrain=[WOODS],
        ),
        "axis",
    )
    state, events = act(state, "axis", "truck", Move(path=(P(50, 46),)), faces=[d6(5)])
    assert "needs 6+ to cross woods: rolled 5, stuck" in text(events)
    truck = state.units["truck"]
    assert truck.bogged and truck.position == P(50, 41.5)  # just past the edge: rear on the woods' edge
    with pytest.raises(IllegalCommand, match="failed a terrain test"):
        play(state, Declare(side="axis", order=UnitOrder(unit="truck", actions=(Move(path=(P(50, 40),)),))))
    state, events = act(state, "axis", "panther", Move(path=(P(45, 42),)), Fire(target="gis"), faces=[d6(1)])
    assert "Panther needs 2+ to cross woods: rolled 1, stuck" in text(events)
    assert not any(e.kind == "fire" for e in events)  # the rest of its activation is lost
    assert state.units["panther"].bogged


def test_very_rough_needs_4_for_infantry_and_wire_one_more_p9():
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (25, 58), unit_id="gren"),
            make_unit("german", "Infantry Detachment", "axis", (70, 24), unit_id="wired"),
            make_unit("us", "Infantry Detachment", "allies", (90, 70), unit_id="gis"),
            terrain=[RUBBLE, WIRE],
        ),
        "axis",
    )
    _, events = act(state, "axis", "gren", Move(path=(P(25, 52),)), faces=[d6(4)])
    assert "needs 4+ to cross rubble: rolled 4, through" in text(events)
    _, events = act(state, "axis", "wired", Move(path=(P(70, 18.5),)), faces=[d6(4)])
    assert "needs 5+ to cross wire: rolled 4, stuck" in text(events)


def test_guns_cannot_cross_wire_until_a_vehicle_breaches_it_p9():
    state = started(
        game(
            make_unit("german", "PaK40 Anti-tank Gun", "axis", (30, 24), facing=270, unit_id="pak"),
            make_unit("german", "Panther", "axis", (60, 26), facing=270),
            make_unit("us", "Infantry Detachment", "allies", (90, 70), unit_id="gis"),
            terrain=[WIRE],
        ),
        "axis",
    )
    with pytest.raises(IllegalCommand, match="may not cross unbreached wire"):
        play(state, Declare(side="axis", order=UnitOrder(unit="pak", actions=(Move(path=(P(30, 18),)),))))
    state, _ = act(state, "axis", "panther", Move(path=(P(60, 18),)))
    assert state.breached_wire == ["wire"]
    _, events = act(state, "axis", "pak", Move(path=(P(30, 18),)), faces=[d6(3)])
    assert "needs 3+ to cross wire: rolled 3, through" in text(events)  # rough 2+, wire -1


def test_no_rapid_move_through_rough_ground_p9():
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (50, 36), unit_id="gren"),
            make_unit("us", "Infantry Detachment", "allies", (90, 70), unit_id="gis"),
            terrain=[WOODS],
        ),
        "axis",
    )
    with pytest.raises(IllegalCommand, match="may not make a rapid move through rough ground"):
        play(
            state,
            Declare(
                side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(50, 44),), rapid=True),))
            ),
        )


def transport_game():
    return started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (50, 30), unit_id="gren"),
            make_unit("german", "Infantry Detachment", "axis", (54, 30), unit_id="gren2"),
            make_unit("german", "251 Halftrack", "axis", (50, 35), facing=90, unit_id="ht"),
            make_unit("german", "Truck/Kubelwagen", "axis", (60, 35), facing=90, unit_id="truck"),
            make_unit("us", "Infantry Detachment", "allies", (90, 70), unit_id="gis"),
        ),
        "axis",
    )


def test_embark_then_the_transport_moves_disembark_within_6_p9():
    state = transport_game()
    state, _ = act(state, "axis", "gren", Embark(transport="ht"), Move(path=(P(50, 47),)))
    assert state.units["ht"].position == P(50, 47) == state.units["gren"].position
    assert state.units["gren"].embarked_in == "ht"
    with pytest.raises(IllegalCommand, match='disembarking reaches 6"'):
        play(state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Disembark(to=P(50, 60)),))))
    state, events = act(
        state, "axis", "gren", Move(path=(P(50, 55),)), Disembark(to=P(46, 55)), faces=[d6(6)]
    )
    assert state.units["gren"].embarked_in is None and state.units["gren"].position == P(46, 55)


def test_embarking_limits_p9_p20():
    state = transport_game()
    with pytest.raises(IllegalCommand, match="may not embark and disembark in the same activation"):
        play(
            state,
            Declare(
                side="axis",
                order=UnitOrder(unit="gren", actions=(Embark(transport="ht"), Disembark(to=P(50, 38)))),
            ),
        )
    with pytest.raises(IllegalCommand, match="a rapid move counts as two"):
        play(
            state,
            Declare(
                side="axis",
                order=UnitOrder(
                    unit="gren", actions=(Move(path=(P(56, 34),), rapid=True), Embark(transport="truck"))
                ),
            ),
        )
    state, _ = act(state, "axis", "gren", Embark(transport="ht"))
    with pytest.raises(IllegalCommand, match="251 Halftrack is full"):
        play(state, Declare(side="axis", order=UnitOrder(unit="gren2", actions=(Embark(transport="ht"),))))
    state, _ = act(state, "axis", "gren2", Embark(transport="truck"))
    assert state.units["gren2"].embarked_in == "truck"


def three_shermans(nation_sides=None, second="Sherman 75mm"):
    return started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (20, 10), facing=90, unit_id="s1"),
            make_unit("us", second, "allies", (30, 10), facing=90, unit_id="s2"),
            make_unit("us", "Sherman 75mm", "allies", (40, 10), facing=90, unit_id="s3"),
            make_unit("german", "Infantry Detachment", "axis", (50, 60), unit_id="gren"),
        ),
        "allies",
    )


def platoon(*moves):
    return PlatoonOrder(members=tuple(PlatoonMember(unit=u, move=Move(path=(P(x, y),))) for u, x, y in moves))


def test_platoon_move_one_token_then_no_more_activations_or_reactions_p9():
    state = three_shermans()
    state, _ = play(
        state, Declare(side="allies", order=platoon(("s1", 20, 18), ("s2", 30, 18), ("s3", 40, 18)))
    )
    state, _ = play(state, DeclineReaction(side="axis", window=state.pending.window))
    assert [state.units[u].position.y for u in ("s1", "s2", "s3")] == [18, 18, 18]
    assert state.sides["allies"].tokens == 9
    with pytest.raises(IllegalCommand, match="moved as part of a platoon"):
        play(state, Declare(side="allies", order=UnitOrder(unit="s1", actions=(Move(path=(P(20, 20),)),))))
    state, _ = play(state, PassInitiative(side="allies"))
    state, _ = play(
        state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(50, 56),)),)))
    )
    with pytest.raises(IllegalCommand, match="moved as part of a platoon"):
        play(
            state,
            React(
                side="allies",
                window=state.pending.window,
                order=UnitOrder(unit="s2", actions=(Move(path=(P(30, 20),)),)),
            ),
        )


def test_platoon_must_be_one_type_except_the_german_kampfgruppe_p9_p21():
    state = three_shermans(second="M5 Stuart")
    with pytest.raises(IllegalCommand, match="must be of one type"):
        play(state, Declare(side="allies", order=platoon(("s1", 20, 18), ("s2", 30, 18), ("s3", 40, 18))))
    kg = started(
        game(
            make_unit("german", "Panther", "axis", (20, 60), facing=270),
            make_unit("german", "Tiger I", "axis", (30, 60), facing=270),
            make_unit("german", "Infantry Detachment", "axis", (40, 60), unit_id="gren"),
            make_unit("us", "Infantry Detachment", "allies", (90, 5), unit_id="gis"),
        ),
        "axis",
    )
    with pytest.raises(IllegalCommand, match="slowest member's rate \\(6\"\\)"):
        play(
            kg,
            Declare(side="axis", order=platoon(("panther", 20, 52), ("tiger-i", 30, 54), ("gren", 40, 54))),
        )
    kg, _ = play(
        kg, Declare(side="axis", order=platoon(("panther", 20, 54), ("tiger-i", 30, 54), ("gren", 40, 54)))
    )
    assert kg.phase is Phase.REACTION


def test_activating_a_unit_may_move_its_own_transport_instead_p20():
    """p. 20: a unit's activation may move its empty transport (e.g. to fetch it); the token
    counts as the parent's activation and the parent itself stays put."""
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (50, 30), unit_id="gren", transport="ht"),
            make_unit("german", "251 Halftrack", "axis", (50, 45), facing=270, unit_id="ht"),
            make_unit("us", "Infantry Detachment", "allies", (90, 70), unit_id="gis"),
        ),
        "axis",
    )
    state, _ = act(state, "axis", "gren", Move(path=(P(50, 34),), own_transport=True))
    assert state.units["ht"].position == P(50, 34)
    assert state.units["gren"].position == P(50, 30) and not state.units["gren"].moved_this_turn
    assert state.units["gren"].tokens == 1 and state.units["ht"].tokens == 0
    state.units["ht"].destroyed = True
    with pytest.raises(IllegalCommand, match="has no transport on the table"):
        play(
            state,
            Declare(
                side="axis",
                order=UnitOrder(unit="gren", actions=(Move(path=(P(50, 31),), own_transport=True),)),
            ),
        )
