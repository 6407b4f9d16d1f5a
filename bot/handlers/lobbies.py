"""The handlers of /lfg: post an open game, list a server's, withdraw one; and the game a lobby
becomes once joined, made by the handlers of ``/game new`` and ``/game join`` themselves in the
channel the front end gives it (a thread of its own), so a lobby's game is made the one way any
game is."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.command_schema.lobbies import GAME_NEW
from bot.handlers.ask import Ask, SetUp
from bot.handlers.games import game_join, game_new
from bot.reply import Channel, Mention, Moment, Reply, Strong, Typed
from bot.services.game_service import GameError
from bot.services.limits import LOBBY_NOTE, bounded_name
from bot.services.lobby_service import Lobby, Offer
from bot.services.outcome import Outcome
from engine.wording import side_label

NEEDS_A_SERVER = (
    "Lobbies need a Discord server, where others can see and join them: at this table, ",
    Typed("/game new"),
    " sets up a game",
)


@dataclass(frozen=True)
class Posting:
    """A lobby to post, checked: the side its poster takes, what it offers, its note and hours,
    and the words ``/game new`` would announce its game with."""

    side: str
    offer: Offer
    note: str
    hours: int
    announced: Reply


@dataclass(frozen=True)
class Withdrawn:
    """A lobby withdrawn (its post is the front end's to edit), and the words for the asker."""

    lobby: Lobby
    told: Reply


def in_a_server(ask: Ask) -> str:
    if ask.server is None:
        raise GameError(*NEEDS_A_SERVER)
    return ask.server


async def offered_game(ask: Ask, offer: Offer) -> SetUp:
    """The game a lobby offers, set up by ``/game new`` in the asker's channel, with that
    command's defaults for what a lobby does not offer: refused as that command refuses it."""
    options = {option.name: option.default for option in GAME_NEW.shared()}
    options.update(
        scenario=offer.scenario,
        table=offer.table,
        seed=offer.seed,
        forces=offer.forces,
        ruleset=offer.ruleset,
        pace=offer.pace,
        attacker=offer.attacker,
    )
    return await game_new(ask, **options)


async def brought_force(ask: Ask, offer: Offer, name: str | None) -> None:
    """A force brought to a scenario lobby is one of the asker's, within its points; none to a
    quick battle (its forces are the battle's own). The force's legality in its role is checked
    as it joins (``/game join``)."""
    if offer.scenario == "quick":
        if name or offer.points:
            raise GameError("A quick battle fields its own forces: force and points are for a scenario")
        return
    if not name:
        raise GameError("A scenario is played with the forces the players bring: name yours with force:")
    force = await ask.services.forces.force(ask.owner, ask.user, name)
    if offer.points is not None and force.points_limit > offer.points:
        raise GameError(
            f"{force.name} is built to {force.points_limit} points: this game takes {offer.points}"
        )


async def lfg_post(
    ask: Ask,
    side: str,
    scenario: str,
    table: str,
    seed: int | None,
    forces: str,
    ruleset: str,
    pace: str,
    attacker: str | None,
    force: str | None,
    points: int | None,
    hours: int,
    note: str,
) -> Posting:
    """An open game for this channel, offering what ``/game new`` would set up; checked as that
    command checks it (and the poster's force), before anything is posted."""
    in_a_server(ask)
    offer = Offer(scenario, table, seed, forces, ruleset, pace, attacker, force, points)
    set_up = await offered_game(ask, offer)
    await brought_force(ask, offer, force)
    return Posting(side, offer, bounded_name("note", note, LOBBY_NOTE), hours, set_up.announced)


def offer_words(offer: Offer) -> str:
    """What a lobby offers, in a few words."""
    game = (
        "a quick battle" if offer.scenario == "quick" else f"the {offer.scenario.replace('_', ' ')} scenario"
    )
    forces = f" ({offer.forces} against german)" if offer.scenario == "quick" else ""
    points = f", forces of up to {offer.points} points" if offer.points else ""
    seed = f" {offer.seed}" if offer.seed is not None else ""
    return f"{game}{forces} on the {offer.table}{seed} table, {offer.ruleset}, {offer.pace}{points}"


def lobby_line(lobby: Lobby) -> tuple:
    """A lobby in a list: its number, poster and side, what it offers, where, until when."""
    link = f"https://discord.com/channels/{lobby.guild_id}/{lobby.channel_id}/{lobby.message_id}"
    return (
        Strong(f"#{lobby.id}"),
        " ",
        Mention(lobby.poster),
        f" takes {side_label(lobby.side)}: {offer_words(lobby.offer)}; in ",
        Channel(lobby.channel_id),
        ", open until ",
        Moment(lobby.expires_at),
        f": {link}",
    )


async def lfg_list(ask: Ask) -> Reply:
    """The server's open games, to the asker."""
    lobbies = await ask.services.lobbies.listing(in_a_server(ask))
    if not lobbies:
        return Reply.of(
            ("No open games in this server: post one with ", Typed("/lfg post"), "."), private=True
        )
    return Reply((*(lobby_line(lobby) for lobby in lobbies),), private=True)


async def lfg_cancel(ask: Ask, lobby: int | None) -> Withdrawn:
    """The asker withdraws their open game (by its number, else their latest in this server); a
    moderator may withdraw anyone's."""
    lobbies = ask.services.lobbies
    if lobby is None:
        own = [found for found in await lobbies.listing(in_a_server(ask)) if found.poster == ask.user]
        if not own:
            raise GameError("You have no open game in this server to withdraw")
        lobby = own[-1].id
    found = await lobbies.find(lobby)
    if found.guild_id != in_a_server(ask):
        raise GameError(f"There is no lobby #{lobby}")
    withdrawn = await lobbies.cancel(lobby, ask.user, ask.moderator or ask.manager)
    return Withdrawn(
        withdrawn, Reply.of(f"Lobby #{lobby} is withdrawn: nobody can join it now.", private=True)
    )


async def lobby_game(
    joiner: Ask, lobby: Lobby, joiner_force: str | None, made_by: str
) -> tuple[Reply, Outcome]:
    """The lobby's game, in the joiner's channel (the game's own): set up by ``/game new`` as the
    poster, then each player seated by ``/game join`` (the poster on their side with their
    force, the joiner on the other with theirs, checked first by :func:`brought_force`), each
    step once however often the same interaction (``made_by``) comes; the words that announce
    the game, and the last seat's outcome."""
    poster = replace(joiner, user=lobby.poster, name_of=lambda _user: lobby.poster_name)
    set_up = await offered_game(poster, lobby.offer)
    outcome = await set_up.make(made_by)
    other = outcome.state.other_side(lobby.side)
    for who, side, force in ((poster, lobby.side, lobby.offer.force), (joiner, other, joiner_force)):
        change = await game_join(who, side, force)
        outcome = await joiner.services.games.act(
            joiner.channel, who.user, change, interaction_id=f"{made_by}/{side}"
        )
    return set_up.announced, outcome


LOBBY_HANDLERS = {
    "lfg post": lfg_post,
    "lfg list": lfg_list,
    "lfg cancel": lfg_cancel,
}
