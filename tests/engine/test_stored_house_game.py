"""A house-rules game stored before the house rules had their own package (its state flat on the
core models) loads and plays on exactly as it did: smoke, a fire marker, a burning barn and a
close combat at a building waiting for the defenders' choice (House Rules V1.0, s. 5 and 6)."""

import json
from pathlib import Path

from engine.dice import d6, d10
from engine.game_state import GameState
from engine.scenarios.new_game import make_unit
from engine.variants.house_v1.commands import ChooseDefender
from engine.variants.house_v1.state import HouseGame, HousePending, HouseProfile, HouseUnit
from tests.engine.helpers import game, play, texts

DATA = Path(__file__).parent / "data"
FLAT_GAME = ("fire_markers", "smoke_screens", "wind", "fires", "burnt", "breaches")


def stored(name: str) -> GameState:
    return GameState.model_validate_json((DATA / name).read_text(encoding="utf-8"))


def test_the_old_flat_fields_load_into_the_house_rules_parts():
    state = stored("house_v1_game_before_variants.json")
    assert isinstance(state.variant, HouseGame)
    assert state.variant.smoke_screens[0].puffs[0].x == 30 and state.variant.fire_markers[0].placed
    assert state.variant.fires == {"barn": 2}
    assert isinstance(state.pending.variant, HousePending) and state.pending.variant.initiated
    gruppe, tommies = state.units["gruppe"], state.units["tommies"]
    assert isinstance(gruppe.variant, HouseUnit) and gruppe.variant.in_building == "church"
    assert isinstance(tommies.variant, HouseUnit) and tommies.variant.in_building is None
    assert isinstance(tommies.profile.variant, HouseProfile)
    assert tommies.profile.house.troop_type == "infantry"
    stored_again = json.loads(state.model_dump_json())
    assert not set(FLAT_GAME) & stored_again.keys()
    assert stored_again["variant"]["rules"] == "house_v1"
    assert "in_building" not in stored_again["units"]["gruppe"]
    assert GameState.model_validate(stored_again) == state


def test_a_game_stored_in_the_old_shape_plays_on_identically():
    state = stored("house_v1_game_before_variants.json")
    faces = [d10(1), d10(1), d10(9), d10(9), d6(5), d6(5)]
    after, events = play(state, ChooseDefender(side="axis", unit="gruppe"), *faces)
    assert texts(events) == [
        "Round 1: Infantry Detachment fires at Infantry Detachment: needs 5+ (5 morale markers -5); "
        "rolled 1, 1: miss (House Rules HR6.7)",
        "Round 1: Infantry Detachment fires at Infantry Detachment: needs 5+; rolled 9, 9: 2 hits; "
        "casualty 4+ rolled 5, 5: 3 markers (House Rules HR6.7)",
        "Infantry Detachment has 8 morale markers (morale 5): destroyed",
        "Infantry Detachment goes into church",
        "The Allies are established in church: more units may follow through its south side "
        "(House Rules HR6.7)",
    ]
    assert after == stored("house_v1_game_before_variants_after_choice.json")
    assert after.breaches == {"church": {"allies": "south"}}


def test_a_2015_game_stored_with_the_old_empty_fields_has_no_house_rules_part():
    old = json.loads(game(make_unit("us", "Sherman 75mm", "allies", (10, 10))).model_dump_json())
    old |= {"fire_markers": [], "smoke_screens": [], "wind": None, "fires": {}, "burnt": [], "breaches": {}}
    for unit in old["units"].values():
        unit |= {"in_building": None, "firing_post": None}
        unit["profile"]["house"] = None
    state = GameState.model_validate(old)
    assert state.variant is None and state.smoke_screens == []  # read as the part's defaults
    assert all(u.variant is None and u.profile.variant is None for u in state.units.values())
