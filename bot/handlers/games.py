"""The handlers of /game: set up, join, start, follow and end the channel's game."""

from __future__ import annotations

import asyncio
import tempfile

from bot.game_status import game_status as status_of
from bot.handlers.ask import Ask, Change, Person, Picture, ServerRole, ServiceChange, SetUp
from bot.log_pages import log_page
from bot.reply import Mention, Piece, Reply, RoleTag, Typed
from bot.services.game_service import GameError, scenario_text, setup_text, statistics_text
from bot.services.limits import DAILY, STAND_IN_POINTS_DEFAULT, window_seconds
from bot.services.replay_service import REPLAY_FILE
from bot.services.stand_in_service import handing
from engine.commands import Command, Concede, JoinSide, StartGame
from engine.forces import units_points
from engine.game_state import GameState
from engine.rich_text import Line
from engine.rulesets import with_rule_set
from engine.scenarios.book import find_scenario
from engine.scenarios.quick_battle import quick_battle, scenario_battle
from engine.stand_in import STAND_IN
from engine.stand_in_force import stand_in_joins
from engine.state import STAND_IN_NAME
from engine.teams import make_team_game
from engine.view import events_for
from engine.wording import counted, side_name


async def game_new(
    ask: Ask,
    table: str,
    seed: int | None,
    edges: str | None,
    areas: str,
    forces: str,
    pace: str,
    reaction_seconds: int | None,
    scenario: str,
    attacker: str | None,
    attacker_choice: str | None,
    deployment: str,
    ruleset: str,
    ping_minutes: int,
    teams: int,
    bonus: str,
    referee: Person | None,
    referee_role: ServerRole | None,
    stand_in: str | None = None,
    stand_in_after: int = 0,
    points: int = STAND_IN_POINTS_DEFAULT,
) -> SetUp:
    """A quick battle, or a book scenario for the forces the players bring, on a table of the
    asker's (or a built-in one), under a rule set, for teams and a referee, or with the bot
    playing one side (``stand_in``, :mod:`engine.stand_in`): in a scenario it brings a force it
    buys at ``points`` (:mod:`engine.stand_in_force`); it replaces a finished game, or one not
    started that nobody else joined. A game played over days may hand a side to the bot after
    its player misses ``stand_in_after`` deadlines in a row."""
    if stand_in is not None and teams > 1:
        raise GameError("The bot plays a side alone: not in a team game")
    seconds = window_seconds(pace, reaction_seconds)
    missed = taking_over(stand_in_after, seconds, teams)
    ground = await ask.services.tables.battlefield(ask.owner, table, seed)
    if scenario == "quick":
        battle, words = quick_battle(ground, forces), setup_text(ground, forces, seconds)
    else:
        battle = scenario_battle(
            scenario, ground, attacker, attacker_choice, deployment == "plotted", edges, areas
        )
        words = scenario_text(battle, ground, seconds)
    battle = with_rule_set(battle, ruleset)
    battle.stand_in_after = stand_in_after
    told = (*words.lines, *statistics_text(battle), *missed)
    lines = [*told, *teams_and_referees(battle, teams, bonus, referee, referee_role)]
    joining = JoinSide(side=stand_in or "", player=STAND_IN, name=STAND_IN_NAME)
    if stand_in is not None and battle.planned_scenario is not None:
        role = battle.planned_scenario.roles[stand_in]
        nation = forces if stand_in == "allies" else "german"
        joining = await asyncio.to_thread(stand_in_joins, scenario, stand_in, role, nation, points, ruleset)
        lines.append(bots_force_line(battle, joining))
    elif stand_in is not None:
        other = battle.other_side(stand_in)
        lines.append(
            f"The bot plays {side_name(stand_in)}: take {side_name(other)} with /game join side:{other}."
        )
    announced = Reply(tuple(lines))

    async def make(interaction: str | None):
        outcome = await ask.services.games.new_game(
            ask.channel, battle, seconds, ask.user, interaction_id=interaction
        )
        await ask.services.pings.set_delay(ask.channel, ping_minutes)
        if stand_in is not None:
            outcome = await ask.services.games.act(ask.channel, STAND_IN, joining)
        return outcome

    return SetUp(make, announced)


def taking_over(after: int, seconds: int, teams: int) -> list[Line]:
    """What a new game says of handing a side to the bot after ``after`` missed deadlines: only a
    game played over days does (at a live pace a window missed is a player still thinking, and a
    referee hands the side over), and never a team game (the bot plays no team's side)."""
    if not after:
        return []
    if seconds < DAILY:
        raise GameError(
            "Only a game played over days (pace:daily, or windows of an hour or more) hands a side to the "
            "bot by itself: at a live pace a referee hands an absent player's side to it"
        )
    if teams > 1:
        raise GameError("The bot plays no team's side: only a game of one player a side hands one to it")
    return [
        (
            f"A side whose player misses {counted(after, 'deadline')} in a row is played by the bot until "
            "they give a command again; ",
            Typed("/game stand_in"),
            " hands your side to it yourself.",
        )
    ]


def bots_force_line(battle: GameState, joining: JoinSide) -> str:
    """What a scenario game's announcement says of the force the bot brings, and of the one its
    opponent must bring (pp. 28-31: equal points, or in Capture the attacker twice as strong)."""
    side, other = joining.side, battle.other_side(joining.side)
    planned = battle.planned_scenario
    cost = units_points(joining.units)
    doubled = find_scenario(planned.id).points == "attacker_double"
    if not doubled:
        theirs = f"a force of {joining.points_limit} points"
    elif planned.roles[other] == "attacker":
        theirs = f"a force costing at least {2 * cost} (twice the bot's), at most {2 * joining.points_limit}"
    else:
        theirs = f"a force of {joining.points_limit // 2} points costing at most {cost // 2} (half the bot's)"
    return (
        f"The bot plays {side_name(side)} ({planned.roles[side]}) with a force of its own: "
        f"{counted(len(joining.units), 'unit')}, {cost} of {joining.points_limit} points. "
        f"Take {side_name(other)} with /game join side:{other} force:<yours>, {theirs}."
    )


def teams_and_referees(
    battle: GameState, teams: int, bonus: str, referee: Person | None, role: ServerRole | None
) -> list[Line]:
    """A new game's teams (p. 25) and referees, and what its announcement says of them."""
    lines: list[Line] = []
    if teams > 1:
        if battle.planned_scenario is None:
            raise GameError("A team game is a scenario game: choose a scenario as well as teams")
        make_team_game(battle, teams, bonus)
        lines.append(
            (
                f"A team game: {teams} players a side, each with their own force; the first to join a "
                "side is its commanding officer (with an infantry command unit). See ",
                Typed("/team show"),
                ".",
            )
        )
    battle.referees = [referee.id] if referee else []
    battle.referee_roles = (role.id,) if role else ()
    named: list[Piece] = [Mention(referee.id)] if referee else []
    if role:
        named += [" and " if named else "", "holders of ", RoleTag(role.id)]
    if named:
        lines.append(("Refereed by ", *named, ": ", Typed("/ref"), " corrects, rules and sees everything."))
    return lines


async def game_join(ask: Ask, side: str, force: str | None) -> Change:
    """The asker takes a side: in a scenario game, bringing one of their saved forces."""
    joining = JoinSide(side=side, player=ask.user, name=ask.name_of(ask.user))
    if force:
        planned = (await ask.services.games.game(ask.channel)).planned_scenario
        if planned is None or side not in planned.roles:
            raise GameError("A force is brought to a scenario game: this one fields its own")
        brought = await ask.services.forces.joining(ask.owner, ask.user, side, force, planned.roles[side])
        joining = brought.model_copy(update={"name": joining.name})
    return lambda state: joining


async def game_replay(ask: Ask) -> Reply | tuple[Reply, Picture]:
    """The finished game's story, and its animated replay as spectators saw it, to the asker."""
    with tempfile.TemporaryFile() as movie:
        replay = await ask.services.replays.make(ask.channel, movie)
        if not replay.frames:
            return Reply(replay.summary.lines, private=True)
        movie.seek(0)
        gif = await asyncio.to_thread(movie.read)
    each = ", one per activation" if replay.frames == replay.activations else ""
    shown = Reply((*replay.summary.lines, (f"Replay ({counted(replay.frames, 'frame')}{each})",)), True)
    return shown, Picture(REPLAY_FILE, gif, replay.description)


async def game_start(ask: Ask) -> Change:
    """Roll for the initiative and begin (a referee role's holder may start it too)."""
    return lambda state: StartGame()


async def game_stand_in(ask: Ask, play: str) -> ServiceChange:
    """The asker hands their own side to the bot, or takes it back (:mod:`engine.stand_in`)."""
    stand_ins = ask.services.stand_ins

    async def hand(state: GameState) -> Command:
        return handing(state, ask.user, play == "on")

    return ServiceChange(lambda sent: stand_ins.hand(ask.channel, ask.user, play == "on", sent), hand)


async def game_concede(ask: Ask) -> Change:
    """The asker's side concedes."""
    return lambda state: Concede(side=ask.acting(state))


async def game_status(ask: Ask) -> Reply:
    state = await ask.services.games.game(ask.channel)
    return Reply(status_of(state, ask.eyes(state), buttons=ask.buttons).lines, private=True)


async def game_log(ask: Ask, page: int | None) -> Reply:
    """What happened, as the asker may know it, a page at a time (:mod:`bot.log_pages`): the
    latest page, or an earlier one."""
    state = await ask.services.games.game(ask.channel)
    _, history = await ask.services.games.history(ask.channel)
    eyes = ask.eyes(state)
    lines = [line for _, events in history for line in events_for(eyes, events)]
    if not lines:
        return Reply.of("Nothing has happened yet", private=True)
    return log_page(lines, page or 1, ask.page, lambda line: len(ask.written(Reply.of(line))))


async def game_history(ask: Ask, number: int | None) -> Reply:
    found = await ask.services.games.finished_games(ask.channel, number)
    return Reply(found.lines, private=True)


async def game_map(ask: Ask) -> tuple[Reply | Picture, ...]:
    """The battlefield as the asker's eyes see it (a referee's: everything), only to them."""
    state = await ask.services.games.game(ask.channel)
    viewer = ask.eyes(state)
    png, words = await ask.services.pictures.picture(state, viewer)
    seen = f"Turn {state.turn}, {viewer or 'spectators'} view"
    return Reply.of(seen, private=True), Picture(f"map-{viewer or 'spectators'}.png", png, words)


GAME_HANDLERS = {
    "game new": game_new,
    "game join": game_join,
    "game replay": game_replay,
    "game start": game_start,
    "game status": game_status,
    "game log": game_log,
    "game history": game_history,
    "game stand_in": game_stand_in,
    "game concede": game_concede,
    "game map": game_map,
}
