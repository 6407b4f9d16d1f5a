"""The referee prepares the scenario (2015 rulebook p. 25): the sides may have different
objectives, special rules may be known to one side, to both or to the referee alone, and each
side may be fed intelligence before or during the game. The referee may also limit the force a
side brings and draw the zone it sets up in.

What only one side may know goes in an event with that side's name, told to nobody else
(:data:`~engine.view.UNTOLD`); what only the referee may know goes in an event nobody else is told.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.commands import (
    RefereeBriefing,
    RefereeDeploymentZone,
    RefereeForceGuideline,
    RefereeObjective,
    RefereeSpecialRule,
)
from engine.deployment.plan import RefereeZone
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.forces import units_points
from engine.game_state import GameState
from engine.referee import check_referee
from engine.scenarios.book import find_scenario
from engine.state import ForceGuideline, Objective, Phase, RefereeRule, Unit
from engine.view import EVERYONE, REFEREE, UNTOLD, knows_objective, knows_rule, knows_secrets_of
from engine.wording import side_name


def add_objective(state: GameState, command: RefereeObjective, log: EventLog) -> None:
    """A new objective on the table, for one side or for both."""
    check_referee(state, command.referee)
    name, side, at = command.id.strip(), command.side, command.at
    if not name:
        raise IllegalCommand("Name the objective (id:)")
    if any(o.id.casefold() == name.casefold() for o in state.objectives):
        raise IllegalCommand(f"There is already an objective called {name}")
    if side is not None and side not in state.sides:
        raise IllegalCommand(f"Name the side it is for: {', '.join(state.sides)} or {EVERYONE}")
    if not (0 <= at.x <= state.table.width and 0 <= at.y <= state.table.depth):
        raise IllegalCommand(f"{at} is off the table")
    state.objectives.append(Objective(id=name, position=at, side=side))
    if side is None:
        log.emit("referee", f"Referee: a new objective, {name}, at {at}")
    else:
        log.emit(
            "referee",
            f"Referee: a new objective for {side_name(side)}, {name}, at {at}",
            side=side,
            kept=UNTOLD,
        )


def add_special_rule(state: GameState, command: RefereeSpecialRule, log: EventLog) -> None:
    """A special rule for this game, read only by its audience (and the referee)."""
    check_referee(state, command.referee)
    audience, text = command.audience, command.text.strip()
    if audience not in (*state.sides, EVERYONE, REFEREE):
        raise IllegalCommand(f"Say who may read it: {', '.join((*state.sides, EVERYONE, REFEREE))}")
    if not text:
        raise IllegalCommand("Write the rule out")
    state.referee_rules = (*state.referee_rules, RefereeRule(audience=audience, text=text))
    told = f"Referee: a special rule {_for(audience)}: {text}"
    if audience == EVERYONE:
        log.emit("referee", told)
    else:
        log.emit("referee", told, side=audience if audience in state.sides else None, kept=UNTOLD)


def send_briefing(state: GameState, command: RefereeBriefing, log: EventLog) -> None:
    """Intelligence for one side: nobody else reads a word of it."""
    check_referee(state, command.referee)
    if command.side not in state.sides:
        raise IllegalCommand(f"Name the side to brief: {' or '.join(state.sides)}")
    if not command.text.strip():
        raise IllegalCommand("Write the briefing out")
    told = f"Intelligence for {side_name(command.side)}: {command.text.strip()}"
    log.emit("briefing", told, side=command.side, kept=UNTOLD)


def set_force_guideline(state: GameState, command: RefereeForceGuideline, log: EventLog) -> None:
    """Force guidelines per side (2015 rulebook p. 25): the most points a side's force may cost,
    and a guideline in words for it, set before the force joins a scenario game; a new guideline
    for the side replaces the old."""
    check_referee(state, command.referee)
    side, text = command.side, command.text.strip()
    if side not in state.sides:
        raise IllegalCommand(f"Name the side: {' or '.join(state.sides)}")
    if state.planned_scenario is None:
        raise IllegalCommand("Force guidelines are set for a scenario game, before the forces join")
    if state.units_of(side):
        raise IllegalCommand(f"{side_name(side, start=True)} have already brought their force")
    if command.points < 1:
        raise IllegalCommand(f"Give the points {side_name(side)} may spend: a whole number above 0")
    guideline = ForceGuideline(side=side, points=command.points, text=text)
    state.force_guidelines = (*(g for g in state.force_guidelines if g.side != side), guideline)
    told = f"Referee: {side_name(side)} bring a force of at most {command.points} points" + (
        text and f": {text}"
    )
    log.emit("referee", told, side=side, kept=UNTOLD)


def check_force_guideline(state: GameState, side: str, units: Sequence[Unit]) -> None:
    """A force brought to ``side`` keeps within the referee's points for it, counted with the
    units its team-mates brought before."""
    guideline = force_guideline(state, side)
    if guideline is None:
        return
    points = units_points([*state.units_of(side), *units])
    if points > guideline.points:
        whose = f"{side_name(side, start=True)}' forces come" if state.units_of(side) else "this force comes"
        raise IllegalCommand(
            f"The referee allows {side_name(side)} at most {guideline.points} points; {whose} to {points}"
        )


def force_guideline(state: GameState, side: str) -> ForceGuideline | None:
    return next((g for g in state.force_guidelines if g.side == side), None)


def set_deployment_zone(state: GameState, command: RefereeDeploymentZone, log: EventLog) -> None:
    """Deployment zones set by the referee (2015 rulebook p. 25): the rectangle a side sets up
    in, in place of the scenario's area, drawn inside the table before set-up begins. A new zone
    for the side replaces the old."""
    check_referee(state, command.referee)
    side = command.side
    if side not in state.sides:
        raise IllegalCommand(f"Name the side: {' or '.join(state.sides)}")
    plan = state.deployment
    if state.planned_scenario is None and plan is None:
        raise IllegalCommand("Deployment zones are for a scenario game that has not been set up")
    begun = plan is not None and (plan.placed or any(p.done for p in plan.sides.values()))
    if state.phase is not Phase.SETUP or begun:
        raise IllegalCommand("Set-up has begun: deployment zones are drawn before the first unit goes down")
    x1, x2 = sorted((command.x1, command.x2))
    y1, y2 = sorted((command.y1, command.y2))
    zone = RefereeZone(side=side, x1=x1, y1=y1, x2=x2, y2=y2)
    width, depth = state.table.width, state.table.depth
    if x1 < 0 or y1 < 0 or x2 > width or y2 > depth:
        raise IllegalCommand(f'The zone {zone} runs off the {width:g}" by {depth:g}" table')
    if x1 == x2 or y1 == y2:
        raise IllegalCommand(f"The zone {zone} has no room: give it width and depth")
    state.deployment_zones = (*(z for z in state.deployment_zones if z.side != side), zone)
    log.emit("referee", f"Referee: {side_name(side)} set up within {zone}", side=side, kept=UNTOLD)


def deployment_zone(state: GameState, side: str) -> RefereeZone | None:
    """The zone the referee drew for ``side``, if any."""
    return next((z for z in state.deployment_zones if z.side == side), None)


def prep_text(state: GameState, viewer: str | None) -> str:
    """The game's special rules, objectives, force guidelines and deployment zones that ``viewer``
    may read."""
    lines = []
    if state.scenario:
        scenario = find_scenario(state.scenario)
        named = ", ".join(rule.replace("_", " ") for rule in scenario.special_rules)
        lines.append(f"{scenario.title} (p. {scenario.page}) special rules: {named}")
    rules = [rule for rule in state.referee_rules if knows_rule(rule, viewer)]
    if rules:
        lines.append("The referee's special rules:")
        lines += [f"- {_label(rule.audience, viewer)}{rule.text}" for rule in rules]
    objectives = [o for o in state.objectives if knows_objective(o, viewer)]
    if objectives:
        lines.append("Objectives:")
        lines += [
            f"- {_label(o.side or EVERYONE, viewer)}{o.id} at {o.position}"
            + (f", held by {o.held_by}" if o.held_by else "")
            for o in objectives
        ]
    guidelines = [g for g in state.force_guidelines if knows_secrets_of(g.side, viewer)]
    if guidelines:
        lines.append("Force guidelines:")
        lines += [
            f"- {_label(g.side, viewer)}at most {g.points} points" + (g.text and f": {g.text}")
            for g in guidelines
        ]
    zones = [z for z in state.deployment_zones if knows_secrets_of(z.side, viewer)]
    if zones:
        lines.append("Deployment zones:")
        lines += [f"- {_label(z.side, viewer)}{z}" for z in zones]
    return "\n".join(lines) or "No special rules or objectives in this game"


def _for(audience: str) -> str:
    named = {EVERYONE: "for both sides", REFEREE: "for the referee only"}
    return named.get(audience, f"for {side_name(audience)} only")


def _label(audience: str, viewer: str | None) -> str:
    """Who else reads it, said to the referee (players know it is theirs)."""
    return f"({_for(audience)}) " if viewer == REFEREE and audience != EVERYONE else ""
