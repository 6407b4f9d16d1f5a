"""What the game waits for next, as data (issue 20, step 5): one place decides it from the state,
and each front end writes it its own way: Discord as the buttons under a card
(:func:`bot.discord_adapter.action_card.next_steps`), the console as its "Next:" line naming the
commands to type (:func:`bot.console_next.next_line`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.set_up_steps import open_sides
from engine.deployment.placing import whose_turn
from engine.game_state import GameState
from engine.state import Phase

StepKind = Literal[
    "join",  # a quick battle's side to join (``side``: the side joined)
    "start",  # begin the battle: roll for the initiative
    "go_first",  # the initiative's winner goes first
    "let_start",  # or lets the other side start
    "reserves",  # call reserves at the turn's start
    "no_reserves",  # or call none
    "set_up",  # set a unit up in a scenario's set-up
    "set_up_done",  # or say the side is done setting up
    "activate",  # the active side orders a unit
    "cmt",  # or spends a token on a Company Morale Test
    "pass",  # or passes the initiative
    "react",  # the reacting side reacts in the window ``window``
    "no_reaction",  # or lets the declared order go ahead
    "choose",  # a side answers the choice pending (``choice``: its kind)
]


@dataclass(frozen=True)
class NextStep:
    """A step the game waits for: its kind, the side it is for (None: anyone at the table), the
    reaction window it answers, the kind of choice it answers; ``full``: a side to join that has
    all its players already (Discord keeps its Join button, which then refuses; the console
    names only the sides still open)."""

    kind: StepKind
    side: str | None = None
    window: int | None = None
    choice: str | None = None
    full: bool = False


def setting_up(state: GameState) -> list[str]:
    """The sides that may set a unit up now: the one whose turn it is, or in a plotted set-up
    every side not yet done."""
    plan = state.deployment
    if plan is None:
        return []
    if plan.order == "plotted":
        return [side for side, p in plan.sides.items() if not p.done]
    turn = whose_turn(plan)
    return [turn] if turn else []


def set_up_turns(state: GameState) -> tuple[NextStep, ...]:
    """Each side setting up: a unit to set up, or saying it is done; only the latter for a side
    at its share of the table (it has nothing more it may set up)."""
    plan = state.deployment
    assert plan is not None
    return tuple(
        NextStep(kind, side)
        for side in setting_up(state)
        for kind in (("set_up_done",) if plan.sides[side].full else ("set_up", "set_up_done"))
    )


def each(sides: list[str], *kinds: StepKind) -> tuple[NextStep, ...]:
    """These steps for each of the sides, side by side."""
    return tuple(NextStep(kind, side) for side in sides for kind in kinds)


def waits_for(state: GameState) -> tuple[NextStep, ...]:
    """What the game waits for now, in the order the front ends offer it: joining and starting a
    quick battle; during a scenario's set-up, each side's set-up steps, then starting; each
    side's call of its reserves; the initiative winner's choice; the active side's activation,
    CMT or pass; a reaction window's answers; a choice's answer. Nothing once the game is over."""
    pending = state.pending
    if state.phase is Phase.REACTION and pending is not None:
        return tuple(
            NextStep(kind, pending.reactor_side, window=pending.window) for kind in ("react", "no_reaction")
        )
    if state.phase is Phase.CHOICE and pending is not None and pending.choice is not None:
        return (NextStep("choose", pending.choice.side, choice=pending.choice.kind),)
    if state.phase is Phase.SETUP and state.deployment is not None:
        return set_up_turns(state) or (NextStep("start"),)
    if state.phase is Phase.SETUP and state.planned_scenario is None:
        joins = (NextStep("join", side, full=side not in open_sides(state)) for side in state.sides)
        return (*joins, NextStep("start"))
    if state.phase is Phase.RESERVES:
        return each(state.reserve_calls_due, "reserves", "no_reserves")
    if state.phase is Phase.INITIATIVE and state.initiative_winner:
        return each([state.initiative_winner], "go_first", "let_start")
    if state.phase is Phase.ACTIVE and state.active_side:
        return each([state.active_side], "activate", "cmt", "pass")
    return ()
