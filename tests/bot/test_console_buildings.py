"""Firing out of a building's upper storey at the console table (House Rules V1.0, s. 5 Firing
from buildings): the side and storey typed with the order."""

import io

from bot.console import play_console
from engine.dice import SeededDice
from tests.bot.test_console import run


async def test_a_squad_fires_out_of_the_churchs_upper_storey_at_the_console(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    lines = [
        "/game new ruleset:house_v1 forces:british",  # the village: its church has an upper storey
        "/start",
        "/initiative start",
        "/act gruppe-3 move:47,37 enter:church",
        "/noreact",
        "/act gruppe-3 face:south",
        "/act gruppe-3 fire:3-section storey:top",
        "/act gruppe-3 fire:3-section face:west storey:1",
        "/act gruppe-3 fire:3-section face:south storey:2",
        "/act gruppe-3 fire:3-section face:south storey:1",
        "/noreact",
        "/units",
    ]
    out = io.StringIO()
    assert await play_console(io.StringIO("\n".join(lines) + "\n"), out, url, dice=lambda: SeededDice(1)) == 0
    text = out.getvalue()
    assert "Gruppe 3 goes into church" in text
    assert "Not allowed: A side (face:) and storey (storey:) of a building go with a target (fire:)" in text
    assert "Not allowed: Name the storey 0 (or ground) for the ground floor, 1, 2... not 'top'" in text
    assert (
        "Not allowed: 3 Section is not within 45 degrees of straight out from the west side of church: "
        "fire from another side" in text
    )
    assert "Not allowed: church has no storey 2: it has storeys 0 (the ground floor) to 1" in text
    assert "The Axis declare: Gruppe 3: fire at 3 Section from the south side, storey 1" in text
    assert "Gruppe 3 fires out of church's south side, storey 1 (House Rules HR5.32)" in text
    assert "gruppe-3               Infantry squad               at 45.5,27.0 facing 270" in text


async def test_a_move_into_a_building_says_the_enter_action_is_the_way_in(tmp_path):
    """A move that ends inside the church is refused, with or without enter:church: going in is
    the enter action itself, from within 6" (House Rules V1.0, s. 4, as a transport); the
    hint no longer tells a player who gave enter:church to give it."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    lines = [
        "/game new ruleset:house_v1 forces:british",
        "/start",
        "/initiative start",
        "/act gruppe-3 move:H6 enter:church",
        "/act gruppe-3 move:47,37 enter:church",
    ]
    text = await run("\n".join(lines) + "\n", url)
    assert (
        "Not allowed: The move ends inside church: a move stops outside a building, and going in is "
        'the enter action itself (enter:church, from within 6" of it, as into a transport): end the '
        "move outside church, or leave the move out" in text
    )
    assert "go in with an enter action" not in text
    assert "then go into church" in text  # a move ending outside, then the way in
