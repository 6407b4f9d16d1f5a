"""The force builder: building a force, the orders of battle's restrictions (Iron Cross 2015,
pp. 18-24), points and break points, text export/import and the game units a force brings."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.errors import IllegalCommand
from engine.forces import (
    Force,
    ForceUnit,
    add_unit,
    choose_command,
    choose_subcommander,
    export_force,
    find_unit,
    force_break_points,
    force_points,
    force_problems,
    force_units,
    import_force,
    new_force,
    remove_unit,
    set_iaw,
    set_transport,
    upgrade,
)
from engine.profiles import NATIONS, load_orbat
from engine.rules.force import nation_transports
from engine.scenarios.new_game import new_game


def build(nation, *profiles, limit=1000, date=None):
    """A force of these units, the first of them its command unit."""
    force = new_force(nation, "Test force", limit, date)
    for profile in profiles:
        force = add_unit(force, profile)
    return choose_command(force, force.units[0].label) if profiles else force


def raw(nation, *units, limit=1000, date=None):
    """A force written directly, to hold what the builder functions would refuse."""
    return Force(nation=nation, name="Test force", points_limit=limit, date=date, units=units)


def german_force():
    force = build(
        "german",
        "Infantry Detachment",
        "Infantry Detachment",
        "Infantry Detachment",
        "MG Team",
        "Panther",
        "Jagdtiger",
        limit=500,
        date="1944-12",
    )
    for label in ("Infantry Detachment 1", "Infantry Detachment 2", "Infantry Detachment 3"):
        force = set_iaw(force, label)
    force = set_transport(force, "Infantry Detachment 1", "251/10 Halftrack")
    force = set_transport(force, "Infantry Detachment 2", "251 Halftrack")
    force = set_transport(force, "Infantry Detachment 3", "Truck/Kubelwagen")
    force = set_transport(force, "MG Team 1", "Truck/Kubelwagen")
    return choose_subcommander(force, "Panther 1")


def british_force():
    force = build(
        "british",
        "Cromwell IV",
        "A34 Comet",
        "Infantry Detachment",
        "Infantry Detachment",
        "Infantry Detachment",
        "6 Pdr Anti-tank Gun",
        "Mortar Team",
        limit=400,
        date="1945-03",
    )
    force = set_iaw(force, "Infantry Detachment 1")
    force = set_transport(force, "Infantry Detachment 1", "Bren Carrier")
    force = set_transport(force, "Infantry Detachment 2", "Truck/Jeep")
    return set_transport(force, "6 Pdr Anti-tank Gun 1", "Bren Carrier")


def us_force():
    force = build(
        "us",
        "Sherman Jumbo",
        *["Infantry Detachment"] * 4,
        ".50 cal MG Team",
        "Sniper Team",
        limit=300,
        date="1944-10",
    )
    force = set_iaw(set_iaw(force, "Infantry Detachment 1"), "Infantry Detachment 2")
    force = set_transport(force, "Infantry Detachment 1", "M3 Halftrack/Dodge WC-51")
    return set_transport(force, ".50 cal MG Team 1", "Truck/Jeep")


def soviet_force():
    force = build(
        "soviet",
        "T-34/85",
        "Sherman 76mm",
        "Sherman 76mm",
        *["Infantry Detachment"] * 3,
        "57mm Anti-tank Gun",
        limit=350,
    )
    force = set_iaw(force, "Infantry Detachment 1")
    force = set_transport(force, "Infantry Detachment 1", "M5 Halftrack")
    return set_transport(force, "57mm Anti-tank Gun 1", "Truck/Jeep")


# --- building ----------------------------------------------------------------------------------


def test_units_get_numbered_labels_that_start_with_their_profile_name():
    force = build("german", "panther", "PANTHER", "Infantry Detachment")
    assert [u.label for u in force.units] == ["Panther 1", "Panther 2", "Infantry Detachment 1"]
    assert [u.profile for u in force.units] == ["Panther", "Panther", "Infantry Detachment"]
    assert [u.label for u in add_unit(remove_unit(force, "panther 1"), "Panther").units] == [
        "Panther 2",
        "Infantry Detachment 1",
        "Panther 1",
    ]


def test_a_player_may_choose_a_label_but_not_one_like_another():
    force = add_unit(build("german", "Panther"), "Tiger I", "  Wittmann's   Tiger ")
    assert find_unit(force, "wittmann's tiger").label == "Wittmann's Tiger"
    with pytest.raises(
        IllegalCommand, match="^'panther-1' is too like 'Panther 1': give the unit another label$"
    ):
        add_unit(force, "Panther", "panther-1")
    with pytest.raises(IllegalCommand, match=r"^the label 'Tiger: 2' may not contain : \[ \]$"):
        add_unit(force, "Tiger I", "Tiger: 2")


def test_unknown_profiles_are_refused_with_the_nearest_names():
    with pytest.raises(IllegalCommand) as refused:
        add_unit(build("german"), "Tiger")
    assert (
        str(refused.value)
        == "the German Army 1944/45 has no 'Tiger'; did you mean Tiger I, Tiger II or Jagdtiger? "
        "(/force orbat nation:german find:Tiger lists every entry like it)"
    )
    with pytest.raises(
        IllegalCommand, match="^the US Army 1944/45 has no 'T-34/85'; /force orbat nation:us lists them all$"
    ):
        add_unit(build("us"), "T-34/85")


def test_a_new_force_needs_a_known_nation_a_name_a_positive_limit_and_a_wartime_date():
    with pytest.raises(
        IllegalCommand, match="^there is no 'French' order of battle: choose German, British, US or Soviet$"
    ):
        new_force("French", "Free French", 300)
    with pytest.raises(IllegalCommand, match="^points limit: a whole number from 1 to 100,000, not 0$"):
        new_force("us", "Easy Company", 0)
    with pytest.raises(IllegalCommand, match="^1950 is outside the war: choose a year from 1939 to 1945$"):
        new_force("us", "Easy Company", 300, "1950")
    with pytest.raises(IllegalCommand, match="^'1944-13' has no month 13: months run from 01 to 12$"):
        new_force("us", "Easy Company", 300, "1944-13")
    assert new_force("US", " Easy  Company ", 300, "1944 - 9") == Force(
        nation="us", name="Easy Company", points_limit=300, date="1944-09"
    )


def test_removing_a_unit_takes_its_transport_and_unknown_labels_are_refused():
    force = soviet_force()
    smaller = remove_unit(force, "infantry detachment 1")
    assert force_points(force) - force_points(smaller) == 25 + 3 + 6
    with pytest.raises(IllegalCommand) as refused:
        remove_unit(build("us", "M5 Stuart"), "Stuart 9")
    assert str(refused.value) == "Test force has no unit called 'Stuart 9' (its units: M5 Stuart 1)"


def test_choosing_the_command_unit_moves_it():
    force = choose_command(build("us", "M5 Stuart", "Sherman 75mm"), "Sherman 75mm 1")
    assert [u.command for u in force.units] == [False, True]


def test_choosing_a_sub_commander_moves_it_and_none_clears_it():
    force = build("german", "Panther", "Tiger I", "Tiger II")
    force = choose_subcommander(choose_subcommander(force, "Tiger I 1"), "Tiger II 1")
    assert [u.subcommander for u in force.units] == [False, False, True]
    assert not any(u.subcommander for u in choose_subcommander(force, None).units)


# --- points and break points -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "points", "break_points"),
    [
        # (25 + 8 + 9) + (25 + 8 + 6) + (25 + 8 + 3) + (20 + 3) + 100 + 163; 4 + 4 + 4 + 3 + 13 + 21
        (german_force, 403, 49),
        # 49 + 73 + (25 + 5 + 6) + (25 + 3) + 25 + (30 + 6) + 25; 7 + 10 + 4 * 5
        (british_force, 272, 37),
        # 58 + (25 + 5 + 7) + (25 + 5) + 25 + 25 + (26 + 3) + 18; 8 + 4 * 4 + 4 + 3
        (us_force, 222, 31),
        # 56 + 60 + 60 + (25 + 3 + 6) + 25 + 25 + (30 + 3); 7 + 8 + 8 + 4 * 3 + 4
        (soviet_force, 293, 39),
    ],
)
def test_points_and_break_points_count_units_iaws_and_transports(make, points, break_points):
    force = make()
    assert force_points(force) == points
    assert force_break_points(force) == break_points


# --- the book's restrictions -------------------------------------------------------------------


@pytest.mark.parametrize("make", [german_force, british_force, us_force, soviet_force])
def test_a_legal_force_of_each_nation_has_no_problems(make):
    assert force_problems(make(), defending=True) == []


def test_points_over_the_limit_p18():
    force = build("german", "Panther", "Infantry Detachment", limit=100)
    assert force_problems(force) == [
        "Points (p. 18): the force costs 125 points, 25 over its 100-point limit"
    ]


def test_a_force_needs_its_command_unit_p18():
    force = raw("us", ForceUnit(label="Stuart", profile="M5 Stuart"))
    assert force_problems(force) == ["Command unit (p. 18): no unit is the command unit: choose one"]


def test_a_force_has_only_one_command_unit_p18():
    force = raw(
        "us",
        ForceUnit(label="Able", profile="M5 Stuart", command=True),
        ForceUnit(label="Baker", profile="M5 Stuart", command=True),
    )
    assert force_problems(force) == [
        "Command unit (p. 18): a force has one command unit; this one has 2 (Able, Baker): keep one"
    ]


def test_infantry_detachments_must_outnumber_support_squads_p21():
    force = build("german", "Infantry Detachment", "MG Team")
    assert force_problems(force) == [
        "Infantry and support (p. 21): infantry detachments (1) must outnumber support squads (1): "
        "add 1 detachment or drop support squads"
    ]


def test_one_rare_unit_p20():
    force = build("german", "Jagdtiger", "StuH 42")
    assert force_problems(force) == [
        "Rare (p. 20): only one rare unit is allowed; this force has 2 (Jagdtiger, StuH 42)"
    ]


def test_every_german_detachment_may_carry_an_iaw_p21():
    force = build("german", *["Infantry Detachment"] * 3)
    for unit in force.units:
        force = set_iaw(force, unit.label)
    assert force_problems(force) == []


@pytest.mark.parametrize(
    ("nation", "page", "iaw"), [("british", 22, "PIAT"), ("us", 23, "Bazooka"), ("soviet", 24, "PTRD/PTRS")]
)
def test_up_to_half_the_allied_detachments_carry_an_iaw_pp22_24(nation, page, iaw):
    force = build(nation, *["Infantry Detachment"] * 3)
    force = set_iaw(force, "Infantry Detachment 1")
    assert force_problems(force) == []
    assert force_problems(set_iaw(force, "Infantry Detachment 2")) == [
        f"IAW (p. {page}): 2 detachments carry {iaw} but at most 1 of 3 may (1 too many)"
    ]


def test_only_infantry_detachments_carry_an_iaw_p19():
    with pytest.raises(
        IllegalCommand, match="^Panther 1 is a Panther; only infantry detachments may carry an IAW$"
    ):
        set_iaw(build("german", "Panther"), "Panther 1")
    force = raw("german", ForceUnit(label="Panther 1", profile="Panther", command=True, iaw=True))
    assert force_problems(force) == [
        "IAW (p. 19): Panther 1 is a Panther; only infantry detachments may carry an IAW"
    ]
    assert (
        not set_iaw(
            set_iaw(build("us", "Infantry Detachment"), "Infantry Detachment 1"),
            "Infantry Detachment 1",
            False,
        )
        .units[0]
        .iaw
    )


def test_1945_only_units_against_the_force_date_p22():
    force = build("british", "A34 Comet", date="1944-11")
    assert force_problems(force) == [
        "Availability (p. 22): A34 Comet 1 (A34 Comet) serves 1945 only (1945-01 on) but the force is "
        "dated 1944-11, 2 months too early"
    ]
    assert force_problems(build("british", "A34 Comet", date="1944")) == [
        "Availability (p. 22): A34 Comet 1 (A34 Comet) serves 1945 only (1945-01 on) but the force is "
        "dated 1944, 1 month too early"
    ]
    assert force_problems(build("british", "A34 Comet", date="1945-01")) == []
    assert force_problems(build("us", "M26 Pershing")) == []  # an undated force may field anything


def test_from_late_1944_units_against_the_force_date_p23():
    assert force_problems(build("us", "Sherman Jumbo", date="1944-06")) == [
        "Availability (p. 23): Sherman Jumbo 1 (Sherman Jumbo) serves from late 1944 (1944-09 on) but the "
        "force is dated 1944-06, 3 months too early"
    ]
    assert force_problems(build("us", "Sherman Jumbo", date="1944-09")) == []
    assert force_problems(build("us", "Sherman Jumbo", date="1944")) == []


def test_soviet_lend_lease_is_one_class_of_the_listed_vehicles_p24():
    assert force_problems(build("soviet", "T-34/85", "M5 Stuart", "M5 Stuart", "M5 Stuart")) == []
    force = build("soviet", "T-34/85", "Sherman 75mm", "M10 Tank Destroyer")
    assert force_problems(force) == [
        "Lend lease (p. 24): one class of lend-lease vehicle is allowed; this force has 2 "
        "(M10 Tank Destroyer, Sherman 75mm): keep one"
    ]
    assert force_problems(build("soviet", "Sherman 75mm", "Sherman 76mm"))[0].endswith(
        "this force has 2 (Sherman 75mm, Sherman 76mm): keep one"
    )


def test_only_defenders_take_a_sniper_team_p20():
    force = build("us", "Infantry Detachment", "Infantry Detachment", "Sniper Team")
    assert force_problems(force) == []  # its part in the scenario is not yet known
    assert force_problems(force, defending=True) == []
    assert force_problems(force, defending=False) == [
        "Sniper team (p. 20): only a defending side may field a sniper team"
    ]


def test_a_single_sniper_team_p20():
    force = build("us", *["Infantry Detachment"] * 3, "Sniper Team", "Sniper Team")
    assert force_problems(force, defending=True) == [
        "Sniper team (p. 20): a force may field one sniper team; this one has 2"
    ]


@pytest.mark.parametrize(
    ("nation", "profile"),
    [
        ("german", "Sniper Team"),
        ("german", "Flakvierling 38"),
        ("us", "Flamethrower Team"),
        ("soviet", "T-70 Light Tank"),
    ],
)
def test_only_detachments_mg_mortar_teams_and_anti_tank_guns_buy_transports_pp21_24(nation, profile):
    force = build(nation, profile)
    with pytest.raises(IllegalCommand) as refused:
        set_transport(force, f"{profile} 1", "Truck/Jeep" if nation != "german" else "Truck/Kubelwagen")
    assert str(refused.value) == (
        f"{profile} 1 is a {profile}; only infantry detachments, MG teams, mortar teams and "
        "anti-tank guns may buy a transport"
    )


@pytest.mark.parametrize("profile", ["Infantry Detachment", "MG Team", "Mortar Team", "76mm Anti-tank Gun"])
def test_detachments_mg_mortar_teams_and_anti_tank_guns_buy_their_nations_transports(profile):
    force = build("soviet", profile, "Infantry Detachment", "Infantry Detachment")
    force = set_transport(force, f"{profile} 1", "m5 halftrack")
    assert force.units[0].transport == "M5 Halftrack"
    assert force_problems(force) == []
    assert set_transport(force, f"{profile} 1", None).units[0].transport is None


def test_transports_come_from_the_nations_own_list_pp21_24():
    with pytest.raises(IllegalCommand) as refused:
        set_transport(build("soviet", "Infantry Detachment"), "Infantry Detachment 1", "Sherman 75mm")
    message = (
        "Infantry Detachment 1's Sherman 75mm is not one of the Soviet Army 1944/45 transports "
        "(M5 Halftrack, Truck/Jeep)"
    )
    assert str(refused.value) == message
    force = raw(
        "soviet",
        ForceUnit(
            label="Infantry Detachment 1",
            profile="Infantry Detachment",
            command=True,
            transport="Sherman 75mm",
        ),
    )
    assert force_problems(force) == [f"Transports (p. 24): {message}"]
    with pytest.raises(IllegalCommand) as refused:
        set_transport(build("british", "MG Team"), "MG Team 1", "Kubelwagen")
    assert str(refused.value).endswith("(transports: Bren Carrier, Truck/Jeep)")


def test_transports_are_bought_for_a_unit_not_alone_p20():
    with pytest.raises(IllegalCommand) as refused:
        add_unit(build("german"), "251 Halftrack")
    assert str(refused.value) == (
        "251 Halftrack 1 is a 251 Halftrack, which comes only as a transport bought for a unit: "
        "add the unit it carries, then set its transport"
    )
    force = raw("german", ForceUnit(label="Taxi", profile="Truck/Kubelwagen", command=True))
    assert force_problems(force) == [
        "Transports (p. 20): Taxi is a Truck/Kubelwagen, which comes only as a transport bought for a unit"
    ]


def test_only_an_infantry_command_unit_rides_a_251_10_p21():
    force = build("german", "MG Team", "Infantry Detachment", "Infantry Detachment")
    for label in ("MG Team 1", "Infantry Detachment 1"):
        with pytest.raises(
            IllegalCommand,
            match=f"^only an infantry command unit may ride in a 251/10 Halftrack, and {label} is not one$",
        ):
            set_transport(force, label, "251/10 Halftrack")
    force = set_transport(
        choose_command(force, "Infantry Detachment 1"), "Infantry Detachment 1", "251/10 Halftrack"
    )
    assert force_problems(force) == []
    assert force_problems(choose_command(force, "Infantry Detachment 2")) == [
        "Transports (p. 21): only an infantry command unit may ride in a 251/10 Halftrack, and "
        "Infantry Detachment 1 is not one"
    ]


def test_only_german_forces_name_a_sub_commander_pp20_21():
    with pytest.raises(
        IllegalCommand, match="^only German forces have a sub-commander, and Test force is British$"
    ):
        choose_subcommander(build("british", "Cromwell IV", "Cromwell IV"), "Cromwell IV 2")
    force = raw(
        "british",
        ForceUnit(label="Cromwell IV 1", profile="Cromwell IV", command=True),
        ForceUnit(label="Cromwell IV 2", profile="Cromwell IV", subcommander=True),
    )
    assert force_problems(force) == [
        "Sub-commander (pp. 20-21): only German forces have a sub-commander; drop it from Cromwell IV 2"
    ]


def test_one_sub_commander_besides_the_command_unit_pp20_21():
    force = build("german", "Panther", "Tiger I")
    with pytest.raises(
        IllegalCommand, match="^Panther 1 is the command unit; the sub-commander must be another unit$"
    ):
        choose_subcommander(force, "Panther 1")
    with pytest.raises(
        IllegalCommand, match="^Tiger I 1 is the sub-commander: choose another sub-commander first$"
    ):
        choose_command(choose_subcommander(force, "Tiger I 1"), "Tiger I 1")
    both = raw("german", ForceUnit(label="Panther 1", profile="Panther", command=True, subcommander=True))
    assert force_problems(both) == [
        "Sub-commander (pp. 20-21): Panther 1 is the command unit, so another unit must be the sub-commander"
    ]
    two = raw(
        "german",
        ForceUnit(label="Panther 1", profile="Panther", command=True),
        ForceUnit(label="Tiger 1", profile="Tiger I", subcommander=True),
        ForceUnit(label="Tiger 2", profile="Tiger I", subcommander=True),
    )
    assert force_problems(two) == [
        "Sub-commander (pp. 20-21): a force has one sub-commander; this one has 2 (Tiger 1, Tiger 2): "
        "keep one"
    ]


def test_a_force_holds_only_its_own_books_units():
    with pytest.raises(ValidationError, match="the German Army 1944/45 has no 'Sherman 75mm'"):
        raw("german", ForceUnit(label="Loot", profile="Sherman 75mm"))
    with pytest.raises(ValidationError, match="the book spells 'panther' as 'Panther'"):
        raw("german", ForceUnit(label="Cat", profile="panther"))


# --- export and import -------------------------------------------------------------------------


def test_export_is_a_short_header_and_a_line_per_unit():
    assert export_force(german_force()) == (
        "Force: Test force\n"
        "Nation: German\n"
        "Points limit: 500\n"
        "Date: 1944-12\n"
        "- Infantry Detachment 1: Infantry Detachment [command, IAW, transport 251/10 Halftrack]\n"
        "- Infantry Detachment 2: Infantry Detachment [IAW, transport 251 Halftrack]\n"
        "- Infantry Detachment 3: Infantry Detachment [IAW, transport Truck/Kubelwagen]\n"
        "- MG Team 1: MG Team [transport Truck/Kubelwagen]\n"
        "- Panther 1: Panther [sub-commander]\n"
        "- Jagdtiger 1: Jagdtiger"
    )


@pytest.mark.parametrize("make", [german_force, british_force, us_force, soviet_force])
def test_export_then_import_gives_the_same_force(make):
    assert import_force(export_force(make())) == make()


def test_import_is_tolerant_of_spacing_case_bullets_and_code_fences():
    text = """```
      NATION :   soviet
    points LIMIT:350
    force:   Guards   Rifles

    *   T-34/85   1 :  t-34/85   [ Command ]
    •  Lend lease :  sherman 76MM
    -Rifles :infantry detachment[iaw,TRANSPORT   m5 halftrack ]
    ```"""
    assert import_force(text) == raw(
        "soviet",
        ForceUnit(label="T-34/85 1", profile="T-34/85", command=True),
        ForceUnit(label="Lend lease", profile="Sherman 76mm"),
        ForceUnit(label="Rifles", profile="Infantry Detachment", iaw=True, transport="M5 Halftrack"),
        limit=350,
    ).model_copy(update={"name": "Guards Rifles"})


HEADER = "Force: Kampfgruppe\nNation: German\nPoints limit: 300\n"
EXPECTED = "expected Force:, Nation:, Points limit:, Date: or a unit line starting with -"
LIMITS = "a whole number from 1 to 100,000"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Force: K\nColour: grey\n", f"line 2 ('Colour: grey'): {EXPECTED}"),
        (HEADER + "Nation: US\n", "line 4 ('Nation: US'): Nation is given twice"),
        (
            "Force: K\nNation: Italian\nPoints limit: 300\n",
            "line 2 ('Nation: Italian'): there is no 'Italian' order of battle: "
            "choose German, British, US or Soviet",
        ),
        (
            "Force: K\nNation: German\nPoints limit: lots\n",
            f"line 3 ('Points limit: lots'): points limit: {LIMITS}, not 'lots'",
        ),
        (
            "Force: K\nNation: German\nPoints limit: " + "9" * 401 + "\n",
            f"line 3 ('Points limit: {'9' * 66}'… (415 characters)): "
            f"points limit: {LIMITS}, not '{'9' * 40}'… (401 characters)",
        ),
        (
            "Force: K\nNation: German\nPoints limit: 100001\n",
            f"line 3 ('Points limit: 100001'): points limit: {LIMITS}, not 100,001",
        ),
        (
            HEADER + "Date: spring 1945\n",
            "line 4 ('Date: spring 1945'): 'spring 1945' is not a date: "
            "write a year and month like 1944-09, or a year like 1945",
        ),
        (HEADER + "- Panther\n", "line 4 ('- Panther'): a unit line reads '- <label>: <unit> [upgrades]'"),
        (
            HEADER + "- Cat: Panzer V\n",
            "line 4 ('- Cat: Panzer V'): the German Army 1944/45 has no 'Panzer V'; "
            "did you mean Panzer IV G (late) to J, Panzer III J (late)/K or Panzer III L-N? "
            "(/force orbat nation:german find:Panzer lists every entry like it)",
        ),
        (
            HEADER + "- Cat: Panther [smoke]\n",
            "line 4 ('- Cat: Panther [smoke]'): 'smoke' is not an upgrade: "
            "use command, sub-commander, IAW, transport <name> or a troop quality",
        ),
        (
            HEADER + "- Cat: Panther [IAW, iaw]\n",
            "line 4 ('- Cat: Panther [IAW, iaw]'): 'iaw' is given twice",
        ),
        (
            HEADER + "- Cat: Infantry Detachment [transport]\n",
            "line 4 ('- Cat: Infantry Detachment [transport]'): "
            "name the transport after the word transport, e.g. 'transport Truck/Jeep'",
        ),
        (
            HEADER + "- Cat: Panther\n\n- cat: Tiger I\n",
            "line 6 ('- cat: Tiger I'): 'cat' is too like 'Cat': give the unit another label",
        ),
        (
            HEADER + "".join(f"- Gruppe {n}: Infantry Detachment\n" for n in range(1, 300)),
            "line 204 ('- Gruppe 201: Infantry Detachment'): a force has at most 200 units",
        ),
        (
            HEADER
            + "".join(f"- Gruppe {n}: Infantry Detachment\n" for n in range(1, 150))
            + "- gruppe 7: MG Team\n",
            "line 153 ('- gruppe 7: MG Team'): 'gruppe 7' is too like 'Gruppe 7': give the unit another "
            "label",
        ),
    ],
)
def test_import_refuses_a_malformed_line_by_its_number(text, message):
    with pytest.raises(IllegalCommand) as refused:
        import_force(text)
    assert str(refused.value) == message


def test_import_needs_the_force_nation_and_points_limit():
    with pytest.raises(IllegalCommand, match="^the force text has no Nation: or Points limit: line$"):
        import_force("Force: Kampfgruppe\n- Cat: Panther")


LABEL_TEXT = st.text(alphabet="abcXYZ019 -./'()#&!?*•é", min_size=1, max_size=12)


@st.composite
def forces(draw):
    nation = draw(st.sampled_from(NATIONS))
    orbat = load_orbat(nation)
    profiles = st.sampled_from([u.name for u in orbat.units] + list(orbat.lend_lease))
    units = [
        ForceUnit(
            label=f"{draw(LABEL_TEXT)} {number}",
            profile=draw(profiles),
            iaw=draw(st.booleans()),
            transport=draw(st.none() | st.sampled_from(nation_transports(orbat))),
            command=draw(st.booleans()),
            subcommander=draw(st.booleans()),
        )
        for number in range(draw(st.integers(0, 6)))
    ]
    name = draw(st.text(min_size=1, max_size=30).filter(lambda t: t.isprintable() and t.strip()))
    date = draw(st.none() | st.sampled_from(["1944", "1945", "1944-09", "1945-05", "1939-09"]))
    return Force(nation=nation, name=name, points_limit=draw(st.integers(1, 5000)), date=date, units=units)


@settings(max_examples=150, deadline=None)
@given(forces())
def test_any_force_survives_export_and_import(force):
    assert import_force(export_force(force)) == force


# --- into a game -------------------------------------------------------------------------------


def test_a_force_becomes_game_units_with_its_transports_alongside():
    units = {u.id: u for u in force_units(german_force(), "axis")}
    assert list(units) == [
        "axis-infantry-detachment-1",
        "axis-infantry-detachment-1-251-10-halftrack",
        "axis-infantry-detachment-2",
        "axis-infantry-detachment-2-251-halftrack",
        "axis-infantry-detachment-3",
        "axis-infantry-detachment-3-truck-kubelwagen",
        "axis-mg-team-1",
        "axis-mg-team-1-truck-kubelwagen",
        "axis-panther-1",
        "axis-jagdtiger-1",
    ]
    command = units["axis-infantry-detachment-1"]
    assert (command.is_command, command.iaw_weapon, command.transport) == (
        True,
        9,
        "axis-infantry-detachment-1-251-10-halftrack",
    )
    halftrack = units[command.transport]
    assert (halftrack.name, halftrack.profile.name, halftrack.profile.weapon) == (
        "Infantry Detachment 1 (251/10 Halftrack)",
        "251/10 Halftrack",
        5,
    )
    assert units["axis-panther-1"].is_subcommander and units["axis-panther-1"].transport is None
    assert units["axis-jagdtiger-1"].iaw_weapon is None
    assert all(u.side == "axis" and (u.position.x, u.position.y) == (0, 0) for u in units.values())
    assert not any(u.embarked_in for u in units.values())


def test_two_built_forces_make_a_game():
    state = new_game(
        {"allies": "soviet", "axis": "german"},
        force_units(soviet_force(), "allies") + force_units(german_force(), "axis"),
    )
    assert state.units["allies-sherman-76mm-2"].profile.nation == "us"  # lend lease
    assert [state.sides[s].break_point for s in ("allies", "axis")] == [26, 32]  # 2/3 of 39 and of 49


def test_several_upgrades_at_once_and_a_refused_one_changes_nothing():
    force = add_unit(new_force("german", "KG", 500), "Infantry Detachment")
    label = force.units[0].label
    upgraded = upgrade(force, label, iaw=True, transport="251 Halftrack", command=True)
    unit = upgraded.units[0]
    assert (unit.iaw, unit.transport, unit.command) == (True, "251 Halftrack", True)
    with pytest.raises(IllegalCommand):
        upgrade(force, label, iaw=True, transport="Sherman 75mm")
    assert force.units[0].iaw is False
