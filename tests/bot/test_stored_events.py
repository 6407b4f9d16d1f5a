"""Events keep their data in the store, and events stored before events had data (or dice a
category) still load: no data, and each die's category read from its purpose (issue 20, step 4)."""

import json

from sqlalchemy import update

from bot.storage.tables import CommandRow
from engine.commands import Declare, DeclineReaction, Fire, UnitOrder
from engine.dice import DieCategory, ScriptedDice, d6, d10
from engine.event_data import FireData
from engine.game import apply
from engine.scenarios.new_game import make_unit
from tests.engine.helpers import game, started


def a_shot():
    """Grenadiers fire at the GIs 10" away: two hits, both converted."""
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (20, 30), unit_id="gren"),
            make_unit("us", "Infantry Detachment", "allies", (20, 40), unit_id="gis"),
        ),
        "axis",
    )
    state, _ = apply(
        state,
        Declare(side="axis", order=UnitOrder(unit="gren", actions=(Fire(target="gis"),))),
        ScriptedDice([]),
    )
    decline = DeclineReaction(side="allies", window=state.pending.window)
    after, events = apply(state, decline, ScriptedDice([d10(5), d10(7), d6(4), d6(6)]))
    return state, decline, after, events


async def test_events_keep_their_data_and_old_events_load_without_it(store):
    state, decline, after, events = a_shot()
    game_row = await store.create("9", state)
    await store.append(game_row, "otto", decline, events, after)
    _, log = await store.history("9")
    ((_, stored),) = log
    assert stored == events
    shot = next(e.data for e in stored if isinstance(e.data, FireData))
    assert (shot.firer, shot.target, shot.to_hit.rolls, shot.markers) == ("gren", "gis", (5, 7), 2)

    old = json.loads(json.dumps([e.model_dump(mode="json") for e in events]))
    for event in old:  # as stored before: no data, dice without a category
        del event["data"]
        for die in event["rolls"]:
            del die["category"]
    async with store.sessions() as session, session.begin():
        await session.execute(
            update(CommandRow).where(CommandRow.channel_id == "9").values(events=json.dumps(old))
        )
    _, [(_, loaded)] = await store.history("9")
    assert [e.text for e in loaded] == [e.text for e in events]
    assert all(e.data is None for e in loaded)
    fire = next(e for e in loaded if e.kind == "fire")
    assert [die.category for die in fire.rolls] == [DieCategory.TO_HIT] * 2 + [DieCategory.CASUALTY] * 2
