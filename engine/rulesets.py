"""Rule sets behind one interface, chosen when a game is created: the Iron Cross 2015 rulebook
(``core_2015``, the default) and the House Rules V1.0 (``house_v1``).

The game flow asks the game's rule set wherever the two differ; everything else (the turn,
tokens, initiative, the reaction sequence, movement, morale markers, break points) is shared,
as the house rules keep the core system (House Rules V1.0, s. 1).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import geometry
from engine.commands import Fire
from engine.dice import DiceSource
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.game_state import GameState
from engine.house.activation import (
    COMMAND_RETHROW_RANGE,
    Purpose,
    company_morale_markers_removed,
    quality_token_change,
    quality_token_dice,
)
from engine.house.activation import (
    reaction_score_needed as house_reaction_score,
)
from engine.house.activation import (
    reactivation_score_needed as house_reactivation_score,
)
from engine.house.citation import cited, house_rule
from engine.house.firing import EXPLOSION_RADIUS, Weapon, transport_mg_crewed
from engine.house.posts import moves_to_post, post_problem, posted_firer
from engine.house.shot import house_fire, resolve_house_shot, traits_of
from engine.house.sight import fire_through_problem, house_sight_clear, troops_in_the_way
from engine.house.units import house_equivalent
from engine.house.visibility import can_observe, observed_as
from engine.profiles import Experience, Special, TroopType
from engine.rules.activation import (
    TestScore,
    command_radius,
    reaction_score_needed,
    reactivation_score_needed,
)
from engine.rules.armour import kaboom_radius
from engine.rules.firing import LIGHT_MORTAR, Shot, firing_command_mortar
from engine.rules.shot_resolution import ShotResult, resolve_shot
from engine.smoke_screens import blocked_by_smoke, thin_smoke
from engine.state import CoverKind, Point, TerrainFeature, Unit

SNIPER_SPOT_RANGE = 4.0  # p. 20


class RuleSet:
    """The Iron Cross 2015 rulebook."""

    name = "core_2015"
    title = "Iron Cross 2015"
    # the actions a unit may take (p. 5), by their names in :mod:`engine.actions.registry`
    actions: tuple[str, ...] = ("move", "fire", "embark", "disembark", "smoke")

    def unit(self, unit: Unit) -> Unit:
        """A unit as this rule set fields it."""
        return unit

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

    def end_of_turn(self, state: GameState, log: EventLog) -> None:
        """What this rule set clears away at the end of a turn beyond the shared steps (p. 12:
        the smoke a unit laid goes, which the game flow does for both rule sets)."""

    def infantry_nearby_spoils_aim(self, firer: Unit) -> bool:
        """Whether unscreened enemy infantry near the firer counts against its shot (p. 10:
        against a vehicle's only)."""
        return firer.is_vehicle

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
            raise IllegalCommand("Firing out of a building's side and storey is part of the House Rules V1.0")
        return self.weapon_firer(firer, fire), False

    def weapon_firer(self, firer: Unit, fire: Fire) -> Unit:
        """The firer as the weapon it names fires: a British infantry command unit's 2" mortar
        as a mortar team (p. 22), seeing what its friends see too (p. 20)."""
        if fire.weapon != LIGHT_MORTAR:
            return firer
        mortar = firing_command_mortar(firer)
        if mortar is None:
            raise IllegalCommand(
                f"{firer.name} has no light mortar: British infantry command units have a 2\" mortar (p. 22)"
            )
        return mortar

    def resolve_shot(self, shot: Shot, dice: DiceSource) -> ShotResult:
        return resolve_shot(shot, dice)

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

    def cite(self, text: str, section: str) -> str:
        """A result's message as this rule set words it (the 2015 rules name no section)."""
        return text


class HouseRules(RuleSet):
    """The Iron Cross House Rules V1.0 and their quick reference."""

    name = "house_v1"
    title = "House Rules V1.0"
    # s. 4: moves keep out of buildings and 3" from the enemy, and troops go into buildings;
    # s. 5: smoke rounds fired at a spot, HE at buildings, indirect fire; s. 6: close combat
    actions = (
        "house_move",
        "fire",
        "embark",
        "disembark",
        "smoke_round",
        "close_combat",
        "request_fire",
        "bombard",
        "enter_building",
        "leave_building",
        "shell_building",
    )

    def unit(self, unit: Unit) -> Unit:
        """The quick reference's statistics where it lists the unit (House Rules V1.0, s. 2)."""
        return unit.model_copy(update={"profile": house_equivalent(unit.profile)})

    def reactivation_score(self, unit: Unit, tokens: int, *, falling_back: bool) -> TestScore:
        purpose = Purpose.FALL_BACK if falling_back else Purpose.ACTION
        score = house_reactivation_score(traits_of(unit), tokens, unit.morale_markers, purpose)
        return _naming_the_rule(score, "3.31")

    def reaction_score(
        self,
        unit: Unit,
        *,
        enemy: Unit | None,
        enemy_started_in_cover: bool,
        falling_back: bool,
    ) -> TestScore:
        """s. 3: the reaction table replaces the 2015 vehicle and scout modifiers."""
        purpose = Purpose.FALL_BACK if falling_back else Purpose.ACTION
        score = house_reaction_score(traits_of(unit), unit.tokens, unit.morale_markers, purpose)
        return _naming_the_rule(score, "3.4")

    def extra_tokens(self, units: list[Unit], log: EventLog) -> int:
        """s. 3: a d6 per token a veteran or inexperienced unit brings; each 6 adds or takes one."""
        change = 0
        for unit in units:
            experience = traits_of(unit).experience
            if experience is Experience.REGULAR:
                continue
            rolls = [
                log.d6(f"{experience.value} tokens, {unit.name}")
                for _ in range(quality_token_dice(unit.is_command))
            ]
            gained = quality_token_change(experience, rolls)
            rolled = ", ".join(map(str, rolls))
            change += gained
            log.emit(
                "tokens",
                cited(f"{unit.name} ({experience.value}) rolls {rolled}: {gained:+d} token(s)", "3.1"),
                unit.id,
                side=unit.side,
            )
        return change

    def end_of_turn(self, state: GameState, log: EventLog) -> None:
        """s. 5: smoke screens thin with the wind."""
        thin_smoke(state, log)

    def infantry_nearby_spoils_aim(self, firer: Unit) -> bool:
        """s. 5: the -1 for AP and HE fire applies to any firer."""
        return True

    def fire_problem(self, state: GameState, shot: Shot) -> str | None:
        """s. 5: the firer must have a weapon for that target, within its range; s. 2: a
        transport's MG needs a crew; s. 6: nobody fires out of a building both sides hold; s. 5
        Firing from buildings: the side and storey it fires from; s. 8: troops in the way."""
        crewless = mg_crew_problem(state, shot.firer)
        if crewless:
            return crewless
        inside = shot.firer.in_building
        if inside and any(
            u.in_building == inside and u.side != shot.firer.side for u in state.units.values()
        ):
            return f"both sides are inside {inside}: nobody fires out of it"
        try:
            fire = house_fire(shot)
        except IllegalCommand as problem:
            return str(problem)
        target = shot.target
        in_the_way = troops_in_the_way(
            state, shot.firer, target.position, geometry.footprint(target), {shot.firer.id, target.id}
        )
        return self.firing_out_problem(state, shot) or fire_through_problem(
            state,
            shot.firer,
            in_the_way,
            gun=fire.weapon is Weapon.GUN,
            at_vehicle_or_building=target.is_vehicle or target.in_building is not None,
        )

    def firing_out_problem(self, state: GameState, shot: Shot) -> str | None:
        """s. 5 Firing from buildings: the side and storey must be the building's, the target in
        that side's arc and in view from that storey; and a support squad may not take a post
        that counts as moving, as it may not move and fire (s. 4)."""
        posted, target = shot.firer, shot.target
        problem = post_problem(state, posted, target)
        post = posted.firing_post
        if problem or post is None or posted.in_building is None:
            return problem
        where = f"{posted.in_building}'s {post}"
        moving = moves_to_post(state, posted.id, posted.in_building, post)
        support_squad = self.move_and_fire_problem(posted)
        if moving and support_squad:
            return f"{support_squad} (firing from {where} counts as moving)"
        if not house_sight_clear(state, posted, target, state.terrain, storey=post.storey):
            return f"{target.name} cannot be seen from {where}"
        return None

    def sight_clear(
        self, state: GameState, viewer: Unit, target: Unit, terrain: Sequence[TerrainFeature]
    ) -> bool:
        """s. 8 Blocking terrain: by the height of each piece, and from upper storeys and hills."""
        return house_sight_clear(state, viewer, target, terrain)

    def weapon_firer(self, firer: Unit, fire: Fire) -> Unit:
        """s. 5 Light mortars: a squad's light mortar is one of its weapons (:func:`house_fire`)."""
        return firer

    def firing_post(self, state: GameState, firer: Unit, fire: Fire, target: Unit) -> tuple[Unit, bool]:
        """s. 5 Firing from buildings: a unit inside fires from a side and storey of it."""
        return posted_firer(state, firer, fire, target)

    def resolve_shot(self, shot: Shot, dice: DiceSource) -> ShotResult:
        return resolve_house_shot(shot, dice)

    def observed(self, state: GameState, viewer: Unit, target: Unit) -> bool:
        """s. 8: a unit that moved or fired this turn is seen wherever there is line of sight
        (a sniper only if it rapid moved); a static, silent one only within the observation
        table's distance, 6" more for a static observer with the Spotter function (company
        commands always have it). Smoke blocks the sight line (terrain: :meth:`sight_clear`)."""
        if target.profile.has(Special.SNIPER):  # s. 8: concealed unless it rapid moves, or is revealed
            active = target.rapid_moved or not target.hidden
        else:
            active = target.moved_this_turn or target.fired_this_turn
        return self.observes(state, viewer, target, moved_or_fired=active)

    def observes(self, state: GameState, viewer: Unit, target: Unit, *, moved_or_fired: bool) -> bool:
        """s. 8 Observation distances: whether the viewer observes the target, seen wherever there
        is line of sight if it ``moved_or_fired``, else within the table's distance."""
        if blocked_by_smoke(state, viewer.position, target.position):
            return False
        spotter = (traits_of(viewer).spotter or viewer.is_command) and not viewer.moved_this_turn
        hull_down = geometry.is_hull_down(target, viewer.position, state.terrain)
        return can_observe(
            geometry.distance(viewer, target),
            observed_as(target.profile, traits_of(target), hull_down=hull_down),
            in_cover=geometry.cover_for(target, viewer.position, state.terrain) is not CoverKind.OPEN,
            moved_or_fired=moved_or_fired,
            spotter=spotter,
        )

    def sniper_spotted_by(
        self, state: GameState, enemy: Unit, sniper: Unit, decoy: Point | None = None
    ) -> str | None:
        """s. 8 Snipers: a hidden sniper (or its dummy marker at ``decoy``) is observed as a
        static, silent unit: by an enemy with a line of sight to it within 4" in the open or 1"
        in cover, 6" more for a static spotter (the 2015 flat 4" gives way)."""
        marker = (
            sniper if decoy is None else sniper.model_copy(update={"position": decoy, "in_building": None})
        )
        terrain = tuple(f for f in state.terrain if f.id not in (enemy.in_building, marker.in_building))
        in_view = self.sight_clear(state, enemy, marker, terrain)
        if in_view and self.observes(state, enemy, marker, moved_or_fired=False):
            return cited(f"{enemy.name} observes it", "8.2")
        return None

    def explosion_radius(self, small_table: bool) -> float:
        return EXPLOSION_RADIUS

    def marker_bearer(self, target: Unit, passengers: list[Unit]) -> Unit:
        """s. 3 and 5 Transports: a loaded transport and its unit are one, and the markers of a
        shot at it go on the unit it carries."""
        return passengers[0] if passengers else target

    def reunite(self, unit: Unit, transport: Unit) -> None:
        """s. 3 Transports: back together, they keep the markers of whichever part had more."""
        unit.morale_markers = max(unit.morale_markers, transport.morale_markers)
        transport.morale_markers = 0

    def markers_rallied(self, unit: Unit, roll: int) -> int:
        """s. 7: veterans have two markers taken off on a 5."""
        return company_morale_markers_removed(roll, traits_of(unit).experience is Experience.VETERAN) or 1

    def command_radius(self, small_table: bool) -> float:
        """s. 3: command rethrows reach 6", on any table."""
        return COMMAND_RETHROW_RANGE

    def move_and_fire_problem(self, unit: Unit) -> str | None:
        """s. 4: support squads, snipers and flamethrowers among them, may not move and fire."""
        if unit.is_infantry_or_support and traits_of(unit).troop_type is not TroopType.INFANTRY:
            return f"{unit.name} is a support squad: it may move or fire in one activation, not both"
        return None

    def cite(self, text: str, section: str) -> str:
        """Every result of a house-rules game names the section that decided it (issue 6)."""
        return cited(text, section)


def _naming_the_rule(score: TestScore, section: str) -> TestScore:
    """A test's score with the house-rules section that sets it named last among its reasons."""
    return TestScore(score.needed, (*score.reasons, house_rule(section)))


def mg_crew_problem(state: GameState, vehicle: Unit) -> str | None:
    """House Rules V1.0, s. 2: why a transport's machine gun may not fire for want of a crew
    (neither carrying its unit nor with a friendly infantry squad adjacent), or None."""
    if not (vehicle.profile.has(Special.TRANSPORT) and traits_of(vehicle).mg):
        return None
    carrying = any(u.embarked_in == vehicle.id and not u.destroyed for u in state.units.values())
    squads = [
        geometry.distance(vehicle, u)
        for u in state.units.values()
        if u.side == vehicle.side
        and u.on_table
        and u.embarked_in is None
        and traits_of(u).troop_type is TroopType.INFANTRY
    ]
    if transport_mg_crewed(carrying=carrying, nearest_squad=min(squads, default=None)):
        return None
    return (
        f"{vehicle.name}'s machine gun has no crew: it fires while carrying its unit "
        "or with an infantry squad beside it"
    )


RULE_SETS: dict[str, RuleSet] = {rules.name: rules for rules in (RuleSet(), HouseRules())}


def rules_of(state: GameState) -> RuleSet:
    return RULE_SETS[state.ruleset]


def find_rule_set(name: str) -> RuleSet:
    """A rule set by its name, as players type it (``house-v1`` or ``house_v1``)."""
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
    return game
