"""CampaignService: asynchronous campaigns in channels, with sealed submissions, reminders and
deadlines that survive restarts.

Each unfinished campaign's open phase has timers (reminders, the end of the deadline when a
grace period follows, the close) armed on :class:`engine.runtime.ReactionTimers`. The moments
live in the stored campaign, so :meth:`CampaignService.resume` arms them again after a restart;
a close that passed while the bot was down is rung at once and reveals the phase, once (the
version check on the stored campaign keeps a second writer from revealing it again). Adapters
hear of reminders and reveals through ``on_reminder`` and ``on_reveal`` and post them; an
alarm's are written with the alarm's change to the outbox (:mod:`bot.services.deadline_posts`),
so each is posted once, even if this process dies or Discord refuses it at first.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from functools import partial

from bot.reply import Mention, Moment, Reply, Strong, reply_from_json, reply_to_json
from bot.services.deadline_posts import DeadlinePost, DeadlinePosts
from bot.services.game_service import GameError, refusals
from bot.services.limits import (
    MAX_CPP,
    MAX_DURATION_DAYS,
    NAME,
    bounded_name,
    bounded_text,
    quoted,
    whole_number,
)
from bot.storage.campaign_store import CampaignRunning, CampaignStore, StaleCampaign, StoredCampaign
from bot.storage.deadline_claims import CAMPAIGN_ALARMS, Claims, process_name
from bot.storage.store import GameStore
from bot.storage.tables import CAMPAIGN_REMINDER, CAMPAIGN_REVEAL, CampaignRow
from engine.campaign import phases
from engine.campaign.calendar import SIDES
from engine.campaign.ledger import ledger_csv, ledger_table
from engine.campaign.phases import CLOSE, GRACE, Campaign
from engine.campaign.red_barricades import order_of_battle_text
from engine.dice import DiceSource, SeededDice
from engine.rich_text import listed
from engine.runtime import Clock, ReactionTimers, SystemClock, WindowKey

log = logging.getLogger(__name__)

Reminded = Callable[[str, list[str], Reply], Awaitable[None]]  # channel, players to remind, the reminder
Revealed = Callable[[str, Reply, int | None], Awaitable[None]]  # channel, what the reveal showed, open phase


def utc_text(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


_DURATION = re.compile(r"(\d+)\s*([wdhms])")
_UNITS = {"w": "weeks", "d": "days", "h": "hours", "m": "minutes", "s": "seconds"}


def parse_duration(text: str) -> timedelta:
    """``"24h"``, ``"1d12h"``, ``"90m"``, ``"2w"`` -> a length of time."""
    compact = "".join(bounded_text("A length of time", text, NAME).casefold().split())
    if not compact or _DURATION.sub("", compact):
        raise GameError(f"Cannot read {quoted(text)} as a length of time: write e.g. 24h, 90m, 1d12h or 2w")
    most, length = timedelta(days=MAX_DURATION_DAYS), timedelta(0)
    for count, unit in _DURATION.findall(compact):
        one = timedelta(**{_UNITS[unit]: 1})
        length += one * whole_number(_UNITS[unit], count, 0, most // one)
    if length > most:
        raise GameError(f"A length of time here is at most {MAX_DURATION_DAYS} days, not {quoted(text)}")
    return length


def parse_reminders(text: str | None) -> tuple[timedelta, ...]:
    """``"24h,1h"`` -> how long before each deadline to remind; ``"none"`` -> no reminders;
    nothing given -> the usual 24 h and 1 h."""
    if text is None or not text.strip():
        return phases.DEFAULT_REMINDERS
    if text.strip().casefold() == "none":
        return ()
    return tuple(parse_duration(lead) for lead in text.split(","))


class CampaignService:
    """Campaigns by channel. Replies and notices name players and moments as pieces
    (:class:`Mention`, :class:`Moment`), which each front end writes its own way."""

    def __init__(
        self,
        store: GameStore,
        dice: Callable[[], DiceSource] = SeededDice,
        clock: Clock | None = None,
        on_reminder: Reminded | None = None,
        on_reveal: Revealed | None = None,
        claims: Claims | None = None,
        posts: DeadlinePosts | None = None,
    ) -> None:
        self.campaigns = CampaignStore(store)
        self.claims = claims or Claims(store, process_name())  # an alarm rings in the process claiming it
        self.dice = dice
        self.clock = clock or SystemClock()
        # what the alarms post, each made once: the game service's outbox, or one of its own
        self.posts = posts or DeadlinePosts(store, self.clock, self.claims)
        self.posts.senders[CAMPAIGN_REMINDER] = self._post_reminder
        self.posts.senders[CAMPAIGN_REVEAL] = self._post_reveal
        self.on_reminder = on_reminder
        self.on_reveal = on_reveal
        fire = self.claims.renewing(CAMPAIGN_ALARMS, self.clock, self._ring, lambda key: key[:1])  # type: ignore[index]
        self.timers = ReactionTimers(self.clock, fire, still_due=self._alarm_due)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._closed = False

    async def resume(self) -> None:
        """After a start-up: ring the alarms of every unfinished campaign that came due while
        the bot was down, earliest first, before it takes any command (a close reveals its
        phase, once); then arm the timers of the rest. An alarm that fails to ring here is left
        to its timer, which tries it again until it is done."""
        for stored in await self.campaigns.unfinished():
            now = self.clock.now()
            due = sorted((a for a in phases.alarms(stored.campaign) if a.at <= now), key=lambda a: a.at)
            for alarm in due:
                try:
                    await self._ring((stored.id, alarm.phase, alarm.name))
                except Exception:  # a locked database, or an announcement Discord refused
                    log.warning("an overdue alarm of channel %s failed", stored.channel_id, exc_info=True)
            self._arm(stored)

    async def taken_over(self, rows: list[CampaignRow]) -> None:
        """Campaigns whose next alarm this process claimed (bot.services.deadline_loop): their
        alarms are armed; one kept from before its next alarm was stored gets it written."""
        for row in rows:
            stored = self.campaigns.stored(row)
            self._arm(stored)
            if row.due is None:
                await self.campaigns.note_due(stored)

    async def close(self) -> None:
        """Stop the timers; a submission or alarm still being handled is saved and announced,
        and its campaign's timers are armed again by :meth:`resume` at the next start."""
        self._closed = True
        await self.timers.close()
        await self.posts.close()

    # -- commands -------------------------------------------------------------------------------

    async def create(
        self,
        channel_id: str,
        name: str,
        players: Mapping[str, Sequence[str]],
        first_day: str,
        cpp: Mapping[str, int],
        days: int,
        every: timedelta,
        grace: timedelta = timedelta(0),
        reminders: Sequence[timedelta] = phases.DEFAULT_REMINDERS,
        referee: str | None = None,
        organiser: str | None = None,
        carry_over: bool = True,
    ) -> Reply:
        """A Red Barricades campaign in the channel: ``days`` purchase phases, the first deadline
        ``every`` from now and each next one ``every`` later; ``organiser``, who sets it up,
        corrects the ledger when there is no referee; ``carry_over``: unspent CPP carry over to
        the next CG Day. Refused while the channel's campaign is unfinished."""
        name = bounded_name("A campaign's name", name)
        if not 1 <= days <= 30:
            raise GameError("A campaign has 1 to 30 CG Days")
        for side, points in cpp.items():
            whole_number(f"{side} CPP a CG Day", points, 0, MAX_CPP)
        if every <= timedelta(0):
            raise GameError("Give each phase a positive length, e.g. 24h")
        current = await self.campaigns.current(channel_id)
        if current is not None and not current.campaign.finished:
            raise GameError(f"The campaign {current.campaign.name} is still running in this channel")
        now = self.clock.now()
        with refusals():
            campaign = phases.new_campaign(
                name,
                players,
                first_day,
                cpp,
                [now + every * (n + 1) for n in range(days)],
                now,
                grace,
                reminders,
                referee,
                organiser,
                carry_over,
            )
        try:
            stored = await self.campaigns.create(channel_id, campaign)
        except CampaignRunning:  # the schema's rule: another was set up at the same moment
            raise GameError("Another campaign is still running in this channel: /campaign status") from None
        self._follow(stored)
        return Reply.of(("Campaign ", Strong(campaign.name), " set up.")) + self._status(campaign)

    async def submit(
        self,
        channel_id: str,
        user_id: str,
        orders: str,
        side: str | None = None,
        phase: int | None = None,
        fortifications: str = "",
    ) -> str:
        """Seal a side's orders: RGs and fortifications as typed, commas or one a line (``phase``
        counts from 1; the open phase if None). The reply is for the submitter's eyes only; a
        reveal that follows goes to ``on_reveal``."""
        orders = bounded_text("The orders", orders)
        fortifications = bounded_text("The fortifications", fortifications)
        with refusals():
            submission = phases.parse_submission(orders, fortifications)
        stored = await self._current(channel_id)
        revealed = None
        async with self._locks[stored.id]:
            for attempt in (1, 2):
                stored = await self._reload(stored)
                now = self.clock.now()
                with refusals():
                    campaign, sealed_side, index = phases.submit(
                        stored.campaign,
                        user_id,
                        submission,
                        now,
                        side,
                        None if phase is None else phase - 1,
                    )
                reply = phases.sealed_text(campaign, index, sealed_side)
                if phases.reveal_due(campaign, now) == index:
                    campaign = phases.reveal(campaign, index, self.dice(), now)
                    revealed = index
                try:
                    stored = await self.campaigns.save(stored, campaign)
                except StaleCampaign:
                    if attempt == 2:
                        raise GameError("The campaign changed under this submission: try again") from None
                    continue
                break
        self._follow(stored)
        log.info("sealed", extra={"channel": channel_id, "user": user_id, "side": sealed_side})
        if revealed is not None:
            await self._announce_reveal(stored, revealed)
        return reply

    async def sealed_orders(
        self, channel_id: str, user_id: str, side: str | None = None, phase: int | None = None
    ) -> tuple[int, tuple[str, str]]:
        """For a form to open with: the phase it is for (counted from 1; the open phase if None),
        and what the user's side has sealed for it, as typed (RG orders and fortifications, one a
        line, blank if nothing is sealed). Refused, before any form opens, as a submission would
        be: someone who does not submit for the side, a phase not taking orders."""
        campaign = (await self._current(channel_id)).campaign
        now = self.clock.now()
        with refusals():
            index = phases.taking_orders(campaign, None if phase is None else phase - 1, now)
            sealed = phases.own_sealed(campaign, user_id, now, side, index)
        return index + 1, (sealed.typed if sealed else ("", ""))

    async def status(self, channel_id: str) -> Reply:
        return self._status((await self._current(channel_id)).campaign)

    async def ledger(self, channel_id: str, csv: bool = False) -> str:
        """The books' ledger: only revealed phases have entries, so it shows nothing sealed."""
        campaign = (await self._current(channel_id)).campaign
        return (ledger_csv if csv else ledger_table)(campaign.books.ledger)

    async def order_of_battle(self, channel_id: str, side: str | None = None) -> Reply:
        """Each side's order of battle (or the one named), from the books: nothing sealed."""
        books = (await self._current(channel_id)).campaign.books
        with refusals():
            sides = [order_of_battle_text(books, s) for s in ([side] if side else SIDES)]
        return Reply(tuple(line for i, lines in enumerate(sides) for line in ((),) * bool(i) + lines))

    async def correct(self, channel_id: str, user_id: str, entry: int, to: str, reason: str) -> str:
        """The referee (or the organiser, with no referee) corrects ledger entry ``entry``: the
        reply shows the correction's ledger line, for the channel."""
        to = bounded_name("A correction", to)
        reason = bounded_text("A reason", reason)
        campaign = await self._keep_books(
            channel_id, "correction", lambda c: phases.correct(c, user_id, entry, to, reason)
        )
        log.info("corrected", extra={"channel": channel_id, "user": user_id, "entry": entry})
        ledger = campaign.books.ledger
        return f"Ledger entry #{entry} corrected:\n" + ledger_table(ledger).splitlines()[len(ledger)]

    async def retain(self, channel_id: str, user_id: str, side: str, units: str) -> str:
        """The referee (or the organiser, with no referee) records units a side retains into the
        next CG scenario, typed with commas or one a line: the reply shows the ledger line."""
        units = bounded_text("The units retained", units)
        retained = [unit.strip() for unit in re.split(r"[,\n]", units) if unit.strip()]
        campaign = await self._keep_books(
            channel_id, "record of retained units", lambda c: phases.retain(c, user_id, side, retained)
        )
        log.info("retained", extra={"channel": channel_id, "user": user_id, "side": side})
        ledger = campaign.books.ledger
        return "Retained units recorded:\n" + ledger_table(ledger).splitlines()[len(ledger)]

    async def balance(self, channel_id: str, user_id: str, side: str, drm: int) -> str:
        """The referee (or the organiser, with no referee) sets a side's Balance provision DRM
        (11.32) for its later RG strength, gun battery and OBA ammo rolls: the reply shows the
        ledger line."""
        campaign = await self._keep_books(
            channel_id, "Balance provision", lambda c: phases.set_balance(c, user_id, side, drm)
        )
        log.info("balance", extra={"channel": channel_id, "user": user_id, "side": side})
        return "Balance provision set:\n" + self._last_ledger_line(campaign)

    async def cg_ii(self, channel_id: str, user_id: str, cg_ii: bool) -> str:
        """The referee (or the organiser, with no referee) says whether the CG scenarios are CG II
        ones (+1 German Leader DRM): the reply shows the ledger line."""
        campaign = await self._keep_books(
            channel_id, "CG setting", lambda c: phases.set_cg_ii_scenarios(c, user_id, cg_ii)
        )
        log.info("cg ii", extra={"channel": channel_id, "user": user_id})
        return "CG setting recorded:\n" + self._last_ledger_line(campaign)

    async def chit(self, channel_id: str, user_id: str, entry: int, colour: str) -> str:
        """The referee (or the organiser, with no referee) records a Battery Access chit drawn for
        the OBA module bought in ledger entry ``entry`` (compilation rule 11): the reply shows the
        ledger line."""
        colour = bounded_name("A chit's colour", colour)
        campaign = await self._keep_books(
            channel_id, "chit draw", lambda c: phases.draw_chit(c, user_id, entry, colour)
        )
        log.info("chit", extra={"channel": channel_id, "user": user_id, "entry": entry})
        return "Battery Access chit recorded:\n" + self._last_ledger_line(campaign)

    # -- timers ---------------------------------------------------------------------------------

    def _follow(self, stored: StoredCampaign) -> None:
        """Arm a timer for each alarm of the campaign's open phase; cancel those it no longer has.
        Nothing once the service is closed: :meth:`resume` arms them at the next start."""
        if self._closed:
            return
        wanted = {(stored.id, a.phase, a.name): a.at for a in phases.alarms(stored.campaign)}
        for key in self.timers.armed:
            if key[0] == stored.id and key not in wanted:
                self.timers.cancel(key)
        self.timers.rearm((key, at) for key, at in wanted.items() if self.timers.deadline(key) != at)

    def _arm(self, stored: StoredCampaign) -> None:
        """Arm each alarm of the campaign as read that no timer waits for yet (cancelling none:
        one rung since finds, when it fires, that it is no longer due)."""
        if not self._closed:
            alarms = [((stored.id, a.phase, a.name), a.at) for a in phases.alarms(stored.campaign)]
            self.timers.rearm((key, at) for key, at in alarms if key not in self.timers)

    async def _alarm_due(self, key: WindowKey) -> bool:
        """An alarm still rings while its campaign's open phase has it and its moment has come, in
        the process that holds the campaign's claim (bot.storage.deadline_claims)."""
        campaign_id, phase, name = key  # type: ignore[misc]
        stored = await self.campaigns.load(campaign_id)
        due = stored is not None and any(
            (a.phase, a.name) == (phase, name) and a.at <= self.clock.now()
            for a in phases.alarms(stored.campaign)
        )
        return due and await self.claims.take(CAMPAIGN_ALARMS, (campaign_id,), self.clock.now())

    async def _ring(self, key: WindowKey) -> None:
        """Ring an alarm: save what it changes, with what it tells the channel, then tell it
        (bot.services.deadline_posts). A failure is raised, for the timers to try again while
        the alarm is due."""
        campaign_id, phase, name = key  # type: ignore[misc]
        post: DeadlinePost | None = None
        async with self._locks[campaign_id]:
            for attempt in (1, 2):
                stored = await self.campaigns.load(campaign_id)
                if stored is None:
                    return
                alarm = next(
                    (a for a in phases.alarms(stored.campaign) if (a.phase, a.name) == (phase, name)), None
                )
                if alarm is None:  # the phase moved on since the timer was armed
                    return
                campaign, notice = self._rung(stored.campaign, alarm)
                if campaign is stored.campaign:
                    return
                post = self._alarm_post(stored, campaign, alarm, notice)
                try:
                    written = partial(self.posts.write, post=post) if post else None
                    stored = await self.campaigns.save(stored, campaign, also=written)
                except StaleCampaign:
                    if attempt == 2:
                        raise
                    continue
                break
        self._follow(stored)
        if name == CLOSE:
            log.info("revealed", extra={"channel": stored.channel_id, "phase": phase + 1})
        if post is not None:
            await self.posts.deliver(post)

    def _alarm_post(
        self,
        stored: StoredCampaign,
        campaign: Campaign,
        alarm: phases.Alarm,
        notice: tuple[list[str], str] | None,
    ) -> DeadlinePost | None:
        """What an alarm tells the campaign's channel: the reveal a close makes, or a reminder
        to the players who owe orders (none if none do)."""
        name = f"campaign {stored.id} {alarm.phase} {alarm.name}"
        if alarm.name == CLOSE:
            said, following = self._reveal_said(campaign, alarm.phase)
            return DeadlinePost(
                stored.channel_id,
                name,
                CAMPAIGN_REVEAL,
                {"text": reply_to_json(said), "open_phase": following},
            )
        if notice and notice[0]:
            users, said = notice
            payload = {"users": users, "text": reply_to_json(said)}
            return DeadlinePost(stored.channel_id, name, CAMPAIGN_REMINDER, payload)
        return None

    async def _post_reminder(self, post: DeadlinePost) -> None:
        if self.on_reminder:
            await self.on_reminder(
                post.channel_id, post.payload["users"], reply_from_json(post.payload["text"])
            )

    async def _post_reveal(self, post: DeadlinePost) -> None:
        if self.on_reveal:
            said = reply_from_json(post.payload["text"])
            await self.on_reveal(post.channel_id, said, post.payload["open_phase"])

    def _rung(
        self, campaign: Campaign, alarm: phases.Alarm
    ) -> tuple[Campaign, tuple[list[str], Reply] | None]:
        """The campaign after an alarm, and the players to remind with the reminder's text."""
        now = self.clock.now()
        phase = campaign.phases[alarm.phase]
        what = f"{campaign.name}, {phases.describe_phase(alarm.phase, phase)}"
        if alarm.name == CLOSE:
            return phases.reveal(campaign, alarm.phase, self.dice(), now), None
        if alarm.name == GRACE:
            campaign, users = phases.announce_grace(campaign, alarm, now)
            passed = (f"{what}: the deadline has passed; grace until ", Moment(phase.closes_at), ". ")
            return campaign, (users, Reply.of((*passed, "Not submitted yet: ", *listed(users))))
        campaign, users = phases.remind(campaign, alarm, now)
        owed = f", your side still owes {phases.WHAT_TO_SUBMIT[phase.kind]}; deadline "
        said = (f"{what}: ", *listed(users), owed, Moment(phase.deadline), ". Submit with /campaign submit")
        return campaign, (users, Reply.of(said))

    async def _announce_reveal(self, stored: StoredCampaign, index: int) -> None:
        said, following = self._reveal_said(stored.campaign, index)
        log.info("revealed", extra={"channel": stored.channel_id, "phase": index + 1})
        if self.on_reveal:
            await self.on_reveal(stored.channel_id, said, following)

    @staticmethod
    def _reveal_said(campaign: Campaign, index: int) -> tuple[Reply, int | None]:
        """What the reveal of phase ``index`` tells the channel, and the phase it opens."""
        said = Reply(phases.reveal_text(campaign, index))
        following = campaign.open_phase
        if following is None:
            return said + Reply.of(f"The campaign {campaign.name} is finished: see /campaign ledger"), None
        phase = campaign.phases[following]
        opened = (
            f"{phases.describe_phase(following, phase, start=True)} is open: each side submits "
            f"{phases.WHAT_TO_SUBMIT[phase.kind]} by "
        )
        return said + Reply.of((opened, Moment(phase.deadline))), following

    # -- helpers --------------------------------------------------------------------------------

    async def _keep_books(
        self, channel_id: str, what: str, change: Callable[[Campaign], Campaign]
    ) -> Campaign:
        """The channel's campaign changed by the referee's ``change``, and saved."""
        stored = await self._current(channel_id)
        async with self._locks[stored.id]:
            stored = await self._reload(stored)
            with refusals():
                campaign = change(stored.campaign)
            try:
                await self.campaigns.save(stored, campaign)
            except StaleCampaign:
                raise GameError(f"The campaign changed under this {what}: try again") from None
        return campaign

    @staticmethod
    def _last_ledger_line(campaign: Campaign) -> str:
        ledger = campaign.books.ledger
        return ledger_table(ledger).splitlines()[len(ledger)]

    @staticmethod
    def _status(campaign: Campaign) -> Reply:
        referee = [("Referee: ", Mention(campaign.referee))] if campaign.referee else []
        return Reply((*phases.status_text(campaign), *referee))

    async def _current(self, channel_id: str) -> StoredCampaign:
        stored = await self.campaigns.current(channel_id)
        if stored is None:
            raise GameError("There is no campaign in this channel: start one with /campaign new")
        return stored

    async def _reload(self, stored: StoredCampaign) -> StoredCampaign:
        fresh = await self.campaigns.load(stored.id)
        assert fresh is not None
        return fresh
