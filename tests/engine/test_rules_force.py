"""Force restrictions from the orders of battle (Iron Cross 2015, pp. 20-24)."""

from engine.profiles import find_profile, load_orbat
from engine.rules.force import (
    iaw_problem,
    infantry_outnumber_support_problem,
    rare_units_problem,
    sniper_problem,
)


def german(*names):
    return [find_profile("german", n) for n in names]


def test_one_rare_unit_per_force_p20():
    assert rare_units_problem(german("Jagdtiger", "Panther")) is None
    problem = rare_units_problem(german("Jagdtiger", "StuH 42"))
    assert problem == "only one rare unit is allowed; this force has 2 (Jagdtiger, StuH 42)"


def test_only_defenders_field_one_sniper_team_p20():
    assert sniper_problem(german("Sniper Team"), defending=True) is None
    assert "defending" in sniper_problem(german("Sniper Team"), defending=False)
    assert "has 2" in sniper_problem(german("Sniper Team", "Sniper Team"), defending=True)


def test_iaw_all_german_detachments_half_for_the_allies_p21_p24():
    assert iaw_problem(5, 5, load_orbat("german").iaw) is None
    assert iaw_problem(5, 2, load_orbat("british").iaw) is None
    assert iaw_problem(5, 3, load_orbat("us").iaw) == (
        "3 detachments carry Bazooka but at most 2 of 5 may (1 too many)"
    )


def test_infantry_detachments_must_outnumber_support_squads_p21():
    assert (
        infantry_outnumber_support_problem(german("Infantry Detachment", "Infantry Detachment", "MG Team"))
        is None
    )
    problem = infantry_outnumber_support_problem(german("Infantry Detachment", "MG Team", "Mortar Team"))
    assert problem == (
        "infantry detachments (1) must outnumber support squads (2): add 2 detachments or drop support squads"
    )
