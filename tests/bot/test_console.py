"""The offline console table, end to end: text in, the real service and SQLite store behind it."""

import io

from bot.console import ConsoleTable, play_console
from bot.storage.store import GameStore
from engine.dice import SeededDice
from tests.storage.databases import seed_sqlite


async def run(lines: str, url: str, seeded: bool = True) -> str:
    """Every command rolls with seed 1: the first two d6 are 2 and 5, so the Axis win the initiative.
    A new file starts as a console's first start leaves it (``seeded``: copied from the tests'
    template), else the console migrates it itself."""
    out = io.StringIO()
    url = seed_sqlite(url, shipped=True) if seeded else url
    assert await play_console(io.StringIO(lines), out, url, dice=lambda: SeededDice(1)) == 0
    return out.getvalue()


async def test_console_plays_and_resumes_after_a_restart(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    first = await run("/units\n/start\n/status\n/quit\n", url, seeded=False)  # a new file, migrated
    assert "sherman-1" in first and "Panzer IV G (late) to J" in first
    assert "Turn 1: the Allies draw 9 tokens, the Axis draw 9" in first
    assert "Initiative: the Allies 2, the Axis 5. The Axis choose who starts" in first

    second = await run("/initiative start\n/act gruppe-3 move:50,39\n/noreact\n/log\n", url)
    assert "Resuming the game in progress." in second
    assert "The Axis start as the active player" in second
    assert 'Gruppe 3 moves 3.0" to 50.0,39.0' in second
    assert "Not allowed" not in second


async def test_console_explains_bad_input_and_changes_nothing(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    out = await run("/start\n/act nobody move:1,1\n/act sherman-1 move:abc\n/frobnicate\n/new\n", url)
    assert "Not allowed: No unit called 'nobody'" in out
    assert "Not allowed: 'abc' is not a position" in out
    assert "Not allowed: Unknown command /frobnicate" in out
    assert "Not allowed: A game is already running" in out


async def test_once_players_have_joined_a_line_without_a_name_is_told_how_to_type_it(tmp_path):
    """At a table nobody has joined, lines act for the side the game waits for; once ann and
    otto have, a line that names nobody is refused with the same line under each name (a name
    with a space quoted), and changes nothing; theirs, and the hot-seat table, get no such hint."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    hot_seat = await run("/act nobody move:1,1\n", url)
    assert "Not allowed: No unit called 'nobody'" in hot_seat and "who types it" not in hot_seat
    lines = ["/game new", "as ann /game join side:allies", "as 'otto k' /game join side:axis", "/game start"]
    out = await run("\n".join([*lines, "as ann /game status", "as ann /act nobody move:1,1"]), url)
    hint = "At this table each line starts with who types it: as ann /game start or as 'otto k' /game start"
    assert hint in out and "Turn 0 · setup" in out.split(hint)[1]  # the status after: not started
    assert "Not allowed: No unit called 'nobody'" in out and out.count("starts with who types it") == 1
    long = "/act sherman-1 move:10,10 " + "x" * 80
    assert "who types it: as ann ... or as 'otto k' ..." in await run(long + "\n", url)
    for unhinted in ("as ann /game status bogus:1", "/gmae status"):  # refused for what they say
        assert "who types it" not in await run(unhinted + "\n", url)
    refereed = f"sqlite+aiosqlite:///{tmp_path / 'refereed.db'}"
    await run("/game new referee:ref\nas ann /game join side:allies\n", refereed)
    assert "who types it: as ref /ref ruling" in await run("/ref ruling text:the wall is a hedge\n", refereed)
    seated = f"sqlite+aiosqlite:///{tmp_path / 'seated.db'}"
    await run("/game new referee:console\nas ann /game join side:allies\n", seated)
    assert "who types it" not in await run("/act sherman-1 move:10,10\n", seated)


async def test_an_unexpected_failure_is_reported_and_the_session_goes_on(tmp_path, monkeypatch):
    from bot.services.game_service import GameService

    async def broken(self, channel_id, user_id, command):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(GameService, "act", broken)
    out = await run("/start\n/units\n", f"sqlite+aiosqlite:///{tmp_path / 'console.db'}")
    assert "Something went wrong on our side; the game was not changed." in out
    assert "sherman-1" in out  # the next line was still answered


async def test_console_saves_the_battlefield_after_each_action(tmp_path):
    out = io.StringIO()
    pictures = tmp_path / "pictures"
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    await play_console(io.StringIO("/start\n"), out, url, dice=lambda: SeededDice(1), pictures=pictures)
    assert f"Picture: {pictures / 'latest.png'}" in out.getvalue()
    assert (pictures / "latest.png").read_bytes().startswith(b"\x89PNG")


async def test_console_rolls_dice_and_charts_like_discord(tmp_path):
    out = await run(
        "/roll 2d10 5+ Panther\nas troll /roll dr\n/roll 1d9999\n"
        "/chart roll ic-company-morale\n/chart frob\n/roll log\n/chart list\n",
        f"sqlite+aiosqlite:///{tmp_path / 'console.db'}",
    )
    assert "Panther: 2d10 5+: " in out and "success" in out
    assert "Not allowed: Dice have at most 1000 sides" in out
    assert "Company Morale Test (Iron Cross): d6 " in out
    assert "Not allowed: Try /chart roll, /chart list or /chart show" in out
    assert "troll dr: " in out and "console 2d10 5+ Panther: " in out  # the log
    listed = out[out.index("Iron Cross (") :]  # /chart list: by book, as in Discord
    assert listed.index("Iron Cross (") < listed.index("Red Barricades (") < listed.index("Cross of Iron (")


async def test_forces_are_built_and_exported_at_the_console(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    lines = [
        "/force new nation:us name:Easy points:200",
        '/force add force:Easy unit:"Infantry Detachment"',
        '/force upgrade force:Easy unit:"Infantry Detachment 1" iaw command',
        "/force export force:Easy",
    ]
    out = await run("\n".join(lines) + "\n", url)
    assert "- Infantry Detachment 1: Infantry Detachment [command, IAW], 30 pts, 4 BP" in out
    exported = out[out.index("Force: Easy") :].split("\n**")[0]
    (tmp_path / "easy.txt").write_text(exported.replace("Force: Easy", "Force: Easy Two"))
    again = await run(f"/force import {tmp_path / 'easy.txt'}\n/force add force:Easy unit:Panther\n", url)
    assert "Easy Two (US): 30 of 200 points, 4 BP" in again  # plain text, no Markdown
    assert "Not allowed: the US Army 1944/45 has no 'Panther'" in again


async def test_a_house_rules_force_with_troop_quality_at_the_console(tmp_path):
    lines = [
        "/force new nation:british name:Able points:300 ruleset:house_v1",
        '/force add force:Able unit:"M10 Wolverine" quality:"inexperienced weak"',
    ]
    out = await run("\n".join(lines) + "\n", f"sqlite+aiosqlite:///{tmp_path / 'console.db'}")
    assert "- M10 Wolverine 1: M10 Wolverine [inexperienced, weak], 60 pts" in out


CAPTURE_SET_UP = [  # allies hide an Infantry Detachment under Marker 1 and a dummy under Marker 2
    "as ann /force new nation:us name:Easy points:300",
    'as ann /force add force:Easy unit:"Infantry Detachment"',
    'as ann /force upgrade force:Easy unit:"Infantry Detachment 1" command',
    "as otto /force new nation:german name:KG points:600",
    'as otto /force add force:KG unit:"Infantry Detachment"',
    'as otto /force add force:KG unit:"Infantry Detachment"',
    'as otto /force upgrade force:KG unit:"Infantry Detachment 1" command',
    "/game new scenario:capture attacker:axis table:crossroads",
    "as ann /game join side:allies force:Easy",
    "as otto /game join side:axis force:KG",
    'as ann /deploy unit:"Infantry Detachment 1" at:24,20',
    'as ann /deploy unit:"Dummy 1" at:30,20',
    'as otto /deploy unit:"Infantry Detachment 1" at:24,44',
    "as otto /deploy done",
    "as otto /game start",
]


async def test_a_scenario_game_is_set_up_at_the_console(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    out = await run("\n".join(CAPTURE_SET_UP) + "\n", url)
    assert "Capture (p. 30) on the Crossroads" in out and "**" not in out
    assert "Both forces are here: Capture (p. 30). Set up with /deploy" in out
    # hidden deployment (p. 26): the defender reads what it put under each marker
    assert "The Allies set up Infantry Detachment 1 (Allies) as Marker 1 at 24.0,20.0" in out  # both have one
    assert "The Allies set up Dummy 1 as Marker 2 at 30.0,20.0" in out
    assert "The Axis attack and start as the active player" in out
    assert "Not allowed" not in out


async def test_hidden_markers_are_named_by_their_label(tmp_path):
    """An enemy marker listed by /units as "Marker 2" is named by that label as a target or a
    "toward"; its id and true name stay unknown, answered like any name that is not there."""
    lines = [
        *CAPTURE_SET_UP,
        "as otto /units",
        'as otto /act unit:"Infantry Detachment 1" fire:"marker 1"',
        'as otto /act unit:"Infantry Detachment 1" fire:allies-infantry-detachment-1',
        'as otto /act unit:"Infantry Detachment 1" move:"3 toward Dummy 1"',
        'as otto /act unit:"Infantry Detachment 1" move:"3 toward Marker 2"',
    ]
    out = await run("\n".join(lines) + "\n", f"sqlite+aiosqlite:///{tmp_path / 'console.db'}")
    assert "allies  Marker 2 " in out
    assert "Not allowed: Marker 1 is a hidden marker: it may be fired at once it is revealed (p. 26" in out
    assert "Not allowed: No unit called 'allies-infantry-detachment-1'." in out
    assert "Not allowed: No unit called 'Dummy 1'.\n" in out
    assert "The Axis declare: Infantry Detachment 1 (Axis): move to 24.7,41.1" in out  # 3" toward Marker 2


async def test_name_matching_suggests_names_never_ids(tmp_path):
    """Near misses are ranked by rapidfuzz: every word typed found in a name comes first; a unit
    is suggested by its name, never its id."""
    lines = [
        "as otto /force new nation:german name:KG points:600",
        'as otto /force add force:KG unit:"Panzer IV"',
        "/start",
        "/act unit:shermann move:1,1",
    ]
    out = await run("\n".join(lines) + "\n", f"sqlite+aiosqlite:///{tmp_path / 'console.db'}")
    assert "has no 'Panzer IV'; did you mean Panzer IV G (late) to J, Jagdpanzer IV/Hetzer or" in out
    assert "No unit called 'shermann'. Did you mean Sherman 1 or Sherman 2?" in out


async def test_tactical_advantage_cards_at_the_console(tmp_path):
    from tests.engine.test_cards import DECK

    (tmp_path / "deck.txt").write_text(DECK)
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    lines = [
        f"/cards deck {tmp_path / 'deck.txt'} name:Generic",
        "/start",
        "/initiative start",
        "/cards deal deck:Generic",
        "/cards hand",
        "/cards use action:exchange card:nothing",
    ]
    out = await run("\n".join(lines) + "\n", url)
    assert "Saved the deck Generic: 16 cards" in out
    assert "seven dealt to each side" in out and "The Axis' hand (exchange still yours to use" in out
    assert "Not allowed: The deck is empty: nothing to exchange for" in out


async def test_house_rules_orders_at_the_console(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    lines = [
        "/game new ruleset:house_v1 forces:british",
        "/start",
        "/initiative start",
        "/act unit:gruppe-1 call_fire:22,34",  # the company command spots
        "/noreact",
        "/act unit:mg-42 bombard:true",
        "/act unit:gruppe-2 assault:2-section",
        "/act unit:gruppe-2 assault:2-section overrun:no",
    ]
    out = await run("\n".join(lines) + "\n", url)
    assert "The Axis declare: Gruppe 1: call for fire at 22.0,34.0" in out
    assert "Gruppe 1 calls for fire at 22.0,34.0: needs 5+; rolled" in out
    assert "Not allowed: MG 42 cannot fire indirectly: only mortars, infantry guns and howitzers" in out
    assert (
        'Not allowed: Gruppe 2 must be within 3" of 2 Section to assault it (34.1" away): move first' in out
    )
    assert "Not allowed: Only an AFV overrunning chooses to fall back instead of driving through" in out


async def test_set_up_messages_say_how_to_finish_set_up(tmp_path):
    """Each set-up answer says what is still missing and the command that gives it: who is still
    to join, then /game start; in a scenario, who sets up next and how many units are left."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    quick = await run("/game new\nas ann /game join side:allies\nas otto /game join side:axis\n", url)
    assert (
        "Still to join, the Allies and the Axis: /game join side:allies or /game join side:axis; "
        "or /game start at once to play both sides yourself" in quick
    )
    assert "ann joins the Allies\n" in quick and "Still to join, the Axis: /game join side:axis\n" in quick
    assert quick.rstrip().endswith(
        "Both sides have players: /game start rolls for the initiative\nNext: /game start"
    )
    scenario = await run("\n".join(CAPTURE_SET_UP[:10]) + "\n", f"sqlite+aiosqlite:///{tmp_path / 's.db'}")
    assert "Still to join, the Allies and the Axis: /game join side:allies force:NAME or" in scenario
    assert "To set up (the Allies: 2 units to place): /deploy unit:NAME at:X,Y, then /deploy done" in scenario


async def test_a_bare_command_from_a_non_player_says_how_to_join(tmp_path):
    """Someone who has joined no side is told the command that joins one, while one has room."""
    lines = "/game new\nas ann /game join side:allies\nas eve /act unit:gruppe-3 move:I7\n"
    out = await run(lines, f"sqlite+aiosqlite:///{tmp_path / 'console.db'}")
    assert (
        "Not allowed: Only the Axis' players may act for the Axis. "
        "You are not playing in this game: join with /game join side:axis" in out
    )


async def test_the_pace_sets_the_reaction_window(tmp_path):
    """pace:live (the default) keeps a window 2 minutes, pace:daily 24 hours, for a game played
    over days; reaction_seconds overrides either; /game new says which."""
    for typed, seconds, said in (
        ("/game new", 120, "Reaction windows stay open 2 minutes (the live pace; for a game played over"),
        ("/game new pace:daily", 86400, "Reaction windows stay open 24 hours (the daily pace, for a game"),
        ("/game new pace:daily reaction_seconds:600", 600, "open 10 minutes (set with reaction_seconds)"),
    ):
        url = f"sqlite+aiosqlite:///{tmp_path / f'{seconds}.db'}"
        assert said in await run(typed + "\n", url)
        store = await GameStore.open(url)
        assert (await store.load(ConsoleTable.CHANNEL)).reaction_seconds == seconds
        await store.close()
    assert "Not allowed: pace: choose live or daily, not 'weekly'" in await run(
        "/game new pace:weekly\n", f"sqlite+aiosqlite:///{tmp_path / 'weekly.db'}"
    )


async def test_a_finished_game_stays_readable_after_a_restart(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    await run("/start\n/initiative start\n/game concede\n/quit\n", url)  # the Axis concede
    after = await run("/stats\n/game replay\n/game history\n", url)
    assert "The last game is over: /game replay tells its story, /stats its dice" in after
    assert "Dice statistics: 2 dice" in after  # the initiative's two
    assert "The Allies won: the Axis conceded." in after and "The replay is made when" not in after
    assert "1. " in after and "allies won: the Axis conceded" in after


async def test_a_house_rules_game_says_which_side_fights_with_its_2015_statistics(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    us = await run("/game new ruleset:house_v1\n", url)
    assert "Allies: US: two Shermans" in us and "Axis: German: a Panzer IV" in us
    assert (
        "House Rules V1.0 list no US units of their own: "
        "the Allies fight with their Iron Cross 2015 statistics" in us
    )
    british = await run(
        "/game new ruleset:house_v1 forces:british\n", f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    )
    core = await run("/game new\n", f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
    assert "2015 statistics" not in british and "2015 statistics" not in core


async def test_the_console_lists_a_nations_whole_order_of_battle_and_narrows_it(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    lines = [
        "/force orbat nation:us",
        "/force orbat nation:us find:sherman",
        "/force orbat nation:british ruleset:house_v1 find:stuart",
        "/force new nation:us name:Able points:300",
        '/force add force:Able unit:"Sherman 99"',
    ]
    out = await run("\n".join(lines) + "\n", url)
    assert "US Army 1944/45: 24 entries\n- M26 Pershing: 97 pts, 13 BP, 1945 only\n" in out
    assert "- Sniper Team: 18 pts, 3 BP\n" in out
    assert "US Army 1944/45: 5 entries matching 'sherman'\n- Sherman 75mm: 45 pts, 6 BP\n" in out
    assert (
        "British/Canadian Army 1944/45, House Rules V1.0: 2 entries matching 'stuart'\n"
        "- M3 Stuart (counts as M5 Stuart): 31 pts, 4 BP\n- M5 Stuart: 31 pts, 4 BP\n"
    ) in out
    assert (
        "Not allowed: the US Army 1944/45 has no 'Sherman 99'; did you mean Sherman 75mm, Sherman 76mm or "
        "Sherman 105mm? (/force orbat nation:us find:Sherman lists every entry like it)"
    ) in out


async def test_lobbies_are_refused_at_the_console_as_they_need_a_discord_server(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    out = await run("/lfg post side:allies\n/lfg list\n/lfg cancel\n", url)
    refusal = "Not allowed: Lobbies need a Discord server, where others can see and join them"
    assert out.count(refusal) == 3
