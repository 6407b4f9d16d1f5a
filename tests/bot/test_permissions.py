"""The permission table: every command as each role, in a refereed team game (p. 25)."""

import pytest

from bot.services.game_service import GameError, GameService
from bot.services.permissions import MATRIX, Refused, authorise
from bot.storage.store import GameStore
from engine.commands import (
    AnswerReserve,
    CallReserves,
    CardAction,
    ChooseFallBack,
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
    RefereeCorrection,
    RefereeRuling,
    RemoveMarkers,
    RequestReserve,
    StartGame,
    UndoActions,
    UnitOrder,
)
from engine.dice import SeededDice
from engine.state import Point
from tests.engine.team_games import HELD_BACK, turn_one

BOBS_TANK = "allies-sherman-75mm-1"
USERS = ("ann", "bob", "cat", "zed", "ref")  # allied CO, allied player, axis CO, spectator, referee


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
    }


ALLIED_PLAYERS = {"ann", "bob"}
EXPECTED = {  # who may send each kind of command for the allies
    "join_side": set(USERS),
    "start_game": {"ann", "bob", "cat", "ref"},
    "deal_cards": {"ann", "bob", "cat", "ref"},
    "deploy": {"bob"},  # his own unit only
    "finish_deployment": ALLIED_PLAYERS,
    "call_reserves": ALLIED_PLAYERS,
    "choose_initiative": ALLIED_PLAYERS,
    "declare": ALLIED_PLAYERS,  # the engine then charges the player's own tokens
    "react": ALLIED_PLAYERS,
    "remove_markers": ALLIED_PLAYERS,
    "choose_target": ALLIED_PLAYERS,
    "choose_fall_back": ALLIED_PLAYERS,
    "card": ALLIED_PLAYERS,
    "request_reserve": ALLIED_PLAYERS,
    "concede": ALLIED_PLAYERS,
    "decline_reaction": ALLIED_PLAYERS | {"ref"},
    "pass_initiative": ALLIED_PLAYERS | {"ref"},
    "give_bonus_tokens": {"ann"},
    "answer_reserve": {"ann"},
    "referee_correction": {"ref"},
    "referee_ruling": {"ref"},
    "undo_actions": {"ref"},
}


def refereed():
    state = turn_one()
    state.referees = ["ref"]
    return state


def test_every_command_kind_is_in_the_table_and_the_test():
    assert set(MATRIX) == set(EXPECTED) == set(commands("x"))


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_each_role_may_send_exactly_what_the_table_allows(kind):
    state = refereed()
    allowed = set()
    for user in USERS:
        try:
            authorise(state, user, commands(user)[kind])
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


async def test_refused_commands_leave_the_stored_game_byte_identical(tmp_path):
    store = await GameStore.open(f"sqlite+aiosqlite:///{tmp_path / 'perm.db'}")
    service = GameService(store, dice=lambda: SeededDice(1))
    await service.new_game("c1", refereed())
    before = await store.load("c1")
    for kind, allowed in EXPECTED.items():
        for user in set(USERS) - allowed:
            with pytest.raises(GameError):
                await service.act("c1", user, commands(user)[kind])
    with pytest.raises(GameError, match="referees"):
        await service.undo("c1", "ann", 1, "no")
    after = await store.load("c1")
    assert after.version == before.version
    assert after.state.model_dump_json() == before.state.model_dump_json()
    await store.close()
