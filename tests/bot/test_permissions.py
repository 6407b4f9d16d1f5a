"""The permission table: every command as each role, in a refereed team game (p. 25), with the
Discord-only roles: a server admin (Manage Server) and the holder of the game's referee role."""

import io

import pytest

from bot.console import play_console
from bot.services.game_service import GameError, GameService
from bot.services.permissions import MATRIX, Refused, authorise
from bot.storage.store import GameStore
from engine.commands import (
    COMMAND_KINDS,
    AnswerReserve,
    AppointReferee,
    CallReserves,
    CardAction,
    ChooseInitiative,
    ChooseTarget,
    Concede,
    DealCards,
    Declare,
    DeclineReaction,
    Deploy,
    FinishDeployment,
    GiveBonusTokens,
    JoinSide,
    MoraleTestOrder,
    PassInitiative,
    React,
    RefereeBriefing,
    RefereeClock,
    RefereeCorrection,
    RefereeDeploymentZone,
    RefereeForceGuideline,
    RefereeObjective,
    RefereeRuling,
    RefereeSpecialRule,
    RemoveMarkers,
    RequestReserve,
    StartGame,
    UndoActions,
    UnitOrder,
)
from engine.dice import SeededDice
from engine.state import Phase, Point
from engine.variants.house_v1.commands import ChooseDefender, ChooseFallBack
from tests.engine.team_games import HELD_BACK, turn_one
from tests.storage.databases import seed_sqlite

BOBS_TANK = "allies-sherman-75mm-1"
# allied CO, allied player, axis CO, axis player holding the referee role, spectator, referee,
# server admin, holder of the referee role
USERS = ("ann", "bob", "cat", "dan", "zed", "ref", "boss", "rolf")
ON_DISCORD = {  # what Discord tells of them: Manage Server, and the ids of their server roles
    "boss": {"admin": True},
    "rolf": {"server_roles": ("umpires",)},
    "dan": {"server_roles": ("umpires",)},  # a player is no referee of their own game (p. 25)
    "zed": {"server_roles": ("fans",)},
}


def commands(user):
    """One command of each kind, acting for the allies, as ``user`` would send it."""
    return {
        "join_side": JoinSide(side="allies", player=user),
        "start_game": StartGame(),
        "deal_cards": DealCards(deck=()),
        "deploy": Deploy(side="allies", unit=BOBS_TANK, at=Point(x=5, y=5)),
        "finish_deployment": FinishDeployment(side="allies"),
        "call_reserves": CallReserves(side="allies"),
        "choose_initiative": ChooseInitiative(side="allies", go_first=True),
        "declare": Declare(side="allies", order=UnitOrder(unit=BOBS_TANK, actions=())),
        "react": React(side="allies", window=1, order=MoraleTestOrder()),
        "remove_markers": RemoveMarkers(side="allies", unit=BOBS_TANK),
        "choose_target": ChooseTarget(side="allies", target=None),
        "choose_fall_back": ChooseFallBack(side="allies", fall_back=True),
        "choose_defender": ChooseDefender(side="allies", unit=BOBS_TANK),
        "card": CardAction(side="allies", action="play", card="x"),
        "request_reserve": RequestReserve(side="allies", player=user, unit=HELD_BACK),
        "concede": Concede(side="allies"),
        "decline_reaction": DeclineReaction(side="allies", window=1),
        "pass_initiative": PassInitiative(side="allies"),
        "give_bonus_tokens": GiveBonusTokens(side="allies", player=user, shares=(("bob", 1),)),
        "answer_reserve": AnswerReserve(side="allies", player=user, unit=HELD_BACK, grant=True),
        "referee_correction": RefereeCorrection(referee=user, reason="r", change="turn", value=1),
        "referee_ruling": RefereeRuling(referee=user, ruling="r"),
        "undo_actions": UndoActions(referee=user, reason="r", undone=(1,)),
        "referee_clock": RefereeClock(referee=user, action="pause"),
        "referee_objective": RefereeObjective(referee=user, id="ford", at=Point(x=5, y=5), side="allies"),
        "referee_special_rule": RefereeSpecialRule(referee=user, audience="allies", text="r"),
        "referee_briefing": RefereeBriefing(referee=user, side="allies", text="r"),
        "referee_force_guideline": RefereeForceGuideline(referee=user, side="allies", points=500),
        "referee_deployment_zone": RefereeDeploymentZone(referee=user, side="allies", x1=0, y1=0, x2=9, y2=9),
        "appoint_referee": AppointReferee(by=user, user="newref"),
    }


ALLIED_PLAYERS = {"ann", "bob"}
REFEREES = {"ref", "rolf"}  # named, or holding the game's referee role
EXPECTED = {  # who may send each kind of command for the allies
    "join_side": set(USERS) - REFEREES,  # a referee plays no side; the engine refuses a late join
    "start_game": {"ann", "bob", "cat", "dan", "ref", "rolf"},
    "deal_cards": {"ann", "bob", "cat", "dan", "ref", "rolf"},
    "deploy": {"bob"},  # his own unit only
    "finish_deployment": ALLIED_PLAYERS,
    "call_reserves": ALLIED_PLAYERS,
    "choose_initiative": ALLIED_PLAYERS,
    "declare": ALLIED_PLAYERS,  # the engine then charges the player's own tokens
    "react": ALLIED_PLAYERS,
    "remove_markers": ALLIED_PLAYERS,
    "choose_target": ALLIED_PLAYERS,
    "choose_fall_back": ALLIED_PLAYERS,
    "choose_defender": ALLIED_PLAYERS,
    "card": ALLIED_PLAYERS,
    "request_reserve": ALLIED_PLAYERS,
    "concede": ALLIED_PLAYERS,
    "decline_reaction": ALLIED_PLAYERS | REFEREES,
    "pass_initiative": ALLIED_PLAYERS | REFEREES,
    "give_bonus_tokens": {"ann"},
    "answer_reserve": {"ann"},
    "referee_correction": REFEREES,
    "referee_ruling": REFEREES,
    "undo_actions": REFEREES,
    "referee_clock": REFEREES,
    "referee_objective": REFEREES,
    "referee_special_rule": REFEREES,
    "referee_briefing": REFEREES,
    "referee_force_guideline": REFEREES,
    "referee_deployment_zone": REFEREES,
    "appoint_referee": REFEREES | {"boss"},  # a server admin appoints or dismisses referees
}


def refereed():
    state = turn_one()
    state.referees = ["ref"]
    state.referee_roles = ("umpires",)
    return state


def test_every_command_kind_is_in_the_table_and_the_test():
    every_kind = set(COMMAND_KINDS)
    assert every_kind == set(MATRIX) == set(EXPECTED) == set(commands("x"))


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_each_role_may_send_exactly_what_the_table_allows(kind):
    state = refereed()
    allowed = set()
    for user in USERS:
        try:
            authorise(state, user, commands(user)[kind], **ON_DISCORD.get(user, {}))
            allowed.add(user)
        except Refused:
            pass
    assert allowed == EXPECTED[kind]


def test_a_team_order_is_charged_to_the_player_who_sends_it():
    state = refereed()
    assert authorise(state, "bob", commands("bob")["declare"]).player == "bob"
    assert authorise(state, "ref", commands("ref")["pass_initiative"]).kind == "pass_initiative"


def test_acting_as_someone_else_is_refused():
    with pytest.raises(Refused, match="only act as yourself"):
        authorise(refereed(), "bob", RequestReserve(side="allies", player="ann", unit=HELD_BACK))
    with pytest.raises(Refused, match="only act as yourself"):
        authorise(refereed(), "boss", AppointReferee(by="ref", user="boss"), admin=True)


def test_nobody_appoints_a_referee_at_a_table_nobody_has_joined_but_referees_and_admins():
    state = refereed()
    for side in state.sides.values():
        side.players = []
    with pytest.raises(Refused, match="referees or a server admin"):
        authorise(state, "zed", AppointReferee(by="zed", user="zed"))
    assert authorise(state, "boss", AppointReferee(by="boss", user="zed"), admin=True).user == "zed"


def test_a_refereed_game_nobody_has_joined_is_started_by_its_referees_alone():
    """The hole the tap matrix found: a refereed quick battle nobody had joined was anyone's to
    start (the card's Start button, or /game start), after which nobody could join it. Now a
    spectator, a server admin and a player of another game are refused; its referees may; a
    hot-seat game (no referees) stays anyone's."""
    state = refereed()
    for side in state.sides.values():
        side.players = []
    for user in ("zed", "boss", "ann"):
        with pytest.raises(Refused, match="Nobody is playing allies, axis yet"):
            authorise(state, user, StartGame(), **ON_DISCORD.get(user, {}))
    for user in REFEREES:
        assert authorise(state, user, StartGame(), **ON_DISCORD.get(user, {})) == StartGame()
    assert authorise(state, "zed", JoinSide(side="allies", player="zed")).player == "zed"  # seats open
    state.referees, state.referee_roles = [], ()
    assert authorise(state, "zed", StartGame()) == StartGame()


async def test_refused_commands_leave_the_stored_game_byte_identical(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'perm.db'}"))
    service = GameService(store, dice=lambda: SeededDice(1))
    await service.new_game("c1", refereed())
    before = await store.load("c1")
    for kind, allowed in EXPECTED.items():
        for user in set(USERS) - allowed:
            with pytest.raises(GameError):
                await service.act("c1", user, commands(user)[kind], **ON_DISCORD.get(user, {}))
    with pytest.raises(GameError, match="referees"):
        await service.undo("c1", "ann", 1, "no")
    after = await store.load("c1")
    assert after.version == before.version
    assert after.state.model_dump_json() == before.state.model_dump_json()
    await store.close()


async def test_a_spectator_cannot_take_over_a_running_game(tmp_path):
    """Issue 19's takeover, at the console: once the quick battle has started, eve's /game join is
    refused, so her /concede (for the side the game waits for) is too, and the stored game is as it was."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    started = "as ann /game join side:allies\nas otto /game join side:axis\nas otto /start\n"
    assert await play_console(io.StringIO(started), io.StringIO(), url, dice=lambda: SeededDice(1)) == 0
    store = await GameStore.open(url)
    before = await store.load("console")
    out = io.StringIO()
    takeover = "as eve /game join side:allies\nas eve /concede\nas eve /game map\n"
    assert await play_console(io.StringIO(takeover), out, url, dice=lambda: SeededDice(1)) == 0
    assert "Not allowed: The game has started: nobody joins a side now" in out.getvalue()
    assert "Not allowed: Only the Axis' players may act for the Axis" in out.getvalue()
    after = await store.load("console")
    assert (after.version, after.state.model_dump_json()) == (before.version, before.state.model_dump_json())
    assert after.state.sides["allies"].players == ["ann"] and after.state.phase is not Phase.OVER
    await store.close()
