"""A house-rules game stored before the house rules had their own package (its state flat on the
core models) loads and plays on exactly as it did: smoke, a fire marker, a burning barn and a
close combat at a building waiting for the defenders' choice (House Rules V1.0, s. 5 and 6)."""

from pathlib import Path

from engine.commands import ChooseDefender
from engine.dice import d6, d10
from engine.game_state import GameState
from tests.engine.helpers import play, texts

DATA = Path(__file__).parent / "data"


def stored(name: str) -> GameState:
    return GameState.model_validate_json((DATA / name).read_text(encoding="utf-8"))


def test_a_game_stored_in_the_old_shape_plays_on_identically():
    state = stored("house_v1_game_before_variants.json")
    assert state.smoke_screens[0].puffs[0].x == 30 and state.fire_markers[0].placed
    assert state.fires == {"barn": 2} and state.units["gruppe"].in_building == "church"
    assert state.units["tommies"].profile.house.troop_type == "infantry"
    faces = [d10(1), d10(1), d10(9), d10(9), d6(5), d6(5)]
    after, events = play(state, ChooseDefender(side="axis", unit="gruppe"), *faces)
    assert texts(events) == [
        "Round 1: Infantry Detachment fires at Infantry Detachment: needs 5+ (5 morale marker(s) -5); "
        "rolled 1, 1: miss (House Rules HR6.7)",
        "Round 1: Infantry Detachment fires at Infantry Detachment: needs 5+; rolled 9, 9: 2 hits; "
        "casualty 4+ rolled 5, 5: 3 marker(s) (House Rules HR6.7)",
        "Infantry Detachment has 8 morale markers (morale 5): destroyed",
        "Infantry Detachment goes into church",
        "allies is established in church: more units may follow through its south side (House Rules HR6.7)",
    ]
    assert after == stored("house_v1_game_before_variants_after_choice.json")
    assert after.breaches == {"church": {"allies": "south"}}
    assert GameState.model_validate_json(after.model_dump_json()) == after
