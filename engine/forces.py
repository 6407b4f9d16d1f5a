"""The force builder (Iron Cross 2015, pp. 18-24): a player's force as data, the book's
restrictions on it, its points and break points, a text form to paste in Discord, and the game
units it brings to the table.

Every change returns a new force; a change the book never allows for that unit raises
IllegalCommand, while restrictions on the force as a whole (points, counts, dates) are listed by
``force_problems`` so a force can be built up one unit at a time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from engine.errors import IllegalCommand
from engine.names import closest, either
from engine.profiles import NATIONS, UnitClass, UnitProfile, find_profile, load_orbat
from engine.rules.force import (
    ORBAT_PAGE,
    availability_problem,
    command_unit_problem,
    iaw_carrier_problem,
    iaw_problem,
    infantry_outnumber_support_problem,
    lend_lease_problem,
    nation_transports,
    points_problem,
    rare_units_problem,
    sniper_problem,
    subcommander_problem,
    transport_problem,
    unbought_transport_problem,
)
from engine.rulesets import RULE_SETS, RuleSet, find_rule_set
from engine.scenarios.new_game import make_unit, slug
from engine.state import Unit
from engine.wording import quoted

NATION_NAMES = {"german": "German", "british": "British", "us": "US", "soviet": "Soviet"}
LABEL_MAX = 50
NAME_MAX = 80
MOST_POINTS = 100_000  # a force's points limit
MOST_UNITS = 200  # units bought for one force (a transport is bought with the unit it carries)
TOO_MANY_UNITS = f"a force has at most {MOST_UNITS} units"
LABEL_FORBIDDEN = ":[]"  # the export format's separators
DATE = re.compile(r"(\d{4})(?:\s*-\s*(\d{1,2}))?")
FIRST_YEAR, LAST_YEAR = 1939, 1945
ORIGIN = (0.0, 0.0)


def _tidy(text: str) -> str:
    """Trimmed, with every run of whitespace made one space."""
    return " ".join(text.split())


def date_parts(date: str) -> tuple[int, int | None]:
    """A force date, "1944-09" or "1945", as year and month (None for a year alone)."""
    found = DATE.fullmatch(date.strip())
    if not found:
        raise ValueError(f"{date!r} is not a date: write a year and month like 1944-09, or a year like 1945")
    year, month = int(found[1]), int(found[2]) if found[2] else None
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise ValueError(f"{year} is outside the war: choose a year from {FIRST_YEAR} to {LAST_YEAR}")
    if month is not None and not 1 <= month <= 12:
        raise ValueError(f"{date!r} has no month {month}: months run from 01 to 12")
    return year, month


class ForceUnit(BaseModel):
    """One unit bought for a force, with its upgrades."""

    model_config = ConfigDict(frozen=True)

    label: str  # what the player calls it, unique within the force, e.g. "Panther 2"
    profile: str  # the order of battle entry, exactly as the book's list names it
    iaw: bool = False  # an infantry detachment carries the nation's IAW
    transport: str | None = None  # the transport profile bought to carry it
    command: bool = False
    subcommander: bool = False
    quality: tuple[str, ...] = ()  # troop quality, where the force's rule set has it

    @field_validator("label")
    @classmethod
    def _label(cls, label: str) -> str:
        label = _tidy(label)
        if not slug(label):
            raise ValueError(f"the label {label!r} needs a letter or a digit")
        if len(label) > LABEL_MAX:
            raise ValueError(f"the label {label!r} is longer than {LABEL_MAX} characters")
        if not label.isprintable():
            raise ValueError(f"the label {label!r} may use only printable characters")
        if set(label) & set(LABEL_FORBIDDEN):
            raise ValueError(f"the label {label!r} may not contain {' '.join(LABEL_FORBIDDEN)}")
        return label

    @property
    def transport_label(self) -> str:
        """The name its transport goes by in a game."""
        return f"{self.label} ({self.transport})"


class Force(BaseModel):
    """A player's force: one nation's units, bought within a points limit, maybe for a date."""

    model_config = ConfigDict(frozen=True)

    nation: str
    name: str
    points_limit: int
    date: str | None = None  # "1944-09" or "1945": which units served (pp. 22-23)
    units: tuple[ForceUnit, ...] = ()
    rules: str = RuleSet.name  # the rule set it is built under: its own units and troop quality

    @field_validator("rules")
    @classmethod
    def _rules(cls, rules: str) -> str:
        try:
            return find_rule_set(rules).name
        except IllegalCommand as error:
            raise ValueError(str(error)) from None

    @field_validator("points_limit", mode="before")
    @classmethod
    def _points_limit(cls, points: object) -> int:
        """A whole number from 1 to :data:`MOST_POINTS`, read from no more digits than it takes."""
        text = "" if isinstance(points, bool) else str(points).strip()
        if not (text.isascii() and text.isdigit() and len(text) <= len(str(MOST_POINTS))):
            raise ValueError(f"a whole number from 1 to {MOST_POINTS:,}, not {quoted(text)}")
        if not 1 <= int(text) <= MOST_POINTS:
            raise ValueError(f"a whole number from 1 to {MOST_POINTS:,}, not {int(text):,}")
        return int(text)

    @field_validator("nation")
    @classmethod
    def _nation(cls, nation: str) -> str:
        key = nation.strip().casefold()
        if key not in NATIONS:
            raise ValueError(f"there is no {nation!r} order of battle: choose {_nation_choices()}")
        return key

    @field_validator("name")
    @classmethod
    def _name(cls, name: str) -> str:
        name = _tidy(name)
        if not name or not name.isprintable() or len(name) > NAME_MAX:
            raise ValueError(f"a force needs a name of 1 to {NAME_MAX} characters")
        return name

    @field_validator("date")
    @classmethod
    def _date(cls, date: str | None) -> str | None:
        if date is None:
            return None
        year, month = date_parts(date)
        return f"{year}-{month:02d}" if month else str(year)

    @model_validator(mode="after")
    def _profiles_and_labels(self) -> Force:
        for unit in self.units:
            for name in filter(None, (unit.profile, unit.transport)):
                spelt = _lookup(self.nation, name, self.rules)
                if spelt != name:
                    raise ValueError(f"{unit.label}: the book spells {name!r} as {spelt!r}")
            problem = RULE_SETS[self.rules].force_unit_problem(
                self.nation, unit.profile, iaw=unit.iaw, quality=unit.quality
            )
            if problem:
                raise ValueError(f"{unit.label}: {problem}")
        _check_distinct(_game_names(self))
        return self


def _nation_choices() -> str:
    return either([NATION_NAMES[n] for n in NATIONS])


def order_of_battle(nation: str, rules: str = RuleSet.name) -> list[str]:
    """Every entry a force of the nation may add under the rule set, in the lists' order: the
    rule set's own units, then the order of battle (pp. 21-24), then the lend-lease vehicles."""
    orbat = load_orbat(nation)
    own = RULE_SETS[rules].own_units(nation)
    return list(dict.fromkeys([*own, *(u.name for u in orbat.units), *orbat.lend_lease]))


def _lookup(nation: str, name: str, rules: str = RuleSet.name) -> str:
    """A unit's name as its list spells it (the rule set's own units, then the order of battle),
    ignoring case and extra spaces, with a hint when there is none."""
    own = RULE_SETS[rules].own_units(nation)
    for listed in own:
        if listed.casefold() == _tidy(name).casefold():
            return listed
    try:
        return find_profile(nation, _tidy(name)).name
    except KeyError:
        close = closest(_tidy(name), order_of_battle(nation, rules))
        listing = f"/force orbat nation:{nation}" + (f" ruleset:{rules}" if rules != RuleSet.name else "")
        like_it = f"{listing} find:{_tidy(name).split(' ')[0]} lists every entry like it"
        hint = f"; did you mean {either(close)}? ({like_it})" if close else f"; {listing} lists them all"
        raise ValueError(f"the {load_orbat(nation).title} has no {_tidy(name)!r}{hint}") from None


def bought_as(force: Force, name: str) -> UnitProfile:
    """The order of battle entry a unit of the force counts as for points and the force rules:
    itself, or for a rule set's own unit the entry that rule set names."""
    return find_profile(force.nation, RULE_SETS[force.rules].own_units(force.nation).get(name, name))


def _unit_names(unit: ForceUnit) -> Iterator[str]:
    yield unit.label
    if unit.transport:
        yield unit.transport_label


def _game_names(force: Force) -> Iterator[str]:
    for unit in force.units:
        yield from _unit_names(unit)


def _check_distinct(names: Iterator[str], seen: dict[str, str] | None = None) -> None:
    """Labels (and the names of bought transports) must stay apart once case and punctuation
    are ignored, since a game keys its units that way; ``seen`` holds the names met before, by
    their slug, and takes these."""
    seen = {} if seen is None else seen
    for name in names:
        clash = seen.get(slug(name))
        if clash == name:
            raise ValueError(f"there is already a unit called {name!r}: give the unit another label")
        if clash:
            raise ValueError(f"{name!r} is too like {clash!r}: give the unit another label")
        seen[slug(name)] = name


def _build(model: type[Force] | type[ForceUnit], **data: Any) -> Any:
    """A model from player input, refusing it with the validators' own words."""
    try:
        return model(**data)
    except ValidationError as error:
        raise IllegalCommand("; ".join(_reason(e) for e in error.errors())) from None


def _reason(error: Any) -> str:
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"points limit: {message}" if error["loc"] == ("points_limit",) else message


# --- building a force -------------------------------------------------------------------------


def new_force(
    nation: str, name: str, points_limit: int, date: str | None = None, rules: str = RuleSet.name
) -> Force:
    """An empty force of one nation's order of battle, under a rule set."""
    return _build(Force, nation=nation, name=name, points_limit=points_limit, date=date, rules=rules)


def _with_units(force: Force, units: Sequence[ForceUnit]) -> Force:
    if len(units) > MOST_UNITS:
        raise IllegalCommand(TOO_MANY_UNITS)
    return _build(
        Force,
        nation=force.nation,
        name=force.name,
        points_limit=force.points_limit,
        date=force.date,
        units=tuple(units),
        rules=force.rules,
    )


def next_label(force: Force, profile: str) -> str:
    """The first free label "<profile> <n>", so labels autocomplete from the unit's own name."""
    taken = {slug(name) for name in _game_names(force)}
    number = 1
    while slug(f"{profile} {number}") in taken:
        number += 1
    return f"{profile} {number}"


def add_unit(force: Force, profile: str, label: str | None = None, quality: Sequence[str] = ()) -> Force:
    """The force with one more unit from its order of battle (or, for Soviets, the lend-lease
    list, or the rule set's own list), of a troop quality where the rule set has them."""
    try:
        name = _lookup(force.nation, profile, force.rules)
    except ValueError as error:
        raise IllegalCommand(str(error)) from None
    label = label or next_label(force, name)
    problem = unbought_transport_problem(label, bought_as(force, name))
    if problem:
        raise IllegalCommand(f"{problem}: add the unit it carries, then set its transport")
    unit = _build(ForceUnit, label=label, profile=name, quality=tuple(quality))
    return _with_units(force, [*force.units, unit])


def find_unit(force: Force, label: str) -> ForceUnit:
    """A unit of the force by its label, ignoring case and punctuation."""
    for unit in force.units:
        if slug(unit.label) == slug(label):
            return unit
    listed = ", ".join(u.label for u in force.units) or "none yet"
    raise IllegalCommand(f"{force.name} has no unit called {label!r} (its units: {listed})")


def _changed(force: Force, label: str, **changes: Any) -> Force:
    target = find_unit(force, label)
    return _with_units(force, [u.model_copy(update=changes) if u is target else u for u in force.units])


def remove_unit(force: Force, label: str) -> Force:
    """The force without one unit (and the transport bought for it)."""
    target = find_unit(force, label)
    return _with_units(force, [u for u in force.units if u is not target])


def set_iaw(force: Force, label: str, carries: bool = True) -> Force:
    """Give an infantry detachment the nation's IAW (p. 19), or take it away."""
    unit = find_unit(force, label)
    problem = iaw_carrier_problem(unit.label, bought_as(force, unit.profile)) if carries else None
    if problem:
        raise IllegalCommand(problem)
    return _changed(force, label, iaw=carries)


def set_transport(force: Force, label: str, transport: str | None) -> Force:
    """Buy a transport for a unit (pp. 20-24), or with None sell it back."""
    unit = find_unit(force, label)
    if transport is None:
        return _changed(force, label, transport=None)
    orbat = load_orbat(force.nation)
    try:
        bought = _lookup(force.nation, transport, force.rules)
    except ValueError as error:
        raise IllegalCommand(f"{error} (transports: {', '.join(nation_transports(orbat))})") from None
    problem = transport_problem(
        unit.label, bought_as(force, unit.profile), bought_as(force, bought), orbat, command=unit.command
    )
    if problem:
        raise IllegalCommand(problem)
    return _changed(force, label, transport=bought)


def choose_command(force: Force, label: str) -> Force:
    """Make one unit the force's command unit (p. 18); any other unit stops being it."""
    chosen = find_unit(force, label)
    if chosen.subcommander:
        raise IllegalCommand(f"{chosen.label} is the sub-commander: choose another sub-commander first")
    return _with_units(force, [u.model_copy(update={"command": u is chosen}) for u in force.units])


def choose_subcommander(force: Force, label: str | None) -> Force:
    """Make one German unit the sub-commander (pp. 20-21), or with None have none."""
    if force.nation != "german":
        raise IllegalCommand(
            f"only German forces have a sub-commander, and {force.name} is {NATION_NAMES[force.nation]}"
        )
    chosen = find_unit(force, label) if label is not None else None
    if chosen is not None and chosen.command:
        raise IllegalCommand(f"{chosen.label} is the command unit; the sub-commander must be another unit")
    return _with_units(force, [u.model_copy(update={"subcommander": u is chosen}) for u in force.units])


def upgrade(
    force: Force,
    label: str,
    *,
    iaw: bool | None = None,
    transport: str | None = None,
    command: bool = False,
    subcommander: bool = False,
    quality: Sequence[str] | None = None,
) -> Force:
    """Several upgrades to one unit at once, in the order troop quality (empty: regular), IAW,
    transport ("none" sells it back), command unit, sub-commander; any refusal leaves the force
    as it was."""
    if quality is not None:
        force = _changed(force, label, quality=tuple(quality))
    if iaw is not None:
        force = set_iaw(force, label, iaw)
    if transport is not None:
        force = set_transport(force, label, None if transport.casefold() == "none" else transport)
    if command:
        force = choose_command(force, label)
    if subcommander:
        force = choose_subcommander(force, label)
    return force


# --- points and break points --------------------------------------------------------------------


def unit_points(force: Force, unit: ForceUnit) -> int:
    """A unit's cost with its upgrades: its IAW and its transport."""
    points = bought_as(force, unit.profile).points
    if unit.iaw:
        points += load_orbat(force.nation).iaw.cost
    if unit.transport:
        points += bought_as(force, unit.transport).points
    return points


def unit_break_points(force: Force, unit: ForceUnit) -> int:
    """A unit's Break Point value (p. 18); its transport adds none."""
    return bought_as(force, unit.profile).break_points


def force_points(force: Force) -> int:
    """What the whole force costs (p. 18)."""
    return sum(unit_points(force, u) for u in force.units)


def units_points(units: Sequence[Unit]) -> int:
    """What game units cost (p. 18): each one's points, a transport being a unit of its own, and
    their IAW upgrades; the same sum as :func:`force_points` of the force they came from."""
    return sum(
        u.profile.points + (load_orbat(u.profile.nation).iaw.cost if u.iaw_weapon is not None else 0)
        for u in units
    )


def force_break_points(force: Force) -> int:
    """The force's total Break Point value, the sum of its units' BP (p. 18); transports add 0."""
    return sum(
        bought_as(force, name).break_points
        for unit in force.units
        for name in (unit.profile, unit.transport)
        if name
    )


# --- the book's restrictions -------------------------------------------------------------------


def _cite(rule: str, pages: int | str) -> str:
    return f"{rule} (p. {pages})" if isinstance(pages, int) else f"{rule} (pp. {pages})"


def _unit_problems(force: Force, unit: ForceUnit) -> Iterator[tuple[str, str | None]]:
    """What the book forbids about this one unit and its upgrades."""
    orbat = load_orbat(force.nation)
    profile = bought_as(force, unit.profile)
    yield _cite("Transports", 20), unbought_transport_problem(unit.label, profile)
    if unit.iaw:
        yield _cite("IAW", 19), iaw_carrier_problem(unit.label, profile)
    if unit.transport:
        transport = bought_as(force, unit.transport)
        yield (
            _cite("Transports", ORBAT_PAGE[force.nation]),
            transport_problem(unit.label, profile, transport, orbat, command=unit.command),
        )
    if force.date:
        year, month = date_parts(force.date)
        yield (
            _cite("Availability", ORBAT_PAGE[profile.nation]),
            availability_problem(unit.label, profile, year, month),
        )


def force_problems(force: Force, *, defending: bool | None = None) -> list[str]:
    """Every restriction of the orders of battle (pp. 18-24) the force breaks, each naming its
    rule and page. ``defending`` is the force's part in the scenario, if already known (snipers)."""
    orbat = load_orbat(force.nation)
    page = ORBAT_PAGE[force.nation]
    profiles = [bought_as(force, u.profile) for u in force.units]
    detachments = [
        u for u, p in zip(force.units, profiles, strict=True) if p.unit_class is UnitClass.INFANTRY
    ]
    commanders = [u.label for u in force.units if u.command]
    subcommanders = [u.label for u in force.units if u.subcommander]
    found = [
        (_cite("Points", 18), points_problem(force_points(force), force.points_limit)),
        (_cite("Command unit", 18), command_unit_problem(commanders)),
        (_cite("Sub-commander", "20-21"), subcommander_problem(force.nation, subcommanders, commanders)),
        (_cite("Infantry and support", page), infantry_outnumber_support_problem(profiles)),
        (_cite("Rare", 20), rare_units_problem(profiles)),
        (_cite("IAW", page), iaw_problem(len(detachments), sum(u.iaw for u in detachments), orbat.iaw)),
        (_cite("Sniper team", 20), sniper_problem(profiles, defending=defending)),
        (_cite("Lend lease", 24), lend_lease_problem(profiles, orbat)),
    ]
    for unit in force.units:
        found.extend(_unit_problems(force, unit))
    return [f"{rule}: {problem}" for rule, problem in found if problem]


# --- text export and import ----------------------------------------------------------------------

HEADERS = {
    "force": "name",
    "nation": "nation",
    "points limit": "points_limit",
    "date": "date",
    "rules": "rules",
}
OPTIONAL_HEADERS = ("date", "rules")
UNIT_LINE = re.compile(r"(?P<label>[^:]+):(?P<profile>[^\[\]]+)(?:\[(?P<upgrades>[^\[\]]*)\])?")
BULLETS = "-*•"


def _upgrades(unit: ForceUnit) -> list[str]:
    flags = [("command", unit.command), ("sub-commander", unit.subcommander), ("IAW", unit.iaw)]
    words = [word for word, on in flags if on] + list(unit.quality)
    return words + ([f"transport {unit.transport}"] if unit.transport else [])


def export_force(force: Force) -> str:
    """The force as short text to paste in Discord: a header, then one line per unit."""
    lines = [
        f"Force: {force.name}",
        f"Nation: {NATION_NAMES[force.nation]}",
        f"Points limit: {force.points_limit}",
    ]
    if force.date:
        lines.append(f"Date: {force.date}")
    if force.rules != RuleSet.name:
        lines.append(f"Rules: {force.rules}")
    for unit in force.units:
        upgrades = _upgrades(unit)
        lines.append(f"- {unit.label}: {unit.profile}" + (f" [{', '.join(upgrades)}]" if upgrades else ""))
    return "\n".join(lines)


def _read_upgrades(text: str) -> dict[str, Any]:
    """The bracketed upgrades of a unit line, e.g. "command, IAW, transport Truck/Jeep"."""
    upgrades: dict[str, Any] = {}
    for word in filter(None, (_tidy(w) for w in text.split(","))):
        key = word.casefold().replace("-", "").replace(" ", "")
        if key in ("command", "subcommander", "iaw"):
            field, value = key, True
        elif key in {q for rules in RULE_SETS.values() for q in rules.qualities}:
            upgrades["quality"] = (*upgrades.get("quality", ()), key)
            continue
        elif key.startswith("transport"):
            field, value = "transport", _tidy(word[len("transport") :])
            if not value:
                raise ValueError("name the transport after the word transport, e.g. 'transport Truck/Jeep'")
        else:
            raise ValueError(
                f"{word!r} is not an upgrade: use command, sub-commander, IAW, transport <name> "
                "or a troop quality"
            )
        if field in upgrades:
            raise ValueError(f"{word!r} is given twice")
        upgrades[field] = value
    return upgrades


def _read_unit(force: Force, text: str) -> ForceUnit:
    found = UNIT_LINE.fullmatch(text)
    if not found:
        raise ValueError("a unit line reads '- <label>: <unit> [upgrades]'")
    upgrades = _read_upgrades(found["upgrades"] or "")
    if "transport" in upgrades:
        upgrades["transport"] = _lookup(force.nation, upgrades["transport"], force.rules)
    profile = _lookup(force.nation, found["profile"], force.rules)
    return _build(ForceUnit, label=found["label"], profile=profile, **upgrades)


def _read_header(text: str, header: dict[str, str]) -> str:
    """Note one header line's value in ``header``; return the field it sets."""
    key, colon, value = text.partition(":")
    field = HEADERS.get(_tidy(key).casefold())
    if not colon or field is None:
        raise ValueError("expected Force:, Nation:, Points limit:, Date: or a unit line starting with -")
    if field in header:
        raise ValueError(f"{_tidy(key)} is given twice")
    header[field] = value.strip()
    return field


def _numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines worth reading, numbered from 1, leaving out blank lines and code fences."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.strip().startswith("```"):
            yield number, line.strip()


def _refuse_line(number: int, line: str, reason: object) -> IllegalCommand:
    return IllegalCommand(f"line {number} ({quoted(line, 80)}): {reason}")


def _read_headers(header_lines: Sequence[tuple[int, str]]) -> Force:
    """The empty force the header lines describe, refusing a bad value by its line."""
    header: dict[str, str] = {}
    where: dict[str, tuple[int, str]] = {}
    for number, line in header_lines:
        try:
            where[_read_header(line, header)] = number, line
        except ValueError as error:
            raise _refuse_line(number, line, error) from None
    missing = [
        f"{key.capitalize()}:"
        for key, field in HEADERS.items()
        if field not in header and field not in OPTIONAL_HEADERS
    ]
    if missing:
        raise IllegalCommand(f"the force text has no {' or '.join(missing)} line")
    try:
        return Force(**header)
    except ValidationError as error:
        first = error.errors()[0]
        raise _refuse_line(*where[str(first["loc"][0])], _reason(first)) from None


def import_force(text: str) -> Force:
    """A force read back from ``export_force`` text, tolerant of spacing and case. Each unit line
    is checked by itself and against the labels before it, so the whole force is built once."""
    lines = list(_numbered_lines(text))
    force = _read_headers([(n, line) for n, line in lines if line[0] not in BULLETS])
    units: list[ForceUnit] = []
    labels: dict[str, str] = {}
    for number, line in lines:
        if line[0] in BULLETS:
            try:
                if len(units) == MOST_UNITS:
                    raise IllegalCommand(TOO_MANY_UNITS)
                unit = _read_unit(force, line[1:].strip())
                _with_units(force, [unit])  # what its rule set says of the unit by itself
                _check_distinct(_unit_names(unit), labels)
            except (ValueError, IllegalCommand) as error:
                raise _refuse_line(number, line, error) from None
            units.append(unit)
    return _with_units(force, units)


# --- into a game ---------------------------------------------------------------------------------


def _game_id(side: str, name: str) -> str:
    """Unit ids are keys for the whole game, so each carries its side: both forces may well
    have an "Infantry Detachment 1"."""
    return f"{slug(side)}-{slug(name)}"


def force_units(force: Force, side: str) -> list[Unit]:
    """The force as game units for ``side``, all at the origin until deployed, as its rule set
    fields them. A transport bought for a unit becomes a unit of its own, named in the carried
    unit's ``transport``."""
    rules = RULE_SETS[force.rules]
    units = []
    for entry in force.units:
        transport = None
        if entry.transport:
            name = entry.transport_label
            carrier = make_unit(
                force.nation,
                bought_as(force, entry.transport).name,
                side,
                ORIGIN,
                name=name,
                unit_id=_game_id(side, name),
            )
            transport = rules.fielded(carrier, entry.transport, ())
        bought = make_unit(
            force.nation,
            bought_as(force, entry.profile).name,
            side,
            ORIGIN,
            name=entry.label,
            unit_id=_game_id(side, entry.label),
            command=entry.command,
            subcommander=entry.subcommander,
            iaw=entry.iaw,
            transport=transport.id if transport else None,
        )
        units.append(rules.fielded(bought, entry.profile, entry.quality))
        if transport:
            units.append(transport)
    return units
