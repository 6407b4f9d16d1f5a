"""Who may send which command: one table for every command and button.

A user's role is worked out against the side a command acts for: a player of that side (in a
team game only for their own units), its commanding officer, a player of the other side, a
spectator, a referee of the game (named, or holding one of the game's referee roles on the
server), or a server admin (Manage Server). A refusal says why and changes nothing.

A server admin's one power over a game is its referees: appointing or dismissing them, say when
a game's referee has gone. A holder of a referee role takes a referee's seat (logged) before
their first referee's command, as the engine knows referees only by name.

A referee never holds a side (p. 25: the referee sees what each side may not): a referee cannot
join one, and a player who holds a referee role is no referee of their own game (nor can a
player take a referee's seat: the engine refuses it). A side's seats are taken only while the
game is being set up (the engine's rule); later they change hands only through the referee.

A game nobody has joined (the console's hot-seat table) lets anyone act for either side. A game
set up with referees is theirs until its players join: the table holds for it from the start
(so only they start it while nobody plays a side), and only they change its turn pings' delay or
set up another game in its place (:func:`held_by_referees`).
"""

from __future__ import annotations

from collections.abc import Collection
from enum import StrEnum

from bot.set_up_steps import how_to_join
from engine.commands import Command, Declare, Deploy, FinishDeployment, React
from engine.game_state import GameState
from engine.referee import PLAYS_NO_SIDE
from engine.wording import side_name


class Role(StrEnum):
    PLAYER = "player of the side"
    CO = "commanding officer of the side"
    OTHER_SIDE = "player of the other side"
    SPECTATOR = "spectator"
    REFEREE = "referee"
    ADMIN = "server admin"


class Refused(Exception):
    """The user may not send this command; the text says why."""


SIDES_OWN = frozenset({Role.PLAYER})
MATRIX: dict[str, frozenset[Role]] = {
    "join_side": frozenset(Role),
    "start_game": frozenset({Role.PLAYER, Role.REFEREE}),
    "deal_cards": frozenset({Role.PLAYER, Role.REFEREE}),
    "deploy": SIDES_OWN,
    "finish_deployment": SIDES_OWN,
    "call_reserves": SIDES_OWN,
    "choose_initiative": SIDES_OWN,
    "declare": SIDES_OWN,
    "react": SIDES_OWN,
    "remove_markers": SIDES_OWN,
    "choose_target": SIDES_OWN,
    "choose_fall_back": SIDES_OWN,  # House Rules V1.0, s. 6: a vehicle attacked in close combat
    "choose_defender": SIDES_OWN,  # House Rules V1.0, s. 6: who defends an assaulted building
    "card": SIDES_OWN,
    "request_reserve": SIDES_OWN,
    "concede": SIDES_OWN,
    "decline_reaction": frozenset({Role.PLAYER, Role.REFEREE}),  # a referee passes for an absent player
    "pass_initiative": frozenset({Role.PLAYER, Role.REFEREE}),
    "give_bonus_tokens": frozenset({Role.CO}),
    "answer_reserve": frozenset({Role.CO}),
    "referee_correction": frozenset({Role.REFEREE}),
    "referee_ruling": frozenset({Role.REFEREE}),
    "undo_actions": frozenset({Role.REFEREE}),
    "referee_clock": frozenset({Role.REFEREE}),
    "referee_objective": frozenset({Role.REFEREE}),
    "referee_special_rule": frozenset({Role.REFEREE}),
    "referee_briefing": frozenset({Role.REFEREE}),
    "referee_force_guideline": frozenset({Role.REFEREE}),
    "referee_deployment_zone": frozenset({Role.REFEREE}),
    "appoint_referee": frozenset({Role.REFEREE, Role.ADMIN}),
}

# Roles that bar a command whatever other role the user holds, and why: a referee (named, or
# holding a referee role) sees every side's secrets, so takes no seat on a side (p. 25). Who
# joins when is the engine's rule: only while the game is being set up.
BARRED: dict[str, tuple[frozenset[Role], str]] = {
    "join_side": (frozenset({Role.REFEREE}), f"You referee this game: {PLAYS_NO_SIDE}"),
}


def roles_of(
    state: GameState,
    user: str,
    side: str | None,
    *,
    admin: bool = False,
    server_roles: Collection[str] = (),
) -> set[Role]:
    """Every role ``user`` holds for a command acting for ``side`` (None: for the game as a whole,
    where playing either side counts as a player). ``server_roles``: the ids of the server roles
    the user holds, on Discord."""
    roles = {Role.ADMIN} if admin else set()
    playing = next((name for name, s in state.sides.items() if user in s.players), None)
    if playing is None:
        roles.add(Role.SPECTATOR)
        if user in state.referees or set(server_roles) & set(state.referee_roles):
            roles.add(Role.REFEREE)  # a player holding a referee role is no referee of their game
    elif side is None or playing == side:
        roles.add(Role.PLAYER)
        team = state.sides[playing].team
        if team is not None and team.co == user:
            roles.add(Role.CO)
    else:
        roles.add(Role.OTHER_SIDE)
    return roles


def authorise(
    state: GameState,
    user: str,
    command: Command,
    *,
    admin: bool = False,
    server_roles: Collection[str] = (),
) -> Command:
    """Check ``command`` against the table; return it as the engine should see it (in a team
    game an order carries the player whose tokens pay). Raises :class:`Refused`."""
    if command.kind == "join_side" and command.player != user:
        raise Refused("You can only join a side yourself")
    if getattr(command, "by", user) != user:
        raise Refused("You can only act as yourself")
    side = getattr(command, "side", None)
    roles = roles_of(state, user, side, admin=admin, server_roles=server_roles)
    barred, why = BARRED.get(command.kind, (frozenset(), ""))
    if roles & barred:
        raise Refused(why)
    if not joined(state) and not has_referees(state) and command.kind not in _REFEREE_ONLY:
        return command  # the hot-seat table: nobody has joined yet
    allowed = MATRIX[command.kind]
    if command.kind == "start_game" and Role.REFEREE not in roles:
        empty = [name for name, s in state.sides.items() if not s.players]
        if empty:
            raise Refused(f"Nobody is playing {', '.join(empty)} yet: /game join first")
    if not roles & allowed:
        newcomer = roles <= {Role.SPECTATOR, Role.ADMIN}  # plays no side, referees nothing
        raise Refused(_why(command.kind, side, allowed) + (f". {how_to_join(state)}" if newcomer else ""))
    if getattr(command, "player", None) not in (None, user) and Role.REFEREE not in roles:
        raise Refused("You can only act as yourself")
    if Role.PLAYER in roles and side in state.sides and state.sides[side].team is not None:
        return _own_units_only(state, user, command)
    return command


def held_by_referees(state: GameState, user: str, server_roles: Collection[str] = ()) -> bool:
    """Whether ``state`` is a game with referees (named or by a server role) that nobody has
    joined yet, and ``user`` is not one of them: the table is not open to all, as a hot-seat
    game is."""
    if joined(state) or not has_referees(state):
        return False
    return Role.REFEREE not in roles_of(state, user, None, server_roles=server_roles)


def joined(state: GameState) -> bool:
    """Whether anyone plays a side of the game."""
    return any(side.players for side in state.sides.values())


def has_referees(state: GameState) -> bool:
    """Whether the game has referees, named or by a server role."""
    return bool(state.referees or state.referee_roles)


_REFEREE_ONLY = {kind for kind, roles in MATRIX.items() if roles <= {Role.REFEREE, Role.ADMIN}}


def _own_units_only(state: GameState, user: str, command: Command) -> Command:
    """In a team game a player orders and sets up only their own units, and is done setting up
    only their own (p. 25)."""
    if isinstance(command, Deploy):
        if state.units.get(command.unit) and state.units[command.unit].player != user:
            raise Refused(f"{state.units[command.unit].name} is another player's unit")
        return command
    if isinstance(command, Declare | React | FinishDeployment):
        return command.model_copy(update={"player": user})
    return command


def _why(kind: str, side: str | None, allowed: frozenset[Role]) -> str:
    if allowed == {Role.REFEREE}:
        return "Only the game's referees may do that"
    if allowed == {Role.REFEREE, Role.ADMIN}:
        return "Only the game's referees or a server admin (Manage Server) may do that"
    if allowed == {Role.CO}:
        return f"Only {side_name(side)}' commanding officer may do that"
    if side is not None:
        return f"Only {side_name(side)}' players may act for {side_name(side)}"
    return "Only the game's players may do that"
