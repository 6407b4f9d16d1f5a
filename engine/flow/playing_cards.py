"""Tactical Advantage Cards in a game (Iron Cross 2015, p. 33): the deal, and a side exchanging,
playing, loading or triggering its cards."""

from __future__ import annotations

from engine.cards import add_token, deal, exchange, play, trigger
from engine.commands import CardAction, DealCards
from engine.errors import IllegalCommand
from engine.events import EventLog
from engine.game_state import GameState
from engine.state import Phase, Side
from engine.teams import hand_out_unclaimed_bonus, spend_token
from engine.wording import counted, side_name


def check_dealing(state: GameState, command: DealCards) -> None:
    """The cards are dealt once, before the game is over (p. 33)."""
    if state.cards is not None:
        raise IllegalCommand("The cards have already been dealt in this game")
    if state.phase is Phase.OVER:
        raise IllegalCommand("The game is over")


def deal_cards(state: GameState, command: DealCards, log: EventLog) -> None:
    check_dealing(state, command)
    state.cards = deal(
        list(command.deck), sorted(state.sides), lambda sides: log.roll(sides, "shuffling the cards")
    )
    log.emit(
        "cards",
        f"Tactical Advantage Cards: {len(command.deck)} shuffled, two set aside unseen, seven dealt to each "
        "side (see your hand with /cards hand)",
    )


def card_action(state: GameState, command: CardAction, log: EventLog) -> None:
    """Tactical Advantage Cards (p. 33); a card's effect is for the players to apply."""
    cards, side = state.cards, state.sides.get(command.side)
    if cards is None or side is None:
        raise IllegalCommand("No cards have been dealt in this game: /cards deal")
    if state.phase is Phase.OVER:
        raise IllegalCommand("The game is over")
    if command.action == "exchange":
        exchange(cards, command.side, command.card)
        log.emit(
            "cards",
            f"{side_name(command.side, start=True)} exchange a card for one from the deck",
            side=command.side,
        )
    elif command.action == "play":
        hand_out_unclaimed_bonus(state, command.side, log)
        card = play(cards, command.side, command.card, _card_tokens(side))
        for _ in range(card.cost):
            spend_token(state, command.side, side.team.co if side.team else None, log)
        log.emit(
            "cards",
            f"{side_name(command.side, start=True)} play {card.name} {card.terms()}",
            side=command.side,
        )
    elif command.action == "token":
        if _card_tokens(side) < 1:
            raise IllegalCommand(
                f"{side_name(command.side, start=True)} have no command token to put on a card"
            )
        held = add_token(cards, command.side, command.card)
        spend_token(state, command.side, side.team.co if side.team else None, log)
        log.emit(
            "cards",
            f"{side_name(command.side, start=True)} put a token on {held.card.name} ({held.tokens} now)",
            side=command.side,
        )
    else:
        held = trigger(cards, command.side, command.card)
        log.emit(
            "cards",
            f"{side_name(command.side, start=True)} trigger {held.card.name} "
            f"({counted(held.tokens, 'token')} on it)",
            side=command.side,
        )


def _card_tokens(side: Side) -> int:
    """Tokens a side may put on its cards: in a team game the CO's, who holds the cards (p. 33)."""
    return side.team.tokens.get(side.team.co, 0) if side.team else side.tokens
