"""What the game waits for next is decided once, by the service (bot.services.next_steps), and
each front end only writes it (issue 20, step 5): the same steps give Discord's buttons under a
card and the console's "Next:" line, in every phase."""

from __future__ import annotations

from typing import get_args

import discord
import pytest

from bot.console_next import next_line
from bot.discord_adapter.action_card import next_steps
from bot.services.next_steps import NextStep, StepKind, waits_for
from bot.services.outcome import Outcome
from engine.commands import Concede, JoinSide, Move, StartGame
from engine.dice import d6
from engine.game_state import GameState
from engine.scenarios.new_game import make_unit
from engine.state import Phase
from tests.engine.helpers import P, declare, game, play, started
from tests.engine.team_games import deploy_all, team_game
from tests.engine.test_house_rules_buildings import assault_house, street
from tests.engine.test_reserves import with_reserves

CHANNEL, VERSION = 42, 7
PRIMARY, SECONDARY = discord.ButtonStyle.primary, discord.ButtonStyle.secondary


def quick_battle() -> GameState:
    return game(
        make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a", command=True),
        make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="x", command=True),
    )


def the_allies_joined() -> GameState:
    return play(quick_battle(), JoinSide(side="allies", player="ann", name="ann"))[0]


def initiative() -> GameState:
    return play(quick_battle(), StartGame(), d6(6), d6(1))[0]  # the allies won it


def reserves_due() -> GameState:
    return play(with_reserves(), StartGame())[0]


def reaction() -> GameState:
    return declare(started(quick_battle(), "axis"), "axis", "x", Move(path=(P(10, 55),)))[0]


def choice() -> GameState:
    return assault_house(street(), (6, 4))[0]  # the axis picks the building's defender


def over() -> GameState:
    return play(started(quick_battle(), "axis"), Concede(side="axis"))[0]


PHASES = (  # the game, its phase, the card's buttons (label, custom id, style), the console's line
    (
        quick_battle,
        Phase.SETUP,
        [
            ("Join the Allies", "ic:42:v7:join:allies", SECONDARY),
            ("Join the Axis", "ic:42:v7:join:axis", SECONDARY),
            ("Start", "ic:42:v7:start", PRIMARY),
        ],
        "Next: /game join side:allies, /game join side:axis or /game start",
    ),
    (  # Discord keeps a full side's Join (it refuses); the console names the open sides only
        the_allies_joined,
        Phase.SETUP,
        [
            ("Join the Allies", "ic:42:v7:join:allies", SECONDARY),
            ("Join the Axis", "ic:42:v7:join:axis", SECONDARY),
            ("Start", "ic:42:v7:start", PRIMARY),
        ],
        "Next: /game join side:axis or /game start",
    ),
    (
        team_game,
        Phase.SETUP,
        [
            ("Set up a unit (Allies)", "ic:42:v7:setup:allies", PRIMARY),
            ("Done setting up (Allies)", "ic:42:v7:setupdone:allies", SECONDARY),
        ],
        "Next (the Allies): /deploy unit:UNIT at:X,Y or /deploy done",
    ),
    (
        lambda: deploy_all(team_game()),
        Phase.SETUP,
        [("Start", "ic:42:v7:start", PRIMARY)],
        "Next: /game start",
    ),
    (
        initiative,
        Phase.INITIATIVE,
        [
            ("Allies: go first", "ic:42:v7:first", PRIMARY),
            ("Allies: let the Axis start", "ic:42:v7:second", SECONDARY),
        ],
        "Next (the Allies): /initiative start or /initiative pass",
    ),
    (
        reserves_due,
        Phase.RESERVES,
        [
            ("Call reserves (Allies)", "ic:42:v7:reserves:allies", PRIMARY),
            ("No reserves (Allies)", "ic:42:v7:noreserves:allies", SECONDARY),
        ],
        "Next (the Allies): /reserves units:UNIT,... or /reserves units:none",
    ),
    (
        lambda: started(quick_battle(), "axis"),
        Phase.ACTIVE,
        [
            ("Activate (Axis)", "ic:42:v7:activate", PRIMARY),
            ("CMT (Axis)", "ic:42:v7:cmt", SECONDARY),
            ("Pass (Axis)", "ic:42:v7:pass", SECONDARY),
        ],
        "Next (the Axis): /act unit:UNIT ..., /cmt or /pass",
    ),
    (
        reaction,
        Phase.REACTION,
        [("React", "ic:42:1:react", PRIMARY), ("No reaction", "ic:42:1:noreact", SECONDARY)],
        "Next (the Allies): /react unit:UNIT ... or /noreact",
    ),
    (
        choice,
        Phase.CHOICE,
        [("axis: choose (building defender)", "ic:42:v7:choice", None)],
        "Next (the Axis): /choose unit:UNIT",
    ),
    (over, Phase.OVER, [], None),
)


def written(item: discord.ui.Item) -> tuple[str | None, str | None, discord.ButtonStyle | None]:
    """A button as (label, custom id, style); a menu as (placeholder, custom id, None)."""
    if isinstance(item, discord.ui.Select):
        return item.placeholder, item.custom_id, None
    assert isinstance(item, discord.ui.Button)
    return item.label, item.custom_id, item.style


@pytest.mark.parametrize(("made", "phase", "buttons", "line"), PHASES)
def test_the_same_steps_give_the_cards_buttons_and_the_consoles_next_line(made, phase, buttons, line):
    state = made()
    assert state.phase is phase
    outcome = Outcome(state=state, events=[], version=VERSION)
    assert outcome.next == waits_for(state)
    assert [written(item) for item in next_steps(outcome, CHANNEL)] == buttons
    assert next_line(outcome.next) == line


def test_the_phases_above_take_every_kind_of_step():
    """Each kind of step is written by both front ends in some phase above."""
    taken = {step.kind for made, *_ in PHASES for step in waits_for(made())}
    assert taken == set(get_args(StepKind))


def test_the_console_names_sides_that_may_take_the_same_steps_together():
    """A plotted set-up's sides set up at once; a vehicle attacked in close combat falls back or
    fights on."""
    both = tuple(NextStep(kind, side) for side in ("allies", "axis") for kind in ("set_up", "set_up_done"))
    assert next_line(both) == "Next (the Allies and the Axis): /deploy unit:UNIT at:X,Y or /deploy done"
    fall_back = (NextStep("choose", "allies", choice="close_combat_fall_back"),)
    assert next_line(fall_back) == (
        "Next (the Allies): /choose close_combat:fall_back or /choose close_combat:fight_on"
    )
