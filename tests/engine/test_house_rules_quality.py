"""Troop quality chosen per unit in a force built under the House Rules V1.0 (s. 2), and the
quick reference's own units bought by name: what each quality does to the scores (s. 3, 6, 7),
with scripted dice, starting from the force."""

import pytest

from engine.commands import (
    ChooseInitiative,
    Declare,
    Fire,
    JoinSide,
    MoraleTestOrder,
    Move,
    React,
    StartGame,
    UnitOrder,
)
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.forces import (
    add_unit,
    choose_command,
    export_force,
    force_points,
    force_units,
    import_force,
    new_force,
    set_iaw,
    set_transport,
)
from engine.rulesets import with_rule_set
from engine.scenarios.new_game import make_unit, new_game
from engine.scenarios.quick_battle import scenario_battle
from engine.state import Point, Unit
from engine.variants.house_v1.commands import CloseCombat, RequestFire
from engine.variants.house_v1.traits import Experience, Motivation
from engine.variants.house_v1.units import find_house_profile, quick_reference_entries
from tests.engine.helpers import P, act, declare, fire_text, play, started

HOUSE = "house_v1"


def squad_of(quality: str) -> Unit:
    """A British section bought as the quick reference's infantry squad, of this quality."""
    force = add_unit(
        new_force("british", "B Company", 500, rules=HOUSE), "Infantry squad", "Able", quality.split()
    )
    (able,) = force_units(force, "allies")
    return able


def begun(state, *quality_dice: int):
    """The game started: a d6 for each token a veteran or inexperienced unit brings (the allies
    draw first), then the allies win the initiative and go first."""
    state, _ = play(state, StartGame(), *(d6(r) for r in quality_dice), d6(6), d6(1))
    state, _ = play(state, ChooseInitiative(side="allies", go_first=True))
    return state


def house_game(quality: str, *, markers: int = 0, tokens: int = 0):
    """The section at 30.0,10.0, a German squad 30" off; the game not yet started."""
    able = squad_of(quality).model_copy(update={"position": Point(x=30, y=10), "morale_markers": markers})
    able.tokens = tokens
    gruppe = make_unit("german", "Infantry Detachment", "axis", (30, 40), unit_id="gruppe")
    return with_rule_set(new_game({"allies": "british", "axis": "german"}, [able, gruppe]), "house-v1")


@pytest.mark.parametrize(
    "name", [n for nation in ("german", "british") for n in quick_reference_entries(nation)]
)
def test_a_quick_reference_unit_bought_by_name_comes_to_the_game_with_its_data_s2(name):
    nation = "german" if name in quick_reference_entries("german") else "british"
    force = new_force(nation, "Every unit", 10_000, rules=HOUSE)
    try:
        force = add_unit(force, name, "Tested")
        (fielded,) = force_units(force, "allies")
    except IllegalCommand:  # a transport: bought for a squad
        force = set_transport(add_unit(force, "Infantry squad", "Tested"), "Tested", name)
        fielded = force_units(force, "allies")[1]
    assert fielded.profile == find_house_profile(nation, name)


@pytest.mark.parametrize(
    "quality, rolled, tokens",
    [("", (), 1), ("veteran", (6,), 2), ("veteran", (5,), 1), ("inexperienced", (6,), 0), ("elite", (), 1)],
)
def test_veterans_gain_and_the_inexperienced_lose_a_token_on_a_6_s3(quality, rolled, tokens):
    # one unit, no company command: one token, and a veteran or inexperienced unit's d6 for it;
    # the allies draw first, then both sides throw for the initiative
    assert begun(house_game(quality), *rolled).sides["allies"].tokens == tokens


@pytest.mark.parametrize("quality, needed, outcome", [("", 5, "failed"), ("elite", 3, "success")])
def test_an_elite_unit_reacts_ignoring_its_markers_s2_s3(quality, needed, outcome):
    # the section holds 2 markers; it reacts on a 3 to the German squad's move
    state = started(house_game(quality, markers=2), "axis")
    state, _ = declare(state, "axis", "gruppe", Move(path=(P(30, 38),)))
    order = UnitOrder(unit="allies-able", actions=(Move(path=(P(30, 12),)),))
    state, events = play(state, React(side="allies", window=state.pending.window, order=order), d6(3))
    test = next(e for e in events if e.kind == "reaction_test")
    assert f"needs {needed}+" in test.text and test.text.endswith(f"rolled 3: {outcome}")


@pytest.mark.parametrize("quality, passes", [("", True), ("weak", False)])
def test_a_weak_unit_needs_one_more_to_reactivate_s3(quality, passes):
    # one token already on it: 2+ to reactivate, 3+ if weak; it rolls a 2
    state = started(house_game(quality), "allies")
    state.units["allies-able"].tokens = 1
    state, events = act(state, "allies", "allies-able", Move(path=(P(30, 12),)), faces=[d6(2)])
    assert (state.units["allies-able"].position == P(30, 12)) is passes
    test = next(e for e in events if e.kind == "activation_test")
    assert f"needs {2 if passes else 3}+" in test.text


@pytest.mark.parametrize(
    "quality, token_die, left", [("", (), 2), ("veteran", (1,), 1), ("inexperienced", (1,), 2)]
)
def test_a_veteran_unit_has_two_markers_taken_off_on_a_5_in_the_company_morale_test_s7(
    quality, token_die, left
):
    state = begun(house_game(quality, markers=3), *token_die)
    state, _ = play(state, Declare(side="allies", order=MoraleTestOrder()), d6(5))
    assert state.units["allies-able"].morale_markers == left


@pytest.mark.parametrize("quality, outcome", [("", "passed"), ("weak", "failed")])
def test_a_weak_unit_takes_one_off_its_close_combat_initiation_throw_s6(quality, outcome):
    # no tokens, no markers: the initiation test needs 3+ (a morale-test reaction); it rolls a 3.
    # passing, two rounds of fire all missing (the defender first, two d10 each); failing, the
    # section's order becomes firing instead
    state = started(house_game(quality), "allies")
    state.units["gruppe"].position = P(30, 12.5)
    misses = [d10(1)] * (8 if outcome == "passed" else 0)
    order = UnitOrder(unit="allies-able", actions=(CloseCombat(target="gruppe"),))
    state, events = play(state, Declare(side="allies", order=order), d6(3), *misses)
    test = next(e for e in events if "initiation test" in e.text)
    assert f"initiation test rolled 3: {outcome}" in test.text
    if outcome == "failed":  # it fires instead, and the enemy may react to that
        assert [a.kind for a in state.pending.order.actions] == ["fire"]


def test_quality_costs_no_points_and_survives_export_and_import_s2():
    force = new_force("british", "B Company", 500, rules=HOUSE)
    regular = add_unit(force, "Infantry squad", "Able")
    veteran = add_unit(force, "Infantry squad", "Able", ["veteran", "elite"])
    assert force_points(veteran) == force_points(regular) == 25  # the house rules price no quality
    assert "- Able: Infantry squad [veteran, elite]" in export_force(veteran)
    assert import_force(export_force(veteran)) == veteran
    (able,) = force_units(veteran, "allies")
    assert (able.profile.house.experience, able.profile.house.motivation) == (
        Experience.VETERAN,
        Motivation.ELITE,
    )


@pytest.mark.parametrize(
    "rules, quality, refusal",
    [
        (HOUSE, ["veteran", "inexperienced"], "one of each pair at most"),
        (HOUSE, ["heroic"], "heroic is not a troop quality: choose veteran, inexperienced, elite, weak"),
        ("core_2015", ["veteran"], "troop quality is not part of Iron Cross 2015"),
    ],
)
def test_a_quality_the_rules_do_not_have_is_refused(rules, quality, refusal):
    force = new_force("british", "B Company", 500, rules=rules)
    with pytest.raises(IllegalCommand, match=refusal):
        add_unit(force, "Infantry Detachment", "Able", quality)


def grant_facing_a_panzer():
    """A Grant bought from the quick reference, a Pz IV F1 10" ahead of it, a German squad beside."""
    force = add_unit(new_force("british", "C Squadron", 500, rules=HOUSE), "Grant", "Lee")
    (grant,) = force_units(force, "allies")
    grant = grant.model_copy(update={"position": Point(x=30, y=10), "facing": 90.0})
    german = add_unit(new_force("german", "KG", 500, rules=HOUSE), "Pz IV F1", "Fritz")
    (panzer,) = force_units(german, "axis")
    panzer = panzer.model_copy(update={"position": Point(x=30, y=24), "facing": 270.0})
    gruppe = make_unit("german", "Infantry Detachment", "axis", (40, 24), unit_id="gruppe")
    units = [grant, panzer, gruppe]
    return started(
        with_rule_set(new_game({"allies": "british", "axis": "german"}, units), "house-v1"), "allies"
    )


def test_a_grant_fires_its_turret_37mm_with_the_second_ap_rating_s5():
    state = grant_facing_a_panzer()
    assert [u.profile.name for u in state.units.values()][:2] == ["Grant", "Pz IV F1"]
    shot = Fire(target="axis-fritz", weapon="second_gun")
    # 10" off: two d10 to hit, one hit; penetration d10 7 + AP 5 = 12, the Pz IV's front armour:
    # a second marker (the main gun's AP 8 would have gone through)
    state, events = act(state, "allies", "allies-lee", shot, faces=[d10(6), d10(2), d10(7)])
    assert "penetration 7+5 against front armour 12: equal, +1 marker" in fire_text(events)
    assert state.units["axis-fritz"].morale_markers == 2


def test_a_grants_second_gun_has_no_he_for_troops_s5():
    state = grant_facing_a_panzer()
    with pytest.raises(IllegalCommand, match="second gun has no HE class: fire its main gun or MG"):
        declare(state, "allies", "allies-lee", Fire(target="gruppe", weapon="second_gun"))


def test_a_grants_hull_mounted_75mm_fires_only_straight_ahead_its_37mm_turns_s5():
    """s. 5 Arc of fire: a fixed vehicle weapon fires dead ahead only; the Grant's 75mm sits in
    the hull, its 37mm and coaxial MG in the turret."""
    state = grant_facing_a_panzer()
    state.units["axis-fritz"].position = Point(x=42, y=20)  # 40 degrees off the Grant's centreline
    outside = (
        "^Infantry Detachment is outside the straight-ahead arc of Lee's hull-mounted gun: turn to face it "
        'first with a move toward it, .* \\(e.g. move:30.6,10.8, 1" toward it\\), or fire the second gun '
        "\\(House Rules HR5.3\\)$"
    )
    with pytest.raises(IllegalCommand, match=outside):
        declare(state, "allies", "allies-lee", Fire(target="gruppe", weapon="gun"))  # 36 degrees off
    with pytest.raises(IllegalCommand, match="outside the straight-ahead arc of Lee's hull-mounted gun"):
        declare(state, "allies", "allies-lee", Fire(target="axis-fritz", weapon="gun"))
    declare(state, "allies", "allies-lee", Fire(target="gruppe", weapon="mg"))  # the turret's MG turns
    # the 37mm turns to the panzer: 11" off, two d10, one hit; 7 + AP 5 = 12 against front armour 12
    state, events = act(
        state,
        "allies",
        "allies-lee",
        Fire(target="axis-fritz", weapon="second_gun"),
        faces=[d10(6), d10(2), d10(7)],
    )
    assert "penetration 7+5 against front armour 12: equal, +1 marker" in fire_text(events)
    state = grant_facing_a_panzer()
    state.units["gruppe"].position = Point(x=33, y=24)  # 12 degrees off: straight ahead enough
    declare(state, "allies", "allies-lee", Fire(target="gruppe", weapon="gun"))


def test_a_grants_hull_75mm_turns_no_turret_its_37mm_does_s5():
    """s. 5 Arcs of fire: a turret turned past 90 degrees counts as moving, but the Grant's 75mm
    sits in the hull, so firing it turns nothing, even with the turret looking back; the 37mm
    in the turret has to turn, and its shot takes the firer-moved -2."""
    state = grant_facing_a_panzer()
    state.units["allies-lee"].turret_facing = 270.0
    # the 75mm: a 6 hits (5+ needed, nothing taken off); penetration 3 + AP 8 = 11 against front 12
    state, events = act(
        state, "allies", "allies-lee", Fire(target="axis-fritz", weapon="gun"), faces=[d10(6), d10(1), d10(3)]
    )
    assert "needs 5+; rolled 6, 1: 1 hit; 1 marker; penetration 3+8 against front armour 12" in fire_text(
        events
    )
    lee = state.units["allies-lee"]
    assert (lee.turret_facing, lee.moved_this_turn) == (270.0, False)
    state = grant_facing_a_panzer()
    state.units["allies-lee"].turret_facing = 270.0
    state, events = act(
        state, "allies", "allies-lee", Fire(target="axis-fritz", weapon="second_gun"), faces=[d10(6), d10(1)]
    )
    assert "needs 5+ (firer moves this activation -2); rolled 6, 1: miss" in fire_text(events)
    lee = state.units["allies-lee"]
    assert (lee.turret_facing, lee.moved_this_turn) == (90.0, True)


def bought(nation: str, name: str, side: str, at: Point, facing: float = 90.0) -> Unit:
    """One quick-reference unit of a house-rules force, placed."""
    force = add_unit(new_force(nation, "Force", 1000, rules=HOUSE), name, name)
    (unit,) = force_units(force, side)
    return unit.model_copy(update={"position": at, "facing": facing})


def test_an_op_team_from_a_force_calls_indirect_fire_s2_s5():
    op = bought("british", "OP team", "allies", Point(x=30, y=10))
    gruppe = make_unit("german", "Infantry Detachment", "axis", (30, 30), unit_id="gruppe")
    state = with_rule_set(new_game({"allies": "british", "axis": "german"}, [op, gruppe]), "house-v1")
    state, events = act(started(state, "allies"), "allies", op.id, RequestFire(at=P(30, 30)), faces=[d10(5)])
    assert state.fire_markers[0].at == P(30, 30) and state.fire_markers[0].placed


def test_a_squad_with_a_2_inch_mortar_from_a_force_fires_direct_light_he_s5():
    squad = bought("british", 'Infantry squad with 2" mortar', "allies", Point(x=30, y=10))
    gruppe = make_unit("german", "Infantry Detachment", "axis", (30, 20), unit_id="gruppe")
    state = with_rule_set(new_game({"allies": "british", "axis": "german"}, [squad, gruppe]), "house-v1")
    # within 12": two d10, one hits; light HE in the open, 5+: a 5 adds a second marker
    fire = Fire(target="gruppe", weapon="light_mortar")
    state, events = act(started(state, "allies"), "allies", squad.id, fire, faces=[d10(5), d10(1), d6(5)])
    assert "light mortar" in fire_text(events)
    assert state.units["gruppe"].morale_markers == 2


@pytest.mark.parametrize("ruleset, joins", [("core_2015", False), ("house-v1", True)])
def test_a_house_rules_force_joins_only_a_house_rules_game(ruleset, joins):
    force = add_unit(new_force("british", "Able", 150, rules=HOUSE), "Infantry squad", "Able", ["veteran"])
    force = choose_command(force, "Able")
    state = with_rule_set(scenario_battle("meeting", "village"), ruleset)
    join = JoinSide(
        side="allies",
        player="ann",
        nation="british",
        units=tuple(force_units(force, "allies")),
        points_limit=150,
        rules=force.rules,
    )
    if not joins:
        with pytest.raises(IllegalCommand, match="built under the House Rules V1.0, and this game is played"):
            play(state, join)
        return
    state, _ = play(state, join)
    assert state.units["allies-able"].profile.house.experience is Experience.VETERAN


def test_a_light_mortar_squad_takes_no_iaw_s2():
    force = add_unit(new_force("german", "KG", 500, rules=HOUSE), "Infantry squad with 5cm mortar", "Max")
    with pytest.raises(IllegalCommand, match="carries an IAW or a light mortar, not both"):
        set_iaw(force, "Max")
    assert set_iaw(add_unit(force, "Infantry squad", "Moritz"), "Moritz").units[1].iaw
