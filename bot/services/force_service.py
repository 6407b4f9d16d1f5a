"""ForceService: players' forces, saved per player and server, built and checked with the
force builder (:mod:`engine.forces`), listed, copied, exported and imported as text."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable

from sqlalchemy import delete, func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from bot.reply import Line, Reply, Strong
from bot.services.game_service import GameError
from bot.services.limits import FORCE_TEXT, MAX_POINTS, NAME, bounded_name, bounded_text, whole_number
from bot.storage.store import GameStore
from bot.storage.tables import ForceRow, utcnow
from bot.storage.writes import TRIES, back_off, take_name
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
    order_of_battle,
    unit_break_points,
    unit_points,
)
from engine.names import either, ranked
from engine.profiles import Availability, find_profile, load_orbat
from engine.rules.scenario import defends
from engine.rulesets import RULE_SETS, RuleSet
from engine.wording import counted, quoted

MAX_FORCES = 50  # per player and server
REGULAR = "regular"  # troop quality left at the default


def describe_force(force: Force) -> Reply:
    """The force with each unit's cost and break points, the totals, and what it breaks: for its
    owner's eyes."""
    date = f", {force.date}" if force.date else ""
    date += f", {RULE_SETS[force.rules].title}" if force.rules != RuleSet.name else ""
    lines: list[Line | str] = [
        (
            Strong(force.name),
            f" ({NATION_NAMES[force.nation]}{date}): {force_points(force)} of "
            f"{force.points_limit} points, {force_break_points(force)} BP",
        )
    ]
    for unit in force.units:
        upgrades = [
            w
            for w, on in (("command", unit.command), ("sub-commander", unit.subcommander), ("IAW", unit.iaw))
            if on
        ]
        upgrades += list(unit.quality) + ([f"in a {unit.transport}"] if unit.transport else [])
        extra = f" [{', '.join(upgrades)}]" if upgrades else ""
        bp = unit_break_points(force, unit)
        lines.append(f"- {unit.label}: {unit.profile}{extra}, {unit_points(force, unit)} pts, {bp} BP")
    if not force.units:
        lines.append("No units yet: /force add")
    problems = force_problems(force)
    if problems:
        lines += ["Not yet legal:", *(f"- {p}" for p in problems)]
    elif force.units:
        lines.append("Legal for any scenario role (snipers are checked once a role is known)")
    return Reply.of(*lines, private=True)


def describe_order_of_battle(nation: str, rules: str, find: str | None = None) -> Reply:
    """Every entry a force of the nation may add under the rule set, with what it costs (those
    whose names hold every word of ``find``, else the nearest to it): the whole list the
    autocomplete of /force add shows 25 at a time."""
    if nation not in NATION_NAMES:
        raise GameError(f"There is no {quoted(nation)} order of battle: choose {either(list(NATION_NAMES))}")
    names = order_of_battle(nation, rules)
    words = (find or "").casefold().split()
    shown = [n for n in names if all(w in n.casefold() for w in words)] or ranked(find or "", names)
    own = RULE_SETS[rules].own_units(nation)
    title = load_orbat(nation).title + (f", {RULE_SETS[rules].title}" if rules != RuleSet.name else "")
    matching = f" matching {quoted(find)}" if find else ""
    lines: list[Line | str] = [(Strong(title), f": {counted(len(shown), 'entry', 'entries')}{matching}")]
    for name in shown:
        entry = find_profile(nation, own.get(name, name))
        counts_as = f" (counts as {entry.name})" if name in own and entry.name != name else ""
        when = f", {entry.availability.value}" if entry.availability is not Availability.ANY else ""
        lines.append(f"- {name}{counts_as}: {entry.points} pts, {entry.break_points} BP{when}")
    if not shown:
        lines.append(f"Nothing like {quoted(find or '')}: leave find: out for the whole list")
    return Reply.of(*lines, private=True)


def troop_quality(text: str | None) -> tuple[str, ...]:
    """The troop quality words typed for a unit ("veteran elite", "veteran, elite"), bounded;
    "regular" is the default, so no word of its own."""
    words = bounded_text("A troop quality", text or "", NAME).replace(",", " ").replace("+", " ")
    return tuple(word.casefold() for word in words.split() if word.casefold() != REGULAR)


def _refusing(action: Callable[[], Force]) -> Force:
    try:
        return action()
    except IllegalCommand as refusal:
        raise GameError(str(refusal)) from refusal


class ForceService:
    """Saved forces. An edit is written over the version it read, so two edits at once (in one
    process or several) both count; a name is taken once per player and server (the schema
    holds to it)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._locks: defaultdict[tuple[str, str], asyncio.Lock] = defaultdict(asyncio.Lock)

    async def create(
        self,
        guild_id: str,
        owner_id: str,
        nation: str,
        name: str,
        points: int,
        date: str | None = None,
        rules: str = RuleSet.name,
    ) -> Reply:
        whole_number("points", points, 1, MAX_POINTS)
        named = bounded_name("A force's name", name)
        rules = bounded_text("A rule set", rules, NAME)
        force = _refusing(lambda: new_force(nation, named, points, date, rules))
        await self._add(guild_id, owner_id, force)
        return describe_force(force)

    async def edit(self, guild_id: str, owner_id: str, name: str, change: Callable[[Force], Force]) -> Reply:
        """Apply a change from :mod:`engine.forces` to a saved force and save it; a refused
        change leaves the force as it was. The change is made again to the force as it then
        stands when another edit was saved since it was read (one player's edits in this
        process wait their turn; another process's are found by the version)."""
        async with self._locks[(guild_id, owner_id)]:
            for lost in range(TRIES):
                await back_off(lost)
                async with self.store.sessions() as session:
                    row = await self._row(session, guild_id, owner_id, name)
                force = _refusing(lambda read=row: change(Force.model_validate_json(read.force)))
                if await self._save_over(row, force):
                    return describe_force(force)
        raise GameError(f"{row.name} changed under you: try again")

    async def _save_over(self, row: ForceRow, force: Force) -> bool:
        """Save the force over the version ``row`` was read at; False if another edit came first."""
        async with self.store.sessions() as session, session.begin():
            result = await session.execute(
                update(ForceRow)
                .where(ForceRow.id == row.id, ForceRow.version == row.version)
                .values(force=force.model_dump_json(), version=row.version + 1, updated_at=utcnow())
            )
        return result.rowcount == 1

    async def force(self, guild_id: str, owner_id: str, name: str) -> Force:
        async with self.store.sessions() as session:
            row = await self._row(session, guild_id, owner_id, name)
        return Force.model_validate_json(row.force)

    async def joining(self, guild_id: str, owner_id: str, side: str, name: str, role: str) -> JoinSide:
        """The command that brings a saved force to a scenario game on ``side``, in its ``role``
        (only a defender may field a sniper, p. 20); refused unless legal."""
        force = await self.force(guild_id, owner_id, name)
        problems = force_problems(force, defending=defends(role))
        if not force.units or problems:
            reasons = "\n".join(f"- {p}" for p in problems) or "- it has no units"
            raise GameError(f"{force.name} is not ready to fight:\n{reasons}")
        units = tuple(force_units(force, side))
        return JoinSide(
            side=side,
            player=owner_id,
            nation=force.nation,
            units=units,
            points_limit=force.points_limit,
            rules=force.rules,
        )

    async def show(self, guild_id: str, owner_id: str, name: str) -> Reply:
        return describe_force(await self.force(guild_id, owner_id, name))

    async def names(self, guild_id: str, owner_id: str) -> list[str]:
        async with self.store.sessions() as session:
            query = (
                select(ForceRow.name)
                .where(ForceRow.guild_id == guild_id, ForceRow.owner_id == owner_id)
                .order_by(ForceRow.name)
            )
            return list((await session.execute(query)).scalars())

    async def listing(self, guild_id: str, owner_id: str) -> Reply:
        lines: list[Line] = []
        for name in await self.names(guild_id, owner_id):
            force = await self.force(guild_id, owner_id, name)
            ok = "legal" if force.units and not force_problems(force) else "not yet legal"
            count = len(force.units)
            points = f"{force_points(force)}/{force.points_limit} points"
            lines.append(
                (
                    Strong(force.name),
                    f" ({NATION_NAMES[force.nation]}): {points}, {counted(count, 'unit')}, {ok}",
                )
            )
        return Reply.of(*(lines or ["You have no forces here yet: /force new"]), private=True)

    async def copy(self, guild_id: str, owner_id: str, name: str, new_name: str) -> Reply:
        source = await self.force(guild_id, owner_id, name)
        new_name = bounded_name("A force's name", new_name)
        copied = _refusing(lambda: Force.model_validate({**source.model_dump(), "name": new_name}))
        await self._add(guild_id, owner_id, copied)
        return describe_force(copied)

    async def export(self, guild_id: str, owner_id: str, name: str) -> str:
        return export_force(await self.force(guild_id, owner_id, name))

    async def import_text(self, guild_id: str, owner_id: str, text: str, *, replace: bool = False) -> Reply:
        """A force from its text (``/force export``'s), read off the event loop; a bad text is
        refused with its line and nothing is stored."""
        text = bounded_text("A force's text", text, FORCE_TEXT)
        force = await asyncio.to_thread(_refusing, lambda: import_force(text))
        await self._add(guild_id, owner_id, force, replace=replace)
        return describe_force(force)

    async def delete(self, guild_id: str, owner_id: str, name: str, *, missing_ok: bool = False) -> Reply:
        async with self.store.sessions() as session, session.begin():
            result = await session.execute(delete(ForceRow).where(*self._named(guild_id, owner_id, name)))
        if not result.rowcount and not missing_ok:
            raise GameError(f"You have no force called {name!r}: see /force list")
        return Reply.of(f"Deleted {name}", private=True)

    async def _add(self, guild_id: str, owner_id: str, force: Force, *, replace: bool = False) -> None:
        """Save a new force (``replace``: in place of the player's force of that name, if any).
        The name is the schema's to keep unique: a force of that name saved at the same moment
        by another request refuses this one (replacing takes the name first, so replaces in
        turn). The count is made after the insert, in the same transaction (exact on SQLite,
        which lets one writer in at a time; on PostgreSQL forces saved at the same instant may
        pass it by one)."""
        try:
            async with self.store.sessions() as session, session.begin():
                if replace:
                    await take_name(session, ForceRow, guild_id, owner_id, force.name.casefold())
                    await session.execute(
                        delete(ForceRow).where(*self._named(guild_id, owner_id, force.name))
                    )
                json = force.model_dump_json()
                session.add(ForceRow(guild_id=guild_id, owner_id=owner_id, name=force.name, force=json))
                await session.flush()
                if await self._count(session, guild_id, owner_id) > MAX_FORCES:
                    raise GameError(
                        f"You have {MAX_FORCES} forces here, the most you may keep: delete one first"
                    )
        except IntegrityError:
            raise GameError(
                f"You already have a force called {force.name}: pick another name, or delete it"
            ) from None

    @staticmethod
    async def _count(session, guild_id: str, owner_id: str) -> int:
        query = select(func.count()).where(ForceRow.guild_id == guild_id, ForceRow.owner_id == owner_id)
        return await session.scalar(query) or 0

    @staticmethod
    def _named(guild_id: str, owner_id: str, name: str) -> tuple:
        """The conditions that find a player's force by name, in any case."""
        return (
            ForceRow.guild_id == guild_id,
            ForceRow.owner_id == owner_id,
            func.lower(ForceRow.name) == name.strip().casefold(),
        )

    async def _row(self, session, guild_id: str, owner_id: str, name: str) -> ForceRow:
        row = (
            (await session.execute(select(ForceRow).where(*self._named(guild_id, owner_id, name))))
            .scalars()
            .first()
        )
        if row is None:
            raise GameError(f"You have no force called {name!r}: see /force list")
        return row
