"""The referee prepares the scenario (2015 rulebook p. 25): the sides may have different
objectives, special rules may be known to one side, to both or to the referee alone, and each
side may be fed intelligence before or during the game.

What only one side may know goes in an event with that side's name and nothing for anyone else
(``public=""``); what only the referee may know goes in an event nobody else is told.
"""

from __future__ import annotations

from engine.commands import RefereeBriefing, RefereeObjective, RefereeSpecialRule
from engine.errors import IllegalCommand
from engine.events import REFEREE, EventLog
from engine.game_state import GameState
from engine.referee import check_referee
from engine.scenarios import find_scenario
from engine.state import Objective, RefereeRule

BOTH = "both"


def add_objective(state: GameState, command: RefereeObjective, log: EventLog) -> None:
    """A new objective on the table, for one side or for both."""
    check_referee(state, command.referee)
    name, side, at = command.id.strip(), command.side, command.at
    if not name:
        raise IllegalCommand("Name the objective (id:)")
    if any(o.id.casefold() == name.casefold() for o in state.objectives):
        raise IllegalCommand(f"There is already an objective called {name}")
    if side is not None and side not in state.sides:
        raise IllegalCommand(f"Name the side it is for: {', '.join(state.sides)} or {BOTH}")
    if not (0 <= at.x <= state.table.width and 0 <= at.y <= state.table.depth):
        raise IllegalCommand(f"{at} is off the table")
    state.objectives.append(Objective(id=name, position=at, side=side))
    if side is None:
        log.emit("referee", f"Referee: a new objective, {name}, at {at}")
    else:
        log.emit("referee", f"Referee: a new objective for {side}, {name}, at {at}", side=side, public="")


def add_special_rule(state: GameState, command: RefereeSpecialRule, log: EventLog) -> None:
    """A special rule for this game, read only by its audience (and the referee)."""
    check_referee(state, command.referee)
    audience, text = command.audience, command.text.strip()
    if audience not in (*state.sides, BOTH, REFEREE):
        raise IllegalCommand(f"Say who may read it: {', '.join((*state.sides, BOTH, REFEREE))}")
    if not text:
        raise IllegalCommand("Write the rule out")
    state.referee_rules = (*state.referee_rules, RefereeRule(audience=audience, text=text))
    told = f"Referee: a special rule {_for(audience)}: {text}"
    if audience == BOTH:
        log.emit("referee", told)
    else:
        log.emit("referee", told, side=audience if audience in state.sides else None, public="")


def send_briefing(state: GameState, command: RefereeBriefing, log: EventLog) -> None:
    """Intelligence for one side: nobody else reads a word of it."""
    check_referee(state, command.referee)
    if command.side not in state.sides:
        raise IllegalCommand(f"Name the side to brief: {' or '.join(state.sides)}")
    if not command.text.strip():
        raise IllegalCommand("Write the briefing out")
    told = f"Intelligence for {command.side}: {command.text.strip()}"
    log.emit("briefing", told, side=command.side, public="")


def objective_known_to(objective: Objective, viewer: str | None) -> bool:
    """Whether ``viewer`` (a side, the referee, or None for the channel) may know the objective."""
    return objective.side is None or viewer == REFEREE or viewer == objective.side


def rule_known_to(rule: RefereeRule, viewer: str | None) -> bool:
    return rule.audience == BOTH or viewer == REFEREE or viewer == rule.audience


def prep_text(state: GameState, viewer: str | None) -> str:
    """The game's special rules and objectives that ``viewer`` may read."""
    lines = []
    if state.scenario:
        scenario = find_scenario(state.scenario)
        named = ", ".join(rule.replace("_", " ") for rule in scenario.special_rules)
        lines.append(f"{scenario.title} (p. {scenario.page}) special rules: {named}")
    rules = [rule for rule in state.referee_rules if rule_known_to(rule, viewer)]
    if rules:
        lines.append("The referee's special rules:")
        lines += [f"- {_label(rule.audience, viewer)}{rule.text}" for rule in rules]
    objectives = [o for o in state.objectives if objective_known_to(o, viewer)]
    if objectives:
        lines.append("Objectives:")
        lines += [
            f"- {_label(o.side or BOTH, viewer)}{o.id} at {o.position}"
            + (f", held by {o.held_by}" if o.held_by else "")
            for o in objectives
        ]
    return "\n".join(lines) or "No special rules or objectives in this game"


def _for(audience: str) -> str:
    return {BOTH: "for both sides", REFEREE: "for the referee only"}.get(audience, f"for {audience} only")


def _label(audience: str, viewer: str | None) -> str:
    """Who else reads it, said to the referee (players know it is theirs)."""
    return f"({_for(audience)}) " if viewer == REFEREE and audience != BOTH else ""
