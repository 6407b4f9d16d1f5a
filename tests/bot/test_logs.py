"""The bot's logs: JSON lines with the fields an admin searches by."""

import json
import logging

from bot.logs import configure_logging
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.commands import JoinSide
from tests.storage.databases import seed_sqlite


async def test_each_applied_command_logs_one_json_line_with_its_latency(tmp_path, capsys):
    configure_logging("INFO", as_json=True)
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"))
    service = GameService(store)
    await service.new_game("c1")
    await service.act("c1", "ann", JoinSide(side="allies", player="ann"))
    await store.close()
    logging.getLogger().handlers.clear()
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    applied = [line for line in lines if line["message"] == "applied"]
    assert len(applied) == 1
    assert applied[0]["channel"] == "c1" and applied[0]["command"] == "join_side"
    assert applied[0]["version"] == 1 and applied[0]["ms"] >= 0 and applied[0]["levelname"] == "INFO"
