"""The handlers of /game: set up, join, start, follow and end the channel's game."""

from __future__ import annotations

from bot.game_status import game_status as status_of
from bot.handlers.ask import Ask, Change, Picture
from bot.reply import Reply
from bot.services.game_service import finished_games_text
from engine.commands import Concede, StartGame
from engine.view import events_for
from engine.wording import counted


async def game_start(ask: Ask) -> Change:
    """Roll for the initiative and begin (a referee role's holder may start it too)."""
    return lambda state: StartGame()


async def game_concede(ask: Ask) -> Change:
    """The asker's side concedes."""
    return lambda state: Concede(side=ask.acting(state))


async def game_status(ask: Ask) -> Reply:
    state = await ask.services.games.game(ask.channel)
    return Reply(status_of(state, ask.eyes(state), buttons=ask.buttons).lines, private=True)


async def game_log(ask: Ask) -> Reply:
    """The latest of what happened, as the asker may know it, as much as one message holds,
    saying how much earlier there is."""
    state = await ask.services.games.game(ask.channel)
    _, history = await ask.services.store.history(ask.channel)
    eyes = ask.eyes(state)
    lines = [line for _, events in history for line in events_for(eyes, events)]
    if not lines:
        return Reply.of("Nothing has happened yet", private=True)
    shown: list[str] = []
    room = ask.page - 100  # the notice of what is left out
    while lines and len(lines[-1]) + 1 <= room:
        room -= len(lines[-1]) + 1
        shown.insert(0, lines.pop())
    earlier = [f"({counted(len(lines), 'earlier line')} not shown)"] if lines else []
    return Reply.of(*earlier, *shown, private=True)


async def game_history(ask: Ask, number: int | None) -> Reply:
    found = await finished_games_text(ask.services.store, ask.channel, number)
    return Reply(found.lines, private=True)


async def game_map(ask: Ask) -> tuple[Reply | Picture, ...]:
    """The battlefield as the asker's eyes see it (a referee's: everything), only to them."""
    state = await ask.services.games.game(ask.channel)
    viewer = ask.eyes(state)
    png, words = await ask.services.pictures.picture(state, viewer)
    seen = f"Turn {state.turn}, {viewer or 'spectators'} view"
    return Reply.of(seen, private=True), Picture(f"map-{viewer or 'spectators'}.png", png, words)


GAME_HANDLERS = {
    "game start": game_start,
    "game status": game_status,
    "game log": game_log,
    "game history": game_history,
    "game concede": game_concede,
    "game map": game_map,
}
