"""Rules gaps of the Iron Cross 2015 rulebook found in a club trial (issue 22), each test citing
its page."""

import pytest

from engine.commands import Fire, JoinSide, Move
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.geometry import distance
from engine.orders import plan_move
from engine.rules.scenario import ForceValue, capture_twice_as_strong, scenario_points_problem
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import scenario_battle
from engine.state import CoverKind, Going
from engine.view import told
from tests.engine.helpers import P, act, box, declare, fire_text, game, play, started, text

BRITISH = {"allies": "british", "axis": "german"}


def joining(side, nation, *profiles, limit=300):
    units = tuple(
        make_unit(nation, name, side, (0, 0), unit_id=f"{side}-{n}") for n, name in enumerate(profiles)
    )
    return JoinSide(side=side, player=side, nation=nation, units=units, points_limit=limit)


def test_capture_compares_what_the_forces_cost_not_their_limits_p30():
    state = scenario_battle("capture", "village", attacker="axis")
    # 113 points of a 300-point limit: two infantry detachments, a Sherman, a sniper team
    defender = joining(
        "allies", "us", "Infantry Detachment", "Infantry Detachment", "Sherman 75mm", "Sniper Team"
    )
    state, _ = play(state, defender)
    five_squads = joining("axis", "german", *["Infantry Detachment"] * 5)  # 125 of 300
    with pytest.raises(
        IllegalCommand,
        match="Capture \\(p. 30\\): the attacker's force is worth at least twice the defender's: "
        "it costs 125 points against 113, 101 short",
    ):
        play(state, five_squads)
    twice = joining("axis", "german", "Panther", *["Infantry Detachment"] * 4, "PaK40 Anti-tank Gun")
    state, events = play(state, twice)  # 230 against 113, within twice the defender's 300
    assert "The Axis bring 6 units (230 points before upgrades)" in text(events)


def test_capture_attacker_stays_within_twice_the_defenders_limit_p30():
    # a linked campaign's forces come without a points limit and are not held to it
    assert (
        scenario_points_problem("attacker_double", "attacker", ForceValue(None, 105), ForceValue(None, 145))
        is None
    )
    assert capture_twice_as_strong(226, 113, 300) is None
    assert capture_twice_as_strong(225, 113, 300) == (
        "the attacker's force is worth at least twice the defender's: "
        "it costs 225 points against 113, 1 short"
    )
    assert capture_twice_as_strong(610, 113, 300) == (
        "the attacker's force is worth at most twice the defender's 300-point limit: it costs 610, 10 over"
    )


@pytest.mark.parametrize(("scenario", "page"), [("meeting", 28), ("escalating", 29)])
def test_no_side_fields_a_sniper_team_in_the_engagements_p20(scenario, page):
    title = {"meeting": "Meeting Engagement", "escalating": "Escalating Engagement"}[scenario]
    state = scenario_battle(scenario, "village")
    snipers = joining("allies", "us", "Infantry Detachment", "Infantry Detachment", "Sniper Team", limit=100)
    with pytest.raises(
        IllegalCommand,
        match=f"^{title} \\(p. {page}\\): only a defending side may field a sniper team \\(p. 20\\): "
        "the Allies defend nothing here$",
    ):
        play(state, snipers)
    assert not state.units_of("allies")


def test_only_the_defender_fields_a_sniper_team_in_capture_p20():
    state = scenario_battle("capture", "village", attacker="allies")
    with pytest.raises(
        IllegalCommand,
        match="only a defending side may field a sniper team \\(p. 20\\): the Allies attack here$",
    ):
        play(state, joining("allies", "us", "Infantry Detachment", "Sniper Team", limit=600))
    state, events = play(state, joining("axis", "german", "Infantry Detachment", "Sniper Team"))
    assert "The Axis bring 2 units" in text(events)


# --- the Churchill Crocodile's flamethrower (pp. 18, 22) ----------------------------------------


def crocodile_game(target="Infantry Detachment", at=(50, 35)):
    """A Churchill Crocodile facing a German unit in woods, 10" between centres."""
    woods = box("woods", "woods", 40, 30, 60, 40, going=Going.ROUGH, cover=CoverKind.COVER)
    return started(
        game(
            make_unit("british", "Churchill Crocodile", "allies", (50, 45), facing=270, unit_id="croc"),
            make_unit("german", target, "axis", at, unit_id="target", name="Grenadiers"),
            sides=BRITISH,
            terrain=[woods],
        ),
        "allies",
    )


def test_the_crocodile_flames_infantry_ignoring_cover_a_marker_per_hit_p18_p22():
    state, events = act(
        crocodile_game(),
        "allies",
        "croc",
        Fire(target="target", flamethrower=True),
        faces=(d10(5), d10(9), d6(4), d6(3)),
    )
    # two dice at infantry; each hit a marker; the casualty roll as in the open (4+), not cover
    assert fire_text(events) == (
        'Churchill Crocodile fires its flamethrower at Grenadiers (6.8"): needs 5+ (+1 close range, '
        '-1 enemy infantry within 12"); rolled 5, 9: 2 hits; 2 markers, casualty 4+ rolled 4, 3: '
        "+1 -> Grenadiers has 3 markers"
    )
    _, declared = declare(crocodile_game(), "allies", "croc", Fire(target="target", flamethrower=True))
    assert "Churchill Crocodile: fire its flamethrower at Grenadiers" in text(declared)
    assert state.units["target"].morale_markers == 3


def test_the_crocodile_fires_its_gun_unless_the_flamethrower_is_named_p22():
    state, events = act(
        crocodile_game(), "allies", "croc", Fire(target="target"), faces=(d10(5), d10(9), d6(4), d6(5))
    )
    # the gun (weapon 8): one marker for the hits, cover counts as open for a 7+ gun (p. 10)
    assert fire_text(events) == (
        'Churchill Crocodile fires at Grenadiers (6.8"): needs 5+ (+1 close range, -1 enemy infantry '
        'within 12"); rolled 5, 9: 2 hits; 1 marker, casualty 4+ rolled 4, 5: +2 -> Grenadiers has 3 markers'
    )


def test_the_crocodiles_flame_reaches_8_inches_and_only_when_stationary_p18():
    far = crocodile_game(at=(50, 33))
    with pytest.raises(IllegalCommand, match='Grenadiers is 8.8" away: flamethrowers reach 8"'):
        declare(far, "allies", "croc", Fire(target="target", flamethrower=True))
    with pytest.raises(IllegalCommand, match="Churchill Crocodile's flamethrower fires only when stationary"):
        declare(
            crocodile_game(),
            "allies",
            "croc",
            Move(path=(P(50, 46),)),
            Fire(target="target", flamethrower=True),
        )


def test_the_crocodiles_flame_only_rattles_an_enclosed_tank_p18():
    state, events = act(
        crocodile_game(target="Panzer IV G (late) to J"),
        "allies",
        "croc",
        Fire(target="target", flamethrower=True),
        faces=(d10(8),),
    )
    assert fire_text(events).endswith("rolled 8: 1 hit; the flame only rattles the enclosed crew: 1 marker")
    assert state.units["target"].morale_markers == 1 and not state.units["target"].destroyed


# --- the British infantry command unit's 2" mortar (p. 22) ---------------------------------------


def two_inch_mortar_game(gap=20.0):
    """The British command unit (Able), a plain detachment (Baker), and German infantry in woods
    ``gap`` inches from Able's centre."""
    woods = box("woods", "woods", 40, 30, 60, 40, going=Going.ROUGH, cover=CoverKind.COVER)
    return started(
        game(
            make_unit(
                "british",
                "Infantry Detachment",
                "allies",
                (50, 35 + gap),
                unit_id="able",
                name="Able",
                command=True,
            ),
            make_unit(
                "british", "Infantry Detachment", "allies", (60, 35 + gap), unit_id="baker", name="Baker"
            ),
            make_unit(
                "german",
                "Infantry Detachment",
                "axis",
                (50, 35),
                unit_id="target",
                name="Grenadiers",
                command=True,
            ),
            sides=BRITISH,
            terrain=[woods],
        ),
        "allies",
    )


def test_the_command_unit_fires_its_2_inch_mortar_as_a_mortar_team_converting_on_5_p22():
    state, events = act(
        two_inch_mortar_game(),
        "allies",
        "able",
        Fire(target="target", weapon="light_mortar"),
        faces=(d10(8), d6(4)),
    )
    # a mortar's 8+ (p. 20), cover ignored, and its extra marker on a 5+ where a mortar team's is 4+
    assert fire_text(events) == (
        'Able fires its 2" mortar at Grenadiers (18.0"): needs 8+; rolled 8: 1 hit; 1 marker, '
        "casualty 5+ rolled 4: +0 -> Grenadiers has 1 marker"
    )
    assert state.units["able"].mortar_aim.shots == 1  # ranged in for its next shot at them (p. 20)
    state, events = act(
        two_inch_mortar_game(),
        "allies",
        "able",
        Fire(target="target", weapon="light_mortar"),
        faces=(d10(10), d6(5)),
    )
    assert fire_text(events).endswith("casualty 5+ rolled 5: +1 -> Grenadiers has 2 markers")


def test_the_2_inch_mortar_keeps_a_mortars_limits_and_only_the_command_unit_has_one_p20_p22():
    with pytest.raises(IllegalCommand, match='Grenadiers is 8.0" away: mortars may not fire under 12"'):
        declare(two_inch_mortar_game(gap=10), "allies", "able", Fire(target="target", weapon="light_mortar"))
    with pytest.raises(IllegalCommand, match="Able fires only when stationary"):
        declare(
            two_inch_mortar_game(),
            "allies",
            "able",
            Move(path=(P(50, 56),)),
            Fire(target="target", weapon="light_mortar"),
        )
    with pytest.raises(
        IllegalCommand,
        match='Baker has no light mortar: British infantry command units have a 2" mortar \\(p. 22\\)',
    ):
        declare(two_inch_mortar_game(), "allies", "baker", Fire(target="target", weapon="light_mortar"))


def test_the_2_inch_mortar_fires_at_what_a_friend_sees_p20_p22():
    woods = box("woods", "woods", 45, 44, 55, 46, going=Going.ROUGH, cover=CoverKind.COVER, blocks_sight=True)
    state = started(
        game(
            make_unit(
                "british",
                "Infantry Detachment",
                "allies",
                (50, 55),
                unit_id="able",
                name="Able",
                command=True,
            ),
            make_unit("british", "Infantry Detachment", "allies", (65, 50), unit_id="baker", name="Baker"),
            make_unit("german", "Infantry Detachment", "axis", (50, 35), unit_id="target", name="Grenadiers"),
            sides=BRITISH,
            terrain=[woods],
        ),
        "allies",
    )
    with pytest.raises(
        IllegalCommand, match="^Able cannot see Grenadiers: the woods block the line of sight$"
    ):
        declare(state, "allies", "able", Fire(target="target"))  # its rifles need its own sight
    state, events = act(
        state, "allies", "able", Fire(target="target", weapon="light_mortar"), faces=(d10(8), d6(5))
    )
    assert fire_text(events) == (
        'Able fires its 2" mortar at Grenadiers (18.0"): needs 8+; rolled 8: 1 hit; 1 marker, '
        "casualty 5+ rolled 5: +1 -> Grenadiers has 2 markers"
    )


# --- units may not overlap on the table (pp. 8-9, 11) --------------------------------------------


def two_sections(at=(13, 10)):
    """Two British sections on 2" bases: Able at 10.0,10.0, Baker at ``at``."""
    return started(
        game(
            make_unit("british", "Infantry Detachment", "allies", (10, 10), unit_id="able", name="Able"),
            make_unit("british", "Infantry Detachment", "allies", at, unit_id="baker", name="Baker"),
            make_unit("german", "Infantry Detachment", "axis", (60, 40), unit_id="gren"),
            sides=BRITISH,
        ),
        "allies",
    )


def test_a_move_may_not_end_on_another_unit_nor_pass_through_it_pp8_9():
    with pytest.raises(
        IllegalCommand,
        match="^Able would end on top of Baker: units may not overlap on the table "
        "\\(stop in contact with it\\)$",
    ):
        declare(two_sections(at=(15, 10)), "allies", "able", Move(path=(P(15, 10),)))
    with pytest.raises(
        IllegalCommand, match="^Able would move through Baker: units may not pass through each other$"
    ):
        declare(two_sections(at=(13, 10)), "allies", "able", Move(path=(P(16, 10),)))


def test_a_move_may_end_in_contact_p11():
    state, events = act(two_sections(at=(15, 10)), "allies", "able", Move(path=(P(13, 10),)))
    assert 'Able moves 3.0" to 13.0,10.0' in text(events)
    assert distance(state.units["able"], state.units["baker"]) == 0.0


def test_a_move_carried_out_after_the_table_changed_stops_in_contact_p6():
    state = two_sections(at=(13, 10))
    plan = plan_move(state, state.units["able"], Move(path=(P(16, 10),)), strict=False)
    assert plan.end.x == pytest.approx(11, abs=0.01) and plan.end.y == 10  # Baker's base starts at 12
    assert plan.end.x < 11 and plan.length == plan.end.x - 10


# --- a hidden sniper team's shot (p. 20) ---------------------------------------------------------


def test_a_hidden_sniper_that_fires_is_not_named_to_the_enemy_p20():
    state = started(
        game(
            make_unit("british", "Sniper Team", "allies", (10, 10), unit_id="elm", name="Elm", hidden=True),
            make_unit("german", "Infantry Detachment", "axis", (10, 30), unit_id="target", name="Grenadiers"),
            sides=BRITISH,
        ),
        "allies",
    )
    state, events = act(state, "allies", "elm", Fire(target="target"), faces=(d10(2), d6(3)))
    assert [told(e, "axis") for e in events if e.kind in ("fire", "sniper")] == [
        'a sniper marker fires at Grenadiers (18.0"): needs 3+ (+2 sniper); rolled 2: miss',
        "a sniper marker stays hidden (spotting roll 3)",
    ]
    assert [told(e, "allies") for e in events if e.kind == "sniper"] == ["Elm stays hidden (spotting roll 3)"]
    assert state.units["elm"].hidden
