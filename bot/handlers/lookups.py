"""The handlers of the commands that look things up or roll: /roll, /chart, /odds, /measure,
/rule, /library, /rules and /stats, with or without a game in the channel."""

from __future__ import annotations

import asyncio

from bot.handlers.ask import Ask, Picture, Upload
from bot.help_pages import help_page
from bot.reply import Mention, Reply, Typed
from bot.services.dice_service import logged_line
from bot.services.game_service import GameError
from bot.sight_text import measure_text
from bot.text_orders import find_unit
from engine.firing.odds import (
    ShotSetup,
    SuccessTest,
    describe_shot_odds,
    describe_test_odds,
    read_options,
    setup_shot,
    shot_odds,
    table_shot,
)
from engine.rolls.charts import describe_chart, find_chart
from renderer.stats_chart import chart_description, dice_chart


async def roll(ask: Ask, dice: str, secret: bool) -> Reply:
    """A dice expression, or ``log``: the channel's latest rolls the asker may see (every secret
    one for its moderators)."""
    service = ask.services.dice
    if dice.strip().casefold() == "log":
        rows = await service.log(ask.channel, ask.user, referee=ask.moderator)
        lines = [
            (Mention(r.user_id), f" {r.asked}{' (secret)' if r.secret else ''}: ", *logged_line(r.result))
            for r in rows
        ]
        return Reply(tuple(lines), private=True) if lines else Reply.of("No rolls here yet", private=True)
    rolled = await service.roll(ask.channel, ask.user, dice, secret=secret)
    secrecy = [("(secret: only you, and referees in /roll log, see it)",)] if secret else []
    return Reply(
        ((Mention(ask.user), " rolls ", Typed(dice.strip())), *rolled.lines, *secrecy), private=secret
    )


async def chart_roll(ask: Ask, chart: str, choices: str, secret: bool) -> Reply:
    rolled = await ask.services.dice.chart(ask.channel, ask.user, chart, choices, secret=secret)
    return Reply(tuple((Mention(ask.user), " ", *line) for line in rolled.lines), private=secret)


async def chart_list(ask: Ask) -> tuple[Reply, ...]:
    """Every chart under its book, in pages of the front end's size."""
    pages = ask.services.dice.chart_list(ask.page, ask.written)
    return tuple(Reply(page.lines, private=True) for page in pages)


async def chart_show(ask: Ask, chart: str) -> Reply:
    return Reply(describe_chart(find_chart(chart)), private=True)


async def odds_shot(ask: Ask, **options: object) -> Reply:
    setup = read_options(ShotSetup, options)
    return Reply(await asyncio.to_thread(lambda: describe_shot_odds(shot_odds(setup_shot(setup)))))


async def odds_fire(ask: Ask, unit: str, target: str, moving: bool) -> Reply:
    """The odds of a shot on the table: only from the asker's own units, so nobody probes the
    enemy's."""
    state = await ask.services.games.game(ask.channel)
    side = ask.seat(state)
    shot = table_shot(
        state,
        find_unit(state, unit, side, player=ask.user),
        find_unit(state, target, aimed_by=side),
        moving=moving,
    )
    return Reply(await asyncio.to_thread(lambda: describe_shot_odds(shot_odds(shot))), private=True)


async def odds_test(ask: Ask, needs: int, sides: int, dice: int, reroll: str, at_least: int) -> Reply:
    test = read_options(
        SuccessTest, dict(needs=needs, sides=sides, dice=dice, reroll=reroll, at_least=at_least)
    )
    return Reply(describe_test_odds(test))


async def measure(ask: Ask, unit: str, to: str) -> Reply:
    """How far, and whether in sight, from one of the asker's units (only they see it)."""
    state = await ask.services.games.game(ask.channel)
    side = ask.seat(state)
    return Reply.of(*(await asyncio.to_thread(measure_text, state, side, unit, to)).split("\n"), private=True)


async def rule(ask: Ask, query: str, private: bool) -> Reply:
    found = await ask.services.rules.lookup(ask.owner, query)
    return Reply(found.lines, private=private)


async def library(ask: Ask) -> Reply:
    return await ask.services.rules.sources(ask.owner)


def _manager(ask: Ask) -> str:
    """The library's owner, if the asker may change it."""
    if ask.owner.startswith("dm:"):
        raise GameError("The rules library is managed in a server, not in a direct message")
    if not ask.manager:
        raise GameError("Only members with the Manage Server permission can change the rules library")
    return ask.owner


async def rules_import(ask: Ask, document: Upload, name: str | None) -> Reply:
    owner = _manager(ask)
    return await ask.services.rules.import_document(owner, ask.user, document.name, document.data, name)


async def rules_remove(ask: Ask, name: str) -> Reply:
    return await ask.services.rules.remove(_manager(ask), name)


async def stats(ask: Ask, campaign: bool) -> tuple[Reply | Picture, ...]:
    """The dice of the channel's game by player, as text tables and a picture; with ``campaign``,
    of every battle of its campaign."""
    services = ask.services
    found = await (
        services.campaign_stats.stats(ask.channel) if campaign else services.stats.stats([ask.channel])
    )
    if not found.report.players:
        return (found.reply(),)
    names = found.named(ask.name_of)
    png = await asyncio.to_thread(dice_chart, found.report, names)
    return found.reply(), Picture("dice-stats.png", png, chart_description(found.report, names))


async def help_topic(ask: Ask, topic: str) -> Reply:
    return help_page(topic)


LOOKUP_HANDLERS = {
    "help": help_topic,
    "roll": roll,
    "chart roll": chart_roll,
    "chart list": chart_list,
    "chart show": chart_show,
    "odds shot": odds_shot,
    "odds fire": odds_fire,
    "odds test": odds_test,
    "measure": measure,
    "rule": rule,
    "library": library,
    "rules import": rules_import,
    "rules remove": rules_remove,
    "stats": stats,
}
