"""A house-rules game stored by the bot before the house rules had their own package (state
and first snapshot in the old flat shape) loads, takes its next command, and replays from its
log to the same state (issue 20, step 2)."""

from pathlib import Path

from sqlalchemy import update

from bot.storage.tables import GameRow, SnapshotRow
from engine.dice import ScriptedDice, d6, d10
from engine.game import apply, replay
from engine.game_state import GameState
from engine.variants.house_v1.commands import ChooseDefender

OLD = (Path(__file__).parents[1] / "engine" / "data" / "house_v1_game_before_variants.json").read_text()


async def test_an_old_house_game_in_the_store_plays_on_and_replays(store):
    await store.create("7", GameState.model_validate_json(OLD))
    async with store.sessions() as session, session.begin():  # as the bot stored it before
        await session.execute(update(GameRow).where(GameRow.channel_id == "7").values(state=OLD))
        await session.execute(update(SnapshotRow).where(SnapshotRow.channel_id == "7").values(state=OLD))
    game = await store.load("7")
    assert game.state.units["gruppe"].in_building == "church" and game.state.fires == {"barn": 2}
    dice = ScriptedDice([d10(1), d10(1), d10(9), d10(9), d6(5), d6(5)])
    state, events = apply(game.state, ChooseDefender(side="axis", unit="gruppe"), dice)
    await store.append(game, "ann", ChooseDefender(side="axis", unit="gruppe"), events, state)
    assert (await store.load("7")).state == state and state.units["tommies"].in_building == "church"
    start, log = await store.history("7")
    replayed, _ = replay(start, log)
    assert replayed == state
