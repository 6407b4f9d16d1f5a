"""The referee's and the team's commands, each handled once (bot.handlers.referees and teams): the
console's shorthands reach a handler as the options Discord gives it, and the players a log line
names by their Discord user id are told as mentions."""

import pytest

from bot.command_schema import COMMANDS
from bot.reply import Mention, with_people
from engine.scenarios.quick_battle import quick_battle
from tests.bot.discord_harness import OTTO, Pick
from tests.bot.test_one_handler import both_front_ends, front_ends  # noqa: F401 (fixtures)
from tests.test_readme_examples import slash

SHORTHANDS = [  # a console line with its shorthand, and the Discord line it stands for
    ("/ref markers unit:Sherman 2 value:2 reason:a hit", "/ref markers unit:Sherman 2 count:2 reason:a hit"),
    ("/ref turn value:3 reason:the turn was skipped", "/ref turn number:3 reason:the turn was skipped"),
    (
        "/ref tokens side:allies value:4 reason:miscounted player:305",
        "/ref tokens side:allies count:4 reason:miscounted player:305",
    ),
    ("/ref zone side:axis area:0,36,72,47.5", "/ref prep zone side:axis x1:0 y1:36 x2:72 y2:47.5"),
]


@pytest.mark.asyncio(loop_scope="module")  # the loop of the module's front ends
@pytest.mark.parametrize(("typed", "in_discord"), SHORTHANDS)
async def test_a_console_shorthand_hands_the_handler_what_discord_does(
    both_front_ends,  # noqa: F811
    typed,
    in_discord,
):
    discord, table, handed = both_front_ends
    path, options = slash(in_discord)
    users = {option.name for option in COMMANDS[path].shared() if option.kind == "user"}
    options = {name: Pick(value) if name in users else value for name, value in options.items()}
    await discord.slash(path, user=OTTO, channel="1", **options)
    assert await table.handle(f"as otto {typed}") == "Not allowed: noted"
    assert len(handed) == 2 and handed[0] == handed[1] and handed[0][0] == path, handed


def test_the_players_and_referees_a_line_names_by_user_id_are_mentions():
    state = quick_battle()
    state.sides["allies"].players = ["305"]
    state.referees = ["3"]
    line = with_people("3 gives 305's units to 3051 (ann left): 305 is away", state)
    assert line == (
        Mention("3"),
        " gives ",
        Mention("305"),
        "'s units to 3051 (ann left): ",
        Mention("305"),
        " is away",
    )
    state.sides["allies"].players = ["ann"]  # a name typed at the console stays a word
    assert with_people("ann left", state) == ("ann left",)
