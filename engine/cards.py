"""Tactical Advantage Cards (Iron Cross 2015, p. 33): a deck the server writes, the deal, the
one exchange, and playing cards for their token cost.

The bot does not carry out a card's effect (its words are the players' to apply); it keeps the
deck, the hands (each seen only by its side), the cost and the cards left in play.

A deck is plain text, one card per line: ``name | cost | when it is played | what it does``,
with ``lasting`` after the cost for a card that stays in play until its owner triggers it:

    Sudden Barrage | 2 | start of your activation | ...
    Dug-in Reserve | 1 lasting | any time | ...
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from engine.errors import IllegalCommand
from engine.wording import counted, side_name

DEALT = 7  # p. 33
SET_ASIDE = 2
MAX_CARDS = 200
MAX_COST = 10


class Card(BaseModel):
    id: str  # "c1", "c2"... in the order the deck was written
    name: str
    cost: int
    when: str
    text: str
    lasting: bool = False

    def terms(self) -> str:
        """What it costs, when it is played and what it does, after its name."""
        lasting = ", stays in play until triggered" if self.lasting else ""
        return f"(cost {self.cost}{lasting}; {self.when}): {self.text}"


class CardInPlay(BaseModel):
    card: Card
    tokens: int = 0  # command tokens placed on it from turn to turn (p. 33)


class Cards(BaseModel):
    """Where every card is. Hands are secret: the bot shows each only to its own side."""

    deck: list[Card]  # face down, top first
    set_aside: list[Card]  # removed unseen at the start (p. 33)
    hands: dict[str, list[Card]]
    exchanged: list[str] = Field(default_factory=list)
    in_play: dict[str, list[CardInPlay]] = Field(default_factory=dict)
    discarded: list[Card] = Field(default_factory=list)


def read_deck(text: str) -> list[Card]:
    """Cards from the deck's text; a bad line is refused with its number."""
    cards = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [part.strip() for part in line.split("|")]
        if len(parts) != 4 or not all(parts):
            raise IllegalCommand(f"Line {number}: write name | cost | when | what it does")
        name, cost_text, when, words = parts
        cost, _, lasting = cost_text.partition(" ")
        if not cost.isdigit() or int(cost) > MAX_COST or lasting.strip() not in ("", "lasting"):
            raise IllegalCommand(
                f"Line {number}: the cost is a number of tokens (0-{MAX_COST}), maybe with 'lasting'"
            )
        cards.append(
            Card(
                id=f"c{len(cards) + 1}",
                name=name,
                cost=int(cost),
                when=when,
                text=words,
                lasting=bool(lasting.strip()),
            )
        )
    if not SET_ASIDE + 2 * DEALT <= len(cards) <= MAX_CARDS:
        raise IllegalCommand(
            f"A deck needs {SET_ASIDE + 2 * DEALT} to {MAX_CARDS} cards (two set aside, seven each); "
            f"this has {len(cards)}"
        )
    return cards


def shuffled(cards: list[Card], roll) -> list[Card]:
    """The deck shuffled with the game's dice (``roll(sides)``), so a replay deals the same."""
    deck = list(cards)
    for last in range(len(deck) - 1, 0, -1):
        pick = roll(last + 1) - 1
        deck[last], deck[pick] = deck[pick], deck[last]
    return deck


def deal(cards: list[Card], sides: list[str], roll) -> Cards:
    """Two cards set aside unseen, seven to each side (p. 33)."""
    deck = shuffled(cards, roll)
    set_aside, deck = deck[:SET_ASIDE], deck[SET_ASIDE:]
    hands = {}
    for side in sides:
        hands[side], deck = deck[:DEALT], deck[DEALT:]
    return Cards(deck=deck, set_aside=set_aside, hands=hands, in_play={side: [] for side in sides})


def _in_hand(cards: Cards, side: str, name: str) -> Card:
    for card in cards.hands[side]:
        if card.name.casefold() == name.strip().casefold() or card.id == name:
            return card
    raise IllegalCommand(f"{side_name(side, start=True)} hold no card called {name!r}: see /cards hand")


def exchange(cards: Cards, side: str, name: str) -> Card:
    """A side may once discard a card from its hand for the top card of the deck (p. 33)."""
    if side in cards.exchanged:
        raise IllegalCommand(f"{side_name(side, start=True)} have already exchanged a card")
    if not cards.deck:
        raise IllegalCommand("The deck is empty: nothing to exchange for")
    card = _in_hand(cards, side, name)
    cards.hands[side].remove(card)
    cards.discarded.append(card)
    cards.hands[side].append(cards.deck.pop(0))
    cards.exchanged.append(side)
    return card


def play(cards: Cards, side: str, name: str, tokens: int) -> Card:
    """Play a card from the hand for its token cost; a lasting card stays in play (p. 33)."""
    card = _in_hand(cards, side, name)
    if tokens < card.cost:
        cost, held = counted(card.cost, "command token"), counted(tokens, "token")
        raise IllegalCommand(f"{card.name} costs {cost}; {side_name(side)} have {held}")
    cards.hands[side].remove(card)
    if card.lasting:
        cards.in_play[side].append(CardInPlay(card=card))
    else:
        cards.discarded.append(card)
    return card


def _in_play(cards: Cards, side: str, name: str) -> CardInPlay:
    for held in cards.in_play[side]:
        if held.card.name.casefold() == name.strip().casefold() or held.card.id == name:
            return held
    raise IllegalCommand(f"{side_name(side, start=True)} have no card called {name!r} in play")


def add_token(cards: Cards, side: str, name: str) -> CardInPlay:
    """Put a command token on a lasting card in play (p. 33)."""
    held = _in_play(cards, side, name)
    held.tokens += 1
    return held


def trigger(cards: Cards, side: str, name: str) -> CardInPlay:
    """Use a lasting card's effect now; it leaves play."""
    held = _in_play(cards, side, name)
    cards.in_play[side].remove(held)
    cards.discarded.append(held.card)
    return held
