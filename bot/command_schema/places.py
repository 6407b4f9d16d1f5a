"""Where each command is offered, by the name Discord lists it under (a command, a group, a
message menu): who may install it and in which kind of channel it may be used.

- the lookups (/roll, /chart, /odds, /rule, /library and the message menu that does the same)
  install for a user too, and work everywhere: a server, the bot's direct messages, and private
  channels (other direct messages, group chats) where only the user installed the bot. With no
  server library there, /rule and /library read the bot's own;
- what a user keeps for themselves in the bot's direct messages (tables, forces, card decks,
  campaigns) and /help work in a server and there, as before, installed with a server;
- everything else, the games above all, only in a server the bot is installed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.command_schema.menus import MENUS

Context = Literal["server", "bot_dm", "private_channel"]


@dataclass(frozen=True)
class Places:
    user_install: bool  # a user may install the bot for themselves, not only a server
    contexts: tuple[Context, ...]


EVERYWHERE = Places(user_install=True, contexts=("server", "bot_dm", "private_channel"))
SERVER_AND_BOT_DM = Places(user_install=False, contexts=("server", "bot_dm"))
SERVER = Places(user_install=False, contexts=("server",))

PLACES: dict[str, Places] = {
    **dict.fromkeys(("roll", "chart", "odds", "rule", "library", *MENUS), EVERYWHERE),
    **dict.fromkeys(("table", "force", "cards", "campaign", "help"), SERVER_AND_BOT_DM),
}


def places(name: str) -> Places:
    """Where the command (or group) ``name`` is offered."""
    return PLACES.get(name, SERVER)


def out_of_place(name: str, context: Context | None, server_installed: bool) -> str | None:
    """Why the command ``name`` is refused where it was used (in a ``context``, in a server that
    installed the bot or not), or None: Discord offers a command only where it is declared, but an
    old registration or a forged interaction may still bring one elsewhere."""
    where = places(name)
    if context is None:  # Discord did not say
        return None
    if context in where.contexts and (context != "server" or server_installed or where.user_install):
        return None
    alone = "in a server the bot is installed in"
    allowed = f"{alone}, or in your direct messages with the bot" if "bot_dm" in where.contexts else alone
    lookups = ", ".join(f"/{n}" for n, p in PLACES.items() if p is EVERYWHERE and n not in MENUS)
    return f"/{name} works only {allowed}. Here you may use {lookups}."
