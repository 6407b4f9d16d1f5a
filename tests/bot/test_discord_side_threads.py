"""Private threads per side and for the referees, through the real discord.py command tree:
opened when the game starts, news routed to them after each action, and the fallback to replies
only the player sees when the bot may not open them."""

import pytest

from bot.discord_adapter.side_threads import referee_news, side_news
from bot.storage.thread_store import side_threads
from engine.deployment.hidden import hide_under_marker
from engine.dice import ScriptedDice, d6
from engine.events import Event
from engine.scenarios.new_game import make_unit, new_game
from engine.teams import make_team_game
from engine.view import REFEREE
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    PIN_MESSAGES,
    THREADS,
    Pick,
    answers_in,
    channel_posts,
    close_bot,
    open_bot,
    reply,
    text_of,
)

REF = "309"
EVE, DAN = "303", "304"  # a referee appointed later, and a newcomer taking over
CREATE_PRIVATE_THREADS = 1 << 36
REACTION_TEST = "The Allies react with Marker 1: fire at Gruppe: needs 3+, rolled 2: failed"  # allies' secret
TOLD_TO_AXIS = "The Allies react with Marker 1: fire at Gruppe: failed"
REFEREE_READS = (  # the whole action, secret and all
    f'{REACTION_TEST}\nGruppe moves 5.0" to 40.0,45.0\n'
    "The Axis have no tokens left: the Allies take the initiative"
)


async def start_game(bot, discord, permissions: int, referees=(REF,), referee_roles=()) -> list[dict]:
    """A quick battle with a referee, where allies' Able stands hidden as Marker 1; the bot has
    ``permissions`` in the channel. Returns what /game start sent."""
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis", command=True),
            make_unit("us", "Infantry Detachment", "allies", (40, 30), name="Able", unit_id="able"),
            make_unit("german", "Infantry Detachment", "axis", (40, 50), name="Gruppe", unit_id="gren"),
        ],
    )
    hide_under_marker(state, state.units["able"])
    state.referees, state.referee_roles = list(referees), tuple(referee_roles)
    await bot.games.new_game("1", state)
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    await discord.slash("game join", user=OTTO, channel="1", side="axis")
    discord.app_permissions = permissions
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])  # axis wins the initiative
    return await discord.slash("game start", user=OTTO, channel="1")


async def hidden_reaction(bot, discord) -> list[dict]:
    """Axis moves Gruppe; allies react with the hidden Marker 1, whose reaction test (2 on a d6,
    needing 3+) fails. Returns what the reaction sent."""
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    await discord.slash("act", user=OTTO, channel="1", unit="gren", move="40,45")
    bot.games.dice = lambda: ScriptedDice([d6(2)])
    return await discord.slash("react", user=ANN, channel="1", unit="Marker 1", fire="gren")


def follow_ups(sent: list[dict]) -> list[tuple[str, bool]]:
    """The interaction's follow-up messages: text, and whether only the user sees it."""
    return [(text_of(body), hidden) for body, hidden, _ in answers_in(sent)[1:]]


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await close_bot(bot)


async def test_the_start_opens_a_private_thread_per_side_and_one_for_the_referees(bot_and_discord):
    bot, discord = bot_and_discord
    sent = await start_game(bot, discord, THREADS | PIN_MESSAGES)
    opened = [e["payload"] for e in sent if e["route"] == "POST /channels/{channel_id}/threads"]
    assert [(t["name"], t["type"], t["invitable"]) for t in opened] == [
        ("allies — quick battle", 12, False),
        ("axis — quick battle", 12, False),
        ("referees — quick battle", 12, False),
    ]
    threads = await side_threads(bot.games.store, "1")
    added = [e["url"].split("/channels/")[1] for e in sent if "/thread-members/" in e["route"]]
    assert added == [
        f"{threads['allies']}/thread-members/{ANN}",
        f"{threads['axis']}/thread-members/{OTTO}",
        f"{threads[REFEREE]}/thread-members/{REF}",
    ]
    assert follow_ups(sent) == [
        (
            f"Private news goes to each side's own thread (allies: <#{threads['allies']}>, "
            f"axis: <#{threads['axis']}>, referees: <#{threads[REFEREE]}>).",
            False,
        )
    ]


@pytest.mark.parametrize(
    ("permissions", "missing"),
    [
        (PIN_MESSAGES, "Create Private Threads"),
        (CREATE_PRIVATE_THREADS | PIN_MESSAGES, "Send Messages in Threads"),
    ],
)
async def test_without_a_permission_the_channel_is_told_which_and_secrets_come_privately(
    bot_and_discord, permissions, missing
):
    bot, discord = bot_and_discord
    sent = await start_game(bot, discord, permissions)
    assert not [e for e in sent if "/threads" in e["route"]]
    assert follow_ups(sent) == [
        (
            f"I cannot open private threads for the sides here: I need **{missing}**. "
            "Each player's private news will come as replies only they see, or as direct messages.",
            False,
        )
    ]
    sent = await hidden_reaction(bot, discord)
    assert follow_ups(sent) == [("Only your side sees this:\n" + REACTION_TEST, True)]
    assert channel_posts(sent) == []


async def test_when_discord_refuses_the_threads_the_same_fallback(bot_and_discord):
    bot, discord = bot_and_discord
    discord.refused.add("POST /channels/{channel_id}/threads")
    sent = await start_game(bot, discord, THREADS)
    (notice, private), *_ = follow_ups(sent)
    assert not private and "I need **Create Private Threads (Discord refused to open them)**" in notice
    assert await side_threads(bot.games.store, "1") == {}
    sent = await hidden_reaction(bot, discord)
    assert follow_ups(sent) == [("Only your side sees this:\n" + REACTION_TEST, True)]


def routes_to(sent: list[dict], route: str) -> list[str]:
    """The URLs (after /channels/) of what was sent by ``route``."""
    return [e["url"].split("/channels/")[1] for e in sent if e["route"] == route]


OPEN_THREAD = "POST /channels/{channel_id}/threads"
ADD_MEMBER = "PUT /channels/{channel_id}/thread-members/{user_id}"
REMOVE_MEMBER = "DELETE /channels/{channel_id}/thread-members/{user_id}"
DELETE_THREAD = "DELETE /channels/{channel_id}"


async def test_a_thread_opened_before_discord_refused_is_deleted_again(bot_and_discord):
    bot, discord = bot_and_discord
    discord.refused.add(ADD_MEMBER)
    sent = await start_game(bot, discord, THREADS)
    (opened,) = [e for e in sent if e["route"] == OPEN_THREAD]
    (tried,) = routes_to(sent, ADD_MEMBER)
    assert opened["payload"]["name"] == "allies — quick battle"
    assert routes_to(sent, DELETE_THREAD) == [tried.split("/")[0]]  # the thread just opened
    (notice, private), *_ = follow_ups(sent)
    assert not private and "I need **Create Private Threads (Discord refused to open them)**" in notice
    assert await side_threads(bot.games.store, "1") == {}


async def test_without_leave_to_delete_a_half_opened_thread_its_members_are_taken_out(bot_and_discord):
    bot, discord = bot_and_discord
    discord.refused_after[OPEN_THREAD] = 1  # the allies' thread opens, the axis's is refused
    discord.refused.add(DELETE_THREAD)  # and the bot may not delete threads (no Manage Threads)
    sent = await start_game(bot, discord, THREADS)
    (added,) = routes_to(sent, ADD_MEMBER)
    (thread, _, _) = added.partition("/")
    assert routes_to(sent, DELETE_THREAD) == [thread]
    assert routes_to(sent, REMOVE_MEMBER) == [added] == [f"{thread}/thread-members/{ANN}"]
    (notice, private), *_ = follow_ups(sent)
    assert not private and "Create Private Threads (Discord refused to open them)" in notice
    assert await side_threads(bot.games.store, "1") == {}


async def test_a_secret_goes_to_its_sides_thread_and_the_referees_only(bot_and_discord):
    bot, discord = bot_and_discord
    await start_game(bot, discord, THREADS)
    threads = await side_threads(bot.games.store, "1")
    sent = await hidden_reaction(bot, discord)
    public, private = reply(sent)
    assert not private and TOLD_TO_AXIS in public and "needs 3+" not in public
    assert follow_ups(sent) == []  # the thread holds it: no private reply
    posts = {where: (text, len(files)) for where, text, files in channel_posts(sent)}
    assert posts == {
        threads["allies"]: (REACTION_TEST, 1),  # with allies' true picture: Marker 1 is Able
        threads[REFEREE]: (REFEREE_READS, 1),
    }


async def test_a_restarted_bot_routes_to_the_threads_it_opened(tmp_path, monkeypatch):
    database = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    bot, discord = await open_bot(database, monkeypatch)
    await start_game(bot, discord, THREADS)
    threads = await side_threads(bot.games.store, "1")
    await close_bot(bot)
    bot, discord = await open_bot(database, monkeypatch)
    discord.app_permissions = THREADS
    sent = await hidden_reaction(bot, discord)
    assert [(where, text) for where, text, _ in channel_posts(sent)] == [
        (threads["allies"], REACTION_TEST),
        (threads[REFEREE], REFEREE_READS),
    ]
    await close_bot(bot)


async def test_a_new_game_in_the_channel_forgets_the_old_threads(bot_and_discord):
    bot, discord = bot_and_discord
    await start_game(bot, discord, THREADS)
    await discord.slash("game concede", user=ANN, channel="1")
    await discord.slash("game new", user=ANN, channel="1")
    assert await side_threads(bot.games.store, "1") == {}


async def test_a_scenario_game_opens_its_threads_when_the_plotted_set_up_begins(bot_and_discord):
    bot, discord = bot_and_discord
    discord.app_permissions = THREADS | PIN_MESSAGES
    for user, nation, units in (
        (ANN, "us", ("Infantry Detachment", "Sherman 75mm")),
        (OTTO, "german", ("Panther",)),
    ):
        await discord.slash("force new", user=user, channel="4", nation=nation, name="Mine", points=500)
        for unit in units:
            await discord.slash("force add", user=user, channel="4", force="Mine", unit=unit)
        await discord.slash(
            "force upgrade", user=user, channel="4", force="Mine", unit=f"{units[0]} 1", command=True
        )
    await discord.slash(
        "game new", user=ANN, channel="4", scenario="meeting", table="crossroads", deployment="plotted"
    )
    first = await discord.slash("game join", user=ANN, channel="4", side="allies", force="Mine")
    assert not [e for e in first if "/threads" in e["route"]]
    second = await discord.slash("game join", user=OTTO, channel="4", side="axis", force="Mine")
    assert [e["payload"]["name"] for e in second if e["route"].endswith("/threads")] == [
        "allies — Meeting Engagement",
        "axis — Meeting Engagement",
    ]
    threads = await side_threads(bot.games.store, "4")
    sent = await discord.slash("deploy", user=ANN, channel="4", unit="Sherman 75mm 1", at="10,8")
    public, _ = reply(sent)
    assert public.startswith("The Allies set up a unit in secret") and "Sherman" not in public
    posts = [(where, text, len(files)) for where, text, files in channel_posts(sent)]
    assert posts == [(threads["allies"], "The Allies set up Sherman 75mm 1 at 10.0,8.0", 1)]
    await discord.slash("deploy", user=ANN, channel="4", done=True)
    await discord.slash("deploy", user=OTTO, channel="4", done=True)
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    sent = await discord.slash("game start", user=OTTO, channel="4")
    assert not [e for e in sent if "/threads" in e["route"]] and follow_ups(sent) == []


async def test_a_window_closing_at_its_deadline_tells_the_threads_too(bot_and_discord):
    bot, discord = bot_and_discord
    await start_game(bot, discord, THREADS)
    threads = await side_threads(bot.games.store, "1")
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    await discord.slash("act", user=OTTO, channel="1", unit="gren", move="40,45")
    before = len(discord.sent)
    await bot.games.clock.advance(120)
    posts = [(where, text, len(files)) for where, text, files in channel_posts(discord.sent[before:])]
    assert posts == [
        (
            "1",
            'The reaction window closed.\nThe Allies do not react\nGruppe moves 5.0" to 40.0,45.0\n'
            "The Axis have no tokens left: the Allies take the initiative\n\n"
            "Turn 1 · active · Iron Cross 2015\n"
            "**Allies** (us): <@301>, 4 tokens; **Axis** (german): <@302>, 0 tokens\n"
            "Waiting for **the Allies**",
            1,  # a card with the shared picture
        ),
        (threads["allies"], "Turn 1: the battlefield as you see it", 1),  # Marker 1 drawn as Able
        (threads[REFEREE], "Turn 1: the battlefield as you see it", 1),
    ]


def test_each_thread_gets_only_its_audiences_news():
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis", command=True),
            make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="gren", command=True),
        ],
    )
    events = [
        Event(kind="move", text='Gruppe moves 3.0" to 40.0,45.0'),
        Event(kind="tokens", text="ann hands out bonus tokens: 3 to bob (1 left)", side="allies"),
        Event(kind="briefing", text="Axis briefing: the bridge is mined", side="axis", public=""),
        Event(kind="briefing", text="Referee: the mines are duds", side=REFEREE, public=""),
    ]
    assert side_news(state, events, "allies") == []
    assert side_news(state, events, "axis") == ["Axis briefing: the bridge is mined"]
    make_team_game(state, 2)  # now the CO's hand-outs are allies' own business too
    assert side_news(state, events, "allies") == ["ann hands out bonus tokens: 3 to bob (1 left)"]
    assert referee_news(events) == [event.text for event in events]
    assert referee_news(events[:2]) == []  # nothing kept from the channel: the channel has it all


async def test_a_referee_appointed_later_and_a_player_taking_over_units_join_their_threads(bot_and_discord):
    bot, discord = bot_and_discord
    await start_game(bot, discord, THREADS)
    threads = await side_threads(bot.games.store, "1")
    sent = await discord.slash("ref appoint", user=REF, channel="1", referee=Pick(EVE))
    joined = [e["url"].split("/channels/")[1] for e in sent if e["route"].startswith("PUT")]
    assert joined == [f"{threads[REFEREE]}/thread-members/{EVE}"]
    sent = await discord.slash(
        "ref give_units", user=REF, channel="1", player=Pick(OTTO), to=Pick(DAN), reason="Otto had to leave"
    )
    joined = [e["url"].split("/channels/")[1] for e in sent if e["route"].startswith("PUT")]
    assert joined == [f"{threads['axis']}/thread-members/{DAN}"]


async def test_a_game_refereed_by_a_role_has_a_referees_thread_its_holders_join_when_seated(bot_and_discord):
    bot, discord = bot_and_discord
    sent = await start_game(bot, discord, THREADS, referees=(), referee_roles=("900",))
    threads = await side_threads(bot.games.store, "1")
    assert set(threads) == {"allies", "axis", REFEREE}
    added = [e["url"].split("/channels/")[1] for e in sent if e["route"].startswith("PUT")]
    assert added == [f"{threads['allies']}/thread-members/{ANN}", f"{threads['axis']}/thread-members/{OTTO}"]
    discord.roles[EVE] = ["900"]
    sent = await discord.slash("ref ruling", user=EVE, channel="1", text="the river is frozen")
    joined = [e["url"].split("/channels/")[1] for e in sent if e["route"].startswith("PUT")]
    assert joined == [f"{threads[REFEREE]}/thread-members/{EVE}"]
