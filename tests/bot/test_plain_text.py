"""The console's one formatter: what the services write for Discord, shown as plain text."""

import io

from bot.plain_text import PlainWriter, plain


def test_discord_marks_mentions_and_timestamps_become_plain_text():
    written = "**Easy Two** (US) __new__ ~~old~~, imported by <@301> <t:1700000000:R> in <#55>"
    assert plain(written) == "Easy Two (US) new old, imported by @301 2023-11-14 22:13 UTC in #55"
    assert plain("Odds:\n```\nhit 50%\n```\nend") == "Odds:\nhit 50%\nend"
    assert plain("2 x 4-6-7 at 3*4 <t:soon:R>") == "2 x 4-6-7 at 3*4 <t:soon:R>"


def test_the_console_writer_writes_plain_text():
    out = io.StringIO()
    PlainWriter(out).write("**axis's hand**\n")
    assert out.getvalue() == "axis's hand\n"
