"""Force restrictions from the orders of battle (Iron Cross 2015, pp. 20-24).

Each check returns the reason a force breaks the rule, with by how much, or None.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.profiles import IAWUpgrade, Special, UnitClass, UnitProfile


def rare_units_problem(units: Sequence[UnitProfile]) -> str | None:
    """Only one rare unit, of any type, per force (p. 20)."""
    rare = [u.name for u in units if u.has(Special.RARE)]
    if len(rare) > 1:
        return f"only one rare unit is allowed; this force has {len(rare)} ({', '.join(rare)})"
    return None


def sniper_problem(units: Sequence[UnitProfile], *, defending: bool) -> str | None:
    """Only a defending force may take snipers, and a single team at most (p. 20)."""
    snipers = sum(1 for u in units if u.has(Special.SNIPER))
    if snipers and not defending:
        return "only a defending force may include a sniper team"
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
            f"add {support - infantry + 1} detachment(s) or drop support squads"
        )
    return None
