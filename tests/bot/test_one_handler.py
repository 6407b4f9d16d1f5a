"""Each command handled once (issue 31): every command of the schema that is not an order has one
handler (bot.handlers), which the slash command, its form (where it has one) and the console line
hand the same options, read the same way: the same line typed in Discord's client and at the
console reaches the handler with equal options, and nothing else does."""

import inspect

import pytest
import pytest_asyncio

from bot.command_schema import COMMANDS
from bot.handlers import HANDLERS, PASTED
from bot.handlers.ask import Upload
from bot.play_orders import PLAY_ORDERS
from bot.services.game_service import GameError
from tests.bot.discord_harness import (
    EVE,
    MANAGE_GUILD,
    OTTO,
    Pick,
    form,
)
from tests.bot.discord_harness import Upload as Uploaded
from tests.bot.front_ends import both_started, checked_in_this_test
from tests.test_readme_examples import slash

NOTES = b"# Smoke\nIt clears at the end of the turn.\n"
LINES = [
    "/roll dice:2d10 5+ Panther secret:true",
    "/roll dice:log",
    "/chart roll chart:ic-reaction choices:tokens=1, markers=2 secret:true",
    "/chart list",
    "/chart show chart:ic-company-morale",
    "/odds shot firer:Panther target:Sherman range:18.5 aspect:side hull_down:true target_markers:2",
    "/odds fire unit:Gruppe 3 target:Sherman 2 moving:true",
    "/odds test needs:4 sides:10 dice:3 reroll:failed at_least:2",
    "/measure unit:Gruppe 3 to:D7",
    "/rule query:smoke dissipate private:true",
    "/library",
    "/rules remove name:house notes",
    "/stats campaign:true",
    "/force new nation:us name:Able Company points:400 date:1944-09 ruleset:house_v1",
    "/force add force:Able Company unit:Sherman 75mm label:Easy 8 quality:veteran elite",
    "/force remove force:Able Company unit:Easy 8",
    "/force upgrade force:Able Company unit:Infantry Detachment 1 iaw:false command:true",
    "/force upgrade force:Able Company unit:Infantry Detachment 1 transport:M3 half-track",
    "/force show force:Able Company",
    "/force list",
    "/force orbat nation:british ruleset:house_v1 find:stuart",
    "/force copy force:Able Company name:Baker Company",
    "/force export force:Able Company",
    "/force delete force:Able Company",
    "/game new table:village seed:3 edges:short areas:corners forces:british pace:daily "
    "reaction_seconds:600 scenario:capture attacker:axis attacker_choice:aggressive_command "
    "deployment:plotted ruleset:house_v1 ping_minutes:5 teams:2 bonus:co referee:305 referee_role:77",
    "/game join side:allies force:Able Company",
    "/game replay",
    "/game start",
    "/game stand_in play:on",
    "/game concede",
    "/game status",
    "/game log",
    "/game history number:2",
    "/game map",
    "/help topic:reactions",
    "/cards deal deck:Tactics",
    "/cards hand",
    "/cards use action:play card:Smoke Screen",
    "/games mine",
    "/games ping how:dm",
    "/games delay minutes:90",
    "/table new name:Farm width:60 depth:48",
    "/table random name:R1 seed:42 width:96 depth:72",
    "/table add table:Farm piece:church kind:building at:H6 size:7x6 turn:30 storeys:2",
    "/table add table:Farm piece:lane kind:road points:0,24;72,24 width:3",
    "/table add table:Farm piece:knoll kind:hill at:C3 size:12x8 height:medium",
    "/table move table:Farm piece:church to:30,18",
    "/table turn table:Farm piece:church degrees:-45",
    "/table remove table:Farm piece:church",
    "/table show table:Farm",
    "/table list",
    "/table copy table:Farm name:Farm 2",
    "/table export table:Farm",
    "/table delete table:Farm",
    "/campaign new name:Barrikady german:ann, bob russian:cat german_cpp:10 russian_cpp:12 days:3 "
    "start:18 Oct every:24h grace:2h reminders:6h,1h referee:ref carry_over:false",
    "/campaign submit buy:I1, O2 2 hexes fortify:2 x Trench side:german phase:2",
    "/campaign status",
    "/campaign ledger csv:true",
    "/campaign orbat side:russian",
    "/campaign correct entry:3 to:void reason:bought by mistake",
    "/campaign retain side:german units:2 x 4-6-7, 9-1",
    "/campaign balance side:russian drm:-1",
    "/campaign cg2 on:true",
    "/campaign chit entry:3 colour:red",
    "/campaign linked new name:Normandy allies:ann allies_force:Able axis:otto axis_force:KG winner:60 "
    "damaged:sit_out",
    "/campaign linked battle scenario:capture table:random seed:7 attacker:axis reaction_seconds:300",
    "/campaign linked buy side:allies unit:MG Team label:Able MG",
    "/campaign linked command side:axis unit:Panther 1",
    "/campaign linked retire side:allies unit:MG Team 1",
    "/campaign linked end",
    "/campaign linked standings",
    "/ref move unit:Gruppe 3 at:D7 reason:a slip of the hand facing:90",
    "/ref markers unit:Sherman 2 count:2 reason:forgot a hit",
    "/ref tokens side:allies count:3 reason:miscounted player:305",
    "/ref turn number:3 reason:the turn was skipped",
    "/ref initiative side:axis reason:the token was spent",
    "/ref reveal unit:Gruppe 3 reason:spotted",
    "/ref hide unit:Gruppe 3 reason:in the woods",
    "/ref destroy unit:Sherman 2 reason:a mine",
    "/ref restore unit:Sherman 2 reason:no mine after all",
    "/ref give_units player:301 to:305 reason:Ann had to leave",
    "/ref stand_in side:axis play:on reason:Otto had to leave",
    "/ref ruling text:the stream is fordable",
    "/ref undo count:2 reason:played out of turn",
    "/ref map",
    "/ref log",
    "/ref appoint referee:305",
    "/ref dismiss referee:305",
    "/ref clock pause",
    "/ref clock resume",
    "/ref clock extend minutes:10",
    "/ref clock close",
    "/ref clock deadline side:allies hours:2.5",
    "/ref prep objective id:the ford at:12,10 side:both",
    "/ref prep special to:referee text:The bridge is mined",
    "/ref prep brief side:axis text:Shermans at dawn",
    "/ref prep force side:allies points:400 guideline:one platoon, no tanks",
    "/ref prep zone side:allies x1:0 y1:20 x2:30 y2:30.5",
    "/ref prep list",
    "/team show",
    "/team give player:305 tokens:3",
    "/team request unit:Infantry Detachment 2",
    "/team grant unit:Infantry Detachment 2",
    "/team refuse unit:Infantry Detachment 2",
    "/lfg post side:axis scenario:capture table:random seed:7 forces:british ruleset:house_v1 pace:daily "
    "attacker:axis force:KG points:500 hours:48 note:first game, be gentle",
    "/lfg list",
    "/lfg cancel lobby:3",
]
PICKED = {"user": 6, "role": 8}  # the option types of a user and a server role, as Discord sends them
FARM = b"name: Farm\nwidth: 72\ndepth: 48\npieces: []\n"
UPLOADED = {  # path: option, file name, data, the other options typed
    "rules import": ("document", "house notes.md", NOTES, "name:Notes"),
    "table import": ("file", "farm.yaml", FARM, "replace:true"),
}
PASTED_IN = {  # path: the options, and the text of the form
    "force import": ({"replace": True}, "Able Company\nus, 400 points\n"),
    "cards deck": ({"name": "Tactics"}, "Smoke Screen | 1 | any time | a smoke screen\n"),
}


def test_the_lines_cover_every_handled_command_and_nothing_else_is_left_unbuilt():
    typed = {slash(line)[0] for line in LINES} | UPLOADED.keys() | PASTED_IN.keys()
    assert typed == set(HANDLERS)
    assert not set(HANDLERS) & set(PLAY_ORDERS)
    assert set(HANDLERS) | set(PLAY_ORDERS) == set(COMMANDS)  # every command of the schema, built once


@pytest.mark.parametrize("path", sorted(HANDLERS))
def test_a_handler_takes_exactly_its_commands_options(path):
    parameters = list(inspect.signature(HANDLERS[path]).parameters)
    declared = [option.name for option in COMMANDS[path].shared()]
    assert parameters[0] == "ask"
    if parameters[1:2] == ["options"]:  # /odds shot hands its many options on to read_options
        return
    assert [name for name in parameters[1:] if name != PASTED] == declared


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def front_ends(tmp_path_factory):
    """The quick battle started in both front ends (:mod:`tests.bot.front_ends`)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        async with both_started(tmp_path_factory.mktemp("front_ends"), monkeypatch) as started:
            yield started


@pytest.fixture
def both_front_ends(front_ends, monkeypatch):
    """The two front ends, every handler replaced by one that notes what it was handed and
    answers nothing (so no test changes either game)."""
    discord, table = front_ends
    handed = []

    def noting(path):
        async def handle(ask, **options):
            handed.append((path, options))
            raise GameError("noted")

        return handle

    for path in HANDLERS:
        monkeypatch.setitem(HANDLERS, path, noting(path))
    checked_in_this_test(discord)
    return discord, table, handed


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("line", LINES)
async def test_a_line_hands_its_handler_the_same_options_in_discord_and_at_the_console(both_front_ends, line):
    discord, table, handed = both_front_ends
    path, options = slash(line)
    picked = {option.name: option.kind for option in COMMANDS[path].shared() if option.kind in PICKED}
    options = {
        name: Pick(value, PICKED[picked[name]]) if name in picked else value
        for name, value in options.items()
    }
    await discord.slash(path, user=OTTO, channel="1", **options)
    answer = await table.handle(f"as otto {line}")
    assert answer == "Not allowed: noted"
    assert len(handed) == 2, handed
    in_discord, at_console = handed
    assert in_discord == at_console
    assert in_discord[0] == path


@pytest.mark.asyncio(loop_scope="module")
async def test_an_upload_and_a_file_named_at_the_console_reach_the_handler_alike(both_front_ends, tmp_path):
    discord, table, handed = both_front_ends
    for path, (option, name, data, others) in UPLOADED.items():
        (tmp_path / name).write_bytes(data)
        _, typed = slash(f"/{path} {others}")
        await discord.slash(path, user=OTTO, channel="1", **{option: Uploaded(name, data)}, **typed)
        await table.handle(f'as otto /{path} {option}:"{tmp_path / name}" {others}')
        assert handed[-2:] == [(path, {option: Upload(name, data), **typed})] * 2


@pytest.mark.asyncio(loop_scope="module")
async def test_a_form_and_a_file_named_at_the_console_reach_the_handler_alike(both_front_ends, tmp_path):
    discord, table, handed = both_front_ends
    for path, (options, text) in PASTED_IN.items():
        (tmp_path / "pasted.txt").write_text(text, encoding="utf-8")
        discord.permissions[EVE] = MANAGE_GUILD
        opened = await discord.slash(path, user=EVE, channel="1", **options)
        await discord.submit(form(opened), {"": text}, user=EVE, channel="1")
        typed = " ".join(f"{name}:{'true' if value is True else value}" for name, value in options.items())
        await table.handle(f"as otto /{path} {typed} file:{tmp_path / 'pasted.txt'}")
        assert handed[-2:] == [(path, {**options, PASTED: text})] * 2
