"""The handlers of /ref: what a referee does at the table (2015 rulebook p. 25). Correct the game
with a reason, rule on what the rules leave open, take actions back, see the true picture and
the whole log, name referees; run the clock (/ref clock) and prepare the scenario (/ref prep).

Every text is bounded as it comes; every referee's command is refused to anyone else before the
game is read for it, so a refusal never tells a player what a hidden unit's name would have
found. An undo and the clock's
requests are made by the game service itself (:class:`~bot.handlers.ask.ServiceChange`): an
undo rebuilds the game from its log, the clock keeps its own times."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.handlers.ask import Ask, Change, Person, Picture, ServiceChange
from bot.reply import Reply, with_people
from bot.services.game_service import GameError, Outcome
from bot.services.limits import bounded_text
from bot.services.permissions import Role, roles_of
from bot.text_orders import find_unit
from engine.commands import (
    AppointReferee,
    Command,
    RefereeBriefing,
    RefereeClock,
    RefereeCorrection,
    RefereeDeploymentZone,
    RefereeForceGuideline,
    RefereeObjective,
    RefereeRuling,
    RefereeSpecialRule,
)
from engine.game_state import GameState
from engine.referee_prep import prep_text
from engine.state import Point
from engine.view import REFEREE, events_for

ONLY_REFEREES = "Only the game's referees may do that"


def refereed(ask: Ask, state: GameState) -> None:
    """Refuse one who does not referee the game (named, or holding one of its referee roles)."""
    if Role.REFEREE not in roles_of(state, ask.user, None, server_roles=ask.roles):
        raise GameError(ONLY_REFEREES)


def by_referee(ask: Ask, build: Callable[[GameState], Command]) -> Change:
    """A referee's command, built from the game only once the asker is known to referee it."""

    def change(state: GameState) -> Command:
        refereed(ask, state)
        return build(state)

    return change


def _correction(ask: Ask, change: str, reason: str, unit: str | None = None, **details: Any) -> Change:
    """One of the engine's corrections, the unit named by its id or any name it goes by."""
    why = bounded_text("reason", reason)
    return by_referee(
        ask,
        lambda state: RefereeCorrection(
            referee=ask.user,
            reason=why,
            change=change,
            unit=find_unit(state, unit) if unit else None,
            **details,
        ),
    )


async def ref_move(ask: Ask, unit: str, at: Point, reason: str, facing: float | None) -> Change:
    return _correction(ask, "move", reason, unit, at=at, facing=facing)


async def ref_markers(ask: Ask, unit: str, count: int, reason: str) -> Change:
    return _correction(ask, "markers", reason, unit, value=count)


async def ref_tokens(ask: Ask, side: str, count: int, reason: str, player: Person | None) -> Change:
    """The tokens in a side's hand, or in a team player's."""
    return _correction(ask, "tokens", reason, side=side, value=count, player=player and player.id)


async def ref_turn(ask: Ask, number: int, reason: str) -> Change:
    return _correction(ask, "turn", reason, value=number)


async def ref_initiative(ask: Ask, side: str, reason: str) -> Change:
    return _correction(ask, "initiative", reason, side=side)


async def ref_reveal(ask: Ask, unit: str, reason: str) -> Change:
    return _correction(ask, "reveal", reason, unit)


async def ref_hide(ask: Ask, unit: str, reason: str) -> Change:
    return _correction(ask, "hide", reason, unit)


async def ref_destroy(ask: Ask, unit: str, reason: str) -> Change:
    return _correction(ask, "destroy", reason, unit)


async def ref_restore(ask: Ask, unit: str, reason: str) -> Change:
    return _correction(ask, "restore", reason, unit)


async def ref_stand_in(ask: Ask, side: str, play: str, reason: str) -> Change:
    """The bot plays a side for its absent player, or hands it back (:mod:`engine.stand_in`)."""
    return _correction(ask, "stand_in", reason, side=side, value=int(play == "on"))


async def ref_give_units(ask: Ask, player: Person, to: Person, reason: str) -> Change:
    """An absent player's units and seat, to another (known by the name they go by)."""
    return _correction(ask, "give_units", reason, player=player.id, to=to.id, to_name=to.name)


async def ref_ruling(ask: Ask, text: str) -> Change:
    ruling = bounded_text("ruling", text)
    return by_referee(ask, lambda state: RefereeRuling(referee=ask.user, ruling=ruling))


async def ref_undo(ask: Ask, count: int, reason: str) -> ServiceChange:
    """The last ``count`` actions taken back: the service rebuilds the game without them."""
    games, why = ask.services.games, bounded_text("reason", reason)

    async def undo(state: GameState) -> Command:
        refereed(ask, state)
        return await games.undo_command(ask.channel, ask.user, count, why)

    return ServiceChange(lambda sent: games.undo(ask.channel, ask.user, count, why, sent), undo)


async def _refereed_game(ask: Ask) -> GameState:
    state = await ask.services.games.game(ask.channel)
    refereed(ask, state)
    return state


async def ref_map(ask: Ask) -> tuple[Reply, Picture]:
    """The true picture, every unit hidden or not, for the asker's eyes only."""
    state = await _refereed_game(ask)
    png, words = await ask.services.pictures.picture(state, REFEREE)
    return Reply.of(f"Turn {state.turn}, the referees' view", private=True), Picture(
        "map-referee.png", png, words
    )


async def ref_log(ask: Ask) -> Reply:
    """The whole log as the referees read it, for the asker's eyes only."""
    state = await _refereed_game(ask)
    _, history = await ask.services.games.history(ask.channel)
    lines = [with_people(line, state) for _, events in history for line in events_for(REFEREE, events)]
    return Reply(tuple(lines), private=True) if lines else Reply.of("Nothing has happened yet", private=True)


async def ref_appoint(ask: Ask, referee: Person) -> Change:
    """A referee, named by a referee or a server admin (the permission table decides)."""
    return lambda state: AppointReferee(by=ask.user, user=referee.id)


async def ref_dismiss(ask: Ask, referee: Person) -> Change:
    return lambda state: AppointReferee(by=ask.user, user=referee.id, appoint=False)


# -- the clock: the service's clock keeps its times ---------------------------------------------

Made = Callable[[str | None], Awaitable[Outcome]]


def _clock(ask: Ask, action: str, make: Made, **details: Any) -> ServiceChange:
    """A request to the service's clock, stored as the referee's :class:`RefereeClock`."""
    clocks = ask.services.games.clocks

    async def request(state: GameState) -> Command:
        refereed(ask, state)
        if action in ("pause", "resume"):
            await clocks.check_paused(ask.channel, paused=action == "resume")
        return RefereeClock(referee=ask.user, action=action, **details)

    return ServiceChange(make, request)


async def ref_clock_pause(ask: Ask) -> ServiceChange:
    clocks = ask.services.games.clocks
    return _clock(ask, "pause", lambda sent: clocks.pause(ask.channel, ask.user, sent))


async def ref_clock_resume(ask: Ask) -> ServiceChange:
    clocks = ask.services.games.clocks
    return _clock(ask, "resume", lambda sent: clocks.resume(ask.channel, ask.user, sent))


async def ref_clock_extend(ask: Ask, minutes: int) -> ServiceChange:
    clocks = ask.services.games.clocks
    extended: Made = lambda sent: clocks.extend(ask.channel, ask.user, minutes, sent)  # noqa: E731
    return _clock(ask, "extend", extended, minutes=minutes)


async def ref_clock_close(ask: Ask) -> ServiceChange:
    """The open reaction window closed now; it stands for an extension, which needs one too."""
    clocks = ask.services.games.clocks
    return _clock(ask, "extend", lambda sent: clocks.close_window(ask.channel, ask.user, sent), minutes=1)


async def ref_clock_deadline(ask: Ask, side: str, hours: float) -> ServiceChange:
    """Hours for an absent side to act; the outcome says when they run out."""

    async def set_deadline(sent: str | None) -> Outcome:
        outcome, due = await ask.services.games.clocks.set_deadline(ask.channel, ask.user, side, hours, sent)
        return replace(outcome, referee_deadline=due)

    return _clock(ask, "deadline", set_deadline, side=side, hours=hours)


# -- preparing the scenario: told to the side it is for and the referees ------------------------


async def ref_prep_objective(ask: Ask, id: str, at: Point, side: str) -> Change:
    whose, name = None if side == "both" else side, bounded_text("id", id)
    return by_referee(ask, lambda state: RefereeObjective(referee=ask.user, id=name, at=at, side=whose))


async def ref_prep_special(ask: Ask, to: str, text: str) -> Change:
    rule = bounded_text("text", text)
    return by_referee(ask, lambda state: RefereeSpecialRule(referee=ask.user, audience=to, text=rule))


async def ref_prep_brief(ask: Ask, side: str, text: str) -> Change:
    briefing = bounded_text("text", text)
    return by_referee(ask, lambda state: RefereeBriefing(referee=ask.user, side=side, text=briefing))


async def ref_prep_force(ask: Ask, side: str, points: int, guideline: str) -> Change:
    said = bounded_text("guideline", guideline)
    return by_referee(
        ask, lambda state: RefereeForceGuideline(referee=ask.user, side=side, points=points, text=said)
    )


async def ref_prep_zone(ask: Ask, side: str, x1: float, y1: float, x2: float, y2: float) -> Change:
    return by_referee(
        ask,
        lambda state: RefereeDeploymentZone(referee=ask.user, side=side, x1=x1, y1=y1, x2=x2, y2=y2),
    )


async def ref_prep_list(ask: Ask) -> Reply:
    """The special rules, objectives, guidelines and zones the asker may read (only they see it)."""
    state = await ask.services.games.game(ask.channel)
    return Reply.of(*prep_text(state, ask.eyes(state)).split("\n"), private=True)


REFEREE_HANDLERS = {
    "ref move": ref_move,
    "ref markers": ref_markers,
    "ref tokens": ref_tokens,
    "ref turn": ref_turn,
    "ref initiative": ref_initiative,
    "ref reveal": ref_reveal,
    "ref hide": ref_hide,
    "ref destroy": ref_destroy,
    "ref restore": ref_restore,
    "ref give_units": ref_give_units,
    "ref stand_in": ref_stand_in,
    "ref ruling": ref_ruling,
    "ref undo": ref_undo,
    "ref map": ref_map,
    "ref log": ref_log,
    "ref appoint": ref_appoint,
    "ref dismiss": ref_dismiss,
    "ref clock pause": ref_clock_pause,
    "ref clock resume": ref_clock_resume,
    "ref clock extend": ref_clock_extend,
    "ref clock close": ref_clock_close,
    "ref clock deadline": ref_clock_deadline,
    "ref prep objective": ref_prep_objective,
    "ref prep special": ref_prep_special,
    "ref prep brief": ref_prep_brief,
    "ref prep force": ref_prep_force,
    "ref prep zone": ref_prep_zone,
    "ref prep list": ref_prep_list,
}
