"""No mention the bot did not mean (issue 30): whatever a member types into any free-text option
of any command (found by walking the command schema), into any form, or as their nickname, the
bot's requests ping nobody (the mentions each allows, the client's default merged in by
discord.py), and the words reach the channel as typed, never as a live @everyone, @here, role or
user mention. The bot still pings on purpose: a turn ping its player, a reaction window the side
that may react."""

import re
from typing import Any

import discord as discord_py
import pytest

from bot.command_schema import COMMANDS, Option
from bot.discord_adapter.markdown import code, fenced
from bot.services.ping_service import Ping
from tests.bot.discord_harness import (
    ANN,
    GUILD,
    MANAGE_GUILD,
    OTTO,
    Pick,
    Upload,
    buttons,
    callback_payload,
    close_bot,
    form,
    menus,
    open_bot,
    role,
    started_game,
    text_of,
)

BAIT = "@everyone @here <@&1> <@2>"
LIVE = re.compile(r"@everyone|@here|<@&1>|<@!?2>")  # the bait's mentions, were they written as typed
CODE = re.compile(r"```.*?```|``.*?``|`[^`\n]*`", re.S)  # Discord makes no mention inside code
FREE_TEXT = ("text", "unit", "path", "position")
REFEREE, ADMIN = "304", "305"
POSTING = ("/callback", "PATCH /webhooks/", "POST /webhooks/", "/channels/{channel_id}/messages")


def posted(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The bodies of the requests that post or change a message (answers, follow-ups, edits,
    channel messages): an interaction's message answer, not its acknowledgement or form."""
    bodies = []
    for entry in sent:
        if not any(part in entry["route"] for part in POSTING) or entry["route"].startswith("GET"):
            continue
        body = callback_payload(entry) if "payload" in entry else {}
        if entry["route"].endswith("/callback"):
            body = body.get("data") or {} if body.get("type") in (4, 7) else {}
        if body.get("content") or body.get("components"):
            bodies.append(body)
    return bodies


def pinged(body: dict[str, Any]) -> set[str]:
    """Whom a message pings: what its ``allowed_mentions`` allows, or, sent without, what Discord
    parses by default (everyone, every role and user in the text)."""
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return {"everyone", "roles", "users"}
    found = set(allowed.get("parse", []))
    return (
        found | {f"role {r}" for r in allowed.get("roles", [])} | {str(u) for u in allowed.get("users", [])}
    )


def shown(text: str) -> str:
    """The text as a reader sees it: Discord's escapes (a backslash, a zero-width space) unseen."""
    return re.sub(r"\\(.)", r"\1", text.replace("\u200b", ""))


def assert_as_typed(sent: list[dict[str, Any]], where: str) -> int:
    """No request pings anyone; the bait shows nowhere as a live mention. How many messages
    showed it whole, as typed (a position is read without its spaces)."""
    echoed = 0
    for body in posted(sent):
        assert pinged(body) == set(), (where, body.get("allowed_mentions"), text_of(body)[:300])
        text = text_of(body)
        assert not LIVE.search(CODE.sub("", text)), (where, text[:300])
        echoed += BAIT.replace(" ", "") in shown(text).replace(" ", "")
    return echoed


CAMPAIGN = {"german": f"<@{ANN}>", "russian": f"<@{OTTO}>", "german_cpp": 10, "russian_cpp": 12, "days": 2}
SAMPLES = {  # what the other required options are given, so the bait gets as far as it can
    "force": "KG",
    "table": "Kampf",
    "unit": "gruppe-3",
    "at": "20,20",
    "to": "20,20",
    "piece": "woods-1",
    "reason": "a typo",
    "name": "Kampf",
}


def sample(option: Option) -> Any:
    """A value for a required option that is not the one under test."""
    if option.choices:
        return option.choices[0]
    return {
        "integer": int(option.low or 1),
        "number": float(option.low if option.low is not None else 2.5),
        "flag": False,
        "user": Pick(ANN),
        "role": role("900"),
        "attachment": Upload("sample.txt", b"sample"),
    }.get(option.kind, SAMPLES.get(option.name, "x"))


async def a_refereed_game(bot, discord) -> None:
    """Ann (allies) and Otto (axis) play, a referee appointed by a server admin; the Axis are to act."""
    await started_game(bot, discord)
    discord.permissions[ADMIN] = MANAGE_GUILD
    await discord.slash("ref appoint", user=ADMIN, channel="1", referee=Pick(REFEREE))
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")


async def a_force_and_a_table(bot, discord) -> None:
    await discord.slash("force new", user=ANN, channel="1", name="KG", nation="german", points=300)
    await discord.slash("table new", user=ANN, channel="1", name="Kampf", width=72.0, depth=48.0)


async def nothing(bot, discord) -> None:
    return None


PLAY = ("act", "fallback", "react", "choose", "reserves", "deploy", "measure", "team", "ref", "odds")
SET_UP = {group: a_refereed_game for group in PLAY} | {
    "force": a_force_and_a_table,
    "table": a_force_and_a_table,
}
PLAYED_BY = {"ref": REFEREE, **{group: OTTO for group in PLAY if group != "ref"}}


def free_text_options() -> dict[str, list[tuple[str, Option]]]:
    """Every free-text option of every command, by the command's group."""
    found: dict[str, list[tuple[str, Option]]] = {}
    for path, spec in COMMANDS.items():
        for option in spec.shared():
            if option.kind in FREE_TEXT:
                found.setdefault(path.split()[0], []).append((path, option))
    return found


@pytest.mark.parametrize("group", sorted(free_text_options()))
async def test_no_free_text_option_pings_or_shows_a_mention(group, tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await SET_UP.get(group, nothing)(bot, discord)
    user = PLAYED_BY.get(group, ANN)
    for path, tested in free_text_options()[group]:
        options = {o.name: sample(o) for o in COMMANDS[path].shared() if o.required} | {tested.name: BAIT}
        sent = await discord.slash(path, user=user, channel="1", **options)
        assert posted(sent), (path, tested.name)  # it was answered
        assert_as_typed(sent, f"/{path} {tested.name}:")
    await bot.campaigns.close()
    await close_bot(bot)


async def test_the_named_sources_show_the_text_as_typed(tmp_path, monkeypatch):
    """The texts that reach a public message: a ruling, a special rule, a roll's label, a
    campaign's name, a unit's label, a table's name."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await a_refereed_game(bot, discord)
    await discord.slash("force new", user=ANN, channel="1", name="KG", nation="german", points=300)
    for path, options, user in [
        ("ref ruling", {"text": BAIT}, REFEREE),
        ("ref prep special", {"text": BAIT, "to": "both"}, REFEREE),
        ("roll", {"dice": f"2d6 {BAIT}"}, ANN),
        ("force add", {"force": "KG", "unit": "Panther", "label": f"Lion {BAIT}"}, ANN),
        ("force show", {"force": "KG"}, ANN),
        ("table show", {"table": f"Kampf {BAIT}"}, ANN),
        ("campaign new", {"name": BAIT, **CAMPAIGN}, ANN),
    ]:
        assert assert_as_typed(await discord.slash(path, user=user, channel="1", **options), path), path
    await bot.campaigns.close()
    await close_bot(bot)


async def opened_forms(bot, discord) -> list[tuple[dict[str, Any], str, str]]:
    """Every form the bot opens, each opened once: (the form, who fills it, in which channel)."""
    cards = form(await discord.slash("cards deck", user=ANN, channel="2", name="Generic"))
    imported = form(await discord.slash("force import", user=ANN, channel="2"))
    await discord.slash("table new", user=ANN, channel="2", name="Farm", width=72.0, depth=48.0)
    (menu,) = menus(await discord.slash("table show", user=ANN, channel="2", table="Farm"))
    square = form(await discord.choose(menu, ["woods"], user=ANN, channel="2"))
    await discord.slash("campaign new", user=ANN, channel="3", name="B", **CAMPAIGN)
    sealed = form(await discord.slash("campaign submit", user=OTTO, channel="3"))
    await discord.slash("force new", user=ANN, channel="4", name="Easy", nation="us", points=300)
    lobby = await discord.slash(
        "lfg post", user=ANN, channel="4", side="allies", scenario="meeting", force="Easy"
    )
    joining = form(await discord.click(buttons(lobby)["Join"], user=OTTO, channel="4"))
    return [
        (cards, ANN, "2"),
        (imported, ANN, "2"),
        (square, ANN, "2"),
        (sealed, OTTO, "3"),
        (joining, OTTO, "4"),
    ]


def forms_of_the_bot() -> set[str]:
    """The titles of every form (modal) the bot defines."""
    found, kinds = set(), [discord_py.ui.Modal]
    while kinds:
        kind = kinds.pop()
        kinds += kind.__subclasses__()
        if kind.__module__.startswith("bot."):
            found.add(kind.title)
    return found


async def test_no_form_input_pings_or_shows_a_mention(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    discord.permissions[ANN] = MANAGE_GUILD  # a deck goes into the server's library
    forms = await opened_forms(bot, discord)
    assert {opened["title"] for opened, _, _ in forms} == forms_of_the_bot()
    for opened, user, channel in forms:
        sent = await discord.submit(opened, {"": BAIT}, user=user, channel=channel)  # every input
        assert posted(sent), opened["title"]
        assert_as_typed(sent, opened["title"])
    await bot.campaigns.close()
    await close_bot(bot)


async def test_a_nickname_pings_nobody(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    discord.nicks[ANN] = BAIT
    sent = await discord.slash("game new", user=ANN, channel="1")
    sent += await discord.slash("game join", user=ANN, channel="1", side="allies")
    sent += await discord.slash("game status", user=ANN, channel="1")
    assert_as_typed(sent, "nickname")
    await close_bot(bot)


async def test_a_turn_ping_pings_its_player_and_a_window_the_side_that_may_react(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await started_game(bot, discord)
    before = len(discord.sent)
    await bot.pings.on_ping(Ping(channel_id="1", mention=(OTTO,), dm=(), what=f"the Axis to act {BAIT}"))
    (ping,) = posted(discord.sent[before:])
    assert pinged(ping) == {OTTO} and text_of(ping).startswith(f"<@{OTTO}>: the game waits for you")
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    declared = await discord.slash("act", user=OTTO, channel="1", unit="gruppe-3", move="50,39")
    assert {frozenset(pinged(body)) for body in posted(declared)} == {frozenset({ANN})}
    assert f"<@{ANN}> may react until" in text_of(posted(declared)[0])
    # Discord notifies nobody of a mention an edit brings: the ping is a message of its own
    created = [callback_payload(e) for e in declared if e["route"].startswith("POST /")]
    assert any(pinged(body) == {ANN} and f"<@{ANN}>" in text_of(body) for body in created)
    await close_bot(bot)


async def test_typed_names_lose_hidden_characters_and_line_breaks_where_they_come_in(tmp_path, monkeypatch):
    """A zero-width space, a right-to-left override or a line break in a table's name is gone
    when it is stored (the name found again as it looks), and a ruling keeps its lines."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    hidden = "Ka\u200bmpf\u202e\n  um\u2066 Berlin\x07"
    await discord.slash("table new", user=ANN, channel="1", name=hidden, width=72.0, depth=48.0)
    assert (await bot.tables.table(GUILD, "Kampf um Berlin")).name == "Kampf um Berlin"
    await a_refereed_game(bot, discord)
    sent = await discord.slash(
        "ref ruling", user=REFEREE, channel="1", text="Smoke stays\nuntil\u200b turn 3"
    )
    assert any("Smoke stays\nuntil turn 3" in text_of(body) for body in posted(sent))
    await close_bot(bot)


def test_backticks_typed_in_a_block_or_code_cannot_close_it():
    block = fenced("a reason ``` **bold** <@2>\nnext")
    assert block.startswith("```\n") and block.endswith("\n```") and block[3:-3].count("```") == 0
    assert code("a `` b").count("``") == 2  # only the fence's own
