"""What each audience may know: the one place that decides it, for the game and for its events.

An audience is a side (each of its players reads what the side reads), :data:`REFEREE` (who
knows everything) or :data:`SPECTATORS` (the channel at large, who know only what is public).
A player is read as their side, a referee as :data:`REFEREE`, anyone else as the spectators
(:func:`audience_of`).

A hidden unit (hidden deployment, p. 26; a hidden sniper team, p. 20) is known to its own side
and the referee. Everyone else sees nothing of it, except that a hidden sniper with a dummy
marker shows as two identical "?" markers, one where it is and one at the dummy, sorted by
position so that not even the drawing order tells them apart; under hidden deployment every
marker, unit or dummy, shows as the same "?" with its number. What belongs to one side alone
(its hand of cards, the referee's objectives, guidelines and zones for it, a choice it must
make) is known to that side and the referee. An event about something secret carries what of
it is kept from the others (a :class:`~engine.event_data.Secret`, made here: :data:`UNTOLD`,
:func:`unnamed`, :func:`hidden_test`...), and the view words it for them (:func:`told`). A rule
set adds the marks of its own that an audience sees through
:meth:`engine.rulesets.RuleSet.marks_seen`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from engine.deployment.hidden import under_marker
from engine.event_data import RolledTest, Secret, SetUpData
from engine.rulesets import TableMark, rules_of
from engine.state import Objective, Point, RefereeRule, Unit
from engine.tags import tags_for
from engine.wording import side_name

if TYPE_CHECKING:
    from engine.cards import Card, CardInPlay
    from engine.commands import Order
    from engine.events import Event
    from engine.game_state import GameState

REFEREE = "referee"  # the audience who sees everything, hidden or not
SPECTATORS = None  # the channel at large: what is public only
EVERYONE = "both"  # a referee's note for both sides
Audience = str | None  # a side's name, REFEREE, or SPECTATORS

Marker = tuple[Point, str]  # where a "?" marker stands, and its caption ("" for none)


@dataclass(frozen=True)
class View:
    """The table as one audience sees it."""

    units: tuple[Unit, ...]  # drawn as themselves (live or destroyed)
    markers: tuple[Marker, ...]  # "?" markers: anonymous, or numbered under hidden deployment
    dummies: tuple[Marker, ...]  # dummy markers the audience knows are dummies (owner, referee)
    known: frozenset[str]  # ids of the units drawn as themselves
    passengers: dict[str, int]  # transport id -> units carried
    objectives: tuple[Objective, ...] = ()
    marks: tuple[TableMark, ...] = ()  # the rule set's own marks
    audience: Audience = SPECTATORS  # whose view it is
    tags: dict[str, str] = field(default_factory=dict)  # unit id -> the tag it is shown under


def audience_of(state: GameState, player: str) -> Audience:
    """Whom a player reads as: their side once joined, the referee if they referee, else the
    spectators."""
    side = next((name for name, side in state.sides.items() if player in side.players), None)
    if side is not None:
        return side
    return REFEREE if player in state.referees else SPECTATORS


def knows_secrets_of(side: str | None, audience: Audience) -> bool:
    """Whether ``audience`` may know what belongs to ``side`` alone (None: it belongs to nobody
    in particular, so everyone may)."""
    return side is None or audience == REFEREE or (audience is not None and audience == side)


def sees(unit: Unit, audience: Audience) -> bool:
    """Whether the audience may know this unit: it is not hidden, or it is theirs, or they referee."""
    return not unit.hidden or knows_secrets_of(unit.side, audience)


def knows_objective(objective: Objective, audience: Audience) -> bool:
    """An objective the referee set for one side is that side's (p. 25)."""
    return knows_secrets_of(objective.side, audience)


def knows_rule(rule: RefereeRule, audience: Audience) -> bool:
    """A referee's special rule is read by both sides, one side, or the referee alone (p. 25)."""
    return rule.audience == EVERYONE or knows_secrets_of(rule.audience, audience)


@dataclass(frozen=True)
class Hand:
    """What one side holds of the Tactical Advantage Cards (p. 33)."""

    cards: list[Card]
    in_play: list[CardInPlay]  # its lasting cards, with the tokens on them
    exchanged: bool  # its one exchange is used


def hand_of(state: GameState, side: str, audience: Audience) -> Hand | None:
    """A side's hand of Tactical Advantage Cards and its cards in play, if ``audience`` may see
    them (p. 33: each hand is its side's secret); None if not, or if no cards were dealt to it."""
    cards = state.cards
    if cards is None or side not in cards.hands or not knows_secrets_of(side, audience):
        return None
    return Hand(list(cards.hands[side]), list(cards.in_play.get(side, [])), side in cards.exchanged)


def sees_choice(state: GameState, audience: Audience) -> bool:
    """Whether a choice the game waits for is ``audience``'s to see (its side's, or the referee's)."""
    choice = state.pending.choice if state.pending else None
    return choice is not None and audience is not None and knows_secrets_of(choice.side, audience)


def declared_order(state: GameState, audience: Audience) -> Order | None:
    """The order being resolved, if ``audience`` may know every unit that gives it (a hidden
    unit's order is told only as its events are worded for the others)."""
    order = state.pending.order if state.pending else None
    givers = order.units if order is not None else ()
    if order is None or not all(sees(state.units[u], audience) for u in givers if u in state.units):
        return None
    return order


def told(event: Event, audience: Audience) -> str:
    """What ``audience`` is told of one event: the truth to its side and the referee; to everyone
    else, the event as the view words it from what is kept from them ("" tells them nothing), or,
    for an event stored before events carried that, the words stored for them. A secret event of
    no side is the referee's."""
    if dice_shown(event, audience):
        return event.text
    if event.kept is None:
        return event.public or ""
    return _told_the_others(event, event.kept)


def dice_shown(event: Event, audience: Audience) -> bool:
    """Whether ``audience`` is told the event as it happened, and so may see (and count) its dice:
    a secret event's wording for the others keeps them back from all but its side and the referee."""
    return not event.secret or audience == REFEREE or (audience is not None and audience == event.side)


UNMARKED = "a sniper marker"  # how the enemy reads a hidden sniper team (p. 20)

UNTOLD = Secret(told=False)
"""An event its side alone (and the referee) is told: the others are told nothing of it."""

IN_SECRET = Secret()
"""An event the others are told as the view words it from the event's data alone (a set-up)."""


def known_as(unit: Unit) -> str:
    """The name the enemy and the channel read for a unit: a hidden sniper team has no numbered
    marker, and shows only as one of two identical markers (p. 20), so it goes unnamed; a unit
    under a marker is already named by it."""
    return UNMARKED if unit.hidden and unit.marker is None else unit.name


def name_for(unit: Unit, audience: Audience) -> str:
    """The name ``audience`` knows the unit by: its own name to its side and the referee, its
    marker's (or none, for a hidden sniper team) to everyone else."""
    return (unit.true_name or unit.name) if knows_secrets_of(unit.side, audience) else known_as(unit)


def unnamed(*units: Unit) -> Secret | None:
    """An event that names these units, as the others are told it: a hidden sniper team called by
    what they know it as (p. 20); None when they know each unit by the name the event gives it."""
    names = _names_unknown(units)
    return Secret(names=names) if names else None


def hidden_test(unit: Unit | None, dice: str) -> Secret | None:
    """A test a hidden unit takes, as the others are told it: its outcome, under the name they
    know the unit by, without ``dice`` (the words that tell the score and the roll, which would
    tell what is under a marker); None for a unit in the open, or no unit."""
    if unit is None or not unit.hidden:
        return None
    return Secret(names=_names_unknown((unit,)), withheld=(dice,))


def untold_if_hidden(unit: Unit) -> Secret | None:
    """An event about a hidden unit's morale markers: the others are told nothing, since a marker
    that takes or loses them is no dummy."""
    return UNTOLD if unit.hidden else None


def under_its_marker(unit: Unit) -> Secret | None:
    """An event that gives a unit under a marker its true name: the others read the marker's."""
    true = unit.true_name or unit.name
    return Secret(names=((true, unit.name),)) if true != unit.name else None


def one_of_its_side(name: str, side: str) -> Secret:
    """An event that names a unit the others may not know: they read it as a unit of its side."""
    return Secret(names=((name, f"a unit of {side_name(side)}"),))


def _names_unknown(units: Iterable[Unit]) -> tuple[tuple[str, str], ...]:
    return tuple((unit.name, known_as(unit)) for unit in units if known_as(unit) != unit.name)


def _told_the_others(event: Event, kept: Secret) -> str:
    """A secret event in the words of those not told the truth: its own wording for them, or its
    text without the words withheld from them, each unit called by the name they know it by."""
    if not kept.told:
        return ""
    text = _worded_for_the_others(event, kept)
    for words in kept.withheld:
        text = text.replace(words, "")
    for name, seen in kept.names:
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", seen, text)
    return text


def _worded_for_the_others(event: Event, kept: Secret) -> str:
    """The event's text, or, for an event the others are told otherwise, their words for it: a
    unit set up out of their sight (:func:`_set_up_unseen`), a hidden sniper team's failed terrain
    test (only that it is stuck: the roll and the score stay its side's)."""
    data = event.data
    if isinstance(data, SetUpData):
        return _set_up_unseen(side_name(event.side or "", start=True), data)
    if isinstance(data, RolledTest) and data.test == "terrain test" and not data.passed:
        return f"{kept.names[0][0]} is stuck"
    return event.text


def _set_up_unseen(sides: str, set_up: SetUpData) -> str:
    """A unit set up out of the enemy's sight: a sniper team as its two markers, in an order that
    tells neither apart (p. 20); a unit under hidden deployment as its marker (p. 26); a unit of a
    plotted set-up not at all until both sides are done (p. 28)."""
    if set_up.decoy is not None:
        first, second = sorted((set_up.at, set_up.decoy), key=lambda p: (p.x, p.y))
        return f"{sides} set up a sniper team's two markers, at {first} and {second}"
    if set_up.marker is not None:
        return f"{sides} set up {set_up.marker} at {set_up.at}"
    return f"{sides} set up a unit in secret"


def events_for(audience: Audience, events: Iterable[Event]) -> list[str]:
    """The lines of these events that ``audience`` may read, leaving out those it is not told."""
    return [line for line in (told(event, audience) for event in events) if line]


def kept_from_spectators(audience: Audience, events: Iterable[Event]) -> list[Event]:
    """The events ``audience`` is told otherwise than the channel: its own secrets."""
    return [event for event in events if told(event, audience) != told(event, SPECTATORS)]


def may_name(unit: Unit, audience: Audience, *, aiming: bool = False) -> bool:
    """Whether ``audience`` may name the unit in a command, a look-up or a suggestion; aiming at
    it, never while it is hidden (a name aimed at must not tell that it is there)."""
    return sees(unit, audience) and not (aiming and unit.hidden)


def names_for(unit: Unit, audience: Audience, *, aiming: bool = False) -> tuple[str, ...]:
    """The names ``audience`` may call the unit by in a command: its id and name if it may name
    it (:func:`may_name`); an enemy's numbered marker on the table, which it sees only as a marker,
    by the label it is shown under ("Marker 2"), never by its id or what is under it (p. 26);
    none for a unit it may not name (a hidden sniper team, which has no label of its own)."""
    if may_name(unit, audience, aiming=aiming):
        return (unit.id, unit.name)
    if under_marker(unit) and unit.on_table and unit.embarked_in is None:
        return (unit.name,)
    return ()


def view_for(state: GameState, audience: Audience) -> View:
    """The table as ``audience`` sees it: the units it knows, the markers of the others, the
    objectives it may know and the rule set's marks."""
    units: list[Unit] = []
    markers: list[Marker] = []
    dummies: list[Marker] = []
    passengers: dict[str, int] = {}
    for unit in state.units.values():
        if unit.in_reserve or (unit.dummy and unit.destroyed):
            continue
        number = "" if unit.marker is None else str(unit.marker)
        if not sees(unit, audience):
            if unit.destroyed or unit.embarked_in is not None:
                continue
            if unit.marker is not None:
                markers.append((unit.position, number))
            elif unit.decoy is not None:
                markers += [(unit.position, ""), (unit.decoy, "")]
            continue
        if unit.dummy:
            dummies.append((unit.position, f"dummy {number}"))
            continue
        if unit.embarked_in is not None:
            passengers[unit.embarked_in] = passengers.get(unit.embarked_in, 0) + 1
            continue
        units.append(unit)
        if unit.hidden and unit.decoy is not None and not unit.destroyed:
            dummies.append((unit.decoy, "dummy"))
    return View(
        units=tuple(units),
        markers=tuple(sorted(markers, key=lambda m: (m[0].x, m[0].y))),
        dummies=tuple(dummies),
        known=frozenset(u.id for u in units),
        passengers=passengers,
        objectives=tuple(o for o in state.objectives if knows_objective(o, audience)),
        marks=tuple(rules_of(state).marks_seen(state, audience)),
        audience=audience,
        tags=tags_for(units, public={u.id for u in units if sees(u, SPECTATORS)}),
    )


def units_tagged(state: GameState, audience: Audience, tag: str, side: str | None = None) -> list[Unit]:
    """The units ``audience`` sees under ``tag`` (any case) on its picture, of ``side`` if given:
    a player may name a unit by what the picture shows. The two sides may share a tag."""
    wanted = tag.strip().casefold()
    tags = view_for(state, audience).tags
    units = (state.units[unit_id] for unit_id, shown in tags.items() if shown.casefold() == wanted)
    return [unit for unit in units if side is None or unit.side == side]


def shows_more(state: GameState, audience: Audience) -> bool:
    """Whether ``audience`` sees more units than the spectators: hidden units, dummies."""
    seen, shared = view_for(state, audience), view_for(state, SPECTATORS)
    return replace(seen, objectives=(), audience=SPECTATORS) != replace(shared, objectives=())
