"""Tactical Advantage Cards (Iron Cross 2015, p. 33) with a made-up test deck."""

import pytest

from engine.cards import read_deck
from engine.commands import CardAction, DealCards
from engine.errors import IllegalCommand
from engine.scenarios.new_game import make_unit
from tests.engine.helpers import game, play, started, text

DECK = "\n".join(
    ["# a deck written for the tests"]
    + [f"Card {n} | {n % 3} | any time | does thing {n}" for n in range(1, 16)]
    + ["Long Watch | 1 lasting | before the enemy moves | waits for its moment"]
)
IN_ORDER = [(n, n) for n in range(16, 1, -1)]  # every shuffle die picks the last card: no swap


def dealt():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), command=True, unit_id="gis"),
            make_unit("german", "Infantry Detachment", "axis", (10, 60), command=True),
        ),
        "allies",
    )
    return play(state, DealCards(deck=tuple(read_deck(DECK))), *IN_ORDER)


def test_two_set_aside_unseen_and_seven_dealt_to_each_side_p33():
    state, events = dealt()
    cards = state.cards
    assert [c.name for c in cards.set_aside] == ["Card 1", "Card 2"]
    assert [c.name for c in cards.hands["allies"]] == [f"Card {n}" for n in range(3, 10)]
    assert [c.name for c in cards.hands["axis"]] == [f"Card {n}" for n in range(10, 16)] + ["Long Watch"]
    assert "Card" not in text(events).replace("Cards", "")  # nobody's cards are named in public


def test_one_exchange_each_for_the_top_of_the_deck_p33():
    state, _ = dealt()
    state.cards.deck = [state.cards.set_aside.pop()]  # a card left to draw
    state, events = play(state, CardAction(side="allies", action="exchange", card="card 3"))
    assert text(events) == "The Allies exchange a card for one from the deck"
    assert "Card 3" not in [c.name for c in state.cards.hands["allies"]]
    with pytest.raises(IllegalCommand, match="The Allies have already exchanged a card"):
        play(state, CardAction(side="allies", action="exchange", card="card 4"))


def test_playing_a_card_costs_its_tokens_and_a_lasting_card_stays_in_play_p33():
    state, _ = dealt()
    state, events = play(state, CardAction(side="allies", action="play", card="Card 5"))
    assert text(events) == "The Allies play Card 5 (cost 2; any time): does thing 5"
    assert state.sides["allies"].tokens == 8
    state, _ = play(state, CardAction(side="axis", action="play", card="Long Watch"))
    state, events = play(state, CardAction(side="axis", action="token", card="Long Watch"))
    assert text(events) == "The Axis put a token on Long Watch (1 now)" and state.sides["axis"].tokens == 8
    state, events = play(state, CardAction(side="axis", action="trigger", card="long watch"))
    assert text(events) == "The Axis trigger Long Watch (1 token on it)" and state.cards.in_play["axis"] == []


def test_card_refusals():
    state, _ = dealt()
    with pytest.raises(IllegalCommand, match="The Allies hold no card called 'Card 10'"):
        play(state, CardAction(side="allies", action="play", card="Card 10"))
    state.sides["allies"].tokens = 1
    with pytest.raises(IllegalCommand, match="Card 5 costs 2 command tokens; the Allies have 1 token$"):
        play(state, CardAction(side="allies", action="play", card="Card 5"))
    with pytest.raises(IllegalCommand, match="already been dealt"):
        play(state, DealCards(deck=tuple(read_deck(DECK))))


@pytest.mark.parametrize(
    ("deck", "refusal"),
    [
        ("Card | x | now | text", "Line 1: the cost is a number"),
        ("Card | 1 | now", "Line 1: write name | cost | when | what it does"),
        ("\n".join(f"C{n} | 1 | now | t" for n in range(10)), "A deck needs 16 to 200 cards"),
    ],
)
def test_bad_decks_are_refused_with_the_line(deck, refusal):
    with pytest.raises(IllegalCommand, match=refusal):
        read_deck(deck)
