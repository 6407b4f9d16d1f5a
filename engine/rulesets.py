"""Rule sets behind one interface, chosen when a game is created. The Iron Cross 2015 rulebook
(``core_2015``, the default) is :class:`RuleSet` itself; every other rule set is a package under
:mod:`engine.variants` that subclasses it and adds itself to the registry with
:func:`register_rule_set` (the core never names one).

The game flow asks the game's rule set wherever rule sets differ; everything else (the turn,
tokens, initiative, the reaction sequence, movement, morale markers, break points) is shared.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import geometry
from engine.commands import ChooseTarget, Command, Fire, RemoveMarkers
from engine.dice import DiceSource
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.game_state import Choice, GameState
from engine.rules.activation import (
    TestScore,
    command_radius,
    reaction_score_needed,
    reactivation_score_needed,
)
from engine.rules.armour import kaboom_radius
from engine.rules.firing import LIGHT_MORTAR, Shot, firing_command_mortar
from engine.rules.shot_resolution import ShotResult, resolve_shot
from engine.state import Point, TerrainFeature, Unit


@dataclass(frozen=True)
class TableMark:
    """A mark of a rule set's own on the table (e.g. an indirect-fire marker), as drawn."""

    kind: str
    at: Point
    side: str


SNIPER_SPOT_RANGE = 4.0  # p. 20


class RuleSet:
    """The Iron Cross 2015 rulebook."""

    name = "core_2015"
    title = "Iron Cross 2015"
    # the actions a unit may take (p. 5), by their names in :mod:`engine.actions.registry`
    actions: tuple[str, ...] = ("move", "fire", "embark", "disembark", "smoke")

    # the troop qualities a force may give a unit (the 2015 rules have none)
    qualities: tuple[str, ...] = ()

    def unit(self, unit: Unit) -> Unit:
        """A unit as this rule set fields it."""
        return unit

    def own_units(self, nation: str) -> dict[str, str]:
        """The units this rule set lists for a nation beyond the 2015 order of battle, each with
        the order of battle entry it counts as for points and the force rules (none here)."""
        return {}

    def sides_without_own_units(self, state: GameState) -> list[str]:
        """The sides of a game whose nation this rule set lists no units of its own for, so that
        they fight with their 2015 statistics (the 2015 rules: every side, nothing to tell)."""
        return []

    def force_unit_problem(self, nation: str, entry: str, *, iaw: bool, quality: Sequence[str]) -> str | None:
        """What this rule set forbids about a force's unit bought as ``entry`` with these
        upgrades, beyond the orders of battle (the 2015 rules: troop quality, which they lack)."""
        if quality:
            return f"troop quality is not part of {self.title}"
        return None

    def fielded(self, unit: Unit, entry: str, quality: Sequence[str]) -> Unit:
        """A force's unit as this rule set fields it: ``entry`` is the name the force bought it
        under (the 2015 one, or one of :meth:`own_units`), ``quality`` its troop qualities."""
        return self.unit(unit)

    def reactivation_score(self, unit: Unit, tokens: int, *, falling_back: bool) -> TestScore:
        return reactivation_score_needed(unit, tokens, falling_back=falling_back)

    def reaction_score(
        self,
        unit: Unit,
        *,
        enemy: Unit | None,
        enemy_started_in_cover: bool,
        falling_back: bool,
    ) -> TestScore:
        return reaction_score_needed(
            unit,
            unit.tokens,
            enemy_is_foot_soldiers=enemy is not None and not enemy.is_vehicle,
            enemy_mounted=enemy is not None and enemy.embarked_in is not None,
            enemy_started_in_cover=enemy_started_in_cover,
            falling_back=falling_back,
        )

    def extra_tokens(self, units: list[Unit], log: EventLog) -> int:
        """Tokens a side's ``units`` gain or lose beyond their count (none in the 2015 rules)."""
        return 0

    def begin_turn(self, state: GameState) -> None:
        """What this rule set clears away as a turn begins, beyond the shared steps (p. 4)."""

    def end_of_turn(self, state: GameState, log: EventLog) -> None:
        """What this rule set clears away at the end of a turn beyond the shared steps (p. 12:
        the smoke a unit laid goes, which the game flow does for both rule sets)."""

    def handlers(self) -> dict[type, Callable[[GameState, Any, EventLog], None]]:
        """How the game carries out the commands only this rule set has (the 2015 rules: none)."""
        return {}

    def checks(self) -> dict[type, Callable[[GameState, Any], object]]:
        """The checks its handlers run before any die, of the commands only this rule set has
        that roll dice (:mod:`engine.legality`; the 2015 rules: none)."""
        return {}

    def infantry_nearby_spoils_aim(self, firer: Unit) -> bool:
        """Whether unscreened enemy infantry near the firer counts against its shot (p. 10:
        against a vehicle's only)."""
        return firer.is_vehicle

    def turret_turns(self, shot: Shot) -> bool:
        """Whether the shot's weapon turns a turret to bear (p. 8): every gun of a turreted vehicle."""
        return shot.firer.is_vehicle and shot.firer.profile.turret

    def fire_problem(self, state: GameState, shot: Shot) -> str | None:
        """Why this rule set forbids a shot the 2015 checks allow, or None."""
        return None

    def observed(self, state: GameState, viewer: Unit, target: Unit) -> bool:
        """Whether a unit in line of sight is seen (the 2015 rules: always)."""
        return True

    def sniper_spotted_by(
        self, state: GameState, enemy: Unit, sniper: Unit, decoy: Point | None = None
    ) -> str | None:
        """Why ``enemy`` spots a hidden sniper team (or, given ``decoy``, finds its dummy marker
        there), or None (p. 20: any unit within 4" spots it)."""
        gap = geometry.distance(enemy, sniper) if decoy is None else geometry.distance_to_point(enemy, decoy)
        if gap <= SNIPER_SPOT_RANGE:
            return f'{enemy.name} is within 4"'
        return None

    def sight_clear(
        self, state: GameState, viewer: Unit, target: Unit, terrain: Sequence[TerrainFeature]
    ) -> bool:
        """Whether the terrain leaves a line of sight between their centres (p. 8)."""
        return geometry.line_of_sight(viewer.position, target.position, terrain)

    def firing_post(self, state: GameState, firer: Unit, fire: Fire, target: Unit) -> tuple[Unit, bool]:
        """Where the firer fires from, and whether getting there counts as moving: in the 2015
        rules, where it stands."""
        if fire.face is not None or fire.storey is not None:
            having = " and ".join(
                r.title for r in RULE_SETS.values() if type(r).firing_post is not RuleSet.firing_post
            )
            raise IllegalCommand(f"Firing out of a building's side and storey is part of the {having}")
        return self.weapon_firer(firer, fire), False

    def weapon_firer(self, firer: Unit, fire: Fire) -> Unit:
        """The firer as the weapon it names fires: a British infantry command unit's 2" mortar
        as a mortar team (p. 22), seeing what its friends see too (p. 20)."""
        if fire.weapon != LIGHT_MORTAR:
            return firer
        mortar = firing_command_mortar(firer)
        if mortar is None:
            raise IllegalCommand(
                f'{firer.name} has no light mortar: British infantry command units have a 2" mortar (p. 22)'
            )
        return mortar

    def resolve_shot(self, shot: Shot, dice: DiceSource) -> ShotResult:
        return resolve_shot(shot, dice)

    def after_shot(self, state: GameState, shot: Shot, result: ShotResult, log: EventLog) -> None:
        """What follows a shot beyond its markers (the 2015 rules: nothing)."""

    def explosion_radius(self, small_table: bool) -> float:
        return kaboom_radius(small_table)

    def marker_bearer(self, target: Unit, passengers: list[Unit]) -> Unit:
        """Who takes the markers of a shot at ``target`` (p. 12: the transport itself)."""
        return target

    def reunite(self, unit: Unit, transport: Unit) -> None:
        """A unit gets back into its transport (p. 9: nothing changes)."""

    def markers_rallied(self, unit: Unit, roll: int) -> int:
        """Markers a Company Morale Test of 3-5 takes off the chosen unit (p. 13: one)."""
        return 1

    def command_radius(self, small_table: bool) -> float:
        return command_radius(small_table)

    def move_and_fire_problem(self, unit: Unit) -> str | None:
        """Why the unit may not both move and fire in one activation, or None."""
        return None

    def marks_seen(self, state: GameState, audience: str | None) -> Sequence[TableMark]:
        """The marks of this rule set's own on the table that ``audience`` sees (:mod:`engine.view`;
        the 2015 rules have none)."""
        return ()

    def cite(self, text: str, section: str) -> str:
        """A result's message as this rule set words it (the 2015 rules name no section)."""
        return text

    def answers(self, choice: Choice) -> list[Command]:
        """Every command that answers the choice the game waits for: under the 2015 rules, the
        unit that loses its markers (p. 23), or a new target for a shot whose target is gone, or
        none (p. 7)."""
        if choice.kind == "remove_markers":
            return [RemoveMarkers(side=choice.side, unit=unit) for unit in choice.options]
        if choice.kind == "choose_target":
            return [ChooseTarget(side=choice.side, target=target) for target in (*choice.options, None)]
        return []


RULE_SETS: dict[str, RuleSet] = {RuleSet.name: RuleSet()}


def register_rule_set(rules: RuleSet) -> RuleSet:
    """Offer a rule set to new games (each variant package calls this once, on import)."""
    if rules.name in RULE_SETS:
        raise ValueError(f"Two rule sets are called {rules.name}")
    RULE_SETS[rules.name] = rules
    return rules


def rule_set_choices() -> dict[str, str]:
    """Every rule set a game may be played under: its name, and its title for players."""
    return {rules.name: rules.title for rules in RULE_SETS.values()}


def rules_of(state: GameState) -> RuleSet:
    return RULE_SETS[state.ruleset]


def find_rule_set(name: str) -> RuleSet:
    """A rule set by its name, as players type it (dashes or underscores, any case)."""
    key = name.strip().casefold().replace("-", "_")
    if key not in RULE_SETS:
        raise IllegalCommand(f"There is no rule set {name!r}: choose {' or '.join(RULE_SETS)}")
    return RULE_SETS[key]


def with_rule_set(state: GameState, name: str) -> GameState:
    """The game, not yet started, played under the named rule set."""
    rules = find_rule_set(name)
    game = state.model_copy(deep=True)
    game.ruleset = rules.name
    game.units = {unit_id: rules.unit(unit) for unit_id, unit in game.units.items()}
    game.add_rule_set_parts()
    return game
