"""Scenarios as data (issue 31): a scenario plays by its own fields and by conditions registered
by name, never by its id, so a copy of a book scenario under a new id and title deploys, plays
and ends exactly as the original with the same dice (pp. 26-31)."""

import ast
from pathlib import Path

import pytest

from engine.scenarios.book import find_scenario, load_scenarios
from engine.scenarios.winning import AT_THE_END, AT_TURN_END
from tests.engine.random_play import play_random_game
from tests.engine.test_scenario_games import SCENARIOS, deployed, joined

ROOT = Path(__file__).resolve().parents[2]


def _copied(monkeypatch, original: str) -> str:
    """A copy of a book scenario under a new id and a new title, offered beside the book's four."""
    scenario = find_scenario(original)
    copy = scenario.model_copy(update={"id": f"copy-of-{original}", "title": f"Copied {scenario.title}"})
    monkeypatch.setitem(load_scenarios(), copy.id, copy)
    return copy.id


def _played(scenario: str, options: dict, seed: int) -> tuple[str, list[str]]:
    """A scenario's game set up and played by random commands to its end: the final state and
    every command's events, as JSON."""
    final, history = play_random_game(deployed(joined(scenario, options), seed), seed)
    return final.model_dump_json(), [event.model_dump_json() for _, events in history for event in events]


@pytest.mark.parametrize(("scenario", "options"), SCENARIOS, ids=[s for s, _ in SCENARIOS])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_copy_of_a_book_scenario_plays_the_same_events_with_the_same_dice(
    monkeypatch, scenario, options, seed
):
    original = find_scenario(scenario)
    copy = find_scenario(_copied(monkeypatch, scenario))

    def as_original(text: str) -> str:
        return text.replace(copy.id, original.id).replace(copy.title, original.title)

    final, events = _played(scenario, options, seed)
    copy_final, copy_events = _played(copy.id, options, seed)
    assert [as_original(e) for e in copy_events] == events
    assert as_original(copy_final) == final


def test_every_book_scenario_wins_by_conditions_registered_by_name():
    for scenario in load_scenarios().values():
        assert scenario.won_at_the_end in AT_THE_END, scenario.id
        assert scenario.won_at_turn_end in (None, *AT_TURN_END), scenario.id


def _compared_literals(node: ast.Compare) -> set[object]:
    """The literals a comparison holds on either side, also inside a tuple, list or set."""
    literals = set()
    for side in (node.left, *node.comparators):
        for part in ast.walk(side):
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                literals.add(part.value)
    return literals


def test_no_engine_module_compares_anything_with_a_scenarios_id():
    ids = set(load_scenarios())
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "engine").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path)))
        if isinstance(node, ast.Compare) and _compared_literals(node) & ids
    ]
    assert found == []
