"""CampaignService in virtual time: sealed submissions, reminders, grace, reveals, and deadlines
that survive a restart."""

from datetime import timedelta

import pytest

from bot.plain_text import plain_reply
from bot.services.campaign_service import CampaignService, utc_text
from bot.services.game_service import GameError
from bot.storage.campaign_store import CampaignStore
from bot.storage.store import GameStore
from engine.dice import ScriptedDice, d6
from engine.runtime import VirtualClock

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
PLAYERS = {"german": ["ann", "bob"], "russian": ["cat"]}


class Heard:
    """What the service told the channel."""

    def __init__(self):
        self.reminders: list[tuple[str, list[str], str]] = []
        self.reveals: list[tuple[str, str]] = []
        self.opened: list[int | None] = []  # the phase open after each reveal

    async def reminder(self, channel, users, said):
        self.reminders.append((channel, users, plain_reply(said)))

    async def reveal(self, channel, said, open_phase):
        self.reveals.append((channel, plain_reply(said)))
        self.opened.append(open_phase)


def service_for(store, clock, heard, dice=()):
    return CampaignService(
        store,
        dice=lambda: ScriptedDice(dice),
        clock=clock,
        on_reminder=heard.reminder,
        on_reveal=heard.reveal,
    )


async def start(service, days=3, grace=timedelta(0)):
    return await service.create(
        "c1", "Barrikady", PLAYERS, "17 Oct", {"german": 10, "russian": 12}, days, DAY, grace, referee="ref"
    )


async def test_a_new_campaign_shows_its_calendar_and_one_runs_per_channel(store):
    clock = VirtualClock()
    service = service_for(store, clock, Heard())
    text = plain_reply(await start(service))
    assert text.splitlines() == [
        "Campaign Barrikady set up.",
        "Barrikady",
        "1. 17 Oct purchases: open, deadline 2026-01-02 00:00 UTC",
        "   German (ann, bob): not yet submitted",
        "   Russian (cat): not yet submitted",
        "2. 18 Oct purchases: opens after phase 1; deadline 2026-01-03 00:00 UTC",
        "3. 19 Oct purchases: opens after phase 2; deadline 2026-01-04 00:00 UTC",
        "Referee: ref",
    ]
    with pytest.raises(GameError, match="The campaign Barrikady is still running in this channel"):
        await start(service)
    with pytest.raises(GameError, match="A campaign has 1 to 30 CG Days"):
        await service.create("c2", "X", PLAYERS, "17 Oct", {"german": 1, "russian": 1}, 0, DAY)
    with pytest.raises(GameError, match="There is no campaign in this channel"):
        await service.status("c2")
    await service.close()


async def test_refused_submissions_change_nothing(store):
    service = service_for(store, VirtualClock(), Heard())
    await start(service)
    version = (await CampaignStore(store).current("c1")).version
    for user, orders, options, refusal in [
        ("eve", "M2", {}, "You do not play in the campaign Barrikady"),
        ("ann", "M2", {"side": "russian"}, "You play the German side, not the Russian"),
        ("ann", "M2", {"phase": 2}, r"Phase 2 \(18 Oct purchases\) is not open yet"),
        ("ann", "I1, A4, M2", {}, r"German has 0 CPP left on 17 Oct; M2 Sniper costs 1 CPP \(1 short\)"),
        ("ann", "Z9", {}, "The German Reinforcement Group Chart has no 'Z9'"),
        ("ann", "two tanks", {}, "Cannot read 'two tanks' as an RG"),
    ]:
        with pytest.raises(GameError, match=refusal):
            await service.submit("c1", user, orders, **options)
    assert (await CampaignStore(store).current("c1")).version == version
    await service.close()


async def test_both_sides_submitting_reveals_at_once_and_opens_the_next_phase(store):
    clock, heard = VirtualClock(), Heard()
    service = service_for(store, clock, heard, dice=[d6(4), d6(4)])  # A4 strength 8 - 2 = 6: Full
    await start(service)
    reply = await service.submit("c1", "ann", "A4, M2")
    assert reply == (
        "German orders sealed for phase 1 (17 Oct purchases): A4 Pz III H Pltn, M2 Sniper (4 of 10 CPP spent)"
    )
    assert heard.reveals == []
    await service.submit("c1", "cat", "none")
    ((channel, text),) = heard.reveals
    assert channel == "c1" and heard.opened == [1]  # phase 2 opens, counted from 0
    assert text.splitlines()[:3] == [
        "Barrikady: phase 1 (17 Oct purchases) revealed",
        "German: A4 Pz III H Pltn, M2 Sniper",
        "Russian: no purchase",
    ]
    assert "DR 4 + 4, -2 historical DRM = 6: Full Strength -> 3 x Pz IIIH" in text
    assert text.splitlines()[-1] == (
        "Phase 2 (18 Oct purchases) is open: each side submits its RG purchases for the CG Day (or none) "
        "by 2026-01-03 00:00 UTC"
    )
    assert {key[1:] for key in service.timers.armed} == {
        (1, "remind:86400"),
        (1, "remind:3600"),
        (1, "close"),
    }
    await service.close()


async def test_reminders_go_only_to_the_players_who_owe_orders(store):
    clock, heard = VirtualClock(), Heard()
    service = service_for(store, clock, heard)
    await start(service)
    await service.submit("c1", "cat", "M2")
    await clock.advance(DAY - HOUR - timedelta(seconds=1))
    assert heard.reminders == []
    await clock.advance(1)
    assert heard.reminders == [
        (
            "c1",
            ["ann", "bob"],
            "Barrikady, phase 1 (17 Oct purchases): ann, bob, your side still owes its RG purchases for "
            "the CG Day (or none); deadline 2026-01-02 00:00 UTC. Submit with /campaign submit",
        )
    ]
    await clock.advance(HOUR)  # the deadline: German gets no purchase
    assert "German missed the deadline: no purchase" in heard.reveals[0][1]
    assert len(heard.reminders) == 1
    await service.close()


async def test_a_grace_period_is_announced_with_who_has_not_acted(store):
    clock, heard = VirtualClock(), Heard()
    service = service_for(store, clock, heard)
    await start(service, days=1, grace=2 * HOUR)
    await service.submit("c1", "ann", "M2")
    await clock.advance(DAY)
    assert heard.reminders[-1] == (
        "c1",
        ["cat"],
        "Barrikady, phase 1 (17 Oct purchases): the deadline has passed; grace until "
        "2026-01-02 02:00 UTC. Not submitted yet: cat",
    )
    await service.submit("c1", "cat", "M2")  # in the grace period: both in, revealed at once
    assert heard.reveals[0][1].splitlines()[1:3] == ["German: M2 Sniper", "Russian: M2 Sniper"]
    assert "The campaign Barrikady is finished" in heard.reveals[0][1]
    assert heard.opened == [None]
    assert service.timers.armed == frozenset()
    await service.close()


async def test_a_deadline_that_passed_while_down_resolves_once_on_start(store):
    clock, heard = VirtualClock(), Heard()
    before = service_for(store, clock, heard)
    await start(before)
    await before.submit("c1", "ann", "M2")
    await before.close()  # the bot stops

    await clock.advance(DAY + 5 * HOUR)  # and starts again five hours after the deadline
    stores = [GameStore(store.database_url) for _ in range(2)]
    after = [service_for(other, clock, heard) for other in stores]
    for service in after:  # two starts (or two processes): still one reveal
        await service.resume()
    await clock.advance(0)
    ((_, text),) = heard.reveals
    assert "Russian missed the deadline: no purchase" in text
    # phase 2 keeps its full day from the moment it opened
    assert text.endswith("by 2026-01-03 05:00 UTC")
    assert heard.reminders == []  # the 1 h reminder was due while down but the deadline had passed
    campaign = (await CampaignStore(store).current("c1")).campaign
    assert [p.state for p in campaign.phases] == ["revealed", "open", "waiting"]
    for service, other in zip(after, stores, strict=True):
        await service.close()
        await other.close()


async def test_an_overdue_announcement_that_fails_does_not_stop_the_start(store):
    clock, heard = VirtualClock(), Heard()
    before = service_for(store, clock, heard)
    await start(before)
    await before.close()
    await clock.advance(DAY + HOUR)

    async def refused(channel, text, open_phase):  # Discord refuses the post (say a deleted channel)
        raise RuntimeError("403 Forbidden")

    after = CampaignService(store, dice=lambda: ScriptedDice([]), clock=clock, on_reveal=refused)
    await after.resume()  # does not raise: the bot starts
    campaign = (await CampaignStore(store).current("c1")).campaign
    assert [p.state for p in campaign.phases] == ["revealed", "open", "waiting"]  # the books are saved
    after.on_reveal = heard.reveal
    await clock.advance(DAY)  # the timers of the campaign were armed all the same
    assert [p.state for p in (await CampaignStore(store).current("c1")).campaign.phases][:2] == [
        "revealed",
        "revealed",
    ]
    # the refused reveal was tried again, not dropped; then the next phase's
    assert [text.split(" revealed")[0] for _, text in heard.reveals] == [
        "Barrikady: phase 1 (17 Oct purchases)",
        "Barrikady: phase 2 (18 Oct purchases)",
    ]
    await after.close()


async def test_an_overdue_close_is_revealed_before_the_first_command_after_a_start(store):
    clock, heard = VirtualClock(), Heard()
    before = service_for(store, clock, heard)
    await start(before, grace=2 * HOUR)
    await before.close()
    await clock.advance(DAY + 3 * HOUR)  # down through the deadline and the grace period
    after = service_for(store, clock, heard)
    await after.resume()  # no timer has had a turn yet: the phase is revealed already
    assert [text.splitlines()[0] for _, text in heard.reveals] == [
        "Barrikady: phase 1 (17 Oct purchases) revealed"
    ]
    assert heard.reminders == []  # nobody is told of a grace period that is over
    first = plain_reply(await after.status("c1")).splitlines()[1]
    assert first == "1. 17 Oct purchases: revealed (German, Russian missed the deadline)"
    await clock.advance(0)
    assert len(heard.reveals) == 1
    await after.close()


async def test_a_submission_handled_while_the_service_closes_is_still_sealed_and_revealed(store):
    clock, heard = VirtualClock(), Heard()
    service = service_for(store, clock, heard)
    await start(service, days=2)
    await service.submit("c1", "ann", "M2")
    await service.close()  # the bot stops while Otto's orders are on their way
    await service.submit("c1", "cat", "none")
    assert heard.reveals[0][1].splitlines()[1:3] == ["German: M2 Sniper", "Russian: no purchase"]
    assert heard.opened == [1]
    campaign = (await CampaignStore(store).current("c1")).campaign
    assert [p.state for p in campaign.phases] == ["revealed", "open"]
    assert service.timers.armed == frozenset()  # phase 2's timers are armed at the next start


async def test_a_restart_in_the_middle_of_a_phase_rearms_its_reminders(store):
    clock, heard = VirtualClock(), Heard()
    before = service_for(store, clock, heard)
    await start(before)
    await before.close()
    await clock.advance(12 * HOUR)
    after = service_for(store, clock, heard)
    await after.resume()
    assert {key[1:]: after.timers.deadline(key) for key in after.timers.armed} == {
        (0, "remind:3600"): clock.now() + 11 * HOUR,
        (0, "close"): clock.now() + 12 * HOUR,
    }
    await clock.advance(11 * HOUR)
    assert [users for _, users, _ in heard.reminders] == [["ann", "bob", "cat"]]
    await after.close()


def test_moments_are_written_in_utc():
    from datetime import datetime, timezone

    assert utc_text(datetime(2026, 1, 1, 3, 0, tzinfo=timezone(timedelta(hours=2)))) == "2026-01-01 01:00 UTC"


async def test_the_referee_sets_the_balance_provision_and_cg_ii_and_records_chits(store):
    """RG Strength/OBA tables' Balance provision DRM (11.32), the CG II Leader DRM and compilation
    rule 11's chit draws go through the service into the stored ledger; refusals change nothing."""
    service = service_for(store, VirtualClock(), Heard(), dice=[d6(3), d6(3)])
    await start(service)
    campaigns = CampaignStore(store)
    version = (await campaigns.current("c1")).version
    with pytest.raises(GameError, match="^Only the campaign's referee may set a Balance provision DRM$"):
        await service.balance("c1", "ann", "german", 1)
    with pytest.raises(GameError, match="^A Balance provision DRM is -6 to \\+6, not 9$"):
        await service.balance("c1", "ref", "german", 9)
    assert (await campaigns.current("c1")).version == version
    reply = await service.balance("c1", "ref", "russian", -1)
    assert reply.startswith("Balance provision set:\n2  17 Oct  Russian  rule")
    assert reply.endswith(
        "Balance provision (11.32) DRM -1 (was +0) on RG strength, gun battery and OBA ammo rolls"
    )
    assert (await service.cg_ii("c1", "ref", True)).endswith(
        "CG II scenarios: +1 German Leader DRM (Leader DRM table)"
    )
    await service.submit("c1", "cat", "O1")
    await service.submit("c1", "ann", "none")  # reveals: Russian O1 ammo 3+3 -1 historical -1 balance = 4
    books = (await campaigns.current("c1")).campaign.books
    assert (books.cg_ii, books.order_of_battle["russian"].formations[0].ammo) == (True, "Normal ammo")
    assert "-1 balance provision = 4" in books.ledger[-3].text
    with pytest.raises(GameError, match="^A Draw Pile chit is black or red, not 'blue'$"):
        await service.chit("c1", "ref", 4, "blue")
    reply = await service.chit("c1", "ref", 4, "black")
    assert reply.endswith(
        "O1 Lt Arty (ledger #4) Battery Access: black chit permanently removed; 1 black, 0 red out"
    )
    await service.close()
