"""Issue 33: one stored action is one transaction on the store's writer, with as few statements as
it takes: the game over the version it was read at, its log entry, the reaction window it opens,
the turn ping it starts and the referee's deadline it ends, written together. The load before is
one statement, read outside any transaction (a statement sees one snapshot by itself)."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from bot.services.game_service import GameService
from bot.services.ping_service import TurnPings
from bot.storage.clock_store import player_deadlines
from bot.storage.ping_store import ping_of
from engine.commands import ChooseInitiative, Declare, JoinSide, Move, StartGame, UnitOrder
from engine.dice import ScriptedDice, d6
from engine.runtime import VirtualClock
from engine.scenarios.quick_battle import quick_battle
from engine.state import Point
from tests.storage.statements import listening

pytestmark = pytest.mark.both_databases

ADVANCE = Declare(side="axis", order=UnitOrder(unit="gruppe-3", actions=(Move(path=(Point(x=50, y=39),)),)))


@pytest.fixture
async def service(store):
    """Ann (allies) against Otto (axis), refereed by Ref, with turn pings; the Axis have the
    initiative and a referee's deadline."""
    service = GameService(store, clock=VirtualClock())
    TurnPings(service)
    state = quick_battle()
    state.referees = ["ref"]
    await service.new_game("c1", state)
    await service.act("c1", "ann", JoinSide(side="allies", player="ann"))
    await service.act("c1", "otto", JoinSide(side="axis", player="otto"))
    service.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await service.act("c1", "otto", StartGame())
    service.dice = lambda: ScriptedDice([])
    await service.act("c1", "otto", ChooseInitiative(side="axis", go_first=True))
    await service.clocks.set_deadline("c1", "ref", "axis", 2)
    yield service
    await service.close()


async def test_an_action_is_one_transaction_with_its_window_ping_and_deadline(service, store):
    """Otto's advance opens the Allies' reaction window, starts the wait for Ann (her ping) and
    ends the Axis' deadline: one transaction, which reads nothing (the ping it replaces came
    with the game's load). Before, the deadline went in a second transaction after the
    action's, the load opened a third, and then the ping was read again in the action's."""
    before = await store.load("c1")
    with listening(store) as sent:
        outcome = await service.act("c1", "otto", ADVANCE, interaction_id="i1")
    assert (sent.begun, sent.committed) == (1, 1), sent.statements
    assert sent.statements == [
        "SELECT games.version, games.updated_at,",
        "UPDATE games SET",
        "INSERT INTO game_commands",
        "INSERT INTO reaction_windows",
        "DELETE FROM player_deadlines",
        "INSERT INTO turn_pings",
    ]
    assert outcome.version == before.version + 1
    assert (await store.load("c1")).window is not None  # the window it opened
    assert (await ping_of(store, "c1")).players == ("ann",)  # the wait for Ann
    assert await player_deadlines(store, "c1") == []  # the Axis acted: their deadline is off


async def test_an_interaction_sent_again_is_one_statement(service, store):
    """A repeat of an applied interaction is found by the load alone, and writes nothing."""
    await service.act("c1", "otto", ADVANCE, interaction_id="i1")
    with listening(store) as sent:
        repeated = await service.act("c1", "otto", ADVANCE, interaction_id="i1")
    assert repeated.repeated
    assert (sent.begun, sent.committed, len(sent.statements)) == (0, 0, 1), sent.statements


async def test_the_window_s_message_is_written_on_the_store_s_writer(service, store):
    """The message that shows a window's buttons, remembered after it is posted: one statement
    in one transaction, through the engine the store's actions write through (its worker's on
    a SQLite file), not beside it through a session."""
    outcome = await service.act("c1", "otto", ADVANCE)
    writer = store.transactions.threaded or store.engine.sync_engine
    on_the_writer = []
    event.listen(writer, "before_cursor_execute", lambda *_: on_the_writer.append(1))
    with listening(store) as sent:
        await service.remember_window_message("c1", outcome.state.pending.window, "555")
    assert (sent.begun, sent.committed, len(sent.statements)) == (1, 1, 1), sent.statements
    assert on_the_writer
    assert (await store.load("c1")).window.message_id == "555"


class Transactions:
    """The statements of each committed transaction, with the engine it ran on."""

    def __init__(self, store) -> None:
        self.open: dict[int, list[str]] = {}
        self.committed: list[tuple[object, list[str]]] = []
        self.store = store

    def statement(self, connection, _cursor, statement: str, *_args) -> None:
        self.open.setdefault(id(connection), []).append(" ".join(statement.split()[:3]))

    def commit(self, connection) -> None:
        self.committed.append((connection.engine, self.open.pop(id(connection), [])))

    def rollback(self, connection) -> None:
        self.open.pop(id(connection), None)


async def test_a_window_closed_at_its_deadline_is_one_transaction_with_its_post(service, store):
    """The timer's "no reaction" and the post that tells the channel (the outbox's row): one
    transaction on the store's writer, beside the statements of the claims and the post made."""
    await service.act("c1", "otto", ADVANCE)
    seen = Transactions(store)
    hooks = (("before_cursor_execute", seen.statement), ("commit", seen.commit), ("rollback", seen.rollback))
    for engine in store.engines:
        for name, hook in hooks:
            event.listen(engine, name, hook)
    await service.clock.advance(120)
    posted = [(engine, done) for engine, done in seen.committed if "INSERT INTO deadline_posts" in done]
    assert len(posted) == 1, seen.committed
    engine, done = posted[0]
    assert engine is (store.transactions.threaded or store.engine.sync_engine)
    assert {"UPDATE games SET", "INSERT INTO game_commands", "DELETE FROM reaction_windows"} <= set(done)
