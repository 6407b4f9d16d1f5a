"""Structured replies (issue 20, step 5): a service says what to tell (bot/reply.py), and each
front end writes it: Discord in Markdown with mentions and relative times, the console in plain
text. The words are the same in both."""

import json
from datetime import UTC, datetime

from bot.discord_adapter.markdown import markdown, refused
from bot.plain_text import plain_refusal, plain_reply
from bot.reply import (
    Block,
    Channel,
    Heading,
    Mention,
    Moment,
    Reply,
    Strong,
    Struck,
    Typed,
    reply_from_json,
    reply_to_json,
)
from bot.services.dice_service import DiceService
from bot.services.game_service import setup_text
from bot.services.outcome import GameError

NOON = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def test_each_front_end_writes_every_piece_its_own_way():
    reply = Reply.of(
        (Heading("Iron Cross"), " (2 charts)"),
        ("rolled 6, ", Struck("1"), ", odds:", Block("hit  50%")),
        (Strong("allies"), ": ", Mention("301"), " in ", Channel("55"), " until ", Moment(NOON)),
        ("hot seat: ", Mention("ann")),
        (Typed("/game start"), " begins"),
    )
    assert markdown(reply) == (
        "__**Iron Cross**__ (2 charts)\nrolled 6, ~~1~~, odds:```\nhit  50%\n```\n"
        "**allies**: <@301> in <#55> until <t:1795867200:R>\n"
        "hot seat: ann\n`/game start` begins"
    )
    assert plain_reply(reply) == (
        "Iron Cross (2 charts)\nrolled 6, 1 dropped, odds:hit  50%\n"
        "allies: @301 in #55 until 2026-11-28 12:00 UTC\n"
        "hot seat: ann\n/game start begins"
    )


def test_the_game_and_dice_services_replies_read_the_same_in_both_front_ends():
    quick = setup_text("village", "us", 120)
    assert markdown(quick).splitlines()[1].startswith("**Allies**: ")
    assert plain_reply(quick).splitlines()[1].startswith("Allies: ")
    (console_page,) = DiceService.chart_list(100_000, plain_reply)
    discord_pages = DiceService.chart_list(1900, markdown)
    discord = "\n".join(markdown(page) for page in discord_pages)
    assert len(discord_pages) > 1 and "\n**rb-german-leaders**: German leaders received" in discord
    assert "\nrb-german-leaders: German leaders received" in plain_reply(console_page)
    assert [line for page in discord_pages for line in page.lines if line and line != ()] == [
        line for line in console_page.lines if line and "(continued)" not in str(line)
    ]


def test_replies_add_up_line_by_line_and_stay_private_if_either_is():
    both = Reply.of("one") + Reply.of("two", private=True)
    assert (both.lines, both.private) == ((("one",), ("two",)), True)


def test_a_reply_kept_as_json_comes_back_the_same_and_old_text_as_it_was():
    reply = Reply.of(
        (Strong("Barrikady"), ": ", Mention("301"), " owes orders by ", Moment(NOON)),
        (Heading("Odds"), Block("hit  50%"), Struck("1"), Typed("/campaign submit"), Channel("55")),
    )
    kept = json.loads(json.dumps(reply_to_json(reply)))  # as the outbox stores a reminder
    assert reply_from_json(kept) == reply
    assert reply_from_json("**Barrikady**: kept before replies were") == Reply.of(
        "**Barrikady**: kept before replies were"
    )


def test_a_refusal_names_a_user_as_each_front_end_names_users():
    refusal = GameError("Farm is ", Mention("301"), "'s table: only they may delete it")
    assert str(refusal) == "Farm is 301's table: only they may delete it"  # for the logs
    assert refused(refusal) == "Farm is <@301>'s table: only they may delete it"
    assert plain_refusal(refusal) == "Farm is @301's table: only they may delete it"
    assert plain_refusal(GameError("No game here")) == refused(GameError("No game here")) == "No game here"
