"""The handlers of a message's menu (:mod:`bot.command_schema.menus`): each takes who asks and
the message's text, and answers as the command it stands for (``/rule``, ``/roll``) would."""

from __future__ import annotations

from bot.handlers.ask import Ask, Handler
from bot.handlers.lookups import roll
from bot.reply import Reply
from bot.services.game_service import GameError
from engine.rolls.expressions import MAX_ROLLS
from engine.rolls.in_text import dice_in


async def look_up_rules(ask: Ask, message: str) -> Reply:
    """The sections of the rule numbers the message cites, for the asker's eyes only."""
    found = await ask.services.rules.cited_in(ask.owner, message)
    return Reply(found.lines, private=True)


async def roll_dice(ask: Ask, message: str) -> Reply:
    """The message's dice expressions rolled together, as one /roll, for the channel to see."""
    found = dice_in(message)
    if not found.expressions:
        raise GameError("This message holds no dice expression to roll (such as 2d6+1, 2d10 5+, DR or dr)")
    rolled = await roll(ask, found.command, secret=False)
    if not found.left_out:
        return rolled
    more = (f"({found.left_out} more in the message not rolled: one roll takes at most {MAX_ROLLS})",)
    return Reply((*rolled.lines, more), private=rolled.private)


MENU_HANDLERS: dict[str, Handler] = {"Look up rules": look_up_rules, "Roll dice": roll_dice}
