"""A direct message with the bot belongs to its user: the tables, card decks and forces a user
keeps there are theirs alone, and take no name from another user's direct messages."""

import asyncio

import pytest
from alembic import command
from sqlalchemy import text

from bot.storage.migrate import alembic_config
from bot.storage.store import GameStore
from tests.bot.discord_harness import ANN, OTTO, close_bot, form, messages, open_bot, reply
from tests.engine.test_cards import DECK

ANN_DM, OTTO_DM = "901", "902"


@pytest.fixture
async def discord_(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    discord.dm_channels.update({ANN_DM: ANN, OTTO_DM: OTTO})
    yield discord
    await close_bot(bot)


async def test_two_users_each_make_a_table_and_a_force_of_one_name_and_see_only_their_own(discord_):
    for user, channel, points in ((ANN, ANN_DM, 300), (OTTO, OTTO_DM, 500)):
        await discord_.slash(
            "force new", user=user, channel=channel, nation="german", name="KG Meyer", points=points
        )
    shown, _ = reply(await discord_.slash("force show", user=ANN, channel=ANN_DM, force="KG Meyer"))
    assert "of 300 points" in shown
    assert await discord_.autocomplete("force show", "force", "", user=OTTO, channel=OTTO_DM) == ["KG Meyer"]
    assert await discord_.autocomplete("force show", "force", "", user=OTTO, channel="1") == []
    await discord_.slash("table new", user=ANN, channel=ANN_DM, name="Farm", width=72.0, depth=48.0)
    made, _ = reply(
        await discord_.slash("table new", user=OTTO, channel=OTTO_DM, name="Farm", width=48.0, depth=48.0)
    )
    assert made.startswith('**Farm**: 48" x 48"')
    shown, _ = reply(await discord_.slash("table show", user=ANN, channel=ANN_DM, table="Farm"))
    assert shown.startswith('**Farm**: 72" x 48"')
    await discord_.slash("table new", user=ANN, channel=ANN_DM, name="Ridge", width=48.0, depth=48.0)
    assert await discord_.autocomplete("table show", "table", "", user=OTTO, channel=OTTO_DM) == ["Farm"]
    listed, _ = reply(await discord_.slash("table list", user=OTTO, channel=OTTO_DM))
    assert "Ridge" not in listed
    refused, _ = reply(await discord_.slash("table show", user=OTTO, channel=OTTO_DM, table="Ridge"))
    assert "Ridge" in refused and "72" not in refused


async def write_deck(discord, user: str, channel: str, name: str) -> list[str]:
    opened = form(await discord.slash("cards deck", user=user, channel=channel, name=name))
    return messages(await discord.submit(opened, {"Cards": DECK}, user=user, channel=channel))


async def test_two_users_each_write_a_deck_of_one_name_in_their_direct_messages(discord_):
    assert await write_deck(discord_, ANN, ANN_DM, "Generic") == ["Saved the deck **Generic**: 16 cards"]
    await write_deck(discord_, ANN, ANN_DM, "Patrol")
    assert await write_deck(discord_, OTTO, OTTO_DM, "Generic") == ["Saved the deck **Generic**: 16 cards"]
    assert await discord_.autocomplete("cards deal", "deck", "", user=OTTO, channel=OTTO_DM) == ["Generic"]
    assert await discord_.autocomplete("cards deal", "deck", "", user=ANN, channel="1") == []


ROWS = "SELECT guild_id, owner_id, name FROM {} ORDER BY id"


async def kept(url: str, table: str) -> list[tuple[str, str, str]]:
    store = GameStore(url)
    async with store.engine.begin() as connection:
        rows = [tuple(row) for row in await connection.execute(text(ROWS.format(table)))]
    await store.close()
    return rows


@pytest.mark.both_databases
async def test_the_upgrade_gives_each_user_the_tables_and_forces_they_kept_in_direct_messages(
    new_empty_database,
):
    url = new_empty_database()
    await asyncio.to_thread(command.upgrade, alembic_config(url), "0021")
    store = GameStore(url)
    async with store.engine.begin() as connection:
        for guild, owner, name in (("dm", ANN, "Farm"), ("dm", OTTO, "Ridge"), ("100", OTTO, "Farm")):
            await connection.execute(
                text(
                    "INSERT INTO saved_tables (guild_id, owner_id, name, version, layout, updated_at) "
                    "VALUES (:guild, :owner, :name, 0, '{}', CURRENT_TIMESTAMP)"
                ),
                {"guild": guild, "owner": owner, "name": name},
            )
        await connection.execute(
            text(
                "INSERT INTO forces (guild_id, owner_id, name, version, force, updated_at) "
                "VALUES ('dm', :owner, 'KG Meyer', 0, '{}', CURRENT_TIMESTAMP)"
            ),
            {"owner": OTTO},
        )
    await store.close()
    await asyncio.to_thread(command.upgrade, alembic_config(url), "head")
    assert await kept(url, "saved_tables") == [
        (f"dm:{ANN}", ANN, "Farm"),
        (f"dm:{OTTO}", OTTO, "Ridge"),
        ("100", OTTO, "Farm"),
    ]
    assert await kept(url, "forces") == [(f"dm:{OTTO}", OTTO, "KG Meyer")]
    store = GameStore(url)
    async with store.engine.begin() as connection:  # a name two users' direct messages now share
        await connection.execute(
            text(
                "INSERT INTO saved_tables (guild_id, owner_id, name, version, layout, updated_at) "
                "VALUES (:guild, :owner, 'farm', 0, '{}', CURRENT_TIMESTAMP)"
            ),
            {"guild": f"dm:{OTTO}", "owner": OTTO},
        )
    await store.close()
    await asyncio.to_thread(command.downgrade, alembic_config(url), "0021")
    assert await kept(url, "saved_tables") == [
        ("dm", ANN, "Farm"),
        ("dm", OTTO, "Ridge"),
        ("100", OTTO, "Farm"),
        (f"dm:{OTTO}", OTTO, "farm"),  # the shared "dm" holds one Farm
    ]
    assert await kept(url, "forces") == [("dm", OTTO, "KG Meyer")]
