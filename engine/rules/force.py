"""Force restrictions from the orders of battle (Iron Cross 2015, pp. 18-24).

Each check returns the reason a force breaks the rule, with by how much, or None.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.profiles import Availability, IAWUpgrade, Orbat, Special, UnitClass, UnitProfile
from engine.wording import counted

ORBAT_PAGE = {"german": 21, "british": 22, "us": 23, "soviet": 24}  # each nation's order of battle
COMMAND_HALFTRACK = "251/10 Halftrack"  # the German infantry command unit's upgrade (p. 21)
TRANSPORT_BUYERS = frozenset({Special.MG_TEAM, Special.MORTAR, Special.ANTI_TANK_GUN})
# The first month each availability allows; the book says only "late 1944", read here as September.
AVAILABLE_FROM = {Availability.ONLY_1945: (1945, 1), Availability.FROM_LATE_1944: (1944, 9)}


def rare_units_problem(units: Sequence[UnitProfile]) -> str | None:
    """Only one rare unit, of any type, per force (p. 20)."""
    rare = [u.name for u in units if u.has(Special.RARE)]
    if len(rare) > 1:
        return f"only one rare unit is allowed; this force has {len(rare)} ({', '.join(rare)})"
    return None


def sniper_problem(units: Sequence[UnitProfile], *, defending: bool | None) -> str | None:
    """Only a defending force may take snipers, and a single team at most (p. 20).

    ``defending`` is None while the force's part in a scenario is not yet known: then only the
    one-team limit applies."""
    snipers = sum(1 for u in units if u.has(Special.SNIPER))
    if snipers and defending is False:
        return "only a defending side may field a sniper team"
    if snipers > 1:
        return f"a force may field one sniper team; this one has {snipers}"
    return None


def iaw_problem(detachments: int, with_iaw: int, iaw: IAWUpgrade) -> str | None:
    """IAW upgrades: any infantry detachment (German, p. 21) or up to half of them (pp. 22-24)."""
    allowed = detachments if iaw.limit == "all" else detachments // 2
    if with_iaw > allowed:
        return (
            f"{with_iaw} detachments carry {iaw.name} but at most {allowed} of {detachments} may "
            f"({with_iaw - allowed} too many)"
        )
    return None


def infantry_outnumber_support_problem(units: Sequence[UnitProfile]) -> str | None:
    """Infantry detachments must outnumber support squads (pp. 21-24)."""
    infantry = sum(1 for u in units if u.unit_class is UnitClass.INFANTRY)
    support = sum(1 for u in units if u.unit_class is UnitClass.SUPPORT)
    if support and infantry <= support:
        return (
            f"infantry detachments ({infantry}) must outnumber support squads ({support}): "
            f"add {counted(support - infantry + 1, 'detachment')} or drop support squads"
        )
    return None


def points_problem(points: int, limit: int) -> str | None:
    """The points system (p. 18): a force is bought within the points limit the players agree."""
    if points > limit:
        return f"the force costs {points} points, {points - limit} over its {limit}-point limit"
    return None


def command_unit_problem(commanders: Sequence[str]) -> str | None:
    """Every force names one of its units as the command unit, free of charge (p. 18, pp. 21-24)."""
    if not commanders:
        return "no unit is the command unit: choose one"
    if len(commanders) > 1:
        return (
            f"a force has one command unit; this one has {len(commanders)} ({', '.join(commanders)}): "
            "keep one"
        )
    return None


def subcommander_problem(nation: str, subcommanders: Sequence[str], commanders: Sequence[str]) -> str | None:
    """Only the German list allows a sub-commander (p. 21): a single unit besides the command
    unit, from which the command unit's re-roll range may be measured (p. 20)."""
    if not subcommanders:
        return None
    if nation != "german":
        return f"only German forces have a sub-commander; drop it from {', '.join(subcommanders)}"
    if len(subcommanders) > 1:
        return (
            f"a force has one sub-commander; this one has {len(subcommanders)} "
            f"({', '.join(subcommanders)}): keep one"
        )
    if subcommanders[0] in commanders:
        return f"{subcommanders[0]} is the command unit, so another unit must be the sub-commander"
    return None


def iaw_carrier_problem(label: str, profile: UnitProfile) -> str | None:
    """The IAW upgrade is an option for infantry detachments only (p. 19 and each list, pp. 21-24)."""
    if profile.unit_class is not UnitClass.INFANTRY:
        return f"{label} is a {profile.name}; only infantry detachments may carry an IAW"
    return None


def may_buy_transport(profile: UnitProfile) -> bool:
    """Infantry detachments, MG teams, mortar teams and anti-tank guns buy transports (pp. 21-24)."""
    return profile.unit_class is UnitClass.INFANTRY or bool(profile.specials & TRANSPORT_BUYERS)


def nation_transports(orbat: Orbat) -> list[str]:
    """The transports a nation's order of battle lists (pp. 21-24)."""
    return [u.name for u in orbat.units if u.has(Special.TRANSPORT)]


def transport_problem(
    label: str, carrier: UnitProfile, transport: UnitProfile, orbat: Orbat, *, command: bool
) -> str | None:
    """A transport is bought for an infantry detachment, MG team, mortar team or anti-tank gun,
    from the transports of its own nation's list (pp. 21-24); the German 251/10 Halftrack is
    reserved for an infantry command unit (p. 21)."""
    if not may_buy_transport(carrier):
        return (
            f"{label} is a {carrier.name}; only infantry detachments, MG teams, mortar teams and "
            "anti-tank guns may buy a transport"
        )
    if transport.name not in nation_transports(orbat):
        return (
            f"{label}'s {transport.name} is not one of the {orbat.title} transports "
            f"({', '.join(nation_transports(orbat))})"
        )
    if transport.name == COMMAND_HALFTRACK and not (command and carrier.unit_class is UnitClass.INFANTRY):
        return f"only an infantry command unit may ride in a {COMMAND_HALFTRACK}, and {label} is not one"
    return None


def unbought_transport_problem(label: str, profile: UnitProfile) -> str | None:
    """Transports belong to the unit they come with (p. 20): they are bought with it, never alone."""
    if profile.has(Special.TRANSPORT):
        return f"{label} is a {profile.name}, which comes only as a transport bought for a unit"
    return None


def lend_lease_problem(units: Sequence[UnitProfile], orbat: Orbat) -> str | None:
    """Soviet forces may add vehicles of one class, i.e. one entry, from the lend-lease list of
    US and British vehicles (p. 24); any number of that one vehicle is allowed."""
    classes = sorted({u.name for u in units if u.nation != orbat.nation})
    if len(classes) > 1:
        return (
            f"one class of lend-lease vehicle is allowed; this force has {len(classes)} "
            f"({', '.join(classes)}): keep one"
        )
    return None


def availability_problem(label: str, profile: UnitProfile, year: int, month: int | None) -> str | None:
    """Some vehicles serve in 1945 only, others from late 1944 (pp. 22-23). A force dated by its
    year alone may field whatever served at some time in that year."""
    start = AVAILABLE_FROM.get(profile.availability)
    if start is None:
        return None
    months_early = (start[0] * 12 + start[1]) - (year * 12 + (month or 12))
    if months_early <= 0:
        return None
    dated = f"{year}-{month:02d}" if month else str(year)
    return (
        f"{label} ({profile.name}) serves {profile.availability} ({start[0]}-{start[1]:02d} on) but the "
        f"force is dated {dated}, {counted(months_early, 'month')} too early"
    )
