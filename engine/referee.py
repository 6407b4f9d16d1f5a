"""The referee's hand on the game (2015 rulebook p. 25: a referee plans the scenario and
adjudicates what the rules do not foresee).

A referee may correct anything: where a unit stands, its markers, a player's tokens, the turn,
who has the initiative, whether a unit is hidden, destroyed or back in play, and which player
commands a force. Each correction is an event carrying the referee's reason. What the table is
told never says more than it may know: a hidden unit is named by its marker, and hiding a unit
again does not say which one went under the marker.

Undoing actions rebuilds the game from its log without them (the service does the rebuilding);
the engine's part is the logged event and :func:`live_history`, which says which of the log's
commands still count.

The referee also runs the clock: the bot keeps the times, the engine checks and logs each
request. Clock requests are not actions an undo takes back (the time they stopped or gave is
gone either way).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.commands import (
    AppointReferee,
    Command,
    DeclineReaction,
    PassInitiative,
    RefereeClock,
    RefereeCorrection,
    RefereeRuling,
    UndoActions,
)
from engine.deployment.hidden import hide_under_marker, reveal_marker, under_marker
from engine.errors import IllegalCommand
from engine.events import Event, EventLog
from engine.firing.losses import destroy
from engine.game_state import GameState
from engine.roster import remember_name
from engine.state import STAND_IN, STAND_IN_NAME, Phase, Side, Unit
from engine.view import one_of_its_side, under_its_marker
from engine.wording import counted, side_name

DEADLINE_HOURS = 168  # the longest a referee's deadline for an absent side may run
PLAYS_NO_SIDE = "a referee sees everything and plays no side (p. 25)"


def check_referee(state: GameState, user: str) -> None:
    if user not in state.referees:
        raise IllegalCommand("Only the game's referees may do that")


def correct(state: GameState, command: RefereeCorrection, log: EventLog) -> None:
    """Apply one referee correction and log it with the referee's reason (a side handed to the
    bot or back may also be its player's, or the bot's own: :func:`_stand_in`)."""
    if command.change != "stand_in":
        check_referee(state, command.referee)
    if not command.reason.strip():
        raise IllegalCommand("Give a reason: every correction is logged with it")
    CORRECTIONS[command.change](state, command, log)


def rule(state: GameState, command: RefereeRuling, log: EventLog) -> None:
    """Log a ruling on a situation the rules do not cover."""
    check_referee(state, command.referee)
    if not command.ruling.strip():
        raise IllegalCommand("Write the ruling out")
    log.emit("referee", f"Referee's ruling: {command.ruling}")


def appoint_referee(state: GameState, command: AppointReferee, log: EventLog) -> None:
    """A user takes a referee's seat at the game, or leaves it (p. 25: the referee sees and
    adjudicates everything, so no player of the game may be one). Who may appoint is the
    bot's business; the seat is logged, and an undo never takes it back."""
    user = command.user
    if not command.appoint:
        if user not in state.referees:
            raise IllegalCommand(f"{user} is not a referee of this game")
        state.referees.remove(user)
        log.emit("referee", f"{user} is no longer a referee of this game (by {command.by})")
        return
    if user in state.referees:
        raise IllegalCommand(f"{user} is already a referee of this game")
    playing = next((name for name, side in state.sides.items() if user in side.players), None)
    if playing is not None:
        raise IllegalCommand(f"{user} plays {playing}: a player cannot referee the same game")
    state.referees.append(user)
    log.emit("referee", f"{user} is a referee of this game (by {command.by})")


def note_undo(state: GameState, command: UndoActions, log: EventLog) -> None:
    """The game has been rebuilt without the undone actions; this logs why."""
    check_referee(state, command.referee)
    count = len(command.undone)
    log.emit("referee", f"The referee takes back the last {counted(count, 'action')}: {command.reason}")


def live_history(
    history: Sequence[tuple[Command, list[Event]]], first: int = 1
) -> list[tuple[Command, list[Event]]]:
    """The commands of a game's log that still count: all but those a later undo took back
    (positions in the log count from 1; ``first`` is the position of ``history``'s first entry,
    for the part of a log after a snapshot), and the referee's clock requests, which change
    nothing in the game and could not be asked again of a game rebuilt without the window they
    timed."""
    undone = _undone(history)
    return [
        entry
        for n, entry in enumerate(history, start=first)
        if n not in undone and not isinstance(entry[0], RefereeClock)
    ]


def live_actions(history: Sequence[tuple[Command, list[Event]]], first: int = 1) -> list[int]:
    """The log positions of the actions still in force, which an undo may take back (undos,
    clock requests and referees' seats aside)."""
    undone = _undone(history)
    return [
        n
        for n, (command, _) in enumerate(history, start=first)
        if n not in undone and not isinstance(command, UndoActions | RefereeClock | AppointReferee)
    ]


def actions_to_undo(
    history: Sequence[tuple[Command, list[Event]]], count: int, first: int = 1
) -> tuple[int, ...]:
    """The log positions of the last ``count`` actions still in force."""
    live = live_actions(history, first)
    if not 1 <= count <= len(live):
        raise IllegalCommand(f"There are {len(live)} actions to take back; choose 1 to {len(live)}")
    return tuple(live[-count:])


def run_clock(state: GameState, command: RefereeClock, log: EventLog) -> None:
    """Log a referee's clock request, once it makes sense for the game as it stands."""
    check_referee(state, command.referee)
    if command.action == "pause":
        log.emit(
            "referee", "Referee: the clock stops; no reaction window or deadline runs out until it runs again"
        )
    elif command.action == "resume":
        log.emit("referee", "Referee: the clock runs again")
    elif command.action == "extend":
        if state.phase is not Phase.REACTION or state.pending is None:
            raise IllegalCommand("No reaction window is open")
        minutes = command.minutes or 0
        if minutes < 1:
            raise IllegalCommand("Give the minutes to add, 1 or more")
        longer = f"{counted(minutes, 'minute')} longer"
        log.emit("referee", f"Referee: the reaction window stays open {longer}")
    else:
        side, hours = command.side or "", command.hours or 0
        on_time = pass_for_absent(state, side)
        if on_time is None:
            raise IllegalCommand(
                f"The game is not waiting for {side_name(side) if side else 'that side'} to act or react: "
                "a deadline can only pass the initiative or decline a reaction for an absent player"
            )
        if not 0 < hours <= DEADLINE_HOURS:
            raise IllegalCommand(f"Give the hours they have: more than 0 and at most {DEADLINE_HOURS}")
        what = "passes the initiative" if isinstance(on_time, PassInitiative) else "declines the reaction"
        log.emit(
            "referee", f"Referee: {side_name(side)} have {hours:g} hours to act, or the game {what} for them"
        )


def pass_for_absent(state: GameState, side: str) -> PassInitiative | DeclineReaction | None:
    """What the game does for a side whose players stay away past the referee's deadline (p. 25):
    pass the initiative it holds, or decline the reaction window open for it. None when the game
    is not waiting for that side to do one of these."""
    if state.phase is Phase.ACTIVE and state.active_side == side:
        return PassInitiative(side=side)
    if state.phase is Phase.REACTION and state.pending and state.pending.reactor_side == side:
        return DeclineReaction(side=side, window=state.pending.window)
    return None


def _undone(history: Sequence[tuple[Command, list[Event]]]) -> set[int]:
    return {n for command, _ in history if isinstance(command, UndoActions) for n in command.undone}


# --- the corrections -----------------------------------------------------------------------


def _move(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    unit = _unit(state, c)
    if c.at is None:
        raise IllegalCommand("Say where the unit goes (at:x,y)")
    if not (0 <= c.at.x <= state.table.width and 0 <= c.at.y <= state.table.depth):
        raise IllegalCommand(f"{c.at} is off the table")
    unit.position, unit.in_reserve, unit.reserve_available = c.at, False, False
    if c.facing is not None:
        unit.facing = c.facing % 360
    _tell(log, unit, f"puts {{}} at {c.at}", c.reason)


def _markers(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    unit = _unit(state, c)
    unit.morale_markers = _count(c)
    _tell(log, unit, f"sets {{}}'s morale markers to {unit.morale_markers}", c.reason)


def _tokens(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    side = state.sides.get(c.side or "")
    if side is None:
        raise IllegalCommand(f"Name the side: {' or '.join(state.sides)}")
    count = _count(c)
    if side.team is None:
        side.tokens = count
        whose = side.name
    else:
        if c.player not in side.players:
            raise IllegalCommand(f"Name the player: one of {', '.join(side.players)}")
        side.team.tokens[c.player] = count
        side.tokens = sum(side.team.tokens.values())
        whose = c.player
    log.emit("referee", f"Referee: {whose} has {counted(count, 'token')} in hand ({c.reason})")


def _turn(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    if c.value is None or c.value < 1:
        raise IllegalCommand("Give the turn number, 1 or more")
    state.turn = c.value
    log.emit("referee", f"Referee: it is turn {c.value} ({c.reason})")


def _initiative(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    if c.side not in state.sides:
        raise IllegalCommand(f"Name the side: {' or '.join(state.sides)}")
    if state.phase is not Phase.ACTIVE or state.pending is not None:
        raise IllegalCommand("The initiative can be given only between actions")
    state.active_side, state.spent_since_initiative = c.side, 0
    log.emit("referee", f"Referee: {side_name(c.side)} have the initiative ({c.reason})")


def _reveal(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    unit = _unit(state, c)
    if under_marker(unit):
        reveal_marker(state, unit, log, f"by the referee: {c.reason}")
    elif unit.hidden:
        unit.hidden, unit.decoy = False, None
        log.emit("referee", f"Referee: {unit.name} is revealed at {unit.position} ({c.reason})", unit.id)
    else:
        raise IllegalCommand(f"{unit.name} is not hidden")


def _hide(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    unit = _unit(state, c)
    if unit.hidden or unit.destroyed:
        raise IllegalCommand(
            f"{unit.name} cannot be hidden: it is {'hidden' if unit.hidden else 'destroyed'}"
        )
    name = unit.name
    number = hide_under_marker(state, unit)
    log.emit(
        "referee",
        f"Referee: {name} is hidden again, as Marker {number} ({c.reason})",
        unit.id,
        side=unit.side,
        kept=one_of_its_side(name, unit.side),
    )


def _destroy(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    unit = _unit(state, c)
    if unit.destroyed:
        raise IllegalCommand(f"{unit.name} is already destroyed")
    destroy(state, unit, log, f"Referee: {unit.true_name or unit.name} is destroyed ({c.reason})")


def _restore(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    unit = _unit(state, c, destroyed=True)
    if not unit.destroyed or unit.dummy:
        raise IllegalCommand(f"{unit.name} is not a destroyed unit")
    unit.destroyed = False
    log.emit("referee", f"Referee: {unit.name} is back in play {_where(state, unit)} ({c.reason})", unit.id)


def _where(state: GameState, unit: Unit) -> str:
    """Where a unit put back in play is: in reserve, aboard its transport, or at its place on
    the table."""
    if unit.in_reserve:
        return "in reserve, off the table"
    if unit.embarked_in is not None:
        return f"aboard {state.units[unit.embarked_in].name}"
    return f"at {unit.position}"


def _give_units(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    """An absent player's units (and seat) go to another player: one already on the side takes
    them over, anyone else takes the absent player's place."""
    side = next((s for s in state.sides.values() if c.player in s.players), None)
    if side is None or not c.to:
        raise IllegalCommand("Name the absent player (player:) and who takes over (to:)")
    if any(c.to in s.players for s in state.sides.values() if s is not side):
        raise IllegalCommand(f"{c.to} plays the other side")
    if c.to in state.referees:
        raise IllegalCommand(f"{c.to} referees this game: {PLAYS_NO_SIDE}")
    _hand_units(state, side.name, c.player, c.to)
    if c.to in side.players:
        side.players.remove(c.player)
    else:
        side.players[side.players.index(c.player)] = c.to
    remember_name(state, c.to, c.to_name)
    if side.team is not None:
        side.team.tokens[c.to] = side.team.tokens.get(c.to, 0) + side.team.tokens.pop(c.player, 0)
        side.team.co = c.to if side.team.co == c.player else side.team.co
        for request in side.team.requests:
            request.player = c.to if request.player == c.player else request.player
    log.emit("referee", f"Referee: {c.to} takes over {c.player}'s units on {side.name} ({c.reason})")


def _stand_in(state: GameState, c: RefereeCorrection, log: EventLog) -> None:
    """The bot plays a side for its player (``value`` 1), or hands it back to them (0): the
    seat and the units change hands as with :func:`_give_units`, and the player is remembered,
    with who handed the side over (``referee``: a referee, the side's own player, or the bot
    itself after missed deadlines, :data:`STAND_IN`)."""
    side = state.sides.get(c.side or "")
    if side is None:
        raise IllegalCommand("Name the side the bot is to play, or to hand back (side:)")
    if side.team is not None:
        raise IllegalCommand("The bot does not play for a team's side: hand the units to a team-mate")
    name = side_name(side.name)
    _may_hand(state, side, c)
    if c.value:
        if side.players == [STAND_IN]:
            raise IllegalCommand(f"The bot already plays {name}")
        if len(side.players) != 1:
            raise IllegalCommand(
                f"{side_name(side.name, start=True)} have no player for the bot to stand in for"
            )
        player = side.players[0]
        side.stood_in_for, side.stood_in_by, side.players = player, c.referee, [STAND_IN]
        remember_name(state, STAND_IN, STAND_IN_NAME)
        _hand_units(state, side.name, player, STAND_IN)
        told = {
            player: f"{player} hands {name} to the bot",
            STAND_IN: f"The bot plays {name} for {player} ({c.reason})",
        }.get(c.referee, f"Referee: the bot plays {name} for {player} ({c.reason})")
        log.emit("referee", told, side=side.name)
        return
    if side.stood_in_for is None:
        raise IllegalCommand(f"The bot does not play {name} for anyone")
    player, side.stood_in_for, side.stood_in_by = side.stood_in_for, None, None
    side.players = [player]
    _hand_units(state, side.name, STAND_IN, player)
    told = {
        player: f"{player} takes {name} back from the bot",
        STAND_IN: f"{player} is back: they play {name} again",
    }.get(c.referee, f"Referee: {player} plays {name} again ({c.reason})")
    log.emit("referee", told, side=side.name)


def _may_hand(state: GameState, side: Side, c: RefereeCorrection) -> None:
    """Who may hand a side to the bot, or back: a referee; its own player (back, only what they or
    the bot handed over); the bot itself, in a game that hands sides over after missed deadlines
    (``stand_in_after``), and back only what it took over so."""
    by, name = c.referee, side_name(side.name)
    if by in state.referees:
        return
    if by == STAND_IN:
        if c.value and not state.stand_in_after:
            raise IllegalCommand("This game hands no side to the bot by itself")
        if not c.value and side.stood_in_by != STAND_IN:
            raise IllegalCommand(f"The bot did not take {name} over by itself")
        return
    if c.value and side.players == [by]:
        return
    if not c.value and side.stood_in_for == by:
        if side.stood_in_by not in (by, STAND_IN):
            raise IllegalCommand(f"A referee handed {name} to the bot: a referee hands it back")
        return
    raise IllegalCommand("Only the game's referees, or the side's own player, may do that")


def _hand_units(state: GameState, side: str, player: str, to: str) -> None:
    for unit in state.units_of(side):
        if unit.player == player:
            unit.player = to


CORRECTIONS = {
    "move": _move,
    "markers": _markers,
    "tokens": _tokens,
    "turn": _turn,
    "initiative": _initiative,
    "reveal": _reveal,
    "hide": _hide,
    "destroy": _destroy,
    "restore": _restore,
    "give_units": _give_units,
    "stand_in": _stand_in,
}


def _unit(state: GameState, c: RefereeCorrection, destroyed: bool = False) -> Unit:
    unit = state.units.get(c.unit or "")
    if unit is None or (unit.destroyed and not destroyed):
        raise IllegalCommand(f"There is no unit {c.unit!r} in play")
    return unit


def _count(c: RefereeCorrection) -> int:
    if c.value is None or c.value < 0:
        raise IllegalCommand("Give a number, 0 or more (value:)")
    return c.value


def _tell(log: EventLog, unit: Unit, what: str, reason: str) -> None:
    """Log a correction to a unit: its true name for its side and the referee, its marker's
    name for everyone else."""
    true = f"Referee {what.format(unit.true_name or unit.name)} ({reason})"
    log.emit("referee", true, unit.id, side=unit.side, kept=under_its_marker(unit))
