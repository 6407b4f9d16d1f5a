"""Team games (Multi-Player Games, 2015 rulebook p. 25).

Each side has several players, each with a force and its command unit. Every player draws the
normal allocation of tokens for their own units and spends them only on those units. One player
per side is the commanding officer (CO), represented on the table by an infantry unit acting as a
command unit. At the very start of each turn the CO hands out four bonus tokens among the side's
players; once the CO's unit is lost there are no more. The reserves are a pool the CO holds:
players ask for a unit, the CO grants or refuses, and a granted unit is brought on with the
asking player's own tokens in the usual way.

Our readings, where the book leaves it open:
- the side-wide token changes of a scenario (Aggressive Command, Capture's extra dice, the house
  rules' quality dice) go to the CO's own hand;
- bonus tokens still in the CO's hand when the side first spends or passes are given out by the
  game's rule: ``even`` (one at a time to whoever holds fewest, in joining order) or ``co`` (all
  to the CO's own units);
- the CO's unit lost during a turn takes any bonus tokens not yet handed out with it;
- a granted reserve unit becomes available at once, and like any called reserve it must come on
  this turn or is lost (p. 26).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.battlefield import tokens_for_turn
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.game_state import GameState
from engine.state import ReserveRequest, Side, Team, Unit
from engine.view import UNTOLD
from engine.wording import counted, side_name

BONUS_TOKENS = 4  # the CO's extra tokens each turn (p. 25)


def team_of(state: GameState, side: str) -> Team | None:
    return state.sides[side].team


def co_unit(state: GameState, side: str) -> Unit | None:
    """The infantry unit that represents the side's CO on the table (p. 25)."""
    team = team_of(state, side)
    if team is None:
        return None
    return next((u for u in state.units_of(side) if u.player == team.co and u.is_command), None)


def co_lost(state: GameState, side: str) -> bool:
    unit = co_unit(state, side)
    return unit is None or unit.destroyed


def check_co_force(units: Iterable[Unit]) -> None:
    """The CO's force must hold an infantry command unit to represent the CO (p. 25)."""
    command = [u for u in units if u.is_command]
    if not command or command[0].is_vehicle:
        raise IllegalCommand(
            "The commanding officer needs an infantry command unit to stand for them on the table (p. 25)"
        )


def player_units(state: GameState, side: str, player: str) -> list[Unit]:
    return [u for u in state.units_of(side) if u.player == player]


def draw_team_tokens(state: GameState, side: str, side_total: int, log: EventLog) -> None:
    """Each player draws the normal allocation for their own units (p. 4, p. 25); whatever the
    scenario adds to or takes from the side's total goes to the CO. Then the CO's four bonus
    tokens, unless the CO's unit is lost."""
    team = state.sides[side].team
    assert team is not None
    own = {player: tokens_for_turn(player_units(state, side, player)) for player in state.sides[side].players}
    scenario_change = side_total - tokens_for_turn(state.units_of(side))
    own[team.co] = max(0, own[team.co] + scenario_change)
    team.tokens = own
    state.sides[side].tokens = sum(own.values())
    hands = ", ".join(f"{player} {count}" for player, count in own.items())
    log.emit("tokens", f"{side_name(side, start=True)}' players draw their tokens: {hands}", side=side)
    if co_lost(state, side):
        team.bonus = 0
        log.emit(
            "tokens",
            f"{side_name(side, start=True)}' commanding officer is lost: no bonus tokens this turn (p. 25)",
            side=side,
        )
    else:
        team.bonus = BONUS_TOKENS
        log.emit(
            "tokens",
            f"{team.co}, {side_name(side)}' commanding officer, has {BONUS_TOKENS} bonus tokens "
            "to hand out (/team give)",
            side=side,
            kept=UNTOLD,
        )


def lose_co_bonus(state: GameState, unit: Unit, log: EventLog) -> None:
    """The CO's unit is lost: bonus tokens not yet handed out go with it (p. 25)."""
    team = team_of(state, unit.side)
    if team is None or not team.bonus or unit.player != team.co or not unit.is_command:
        return
    team.bonus = 0
    log.emit(
        "tokens",
        f"{side_name(unit.side, start=True)}' commanding officer is lost, and the bonus tokens not yet given",
        side=unit.side,
    )


def give_bonus_tokens(
    state: GameState, side: str, player: str, shares: Iterable[tuple[str, int]], log: EventLog
) -> None:
    """The CO hands out bonus tokens at the start of the turn (p. 25)."""
    team = _team(state, side)
    if player != team.co:
        raise IllegalCommand(
            f"Only {side_name(side)}' commanding officer, {team.co}, hands out the bonus tokens"
        )
    if co_lost(state, side):
        raise IllegalCommand("The commanding officer is lost, and the bonus tokens with them (p. 25)")
    shares = list(shares)
    for receiver, count in shares:
        if receiver not in state.sides[side].players:
            raise IllegalCommand(f"{receiver} is not one of {side_name(side)}' players")
        if count < 1:
            raise IllegalCommand("Give each player at least one token, or leave them out")
    total = sum(count for _, count in shares)
    if not shares or total > team.bonus:
        raise IllegalCommand(
            f"The commanding officer has {counted(team.bonus, 'bonus token')} to hand out, not {total}"
        )
    for receiver, count in shares:
        _add(state.sides[side], receiver, count)
    team.bonus -= total
    given = ", ".join(f"{count} to {receiver}" for receiver, count in shares)
    log.emit("tokens", f"{team.co} hands out bonus tokens: {given} ({team.bonus} left)", side=side)


def bonus_to_hand_out(state: GameState, side: str) -> int:
    """The bonus tokens :func:`hand_out_unclaimed_bonus` would give the side's players now."""
    team = team_of(state, side)
    return 0 if team is None or co_lost(state, side) else team.bonus


def hand_out_unclaimed_bonus(state: GameState, side: str, log: EventLog) -> None:
    """Bonus tokens still in hand once the side begins to act are given out by the game's rule
    (see the module's readings)."""
    team = team_of(state, side)
    if team is None or team.bonus == 0:
        return
    if co_lost(state, side):
        team.bonus = 0
        return
    players = [p for p in state.sides[side].players if p == team.co or _has_units(state, side, p)]
    shares: dict[str, int] = {}
    for _ in range(team.bonus):
        if team.bonus_rule == "co":
            receiver = team.co
        else:
            receiver = min(
                players, key=lambda p: (team.tokens.get(p, 0) + shares.get(p, 0), players.index(p))
            )
        shares[receiver] = shares.get(receiver, 0) + 1
    for receiver, count in shares.items():
        _add(state.sides[side], receiver, count)
    team.bonus = 0
    given = ", ".join(f"{count} to {receiver}" for receiver, count in shares.items())
    log.emit(
        "tokens",
        f"{team.co} did not hand out the bonus tokens before {side_name(side)} acted: the game gives them "
        f"out ({team.bonus_rule}): {given}",
        side=side,
    )


def paying_player(state: GameState, side: str, unit_ids: Iterable[str], player: str | None) -> str | None:
    """Whose tokens pay for an order in a team game (None in other games): the player whose units
    it orders, as tokens may only be spent on their owner's units (p. 25)."""
    team = team_of(state, side)
    if team is None:
        return None
    owners = {state.units[u].player for u in unit_ids}
    if player is not None and owners - {player}:
        names = ", ".join(sorted(state.units[u].name for u in unit_ids if state.units[u].player != player))
        raise IllegalCommand(
            f"{names}: not your units. Tokens are spent only on their own player's units (p. 25)"
        )
    if len(owners) > 1:
        raise IllegalCommand("One order cannot spend tokens of two players (p. 25)")
    payer = player or (next(iter(owners)) if owners else None)
    if payer is None:
        raise IllegalCommand("In a team game, say which player's tokens pay for this")
    if team.tokens.get(payer, 0) < 1:
        raise IllegalCommand(f"{payer} has no command tokens left")
    return payer


def spend_token(state: GameState, side: str, payer: str | None, log: EventLog) -> None:
    """One token from the side's hand; in a team game from the paying player's own."""
    hand_out_unclaimed_bonus(state, side, log)
    state.sides[side].tokens -= 1
    team = team_of(state, side)
    if team is not None and payer is not None:
        team.tokens[payer] -= 1


def request_reserve(state: GameState, side: str, player: str, unit_id: str, log: EventLog) -> None:
    """A player asks the CO for a unit of the reserve pool (p. 25)."""
    team = _team(state, side)
    unit = _reserve_unit(state, side, unit_id)
    if player not in state.sides[side].players:
        raise IllegalCommand(f"{player} is not one of {side_name(side)}' players")
    if any(r.unit == unit.id for r in team.requests):
        raise IllegalCommand(f"{unit.name} has already been asked for")
    team.requests.append(ReserveRequest(unit=unit.id, player=player))
    log.emit(
        "reserves", f"{player} asks the commanding officer for {unit.name}", unit.id, side=side, kept=UNTOLD
    )


def answer_reserve(
    state: GameState, side: str, player: str, unit_id: str, grant: bool, log: EventLog
) -> None:
    """The CO grants or refuses a request; a granted unit becomes the asking player's, ready to
    come on with their tokens (p. 25)."""
    team = _team(state, side)
    if player != team.co:
        raise IllegalCommand(
            f"Only {side_name(side)}' commanding officer, {team.co}, answers requests for reserves"
        )
    request = next((r for r in team.requests if r.unit == unit_id), None)
    if request is None:
        raise IllegalCommand("Nobody has asked for that unit")
    team.requests.remove(request)
    unit = state.units[unit_id]
    if not grant:
        refused = f"{team.co} refuses {request.player} {unit.name}"
        log.emit("reserves", refused, unit.id, side=side, kept=UNTOLD)
        return
    unit.player, unit.reserve_available = request.player, True
    log.emit(
        "reserves",
        f"{team.co} sends {unit.name} to {request.player}: it comes on with their tokens this turn",
        unit.id,
        side=side,
        kept=UNTOLD,
    )


def _reserve_unit(state: GameState, side: str, unit_id: str) -> Unit:
    unit = state.units.get(unit_id)
    if unit is None or unit.side != side or not unit.in_reserve or unit.destroyed or unit.reserve_available:
        raise IllegalCommand(f"{side_name(side, start=True)}' reserve pool holds no unit {unit_id!r}")
    return unit


def _team(state: GameState, side: str) -> Team:
    if side not in state.sides or (team := state.sides[side].team) is None:
        raise IllegalCommand("This is not a team game")
    return team


def _has_units(state: GameState, side: str, player: str) -> bool:
    return any(u.on_table or u.reserve_available for u in player_units(state, side, player) if not u.dummy)


def _add(side: Side, player: str, count: int) -> None:
    assert side.team is not None
    side.team.tokens[player] = side.team.tokens.get(player, 0) + count
    side.tokens += count


def make_team_game(state: GameState, players_per_side: int, bonus_rule: str = "even") -> None:
    """Make a game being set up a team game: each side waits for that many forces (p. 25)."""
    if players_per_side < 2:
        raise IllegalCommand("A team game has at least two players a side")
    if bonus_rule not in ("even", "co"):
        raise IllegalCommand("Bonus tokens the CO leaves go out 'even' or all to the 'co'")
    state.team_size = players_per_side
    for side in state.sides.values():
        side.team = Team(co="", bonus_rule=bonus_rule)


def join_team(state: GameState, side: str, player: str, units: tuple[Unit, ...]) -> list[Unit]:
    """A player brings a force to a side of a team game: the first to join is the side's CO,
    whose force must hold an infantry command unit. Units whose ids are already on the side take
    the player's place on it after them ("allies-sherman-1-2"); their names say whose they are
    (:func:`engine.unit_names.names_apart`)."""
    team = _team(state, side)
    joined = state.sides[side].players
    if not team.co:
        check_co_force(units)
        team.co = player
    taken = {u.id for u in state.units.values()}
    renamed = {u.id: f"{u.id}-{len(joined) + 1}" for u in units if u.id in taken}
    return [
        unit.model_copy(
            update={
                "id": renamed.get(unit.id, unit.id),
                "transport": renamed.get(unit.transport, unit.transport) if unit.transport else None,
                "player": player,
            }
        )
        for unit in units
    ]


def check_room_in_team(state: GameState, side: str) -> None:
    if state.team_size and len(state.sides[side].players) >= state.team_size:
        raise IllegalCommand(f"{side_name(side, start=True)} already have their {state.team_size} players")


def teams_complete(state: GameState) -> bool:
    """Every side has all its players (and so its forces)."""
    return all(len(side.players) == state.team_size for side in state.sides.values())
