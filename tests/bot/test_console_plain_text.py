"""The console prints what the services reply, written as plain text (bot.plain_text.plain_reply)
and nothing else: no Discord Markdown reaches it. A whole session is typed into the real console
loop: dice, charts, odds, the rules search, help pages, a table, cards, a game to its story,
/stats, a linked campaign and a Red Barricades campaign with its reveal."""

import io
import re

from bot.console import play_console
from engine.dice import SeededDice
from tests.bot.test_console_linked_campaign import FORCES
from tests.engine.test_cards import DECK

DISCORD_MARKS = ("**", "__", "`", "~~", "<@", "<#", "<t:")


def force_lines() -> list[str]:
    """Ann's and Otto's saved forces for the linked campaign, as in its own console test."""
    lines = []
    for player, (nation, name, profiles) in FORCES.items():
        lines.append(f"as {player} /force new nation:{nation} name:{name} points:150")
        lines += [f'as {player} /force add force:{name} unit:"{profile}"' for profile in profiles]
        lines.append(f'as {player} /force upgrade force:{name} unit:"Infantry Detachment 1" command')
    return lines


def session(deck: str) -> list[str]:
    return [
        "/help topic:reactions",
        "/help topic:campaigns",
        '/roll dice:"3d6+2; 4d6kh3; DR +1 sniper; dr; 2d10 5+ Panther"',
        "/roll dice:1d20 secret:true",
        "/roll dice:log",
        "/chart list",
        "/chart show chart:rb-german-leaders",
        "/chart roll chart:ic-reaction",
        '/chart roll chart:rb-rg-strength choices:"side=german, date=2 Nov"',
        "/odds test needs:5 sides:10 dice:2",
        '/odds shot firer:"Panther (german)" target:"Sherman 75mm (us)" range:18',
        "/rule query:IC12.6",
        "/rule query:smoke dissipate",
        "/table new name:Farm width:72 depth:48",
        "/table add table:Farm piece:wood kind:woods at:H7 size:6x5",
        "/table list",
        f"/cards deck {deck} name:Generic",
        "/start",
        "/initiative start",
        "/cards deal deck:Generic",
        "/cards hand",
        "/stats",
        "/game concede",
        "/replay",
        *force_lines(),
        "/campaign linked new name:Normandy allies:ann allies_force:Able axis:otto axis_force:KG",
        "as ann /campaign linked battle scenario:meeting",
        "/campaign linked standings",
        "as otto /game concede",
        "/stats campaign",
        "as ann /campaign linked end",
        "/campaign new name:Barrikady german:ann,bob russian:cat german_cpp:10 russian_cpp:12 "
        'days:2 start:"17 Oct" every:24h referee:ref',
        "/campaign status",
        'as ann /campaign submit buy:"A4, M2"',
        "as cat /campaign submit buy:none",
        "/campaign orbat",
        "/stats campaign",
    ]


async def test_no_discord_markdown_reaches_the_console(tmp_path):
    (tmp_path / "deck.txt").write_text(DECK)
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    typed = "\n".join(session(str(tmp_path / "deck.txt"))) + "\n"
    out = io.StringIO()
    assert await play_console(io.StringIO(typed), out, url, dice=lambda: SeededDice(3)) == 0
    printed = out.getvalue()
    for mark in DISCORD_MARKS:
        assert mark not in printed, f"{mark!r} printed at the console"
    for shown in (
        "Reactions\nWhen a unit is ordered",  # a help page, its buttons' names once in bold
        "The same by command: /react unit:... with what it does",  # commands to type, once in backticks
        "3d6 (",  # a d20 roll: its highest and lowest faces once in bold, its total in a box
        "Final DR ",  # an ASL roll's result, once in bold
        "rb-german-leaders: German leaders received",  # a chart's name, once in bold
        "Reaction test (Iron Cross): needs ",  # a chart roll, its result once in bold
        "0 successes    16.0%",  # a table of odds, once in a code block
        "IC12.6 Smoke (p. 12) · ",  # a section's title, once in bold
        'Farm: 72" x 48", 0 pieces',  # a table's name, once in bold
        "The battle's story: ",  # once in bold
        "Dice statistics: ",  # each player's table once in a code block
        "Linked campaign Normandy set up.",
        "Allies (ann), Able (US)",  # a player, once a mention
        "[campaign] Normandy, battle 1. Meeting Engagement",  # the battle carried
        "Normandy is over after 1 battle",
        "Campaign Barrikady set up.\nBarrikady\n1. 17 Oct purchases: open, deadline ",
        "[revealed] Barrikady: phase 1 (17 Oct purchases) revealed",
        "German order of battle",
        "Campaign Barrikady: ",  # /stats campaign's heading, the name once in bold
    ):
        assert shown in printed
    assert not re.search(r"Not allowed|Something went wrong", printed), printed
