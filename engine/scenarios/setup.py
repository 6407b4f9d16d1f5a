"""Setting a game up for one of the book's scenarios (pp. 26-31): roles, break points, length,
reserves, who starts, who counts as moved, and the attacker's choice in Breakthrough."""

from __future__ import annotations

from typing import Literal

from engine.deployment.areas import DeploymentAreas
from engine.deployment.hidden import add_dummy_markers
from engine.deployment.placing import plan_deployment
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.rules.victory import force_break_point
from engine.scenarios.book import Scenario
from engine.state import Objective
from engine.tables.scenario_ground import add_objectives_for_points

AttackerChoice = Literal["aggressive_command", "preliminary_bombardment"]


def set_up_scenario(
    state: GameState,
    scenario: Scenario,
    roles: dict[str, str],
    *,
    attacker_choice: AttackerChoice | None = None,
    plotted: bool = False,
    areas: DeploymentAreas = "edges",
) -> GameState:
    """A copy of the game (in its setup phase) with the scenario's rules in force. ``roles``
    gives each side its role in the briefing (first/second, or attacker/defender)."""
    game = state.model_copy(deep=True)
    apply_scenario(game, scenario, roles, attacker_choice=attacker_choice, plotted=plotted, areas=areas)
    return game


def check_attacker_choice(scenario: Scenario, attacker_choice: AttackerChoice | None) -> None:
    """Breakthrough's attacker picks aggressive command or a preliminary bombardment (p. 31);
    no other scenario has the choice."""
    wants_choice = "aggressive_command_or_preliminary_bombardment" in scenario.special_rules
    if wants_choice != (attacker_choice is not None):
        raise IllegalCommand(
            f"In {scenario.title} the attacker chooses aggressive command or a preliminary bombardment"
            if wants_choice
            else f"{scenario.title} has no aggressive command or preliminary bombardment"
        )


def apply_scenario(
    game: GameState,
    scenario: Scenario,
    roles: dict[str, str],
    *,
    attacker_choice: AttackerChoice | None = None,
    plotted: bool = False,
    areas: DeploymentAreas = "edges",
) -> list[Objective]:
    """Put the scenario's rules in force on the game itself (see :func:`set_up_scenario`);
    ``plotted`` has both sides set up at once, in secret, instead of turn about; ``areas`` shapes
    the deployment areas (:mod:`engine.deployment.areas`). Returns the
    objectives added for forces over 1,000 points (Meeting Engagement, p. 28)."""
    if sorted(roles.values()) != sorted(scenario.roles) or set(roles) != set(game.sides):
        raise IllegalCommand(f"{scenario.title} needs one side as each of: {', '.join(scenario.roles)}")
    check_attacker_choice(scenario, attacker_choice)
    by_role = {role: side for side, role in roles.items()}
    game.scenario = scenario.id
    game.attacker = by_role.get("attacker")
    game.attacker_starts = scenario.initiative == "attacker"
    game.last_turn = scenario.turns
    game.random_length = scenario.random_operation_length
    for side_name, role in roles.items():
        side = game.sides[side_name]
        units = game.units_of(side_name)
        side.break_point = force_break_point(
            sum(u.profile.break_points for u in units), scenario.break_fraction[role]
        )
        side.reserves_from_turn = scenario.reserves_from_turn
        side.reserves_half_first = scenario.reserves_half_first
        side.extra_token_dice = scenario.defender_extra_tokens and role == "defender"
        if role == "attacker" and attacker_choice == "aggressive_command":
            side.aggressive_command = True
        if role == "defender" and attacker_choice == "preliminary_bombardment":
            side.bombarded = True
        if role == "defender" and "hidden_deployment" in scenario.special_rules:
            units += [game.units[u] for u in add_dummy_markers(game, side_name)]
            for unit in units:
                unit.hidden = True  # the enemy learns nothing of the force until it is revealed
        moved = scenario.counts_as_moved == "all" or role == "attacker"
        for unit in units:
            unit.moved_this_turn = moved
            unit.in_reserve = scenario.command_unit_in_reserve and unit.is_command
            unit.dug_in = role == "defender" and "dug_in_and_waiting" in scenario.special_rules
    game.deployment = plan_deployment(game, scenario, roles, plotted=plotted, areas=areas)
    if plotted:  # nothing of either force is shown until both have set up
        for unit in game.units.values():
            unit.hidden = True
    for plan in game.deployment.sides.values():
        for unit_id in plan.waiting:
            game.units[unit_id].in_reserve = True  # off the table until set up
    return add_objectives_for_points(game, scenario)
