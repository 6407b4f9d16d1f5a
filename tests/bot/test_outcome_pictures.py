"""Who is shown a picture after a command is said by the outcome (issue 20, step 5): the
spectators always, and each side and the referee whose view shows more than theirs; Discord's
side threads and the console's picture read it."""

from __future__ import annotations

import io

import bot.console
from bot.console import play_console
from bot.services.outcome import Outcome
from engine.deployment.hidden import hide_under_marker
from engine.dice import SeededDice
from engine.scenarios.new_game import make_unit, new_game
from engine.view import REFEREE, SPECTATORS
from renderer import render
from tests.bot.test_console import CAPTURE_SET_UP


def battle(hidden: bool) -> Outcome:
    """A quick battle where the allies' Able stands hidden as Marker 1 (or in the open)."""
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("us", "Infantry Detachment", "allies", (40, 30), name="Able", unit_id="able"),
            make_unit("german", "Infantry Detachment", "axis", (40, 50), name="Gruppe", unit_id="gren"),
        ],
    )
    if hidden:
        hide_under_marker(state, state.units["able"])
    return Outcome(state=state, events=[], version=1)


def test_the_side_with_a_hidden_unit_and_the_referee_are_shown_their_own_picture():
    outcome = battle(hidden=True)
    assert outcome.pictured == (SPECTATORS, "allies", REFEREE)
    assert [outcome.picture_for(reader) for reader in ("allies", "axis", REFEREE, SPECTATORS)] == [
        "allies",
        SPECTATORS,
        REFEREE,
        SPECTATORS,
    ]


def test_with_nothing_hidden_everyone_is_shown_the_channels_picture():
    outcome = battle(hidden=False)
    assert outcome.pictured == (SPECTATORS,)
    assert outcome.picture_for("allies") is SPECTATORS


async def test_the_console_draws_the_picture_the_outcome_names_for_the_player(tmp_path, monkeypatch):
    """In a Capture game the allies set up hidden: Ann's set-up is drawn as the allies see it
    (their markers' units shown), Otto's as the spectators see it (the axis hide nothing)."""
    drawn: list[str | None] = []

    def drawing(state, viewer=None, **options):
        drawn.append(viewer)
        return render(state, viewer, **options)

    monkeypatch.setattr(bot.console, "render", drawing)
    lines = "\n".join(CAPTURE_SET_UP[:13]) + "\n"
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    out = io.StringIO()
    await play_console(io.StringIO(lines), out, url, dice=lambda: SeededDice(1), pictures=tmp_path / "p")
    assert "Not allowed" not in out.getvalue()
    # ann joins, otto joins, ann sets up two hidden units, otto one in the open
    assert drawn == [SPECTATORS, SPECTATORS, "allies", "allies", SPECTATORS]
