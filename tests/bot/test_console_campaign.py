"""A Red Barricades campaign at the console, in virtual time: sealed purchases, reminders, a
missed deadline, a restart in the middle of a phase and the ledger of every scripted roll."""

import csv
import io
import re
from datetime import timedelta

import pytest

from bot.app import Services
from bot.console import ConsoleTable
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import ScriptedDice, d6
from engine.runtime import VirtualClock
from engine.scenarios.quick_battle import quick_battle
from tests.storage.databases import seed_sqlite

HOUR = timedelta(hours=1)
NEW = (
    "/campaign new name:Barrikady german:ann,bob russian:cat german_cpp:10 russian_cpp:12 "
    'days:3 start:"17 Oct" every:24h referee:ref'
)


class Console:
    """A console table over a database file, its notices written to ``out``."""

    def __init__(self, url, clock, dice):
        self.url, self.clock, self.dice = url, clock, dice
        self.out = io.StringIO()

    async def start(self):
        self.store = await GameStore.open(seed_sqlite(self.url))  # a new file: the migrated template
        self.games = GameService(self.store, dice=lambda: self.dice, clock=self.clock)
        self.table = ConsoleTable(Services.around(self.games), quick_battle())
        await self.table.campaigns.open(self.out)

    async def stop(self):
        await self.table.campaigns.close()
        await self.games.close()
        await self.store.close()

    async def say(self, line):
        return await self.table.handle(line)

    def notices(self):
        """The notices written since last asked."""
        text, self.out = self.out.getvalue(), io.StringIO()
        self.table.campaigns.out = self.out
        return text

    def reminded(self):
        return re.findall(r"\[reminder to ([^\]]*)\]", self.notices())


@pytest.fixture
def url(tmp_path):
    return f"sqlite+aiosqlite:///{tmp_path / 'campaign.db'}"


async def test_a_three_day_red_barricades_campaign_at_the_console(url):
    clock = VirtualClock()
    # 17 Oct: German Rifle Coy strength 4+5 -2 = 7 (Full), leaders 3+3 = 6; Russian Btl Mtr ammo 2+2 -1 = 3
    # 18 Oct: German Pz III H Pltn strength 6+6 -2 = 10 (Depleted); the Russians miss the deadline
    # 19 Oct: Russian Militia Coy, always Full Strength: leaders 1+2 +3 = 6; the Germans buy nothing
    dice = ScriptedDice([d6(4), d6(5), d6(3), d6(3), d6(2), d6(2), d6(6), d6(6), d6(1), d6(2)])
    console = Console(url, clock, dice)
    await console.start()
    assert "Campaign Barrikady set up." in await console.say(NEW)

    # day 1: both sides seal their purchases; the second seal reveals them together
    assert await console.say('as ann /campaign submit buy:"I1, M2"') == (
        "German orders sealed for phase 1 (17 Oct purchases): I1 Rifle Coy, M2 Sniper (8 of 10 CPP spent)"
    )
    assert console.notices() == ""
    assert await console.say("as cat /campaign submit O2 1 hex") == (
        "Russian orders sealed for phase 1 (17 Oct purchases): "
        "O2 Btl Mtr with 1 Pre-Registered hex (2 of 12 CPP spent)"
    )
    revealed = console.notices()
    assert "[revealed] Barrikady: phase 1 (17 Oct purchases) revealed" in revealed
    assert "Phase 2 (18 Oct purchases) is open" in revealed

    # day 2: the Germans seal early; only the Russian player is reminded, at 24 h before the deadline
    await clock.advance(HOUR)
    await console.say("as bob /campaign submit A4")
    await clock.advance(23 * HOUR - timedelta(seconds=1))
    assert console.reminded() == []
    await clock.advance(timedelta(seconds=1))
    assert console.reminded() == ["cat"]

    # the bot restarts in the middle of the phase: a new service over the same database file
    await clock.advance(6 * HOUR)
    await console.stop()
    console = Console(url, clock, dice)
    await console.start()
    status = await console.say("as cat /campaign status")
    assert "   German (ann, bob): submitted\n   Russian (cat): not yet submitted" in status
    assert "2. 18 Oct purchases: open, deadline 2026-01-03 00:00 UTC (in 18 hours)" in status
    await clock.advance(17 * HOUR)
    assert console.reminded() == ["cat"]  # the 1 h reminder, re-armed after the restart
    await clock.advance(HOUR)  # the deadline: the Russians get the default, no purchase
    revealed = console.notices()
    assert "Russian missed the deadline: no purchase" in revealed
    assert "German: A4 Pz III H Pltn" in revealed

    # day 3: the Russians seal at once; the 1 h reminder goes to the German players only
    await console.say("as cat /campaign submit I5")
    await clock.advance(23 * HOUR)
    assert console.reminded() == ["ann, bob"]
    await console.say("as ann /campaign submit buy:none")
    assert "The campaign Barrikady is finished" in console.notices()
    assert dice.remaining == 0

    assert await console.say("/campaign ledger") == "\n".join(
        [
            "#   Day     Side     Kind      Cost   Dice  Text",
            "0   17 Oct  German   cpp                    CPP for 17 Oct set to 10; 10 CPP left",
            "1   17 Oct  Russian  cpp                    CPP for 17 Oct set to 12; 12 CPP left",
            "2   17 Oct  German   purchase  7 CPP        Bought I1 Rifle Coy (7 CPP); 3 CPP left",
            "3   17 Oct  German   purchase  1 CPP        Bought M2 Sniper (1 CPP); 2 CPP left",
            "4   17 Oct  German   roll             4+5   I1 Rifle Coy: RG strength (Red Barricades): "
            "DR 4 + 5, -2 historical DRM = 7: Full Strength -> 12 x 4-6-7",
            "5   17 Oct  German   roll             3+3   I1 Rifle Coy leaders: German leaders received "
            "(Red Barricades): DR 3 + 3 = 6: 9-1, 8-1, 8-0",
            "6   17 Oct  German   roll                   I1 Rifle Coy SW: HMG, MMG, LMG, ATR, LtMtr",
            "7   17 Oct  Russian  purchase  2 CPP        Bought O2 Btl Mtr with 1 Pre-Registered hex "
            "(1 + 1 = 2 CPP); 10 CPP left",
            "8   17 Oct  Russian  roll             2+2   O2 Btl Mtr: Russian OBA ammo (Red Barricades): "
            "DR 2 + 2, -1 Russian historical DRM = 3: Normal ammo",
            "9   18 Oct  German   cpp                    CPP for 18 Oct set to 10; 12 CPP left",
            "10  18 Oct  Russian  cpp                    CPP for 18 Oct set to 12; 22 CPP left",
            "11  18 Oct  German   purchase  3 CPP        Bought A4 Pz III H Pltn (3 CPP); 9 CPP left; "
            "no Platoon Withdrawal, MG Exchange compulsory (compilation rule 9)",
            "12  18 Oct  German   roll             6+6   A4 Pz III H Pltn: RG strength (Red Barricades): "
            "DR 6 + 6, -2 historical DRM = 10: Depleted -> 2 x Pz IIIH",
            "13  19 Oct  German   cpp                    CPP for 19 Oct set to 10; 19 CPP left",
            "14  19 Oct  Russian  cpp                    CPP for 19 Oct set to 12; 34 CPP left",
            "15  19 Oct  Russian  purchase  4 CPP        Bought I5 Militia Coy (4 CPP); 30 CPP left",
            "16  19 Oct  Russian  roll                   I5 Militia Coy: always Full Strength, no roll "
            "(compilation rule 7, Militia) -> 12 x 4-2-6",
            "17  19 Oct  Russian  roll             1+2   I5 Militia Coy leaders: Russian leaders received "
            "(Red Barricades): DR 1 + 2, +3 company type = 6: 9-1, 7-0",
            "18  19 Oct  Russian  roll                   I5 Militia Coy SW: none "
            "(compilation rule 7, Militia)",
        ]
    )
    assert "(finished)" in await console.say("/campaign status")
    await console.stop()


async def test_no_reply_to_a_side_shows_the_other_sides_sealed_orders_before_the_reveal(url):
    console = Console(url, VirtualClock(), ScriptedDice([]))
    await console.start()
    await console.say(NEW.replace("days:3", "days:2"))
    views = (
        "/campaign status",
        "/campaign ledger",
        "/campaign ledger csv",
        "/campaign orbat",
        "/campaign correct entry:0 to:void reason:peek",
        "/campaign submit phase:9 none",
        "/campaign submit buy:Z9",
        "/campaign submit side:{enemy} none",
        "/campaign frob",
        "/help",
    )

    async def replies_to(users, enemy):
        return [
            await console.say(f"as {user} {line.format(enemy=enemy)}") for user in users for line in views
        ]

    # phase 1: the Germans seal a Stuka and Wire; every reply to the Russian player is searched for them
    assert "S1 Stuka" in await console.say("as ann /campaign submit S1")
    sealed = await console.say('as bob /campaign submit buy:"S1, M1" fortify:Wire')
    assert "S1 Stuka, M1 Fortifications; fortifications: 1 x Wire" in sealed  # a side sees its own orders
    for reply in await replies_to(["cat"], "german"):
        assert not any(word in reply for word in ("Stuka", "S1", "Wire", "Fortifications")), reply
    assert console.notices() == ""  # nothing told to the channel yet
    await console.say("as cat /campaign submit none")
    assert "German: S1 Stuka" in console.notices()

    # phase 2: the Russians seal MOL capability, then change their minds; the Germans see neither
    assert "M3 MOL Capability" in await console.say("as cat /campaign submit M3")
    for reply in await replies_to(["ann", "bob"], "russian"):
        assert "MOL" not in reply and "M3" not in reply, reply
    await console.say("as cat /campaign submit M2")
    for reply in await replies_to(["ann", "bob"], "russian"):
        assert "Sniper" not in reply, reply
    assert console.notices() == ""
    await console.say("as bob /campaign submit none")
    revealed = console.notices()
    assert "German: no purchase" in revealed and "Russian: M2 Sniper" in revealed
    assert "MOL" not in revealed  # replaced orders are never shown
    await console.stop()


async def test_fortifications_the_order_of_battle_and_a_referee_correction_at_the_console(url):
    console = Console(url, VirtualClock(), ScriptedDice([]))
    await console.start()
    await console.say(NEW.replace("days:3", "days:2"))

    # 20 FPP from the German M1 do not pay for 2 Trenches and Wire: refused, nothing sealed
    assert await console.say('as ann /campaign submit buy:M1 fortify:"2 x Trench, Wire"') == (
        "Not allowed: German has 6 FPP left on 17 Oct; "
        "1 x Wire at 15 FPP per item would cost 15 FPP (9 short)"
    )
    assert "German (ann, bob): not yet submitted" in await console.say("/campaign status")
    assert await console.say('as ann /campaign submit buy:M1 fortify:"2 x Trench"') == (
        "German orders sealed for phase 1 (17 Oct purchases): M1 Fortifications; fortifications: "
        "2 x Trench (1 of 10 CPP spent; 14 of 20 FPP spent)"
    )
    await console.say("as cat /campaign submit none")
    assert "German: M1 Fortifications; fortifications: 2 x Trench" in console.notices()
    assert await console.say("/campaign orbat side:german") == (
        "German order of battle\n17 Oct  M1 Fortifications: 20 FPP\n"
        "17 Oct  Fortifications: 2 x Trench (14 FPP)"
    )

    # only the referee corrects; a refusal leaves the ledger as it was
    ledger = await console.say("/campaign ledger")
    assert await console.say('as ann /campaign correct entry:3 to:void reason:"no trenches"') == (
        "Not allowed: Only the campaign's referee may correct its ledger"
    )
    assert await console.say("as ref /campaign correct entry:three to:void reason:x") == (
        "Not allowed: entry is a whole number from 0 to 100,000, not 'three'"
    )
    assert await console.say("/campaign ledger") == ledger
    assert await console.say('as ref /campaign correct entry:3 to:void reason:"no trenches on 17 Oct"') == (
        "Ledger entry #3 corrected:\n6  17 Oct  German   correction  -14 FPP        corrects #3: Void: "
        "2 x Trench; 14 FPP back, 20 FPP left (reason: no trenches on 17 Oct)"
    )
    assert await console.say('as ref /campaign correct entry:0 to:12 reason:"the CG rules give 12"') == (
        "Ledger entry #0 corrected:\n7  17 Oct  German   correction                 corrects #0: CPP for "
        "17 Oct set to 12 (not 10); 11 CPP left (reason: the CG rules give 12)"
    )
    assert "Trench" not in await console.say("/campaign orbat side:german")
    table = (await console.say("/campaign ledger")).splitlines()
    assert table[1 + 3].endswith("Bought 2 x Trench at 7 FPP per item (14 FPP); 6 FPP left [corrected by #6]")
    assert table[1 + 0].endswith("CPP for 17 Oct set to 10; 10 CPP left [corrected by #7]")
    assert table[1 + 4].endswith("CPP for 18 Oct set to 10; 19 CPP left")  # written before the correction
    rows = list(csv.reader(io.StringIO(await console.say("/campaign ledger csv"))))
    assert rows[1 + 3][3:] == [
        "purchase",
        "14",
        "FPP",
        "",
        "Bought 2 x Trench at 7 FPP per item (14 FPP); 6 FPP left",
        "",
        "",
    ]
    assert [row[4:6] + row[7:] for row in rows[-2:]] == [
        ["-14", "FPP", "Void: 2 x Trench; 14 FPP back, 20 FPP left", "3", "no trenches on 17 Oct"],
        ["0", "", "CPP for 17 Oct set to 12 (not 10); 11 CPP left", "0", "the CG rules give 12"],
    ]
    await console.stop()


async def test_the_referee_records_retained_units_into_the_order_of_battle(url):
    console = Console(url, VirtualClock(), ScriptedDice([]))
    await console.start()
    await console.say(NEW.replace("days:3", "days:2"))
    await console.say("as ann /campaign submit none")
    await console.say("as cat /campaign submit M2")  # revealed: 18 Oct is open
    ledger = await console.say("/campaign ledger")
    assert await console.say('as cat /campaign retain side:russian units:"4-4-7"') == (
        "Not allowed: Only the campaign's referee may record retained units"
    )
    refused = await console.say("as ref /campaign retain side:russian")
    assert refused == "Not allowed: /campaign retain needs units: (see /help campaign retain)"
    refused = await console.say('as ref /campaign retain side:russian units:","')
    assert refused == "Not allowed: Name at least one retained unit"
    assert await console.say("/campaign ledger") == ledger
    assert await console.say('as ref /campaign retain side:russian units:"2 x 4-4-7, 9-1"') == (
        "Retained units recorded:\n5  18 Oct  Russian  retained               Retained: 2 x 4-4-7, 9-1"
    )
    assert await console.say("/campaign orbat side:russian") == (
        "Russian order of battle\n17 Oct  M2 Sniper: SAN Increase +1\nRetained: 2 x 4-4-7, 9-1"
    )
    # a retained entry is corrected like any other
    await console.say('as ref /campaign correct entry:5 to:"4-4-7" reason:"one squad broke"')
    assert (await console.say("/campaign orbat side:russian")).endswith("\nRetained: 4-4-7")
    await console.stop()


@pytest.mark.parametrize(
    ("option", "reminded_at"),
    [("reminders:2h", [22]), ('reminders:"6h, 30m"', [18, 23.5]), ("reminders:none", []), ("", [23])],
)
async def test_the_organiser_chooses_when_reminders_go_or_none(url, option, reminded_at):
    clock = VirtualClock()
    console = Console(url, clock, ScriptedDice([]))
    await console.start()
    answer = await console.say(f"{NEW.replace('days:3', 'days:1')} {option}")
    assert answer.startswith("Campaign Barrikady set up.")
    heard = []
    for half_hour in range(1, 48):
        await clock.advance(HOUR / 2)
        heard += [half_hour / 2] * len(console.reminded())
    assert heard == reminded_at  # the 24 h reminder of the default would ring as the campaign is made
    await console.stop()


async def test_reminders_that_cannot_be_read_set_up_nothing(url):
    console = Console(url, VirtualClock(), ScriptedDice([]))
    await console.start()
    assert await console.say(f"{NEW} reminders:soon") == (
        "Not allowed: Cannot read 'soon' as a length of time: write e.g. 24h, 90m, 1d12h or 2w"
    )
    assert await console.say("/campaign status") == (
        "Not allowed: There is no campaign in this channel: start one with /campaign new"
    )
    await console.stop()


@pytest.mark.parametrize(
    ("option", "left_on_18_oct"),
    [("", "19 CPP left"), ("carry_over:yes", "19 CPP left"), ("carry_over:no", "10 CPP left")],
)
async def test_the_organiser_says_whether_unspent_cpp_carry_over(url, option, left_on_18_oct):
    console = Console(url, VirtualClock(), ScriptedDice([]))
    await console.start()
    assert (await console.say(f"{NEW} {option}")).startswith("Campaign Barrikady set up.")
    await console.say("as ann /campaign submit M2")  # 1 of the German 10 CPP spent on 17 Oct
    await console.say("as cat /campaign submit none")
    ledger = (await console.say("/campaign ledger")).splitlines()
    (german_18_oct,) = [row for row in ledger if "18 Oct  German" in row]
    assert german_18_oct.endswith(f"CPP for 18 Oct set to 10; {left_on_18_oct}")
    await console.stop()


async def test_a_carry_over_that_is_neither_yes_nor_no_sets_up_nothing(url):
    console = Console(url, VirtualClock(), ScriptedDice([]))
    await console.start()
    assert await console.say(f"{NEW} carry_over:maybe") == (
        "Not allowed: carry_over: choose yes or no, not 'maybe'"
    )
    assert (await console.say("/campaign status")).startswith("Not allowed: There is no campaign")
    await console.stop()


async def test_a_bare_campaign_new_shows_how_to_write_one(url):
    console = Console(url, VirtualClock(), ScriptedDice([]))
    await console.start()
    refusal = "Not allowed: /campaign new needs name: (see /help campaign new)"
    assert await console.say("/campaign new") == refusal
    assert "no campaign" in (await console.say("/campaign status")).casefold()
    await console.stop()
