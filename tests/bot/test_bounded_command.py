"""The one check every command passes (``bot.services.limits.bounded_command``): texts cleaned
deep inside a command, numbers and lists bounded, and a command with nothing to clean given
back as it came (no copy made of it)."""

from __future__ import annotations

import pytest

from bot.services.limits import ITEMS, bounded_command, cleaned
from engine.commands import Declare, Fire, Move, RefereeBriefing, UnitOrder
from engine.errors import IllegalCommand
from engine.state import Point


def declared(target: str, *path: Point) -> Declare:
    actions = (Move(path=path), Fire(target=target)) if path else (Fire(target=target),)
    return Declare(side="axis", order=UnitOrder(unit="Gruppe 1", actions=actions))


def test_a_command_with_nothing_to_clean_comes_back_as_it_was():
    command = declared("Section 2", Point(x=10, y=12.5), Point(x=11, y=13))
    assert bounded_command(command) is command


def test_a_text_deep_in_a_command_is_cleaned_and_the_rest_kept():
    command = declared("Sec\u200btion\u202e 2\x07", Point(x=10, y=12.5))
    bounded = bounded_command(command)
    assert bounded.order.actions[1].target == "Section 2"
    assert bounded.order.actions[0] is command.order.actions[0]  # the move, unchanged, shared
    assert command.order.actions[1].target == "Sec\u200btion\u202e 2\x07"  # the command as sent


def test_a_ruling_keeps_its_lines_and_tabs_and_loses_what_shows_nothing():
    briefing = RefereeBriefing(referee="r", side="axis", text="Smoke\r\nstays\tuntil\u200b turn 3\x1b")
    assert bounded_command(briefing).text == "Smoke\nstays\tuntil turn 3"


@pytest.mark.parametrize(
    "text",
    [
        "plain words 1-2, (3)!",
        "  spaced   out  ",
        "tab\there",
        "line\nbreak",
        "bell\x07",
        "del\x7f",
        "é\u200b",
    ],
)
def test_plain_text_is_cleaned_as_any_other(text):
    """The short way for printable ASCII gives what the character-by-character way gives."""
    by_character = "".join(c for c in text if c in "\n\t" or c.isprintable())
    assert cleaned(text, lines=True) == by_character
    assert cleaned(text) == " ".join(by_character.split())


def test_numbers_and_lists_past_their_limits_are_refused_deep_in_a_command():
    with pytest.raises(IllegalCommand, match="x is a number from"):
        bounded_command(declared("Section 2", Point(x=1e9, y=0)))
    with pytest.raises(IllegalCommand, match=f"path has at most {ITEMS:,} items"):
        bounded_command(declared("Section 2", *[Point(x=1, y=1)] * (ITEMS + 1)))
