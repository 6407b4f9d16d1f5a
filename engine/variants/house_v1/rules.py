"""The House Rules V1.0 as a rule set: where they differ from the Iron Cross 2015 rulebook, each
difference a method of :class:`HouseRules` naming its section."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine import geometry
from engine.commands import Command, Fire
from engine.dice import DiceSource
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.game_state import Choice, GameState
from engine.profiles import Special, find_profile
from engine.rules.activation import TestScore
from engine.rules.firing import Shot
from engine.rules.shot_resolution import ShotResult
from engine.rulesets import RuleSet, TableMark, register_rule_set
from engine.state import CoverKind, Point, TerrainFeature, Unit
from engine.variants.house_v1.activation import (
    COMMAND_RETHROW_RANGE,
    Purpose,
    company_morale_markers_removed,
    quality_token_change,
    quality_token_dice,
)
from engine.variants.house_v1.activation import (
    reaction_score_needed as house_reaction_score,
)
from engine.variants.house_v1.activation import (
    reactivation_score_needed as house_reactivation_score,
)
from engine.variants.house_v1.buildings import after_shot_at_building, spread_fires, take_post
from engine.variants.house_v1.citation import cited, house_rule
from engine.variants.house_v1.close_combat.choices import (
    check_defender_choice,
    check_fall_back_choice,
    choose_defender,
    choose_fall_back,
)
from engine.variants.house_v1.commands import ChooseDefender, ChooseFallBack
from engine.variants.house_v1.firing import EXPLOSION_RADIUS, Weapon
from engine.variants.house_v1.indirect_fire.play import expire_fire_markers
from engine.variants.house_v1.posts import moves_to_post, post_problem, posted_firer
from engine.variants.house_v1.shot import (
    fires_from_hull,
    house_fire,
    light_mortar_overshoots,
    mg_crew_problem,
    resolve_house_shot,
    traits_of,
)
from engine.variants.house_v1.sight import fire_through_problem, house_sight_clear, troops_in_the_way
from engine.variants.house_v1.smoke.screens import blocked_by_smoke, thin_smoke
from engine.variants.house_v1.state import HouseUnit
from engine.variants.house_v1.traits import Experience, TroopType
from engine.variants.house_v1.units import (
    QUALITIES,
    find_house_profile,
    house_equivalent,
    light_weapon_problem,
    quick_reference_entries,
    troop_quality,
)
from engine.variants.house_v1.visibility import can_observe, observed_as
from engine.wording import counted


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

    qualities = QUALITIES  # s. 2 Troop quality

    def unit(self, unit: Unit) -> Unit:
        """The quick reference's statistics where it lists the unit (House Rules V1.0, s. 2)."""
        return unit.model_copy(
            update={"profile": house_equivalent(unit.profile), "variant": unit.variant or HouseUnit()}
        )

    def own_units(self, nation: str) -> dict[str, str]:
        """The quick reference's units, each bought as the 2015 entry it counts as (s. 2)."""
        return quick_reference_entries(nation)

    def sides_without_own_units(self, state: GameState) -> list[str]:
        """s. 2: the quick reference lists British and German units only; a side of another
        nation fights with its 2015 statistics, seen the house way."""
        return [
            side
            for side in state.sides
            if any(not quick_reference_entries(u.profile.nation) for u in state.units_of(side))
        ]

    def force_unit_problem(self, nation: str, entry: str, *, iaw: bool, quality: Sequence[str]) -> str | None:
        """s. 2 Troop quality: one experience and one motivation at most; s. 2 Light weapons: a
        squad carries an IAW or a light mortar, not both."""
        listed = entry in quick_reference_entries(nation)
        profile = find_house_profile(nation, entry) if listed else find_profile(nation, entry)
        try:
            fielded = troop_quality(profile, quality)
        except IllegalCommand as problem:
            return str(problem)
        if iaw and fielded.house is not None and fielded.house.light_mortar:
            return light_weapon_problem(fielded.name)
        return None

    def fielded(self, unit: Unit, entry: str, quality: Sequence[str]) -> Unit:
        """The quick reference's own unit if the force bought it by that name (else the 2015
        unit's equivalent), with its troop quality (s. 2)."""
        listed = entry in quick_reference_entries(unit.profile.nation)
        profile = find_house_profile(unit.profile.nation, entry) if listed else unit.profile
        return self.unit(unit.model_copy(update={"profile": troop_quality(profile, quality)}))

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
                cited(
                    f"{unit.name} ({experience.value}) rolls {rolled}: "
                    f"{counted(gained, 'token', signed=True)}",
                    "3.1",
                ),
                unit.id,
                side=unit.side,
            )
        return change

    def begin_turn(self, state: GameState) -> None:
        """s. 5 Indirect Fire: markers left unused for a whole turn go; s. 5 Firing from
        buildings: moving between posts is free between turns."""
        expire_fire_markers(state)
        for unit in state.units.values():
            unit.firing_post = None

    def end_of_turn(self, state: GameState, log: EventLog) -> None:
        """s. 5: smoke screens thin with the wind, and fires spread."""
        thin_smoke(state, log)
        spread_fires(state, log)

    def handlers(self) -> dict[type, Callable[[GameState, Any, EventLog], None]]:
        """s. 6: the choices a close combat waits for."""
        return {ChooseFallBack: choose_fall_back, ChooseDefender: choose_defender}

    def checks(self) -> dict[type, Callable[[GameState, Any], object]]:
        """s. 6: the close combat goes on with dice once a choice is made."""
        return {ChooseFallBack: check_fall_back_choice, ChooseDefender: check_defender_choice}

    def infantry_nearby_spoils_aim(self, firer: Unit) -> bool:
        """s. 5: the -1 for AP and HE fire applies to any firer."""
        return True

    def turret_turns(self, shot: Shot) -> bool:
        """s. 5 Arcs of fire: only a turret or other rotary mount turns; a shot from the hull (the
        Grant's fixed 75mm, or the hull MG fired on its own, a mount of its own with a 45 degree
        arc) leaves the turret where it is."""
        return super().turret_turns(shot) and not fires_from_hull(shot)

    def fire_problem(self, state: GameState, shot: Shot) -> str | None:
        """s. 5: the firer must have a weapon for that target, within its range; s. 2: a
        transport's MG needs a crew; s. 6: nobody fires out of a building both sides hold; s. 5
        Firing from buildings: the side and storey it fires from; s. 8: troops in the way (a light
        mortar fires over its own side's, s. 5)."""
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
        if fire.weapon is Weapon.LIGHT_MORTAR:
            in_the_way = [u for u in in_the_way if not light_mortar_overshoots(shot, u)]
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
        """s. 8 Blocking terrain: by the height of each piece, and from upper storeys and hills; a
        unit inside a building sees out through its own walls (s. 4), and is seen through them but
        when it stands at the post it fires out of (s. 5, :func:`own_building_hides`)."""
        return house_sight_clear(
            state, viewer, target, tuple(f for f in terrain if f.id != viewer.in_building)
        )

    def weapon_firer(self, firer: Unit, fire: Fire) -> Unit:
        """s. 5 Light mortars: a squad's light mortar is one of its own weapons (house_fire)."""
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

    def after_shot(self, state: GameState, shot: Shot, result: ShotResult, log: EventLog) -> None:
        """s. 5 Firing from buildings: a unit that fired out holds its post; s. 5 Buildings and
        Flamethrowers: what HE and flame do to the others inside."""
        take_post(state, shot, log)
        after_shot_at_building(state, shot, result, log)

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

    def marks_seen(self, state: GameState, audience: str | None) -> Sequence[TableMark]:
        """s. 5 Indirect Fire: every side sees a fire marker once it is placed; a request that
        failed so far leaves no mark on the table."""
        return [TableMark("fire", marker.at, marker.side) for marker in state.fire_markers if marker.placed]

    def answers(self, choice: Choice) -> list[Command]:
        """s. 6: also whether a vehicle defending a close combat falls back after the first
        round, and which unit in an assaulted building defends it."""
        if choice.kind == "close_combat_fall_back":
            return [ChooseFallBack(side=choice.side, fall_back=answer) for answer in (True, False)]
        if choice.kind == "building_defender":
            return [ChooseDefender(side=choice.side, unit=unit) for unit in choice.options]
        return super().answers(choice)

    def cite(self, text: str, section: str) -> str:
        """Every result of a house-rules game names the section that decided it (issue 6)."""
        return cited(text, section)


def _naming_the_rule(score: TestScore, section: str) -> TestScore:
    """A test's score with the house-rules section that sets it named last among its reasons."""
    return TestScore(score.needed, (*score.reasons, house_rule(section)))


register_rule_set(HouseRules())
