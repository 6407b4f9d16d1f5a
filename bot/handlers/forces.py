"""The handlers of /force: build, check, save, copy, export and import a player's forces
(pp. 18-24). Every answer is private: a force is its player's business until the game starts."""

from __future__ import annotations

from bot.handlers.ask import Ask
from bot.reply import Block, Reply
from bot.services.force_service import describe_order_of_battle, troop_quality
from engine.forces import Force, add_unit, remove_unit, upgrade


def _private(reply: Reply) -> Reply:
    return Reply(reply.lines, private=True)


async def force_new(ask: Ask, nation: str, name: str, points: int, date: str | None, ruleset: str) -> Reply:
    return _private(
        await ask.services.forces.create(ask.owner, ask.user, nation, name, points, date, ruleset)
    )


async def force_add(ask: Ask, force: str, unit: str, label: str | None, quality: str | None) -> Reply:
    qualities = troop_quality(quality)
    edited = await ask.services.forces.edit(
        ask.owner, ask.user, force, lambda f: add_unit(f, unit, label, qualities)
    )
    return _private(edited)


async def force_orbat(ask: Ask, nation: str, ruleset: str, find: str | None) -> Reply:
    return describe_order_of_battle(nation, ruleset, find)


async def force_remove(ask: Ask, force: str, unit: str) -> Reply:
    return _private(
        await ask.services.forces.edit(ask.owner, ask.user, force, lambda f: remove_unit(f, unit))
    )


async def force_upgrade(
    ask: Ask,
    force: str,
    unit: str,
    iaw: bool,
    transport: str | None,
    command: bool,
    subcommander: bool,
    quality: str | None,
) -> Reply:
    """An upgrade of one unit; ``iaw`` given as no takes the weapon away."""
    qualities = None if quality is None else troop_quality(quality)

    def change(f: Force) -> Force:
        return upgrade(
            f,
            unit,
            iaw=iaw,
            transport=transport,
            command=command,
            subcommander=subcommander,
            quality=qualities,
        )

    return _private(await ask.services.forces.edit(ask.owner, ask.user, force, change))


async def force_show(ask: Ask, force: str) -> Reply:
    return _private(await ask.services.forces.show(ask.owner, ask.user, force))


async def force_list(ask: Ask) -> Reply:
    return _private(await ask.services.forces.listing(ask.owner, ask.user))


async def force_copy(ask: Ask, force: str, name: str) -> Reply:
    return _private(await ask.services.forces.copy(ask.owner, ask.user, force, name))


async def force_export(ask: Ask, force: str) -> Reply:
    return Reply.of(Block(await ask.services.forces.export(ask.owner, ask.user, force)), private=True)


async def force_import(ask: Ask, replace: bool, pasted: str) -> Reply:
    """A force's text, pasted in Discord's form or read from a file at the console."""
    return _private(await ask.services.forces.import_text(ask.owner, ask.user, pasted, replace=replace))


async def force_delete(ask: Ask, force: str) -> Reply:
    return _private(await ask.services.forces.delete(ask.owner, ask.user, force))


FORCE_HANDLERS = {
    "force new": force_new,
    "force add": force_add,
    "force orbat": force_orbat,
    "force remove": force_remove,
    "force upgrade": force_upgrade,
    "force show": force_show,
    "force list": force_list,
    "force copy": force_copy,
    "force export": force_export,
    "force import": force_import,
    "force delete": force_delete,
}
