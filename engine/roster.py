"""Who plays: each player's name as the picture shows it (a team game's roster names who holds
which unit). Players are known to the engine by id (on Discord a raw user id); their display
name is kept beside, taken when they join or a referee hands them a seat.

A display name is free text from outside (hostile input): it is kept only once control
characters, Markdown and mention marks are dropped, spaces collapsed and its length capped.
"""

from __future__ import annotations

import re
import unicodedata

from engine.commands import DISPLAY_NAME_LIMIT
from engine.game_state import GameState

PLAYER_NAME_LIMIT = 20  # characters of a player's name on the picture
_MENTION = re.compile(r"<(?:@[!&]?|#|a?:\w+:)\d+>")  # <@user>, <@&role>, <#channel>, <:emoji:id>
_MARKS = re.compile(r"[*_~`|>#@<\[\]()\\:]")  # Markdown, @everyone, links


def shown_name(raw: str) -> str:
    """The name as the picture shows it: no control or format characters, no Markdown or
    mention marks, one space between words, at most :data:`PLAYER_NAME_LIMIT` characters
    (cut names end with "…"); empty when nothing readable is left."""
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in raw[:DISPLAY_NAME_LIMIT])
    words = " ".join(_MARKS.sub("", _MENTION.sub(" ", kept)).split())
    if len(words) <= PLAYER_NAME_LIMIT:
        return words
    return words[: PLAYER_NAME_LIMIT - 1].rstrip() + "…"


def remember_name(state: GameState, player: str, raw: str | None) -> None:
    """Keep the player's name, if one was given and anything of it is readable."""
    name = shown_name(raw or "")
    if name:
        state.player_names[player] = name


def name_of(state: GameState, player: str) -> str | None:
    return state.player_names.get(player)
