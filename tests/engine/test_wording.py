"""What the game says reads as a player would write it: the sides by name with the verb in the
plural, counts with their nouns (one helper each, engine/wording.py), positions as table inches
to one decimal."""

from engine.commands import ChooseInitiative, Declare, Move, StartGame, UnitOrder
from engine.dice import d6
from engine.scenarios.new_game import make_unit
from engine.state import Point
from engine.wording import counted, side_name
from tests.engine.helpers import game, play, text


def one_squad_a_side():
    """One infantry detachment a side, no command units: one token each."""
    return game(
        make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis"),
        make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
    )


def test_the_sides_read_as_players_read_them():
    """'The Allies draw', never 'allies draws': each side named, its verb in the plural."""
    assert (side_name("allies"), side_name("axis", start=True)) == ("the Allies", "The Axis")
    state, events = play(one_squad_a_side(), StartGame(), d6(2), d6(5))
    assert text(events) == (
        "Turn 1: the Allies draw 1 token, the Axis draw 1\n"
        "Initiative: the Allies 2, the Axis 5. The Axis choose who starts"
    )
    state, events = play(state, ChooseInitiative(side="axis", go_first=True))
    assert text(events) == "The Axis start as the active player"


def test_counts_read_with_their_nouns():
    """'1 token', '2 tokens', '1 marker': never '1 tokens' nor 'marker(s)'."""
    assert [counted(n, "token") for n in (0, 1, 2)] == ["0 tokens", "1 token", "2 tokens"]
    assert counted(1, "loss", "losses") == "1 loss" and counted(3, "loss", "losses") == "3 losses"
    assert counted(-1, "token", signed=True) == "-1 token" and counted(2, "token", signed=True) == "+2 tokens"


def test_positions_print_as_table_inches_to_one_decimal():
    """A position reads as a player types one (x,y in inches), to one decimal: never 13.3333."""
    assert str(Point(x=40 / 3, y=6)) == "13.3,6.0"
    state, _ = play(one_squad_a_side(), StartGame(), d6(5), d6(2))
    state, _ = play(state, ChooseInitiative(side="allies", go_first=True))
    order = UnitOrder(unit="gis", actions=(Move(path=(Point(x=10 + 10 / 3, y=10),)),))
    _, events = play(state, Declare(side="allies", order=order))
    assert "The Allies declare: Infantry Detachment: move to 13.3,10.0" in text(events)
