"""One composition root (issue 20, step 5): ``bot/app.py`` builds every service once, and the
front ends are handed them; no cog, desk or command builds a service of its own."""

import ast
from dataclasses import fields
from pathlib import Path

from bot.app import Services
from bot.discord_adapter.client import IronCrossBot
from bot.services.game_service import GameService

ROOT = Path(__file__).resolve().parents[2]
FRONT_ENDS = sorted([*(ROOT / "bot" / "discord_adapter").glob("*.py"), *(ROOT / "bot").glob("console*.py")])
SERVICES = {str(field.type) for field in fields(Services)}  # GameService, TurnPings, CampaignStats...


def test_the_front_ends_build_no_service():
    built = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.func.id}"
        for path in FRONT_ENDS
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SERVICES
    ]
    assert len(SERVICES) == 17 and built == []


async def test_the_discord_client_serves_with_the_services_it_is_given(store):
    services = Services.around(GameService(store))
    client = IronCrossBot(services)
    try:
        for field in fields(Services):
            assert getattr(client, field.name) is getattr(services, field.name), field.name
        # the cogs plug Discord's ways in: where notices are posted (replies are written as Markdown)
        assert services.games.on_window_closed == client.announce
        campaign = client.tree.get_command("campaign")
        assert services.campaigns.on_reminder == campaign.remind  # type: ignore[union-attr]
        assert services.linked_campaigns.on_carried == campaign.post  # type: ignore[union-attr]
        assert services.pings.on_ping == client.tree.get_command("games").send_ping
        assert services.lobbies.on_expired is not None  # the lobby's post edited when it expires
    finally:
        await client.close()
