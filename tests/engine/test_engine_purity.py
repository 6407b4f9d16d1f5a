"""``engine.game.apply`` never changes the state it is given (issue 19, item 11): every command
that writes into a list, a dict or a nested model of the game works on the fork's own copy."""

from typing import get_args

from pydantic import BaseModel

from engine.cards import read_deck
from engine.commands import (
    AppointReferee,
    CallReserves,
    CardAction,
    DealCards,
    Declare,
    Deploy,
    GiveBonusTokens,
    RefereeCorrection,
    StartGame,
    UnitOrder,
)
from engine.deployment.placing import whose_turn
from engine.errors import IllegalCommand
from engine.game_state import GameState, _may_change
from engine.state import Point
from engine.variants.house_v1.commands import CloseCombat
from engine.variants.house_v1.state import BuildingPost
from tests.engine.helpers import game, play
from tests.engine.team_games import deploy_all, team_game, turn_one
from tests.engine.test_cards import DECK, IN_ORDER, dealt
from tests.engine.test_house_rules_buildings import assault_house, street
from tests.engine.test_reserves import with_reserves


def play_purely(state: GameState, command, *faces):
    """Play a command and check that the state it was given reads exactly as before."""
    before = state.model_dump_json()
    after, events = play(state, command, *faces)
    assert state.model_dump_json() == before, f"{type(command).__name__} changed the state it was given"
    return after, events


def test_calling_reserves_leaves_the_sides_due_to_call_in_the_given_state():
    state, _ = play(with_reserves(), StartGame())
    assert state.reserve_calls_due == ["allies"]
    play_purely(state, CallReserves(side="allies", units=("r1",)), (6, 4), (6, 6), (6, 1))
    assert state.reserve_calls_due == ["allies"]


def test_getting_into_a_building_leaves_the_given_states_breaches_empty():
    state = street()
    for unit_id, side in (("gruppe", "south"), ("mg", "east"), ("rifles", "west")):
        state.units[unit_id].firing_post = BuildingPost(side=side, storey=1)
    state.active_side = "allies"
    state.units["tommies"].position = Point(x=42.5, y=28)  # 1" from the south wall
    order = UnitOrder(unit="tommies", actions=(CloseCombat(target="gruppe"),))
    after, _ = play_purely(state, Declare(side="allies", order=order), (6, 4))
    assert after.breaches == {"house": {"allies": "south"}} and state.breaches == {}


def test_setting_up_leaves_the_given_states_deployment_plan():
    state = team_game()
    side = whose_turn(state.deployment)
    waiting = list(state.deployment.sides[side].waiting)
    for x in range(1, 72, 2):  # somewhere in its zone
        at = Point(x=x, y=2 if side == "allies" else 46)
        try:
            play_purely(state, Deploy(side=side, unit=waiting[0], at=at))
            break
        except IllegalCommand:
            continue
    else:
        raise AssertionError("no place to set up")
    assert state.deployment.sides[side].waiting == waiting and state.deployment.placed == 0


def test_dealing_and_exchanging_cards_leave_the_given_hands():
    state, _ = dealt()
    state.cards.deck = [state.cards.set_aside.pop()]  # a card left to draw
    play_purely(state, CardAction(side="allies", action="exchange", card="Card 3"))
    play_purely(state, CardAction(side="allies", action="play", card="Card 3"))
    undealt = state.model_copy(update={"cards": None})
    play_purely(undealt, DealCards(deck=tuple(read_deck(DECK))), *IN_ORDER)


def test_referees_and_team_tokens_change_only_in_the_new_state():
    state = turn_one()
    state, _ = play_purely(state, AppointReferee(user="rita", by="admin"))
    play_purely(state, AppointReferee(user="rita", appoint=False, by="admin"))
    play_purely(state, GiveBonusTokens(side="allies", player="ann", shares=(("bob", 1),)))
    correction = RefereeCorrection(
        referee="rita", change="give_units", side="allies", player="bob", to="eve", reason="bob left"
    )
    play_purely(state, correction)


def shared_changeables(one: object, other: object) -> list[str]:
    """Paths of lists, dicts and unfrozen models that both objects hold as one and the same."""
    seen: dict[int, str] = {}

    def walk(value: object, path: str, record: bool) -> list[str]:
        found = []
        changeable = isinstance(value, list | dict | set) or (
            isinstance(value, BaseModel) and not value.model_config.get("frozen")
        )
        if changeable and record:
            seen[id(value)] = path
        elif changeable and id(value) in seen:
            found.append(path)
        if isinstance(value, BaseModel):
            children = value.__dict__.items()
        elif isinstance(value, dict):
            children = value.items()
        elif isinstance(value, list | tuple | set | frozenset):
            children = enumerate(value)
        else:
            children = ()
        for key, child in children:
            found += walk(child, f"{path}.{key}", record)
        return found

    walk(one, "state", record=True)
    return walk(other, "state", record=False)


def test_a_fork_shares_nothing_the_engine_may_change():
    """Every part of a game that has everything in it at once: a team scenario game being set up
    with a deployment plan, cards, referees, breaches, fires and a declaration pending."""
    setting_up = deploy_all(team_game())
    assert setting_up.deployment is not None
    playing = turn_one()
    playing, _ = play(playing, AppointReferee(user="rita", by="admin"))
    playing.breaches = {"house": {"allies": "south"}}
    playing.fires, playing.burnt, playing.breached_wire = {"barn": 2}, ["barn"], ["wire"]
    playing, _ = play(playing, DealCards(deck=tuple(read_deck(DECK))), *IN_ORDER)
    street_fight, _ = assault_house(street(), (6, 4))  # a choice pending
    for state in (setting_up, playing, street_fight, game(), with_reserves()):
        assert shared_changeables(state, state.fork()) == []


def models_in(annotation: object, found: set[type[BaseModel]]) -> set[type[BaseModel]]:
    """Every model class a value of this type may hold, however deep (a subclass too: an action
    or command a rule set's package adds)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation not in found:
            found.add(annotation)
            for field in annotation.model_fields.values():
                models_in(field.annotation, found)
            for subclass in annotation.__subclasses__():
                models_in(subclass, found)
    for arg in get_args(annotation):
        models_in(arg, found)
    return found


def test_the_frozen_parts_a_fork_shares_hold_nothing_changeable():
    frozen = [model for model in models_in(GameState, set()) if model.model_config.get("frozen")]
    assert len(frozen) > 10
    for model in frozen:
        changeable = [name for name, field in model.model_fields.items() if _may_change(field.annotation)]
        assert changeable == [], f"{model.__name__} is frozen but its {changeable} could change"
