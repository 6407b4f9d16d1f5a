"""The dice statistics and the picture overlay read what events and dice carry as data, never
their words (issue 20, step 4): a check of the two modules' code, and what each does with an
event or a die whose words say one thing and whose data another."""

import ast
from pathlib import Path

import pytest

from engine.dice import DieCategory, DieRoll
from engine.dice_stats import PlayerDie, dice_report
from engine.event_data import FireData
from engine.events import Event
from engine.view import view_for
from renderer.overlay import last_action
from tests.renderer.scenes import quick_started

ROOT = Path(__file__).parents[2]
READERS = ["engine/dice_stats.py", "renderer/overlay.py"]
WORDS = {"text", "public", "told_to"}  # an event's words
STRING_METHODS = {name for name in dir(str) if not name.startswith("_")}
CONTAINER_METHODS = {"count", "index"}  # lists and tuples have them too


def _word_readings(source: str) -> list[str]:
    """Where the code reads an event's words or a die's purpose, or calls a string method on
    anything but a literal it formats (its own output)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in WORDS:
            found.append(f"line {node.lineno}: .{node.attr}")
        if isinstance(node, ast.Attribute) and node.attr == "purpose" and _names_a_die(node.value):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method, receiver = node.func.attr, node.func.value
            if method in STRING_METHODS - CONTAINER_METHODS and not isinstance(receiver, ast.Constant):
                found.append(f"line {node.lineno}: .{method}()")
    return found


def _names_a_die(node: ast.expr) -> bool:
    """``die``, ``d``, ``roll``, ``rolls[0]``: what these modules would call a die."""
    while isinstance(node, ast.Subscript | ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and (node.id in {"d", "die"} or "roll" in node.id)


@pytest.mark.parametrize("module", READERS)
def test_the_dice_statistics_and_the_overlay_read_no_words(module):
    assert _word_readings((ROOT / module).read_text()) == []


def test_the_check_finds_words_read():
    parsing = "def f(event, die, tally):\n    return event.text, die.purpose.casefold(), tally.purpose\n"
    assert len(_word_readings(parsing)) == 3  # .text, die.purpose, .casefold(); a tally's purpose is its own


def test_a_die_counts_under_the_category_it_was_rolled_with_whatever_its_purpose_says():
    misleading = DieRoll(sides=6, value=4, purpose="to hit, a die", needs=4, category=DieCategory.MORALE)
    (player,) = dice_report([PlayerDie("ann", misleading)]).players
    assert [luck.purpose for luck in player.luck] == [DieCategory.MORALE]
    assert {tally.purpose for tally in player.tallies} == {DieCategory.MORALE.value, "all"}


def test_the_overlay_draws_a_shot_from_its_data_not_its_kind_or_units():
    state, _ = quick_started()
    view = view_for(state, None)
    told_only = Event(kind="fire", text="M10 fires at StuG", units=("m10", "stug"))
    assert last_action([told_only], view).shots == []
    shot = Event(kind="reaction", text="", data=FireData(firer="m10", target="stug", distance=20.0))
    assert [(firer.id, target.id) for firer, target, _ in last_action([shot], view).shots] == [
        ("m10", "stug")
    ]
