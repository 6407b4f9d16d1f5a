"""Linked Iron Cross battles: a campaign that chains scenarios, each side keeping one force.

The 2015 rulebook has no campaign rules, so everything here is this project's own campaign rule
(called "linked battles" below), built on the book's force builder (pp. 18-24) and scenarios
(pp. 26-31):

- Each side starts with a legal force (:func:`engine.forces.force_problems` finds nothing).
- A battle fields the side's force as it stands. Forces that carry their losses are rarely
  equal, so a linked battle does not hold them to the scenario's points rule.
- After a battle (:func:`carry_losses`) a destroyed unit leaves its force, and a transport that
  was destroyed leaves the unit it carried. A unit that survived with morale markers on it, or on
  its transport, is *damaged*: the book's lasting harm, since a "Screech! Vehicle damaged"
  result (p. 12) is itself morale markers. Damaged units come back, their markers gone, at the
  start of the next battle; with the campaign option ``damaged="sit_out"`` they miss the next
  battle instead and come back for the one after.
- Each side earns reinforcement points from the result (:func:`award_reinforcements`): the
  winner, the loser and both sides of a draw get the campaign's amounts; a side that concedes
  before it has spent a single command token has not fought, and earns none.
- Between battles a side buys units with those points (:func:`spend_reinforcements`): the
  force builder adds the unit, the unit's cost is paid from the points in hand, and the force's
  points limit grows by what was paid. A purchase may not break a force-builder restriction that
  the force keeps; a restriction already broken by losses does not stop it.
- A force whose command unit was lost names another (:func:`name_command_unit`) before it
  fights again; a sniper team stays behind when its side attacks (p. 20).
- Between battles a side may also retire a unit (:func:`retire_unit`): it leaves the force for
  good, with no points back, and may not break a force-builder restriction the force keeps.
- The players end the campaign between battles (:func:`end_campaign`): the side with more wins
  takes it, and nothing more is fought, bought or carried.
- Each battle keeps every die rolled in it, by player, for the campaign's ``/stats``.

Every function returns a new :class:`LinkedCampaign` and leaves the one it was given unchanged,
also when it refuses with :class:`IllegalCommand`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.commands import JoinSide
from engine.dice_stats import PlayerDie
from engine.errors import IllegalCommand
from engine.flow.game_over import conceded, spent_a_token
from engine.forces import (
    NATION_NAMES,
    Force,
    ForceUnit,
    add_unit,
    bought_as,
    choose_command,
    find_unit,
    force_points,
    force_problems,
    force_units,
    next_label,
    remove_unit,
    set_transport,
    unit_points,
)
from engine.game_state import GameState
from engine.profiles import Special
from engine.rich_text import Line, Mention, Strong
from engine.rules.force import command_unit_problem
from engine.rules.scenario import defends
from engine.scenarios.book import find_scenario
from engine.state import Phase
from engine.wording import counted, side_label, side_name

SIDES = ("allies", "axis")  # the sides of a scenario game (engine.scenarios.quick_battle.scenario_battle)
DamagedRule = Literal["return", "sit_out"]
DAMAGED_RULES: dict[str, str] = {
    "return": "damaged units come back for the next battle",
    "sit_out": "damaged units sit out the next battle",
}
POINTS_MAX = 1000


class LinkedRules(BaseModel):
    """The campaign's options: reinforcement points for each result, and damaged units' fate."""

    model_config = ConfigDict(frozen=True)

    winner_points: int = Field(50, ge=0, le=POINTS_MAX)
    loser_points: int = Field(30, ge=0, le=POINTS_MAX)
    draw_points: int = Field(40, ge=0, le=POINTS_MAX)
    damaged: DamagedRule = "return"


class UnitRecord(BaseModel):
    """What the campaign remembers of one unit of a side's force."""

    model_config = ConfigDict(frozen=True)

    battles: int = 0  # battles fought
    morale_markers: int = 0  # on it (or its transport) when its last battle ended
    resting: bool = False  # sits out the next battle (option damaged="sit_out")


class LinkedSide(BaseModel):
    """A side of the campaign: its player, its force as it stands, and its books."""

    model_config = ConfigDict(frozen=True)

    player: str
    force: Force
    units: dict[str, UnitRecord] = Field(default_factory=dict)  # by the force's unit labels
    fallen: tuple[ForceUnit, ...] = ()  # units lost in battle, in order
    retired: tuple[ForceUnit, ...] = ()  # units the side took out of its force between battles
    points: int = 0  # reinforcement points in hand
    battles: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def record(self, label: str) -> UnitRecord:
        return self.units.get(label, UnitRecord())


class Battle(BaseModel):
    """A battle of the campaign: the scenario, each side's part, and once fought what it cost."""

    model_config = ConfigDict(frozen=True)

    number: int
    scenario: str
    roles: dict[str, str]
    fielded: dict[str, tuple[str, ...]]  # each side's units that took the field, by label
    winner: str | None = None
    reason: str = ""
    lost: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    damaged: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    earned: dict[str, int] = Field(default_factory=dict)
    unfought: tuple[str, ...] = ()  # sides that conceded before spending a command token
    dice: tuple[PlayerDie, ...] = ()  # every die of the battle, with the player it counts for
    unread_rolls: int = 0  # logged rolls of the battle whose dice could not be read back


class LinkedCampaign(BaseModel):
    """Linked battles in a channel: two sides, the battle being fought, and those fought."""

    model_config = ConfigDict(frozen=True)

    name: str
    rules: LinkedRules = LinkedRules()
    sides: dict[str, LinkedSide]
    battle: Battle | None = None  # set up and not yet over
    history: tuple[Battle, ...] = ()
    ended: bool = False  # the players have ended it: nothing more is fought or bought

    def side(self, name: str) -> LinkedSide:
        if name not in self.sides:
            raise IllegalCommand(f"There is no side {name!r} in {self.name}: choose {' or '.join(SIDES)}")
        return self.sides[name]

    def side_of(self, player: str) -> str | None:
        return next((name for name, side in self.sides.items() if side.player == player), None)


def _with_side(campaign: LinkedCampaign, name: str, side: LinkedSide) -> LinkedCampaign:
    return campaign.model_copy(update={"sides": {**campaign.sides, name: side}})


def _between_battles(campaign: LinkedCampaign, what: str) -> None:
    if campaign.ended:
        raise IllegalCommand(f"{campaign.name} is over: nothing more is fought or bought in it")
    if campaign.battle is not None:
        raise IllegalCommand(f"Battle {campaign.battle.number} is being fought: {what} after it")


# --- setting up ------------------------------------------------------------------------------------


def new_linked_campaign(
    name: str, sides: Mapping[str, tuple[str, Force]], rules: LinkedRules | None = None
) -> LinkedCampaign:
    """A campaign between two players, each with a legal force: ``sides`` maps allies and axis
    to (player, force)."""
    name = " ".join(name.split())
    if not name:
        raise IllegalCommand("Give the campaign a name")
    if set(sides) != set(SIDES):
        raise IllegalCommand("A linked campaign has two sides, allies and axis, each a player with a force")
    if sides["allies"][0] == sides["axis"][0]:
        raise IllegalCommand(f"A player plays one side only: {sides['allies'][0]} is on both")
    for side, (_, force) in sides.items():
        problems = force_problems(force) or ([] if force.units else ["it has no units"])
        if problems:
            raise IllegalCommand(
                f"{side_name(side, start=True)}' force {force.name} is not ready to fight: "
                + "; ".join(problems)
            )
    return LinkedCampaign(
        name=name,
        rules=rules or LinkedRules(),
        sides={side: LinkedSide(player=player, force=force) for side, (player, force) in sides.items()},
    )


# --- a battle --------------------------------------------------------------------------------------


def fielded_force(side: LinkedSide, role: str) -> Force:
    """The units a side takes into a battle in ``role``: all but those resting, and, when it
    does not defend, but its sniper teams (only a defending side may field one, p. 20)."""
    units = tuple(
        unit
        for unit in side.force.units
        if not side.record(unit.label).resting
        and not (not defends(role) and bought_as(side.force, unit.profile).has(Special.SNIPER))
    )
    return side.force.model_copy(update={"units": units})


def battle_problem(campaign: LinkedCampaign, name: str, role: str) -> str | None:
    """Why a side cannot take the field in ``role``, if it cannot."""
    force = fielded_force(campaign.side(name), role)
    if not force.units:
        return f"{side_name(name, start=True)} have no unit fit to fight: buy reinforcements"
    problem = command_unit_problem([u.label for u in force.units if u.command])
    return f"{side_label(name)}: Command unit (p. 18): {problem}" if problem else None


def start_battle(campaign: LinkedCampaign, scenario: str, roles: Mapping[str, str]) -> LinkedCampaign:
    """The campaign fighting its next battle: ``scenario`` with each side in its role."""
    _between_battles(campaign, "set up the next one")
    if set(roles) != set(SIDES):
        raise IllegalCommand("Give each side, allies and axis, its part in the scenario")
    problems = [p for name in SIDES if (p := battle_problem(campaign, name, roles[name]))]
    if problems:
        raise IllegalCommand("Not ready for the next battle: " + "; ".join(problems))
    battle = Battle(
        number=len(campaign.history) + 1,
        scenario=find_scenario(scenario).id,
        roles=dict(roles),
        fielded={
            name: tuple(u.label for u in fielded_force(campaign.sides[name], roles[name]).units)
            for name in SIDES
        },
    )
    return campaign.model_copy(update={"battle": battle})


def joining(campaign: LinkedCampaign, name: str) -> JoinSide:
    """The command that brings a side's fielded force to the battle set up (no points limit:
    linked forces are not held to the scenario's points rule)."""
    battle = campaign.battle
    if battle is None:
        raise IllegalCommand(f"{campaign.name} has no battle set up")
    side = campaign.side(name)
    force = side.force.model_copy(
        update={"units": tuple(u for u in side.force.units if u.label in battle.fielded[name])}
    )
    return JoinSide(side=name, player=side.player, nation=force.nation, units=tuple(force_units(force, name)))


# --- after a battle --------------------------------------------------------------------------------


def _game_names(force: Force, side: str) -> Iterator[tuple[str, str, bool]]:
    """Each game unit the force brings: its id, the label of its force entry, and whether it is
    that entry's transport."""
    labels = {unit.label: unit.label for unit in force.units}
    labels |= {unit.transport_label: unit.label for unit in force.units if unit.transport}
    for unit in force_units(force, side):
        yield unit.id, labels[unit.name], unit.name != labels[unit.name]


def _side_after(
    side: LinkedSide, name: str, fielded: tuple[str, ...], final: GameState, damaged_rule: DamagedRule
) -> tuple[LinkedSide, tuple[str, ...], tuple[str, ...]]:
    """The side once its battle is over, with the labels of the units it lost and of those damaged."""
    force, fallen = side.force, list(side.fallen)
    markers: dict[str, int] = {}
    lost, stripped = [], []
    for unit_id, label, is_transport in _game_names(force, name):
        unit = final.units.get(unit_id)
        if label not in fielded or unit is None:
            continue
        if unit.destroyed:
            (stripped if is_transport else lost).append(label)
        else:
            markers[label] = markers.get(label, 0) + unit.morale_markers
    for label in lost:
        fallen.append(find_unit(force, label))
        force = remove_unit(force, label)
    for label in stripped:
        if label not in lost:
            force = set_transport(force, label, None)
    damaged = tuple(label for label in fielded if label not in lost and markers.get(label, 0))
    units = {}
    for unit in force.units:
        record = side.record(unit.label)
        if unit.label in fielded:
            record = UnitRecord(
                battles=record.battles + 1,
                morale_markers=markers.get(unit.label, 0),
                resting=damaged_rule == "sit_out" and unit.label in damaged,
            )
        else:
            record = record.model_copy(update={"resting": False})
        units[unit.label] = record
    after = side.model_copy(update={"force": force, "fallen": tuple(fallen), "units": units})
    return after, tuple(lost), damaged


def carry_losses(
    campaign: LinkedCampaign, final: GameState, dice: tuple[PlayerDie, ...] = (), unread_rolls: int = 0
) -> LinkedCampaign:
    """The campaign once its battle, ended in ``final``, is over: each side's destroyed units
    gone from its force, its damaged ones noted (and resting, if the campaign says so), and the
    battle added to the history with what it cost and the dice rolled in it. Refused for a game
    that is not the battle."""
    battle = campaign.battle
    if battle is None:
        raise IllegalCommand(f"{campaign.name} has no battle being fought")
    players = {name: campaign.sides[name].player for name in SIDES}
    if (
        final.phase is not Phase.OVER
        or final.result is None
        or final.scenario != battle.scenario
        or set(final.sides) != set(SIDES)
        or any(players[name] not in final.sides[name].players for name in SIDES)
    ):
        raise IllegalCommand(f"That game is not the finished battle {battle.number} of {campaign.name}")
    sides, lost, damaged = {}, {}, {}
    for name in SIDES:
        sides[name], lost[name], damaged[name] = _side_after(
            campaign.sides[name], name, battle.fielded[name], final, campaign.rules.damaged
        )
    fought = battle.model_copy(
        update={
            "winner": final.result.winner,
            "reason": final.result.reason,
            "unfought": tuple(
                name
                for name in SIDES
                if final.result.reason == conceded(name) and not spent_a_token(final, name)
            ),
            "lost": lost,
            "damaged": damaged,
            "dice": dice,
            "unread_rolls": unread_rolls,
        }
    )
    return campaign.model_copy(
        update={"sides": sides, "battle": None, "history": (*campaign.history, fought)}
    )


def earned_points(rules: LinkedRules, side: str, battle: Battle) -> int:
    """Reinforcement points for one side's result (linked battles: the campaign's amounts, none
    for a side that conceded without having fought)."""
    winner = battle.winner
    if side in battle.unfought:
        return 0
    if winner is None:
        return rules.draw_points
    return rules.winner_points if side == winner else rules.loser_points


def award_reinforcements(campaign: LinkedCampaign) -> LinkedCampaign:
    """Each side's reinforcement points and standings after the last battle in the history."""
    fought = campaign.history[-1]
    sides, earned = {}, {}
    for name, side in campaign.sides.items():
        earned[name] = earned_points(campaign.rules, name, fought)
        result = "draws" if fought.winner is None else "wins" if fought.winner == name else "losses"
        sides[name] = side.model_copy(
            update={
                "points": side.points + earned[name],
                "battles": side.battles + 1,
                result: getattr(side, result) + 1,
            }
        )
    history = (*campaign.history[:-1], fought.model_copy(update={"earned": earned}))
    return campaign.model_copy(update={"sides": sides, "history": history})


def end_battle(
    campaign: LinkedCampaign, final: GameState, dice: tuple[PlayerDie, ...] = (), unread_rolls: int = 0
) -> LinkedCampaign:
    """The campaign after its battle ended in ``final``: losses carried, points awarded, the
    battle's dice kept."""
    return award_reinforcements(carry_losses(campaign, final, dice, unread_rolls))


# --- between battles -------------------------------------------------------------------------------


def _new_problems(before: Force, after: Force) -> list[str]:
    """The force-builder restrictions ``after`` breaks that ``before`` kept (by rule and page)."""
    broken = {problem.split(": ", 1)[0] for problem in force_problems(before)}
    return [problem for problem in force_problems(after) if problem.split(": ", 1)[0] not in broken]


def spend_reinforcements(
    campaign: LinkedCampaign, name: str, profile: str, label: str | None = None
) -> LinkedCampaign:
    """A side buys one unit with its reinforcement points, through the force builder. Refused
    when the points in hand are short, or when the unit would break a restriction the force
    keeps. A label a lost or retired unit had is not given again."""
    _between_battles(campaign, "buy")
    side = campaign.side(name)
    spelt = add_unit(side.force, profile).units[-1].profile
    remembered = side.force.model_copy(update={"units": (*side.force.units, *side.fallen, *side.retired)})
    force = add_unit(side.force, spelt, label or next_label(remembered, spelt))
    bought = force.units[-1]
    cost = unit_points(force, bought)
    if cost > side.points:
        raise IllegalCommand(
            f"{side_name(name, start=True)} have {side.points} reinforcement points but {spelt} costs "
            f"{cost}: {cost - side.points} short"
        )
    force = force.model_copy(update={"points_limit": force.points_limit + cost})
    broken = _new_problems(side.force, force)
    if broken:
        raise IllegalCommand(f"{side_name(name, start=True)} cannot buy {spelt}: {'; '.join(broken)}")
    return _with_side(campaign, name, side.model_copy(update={"force": force, "points": side.points - cost}))


def retire_unit(campaign: LinkedCampaign, name: str, label: str) -> LinkedCampaign:
    """A side takes a unit out of its force for good (linked battles: no points back). Refused
    for the force's last unit, or when the force would break a restriction it keeps (its
    command unit: name another first)."""
    _between_battles(campaign, "retire a unit")
    side = campaign.side(name)
    unit = find_unit(side.force, label)
    force = remove_unit(side.force, unit.label)
    if not force.units:
        last = "it is the force's last unit"
        raise IllegalCommand(f"{side_name(name, start=True)} cannot retire {unit.label}: {last}")
    broken = _new_problems(side.force, force)
    if broken:
        raise IllegalCommand(f"{side_name(name, start=True)} cannot retire {unit.label}: {'; '.join(broken)}")
    units = {kept: record for kept, record in side.units.items() if kept != unit.label}
    retired = side.model_copy(update={"force": force, "units": units, "retired": (*side.retired, unit)})
    return _with_side(campaign, name, retired)


def name_command_unit(campaign: LinkedCampaign, name: str, label: str) -> LinkedCampaign:
    """A side makes another of its units the command unit (p. 18), say when its own was lost."""
    _between_battles(campaign, "change the command unit")
    side = campaign.side(name)
    return _with_side(campaign, name, side.model_copy(update={"force": choose_command(side.force, label)}))


def end_campaign(campaign: LinkedCampaign) -> LinkedCampaign:
    """The campaign ended by its players, between battles (a battle being fought is finished or
    conceded first)."""
    _between_battles(campaign, "end the campaign")
    return campaign.model_copy(update={"ended": True})


def campaign_winner(campaign: LinkedCampaign) -> str | None:
    """The side with more wins; None when they have as many (linked battles)."""
    allies, axis = (campaign.sides[name].wins for name in SIDES)
    return None if allies == axis else SIDES[0] if allies > axis else SIDES[1]


# --- what to show ------------------------------------------------------------------------------------


def _unit_text(side: LinkedSide, unit: ForceUnit) -> str:
    notes = ["command"] * unit.command + [f"in a {unit.transport}"] * bool(unit.transport)
    record = side.record(unit.label)
    if record.resting:
        notes.append("resting: damaged")
    return unit.label + (f" ({', '.join(notes)})" if notes else "")


def standings_text(campaign: LinkedCampaign) -> tuple[Line, ...]:
    """Each side's battles, results, points in hand and force as it stands; each player a
    :class:`Mention`."""
    fought = len(campaign.history)
    lines: list[Line] = [
        (
            Strong(campaign.name),
            f"{' (over)' * campaign.ended}: {counted(fought, 'battle')} fought; "
            f"winner {campaign.rules.winner_points}, "
            f"loser {campaign.rules.loser_points}, draw {campaign.rules.draw_points} reinforcement points; "
            f"{DAMAGED_RULES[campaign.rules.damaged]}",
        )
    ]
    for name, side in campaign.sides.items():
        force = side.force
        lines.append(
            (
                f"{side_label(name)} (",
                Mention(side.player),
                f"), {force.name} ({NATION_NAMES[force.nation]}): "
                f"{counted(side.battles, 'battle')}, {counted(side.wins, 'win')}, "
                f"{counted(side.draws, 'draw')}, {counted(side.losses, 'loss', 'losses')}; "
                f"{side.points} reinforcement points; "
                f"force {force_points(force)} points, {counted(len(force.units), 'unit')}",
            )
        )
        lines.append(("   " + (", ".join(_unit_text(side, u) for u in force.units) or "no units left"),))
        if side.fallen:
            lines.append((f"   lost: {', '.join(u.label for u in side.fallen)}",))
        if side.retired:
            lines.append((f"   retired: {', '.join(u.label for u in side.retired)}",))
    if campaign.battle is not None:
        lines.append((f"Battle {campaign.battle.number} ({_title(campaign.battle)}) is being fought",))
    return tuple(lines)


def _title(battle: Battle) -> str:
    return find_scenario(battle.scenario).title


def _names(labels: tuple[str, ...]) -> str:
    return ", ".join(labels) or "nothing"


def battle_line(battle: Battle) -> str:
    """One battle of the history in a line."""
    result = "a draw" if battle.winner is None else f"{side_name(battle.winner)} won"
    sides = "; ".join(
        f"{side_name(name)} lost {_names(battle.lost.get(name, ()))}"
        + (f", damaged {_names(battle.damaged[name])}" if battle.damaged.get(name) else "")
        + (f", +{battle.earned[name]} points" if name in battle.earned else "")
        + (" (conceded before spending a token)" if name in battle.unfought else "")
        for name in SIDES
    )
    return f"{battle.number}. {_title(battle)}: {result} ({battle.reason}); {sides}"


def result_text(campaign: LinkedCampaign) -> Line:
    """How the campaign ended: who took it, by wins (the winner's player a :class:`Mention`)."""
    fought = counted(len(campaign.history), "battle")
    winner = campaign_winner(campaign)
    if winner is None:
        wins = campaign.sides[SIDES[0]].wins
        return (Strong(campaign.name), f" is over after {fought}: a draw, {counted(wins, 'win')} each")
    loser = SIDES[1] if winner == SIDES[0] else SIDES[0]
    return (
        Strong(campaign.name),
        f" is over after {fought}: {side_name(winner)} (",
        Mention(campaign.sides[winner].player),
        f") win the campaign, {counted(campaign.sides[winner].wins, 'win')} to {campaign.sides[loser].wins}",
    )


def history_text(campaign: LinkedCampaign) -> str:
    return "\n".join(battle_line(b) for b in campaign.history) or f"{campaign.name} has fought no battle yet"
