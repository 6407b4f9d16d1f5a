"""Asynchronous campaign play: a calendar of phases, each with a deadline, sealed submissions,
reminders and a reveal.

Each side's players submit what the open phase asks of them; a submission is sealed (kept per
side and shown to nobody else) until every side has submitted or the deadline, plus any grace
period, has passed. Then the phase is revealed and resolved at once: a side that did not submit
gets the phase's default. Reminders go, a set time before the deadline, to the players who still
owe a submission. Nothing here expires by itself: the caller's timers ring the alarms that
:func:`alarms` lists, and a campaign with nobody to ring them waits.

The reference campaign is Red Barricades CG III: one purchase phase per CG Day, resolved through
:mod:`engine.campaign.purchases` and :mod:`engine.campaign.refit_rolls` into the campaign's books
(:class:`engine.campaign.red_barricades.Campaign`) and ledger. Every function returns a new
:class:`Campaign` and leaves the one it was given unchanged, also when it refuses with
:class:`IllegalCommand`.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.campaign import red_barricades
from engine.campaign.calendar import CG_DAYS, SIDE_NAMES, SIDES, Side, cg_day, check_side, day_label
from engine.campaign.corrections import correct_books
from engine.campaign.purchase_rules import (
    battery_access_chit,
    exchange_spw_251_1,
    set_balance_provision,
    set_cg_ii,
    spw_exchange_refusal,
)
from engine.campaign.purchases import (
    fortification_text,
    keep_hidden,
    purchase_fortification,
    purchase_reinforcement_group,
)
from engine.campaign.refit_rolls import roll_after_purchase
from engine.campaign.rg_chart import find_fortification, find_reinforcement_group, rg_charts
from engine.dice import DiceSource
from engine.errors import IllegalCommand
from engine.rich_text import Line, Moment, Strong, listed
from engine.wording import counted

PhaseKind = Literal["purchase"]
PhaseState = Literal["waiting", "open", "revealed"]

DEFAULT_REMINDERS = (datetime.timedelta(hours=24), datetime.timedelta(hours=1))
WHAT_TO_SUBMIT: dict[PhaseKind, str] = {"purchase": "its RG purchases for the CG Day (or none)"}
DEFAULT_SUBMISSION: dict[PhaseKind, str] = {"purchase": "no purchase"}

REMIND = "remind"  # alarm names: "remind:<seconds before the deadline>", "grace", "close"
GRACE = "grace"
CLOSE = "close"


def _require_aware(moment: datetime.datetime) -> datetime.datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise IllegalCommand(f"A deadline needs a time zone (UTC, say), not {moment!r}")
    return moment


class RGOrder(BaseModel):
    """One RG a side means to buy on the phase's CG Day (RePh 11.619), with the options the RG
    chart notes give: a Stuka at 2 CPP (note b), a Russian AFV Pltn Dug-In (note w), an SPW
    251/1 exchanged for a 251/10 once the platoon's strength is rolled (note g), the OBA module
    an Offboard Observer or Spotter Plane serves (notes o, s)."""

    model_config = ConfigDict(frozen=True)

    rg_id: str
    preregistered_hexes: int = 0
    at_two_cpp: bool = False
    dug_in: bool = False
    exchange_spw: bool = False
    serves: str | None = None

    def _options(self) -> str:
        return (
            (" at 2 CPP" if self.at_two_cpp else "")
            + (" dug-in" if self.dug_in else "")
            + (" 251/10" if self.exchange_spw else "")
            + (f" for {self.serves}" if self.serves else "")
        )

    def text(self, side: Side) -> str:
        label = find_reinforcement_group(side, self.rg_id).label
        hexes = self.preregistered_hexes
        what = f"{label} with {counted(hexes, 'Pre-Registered hex', 'Pre-Registered hexes')}"
        what = what if hexes else label
        return what + self._options()

    @property
    def typed(self) -> str:
        """The order as a player types it: ``"I1"``, ``"O2 2 hexes"``, ``"O6 for O2"``."""
        hexes = self.preregistered_hexes
        what = f"{self.rg_id} {hexes} hex{'es' if hexes != 1 else ''}" if hexes else self.rg_id
        return what + self._options()


class FortificationOrder(BaseModel):
    """Fortifications a side means to buy with the FPP of the day's Fortifications RGs: so many
    items (or mine factors) of a Fortification Table line, at the ``rate`` named where the table
    prints several costs; a Pillbox from its counter's three numbers; HIP naming what it
    ``hides``. With ``keep``: a unit still hidden from the last CG scenario that stays hidden
    (compilation rule 3), a ``gun`` free, any other unit at the HIP ``rate``."""

    model_config = ConfigDict(frozen=True)

    name: str = ""
    quantity: int = 1
    rate: int | None = None
    pillbox: tuple[int, int, int] | None = None
    hides: str | None = None
    keep: str | None = None
    gun: bool = False

    @property
    def text(self) -> str:
        """``"2 x Trench"``, ``"6 A-P Mine factors at 3"``, ``"1 x Pillbox 1+5+1"``,
        ``"keep 4-4-7 hidden at 5"``."""
        rate = f" at {self.rate}" if self.rate is not None else ""
        if self.keep is not None:
            return f"keep {'gun ' if self.gun else ''}{self.keep} hidden{rate}"
        line = next(f for f in rg_charts().fortifications if f.name == self.name)
        what = fortification_text(line, self.quantity)
        if self.pillbox:
            what += " " + "+".join(str(n) for n in self.pillbox)
        return what + rate + (f" for {self.hides}" if self.hides else "")


class Submission(BaseModel):
    """What a side seals for a purchase phase: RGs bought in order, then fortifications."""

    model_config = ConfigDict(frozen=True)

    groups: tuple[RGOrder, ...] = ()
    fortifications: tuple[FortificationOrder, ...] = ()

    def text(self, side: Side) -> str:
        """``"I1 Rifle Coy, M1 Fortifications; fortifications: 2 x Trench"``, or the default."""
        bought = ", ".join(order.text(side) for order in self.groups) or DEFAULT_SUBMISSION["purchase"]
        if self.fortifications:
            bought += "; fortifications: " + ", ".join(order.text for order in self.fortifications)
        return bought

    @property
    def typed(self) -> tuple[str, str]:
        """The RG orders and the fortification orders as a player types them, one a line
        (:func:`parse_submission` reads them back): ``("I1\\nO2 2 hexes", "2 x Trench")``."""
        groups = "\n".join(order.typed for order in self.groups) or "none"
        return groups, "\n".join(order.text for order in self.fortifications)


class Phase(BaseModel):
    """One phase of the calendar: a CG Day's purchases, by a deadline."""

    kind: PhaseKind = "purchase"
    day: datetime.date  # the CG Day
    cpp: dict[Side, int]  # the CPP the organiser gives each side for the CG Day (11.616)
    deadline: datetime.datetime
    grace: datetime.timedelta = datetime.timedelta(0)
    state: PhaseState = "waiting"
    sealed: dict[Side, Submission] = Field(default_factory=dict)
    reminders_left: tuple[datetime.timedelta, ...] = ()  # how long before the deadline to remind
    grace_announced: bool = False
    defaulted: tuple[Side, ...] = ()  # the sides that got the default at the reveal
    ledger_from: int | None = None  # the reveal's ledger entries are ledger[ledger_from:ledger_to]
    ledger_to: int | None = None

    @field_validator("deadline")
    @classmethod
    def _aware(cls, value: datetime.datetime) -> datetime.datetime:
        return _require_aware(value)

    @field_validator("sealed", mode="before")
    @classmethod
    def _submissions(cls, value: object) -> object:
        """Campaigns stored before fortifications were sealed kept a list of RG orders per side."""
        if isinstance(value, dict):
            return {side: {"groups": v} if isinstance(v, list | tuple) else v for side, v in value.items()}
        return value

    @property
    def title(self) -> str:
        return f"{day_label(self.day)} purchases"

    @property
    def closes_at(self) -> datetime.datetime:
        """The deadline plus the grace period: when the phase is revealed whoever has submitted."""
        return self.deadline + self.grace


class Campaign(BaseModel):
    """A campaign in a channel: its sides' players, an optional referee, the calendar of phases
    and the Red Barricades books the phases are resolved into."""

    name: str
    players: dict[Side, tuple[str, ...]]
    referee: str | None = None
    organiser: str | None = None  # who set the campaign up; corrects the ledger when there is no referee
    phases: list[Phase]
    books: red_barricades.Campaign = Field(default_factory=red_barricades.Campaign)

    @property
    def open_phase(self) -> int | None:
        """The index of the phase taking submissions, or None once every phase is revealed."""
        return next((n for n, phase in enumerate(self.phases) if phase.state == "open"), None)

    @property
    def finished(self) -> bool:
        return all(phase.state == "revealed" for phase in self.phases)


@dataclass(frozen=True)
class Alarm:
    """A moment a timer must ring for the open phase: ``name`` is a reminder, grace or close."""

    phase: int
    name: str
    at: datetime.datetime


# --- setting a campaign up ------------------------------------------------------------------------


def new_campaign(
    name: str,
    players: Mapping[str, Sequence[str]],
    first_day: datetime.date | str,
    cpp: Mapping[str, int],
    deadlines: Sequence[datetime.datetime],
    now: datetime.datetime,
    grace: datetime.timedelta = datetime.timedelta(0),
    reminders: Iterable[datetime.timedelta] = DEFAULT_REMINDERS,
    referee: str | None = None,
    organiser: str | None = None,
    carry_over: bool = True,
) -> Campaign:
    """A Red Barricades campaign with one purchase phase per CG Day from ``first_day``, one per
    deadline, each side given ``cpp`` CPP every CG Day (and, with ``carry_over``, keeping those
    it left unspent, as the players' CG rules say); the first phase opens at once.

    Refused: a side with no player, a player on both sides, a referee who also plays, a first
    deadline not after ``now``, a deadline not after the one before it plus the grace period, a
    negative grace, reminders that are not positive, or CG Days past the end of the calendar."""
    name = " ".join(name.split())
    if not name:
        raise IllegalCommand("Give the campaign a name")
    sides = {check_side(side): tuple(dict.fromkeys(users)) for side, users in players.items()}
    missing = [SIDE_NAMES[side] for side in SIDES if not sides.get(side)]
    if missing:
        raise IllegalCommand(f"Name at least one player for each side: none for {' and '.join(missing)}")
    both = set(sides["german"]) & set(sides["russian"])
    if both:
        raise IllegalCommand(f"A player plays one side only: {', '.join(sorted(both))} is on both")
    if referee is not None and referee in {*sides["german"], *sides["russian"]}:
        raise IllegalCommand(f"The referee {referee} cannot also play a side")
    points = {check_side(side): value for side, value in cpp.items()}
    if set(points) != set(SIDES) or any(value < 0 for value in points.values()):
        raise IllegalCommand("Give each side its CPP per CG Day, zero or more")
    if not deadlines:
        raise IllegalCommand("A campaign needs at least one phase")
    for deadline in deadlines:
        _require_aware(deadline)
    if grace < datetime.timedelta(0):
        raise IllegalCommand("A grace period cannot be negative")
    if deadlines[0] <= now:
        raise IllegalCommand("The first deadline must come after now")
    if any(later <= earlier + grace for earlier, later in zip(deadlines, deadlines[1:], strict=False)):
        raise IllegalCommand("Each deadline must come after the one before it and its grace period")
    leads = tuple(sorted(set(reminders), reverse=True))
    if any(lead <= datetime.timedelta(0) for lead in leads):
        raise IllegalCommand("A reminder comes a positive time before the deadline")
    start = CG_DAYS.index(cg_day(first_day))
    if start + len(deadlines) > len(CG_DAYS):
        raise IllegalCommand(
            f"{len(deadlines)} CG Days from {day_label(CG_DAYS[start])} run past "
            f"{day_label(CG_DAYS[-1])}, the last CG Day"
        )
    phases = [
        Phase(day=CG_DAYS[start + n], cpp=points, deadline=deadline, grace=grace, reminders_left=leads)
        for n, deadline in enumerate(deadlines)
    ]
    books = red_barricades.Campaign(carry_over=carry_over)
    campaign = Campaign(
        name=name, players=sides, referee=referee, organiser=organiser, phases=phases, books=books
    )
    return _open(campaign, 0, now)


def _open(campaign: Campaign, index: int, now: datetime.datetime) -> Campaign:
    """Open a phase: the organiser's CPP for its CG Day are set (11.616), and only reminders
    still ahead are kept. A phase opened later than the previous one closed (the bot was down
    at its close) keeps its full length: its deadline and every later one move by the delay."""
    phase = campaign.phases[index]
    late = now - campaign.phases[index - 1].closes_at if index else datetime.timedelta(0)
    if late > datetime.timedelta(0):
        for later in campaign.phases[index:]:
            later.deadline += late
    books = campaign.books
    for side in SIDES:
        books = red_barricades.set_cpp(books, side, phase.day, phase.cpp[side])
    phase.state = "open"
    phase.reminders_left = tuple(lead for lead in phase.reminders_left if phase.deadline - lead > now)
    campaign.books = books
    return campaign


# --- who owes what ---------------------------------------------------------------------------------


def side_of(campaign: Campaign, user: str) -> Side | None:
    return next((side for side, users in campaign.players.items() if user in users), None)


def owing(campaign: Campaign, index: int) -> list[Side]:
    """The sides that have not yet submitted to a phase."""
    return [side for side in SIDES if side not in campaign.phases[index].sealed]


def owed_by(campaign: Campaign, index: int) -> list[str]:
    """The players of the sides that have not yet submitted to a phase."""
    return [user for side in owing(campaign, index) for user in campaign.players[side]]


def describe_phase(number: int, phase: Phase, start: bool = False) -> str:
    """``"phase 2 (18 Oct purchases)"``; ``start``: "Phase", to begin a sentence."""
    return f"{'P' if start else 'p'}hase {number + 1} ({phase.title})"


# --- submitting ------------------------------------------------------------------------------------


_ORDER = re.compile(
    r"^(?P<id>[a-z]\d+)(?:\s+(?P<hexes>\d+)\s+(?:pre-?registered\s+)?hex(?:es)?)?"
    r"(?P<two>\s+at\s+2\s+cpp)?(?P<dug>\s+dug[- ]in)?(?P<spw>\s+251/10)?(?:\s+for\s+(?P<serves>[a-z]\d+))?$"
)


_NONE = ("", "none", "nothing", "no purchase")


def _lines(text: str) -> list[str]:
    """The items of a list written one a line or separated by commas."""
    return [part for part in re.split(r"[,\n]", text) if part.strip()]


def parse_orders(text: str) -> tuple[RGOrder, ...]:
    """``"I1, O2 2 hexes"`` (or one RG a line) -> a Rifle Coy and an OBA module with two
    Pre-Registered hexes; ``"none"`` -> no purchase."""
    if text.strip().casefold() in _NONE:
        return ()
    orders = []
    for part in _lines(text):
        match = _ORDER.match(" ".join(part.split()).casefold())
        if not match:
            raise IllegalCommand(
                f"Cannot read {part.strip()!r} as an RG: write its ID from the RG chart, e.g. "
                '"I1, O2 2 hexes, S1 at 2 CPP, A1 dug-in, A9 251/10, O5 for O2", or "none" for no purchase'
            )
        orders.append(
            RGOrder(
                rg_id=match["id"].upper(),
                preregistered_hexes=int(match["hexes"] or 0),
                at_two_cpp=bool(match["two"]),
                dug_in=bool(match["dug"]),
                exchange_spw=bool(match["spw"]),
                serves=match["serves"].upper() if match["serves"] else None,
            )
        )
    return tuple(orders)


_FORTIFICATION = re.compile(
    r"^(?:(?P<quantity>\d+)\s*(?:x\s+)?)?(?P<name>[a-z][a-z -]*?)(?:\s+factors?)?"
    r"(?:\s+(?P<a>\d+)\s*\+\s*(?P<b>\d+)\s*\+\s*(?P<c>\d+))?(?:\s+(?:at|@)\s*(?P<rate>\d+))?"
    r"(?:\s+for\s+(?P<hides>\S.*))?$"
)
_KEEP = re.compile(r"^keep\s+(?P<gun>gun\s+)?(?P<unit>\S.*?)\s+hidden(?:\s+(?:at|@)\s*(?P<rate>\d+))?$")


def parse_fortifications(text: str) -> tuple[FortificationOrder, ...]:
    """``"2 x Trench, 6 A-P Mine at 3, Pillbox 1+5+1"`` (or one a line) -> fortification orders;
    ``"none"`` or nothing -> none. Names are checked against the side's table when sealed."""
    if text.strip().casefold() in _NONE:
        return ()
    orders = []
    for part in _lines(text):
        typed = " ".join(part.split())
        kept = _KEEP.match(typed.casefold())
        if kept:
            unit = typed[kept.start("unit") : kept.end("unit")]
            rate = int(kept["rate"]) if kept["rate"] else None
            orders.append(FortificationOrder(keep=unit, gun=bool(kept["gun"]), rate=rate))
            continue
        match = _FORTIFICATION.match(typed.casefold())
        if not match:
            raise IllegalCommand(
                f"Cannot read {part.strip()!r} as fortifications: write how many and the Fortification "
                'Table line, with its rate where the table prints several, e.g. "2 x Trench, '
                '3 Foxhole at 2, 6 A-P Mine at 3, Pillbox 1+5+1, HIP at 5 for 4-6-7"; or a unit '
                'still hidden: "keep 4-6-7 hidden at 5", "keep gun 75L PaK 40 hidden"'
            )
        pillbox = (int(match["a"]), int(match["b"]), int(match["c"])) if match["a"] else None
        orders.append(
            FortificationOrder(
                name=match["name"],
                quantity=int(match["quantity"] or 1),
                rate=int(match["rate"]) if match["rate"] else None,
                pillbox=pillbox,
                hides=typed[match.start("hides") : match.end("hides")] if match["hides"] else None,
            )
        )
    return tuple(orders)


def parse_submission(groups: str, fortifications: str = "") -> Submission:
    """A side's submission from its RG orders and fortification orders as typed; refused when
    both are left blank (write "none" for no purchase)."""
    if not groups.strip() and not fortifications.strip():
        raise IllegalCommand('Say what your side buys: RG IDs such as "I1, O2 2 hexes", or "none"')
    return Submission(groups=parse_orders(groups), fortifications=parse_fortifications(fortifications))


def _bought(
    books: red_barricades.Campaign, side: Side, day: datetime.date, orders: Sequence[RGOrder]
) -> tuple[red_barricades.Campaign, list[int]]:
    """The books with the side's RGs bought in order (RePh 11.619), and the purchases' indexes."""
    bought = []
    for order in orders:
        if order.exchange_spw:
            refusal = spw_exchange_refusal(find_reinforcement_group(side, order.rg_id))
            if refusal:
                raise IllegalCommand(refusal)
        books = purchase_reinforcement_group(
            books,
            side,
            order.rg_id,
            day,
            order.preregistered_hexes,
            at_two_cpp=order.at_two_cpp,
            dug_in=order.dug_in,
            serves=order.serves,
        )
        bought.append(len(books.purchases) - 1)
    return books, bought


def _fortified(
    books: red_barricades.Campaign, side: Side, day: datetime.date, orders: Sequence[FortificationOrder]
) -> red_barricades.Campaign:
    """The books with the side's fortifications bought in order with the day's FPP."""
    for order in orders:
        if order.keep is not None:
            books = keep_hidden(books, side, day, order.keep, order.rate, order.gun)
        else:
            books = purchase_fortification(
                books, side, order.name, day, order.quantity, order.rate, order.pillbox, order.hides
            )
    return books


def _checked(
    books: red_barricades.Campaign, side: Side, day: datetime.date, submission: Submission
) -> Submission:
    """The submission with the Fortification Table's names, if the side could buy all of it on
    the day: each RG as its purchase would be checked, then each fortification with the FPP
    left after them; refused otherwise."""
    fortifications = tuple(
        order
        if order.keep is not None
        else order.model_copy(update={"name": find_fortification(side, order.name).name})
        for order in submission.fortifications
    )
    books, _ = _bought(books, side, day, submission.groups)
    _fortified(books, side, day, fortifications)
    return submission.model_copy(update={"fortifications": fortifications})


def submitting_side(campaign: Campaign, user: str, side: str | None = None) -> Side:
    """The side ``user`` submits for: a player's own, the one the referee names. Refused for
    someone who neither plays nor referees, the referee naming no side, a player naming the other."""
    own = side_of(campaign, user)
    if own is None and user != campaign.referee:
        raise IllegalCommand(f"You do not play in the campaign {campaign.name}")
    if side is None and own is None:
        raise IllegalCommand("The referee names the side the orders are for: german or russian")
    chosen = check_side(side) if side is not None else own
    assert chosen is not None
    if own is not None and chosen != own:
        raise IllegalCommand(f"You play the {SIDE_NAMES[own]} side, not the {SIDE_NAMES[chosen]}")
    return chosen


def submit(
    campaign: Campaign,
    user: str,
    orders: Sequence[RGOrder] | Submission,
    now: datetime.datetime,
    side: str | None = None,
    phase: int | None = None,
) -> tuple[Campaign, Side, int]:
    """Seal a side's orders (RG orders, or a whole submission with fortifications) for a phase
    (the open one unless ``phase``, counted from 0, is named), replacing any it sealed before.
    Returns the campaign, the side and the phase.

    A player submits for their own side; the referee for the side they name. Refused: someone
    who neither plays nor referees, another side than the player's, a phase that is not open
    or whose deadline and grace have passed, and orders the side could not buy (each RG is
    checked as its purchase would be: availability, Pre-Registered hexes, daily and CG III
    maxima, CPP left; then each fortification: its table line, rate and the FPP left)."""
    chosen = submitting_side(campaign, user, side)
    index = taking_orders(campaign, phase, now)
    wanted = campaign.phases[index]
    submission = orders if isinstance(orders, Submission) else Submission(groups=tuple(orders))
    new = campaign.model_copy(deep=True)
    new.phases[index].sealed[chosen] = _checked(campaign.books, chosen, wanted.day, submission)
    return new, chosen, index


def taking_orders(campaign: Campaign, phase: int | None, now: datetime.datetime) -> int:
    """The phase (counted from 0; the open one if None) orders may be sealed for now; refused
    when the campaign is over, the phase does not exist, is not open yet, or has closed."""
    index = campaign.open_phase if phase is None else phase
    if index is None:
        raise IllegalCommand(f"The campaign {campaign.name} is over: every phase has been revealed")
    if not 0 <= index < len(campaign.phases):
        raise IllegalCommand(f"The campaign has phases 1 to {len(campaign.phases)}, not {index + 1}")
    wanted = campaign.phases[index]
    named = describe_phase(index, wanted, start=True)
    if wanted.state == "revealed":
        raise IllegalCommand(f"{named} is closed: it has been revealed")
    if wanted.state == "waiting":
        raise IllegalCommand(f"{named} is not open yet: it opens when phase {index} is revealed")
    if now >= wanted.closes_at:
        raise IllegalCommand(f"{named} is closed: its deadline has passed")
    return index


def own_sealed(
    campaign: Campaign,
    user: str,
    now: datetime.datetime,
    side: str | None = None,
    phase: int | None = None,
) -> Submission | None:
    """What the side ``user`` submits for has sealed for a phase still taking orders (the open
    one unless ``phase``, counted from 0, is named), for the user to see and change; None when it
    has sealed nothing there. Refused as :func:`submit` would refuse the user or the phase, so
    no form opens that could only be refused: it never shows another side's orders."""
    chosen = submitting_side(campaign, user, side)
    return campaign.phases[taking_orders(campaign, phase, now)].sealed.get(chosen)


def sealed_text(campaign: Campaign, index: int, side: Side) -> str:
    """What a side has sealed for a phase: for that side's own eyes (and the referee's)."""
    phase = campaign.phases[index]
    submission = phase.sealed.get(side)
    if submission is None:
        return f"{SIDE_NAMES[side]} has sealed nothing for {describe_phase(index, phase)} yet"
    orders = submission.groups
    books, _ = _bought(campaign.books, side, phase.day, orders)
    cpp = red_barricades.cpp_left(campaign.books, side, phase.day)
    spent = f"{cpp - red_barricades.cpp_left(books, side, phase.day)} of {cpp} CPP spent"
    if submission.fortifications:
        fpp = red_barricades.fpp_left(books, side, phase.day)
        fortified = _fortified(books, side, phase.day, submission.fortifications)
        spent += f"; {fpp - red_barricades.fpp_left(fortified, side, phase.day)} of {fpp} FPP spent"
    what = f"{SIDE_NAMES[side]} orders sealed for {describe_phase(index, phase)}"
    return f"{what}: {submission.text(side)} ({spent})"


# --- alarms: reminders, grace and the deadline ----------------------------------------------------


def alarms(campaign: Campaign) -> list[Alarm]:
    """The moments the open phase needs a timer: each reminder still to send, the end of the
    deadline when a grace period follows it, and the close (deadline plus grace)."""
    index = campaign.open_phase
    if index is None:
        return []
    phase = campaign.phases[index]
    ring = [
        Alarm(index, f"{REMIND}:{int(lead.total_seconds())}", phase.deadline - lead)
        for lead in phase.reminders_left
    ]
    if phase.grace and not phase.grace_announced:
        ring.append(Alarm(index, GRACE, phase.deadline))
    ring.append(Alarm(index, CLOSE, phase.closes_at))
    return ring


def remind(campaign: Campaign, alarm: Alarm, now: datetime.datetime) -> tuple[Campaign, list[str]]:
    """Ring a reminder: the campaign with it marked sent, and the players to remind: those who
    still owe the phase a submission. Nobody is reminded when the phase is no longer open, its
    deadline has passed, or a later reminder is also due (after a restart, only the latest)."""
    lead = datetime.timedelta(seconds=int(alarm.name.split(":")[1]))
    if campaign.open_phase != alarm.phase or lead not in campaign.phases[alarm.phase].reminders_left:
        return campaign, []
    new = campaign.model_copy(deep=True)
    phase = new.phases[alarm.phase]
    phase.reminders_left = tuple(left for left in phase.reminders_left if left != lead)
    later_due = any(phase.deadline - left <= now for left in phase.reminders_left if left < lead)
    if now >= phase.deadline or later_due:
        return new, []
    return new, owed_by(new, alarm.phase)


def announce_grace(campaign: Campaign, alarm: Alarm, now: datetime.datetime) -> tuple[Campaign, list[str]]:
    """The deadline has passed and a grace period follows: the campaign with the grace announced,
    and the players who have not submitted yet (none if the phase is no longer open, or if the
    grace period is over too: after a restart, the reveal says who missed the deadline)."""
    if campaign.open_phase != alarm.phase or campaign.phases[alarm.phase].grace_announced:
        return campaign, []
    new = campaign.model_copy(deep=True)
    phase = new.phases[alarm.phase]
    phase.grace_announced = True
    return new, owed_by(new, alarm.phase) if now < phase.closes_at else []


def reveal_due(campaign: Campaign, now: datetime.datetime) -> int | None:
    """The open phase, if it is ready to reveal: every side has submitted, or its deadline and
    grace have passed."""
    index = campaign.open_phase
    if index is None:
        return None
    phase = campaign.phases[index]
    return index if not owing(campaign, index) or now >= phase.closes_at else None


# --- the reveal ------------------------------------------------------------------------------------


def reveal(campaign: Campaign, index: int, dice: DiceSource, now: datetime.datetime) -> Campaign:
    """Reveal a phase and resolve it: each side's sealed RGs are bought (RePh 11.619), then their
    rolls are made (11.620), German side first; a side that did not submit gets the default (no
    purchase). A side's fortifications are then bought with the FPP of its Fortifications RGs.
    Every purchase and roll goes into the ledger; the next phase then opens."""
    if reveal_due(campaign, now) != index:
        raise IllegalCommand(f"Phase {index + 1} cannot be revealed now")
    new = campaign.model_copy(deep=True)
    phase = new.phases[index]
    books = new.books
    phase.ledger_from = len(books.ledger)
    phase.defaulted = tuple(owing(new, index))
    for side in SIDES:
        submission = phase.sealed.get(side, Submission())
        books, bought = _bought(books, side, phase.day, submission.groups)
        for order, purchase in zip(submission.groups, bought, strict=True):
            if books.purchases[purchase].awaiting_rolls:
                books = roll_after_purchase(books, purchase, dice)
            if order.exchange_spw:
                books = exchange_spw_251_1(books, purchase)
        books = _fortified(books, side, phase.day, submission.fortifications)
    phase.ledger_to = len(books.ledger)
    phase.state = "revealed"
    phase.reminders_left = ()
    new.books = books
    if index + 1 < len(new.phases):
        _open(new, index + 1, now)
    return new


def reveal_text(campaign: Campaign, index: int) -> tuple[Line, ...]:
    """What a revealed phase showed: each side's orders (or its default) and the ledger entries
    of its purchases and rolls, numbered as in the ledger."""
    phase = campaign.phases[index]
    if phase.state != "revealed":
        raise IllegalCommand(f"{describe_phase(index, phase, start=True)} has not been revealed")
    lines: list[Line] = [(Strong(campaign.name), f": {describe_phase(index, phase)} revealed")]
    for side in SIDES:
        if side in phase.defaulted:
            lines.append((f"{SIDE_NAMES[side]} missed the deadline: {DEFAULT_SUBMISSION[phase.kind]}",))
        else:
            lines.append((f"{SIDE_NAMES[side]}: {phase.sealed[side].text(side)}",))
    entries = campaign.books.ledger[phase.ledger_from : phase.ledger_to]
    lines += [
        (f"#{phase.ledger_from + n} {SIDE_NAMES[entry.side]}: {entry.text}",)
        for n, entry in enumerate(entries)
    ]
    return tuple(lines)


def status_text(campaign: Campaign) -> tuple[Line, ...]:
    """Every phase, who has submitted to the open one (each player a :class:`Mention`), and its
    deadline (a :class:`Moment`). Never what a side has sealed."""
    lines: list[Line] = [(Strong(campaign.name), *[" (finished)"] * campaign.finished)]
    for index, phase in enumerate(campaign.phases):
        head = f"{index + 1}. {phase.title}"
        grace: Line = (", grace until ", Moment(phase.closes_at)) if phase.grace else ()
        if phase.state == "revealed":
            missed = ", ".join(SIDE_NAMES[side] for side in phase.defaulted)
            lines.append((f"{head}: revealed" + (f" ({missed} missed the deadline)" if missed else ""),))
        elif phase.state == "waiting":
            lines.append((f"{head}: opens after phase {index}; deadline ", Moment(phase.deadline), *grace))
        else:
            lines.append((f"{head}: open, deadline ", Moment(phase.deadline), *grace))
            for side in SIDES:
                done = "submitted" if side in phase.sealed else "not yet submitted"
                lines.append((f"   {SIDE_NAMES[side]} (", *listed(campaign.players[side]), f"): {done}"))
    return tuple(lines)


# --- referee corrections ---------------------------------------------------------------------------


def _require_bookkeeper(campaign: Campaign, user: str, what: str) -> None:
    """Refused unless ``user`` keeps the campaign's books: its referee, else its organiser."""
    if user == (campaign.referee or campaign.organiser):
        return
    if campaign.referee:
        raise IllegalCommand(f"Only the campaign's referee may {what}")
    if campaign.organiser:
        raise IllegalCommand(f"Only the campaign's organiser may {what} (it has no referee)")
    raise IllegalCommand(f"The campaign has no referee or organiser on record: nobody may {what}")


def retain(campaign: Campaign, user: str, side: str, units: Sequence[str]) -> Campaign:
    """The referee (the organiser, in a campaign with no referee) records units a side retains
    into the next CG scenario (SSR CG10; 11.4; :func:`red_barricades.retain_units`), dated the
    open phase's CG Day, or the last CG Day once every phase is revealed. Refused for anyone else."""
    _require_bookkeeper(campaign, user, "record retained units")
    new = campaign.model_copy(deep=True)
    new.books = red_barricades.retain_units(campaign.books, side, _books_day(campaign), units)
    return new


def _books_day(campaign: Campaign) -> datetime.date:
    """The CG Day the referee's entries are dated: the open phase's, else the last one's."""
    index = campaign.open_phase
    return campaign.phases[-1 if index is None else index].day


def set_balance(campaign: Campaign, user: str, side: str, drm: int) -> Campaign:
    """The referee (the organiser, in a campaign with no referee) sets the Balance provision DRM
    (11.32) of a side's later RG strength, gun battery and OBA ammo rolls
    (:func:`engine.campaign.purchase_rules.set_balance_provision`). Refused for anyone else."""
    _require_bookkeeper(campaign, user, "set a Balance provision DRM")
    new = campaign.model_copy(deep=True)
    new.books = set_balance_provision(campaign.books, side, _books_day(campaign), drm)
    return new


def set_cg_ii_scenarios(campaign: Campaign, user: str, cg_ii: bool) -> Campaign:
    """The referee (the organiser, with no referee) says whether the CG scenarios are CG II ones,
    for the German Leader DRM (:func:`engine.campaign.purchase_rules.set_cg_ii`)."""
    _require_bookkeeper(campaign, user, "say which CG is played")
    new = campaign.model_copy(deep=True)
    new.books = set_cg_ii(campaign.books, _books_day(campaign), cg_ii)
    return new


def draw_chit(campaign: Campaign, user: str, entry: int, colour: str) -> Campaign:
    """The referee (the organiser, with no referee) records a Battery Access chit drawn for the
    OBA module bought in ledger entry ``entry`` (:func:`engine.campaign.purchase_rules.battery_access_chit`,
    compilation rule 11). Refused for anyone else."""
    _require_bookkeeper(campaign, user, "record a Battery Access chit")
    new = campaign.model_copy(deep=True)
    new.books = battery_access_chit(campaign.books, entry, colour, _books_day(campaign))
    return new


def correct(campaign: Campaign, user: str, index: int, to: str, reason: str) -> Campaign:
    """The referee (the organiser, in a campaign with no referee) corrects ledger entry ``index``
    (:func:`engine.campaign.corrections.correct_books`). Refused for anyone else, and when the
    corrected books could no longer buy a sealed submission of the open phase (the refusal
    names neither the side nor its orders: correct after the reveal, or let the side resubmit)."""
    _require_bookkeeper(campaign, user, "correct its ledger")
    new = campaign.model_copy(deep=True)
    new.books = correct_books(campaign.books, index, to, reason)
    open_phase = new.open_phase
    if open_phase is not None:
        phase = new.phases[open_phase]
        for side, submission in phase.sealed.items():
            try:
                _checked(new.books, side, phase.day, submission)
            except IllegalCommand:
                raise IllegalCommand(
                    f"That correction would leave orders sealed for {describe_phase(open_phase, phase)} "
                    "that can no longer be bought: make it after the reveal"
                ) from None
    return new
