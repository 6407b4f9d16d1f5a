"""The game's façade: every command a front end sends comes in here and goes to the part of the
turn flow that handles it (:mod:`engine.flow`: setting up, the turn sequence, activation, the
reaction window, resolution, game over).

``apply(state, command, dice) -> (state, events)`` is the one entry point. It works on a copy
and returns it, so an illegal command (which raises :class:`IllegalCommand`) changes nothing.
Every die rolled appears in the returned events with its purpose; replaying the same
commands with the recorded dice gives the same events (see :func:`replay`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.commands import (
    AnswerReserve,
    AppointReferee,
    CallReserves,
    CardAction,
    ChooseInitiative,
    ChooseTarget,
    Command,
    Concede,
    DealCards,
    Declare,
    DeclineReaction,
    Deploy,
    FinishDeployment,
    GiveBonusTokens,
    JoinSide,
    PassInitiative,
    React,
    RefereeBriefing,
    RefereeClock,
    RefereeCorrection,
    RefereeDeploymentZone,
    RefereeForceGuideline,
    RefereeObjective,
    RefereeRuling,
    RefereeSpecialRule,
    RemoveMarkers,
    RequestReserve,
    StartGame,
    UndoActions,
)
from engine.dice import DiceSource, ScriptedDice
from engine.errors import IllegalCommand
from engine.events import Event, EventLog
from engine.flow.activation import declare, pass_initiative
from engine.flow.game_over import concede
from engine.flow.playing_cards import card_action, deal_cards
from engine.flow.reaction import decline, react
from engine.flow.resolution import choose_markers, choose_target
from engine.flow.sequence import call_reserves, choose_initiative
from engine.flow.setting_up import deploy, finish_deploying, join_side, start_game
from engine.game_state import GameState
from engine.referee import appoint_referee, correct, note_undo, rule, run_clock
from engine.referee_prep import (
    add_objective,
    add_special_rule,
    send_briefing,
    set_deployment_zone,
    set_force_guideline,
)
from engine.rulesets import rules_of
from engine.state import Phase
from engine.teams import answer_reserve, give_bonus_tokens, request_reserve


def apply(state: GameState, command: Command, dice: DiceSource) -> tuple[GameState, list[Event]]:
    """Apply one command; return the new state and what happened."""
    if state.phase is Phase.OVER:
        raise IllegalCommand("The game is over")
    new = state.fork()
    log = EventLog(dice)
    handler = HANDLERS.get(type(command)) or rules_of(state).handlers().get(type(command))
    if handler is None:  # a choice only another rule set has
        raise IllegalCommand("Nothing of that kind is waiting to be chosen")
    handler(new, command, log)
    return new, log.events


def replay(
    state: GameState, history: Iterable[tuple[Command, list[Event]]]
) -> tuple[GameState, list[list[Event]]]:
    """Re-run stored commands with the dice recorded in their events."""
    produced = []
    for command, events in history:
        dice = ScriptedDice(roll for event in events for roll in event.rolls)
        state, new_events = apply(state, command, dice)
        produced.append(new_events)
    return state, produced


def awaiting(state: GameState) -> str | None:
    """The side the game is waiting for, if any."""
    if state.phase is Phase.INITIATIVE:
        return state.initiative_winner
    if state.phase is Phase.RESERVES and state.reserve_calls_due:
        return state.reserve_calls_due[0]
    if state.phase is Phase.REACTION and state.pending:
        return state.pending.reactor_side
    if state.phase is Phase.CHOICE and state.pending and state.pending.choice:
        return state.pending.choice.side
    if state.phase is Phase.ACTIVE:
        return state.active_side
    return None


HANDLERS: dict[type, Callable[[GameState, object, EventLog], None]] = {
    JoinSide: join_side,
    StartGame: start_game,
    Deploy: deploy,
    FinishDeployment: finish_deploying,
    CallReserves: call_reserves,
    DealCards: deal_cards,
    CardAction: card_action,
    ChooseInitiative: choose_initiative,
    Declare: declare,
    React: react,
    DeclineReaction: decline,
    RemoveMarkers: choose_markers,
    ChooseTarget: choose_target,
    PassInitiative: pass_initiative,
    GiveBonusTokens: lambda state, c, log: give_bonus_tokens(state, c.side, c.player, c.shares, log),
    RequestReserve: lambda state, c, log: request_reserve(state, c.side, c.player, c.unit, log),
    AnswerReserve: lambda state, c, log: answer_reserve(state, c.side, c.player, c.unit, c.grant, log),
    RefereeCorrection: correct,
    RefereeRuling: rule,
    UndoActions: note_undo,
    RefereeClock: run_clock,
    RefereeObjective: add_objective,
    RefereeSpecialRule: add_special_rule,
    RefereeBriefing: send_briefing,
    RefereeForceGuideline: set_force_guideline,
    RefereeDeploymentZone: set_deployment_zone,
    AppointReferee: appoint_referee,
    Concede: concede,
}
