"""Custom ids are input like any other (issue 30): for every persistent item the client registers,
ids built by hand (random parts, stale versions, another channel's, over 100 characters, the
enemy's hidden units and dummy markers) and menus with random values and counts are each
answered (privately, as out of date where the id does not stand), nothing escapes to discord.py
(no "This interaction failed", no "Something went wrong"), the game is left as it was, and an
enemy's hidden unit, its dummy marker and a hidden sniper team get the same answer."""

import logging
import random
import re

import pytest

from engine.deployment.hidden import hide_under_marker, marker_profile
from engine.dice import ScriptedDice, d6
from engine.game_state import GameState
from engine.scenarios.new_game import make_unit, new_game
from engine.state import Phase, Point
from tests.bot.discord_harness import ANN, EVE, OTTO, answers_in, close_bot, open_bot, reply, text_of

CHANNEL = "1"
HIDDEN = ("able", "dummy", "elm")  # the allies' units the axis may not know of
OWN = "gruppe"  # the axis' unit, ready to act


def hidden_battle() -> GameState:
    """The allies' Able under Marker 1, a dummy under Marker 2 and the sniper team Elm hidden
    with its dummy marker, Baker in the open; the axis' Gruppe 10" from Able."""
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("us", "Infantry Detachment", "allies", (30, 20), name="Able", unit_id="able"),
            make_unit("us", "Infantry Detachment", "allies", (10, 20), name="Baker", unit_id="baker"),
            make_unit("us", "Sniper Team", "allies", (40, 24), name="Elm", unit_id="elm"),
            make_unit("german", "Infantry Detachment", "axis", (30, 30), name="Gruppe", unit_id=OWN),
        ],
    )
    dummy = make_unit("us", "Infantry Detachment", "allies", (24, 20), name="Dummy", unit_id="dummy")
    state.units["dummy"] = dummy.model_copy(update={"dummy": True, "profile": marker_profile("us")})
    for unit in ("able", "dummy"):
        hide_under_marker(state, state.units[unit])
    state.units["elm"] = state.units["elm"].model_copy(update={"hidden": True, "decoy": Point(x=20, y=24)})
    return state


@pytest.fixture
async def battle(tmp_path, monkeypatch, caplog):
    """The battle joined and started, the axis to activate; the errors logged from then on kept."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await bot.games.new_game(CHANNEL, hidden_battle())
    await discord.slash("game join", user=ANN, channel=CHANNEL, side="allies")
    await discord.slash("game join", user=OTTO, channel=CHANNEL, side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])  # the axis win the initiative
    await discord.slash("game start", user=OTTO, channel=CHANNEL)
    bot.games.dice = lambda: ScriptedDice([])
    await discord.slash("initiative", user=OTTO, channel=CHANNEL, choice="start")
    state = await bot.games.game(CHANNEL)
    assert state.phase is Phase.ACTIVE and state.active_side == "axis"
    caplog.set_level(logging.ERROR)
    yield bot, discord, caplog
    await close_bot(bot)


def place(state: GameState, unit_id: str) -> str:
    return str(list(state.units).index(unit_id))


def button(custom_id: str) -> dict:
    return {"type": 2, "custom_id": custom_id, "style": 2, "label": "Forged"}


def menu(custom_id: str) -> dict:
    return {"type": 3, "custom_id": custom_id, "options": [], "min_values": 1, "max_values": 25}


def pieces(state: GameState) -> list[str]:
    """What a forged argument or menu value may be: the enemy's hidden units and dummies by
    place, other places, actions, squares, spots, sides, and garbage."""
    hidden = [place(state, u) for u in HIDDEN]
    return [
        *hidden,
        *(f"~{p}" for p in hidden),
        place(state, "baker"),
        str(len(state.units)),
        "99999",
        "-",
        "-1",
        "",
        "fire",
        "move",
        "firemove",
        "bogus",
        "A1",
        "E4+1,1",
        "Z99",
        "allies",
        "axis",
        "open",
        "²",
        "x" * 120,
        "9" * 40,
        "gruppe",
        "woods",
        "quick-start",
    ]


def steps_of(item: type) -> list[str]:
    """The steps a turn's item tells apart in its custom id (``(?P<step>join|start|...)``)."""
    found = re.search(r"\(\?P<step>([^)]*)\)", item.__discord_ui_compiled_template__.pattern)
    return found.group(1).split("|") if found else []


def forged_ids(
    state: GameState, version: int, rng: random.Random, registered: list[type]
) -> list[tuple[str, dict, list[str] | None]]:
    """Ids for every template, each with random parts: (template, item, values for a menu)."""
    parts = pieces(state)
    versions = [version - 1, version + 1, 0, 10**30]
    channels = [CHANNEL, "2", "01", "9" * 30]
    cases = []

    def values() -> list[str]:
        return rng.sample(parts, rng.choice([0, 1, 1, 2, 3]))

    for item in registered:
        kind = menu if item.__name__.endswith("Select") else button
        for step in steps_of(item):
            for _ in range(6):
                channel = rng.choice(channels)
                # at the current version and in this channel, an id for a step that acts carries
                # a hidden unit or garbage, so that no forged id can stand for a real order
                stale = rng.choice([version, *versions])
                arguments = [rng.choice(parts) for _ in range(rng.choice([0, 1, 2, 3, 4, 5]))]
                if stale == version and channel == CHANNEL:
                    arguments.append(rng.choice([*parts[: len(HIDDEN)], "bogus", "x" * 120]))
                custom_id = ":".join([f"ic:{channel}:v{stale}:{step}", *arguments])
                cases.append((step, kind(custom_id), values() if kind is menu else None))
            other = button if kind is menu else menu  # the id sent by a component of another kind
            forged = other(f"ic:{CHANNEL}:v{version}:{step}:{rng.choice(parts)}")
            cases.append((f"{step} as a {forged['type']}", forged, values() if other is menu else None))
    for _ in range(8):
        channel, window = rng.choice(channels), rng.choice(["0", "1", "7", "9" * 40])
        cases.append(("react", button(f"ic:{channel}:{window}:react"), None))
        cases.append(("noreact", button(f"ic:{channel}:{window}:noreact"), None))
        cases.append(
            ("help page", button(f"ichelp:{rng.choice(['prev', 'next'])}:{rng.choice(parts[-8:])}"), None)
        )
        cases.append(("help topic", menu("ichelp:topic"), values()))
        cases.append(("table menu", menu(f"ictable:add:{rng.choice(parts)}x"), values()))
        cases.append(("table undo", button(f"ictable:undo:{rng.choice(parts)}x"), None))
        cases.append(("campaign", button(f"icc:{channel}:{rng.choice(['0', '1', '9' * 40])}:submit"), None))
        cases.append(
            (
                "lobby join",
                button(f"iclobby:join{rng.choice(['', ':1', ':0', ':x', ':9' * 20, ':1:2'])}"),
                None,
            )
        )
    for forged in ("ic:1:v3:bogus", f"ic:abc:v{version}:unit", "ic:1:react:again", "ichelp:sideways:1", "x"):
        cases.append(("no template", button(forged), None))  # matches no item of the bot's
    return cases


async def send(discord, item: dict, values: list[str] | None, user: str = OTTO, channel: str = CHANNEL):
    if values is None:
        return await discord.click(item, user=user, channel=channel)
    return await discord.choose(item, values, user=user, channel=channel)


async def test_every_forged_id_is_answered_and_changes_nothing(battle):
    bot, discord, caplog = battle
    before = await bot.games.store.load(CHANNEL)
    cases = forged_ids(before.state, before.version, random.Random(30), bot.persistent_items)
    unanswered, failed = [], []
    for name, item, values in cases:
        user, channel = random.Random(item["custom_id"]).choice([(OTTO, CHANNEL), (ANN, CHANNEL), (EVE, "2")])
        sent = await send(discord, item, values, user, channel)
        answers = answers_in(sent)
        texts = [text_of(body) for body, _, _ in answers]
        if not answers and not any(
            e["route"].endswith("/callback") and e["payload"]["type"] == 9 for e in sent
        ):
            unanswered.append((name, item["custom_id"][:60], values))
        if any("Something went wrong" in text for text in texts) or not all(p for _, p, _ in answers):
            failed.append((name, item["custom_id"][:60], values, texts))  # answered publicly, or failed
    assert unanswered == [] and failed == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    after = await bot.games.store.load(CHANNEL)
    assert (after.version, after.state) == (before.version, before.state)
    sent_to = {
        item
        for item in bot.persistent_items
        for _, forged, _ in cases
        if item.__discord_ui_compiled_template__.fullmatch(forged["custom_id"])
    }
    assert sent_to == set(bot.persistent_items) and len(cases) > 150  # every template, many times


def unit_ids(state: GameState, version: int, hidden: str) -> list[tuple[dict, list[str] | None]]:
    """Every step that names a unit, naming ``hidden`` (an enemy's) where a menu would name the
    side's own: the unit to order, what it moves toward, what it fires at."""
    p, own, step = place(state, hidden), place(state, OWN), f"ic:{CHANNEL}:v{version}"
    return [
        (button(f"{step}:do:{p}:fire"), None),
        (button(f"{step}:do:{p}:move"), None),
        (button(f"{step}:do:{p}:firemove"), None),
        (button(f"{step}:dests:{p}:move:0"), None),
        (button(f"{step}:targets:{p}:fire:-:0"), None),
        (button(f"{step}:go:{p}:fire:-:-"), None),
        (button(f"{step}:go:{own}:fire:-:{p}"), None),
        (button(f"{step}:go:{own}:move:~{p}:-"), None),
        (button(f"{step}:targets:{own}:movefire:~{p}:0"), None),
        (menu(f"{step}:unit"), [p]),
        (menu(f"{step}:to:{own}:move"), [f"~{p}"]),
        (menu(f"{step}:at:{own}:fire:-"), [p]),
        (menu(f"{step}:choice"), [hidden]),
        (button(f"{step}:deploy:{p}:E4"), None),
        (menu(f"{step}:placing"), [p]),
    ]


async def test_an_enemys_hidden_unit_its_dummy_and_a_hidden_sniper_are_answered_alike(battle):
    bot, discord, caplog = battle
    before = await bot.games.store.load(CHANNEL)
    answered = {}
    for hidden in HIDDEN:
        answered[hidden] = [
            reply(await send(discord, item, values))
            for item, values in unit_ids(before.state, before.version, hidden)
        ]
    assert answered["able"] == answered["dummy"] == answered["elm"]
    assert all(private for _, private in answered["able"])
    after = await bot.games.store.load(CHANNEL)
    assert (after.version, after.state) == (before.version, before.state)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
