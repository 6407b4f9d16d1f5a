"""CardService: each server's Tactical Advantage decks (p. 33), written as text by its admins."""

from __future__ import annotations

from sqlalchemy import delete, func
from sqlmodel import select

from bot.reply import Reply, Strong
from bot.services.game_service import GameError
from bot.services.limits import bounded_command, bounded_name, bounded_text
from bot.storage.store import GameStore
from bot.storage.tables import CardDeckRow
from bot.storage.writes import take_name
from engine.cards import Card, read_deck
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.view import Audience, hand_of
from engine.wording import counted, side_name

MAX_NAME = 60
DECK_CHARS = 100_000  # a deck's text: hundreds of cards


def hand_text(state: GameState, side: str, audience: Audience) -> Reply:
    """What one side holds and has in play, as :mod:`engine.view` shows it to ``audience``: its
    own side (or the referee) only, and for the asker's eyes."""
    held = hand_of(state, side, audience)
    if held is None:
        raise IllegalCommand("No cards have been dealt to your side: /cards deal deck:NAME")
    hand = [("- ", Strong(card.name), f" {card.terms()}") for card in held.cards] or ["- no cards"]
    lasting = [
        ("- ", Strong(card.card.name), f" {card.card.terms()} [{counted(card.tokens, 'token')} on it]")
        for card in held.in_play
    ]
    exchanged = "used" if held.exchanged else "still yours to use (/cards exchange)"
    heading = (Strong(f"{side_name(side, start=True)}' hand"), f" (exchange {exchanged}):")
    return Reply.of(heading, *hand, *([Strong("In play:"), *lasting] if lasting else []), private=True)


class CardService:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def save(self, guild_id: str, name: str, text: str) -> Reply:
        name = bounded_name("A deck's name", name, MAX_NAME)
        text = bounded_text("A deck", text, DECK_CHARS)
        if not name or len(name) > MAX_NAME:
            raise GameError(f"Give the deck a name of 1 to {MAX_NAME} characters")
        try:
            cards = read_deck(text)
            for card in cards:  # each card within what a game takes, so the deck can be dealt
                bounded_command(card)
        except IllegalCommand as refusal:
            raise GameError(str(refusal)) from refusal
        async with self.store.sessions() as session, session.begin():
            await take_name(session, CardDeckRow, guild_id, name.casefold())
            await session.execute(
                delete(CardDeckRow).where(
                    CardDeckRow.guild_id == guild_id, func.lower(CardDeckRow.name) == name.casefold()
                )
            )
            session.add(CardDeckRow(guild_id=guild_id, name=name, text=text))
        return Reply.of(("Saved the deck ", Strong(name), f": {len(cards)} cards"), private=True)

    async def names(self, guild_id: str) -> list[str]:
        async with self.store.sessions() as session:
            query = (
                select(CardDeckRow.name).where(CardDeckRow.guild_id == guild_id).order_by(CardDeckRow.name)
            )
            return list((await session.execute(query)).scalars())

    async def deck(self, guild_id: str, name: str) -> list[Card]:
        async with self.store.sessions() as session:
            query = select(CardDeckRow).where(
                CardDeckRow.guild_id == guild_id, func.lower(CardDeckRow.name) == name.strip().casefold()
            )
            row = (await session.execute(query)).scalars().first()
        if row is None:
            known = ", ".join(await self.names(guild_id)) or "none yet: /cards deck"
            raise GameError(f"This server has no deck called {name!r} (decks: {known})")
        return read_deck(row.text)
