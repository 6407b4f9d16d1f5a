"""The campaign ledger: every CPP allotment, purchase, roll and referee correction, in order.

Entries are never changed or removed: a referee correction (:func:`correct_entry`) is a new
entry naming the one it corrects and why, so the ledger keeps the whole history. An entry is
referred to by its index in the ledger, the ``#`` column of :func:`ledger_table`.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.campaign.calendar import SIDE_NAMES, Side, day_label
from engine.dice import DieRoll
from engine.errors import IllegalCommand

LedgerKind = Literal["cpp", "purchase", "roll", "retained", "correction", "rule"]
RollSets = Literal["strength", "leaders", "support_weapons", "ammo"]


class LedgerEntry(BaseModel):
    """One line of the ledger; ``cost`` is in ``points`` (CPP, or FPP for fortifications)."""

    model_config = ConfigDict(frozen=True)

    day: datetime.date
    side: Side
    kind: LedgerKind
    text: str
    dice: tuple[DieRoll, ...] = ()
    cost: int = 0
    points: Literal["CPP", "FPP"] = "CPP"
    corrects: int | None = None  # the index of the entry a correction replaces
    reason: str | None = None  # why the referee corrected it
    purchase: int | None = None  # the RG purchase (Campaign.purchases index) it bought or rolled for
    fortification: int | None = None  # the fortifications (Campaign.fortifications index) it bought
    sets: RollSets | None = None  # what of the purchase's formation a roll entry set
    units: tuple[str, ...] = ()  # the units a retained entry (or its correction) lists

    @property
    def dice_text(self) -> str:
        return "+".join(str(die.value) for die in self.dice)

    @property
    def cost_text(self) -> str:
        return f"{self.cost} {self.points}" if self.cost else ""


def entry_to_correct(ledger: Sequence[LedgerEntry], index: int, reason: str) -> LedgerEntry:
    """Entry ``index``, which a correction with this reason may correct: refused when there is
    no such entry or no reason."""
    if not 0 <= index < len(ledger):
        raise IllegalCommand(f"The ledger has no entry #{index}: its entries are #0 to #{len(ledger) - 1}")
    if not reason.strip():
        raise IllegalCommand(f"A correction of entry #{index} needs a reason")
    return ledger[index]


def correct_entry(
    ledger: Sequence[LedgerEntry],
    index: int,
    new_text: str,
    reason: str,
    cost: int = 0,
    units: tuple[str, ...] = (),
) -> list[LedgerEntry]:
    """A referee correction: the ledger with a new entry replacing entry ``index``'s text.

    The old entry stays as it was; the correction carries its day, side and points, the new
    text, the referee's reason, and what it changes: ``cost`` (negative for a refund) and the
    ``units`` a corrected retained entry now lists. :mod:`engine.campaign.corrections` makes
    the books follow it."""
    old = entry_to_correct(ledger, index, reason)
    correction = LedgerEntry(
        day=old.day,
        side=old.side,
        kind="correction",
        text=new_text,
        cost=cost,
        points=old.points,
        corrects=index,
        reason=reason.strip(),
        units=units,
    )
    return [*ledger, correction]


_CSV_COLUMNS = ("index", "day", "side", "kind", "cost", "points", "dice", "text", "corrects", "reason")


def ledger_csv(ledger: Sequence[LedgerEntry]) -> str:
    """The ledger as CSV, one row per entry, with a header row; days as ISO dates."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_CSV_COLUMNS)
    for index, entry in enumerate(ledger):
        writer.writerow(
            (
                index,
                entry.day.isoformat(),
                entry.side,
                entry.kind,
                entry.cost,
                entry.points if entry.cost else "",
                entry.dice_text,
                entry.text,
                "" if entry.corrects is None else entry.corrects,
                entry.reason or "",
            )
        )
    return out.getvalue()


def ledger_table(ledger: Sequence[LedgerEntry]) -> str:
    """The ledger as a plain text table: #, Day, Side, Kind, Cost, Dice, Text; a corrected entry
    is shown as it was, with the numbers of the entries that correct it."""
    rows = [("#", "Day", "Side", "Kind", "Cost", "Dice", "Text")]
    corrected_by: dict[int, list[str]] = {}
    for index, entry in enumerate(ledger):
        if entry.corrects is not None:
            corrected_by.setdefault(entry.corrects, []).append(f"#{index}")
    for index, entry in enumerate(ledger):
        text = (
            entry.text
            if entry.corrects is None
            else f"corrects #{entry.corrects}: {entry.text} (reason: {entry.reason})"
        )
        if index in corrected_by:
            text += f" [corrected by {', '.join(corrected_by[index])}]"
        rows.append(
            (
                str(index),
                day_label(entry.day),
                SIDE_NAMES[entry.side],
                entry.kind,
                entry.cost_text,
                entry.dice_text,
                text,
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]) - 1)]
    return "\n".join(
        "  ".join(
            [*(cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=True)), row[-1]]
        ).rstrip()
        for row in rows
    )
