"""/lfg: post an open game to a server's channel, see the server's, withdraw one's own. What a
lobby offers is declared once, by ``/game new`` (:mod:`bot.command_schema.play`): its options
are taken from there as they are."""

from __future__ import annotations

from bot.command_schema.options import choice, integer, spec, text
from bot.command_schema.play import PLAY_SPECS
from bot.services.limits import LOBBY_DEFAULT_HOURS as DEFAULT_HOURS
from bot.services.limits import LOBBY_HOURS as HOURS
from bot.services.limits import LOBBY_NOTE as NOTE_LIMIT
from bot.services.limits import MAX_POINTS

GAME_NEW = next(s for s in PLAY_SPECS if s.path == "game new")
OFFERED = ("scenario", "table", "seed", "forces", "ruleset", "pace", "attacker")  # as /game new takes them

LOBBY_SPECS = (
    spec(
        "lfg post",
        "Post an open game here for anyone to join: it starts in a thread of its own",
        choice("side", "The side you take (the joiner takes the other)", ("allies", "axis"), required=True),
        *(GAME_NEW.option(name) for name in OFFERED),
        text("force", "In a scenario, the force you bring (one of your /force list)", suggest=True),
        integer(
            "points", "In a scenario, the most points a force brought may be built to", low=1, high=MAX_POINTS
        ),
        integer(
            "hours",
            f"How long it stays open ({HOURS.start} to {HOURS.stop - 1} hours, default {DEFAULT_HOURS})",
            low=HOURS.start,
            high=HOURS.stop - 1,
            default=DEFAULT_HOURS,
        ),
        text("note", f"A word to whoever joins (at most {NOTE_LIMIT} characters)", default=""),
    ),
    spec("lfg list", "This server's open games, to join"),
    spec(
        "lfg cancel",
        "Withdraw your open game (a moderator may withdraw any)",
        integer(
            "lobby",
            "The lobby's number (#N on its post; default: your latest in this server)",
            low=1,
            high=10**12,
        ),
        words=("lobby",),
    ),
)
