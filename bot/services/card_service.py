"""CardService: each server's Tactical Advantage decks (p. 33), written as text by its admins."""

from __future__ import annotations

from sqlalchemy import delete, func
from sqlmodel import select

from bot.services.game_service import GameError
from bot.services.limits import bounded_command, bounded_text
from bot.storage.store import GameStore
from bot.storage.tables import CardDeckRow
from bot.storage.writes import take_name
from engine.cards import Card, Cards, read_deck
from engine.errors import IllegalCommand
from engine.wording import counted, side_name

MAX_NAME = 60
DECK_CHARS = 100_000  # a deck's text: hundreds of cards


def hand_text(cards: Cards, side: str) -> str:
    """What one side holds and has in play: for its own eyes only."""
    hand = [f"- {card.describe()}" for card in cards.hands[side]] or ["- no cards"]
    lasting = [
        f"- {held.card.describe()} [{counted(held.tokens, 'token')} on it]" for held in cards.in_play[side]
    ]
    exchanged = "used" if side in cards.exchanged else "still yours to use (/cards exchange)"
    return "\n".join(
        [f"**{side_name(side, start=True)}' hand** (exchange {exchanged}):", *hand]
        + (["**In play:**", *lasting] if lasting else [])
    )


class CardService:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def save(self, guild_id: str, name: str, text: str) -> str:
        name = " ".join(bounded_text("A deck's name", name, MAX_NAME).split())
        bounded_text("A deck", text, DECK_CHARS)
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
        return f"Saved the deck **{name}**: {len(cards)} cards"

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
