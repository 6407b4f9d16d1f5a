"""The handlers of /cards: Tactical Advantage Cards (p. 33). A server's admins write its decks (a
user their own in direct messages); in a game the cards are dealt, and each player sees only their
own side's hand."""

from __future__ import annotations

from bot.handlers.ask import Ask, Change
from bot.reply import Reply
from bot.services.card_service import hand_text
from bot.services.game_service import GameError
from engine.commands import CardAction, DealCards


def deck_keeper(ask: Ask) -> str:
    """Whose decks the asker writes: the server's, if they may manage it; their own in direct
    messages."""
    if not ask.owner.startswith("dm:") and not ask.manager:
        raise GameError("Only members with the Manage Server permission can change the server's decks")
    return ask.owner


async def cards_deck(ask: Ask, name: str, pasted: str) -> Reply:
    """A deck, one card a line, pasted in Discord's form or read from a file at the console."""
    return await ask.services.cards.save(deck_keeper(ask), name, pasted)


async def cards_deal(ask: Ask, deck: str) -> Change:
    """Deal one of the owner's decks in the channel's game (only its players deal)."""
    cards = tuple(await ask.services.cards.deck(ask.owner, deck))

    def deal(state):
        ask.acting(state)
        return DealCards(deck=cards)

    return deal


async def cards_hand(ask: Ask) -> Reply:
    state = await ask.services.games.game(ask.channel)
    if state.cards is None:
        raise GameError("No cards have been dealt in this game: /cards deal")
    return hand_text(state, ask.acting(state), ask.eyes(state))


async def cards_use(ask: Ask, action: str, card: str) -> Change:
    return lambda state: CardAction(side=ask.acting(state), action=action, card=card)


CARD_HANDLERS = {
    "cards deck": cards_deck,
    "cards deal": cards_deal,
    "cards hand": cards_hand,
    "cards use": cards_use,
}
