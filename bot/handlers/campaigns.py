"""The handlers of /campaign: a Red Barricades campaign in the channel (RB CG III, one purchase
phase a CG Day, its orders sealed until the reveal) and linked Iron Cross battles between two saved
forces (our own campaign rules). A side's sealed orders are answered to the submitter alone; the
rest is the channel's. What the services post on their own (reminders, reveals, a battle's result
carried into its campaign, a linked battle set up as the channel's game) each front end hears
through the services' hooks, not through these answers."""

from __future__ import annotations

from bot.handlers.ask import Ask, TextFile
from bot.reply import Block, Reply
from bot.services.campaign_service import parse_duration, parse_reminders
from bot.services.game_service import GameError


def _players(ask: Ask, typed: str, what: str) -> list[str]:
    """The users an option names (one or more), refusing one that names nobody."""
    users = ask.users_in(typed)
    if not users:
        raise GameError(f"Mention the {what} (@name), one or more")
    return users


def _player(ask: Ask, typed: str, what: str) -> str:
    """The one user an option names, refusing one that names nobody or several."""
    users = ask.users_in(typed)
    if len(users) != 1:
        raise GameError(f"Mention the {what} (@name)" + (f": one, not {len(users)}" if users else ""))
    return users[0]


def _said(text: str, private: bool = False) -> Reply:
    """A service's answer given as text, line by line."""
    return Reply.of(*text.split("\n"), private=private)


async def campaign_new(
    ask: Ask,
    name: str,
    german: str,
    russian: str,
    german_cpp: int,
    russian_cpp: int,
    days: int,
    start: str,
    every: str,
    grace: str,
    reminders: str | None,
    referee: str | None,
    carry_over: bool,
) -> Reply:
    """A campaign of ``days`` phases, the asker its organiser (who keeps the books when no
    referee is named)."""
    return await ask.services.campaigns.create(
        ask.channel,
        name,
        {
            "german": _players(ask, german, "German players"),
            "russian": _players(ask, russian, "Russian players"),
        },
        start,
        {"german": german_cpp, "russian": russian_cpp},
        days,
        parse_duration(every),
        parse_duration(grace),
        parse_reminders(reminders),
        _player(ask, referee, "referee") if referee else None,
        ask.user,
        carry_over,
    )


async def campaign_submit(
    ask: Ask, buy: str | None, fortify: str | None, side: str | None, phase: int | None
) -> Reply:
    """Seal the asker's side's orders (the referee names the side): only the asker sees them."""
    sealed = await ask.services.campaigns.submit(ask.channel, ask.user, buy or "", side, phase, fortify or "")
    return _said(sealed, private=True)


async def campaign_status(ask: Ask) -> Reply:
    return await ask.services.campaigns.status(ask.channel)


async def campaign_ledger(ask: Ask, csv: bool) -> Reply | tuple[TextFile]:
    """The ledger as a table, or as a CSV file."""
    ledger = await ask.services.campaigns.ledger(ask.channel, csv=csv)
    if csv:
        return (TextFile("ledger.csv", ledger, "The campaign ledger"),)
    return Reply.of(Block(ledger))


async def campaign_orbat(ask: Ask, side: str | None) -> Reply:
    return await ask.services.campaigns.order_of_battle(ask.channel, side)


async def campaign_correct(ask: Ask, entry: int, to: str, reason: str) -> Reply:
    return _said(await ask.services.campaigns.correct(ask.channel, ask.user, entry, to, reason))


async def campaign_retain(ask: Ask, side: str, units: str) -> Reply:
    return _said(await ask.services.campaigns.retain(ask.channel, ask.user, side, units))


async def campaign_balance(ask: Ask, side: str, drm: int) -> Reply:
    """The side's Balance provision DRM (RB 11.32), set by the referee."""
    return _said(await ask.services.campaigns.balance(ask.channel, ask.user, side, drm))


async def campaign_cg2(ask: Ask, on: bool) -> Reply:
    return _said(await ask.services.campaigns.cg_ii(ask.channel, ask.user, on))


async def campaign_chit(ask: Ask, entry: int, colour: str) -> Reply:
    return _said(await ask.services.campaigns.chit(ask.channel, ask.user, entry, colour))


async def campaign_linked_new(
    ask: Ask,
    name: str,
    allies: str,
    allies_force: str,
    axis: str,
    axis_force: str,
    winner: int,
    loser: int,
    draw: int,
    damaged: str,
) -> Reply:
    """A linked campaign between two players' forces, saved where the asker's forces are."""
    players = {
        "allies": (_player(ask, allies, "allied player"), allies_force),
        "axis": (_player(ask, axis, "axis player"), axis_force),
    }
    rules = {"winner_points": winner, "loser_points": loser, "draw_points": draw, "damaged": damaged}
    return await ask.services.linked_campaigns.create(ask.channel, ask.owner, name, players, rules)


async def campaign_linked_battle(
    ask: Ask,
    scenario: str,
    table: str,
    seed: int | None,
    attacker: str | None,
    attacker_choice: str | None,
    reaction_seconds: int,
) -> Reply:
    """The campaign's next battle as the channel's game (the service tells the front ends of the
    game through its ``on_battle``)."""
    said, _ = await ask.services.linked_campaigns.battle(
        ask.channel,
        ask.user,
        scenario,
        table,
        attacker,
        attacker_choice,
        reaction_seconds,
        guild_id=ask.owner,
        seed=seed,
    )
    return said


async def campaign_linked_buy(ask: Ask, side: str, unit: str, label: str | None) -> Reply:
    return await ask.services.linked_campaigns.buy(ask.channel, ask.user, side, unit, label)


async def campaign_linked_command(ask: Ask, side: str, unit: str) -> Reply:
    return _said(await ask.services.linked_campaigns.command(ask.channel, ask.user, side, unit))


async def campaign_linked_retire(ask: Ask, side: str, unit: str) -> Reply:
    return await ask.services.linked_campaigns.retire(ask.channel, ask.user, side, unit)


async def campaign_linked_end(ask: Ask) -> Reply:
    return await ask.services.linked_campaigns.end(ask.channel, ask.user)


async def campaign_linked_standings(ask: Ask) -> Reply:
    return await ask.services.linked_campaigns.standings(ask.channel)


CAMPAIGN_HANDLERS = {
    "campaign new": campaign_new,
    "campaign submit": campaign_submit,
    "campaign status": campaign_status,
    "campaign ledger": campaign_ledger,
    "campaign orbat": campaign_orbat,
    "campaign correct": campaign_correct,
    "campaign retain": campaign_retain,
    "campaign balance": campaign_balance,
    "campaign cg2": campaign_cg2,
    "campaign chit": campaign_chit,
    "campaign linked new": campaign_linked_new,
    "campaign linked battle": campaign_linked_battle,
    "campaign linked buy": campaign_linked_buy,
    "campaign linked command": campaign_linked_command,
    "campaign linked retire": campaign_linked_retire,
    "campaign linked end": campaign_linked_end,
    "campaign linked standings": campaign_linked_standings,
}
