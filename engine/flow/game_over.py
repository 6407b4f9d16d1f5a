"""How a game ends: a force breaks (p. 27), time runs out with the scenario's objectives
counted (pp. 28-31), or a side concedes."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from engine.battlefield import command_unit_lost, lost_break_points
from engine.commands import Concede
from engine.dice import DieCategory
from engine.errors import IllegalCommand
from engine.event_data import RolledTest
from engine.events import EventLog
from engine.game_state import GameResult, GameState
from engine.rules.victory import BreakTest, break_point_test
from engine.scenarios.winning import end_result
from engine.state import Phase
from engine.summary import game_summary
from engine.wording import side_name


def take_break_point_test(state: GameState, name: str, log: EventLog) -> BreakTest:
    """A side's break point test (p. 27), its die held to the highest face that holds."""
    test_on = partial(
        break_point_test,
        lost_break_points(state, name),
        commander_lost=command_unit_lost(state, name),
        break_point=state.sides[name].break_point,
    )
    return test_on(
        log.roll_against(
            6, f"break point test, {name}", lambda face: not test_on(face).broken, DieCategory.MORALE
        )
    )


def break_test_data(name: str, test: BreakTest) -> RolledTest:
    return RolledTest.of(
        "break point test", lambda face: not replace(test, roll=face).broken, test.roll, side=name
    )


def finish_on_time(state: GameState, log: EventLog) -> None:
    """The last turn is over: the scenario's condition for the end decides (pp. 28-31)."""
    result = end_result(state)
    finish_game(state, log, result.winner, result.reason)


def finish_game(state: GameState, log: EventLog, winner: str | None, reason: str) -> None:
    state.phase = Phase.OVER
    state.pending = None
    state.result = GameResult(winner=winner, reason=reason)
    log.emit("game_over", f"Game over: {side_name(winner) + ' win' if winner else 'draw'} ({reason})")
    log.emit("summary", game_summary(state))


def concede(state: GameState, command: Concede, log: EventLog) -> None:
    if command.side not in state.sides:
        raise IllegalCommand(f"There is no side called {command.side!r}")
    finish_game(state, log, state.other_side(command.side), conceded(command.side))


def conceded(side: str) -> str:
    """Why a game a side conceded ended, as its result says."""
    return f"{side_name(side)} conceded"


def spent_a_token(state: GameState, side: str) -> bool:
    """Whether a side has played: spent a command token (p. 4), which it has once the first
    turn's tokens are no longer all in its hand, or a later turn has come."""
    return state.turn > 1 or (state.turn == 1 and state.sides[side].tokens < state.sides[side].tokens_drawn)
