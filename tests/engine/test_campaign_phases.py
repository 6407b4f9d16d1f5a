"""Asynchronous campaign phases: deadlines, sealed submissions, reminders, grace and the reveal,
resolved into the Red Barricades books with scripted dice."""

import datetime
from datetime import UTC, timedelta

import pytest

from engine.campaign.phases import (
    Alarm,
    Campaign,
    FortificationOrder,
    RGOrder,
    Submission,
    alarms,
    announce_grace,
    correct,
    draw_chit,
    new_campaign,
    owed_by,
    own_sealed,
    parse_fortifications,
    parse_orders,
    parse_submission,
    remind,
    retain,
    reveal,
    reveal_due,
    reveal_text,
    sealed_text,
    set_balance,
    set_cg_ii_scenarios,
    status_text,
    submit,
)
from engine.campaign.red_barricades import cpp_left, order_of_battle_text
from engine.dice import ScriptedDice, d6
from engine.errors import IllegalCommand
from engine.rich_text import Mention, Moment, Strong
from tests.bare_text import bare

NOW = datetime.datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)
PLAYERS = {"german": ["ann", "bob"], "russian": ["cat"]}
I1 = RGOrder(rg_id="I1")  # German Rifle Coy, 7 CPP; Russian Gds Rifle Coy, 9 CPP
A4 = RGOrder(rg_id="A4")  # German Pz III H Pltn, 3 CPP
M2 = RGOrder(rg_id="M2")  # Sniper, 1 CPP, no roll


def campaign(grace=timedelta(0), days=3, referee="ref", **options) -> Campaign:
    return new_campaign(
        "Barrikady",
        PLAYERS,
        "17 Oct",
        {"german": 10, "russian": 12},
        [NOW + DAY * (n + 1) for n in range(days)],
        NOW,
        grace=grace,
        referee=referee,
        **options,
    )


def texts(c, start=0):
    return [(entry.side, entry.kind, entry.text, entry.dice_text) for entry in c.books.ledger[start:]]


# --- setting up ------------------------------------------------------------------------------------


def test_a_new_campaign_opens_its_first_phase_with_that_days_cpp():
    c = campaign()
    assert [p.state for p in c.phases] == ["open", "waiting", "waiting"]
    assert [str(p.day) for p in c.phases] == ["1942-10-17", "1942-10-18", "1942-10-19"]
    assert texts(c) == [
        ("german", "cpp", "CPP for 17 Oct set to 10; 10 CPP left", ""),
        ("russian", "cpp", "CPP for 17 Oct set to 12; 12 CPP left", ""),
    ]
    # the 24 h reminder would ring at the very moment the campaign is made: only 1 h is kept
    assert c.phases[0].reminders_left == (timedelta(hours=1),)
    assert c.phases[1].reminders_left == (timedelta(hours=24), timedelta(hours=1))


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (
            {"players": {"german": ["ann"], "russian": []}},
            "Name at least one player for each side: none for Russian",
        ),
        (
            {"players": {"german": ["ann"], "russian": ["ann"]}},
            "A player plays one side only: ann is on both",
        ),
        ({"referee": "cat"}, "The referee cat cannot also play a side"),
        ({"deadlines": [NOW + DAY, NOW + DAY]}, "Each deadline must come after the one before it"),
        (
            {"deadlines": [NOW + DAY, NOW + 2 * DAY], "grace": DAY},
            "Each deadline must come after the one before it and its grace period",
        ),
        ({"deadlines": [NOW]}, "The first deadline must come after now"),
        (
            {"first_day": "14 Nov", "deadlines": [NOW + DAY * n for n in (1, 2, 3)]},
            "3 CG Days from 14 Nov run past 15 Nov",
        ),
        ({"grace": -DAY}, "A grace period cannot be negative"),
        ({"reminders": [timedelta(0)]}, "A reminder comes a positive time before the deadline"),
        ({"deadlines": [datetime.datetime(2026, 3, 2)]}, "A deadline needs a time zone"),
    ],
)
def test_a_campaign_that_cannot_be_played_is_refused(change, refusal):
    arguments = {
        "name": "Barrikady",
        "players": PLAYERS,
        "first_day": "17 Oct",
        "cpp": {"german": 10, "russian": 12},
        "deadlines": [NOW + DAY],
        "now": NOW,
        "referee": "ref",
    } | change
    with pytest.raises(IllegalCommand, match=refusal):
        new_campaign(**arguments)


def test_a_campaign_survives_a_round_trip_through_json():
    c = campaign(grace=timedelta(hours=2))
    again = Campaign.model_validate_json(c.model_dump_json())
    assert again == c
    assert again.phases[0].closes_at == NOW + DAY + timedelta(hours=2)


# --- sealed submissions ----------------------------------------------------------------------------


def test_orders_are_read_from_rg_ids():
    assert parse_orders("I1, o2 2 hexes,M2") == (
        RGOrder(rg_id="I1"),
        RGOrder(rg_id="O2", preregistered_hexes=2),
        RGOrder(rg_id="M2"),
    )
    assert parse_orders(" none ") == ()
    with pytest.raises(IllegalCommand, match="Cannot read 'two tanks' as an RG"):
        parse_orders("I1, two tanks")


def test_a_player_seals_orders_for_their_side_and_may_replace_them():
    c, side, phase = submit(campaign(), "bob", [I1], NOW)
    assert (side, phase, c.phases[0].sealed) == ("german", 0, {"german": Submission(groups=(I1,))})
    c, _, _ = submit(c, "ann", [A4, M2], NOW)
    assert c.phases[0].sealed == {"german": Submission(groups=(A4, M2))}
    assert sealed_text(c, 0, "german") == (
        "German orders sealed for phase 1 (17 Oct purchases): A4 Pz III H Pltn, M2 Sniper (4 of 10 CPP spent)"
    )
    assert c.books.purchases == []  # nothing is bought before the reveal
    assert reveal_due(c, NOW) is None


def test_the_referee_submits_for_the_side_they_name():
    c, side, _ = submit(campaign(), "ref", [], NOW, side="russian")
    assert side == "russian" and c.phases[0].sealed == {"russian": Submission()}
    with pytest.raises(IllegalCommand, match="The referee names the side"):
        submit(campaign(), "ref", [], NOW)


@pytest.mark.parametrize(
    ("user", "orders", "options", "refusal"),
    [
        ("eve", [], {}, "You do not play in the campaign Barrikady"),
        ("ann", [], {"side": "russian"}, "You play the German side, not the Russian"),
        ("ann", [], {"side": "italian"}, "The side is german or russian, not 'italian'"),
        (
            "ann",
            [],
            {"phase": 1},
            r"Phase 2 \(18 Oct purchases\) is not open yet: it opens when phase 1 is revealed",
        ),
        ("ann", [], {"phase": 5}, "The campaign has phases 1 to 3, not 6"),
        ("ann", [I1, A4, M2], {}, r"German has 0 CPP left on 17 Oct; M2 Sniper costs 1 CPP \(1 short\)"),
        (
            "cat",
            [RGOrder(rg_id="O1", preregistered_hexes=3)],
            {},
            "O1 Lt Arty may have at most 2 Pre-Registered hexes",
        ),
    ],
)
def test_a_submission_that_cannot_be_taken_is_refused_and_changes_nothing(user, orders, options, refusal):
    c = campaign()
    before = c.model_dump_json()
    with pytest.raises(IllegalCommand, match=refusal):
        submit(c, user, orders, NOW, **options)
    assert c.model_dump_json() == before


def test_a_phase_closes_at_its_deadline_and_once_revealed():
    c = campaign()
    with pytest.raises(
        IllegalCommand, match=r"Phase 1 \(17 Oct purchases\) is closed: its deadline has passed"
    ):
        submit(c, "ann", [], NOW + DAY)
    c = reveal(c, 0, ScriptedDice([]), NOW + DAY)
    with pytest.raises(IllegalCommand, match=r"Phase 1 \(17 Oct purchases\) is closed: it has been revealed"):
        submit(c, "ann", [], NOW + DAY, phase=0)


def test_status_shows_who_has_submitted_but_never_what():
    c, _, _ = submit(campaign(), "ann", [I1], NOW)
    deadlines = [Moment(phase.deadline) for phase in c.phases]
    assert [d.at.strftime("%d %b %H:%M") for d in deadlines] == [
        "02 Mar 12:00",
        "03 Mar 12:00",
        "04 Mar 12:00",
    ]
    lines = status_text(c)
    assert lines == (
        (Strong("Barrikady"),),
        ("1. 17 Oct purchases: open, deadline ", deadlines[0]),
        ("   German (", Mention("ann"), ", ", Mention("bob"), "): submitted"),
        ("   Russian (", Mention("cat"), "): not yet submitted"),
        ("2. 18 Oct purchases: opens after phase 1; deadline ", deadlines[1]),
        ("3. 19 Oct purchases: opens after phase 2; deadline ", deadlines[2]),
    )
    assert "Rifle" not in bare(lines) and "I1" not in bare(lines)


# --- the reveal ------------------------------------------------------------------------------------


def test_both_sides_submitted_reveals_and_resolves_with_the_rolls():
    c, _, _ = submit(campaign(), "ann", [I1, M2], NOW)
    c, _, _ = submit(c, "cat", [I1], NOW)
    assert reveal_due(c, NOW) == 0
    # German Rifle Coy: strength DR 3+4 -2 historical = 5 Full; leaders 2+2; Russian Gds: 6+6 -1 = 11 Depleted
    dice = ScriptedDice([d6(3), d6(4), d6(2), d6(2), d6(6), d6(6), d6(3), d6(3)])
    c = reveal(c, 0, dice, NOW + timedelta(hours=3))
    assert dice.remaining == 0
    assert [p.state for p in c.phases] == ["revealed", "open", "waiting"]
    assert c.phases[0].defaulted == ()
    entries = texts(c, 2)
    assert [(side, kind, rolled) for side, kind, _, rolled in entries] == [
        ("german", "purchase", ""),
        ("german", "purchase", ""),
        ("german", "roll", "3+4"),
        ("german", "roll", "2+2"),
        ("german", "roll", ""),
        ("russian", "purchase", ""),
        ("russian", "roll", "6+6"),
        ("russian", "roll", "3+3"),
        ("russian", "roll", ""),
        ("german", "cpp", ""),
        ("russian", "cpp", ""),
    ]
    assert entries[2][2].endswith("= 5: Full Strength -> 12 x 4-6-7")
    assert entries[6][2].endswith("= 11: Depleted -> 9 x 4-5-8")
    # the next CG Day gets its CPP on top of those carried over: 10 - 8 + 10, 12 - 9 + 12
    assert entries[9][2] == "CPP for 18 Oct set to 10; 12 CPP left"
    assert (cpp_left(c.books, "german", "18 Oct"), cpp_left(c.books, "russian", "18 Oct")) == (12, 15)
    text = bare(reveal_text(c, 0))
    assert text.splitlines()[:3] == [
        "Barrikady: phase 1 (17 Oct purchases) revealed",
        "German: I1 Rifle Coy, M2 Sniper",
        "Russian: I1 Gds Rifle Coy",
    ]
    assert text.splitlines()[3].startswith("#2 German: Bought I1 Rifle Coy (7 CPP); 3 CPP left")


def test_a_side_that_misses_the_deadline_gets_no_purchase():
    c, _, _ = submit(campaign(), "cat", [M2], NOW)
    assert reveal_due(c, NOW + DAY - timedelta(seconds=1)) is None
    c = reveal(c, 0, ScriptedDice([]), NOW + DAY)
    assert c.phases[0].defaulted == ("german",)
    assert "German missed the deadline: no purchase" in bare(reveal_text(c, 0))
    assert [p.side for p in c.books.purchases] == ["russian"]
    with pytest.raises(IllegalCommand, match="Phase 1 cannot be revealed now"):
        reveal(c, 0, ScriptedDice([]), NOW + DAY)


def test_the_last_reveal_finishes_the_campaign():
    c = campaign(days=1)
    c = reveal(c, 0, ScriptedDice([]), NOW + DAY)
    assert c.finished and c.open_phase is None and alarms(c) == []
    with pytest.raises(IllegalCommand, match="The campaign Barrikady is over"):
        submit(c, "ann", [], NOW + DAY)


# --- reminders and grace ---------------------------------------------------------------------------


def test_alarms_ring_reminders_grace_and_close_for_the_open_phase_only():
    c, _, _ = submit(campaign(grace=timedelta(hours=2)), "ann", [], NOW)
    c, _, _ = submit(c, "cat", [], NOW)
    c = reveal(c, 0, ScriptedDice([]), NOW + timedelta(hours=1))  # revealed early
    deadline = NOW + 2 * DAY
    assert alarms(c) == [
        Alarm(1, "remind:86400", deadline - DAY),
        Alarm(1, "remind:3600", deadline - timedelta(hours=1)),
        Alarm(1, "grace", deadline),
        Alarm(1, "close", deadline + timedelta(hours=2)),
    ]
    # revealed at its close, phase 1 opens phase 2 after its 24 h reminder time: only 1 h is left
    c = reveal(campaign(grace=timedelta(hours=2)), 0, ScriptedDice([]), NOW + DAY + timedelta(hours=2))
    assert [a.name for a in alarms(c)] == ["remind:3600", "grace", "close"]


def test_reminders_go_to_the_players_who_still_owe_a_submission():
    c, _, _ = submit(campaign(), "ann", [], NOW)
    alarm = Alarm(0, "remind:3600", NOW + DAY - timedelta(hours=1))
    c, users = remind(c, alarm, alarm.at)
    assert users == ["cat"]
    assert c.phases[0].reminders_left == ()
    assert remind(c, alarm, alarm.at) == (c, [])  # rung once only


def test_after_a_restart_only_the_latest_due_reminder_is_sent():
    c = reveal(campaign(), 0, ScriptedDice([]), NOW + DAY)  # phase 2: deadline NOW + 2 days
    late = NOW + 2 * DAY - timedelta(minutes=30)  # both reminder times passed while down
    c, first = remind(c, Alarm(1, "remind:86400", NOW + DAY), late)
    c, second = remind(c, Alarm(1, "remind:3600", late), late)
    assert (first, second) == ([], ["ann", "bob", "cat"])
    c2 = reveal(campaign(), 0, ScriptedDice([]), NOW + DAY)
    assert remind(c2, Alarm(1, "remind:3600", late), NOW + 2 * DAY)[1] == []  # deadline already passed


def test_a_grace_period_is_announced_to_those_who_have_not_acted_and_still_takes_orders():
    c, _, _ = submit(campaign(grace=timedelta(hours=2)), "cat", [], NOW)
    grace = Alarm(0, "grace", NOW + DAY)
    over, users = announce_grace(c, grace, NOW + DAY + timedelta(hours=2))  # after a restart: too late
    assert users == [] and over.phases[0].grace_announced
    c, users = announce_grace(c, grace, NOW + DAY)
    assert users == ["ann", "bob"] == owed_by(c, 0)
    assert announce_grace(c, grace, NOW + DAY) == (c, [])
    assert reveal_due(c, NOW + DAY + timedelta(hours=1)) is None
    c, _, _ = submit(c, "bob", [M2], NOW + DAY + timedelta(hours=1))
    assert reveal_due(c, NOW + DAY + timedelta(hours=1)) == 0


def test_a_phase_opened_late_keeps_its_full_length():
    c = campaign(grace=timedelta(hours=2))
    # phase 1 closed at NOW + 1 day + 2 h, but was revealed 5 hours later (the bot was down)
    c = reveal(c, 0, ScriptedDice([]), NOW + DAY + timedelta(hours=7))
    assert [p.deadline for p in c.phases] == [
        NOW + DAY,
        NOW + 2 * DAY + timedelta(hours=5),
        NOW + 3 * DAY + timedelta(hours=5),
    ]
    # revealed early, nothing moves
    c, _, _ = submit(campaign(), "ann", [], NOW)
    c, _, _ = submit(c, "cat", [], NOW)
    assert [p.deadline for p in reveal(c, 0, ScriptedDice([]), NOW).phases] == [
        NOW + DAY * n for n in (1, 2, 3)
    ]


# --- fortifications in a submission ---------------------------------------------------------------

M1 = RGOrder(rg_id="M1")  # Fortifications, 1 CPP: 20 FPP German, 40 FPP Russian


def test_fortification_orders_are_read_one_a_line_or_between_commas():
    assert parse_fortifications("2 x Trench\n3 foxhole at 2, 6 A-P Mine factors at 3\nPillbox 1+5+1") == (
        FortificationOrder(name="trench", quantity=2),
        FortificationOrder(name="foxhole", quantity=3, rate=2),
        FortificationOrder(name="a-p mine", quantity=6, rate=3),
        FortificationOrder(name="pillbox", pillbox=(1, 5, 1)),
    )
    assert parse_fortifications("none") == parse_fortifications("") == ()
    assert parse_orders("I1\nO2 2 hexes") == (RGOrder(rg_id="I1"), RGOrder(rg_id="O2", preregistered_hexes=2))
    with pytest.raises(IllegalCommand, match="Cannot read 'Trench x 2' as fortifications"):
        parse_fortifications("Wire, Trench x 2")
    with pytest.raises(IllegalCommand, match='^Say what your side buys: RG IDs such as "I1, O2 2 hexes"'):
        parse_submission(" ", "\n")


def test_a_side_sees_its_sealed_orders_as_typed_and_they_read_back_the_same():
    orders = parse_submission("m1, O2 2 hexes", "pillbox 1+5+1\n6 a-p mine factors at 3")
    c, _, _ = submit(campaign(), "cat", orders, NOW)
    sealed = own_sealed(c, "cat", NOW)
    assert sealed.typed == ("M1\nO2 2 hexes", "1 x Pillbox 1+5+1\n6 A-P Mine factors at 3")
    again, _, _ = submit(c, "cat", parse_submission(*sealed.typed), NOW)
    assert again.phases[0].sealed == c.phases[0].sealed
    assert own_sealed(c, "ref", NOW, side="russian") == sealed
    # nothing sealed yet: nothing to show; the other side's, or a phase not taking orders: refused
    assert own_sealed(c, "ann", NOW) is None
    with pytest.raises(IllegalCommand, match="You play the German side, not the Russian"):
        own_sealed(c, "ann", NOW, side="russian")
    with pytest.raises(IllegalCommand, match=r"^Phase 2 \(18 Oct purchases\) is not open yet"):
        own_sealed(c, "cat", NOW, phase=1)
    with pytest.raises(
        IllegalCommand, match=r"^Phase 1 \(17 Oct purchases\) is closed: its deadline has passed"
    ):
        own_sealed(c, "cat", NOW + DAY)
    c, _, _ = submit(c, "ann", [], NOW)
    assert own_sealed(c, "ann", NOW).typed == ("none", "")


def test_a_side_seals_fortifications_paid_with_the_fpp_of_its_m1_bought_that_day():
    orders = parse_submission("M1, M2", "2 x Trench\n3 Foxhole at 2")
    c, side, _ = submit(campaign(), "ann", orders, NOW)
    assert c.phases[0].sealed[side].fortifications == (
        FortificationOrder(name="Trench", quantity=2),
        FortificationOrder(name="Foxhole", quantity=3, rate=2),
    )
    assert sealed_text(c, 0, "german") == (
        "German orders sealed for phase 1 (17 Oct purchases): M1 Fortifications, M2 Sniper; "
        "fortifications: 2 x Trench, 3 x Foxhole at 2 (2 of 10 CPP spent; 20 of 20 FPP spent)"
    )
    c, _, _ = submit(c, "cat", parse_submission("none"), NOW)
    c = reveal(c, 0, ScriptedDice([]), NOW)
    assert texts(c, 2)[:4] == [
        ("german", "purchase", "Bought M1 Fortifications: 20 FPP (1 CPP); 9 CPP left", ""),
        ("german", "purchase", "Bought M2 Sniper (1 CPP); 8 CPP left", ""),
        ("german", "purchase", "Bought 2 x Trench at 7 FPP per item (14 FPP); 6 FPP left", ""),
        ("german", "purchase", "Bought 3 x Foxhole at 2 FPP per item (6 FPP); 0 FPP left", ""),
    ]
    assert bare(reveal_text(c, 0)).splitlines()[1] == (
        "German: M1 Fortifications, M2 Sniper; fortifications: 2 x Trench, 3 x Foxhole at 2"
    )
    assert "17 Oct  Fortifications: 3 x Foxhole (6 FPP)" in bare(order_of_battle_text(c.books, "german"))


@pytest.mark.parametrize(
    ("user", "rgs", "fortifications", "refusal"),
    [
        (
            "ann",
            "none",
            "2 x Trench",
            "German has 0 FPP left on 17 Oct; 2 x Trench at 7 FPP per item would cost 14 FPP (14 short)",
        ),
        (
            "ann",
            "M1",
            "Trench, Wire",
            "German has 13 FPP left on 17 Oct; 1 x Wire at 15 FPP per item would cost 15 FPP (2 short)",
        ),
        (
            "ann",
            "M1",
            "Booby Traps",
            "The German side cannot buy Booby Traps (RB15: the Germans have no Booby Trap capability)",
        ),
        ("cat", "M1", "moat", "The Fortification Table has no 'moat': it lists Foxhole, Trench"),
        ("cat", "M1", "Foxhole", "Foxhole costs 3/2/1 FPP per item: name the rate that applies (one of 3"),
    ],
)
def test_fortifications_a_side_could_not_buy_are_refused_and_nothing_is_sealed(
    user, rgs, fortifications, refusal
):
    c = campaign()
    before = c.model_dump_json()
    with pytest.raises(IllegalCommand) as refused:
        submit(c, user, parse_submission(rgs, fortifications), NOW)
    assert str(refused.value).startswith(refusal)
    assert c.model_dump_json() == before


# --- referee corrections in a running campaign ----------------------------------------------------


def test_only_the_referee_corrects_the_ledger_and_the_books_follow():
    c = campaign()
    for user in ("ann", "cat", "eve"):
        with pytest.raises(IllegalCommand, match="^Only the campaign's referee may correct its ledger$"):
            correct(c, user, 0, "12", "more CPP")
    corrected = correct(c, "ref", 0, "12", "more CPP")
    assert cpp_left(corrected.books, "german", "17 Oct") == 12 and cpp_left(c.books, "german", "17 Oct") == 10
    assert corrected.books.ledger[-1].corrects == 0


def test_without_a_referee_the_organiser_corrects():
    c = campaign(referee=None, organiser="ann")
    with pytest.raises(IllegalCommand, match=r"^Only the campaign's organiser may correct its ledger \("):
        correct(c, "cat", 1, "14", "more CPP")
    assert cpp_left(correct(c, "ann", 1, "14", "more CPP").books, "russian", "17 Oct") == 14
    with pytest.raises(IllegalCommand, match="nobody may correct its ledger"):
        correct(campaign(referee=None), "ann", 1, "14", "more CPP")


def test_the_referee_records_retained_units_on_the_cg_day_they_carry_into():
    c = reveal(campaign(), 0, ScriptedDice([]), NOW + DAY)  # phase 2, 18 Oct, is open
    for user in ("ann", "cat"):
        with pytest.raises(IllegalCommand, match="^Only the campaign's referee may record retained units$"):
            retain(c, user, "german", ["4-6-7"])
    kept = retain(c, "ref", "german", ["2 x 4-6-7", "9-1"])
    assert kept.books.order_of_battle["german"].retained == ["2 x 4-6-7", "9-1"]
    assert texts(kept, len(c.books.ledger)) == [("german", "retained", "Retained: 2 x 4-6-7, 9-1", "")]
    assert str(kept.books.ledger[-1].day) == "1942-10-18" and c.books.order_of_battle["german"].retained == []
    with pytest.raises(IllegalCommand, match="^Name at least one retained unit$"):
        retain(c, "ref", "german", [])
    with pytest.raises(IllegalCommand, match="^The side is german or russian, not 'french'$"):
        retain(c, "ref", "french", ["9-1"])
    finished = reveal(reveal(c, 1, ScriptedDice([]), NOW + 2 * DAY), 2, ScriptedDice([]), NOW + 3 * DAY)
    organised = finished.model_copy(update={"referee": None, "organiser": "cat"})
    assert str(retain(organised, "cat", "russian", ["8-0"]).books.ledger[-1].day) == "1942-10-19"


def test_a_correction_that_would_break_a_sealed_submission_waits_for_the_reveal():
    c, _, _ = submit(campaign(), "ann", [A4, M2], NOW)  # 4 CPP of 10
    with pytest.raises(IllegalCommand) as refused:
        correct(c, "ref", 0, "3", "fewer CPP")
    assert str(refused.value) == (
        "That correction would leave orders sealed for phase 1 (17 Oct purchases) that can no longer "
        "be bought: make it after the reveal"
    )
    assert cpp_left(correct(c, "ref", 0, "4", "fewer CPP").books, "german", "17 Oct") == 4


# --- the chart notes and compilation rules in sealed orders (RB CG compilation) -------------------


def test_orders_carry_the_rg_chart_note_options_and_read_back_the_same():
    orders = parse_orders("S1 at 2 CPP, a2 dug-in, A9 251/10, O5 for o2, O2 1 hex for O3")
    assert orders == (
        RGOrder(rg_id="S1", at_two_cpp=True),  # note b
        RGOrder(rg_id="A2", dug_in=True),  # note w
        RGOrder(rg_id="A9", exchange_spw=True),  # note g
        RGOrder(rg_id="O5", serves="O2"),  # note o
        RGOrder(rg_id="O2", preregistered_hexes=1, serves="O3"),
    )
    assert parse_orders("\n".join(order.typed for order in orders)) == orders
    assert parse_fortifications("keep 4-4-7 hidden at 5, keep gun 76L ART hidden, HIP at 3 for 2-2-8") == (
        FortificationOrder(keep="4-4-7", rate=5),  # compilation rule 3
        FortificationOrder(keep="76L ART", gun=True),
        FortificationOrder(name="hip", rate=3, hides="2-2-8"),
    )


def test_a_reveal_applies_notes_g_s_and_w():
    german = parse_submission("O2, O6 for O2, A9 251/10")
    c, _, _ = submit(campaign(), "ann", german, NOW)
    assert sealed_text(c, 0, "german").endswith("(7 of 10 CPP spent)")
    c, _, _ = submit(c, "cat", parse_submission("A2 dug-in"), NOW)
    # 17 Oct: O2 ammo 3+3 -2 = 4 Plentiful; A9 strength 3+3 -2 = 4 Full; Russian A2 3+3 -1 = 5 Full
    dice = ScriptedDice([d6(3)] * 6)
    c = reveal(c, 0, dice, NOW)
    assert dice.remaining == 0
    german_ledger = [text for side, _, text, _ in texts(c, 2) if side == "german"]
    assert german_ledger[1] == (
        "Bought O6 Spotter Plane (1 CPP); 5 CPP left; serves O2 Med Arty of 17 Oct (ledger #2); "
        "Retained while it is; one Spotter Plane flies per CG scenario, none in Overcast/Fog/Heavy Mist/Mist "
        "(compilation rule 10)"
    )
    assert german_ledger[-3:-1] == [
        "A9 SPW Pltn: RG strength (Red Barricades): DR 3 + 3, -2 historical DRM = 4: Full Strength "
        "-> 4 x SPW 251/1",
        "A9 SPW Pltn: one SPW 251/1 exchanged for an SPW 251/10 (note g) -> 3 x SPW 251/1, 1 x SPW 251/10",
    ]
    platoon = c.books.order_of_battle["russian"].formations[0]
    assert platoon.dug_in and platoon.units == ("3 x T-70",)
    assert "Russian: A2 T-70 Pltn dug-in" in bare(reveal_text(c, 0))


@pytest.mark.parametrize(
    ("user", "rgs", "fortifications", "refusal"),
    [
        ("ann", "O4, O6 for O4", "", "A Spotter Plane is only for non-rocket OBA of 100+mm (note s; "),
        ("ann", "O6", "", "O6 Spotter Plane is bought for one OBA module (note s): name it"),
        ("ann", "A1 251/10", "", "Only an SPW Pltn (A9) may exchange an SPW 251/1"),
        ("ann", "A1 dug-in", "", "Only a Russian AFV Platoon may be bought Dug-In (note w)"),
        ("ann", "A1 at 2 CPP", "", "Only the Stuka (S1) may be bought at 2 CPP (note b)"),
        ("cat", "M1", "HIP at 5 for Trench", "Russian Entrenchments and Wire never set up hidden (RB7)"),
        ("cat", "M1", "keep 4-4-7 hidden", "Keeping 4-4-7 hidden costs HIP FPP (compilation rule 3)"),
    ],
)
def test_orders_a_purchase_rule_refuses_are_not_sealed(user, rgs, fortifications, refusal):
    c = campaign()
    before = c.model_dump_json()
    with pytest.raises(IllegalCommand) as refused:
        submit(c, user, parse_submission(rgs, fortifications), NOW)
    assert str(refused.value).startswith(refusal)
    assert c.model_dump_json() == before


def test_units_kept_hidden_are_sealed_and_paid_with_fpp_at_the_reveal():
    orders = parse_submission("M1", "keep 4-4-7 hidden at 5\nkeep gun 76L ART hidden\nHIP at 3 for 2-2-8")
    c, _, _ = submit(campaign(), "cat", orders, NOW)
    sealed = own_sealed(c, "cat", NOW)
    assert sealed.typed == ("M1", "keep 4-4-7 hidden at 5\nkeep gun 76L ART hidden\n1 x HIP at 3 for 2-2-8")
    assert sealed_text(c, 0, "russian").endswith("(1 of 12 CPP spent; 8 of 40 FPP spent)")
    c, _, _ = submit(c, "ann", [], NOW)
    c = reveal(c, 0, ScriptedDice([]), NOW)
    assert [text for side, _, text, _ in texts(c, 2) if side == "russian"][1:-1] == [
        "Bought 4-4-7 kept hidden at the HIP rate 5 FPP (compilation rule 3) (5 FPP); 35 FPP left",
        "Bought gun 76L ART kept hidden free: a Gun (compilation rule 3) (0 FPP); 35 FPP left",
        "Bought 1 x HIP for 2-2-8 at 3 FPP per item (3 FPP); 32 FPP left",
    ]


def test_the_referee_sets_the_balance_provision_and_cg_ii_and_records_chits():
    c = campaign()
    for call, what in [
        (lambda user: set_balance(c, user, "german", 1), "set a Balance provision DRM"),
        (lambda user: set_cg_ii_scenarios(c, user, True), "say which CG is played"),
        (lambda user: draw_chit(c, user, 0, "red"), "record a Battery Access chit"),
    ]:
        with pytest.raises(IllegalCommand, match=f"^Only the campaign's referee may {what}$"):
            call("ann")
    c = set_cg_ii_scenarios(set_balance(c, "ref", "german", 1), "ref", True)
    assert (c.books.balance_drm, c.books.cg_ii) == ({"german": 1, "russian": 0}, True)
    c, _, _ = submit(c, "ann", parse_submission("O2"), NOW)
    c, _, _ = submit(c, "cat", [], NOW)
    c = reveal(c, 0, ScriptedDice([d6(3), d6(3)]), NOW)  # 6 -2 historical +1 balance = 5: Normal ammo
    assert c.books.order_of_battle["german"].formations[0].ammo == "Normal ammo"
    c = draw_chit(c, "ref", 4, "red")
    assert texts(c)[-1] == (
        "german",
        "rule",
        "O2 Med Arty (ledger #4) Battery Access: red chit permanently removed; 0 black, 1 red out",
        "",
    )


def test_campaigns_stored_before_the_purchase_rules_still_load():
    c, _, _ = submit(campaign(), "ann", parse_submission("O2"), NOW)
    c, _, _ = submit(c, "cat", [], NOW)
    c = reveal(c, 0, ScriptedDice([d6(3), d6(3)]), NOW)
    stored = c.model_dump(mode="json")
    del stored["books"]["balance_drm"], stored["books"]["cg_ii"]
    formation = stored["books"]["order_of_battle"]["german"]["formations"][0]
    for field in ("serves", "dug_in", "spw_exchanged", "black_chits_removed", "red_chits_removed", "notes"):
        del formation[field]
    for order in stored["phases"][0]["sealed"]["german"]["groups"]:
        del order["at_two_cpp"], order["dug_in"], order["exchange_spw"], order["serves"]
    assert Campaign.model_validate(stored) == c
