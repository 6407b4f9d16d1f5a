"""Players' names as the picture shows them: taken when a player joins or a referee hands them
a seat, bounded and cleaned (hostile input), kept in the game's state, and absent from games
stored before names were kept without anything else being lost."""

import json

import pytest
from pydantic import ValidationError

from engine.commands import JoinSide, RefereeCorrection
from engine.dice import SeededDice
from engine.game import apply
from engine.game_state import GameState
from engine.roster import PLAYER_NAME_LIMIT, shown_name
from engine.scenarios.quick_battle import quick_battle
from tests.engine.helpers import play
from tests.engine.team_games import turn_one
from tests.engine.test_stored_house_game import stored

HOSTILE = "**@everyone**\u202e\x00<@303> `Ann`\n\u200b[link](http://x)" + " Mayhem" * 20


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Ann", "Ann"),
        ("  Otto   von  Bismarck ", "Otto von Bismarck"),
        ("**Ann**_~|>#", "Ann"),
        ("<@303> and <@&900>, <#7> <:tank:12>", "and ,"),
        ("@everyone", "everyone"),
        ("Ann\u202eteg\x07\u200bx", "Ann teg x"),
        ("x" * 40, "x" * (PLAYER_NAME_LIMIT - 1) + "…"),
        ("```", ""),
        ("\x00\x01\n", ""),
    ],
)
def test_a_display_name_is_cleaned_and_bounded(raw, shown):
    assert shown_name(raw) == shown


def test_a_hostile_name_keeps_no_mark_and_no_more_than_the_limit():
    name = shown_name(HOSTILE)
    assert name == "everyone Ann linkht…" and len(name) == PLAYER_NAME_LIMIT
    assert not set(name) & set("*_~`|>#@<[]()\\:\n\x00\u202e\u200b")


def test_joining_keeps_the_players_name_and_a_command_bounds_what_it_carries():
    state, _ = apply(quick_battle(), JoinSide(side="allies", player="303", name=HOSTILE[:100]), SeededDice(1))
    assert state.player_names == {"303": shown_name(HOSTILE)}
    state, _ = apply(state, JoinSide(side="axis", player="304", name="```"), SeededDice(1))
    assert "304" not in state.player_names  # nothing readable: the picture numbers the player
    with pytest.raises(ValidationError):
        JoinSide(side="axis", player="305", name="x" * 101)


def test_a_player_handed_a_seat_by_the_referee_is_named_too():
    state = turn_one()
    state.referees = ["ref"]
    correction = RefereeCorrection(
        referee="ref", reason="eve stands in", change="give_units", player="ann", to="eve", to_name="Eve *E*"
    )
    state, _ = play(state, correction)
    assert state.player_names["eve"] == "Eve E"


def test_games_and_commands_stored_before_names_were_kept_still_load():
    old = stored("house_v1_game_before_variants.json")
    assert old.player_names == {}
    again = json.loads(old.model_dump_json())
    assert GameState.model_validate(again) == old
    command = json.loads(JoinSide(side="allies", player="ann").model_dump_json())
    del command["name"]
    assert JoinSide.model_validate(command) == JoinSide(side="allies", player="ann")
