"""Named charts for ``/chart``: a roll, its modifiers, and the band or test it is read against.

Charts are data (``engine/data/charts/*.yaml``, one file per book), validated on load. A chart
names its dice (``DR``, ``dr``, ``d6``, ``d10``, ``2d6`` ..., or ``d66``: two dice read as tens and
units) and either result bands (the final roll is read against them; a chart may keep one set of
bands per value of a parameter, ``bands_by``) or a test (``needs``: the score the roll must
reach, with modifiers raising or lowering it, and a natural 6 that always passes where the rules
say so). Modifiers are
- options the player names (``value``), or counts the player gives (``per``);
- derived from the chart's parameters: looked up in a table (the Red Barricades historical DRM
  by side and date), read from a number (a balance DRM), or stepped (the sixth Rifle Coy);
and may apply only ``when`` a parameter has a given value. ``halve`` halves the roll.

A band marked ``unmodified`` is judged on the roll before any modifier (:func:`unmodified_band`).
Bands are checked on load: in order, never overlapping, every unmodified roll read by exactly one
band, and, on a chart with modifiers, open at both ends with no gap, so any modified roll is read.
"""

from __future__ import annotations

import math
import re
from functools import cache
from itertools import pairwise, product
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, SkipValidation, model_validator

from engine.dice import DiceSource, DieRoll
from engine.errors import IllegalCommand
from engine.names import closest, either
from engine.profiles import DATA_DIR
from engine.rich_text import Line, Strong, unmarked

_DICE = re.compile(r"^(?P<kind>DR|dr|d66)$|^(?P<count>\d*)d(?P<sides>\d+)$")

BOOKS = {"iron-cross": "Iron Cross", "red-barricades": "Red Barricades", "cross-of-iron": "Cross of Iron"}
"""The book of each chart file (``engine/data/charts/<stem>.yaml``), in the order ``/chart list`` shows."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Lookup(_Frozen):
    """A value read from one of the chart's tables, keyed by parameters in order."""

    table: str
    keys: tuple[str, ...]


class Step(_Frozen):
    at_least: int
    value: int


class Modifier(_Frozen):
    id: str
    name: str
    value: int | None = None  # an option the player names
    per: int | None = None  # per count the player gives (id=N)
    lookup: Lookup | None = None  # derived from the parameters
    parameter: str | None = None  # the number the player gave for this parameter
    steps: tuple[Step, ...] = ()  # stepped on the parameter's number
    halve: bool = False  # halve the roll, rounding up
    when: dict[str, str] = Field(default_factory=dict)

    @property
    def chosen(self) -> bool:
        """Applies only when the player names it (or gives its count)."""
        return self.value is not None or self.per is not None or self.halve


class Parameter(_Frozen):
    name: str
    description: str
    choices: tuple[str, ...] = ()
    number: bool = False
    default: str | None = None


class Band(_Frozen):
    min: int | None = None
    max: int | None = None
    result: str
    unmodified: bool = False  # judged on the roll before any modifier: see :func:`unmodified_band`

    def holds(self, score: int) -> bool:
        return (self.min is None or score >= self.min) and (self.max is None or score <= self.max)

    def label(self) -> str:
        if self.min is None:
            return f"<={self.max}"
        if self.max is None:
            return f">={self.min}"
        return str(self.min) if self.min == self.max else f"{self.min}-{self.max}"

    def shown(self) -> str:
        """The band as ``/chart show`` lists it: its rolls, its result, and whether modifiers count."""
        before = " (on the roll before modifiers)" if self.unmodified else ""
        return f"{self.label()} {self.result}{before}"


class Chart(_Frozen):
    id: str
    title: str
    source: str
    dice: str
    book: str = ""  # set by the loader from the chart's file
    note: str | None = None
    parameters: tuple[Parameter, ...] = ()
    tables: dict[str, Any] = Field(default_factory=dict)
    modifiers: tuple[Modifier, ...] = ()
    bands: tuple[Band, ...] = ()
    bands_by: str | None = None  # the parameter whose value picks one of ``band_sets``
    band_sets: dict[str, tuple[Band, ...]] = Field(default_factory=dict)
    needs: int | Lookup | None = None  # a test: the score the roll must reach
    needs_range: tuple[int, int] | None = None  # the score needed is held within this range
    natural_six_passes: bool = False
    impossible_at: int | None = None  # a score needed this high means the test cannot be passed

    @model_validator(mode="after")
    def _one_kind(self) -> Chart:
        if (self.needs is None) == (not self.bands and not self.band_sets):
            raise ValueError(f"chart {self.id}: give either bands (or band sets) or needs")
        if not _DICE.match(self.dice):
            raise ValueError(f"chart {self.id}: cannot roll {self.dice!r}")
        names = {p.name for p in self.parameters}
        if bool(self.band_sets) != bool(self.bands_by) or (self.bands and self.band_sets):
            raise ValueError(f"chart {self.id}: band sets need bands_by (and no plain bands)")
        if self.bands_by:
            param = next((p for p in self.parameters if p.name == self.bands_by), None)
            if param is None or set(param.choices) != set(self.band_sets):
                raise ValueError(f"chart {self.id}: one band set for each choice of {self.bands_by}")
        for name, bands in (("", self.bands), *self.band_sets.items()):
            if bands:
                _check_bands(f"chart {self.id}{' ' + name if name else ''}", bands, self)
        for mod in self.modifiers:
            for key in (
                *(mod.lookup.keys if mod.lookup else ()),
                *mod.when,
                *([mod.parameter] if mod.parameter else ()),
            ):
                if key not in names:
                    raise ValueError(f"chart {self.id}: modifier {mod.id} uses unknown parameter {key!r}")
        return self

    @property
    def is_test(self) -> bool:
        return self.needs is not None

    def options(self) -> list[Modifier]:
        return [m for m in self.modifiers if m.chosen]

    def bands_for(self, values: dict[str, str]) -> tuple[Band, ...]:
        """The bands the roll is read against (the set the ``bands_by`` parameter picks)."""
        return self.band_sets[values[self.bands_by]] if self.bands_by else self.bands


def dice_of(spec: str) -> tuple[int, int]:
    """How many dice of how many sides: ``DR`` (and ``d66``) two d6, ``dr`` one, ``3d10`` three d10."""
    match = _DICE.match(spec)
    assert match
    if match["kind"]:
        return (1, 6) if match["kind"] == "dr" else (2, 6)
    return int(match["count"] or 1), int(match["sides"])


def natural_roll(spec: str, faces: tuple[int, ...] | list[int]) -> int:
    """The unmodified roll: the dice added up, or for ``d66`` the first die as tens, the second as units."""
    return 10 * faces[0] + faces[1] if spec == "d66" else sum(faces)


def possible_rolls(spec: str) -> set[int]:
    """Every unmodified roll the dice can give."""
    count, sides = dice_of(spec)
    return {natural_roll(spec, faces) for faces in product(range(1, sides + 1), repeat=count)}


def _check_bands(where: str, bands: tuple[Band, ...], chart: Chart) -> None:
    """Bands in order with no overlap; each unmodified roll read by one band; modified rolls (any
    modifier, or a halved roll) read by open-ended bands with no gap between them."""
    for low, high in pairwise(bands):
        if low.max is None or high.min is None or high.min <= low.max:
            raise ValueError(f"{where}: bands {low.label()} and {high.label()} overlap or are out of order")
        if chart.modifiers and high.min != low.max + 1:
            raise ValueError(f"{where}: a modified roll between {low.label()} and {high.label()} has no band")
    if any(band.unmodified for band in bands) and not chart.modifiers:
        raise ValueError(f"{where}: a band read before modifiers on a chart with no modifiers")
    if chart.modifiers and (bands[0].min is not None or bands[-1].max is not None):
        raise ValueError(f"{where}: with modifiers, the first and last bands must be open-ended")
    for natural in sorted(possible_rolls(chart.dice)):
        if sum(band.holds(natural) for band in bands) != 1:
            raise ValueError(f"{where}: a roll of {natural} is read by no band")


class ChartRoll(BaseModel):
    """A roll on a chart, explained: the dice, each modifier, the final number and the result."""

    chart: str
    result: str
    line: SkipValidation[Line]  # the roll explained, its result Strong
    dice: tuple[DieRoll, ...] = ()  # none when nothing was rolled (no test needed, or impossible)
    natural: int = 0
    modifiers: tuple[tuple[str, int], ...] = ()
    final: int = 0  # the modified roll (bands), or the score needed (tests)

    @property
    def text(self) -> str:
        """The roll explained in bare words (a campaign ledger's entry)."""
        return unmarked(self.line)


def load_charts() -> dict[str, Chart]:
    return dict(_load_charts())


@cache
def _load_charts() -> tuple[tuple[str, Chart], ...]:
    charts: list[Chart] = []
    unknown = {path.stem for path in (DATA_DIR / "charts").glob("*.yaml")} - set(BOOKS)
    if unknown:
        raise ValueError(f"chart files of no known book: {sorted(unknown)}")
    for stem, book in BOOKS.items():
        for raw in yaml.safe_load((DATA_DIR / "charts" / f"{stem}.yaml").read_text("utf-8")):
            charts.append(Chart.model_validate({**raw, "book": book}))
    ids = [c.id for c in charts]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise ValueError(f"chart ids used twice: {sorted(duplicates)}")
    return tuple((c.id, c) for c in charts)


def charts_by_book() -> dict[str, list[Chart]]:
    """Every chart under its book, books in :data:`BOOKS` order."""
    books: dict[str, list[Chart]] = {book: [] for book in BOOKS.values()}
    for chart in load_charts().values():
        books[chart.book].append(chart)
    return books


def find_chart(name: str) -> Chart:
    charts = load_charts()
    wanted = name.strip().casefold()
    if wanted in charts:
        return charts[wanted]
    close = [c.id for c in charts.values() if wanted in c.id or wanted in c.title.casefold()]
    if len(close) == 1:
        return charts[close[0]]
    close = close or closest(wanted, charts)
    hint = f" Did you mean {either(close[:5])}?" if close else " See /chart list."
    raise IllegalCommand(f"No chart called {name!r}.{hint}")


def parse_choices(text: str) -> dict[str, str]:
    """``"date=2 Nov, depleted, tokens=2"`` -> {"date": "2 Nov", "depleted": "", "tokens": "2"}.

    Items are separated by commas; an item without ``=`` may hold several option names."""
    chosen: dict[str, str] = {}
    for item in text.split(","):
        key, equals, value = item.partition("=")
        if equals:
            chosen[key.strip().casefold()] = value.strip()
        else:
            for word in item.split():
                chosen[word.casefold()] = ""
    return chosen


def _parameters(chart: Chart, chosen: dict[str, str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for param in chart.parameters:
        value = chosen.get(param.name, param.default)
        if value is None:
            raise IllegalCommand(f"{chart.id} needs {param.name}=...: {param.description}")
        if param.choices and value.casefold() not in param.choices:
            raise IllegalCommand(f"{param.name} is one of {', '.join(param.choices)}, not {value!r}")
        if param.number and not re.fullmatch(r"[+-]?\d+", value):
            raise IllegalCommand(f"{param.name} is a whole number, not {value!r}")
        values[param.name] = value.casefold() if param.choices else value
    return values


def _lookup(chart: Chart, lookup: Lookup, values: dict[str, str]) -> int | None:
    entry: Any = chart.tables[lookup.table]
    for key in lookup.keys:
        wanted = values[key].casefold().replace(" ", "")
        matches = [k for k in entry if str(k).casefold().replace(" ", "") == wanted]
        if not matches:
            known = ", ".join(str(k) for k in entry)
            raise IllegalCommand(f"{chart.id} has no {key} {values[key]!r}: one of {known}")
        entry = entry[matches[0]]
    return entry


def _modifiers(
    chart: Chart, chosen: dict[str, str], values: dict[str, str]
) -> tuple[list[tuple[str, int]], bool]:
    applied: list[tuple[str, int]] = []
    halve = False
    for mod in chart.modifiers:
        if any(values.get(k) != v.casefold() for k, v in mod.when.items()):
            continue
        if mod.chosen:
            if mod.id not in chosen:
                continue
            if mod.halve:
                halve = True
            elif mod.per is not None:
                count = chosen[mod.id] or "1"
                if not count.isdigit():
                    raise IllegalCommand(f"{mod.id} is a count, e.g. {mod.id}=2, not {count!r}")
                if int(count):
                    times = f" x{count}" if int(count) > 1 else ""
                    applied.append((f"{mod.name}{times}", mod.per * int(count)))
            else:
                applied.append((mod.name, mod.value or 0))
        elif mod.lookup is not None:
            value = _lookup(chart, mod.lookup, values)
            if value:
                applied.append((mod.name, value))
        elif mod.parameter is not None:
            number = int(values[mod.parameter])
            value = (
                number
                if not mod.steps
                else max((s.value for s in mod.steps if number >= s.at_least), default=0)
            )
            if value:
                applied.append((mod.name, value))
    return applied, halve


def _unknown(chart: Chart, chosen: dict[str, str]) -> list[str]:
    known = {p.name for p in chart.parameters} | {m.id for m in chart.options()}
    return [name for name in chosen if name not in known]


def _roll_dice(chart: Chart, dice: DiceSource) -> list[DieRoll]:
    count, sides = dice_of(chart.dice)
    purpose = f"chart {chart.id}"
    return [DieRoll(sides=sides, value=dice.roll(sides, purpose), purpose=purpose) for _ in range(count)]


def roll_on_chart(chart: Chart, choices: str, dice: DiceSource) -> ChartRoll:
    """Roll on ``chart`` with the player's ``choices`` (see :func:`parse_choices`)."""
    chosen = parse_choices(choices)
    unknown = _unknown(chart, chosen)
    if unknown:
        names = [p.name + "=" for p in chart.parameters] + [m.id for m in chart.options()]
        raise IllegalCommand(
            f"{chart.id} has no {', '.join(unknown)}; it takes {', '.join(names) or 'nothing'}"
        )
    values = _parameters(chart, chosen)
    modifiers, halve = _modifiers(chart, chosen, values)
    if chart.is_test:
        return _test(chart, values, modifiers, dice)
    faces = _roll_dice(chart, dice)
    natural = natural_roll(chart.dice, [f.value for f in faces])
    joint = ", " if chart.dice == "d66" else " + "
    shown = joint.join(str(f.value) for f in faces) if len(faces) > 1 else str(natural)
    mods_text = "".join(f", {value:+d} {name}" for name, value in modifiers)
    bands = chart.bands_for(values)
    settled = unmodified_band(bands, natural)
    if settled is not None:
        unused = [f"{value:+d} {name}" for name, value in modifiers] + (["halving"] if halve else [])
        set_aside = f" (before modifiers: {', '.join(unused)} not applied)" if unused else ""
        line = (
            f"{chart.title}: {chart.dice} {shown} = ",
            Strong(str(natural)),
            f"{set_aside}: {settled.result}",
        )
        return ChartRoll(
            chart=chart.id,
            dice=tuple(faces),
            natural=natural,
            final=natural,
            result=settled.result,
            line=line,
        )
    rolled = math.ceil(natural / 2) if halve else natural
    final = rolled + sum(v for _, v in modifiers)
    band = next((b for b in bands if b.holds(final)), None)
    if band is None:
        raise AssertionError(f"chart {chart.id} has no band for {final}")
    halved = f" halved to {rolled}" if halve else ""
    line = (
        f"{chart.title}: {chart.dice} {shown}{halved}{mods_text} = ",
        Strong(str(final)),
        f": {band.result}",
    )
    return ChartRoll(
        chart=chart.id,
        dice=tuple(faces),
        natural=natural,
        modifiers=tuple(modifiers),
        final=final,
        result=band.result,
        line=line,
    )


def unmodified_band(bands: tuple[Band, ...], natural: int) -> Band | None:
    """The band marked ``unmodified`` that the natural roll falls in, if any: its result stands
    whatever the modifiers, which are not applied to that roll (Cross of Iron 76.6 with 66.3: an
    armor leader's modifier helps a repair, but a repair roll of 9 or more is permanent
    immobilization before it); None, and the modified roll is read against every band."""
    return next((b for b in bands if b.unmodified and b.holds(natural)), None)


def _test(
    chart: Chart, values: dict[str, str], modifiers: list[tuple[str, int]], dice: DiceSource
) -> ChartRoll:
    """A test: the score needed with its modifiers, then the roll (none if no test applies)."""
    base = chart.needs if isinstance(chart.needs, int) else _lookup(chart, chart.needs, values)  # type: ignore[arg-type]
    if base is None:
        return ChartRoll(chart=chart.id, result="no test needed", line=(f"{chart.title}: no test needed",))
    needed = base + sum(v for _, v in modifiers)
    if chart.needs_range:
        needed = max(chart.needs_range[0], min(chart.needs_range[1], needed))
    mods_text = "".join(f" {value:+d} {name}" for name, value in modifiers)
    if chart.impossible_at is not None and needed >= chart.impossible_at:
        line = (f"{chart.title}: cannot be passed ({base}+{mods_text})",)
        return ChartRoll(
            chart=chart.id, result="impossible", line=line, modifiers=tuple(modifiers), final=needed
        )
    faces = _roll_dice(chart, dice)
    natural = natural_roll(chart.dice, [f.value for f in faces])
    shown = " + ".join(str(f.value) for f in faces) if len(faces) > 1 else str(natural)
    passed = natural >= needed or (chart.natural_six_passes and natural == 6)
    six = " (a natural 6)" if passed and natural < needed else ""
    result = "passed" if passed else "failed"
    line = (f"{chart.title}: needs {base}+{mods_text} -> {needed}+; rolled {shown}{six}: ", Strong(result))
    return ChartRoll(
        chart=chart.id,
        dice=tuple(faces),
        natural=natural,
        modifiers=tuple(modifiers),
        final=needed,
        result=result,
        line=line,
    )


def describe_chart(chart: Chart) -> tuple[Line, ...]:
    """What a chart takes and what it gives, for ``/chart show``."""
    lines: list[Line] = [(Strong(chart.id), f": {chart.title} ({chart.dice}; {chart.source})")]
    for param in chart.parameters:
        choices = f" ({', '.join(param.choices)})" if param.choices else ""
        lines.append((f"  {param.name}=...{choices}: {param.description}",))
    for mod in chart.modifiers:
        how = (
            f"{mod.value:+d}"
            if mod.value is not None
            else f"{mod.per:+d} each, {mod.id}=N"
            if mod.per is not None
            else "halves the roll"
            if mod.halve
            else "from " + ", ".join(mod.lookup.keys if mod.lookup else [mod.parameter or ""])
        )
        when = f" when {', '.join(f'{k}={v}' for k, v in mod.when.items())}" if mod.when else ""
        lines.append((f"  {mod.id if mod.chosen else '(auto)'}: {mod.name} {how}{when}",))
    if chart.bands:
        lines.append(("  " + "; ".join(b.shown() for b in chart.bands),))
    for value, bands in chart.band_sets.items():
        lines.append((f"  {chart.bands_by}={value}: " + "; ".join(b.shown() for b in bands),))
    if chart.note:
        lines.append((f"  note: {chart.note}",))
    return tuple(lines)
