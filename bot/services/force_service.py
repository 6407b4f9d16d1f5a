"""ForceService: players' forces, saved per player and server, built and checked with the
force builder (:mod:`engine.forces`), listed, copied, exported and imported as text."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import delete, func
from sqlmodel import select

from bot.services.game_service import GameError
from bot.services.limits import MAX_POINTS, NAME, bounded_text, whole_number
from bot.storage.store import GameStore
from bot.storage.tables import ForceRow, utcnow
from engine.commands import JoinSide
from engine.errors import IllegalCommand
from engine.forces import (
    NATION_NAMES,
    Force,
    export_force,
    force_break_points,
    force_points,
    force_problems,
    force_units,
    import_force,
    new_force,
    unit_points,
)
from engine.profiles import find_profile

MAX_FORCES = 50  # per player and server


def describe_force(force: Force) -> str:
    """The force with each unit's cost and break points, the totals, and what it breaks."""
    date = f", {force.date}" if force.date else ""
    lines = [
        f"**{force.name}** ({NATION_NAMES[force.nation]}{date}): {force_points(force)} of "
        f"{force.points_limit} points, {force_break_points(force)} BP"
    ]
    for unit in force.units:
        upgrades = [
            w
            for w, on in (("command", unit.command), ("sub-commander", unit.subcommander), ("IAW", unit.iaw))
            if on
        ]
        upgrades += [f"in a {unit.transport}"] if unit.transport else []
        extra = f" [{', '.join(upgrades)}]" if upgrades else ""
        bp = find_profile(force.nation, unit.profile).break_points
        lines.append(f"- {unit.label}: {unit.profile}{extra}, {unit_points(force, unit)} pts, {bp} BP")
    if not force.units:
        lines.append("No units yet: /force add")
    problems = force_problems(force)
    if problems:
        lines += ["Not yet legal:", *(f"- {p}" for p in problems)]
    elif force.units:
        lines.append("Legal for any scenario role (snipers are checked once a role is known)")
    return "\n".join(lines)


def _refusing(action: Callable[[], Force]) -> Force:
    try:
        return action()
    except IllegalCommand as refusal:
        raise GameError(str(refusal)) from refusal


class ForceService:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def create(
        self, guild_id: str, owner_id: str, nation: str, name: str, points: int, date: str | None = None
    ) -> str:
        whole_number("points", points, 1, MAX_POINTS)
        force = _refusing(lambda: new_force(nation, bounded_text("A force's name", name, NAME), points, date))
        await self._add(guild_id, owner_id, force)
        return describe_force(force)

    async def edit(self, guild_id: str, owner_id: str, name: str, change: Callable[[Force], Force]) -> str:
        """Apply a change from :mod:`engine.forces` to a saved force and save it; a refused
        change leaves the force as it was."""
        async with self.store.sessions() as session, session.begin():
            row = await self._row(session, guild_id, owner_id, name)
            force = _refusing(lambda: change(Force.model_validate_json(row.force)))
            row.force, row.updated_at = force.model_dump_json(), utcnow()
            session.add(row)
        return describe_force(force)

    async def force(self, guild_id: str, owner_id: str, name: str) -> Force:
        async with self.store.sessions() as session:
            row = await self._row(session, guild_id, owner_id, name)
        return Force.model_validate_json(row.force)

    async def joining(self, guild_id: str, owner_id: str, side: str, name: str, role: str) -> JoinSide:
        """The command that brings a saved force to a scenario game on ``side``, in its ``role``
        (attacker or defender decides whether it may field a sniper); refused unless legal."""
        force = await self.force(guild_id, owner_id, name)
        defending = role == "defender" if role in ("attacker", "defender") else None
        problems = force_problems(force, defending=defending)
        if not force.units or problems:
            reasons = "\n".join(f"- {p}" for p in problems) or "- it has no units"
            raise GameError(f"{force.name} is not ready to fight:\n{reasons}")
        units = tuple(force_units(force, side))
        return JoinSide(
            side=side, player=owner_id, nation=force.nation, units=units, points_limit=force.points_limit
        )

    async def show(self, guild_id: str, owner_id: str, name: str) -> str:
        return describe_force(await self.force(guild_id, owner_id, name))

    async def names(self, guild_id: str, owner_id: str) -> list[str]:
        async with self.store.sessions() as session:
            query = (
                select(ForceRow.name)
                .where(ForceRow.guild_id == guild_id, ForceRow.owner_id == owner_id)
                .order_by(ForceRow.name)
            )
            return list((await session.execute(query)).scalars())

    async def listing(self, guild_id: str, owner_id: str) -> str:
        lines = []
        for name in await self.names(guild_id, owner_id):
            force = await self.force(guild_id, owner_id, name)
            ok = "legal" if force.units and not force_problems(force) else "not yet legal"
            count = len(force.units)
            lines.append(
                f"**{force.name}** ({NATION_NAMES[force.nation]}): "
                f"{force_points(force)}/{force.points_limit} points, {count} unit{'s' * (count != 1)}, {ok}"
            )
        return "\n".join(lines) or "You have no forces here yet: /force new"

    async def copy(self, guild_id: str, owner_id: str, name: str, new_name: str) -> str:
        source = await self.force(guild_id, owner_id, name)
        copied = _refusing(lambda: Force.model_validate({**source.model_dump(), "name": new_name}))
        await self._add(guild_id, owner_id, copied)
        return describe_force(copied)

    async def export(self, guild_id: str, owner_id: str, name: str) -> str:
        return export_force(await self.force(guild_id, owner_id, name))

    async def import_text(self, guild_id: str, owner_id: str, text: str, *, replace: bool = False) -> str:
        force = _refusing(lambda: import_force(text))
        if replace:
            await self.delete(guild_id, owner_id, force.name, missing_ok=True)
        await self._add(guild_id, owner_id, force)
        return describe_force(force)

    async def delete(self, guild_id: str, owner_id: str, name: str, *, missing_ok: bool = False) -> str:
        async with self.store.sessions() as session, session.begin():
            result = await session.execute(
                delete(ForceRow).where(
                    ForceRow.guild_id == guild_id,
                    ForceRow.owner_id == owner_id,
                    func.lower(ForceRow.name) == name.strip().casefold(),
                )
            )
        if not result.rowcount and not missing_ok:
            raise GameError(f"You have no force called {name!r}: see /force list")
        return f"Deleted {name}"

    async def _add(self, guild_id: str, owner_id: str, force: Force) -> None:
        async with self.store.sessions() as session, session.begin():
            mine = await self.names(guild_id, owner_id)
            if force.name.casefold() in (n.casefold() for n in mine):
                raise GameError(
                    f"You already have a force called {force.name}: pick another name, or delete it"
                )
            if len(mine) >= MAX_FORCES:
                raise GameError(f"You have {MAX_FORCES} forces here, the most you may keep: delete one first")
            session.add(
                ForceRow(guild_id=guild_id, owner_id=owner_id, name=force.name, force=force.model_dump_json())
            )

    async def _row(self, session, guild_id: str, owner_id: str, name: str) -> ForceRow:
        query = select(ForceRow).where(
            ForceRow.guild_id == guild_id,
            ForceRow.owner_id == owner_id,
            func.lower(ForceRow.name) == name.strip().casefold(),
        )
        row = (await session.execute(query)).scalars().first()
        if row is None:
            raise GameError(f"You have no force called {name!r}: see /force list")
        return row
