"""The handlers of /team: a team game's sides (2015 rulebook p. 25). Who commands what, the
commanding officer (CO) handing out the bonus tokens, and the reserve pool the CO holds: players
ask for a unit, the CO grants or refuses. What only a side may know (its reserves, its requests,
the bonus still to give) is shown only to that side and the referees."""

from __future__ import annotations

from collections.abc import Iterable

from bot.handlers.ask import Ask, Change
from bot.reply import Reply
from bot.services.game_service import GameError
from bot.services.team_view import team_text
from bot.text_orders import find_unit
from engine.commands import AnswerReserve, GiveBonusTokens, RequestReserve
from engine.game_state import GameState


async def team_show(ask: Ask) -> Reply:
    """Each side's players, their units and tokens; privately when it tells the asker more than
    the channel may read."""
    state = await ask.services.games.game(ask.channel)
    if state.team_size is None:
        raise GameError("This is not a team game: /game new scenario: teams: sets one up")
    shown = team_text(state, ask.eyes(state))
    return Reply(shown.lines, private=shown != team_text(state, None))


def bonus_given(ask: Ask, shares: Iterable[tuple[str, int]]) -> Change:
    """The CO's bonus tokens handed out: so many to each player named (by id, or by a name typed
    in any case)."""
    given = tuple(shares)

    def change(state: GameState) -> GiveBonusTokens:
        side = ask.acting(state)
        players = {player.casefold(): player for player in state.sides[side].players}
        named = tuple((players.get(name.casefold(), name), count) for name, count in given)
        return GiveBonusTokens(side=side, player=ask.user, shares=named)

    return change


async def team_give(ask: Ask, player: str, tokens: int) -> Change:
    return bonus_given(ask, [(player, tokens)])


async def team_request(ask: Ask, unit: str) -> Change:
    """A unit of the side's reserve pool asked of the CO."""

    def change(state: GameState) -> RequestReserve:
        side = ask.acting(state)
        return RequestReserve(side=side, player=ask.user, unit=find_unit(state, unit, side, player=ask.user))

    return change


def _answered(ask: Ask, unit: str, grant: bool) -> Change:
    def change(state: GameState) -> AnswerReserve:
        side = ask.acting(state)
        team = state.sides[side].team
        asked = {request.unit for request in team.requests} if team is not None else set()
        unit_id = find_unit(state, unit, side, asked=asked)
        return AnswerReserve(side=side, player=ask.user, unit=unit_id, grant=grant)

    return change


async def team_grant(ask: Ask, unit: str) -> Change:
    return _answered(ask, unit, grant=True)


async def team_refuse(ask: Ask, unit: str) -> Change:
    return _answered(ask, unit, grant=False)


TEAM_HANDLERS = {
    "team show": team_show,
    "team give": team_give,
    "team request": team_request,
    "team grant": team_grant,
    "team refuse": team_refuse,
}
