"""The console's ``/campaign`` commands: a campaign in the console's channel, over the same
CampaignService as Discord.

Players speak with ``as <player>``, as at the game table. Reminders and reveals are written as
they come when the console gives a writer; otherwise they wait and head the next /campaign reply.
``/campaign linked ...`` plays linked Iron Cross battles: a battle it sets up becomes the table's game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from bot.app import Services
from bot.console_grammar import Line
from bot.plain_text import plain_reply
from bot.reply import Reply
from bot.services.campaign_service import parse_duration, parse_reminders
from bot.services.game_service import GameError, Outcome
from bot.services.limits import MAX_CPP, MAX_DAYS, MAX_ENTRIES, MAX_POINTS, reaction_seconds, whole_number
from engine.campaign.linked import SIDES

CHANNEL = "console"
LEDGER_ENTRY = 'The ledger entry (entry:12 to:void reason:"why")'
SIDES_RB = ("german", "russian")  # the sides of a Red Barricades campaign
USAGE = (
    "Try /campaign new name:NAME german:ann,bob russian:cat german_cpp:N russian_cpp:N [days:3] "
    "[start:17 Oct] [every:24h] [grace:2h] [reminders:24h,1h|none] [referee:NAME] [carry_over:yes|no], "
    '/campaign submit buy:"A4, O1 2 hexes, M1" [fortify:"2 x Trench, 3 Foxhole at 2"] [side:german] '
    "[phase:N], /campaign status, /campaign orbat [side:german], /campaign ledger [csv], "
    '/campaign correct entry:N to:VALUE reason:"WHY", /campaign retain side:german units:"2 x 4-6-7, 9-1", '
    "/campaign balance side:german drm:N, /campaign cg2 on:yes|no, /campaign chit entry:N colour:black|red "
    "(the referee); "
    "linked Iron Cross battles: /campaign linked new|battle|buy|command|retire|standings|end"
)
LINKED_USAGE = (
    "Try /campaign linked new name:NAME allies:ann allies_force:FORCE axis:bob axis_force:FORCE "
    "[winner:50] [loser:30] [draw:40] [damaged:return|sit_out], "
    "/campaign linked battle scenario:meeting [table:village|NAME|random seed:N] [attacker:allies|axis] "
    "[attacker_choice:...] "
    '[reaction_seconds:N], as ann /campaign linked buy side:allies unit:"MG Team" [label:NAME], '
    'as ann /campaign linked command side:allies unit:"Sherman 75mm 1", '
    'as ann /campaign linked retire side:allies unit:"MG Team 1", /campaign linked standings, '
    "as ann /campaign linked end"
)
RULE_NUMBERS = {"winner": "winner_points", "loser": "loser_points", "draw": "draw_points"}


class CampaignDesk:
    """The console's campaigns: the services' campaigns, told to write their notices here."""

    def __init__(self, services: Services, on_battle: Callable[[Outcome], None] | None = None) -> None:
        self.out: TextIO | None = None
        self.waiting: list[str] = []
        self.on_battle = on_battle  # a linked battle set up here becomes the table's game
        self.linked = services.linked_campaigns
        self.linked.on_carried = self._carried
        self.service = services.campaigns
        self.service.on_reminder, self.service.on_reveal = self._remind, self._reveal

    async def open(self, out: TextIO) -> None:
        """Write notices to ``out`` as they come, and arm the stored campaigns' timers."""
        self.out = out
        await self.service.resume()

    async def close(self) -> None:
        await self.service.close()

    async def handle(self, line: Line) -> str:
        kind = line.words[0].casefold() if line.words else "status"
        if kind == "new":
            answer = await self.new(line)
        elif kind == "submit":
            orders = line.options.get("buy", "")
            phase = line.options.get("phase")
            answer = await self.service.submit(
                CHANNEL,
                line.player,
                orders,
                line.options.get("side"),
                whole_number("phase", phase, 1, MAX_DAYS) if phase else None,
                line.options.get("fortify", ""),
            )
        elif kind == "status":
            answer = await self.service.status(CHANNEL)
        elif kind == "ledger":
            answer = await self.service.ledger(CHANNEL, csv=line.flag("csv"))
        elif kind == "orbat":
            answer = await self.service.order_of_battle(CHANNEL, line.options.get("side"))
        elif kind == "correct":
            answer = await self.correct(line)
        elif kind == "retain":
            o = line.options
            answer = await self.service.retain(CHANNEL, line.player, o.get("side", ""), o.get("units", ""))
        elif kind == "linked":
            answer = await self.linked_campaign(line)
        elif kind in ("balance", "cg2", "chit"):
            answer = await self.books(line)
        else:
            raise GameError(USAGE)
        waiting, self.waiting = self.waiting, []
        return "\n".join([*waiting, self._written(answer)])

    async def new(self, line: Line) -> str | Reply:
        o = line.options
        if not o:
            raise GameError(USAGE)
        cpp = {side: whole_number(f"{side}_cpp", o.get(f"{side}_cpp", ""), 0, MAX_CPP) for side in SIDES_RB}
        days = whole_number("days", o.get("days", "3"), 1, MAX_DAYS)
        carry_over = o.get("carry_over", "yes").casefold()
        if carry_over not in ("yes", "no"):
            raise GameError(f"carry_over is yes (unspent CPP carry over) or no, not {carry_over!r}")
        return await self.service.create(
            CHANNEL,
            o.get("name", ""),
            {side: [p for p in o.get(side, "").split(",") if p] for side in ("german", "russian")},
            o.get("start", "17 Oct"),
            cpp,
            days,
            parse_duration(o.get("every", "24h")),
            parse_duration(o.get("grace", "0s")),
            parse_reminders(o.get("reminders")),
            o.get("referee"),
            line.player,
            carry_over == "yes",
        )

    async def books(self, line: Line) -> str | Reply:
        """The referee's campaign books: ``/campaign balance side: drm:`` (RB 11.32), ``/campaign
        cg2 on:yes|no`` and ``/campaign chit entry: colour:``."""
        kind, o = line.words[0], line.options
        if kind == "balance":
            return await self.service.balance(CHANNEL, line.player, o.get("side", ""), line.whole("drm"))
        if kind == "cg2":
            return await self.service.cg_ii(CHANNEL, line.player, line.flag("on"))
        entry = line.whole("entry", LEDGER_ENTRY)
        return await self.service.chit(CHANNEL, line.player, entry, o.get("colour", ""))

    async def correct(self, line: Line) -> str | Reply:
        """``/campaign correct entry:N to:VALUE reason:WHY``: the referee corrects a ledger entry."""
        o = line.options
        entry = whole_number(LEDGER_ENTRY, o.get("entry", ""), 0, MAX_ENTRIES)
        to, reason = o.get("to", ""), o.get("reason", "")
        return await self.service.correct(CHANNEL, line.player, entry, to, reason)

    async def linked_campaign(self, line: Line) -> str | Reply:
        """``/campaign linked new|battle|buy|command|retire|standings|end``: linked Iron Cross battles."""
        kind = line.words[1].casefold() if len(line.words) > 1 else "standings"
        o, linked = line.options, self.linked
        if kind == "new":
            rules = {
                field: whole_number(option, o[option], 0, MAX_POINTS)
                for option, field in RULE_NUMBERS.items()
                if option in o
            }
            return await linked.create(
                CHANNEL,
                CHANNEL,
                o.get("name", ""),
                {side: (o.get(side, ""), o.get(f"{side}_force", "")) for side in SIDES},
                {**rules, **({"damaged": o["damaged"]} if "damaged" in o else {})},
            )
        if kind == "battle":
            seconds = reaction_seconds(o.get("reaction_seconds", "120"))
            text, outcome = await linked.battle(
                CHANNEL,
                line.player,
                o.get("scenario", ""),
                o.get("table", "village"),
                o.get("attacker"),
                o.get("attacker_choice"),
                seconds,
                guild_id=CHANNEL,
                seed=o.get("seed"),
            )
            if self.on_battle is not None:
                self.on_battle(outcome)
            return text
        if kind in ("buy", "command", "retire"):
            side, unit = o.get("side", ""), o.get("unit", "")
            if kind == "command":
                return await linked.command(CHANNEL, line.player, side, unit)
            if kind == "retire":
                return await linked.retire(CHANNEL, line.player, side, unit)
            return await linked.buy(CHANNEL, line.player, side, unit, o.get("label"))
        if kind == "end":
            return await linked.end(CHANNEL, line.player)
        if kind == "standings":
            return await linked.standings(CHANNEL)
        raise GameError(LINKED_USAGE)

    def _written(self, said: str | Reply) -> str:
        """A campaign's reply at the console: its moments with how far off they are."""
        return said if isinstance(said, str) else plain_reply(said, self.service.clock.now())

    async def _remind(self, channel: str, users: list[str], said: Reply) -> None:
        self._post(f"[reminder to {', '.join(users)}] {self._written(said)}")

    async def _reveal(self, channel: str, said: Reply, open_phase: int | None) -> None:
        self._post(f"[revealed] {self._written(said)}")

    async def _carried(self, channel: str, said: Reply) -> None:
        self._post(f"[campaign] {self._written(said)}")

    def _post(self, text: str) -> None:
        if self.out is None:
            self.waiting.append(text)
        else:
            self.out.write(f"\n{text}\n")
            self.out.flush()
