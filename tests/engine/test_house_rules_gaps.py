"""House Rules V1.0 rules an audit found untested: snipers (s. 8 Snipers, HR8.2), a transport's
own morale apart from its unit (s. 3 Transports) and a spotter looking down when it calls for
fire (s. 5 Request fire with s. 8 Blocking terrain), through the game flow with scripted dice.
Assaults on buildings (s. 6) are in ``test_house_rules_buildings.py``."""

import pytest

from engine import geometry
from engine.battlefield import can_see
from engine.commands import Deploy, Fire, Move
from engine.dice import ScriptedDice, d6, d10
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.firing.losses import add_markers
from engine.rulesets import find_rule_set, with_rule_set
from engine.scenarios.book import find_scenario
from engine.scenarios.new_game import make_unit
from engine.scenarios.setup import set_up_scenario
from engine.state import CoverKind, Going, TerrainFeature
from engine.variants.house_v1.commands import RequestFire
from engine.view import told
from tests.engine.helpers import P, act, box, declare, game, play, started, texts

SIDES = {"allies": "british", "axis": "german"}


def house(*units, **kw):
    return with_rule_set(game(*units, sides=SIDES, **kw), "house-v1")


# --- snipers (s. 8 Snipers, HR8.2) ----------------------------------------------------------------


def test_a_sniper_sets_up_hidden_with_one_dummy_marker_under_the_house_rules_hr8_2():
    state = with_rule_set(
        game(
            make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id="gis", command=True),
            make_unit("us", "Sniper Team", "allies", (0, 0), unit_id="sniper"),
            make_unit("german", "Infantry Detachment", "axis", (0, 0), unit_id="gren", command=True),
        ),
        "house-v1",
    )
    state = set_up_scenario(state, find_scenario("capture"), {"allies": "defender", "axis": "attacker"})
    with pytest.raises(IllegalCommand, match="give Sniper Team a decoy point"):
        play(state, Deploy(side="allies", unit="sniper", at=P(50, 65)))
    state, events = play(state, Deploy(side="allies", unit="sniper", at=P(50, 65), decoy=P(10, 30)))
    sniper = state.units["sniper"]
    assert sniper.hidden and sniper.decoy == P(10, 30)
    assert (
        told(events[0], "axis") == "The Allies set up a sniper team's two markers, at 10.0,30.0 and 50.0,65.0"
    )


WOODS = box("woods", "woods", 40, 49, 60, 60, going=Going.ROUGH, cover=CoverKind.COVER)


def sniper_game(*extra):
    """A German sniper hidden 1" inside a wood, its dummy marker out in the open at 20.0,50.0;
    British infantry 20" south of it."""
    sniper = make_unit("german", "Sniper Team", "axis", (50, 50), unit_id="sniper", hidden=True)
    sniper.decoy = P(20, 50)
    return started(
        house(
            sniper,
            make_unit("british", "Infantry Detachment", "allies", (50, 30), unit_id="tommies"),
            *extra,
            terrain=[WOODS],
        ),
        "axis",
    )


def test_a_sniper_that_fires_is_observed_on_a_6_and_stays_revealed_hr8_2():
    state = sniper_game()
    # one d10 (5+, +1 sniper): a miss; then the enemy's d6 to observe it
    state, events = act(state, "axis", "sniper", Fire(target="tommies"), faces=[d10(1), d6(5)])
    assert texts(events)[-1] == "Sniper Team stays hidden (spotting roll 5) (House Rules HR8.2)"
    assert state.units["sniper"].hidden
    state, events = act(state, "axis", "sniper", Fire(target="tommies"), faces=[d6(6), d10(1), d6(6)])
    assert texts(events)[-1] == "Sniper Team is spotted: the enemy rolled a 6 (House Rules HR8.2)"
    # revealed for good: static and silent in cover, it is still seen 20" off, far beyond the 1"
    # a concealed sniper in cover is observed at
    sniper = state.units["sniper"]
    sniper.fired_this_turn = sniper.moved_this_turn = False
    assert not sniper.hidden and can_see(state, state.units["tommies"], sniper)


def test_a_concealed_sniper_in_cover_is_observed_only_as_close_as_1_not_the_2015_4_hr8_2():
    state = sniper_game()
    state.active_side = "allies"
    state.units["tommies"].position = P(50, 40)
    state, events = act(state, "allies", "tommies", Move(path=(P(50, 45),)))
    tommies, sniper = state.units["tommies"], state.units["sniper"]
    assert round(geometry.distance(tommies, sniper), 1) == 3.0
    assert (
        find_rule_set("core_2015").sniper_spotted_by(state, tommies, sniper)
        == 'Infantry Detachment is within 4"'
    )
    assert sniper.hidden and all(e.kind != "spotted" for e in events)


def test_a_static_spotter_observes_a_concealed_sniper_in_cover_6_further_hr8_2():
    hq = make_unit("british", "Infantry Detachment", "allies", (50, 42), unit_id="hq", command=True)
    state = sniper_game(hq)
    state.active_side = "allies"
    # any move prompts the look: the company command (a spotter) is 6" from the sniper in cover
    state, events = act(state, "allies", "tommies", Move(path=(P(50, 33),)))
    assert "Sniper Team is spotted: Infantry Detachment observes it (House Rules HR8.2)" in texts(events)
    assert not state.units["sniper"].hidden


def test_a_sniper_in_the_open_is_observed_within_4_hr8_2():
    state = sniper_game()
    state.terrain = []
    state.active_side = "allies"
    state.units["tommies"].position = P(50, 40)
    state, events = act(state, "allies", "tommies", Move(path=(P(50, 43.5),)))
    assert state.units["sniper"].hidden
    state, events = act(state, "allies", "tommies", Move(path=(P(50, 44),)), faces=[d6(2)])
    assert "Sniper Team is spotted: Infantry Detachment observes it (House Rules HR8.2)" in texts(events)


def test_the_snipers_dummy_marker_is_found_as_the_sniper_would_be_hr8_2():
    state = sniper_game()
    state.active_side = "allies"
    state.units["tommies"].position = P(20, 42)
    state, events = act(state, "allies", "tommies", Move(path=(P(20, 47),)))
    assert "The hidden marker at 20.0,50.0 was a dummy (House Rules HR8.2)" in texts(events)
    assert state.units["sniper"].decoy is None and state.units["sniper"].hidden


def test_a_sniper_that_rapid_moves_is_revealed_hr8_2():
    state = sniper_game()
    state.terrain = []
    moved, _ = act(state, "axis", "sniper", Move(path=(P(50, 52),)))
    assert moved.units["sniper"].hidden  # a normal move keeps it concealed
    state, events = act(state, "axis", "sniper", Move(path=(P(56, 50),), rapid=True))
    assert "Sniper Team is spotted: it made a rapid move (House Rules HR8.2)" in texts(events)


# --- transports (s. 3 Transports) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("nation", "name"),
    [
        ("german", "251 Halftrack"),
        ("german", "251/10 Halftrack"),
        ("german", "Truck/Kubelwagen"),
        ("british", "Bren Carrier"),
        ("soviet", "M5 Halftrack"),
        ("us", "M3 Halftrack/Dodge WC-51"),
        ("us", "Truck/Jeep"),
    ],
)
def test_every_transport_has_morale_2_of_its_own_under_the_house_rules_s3_transports(nation, name):
    transport = make_unit(nation, name, "allies", (10, 10))
    assert transport.profile.morale is None  # the 2015 transports have none
    assert find_rule_set("house_v1").unit(transport).profile.morale == 2


def test_a_transport_apart_from_its_unit_is_destroyed_by_a_third_marker_s3_transports():
    halftrack = make_unit("us", "M3 Halftrack/Dodge WC-51", "allies", (10, 10), unit_id="m3")
    markers = {}
    for rules in ("house-v1", "core-2015"):
        state = with_rule_set(game(halftrack), rules)
        log = EventLog(ScriptedDice([]))
        add_markers(state, state.units["m3"], 2, log)
        assert not state.units["m3"].destroyed
        add_markers(state, state.units["m3"], 1, log)
        markers[rules] = (state.units["m3"].destroyed, texts(log.events))
    assert markers == {
        "house-v1": (True, ["M3 Halftrack/Dodge WC-51 has 3 morale markers (morale 2): destroyed"]),
        "core-2015": (False, []),  # no morale value: markers alone never destroy it (p. 13)
    }


# --- a spotter looking down (s. 5 Request fire, s. 8 Blocking terrain) ------------------------------


HEDGE = TerrainFeature(
    id="hedge",
    kind="hedge",
    outline=(P(0, 25), P(60, 25)),
    linear=True,
    width=0.5,
    going=Going.ROUGH,
    cover=CoverKind.COVER,
)
HILL = box("hill", "hill", 14, 4, 26, 16)


def battery(*terrain):
    """A British company command 15" short of a hedge, a 3" mortar behind; Germans far off."""
    return started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (20, 10), unit_id="hq", command=True),
            make_unit("british", "Mortar Team", "allies", (20, 2), unit_id="mortar", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (50, 60), unit_id="gruppe"),
            terrain=[HEDGE, *terrain],
        ),
        "allies",
    )


def test_a_spotter_on_the_ground_cannot_call_fire_beyond_a_hedge_s5_s8():
    with pytest.raises(IllegalCommand, match=r"Infantry Detachment cannot see 20.0,40.0"):
        declare(battery(), "allies", "hq", RequestFire(at=P(20, 40)))


def test_a_spotter_on_a_hill_looks_down_over_the_hedge_to_call_fire_s5_s8():
    state, events = act(battery(HILL), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    assert state.fire_markers[0].at == P(20, 40) and state.fire_markers[0].placed


def test_a_spotter_in_an_upper_storey_looks_down_but_a_ground_floor_one_does_not_s5_s8():
    def in_house(storeys):
        house_box = box("house", "building", 17, 7, 23, 13, building=True, storeys=storeys)
        state = battery(house_box)
        state.units["hq"].in_building = "house"
        return state

    with pytest.raises(IllegalCommand, match=r"cannot see 20.0,40.0"):
        declare(in_house(1), "allies", "hq", RequestFire(at=P(20, 40)))
    state, _ = act(in_house(2), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    assert state.fire_markers[0].placed
