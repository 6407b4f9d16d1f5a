"""Each command built once (issue 31): every play command of the schema has one builder
(bot.play_orders), which the slash command and the console line both hand the same options, read
the same way; and a reaction built by taps is the very command /react builds from the same
choices."""

import pytest
import pytest_asyncio

from bot.app import Services
from bot.command_schema import COMMANDS
from bot.console import ConsoleTable
from bot.play_orders import PLAY_ORDERS
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import ScriptedDice, d6, d10
from engine.errors import IllegalCommand
from tests.bot.discord_harness import ANN, OTTO, buttons, close_bot, menus, open_bot, started_game
from tests.bot.front_ends import both_started, checked_in_this_test
from tests.storage.databases import seed_sqlite
from tests.test_readme_examples import slash

LINES = [
    "/initiative choice:pass",
    "/act unit:Gruppe 3 move:50,39 fire:Sherman 2 first:fire rapid:true",
    "/cmt",
    "/fallback unit:Gruppe 3 to:50,45 reverse:true",
    "/pass",
    "/react unit:Sherman 2 fire:Gruppe 3 at:D7",
    "/react cmt:true",
    "/react unit:Sherman 2 fallback:true to:30,5",
    "/noreact",
    "/choose unit:Gruppe 1",
    "/choose close_combat:fall_back",
    "/reserves units:Sherman 1, MG",
    "/deploy unit:Sherman 1 at:C2+1,-2 facing:90.5",
    "/deploy done:true",
]


def test_the_lines_cover_every_play_command():
    assert {slash(line)[0] for line in LINES} == set(PLAY_ORDERS)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def front_ends(tmp_path_factory):
    """The quick battle started in both front ends (:mod:`tests.bot.front_ends`)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        async with both_started(tmp_path_factory.mktemp("front_ends"), monkeypatch) as started:
            yield started


@pytest.fixture
def both_front_ends(front_ends, monkeypatch):
    """The two front ends, every builder replaced by one that notes what it was handed and
    builds nothing (so no test changes either game)."""
    discord, table = front_ends
    handed = []

    def noting(path):
        def build(state, side, player=None, **options):  # the player: who asks, as each front end names them
            handed.append((path, side, options))
            raise IllegalCommand("noted")

        return build

    for path in PLAY_ORDERS:
        monkeypatch.setitem(PLAY_ORDERS, path, noting(path))
    checked_in_this_test(discord)
    return discord, table, handed


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("line", LINES)
async def test_a_line_hands_its_builder_the_same_options_in_discord_and_at_the_console(both_front_ends, line):
    discord, table, handed = both_front_ends
    path, options = slash(line)
    await discord.slash(path, user=OTTO, channel="1", **options)
    await table.handle(f"as otto {line}")
    assert len(handed) == 2, handed
    in_discord, at_console = handed
    assert in_discord == at_console
    assert in_discord[:2] == (path, "axis")


async def test_a_reaction_by_taps_is_the_command_react_builds(tmp_path, monkeypatch):
    """Sherman 2 fires at Gruppe 3 before it moves: by taps in channel 1, by /react in channel 2."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    built = {}
    for channel in ("1", "2"):
        await started_game(bot, discord, channel)
        await discord.slash("initiative", user=OTTO, channel=channel, choice="start")
        card = buttons(await discord.slash("act", user=OTTO, channel=channel, unit="Gruppe 3", move="50,39"))
        bot.games.dice = lambda: ScriptedDice([d6(5), d10(2)])
        if channel == "1":
            (units,) = menus(await discord.click(card["React"], user=ANN, channel=channel))
            sherman = next(o["value"] for o in units["options"] if o["label"] == "Sherman 2")
            chosen = await discord.choose(units, [sherman], user=ANN, channel=channel)
            (when,) = menus(await discord.click(buttons(chosen)["Fire"], user=ANN, channel=channel))
            (targets,) = menus(await discord.choose(when, ["now"], user=ANN, channel=channel))
            gruppe = next(o["value"] for o in targets["options"] if o["label"].startswith("Gruppe 3"))
            aimed = await discord.choose(targets, [gruppe], user=ANN, channel=channel)
            await discord.click(buttons(aimed)["Confirm"], user=ANN, channel=channel)
        else:
            await discord.slash("react", user=ANN, channel=channel, unit="Sherman 2", fire="Gruppe 3")
        _, history = await bot.games.store.history(channel)
        built[channel] = history[-1][0]
    assert built["1"] == built["2"]
    assert built["1"].kind == "react" and built["1"].order.unit == "sherman-2"
    await close_bot(bot)


@pytest.mark.parametrize("flag", ["reverse", "rapid"])
async def test_a_reaction_moves_as_an_activation_may_in_reverse_or_at_the_rapid_rate(tmp_path, flag):
    """Iron Cross 2015 p. 6: a reacting unit may move (the book's Sherman moves backwards and
    fires as the Panther advances), so a reaction takes the move's own options as /act does."""
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    service = GameService(store, dice=lambda: ScriptedDice([d6(2), d6(5)]))
    table, _ = await ConsoleTable.open(Services.around(service))
    for line in (
        "/game new",
        "as ann /game join side:allies",
        "as otto /game join side:axis",
        "as otto /game start",
    ):
        await table.handle(line)
    await table.handle("as otto /initiative choice:start")
    await table.handle("as otto /act unit:Gruppe 3 move:50,39")
    state = await service.game("console")
    reaction = PLAY_ORDERS["react"](
        state,
        "allies",
        unit="Sherman 2",
        cmt=False,
        at=None,
        fallback=False,
        to=None,
        **{
            "move": "30,5",
            "fire": None,
            "first": None,
            "assault": None,
            "rapid": False,
            "reverse": False,
            "road": False,
            flag: True,
        },
    )
    assert getattr(reaction.order.actions[0], flag) is True
    falling = PLAY_ORDERS["react"](
        state, "allies", unit="Sherman 2", cmt=False, at=None, fallback=True, to="30,5", reverse=True
    )
    assert falling.order.reverse is True
    assert {"rapid", "reverse", "road"} <= {option.name for option in COMMANDS["react"].options}
    await service.close()
    await store.close()
