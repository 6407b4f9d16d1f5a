"""The operators' Prometheus metrics: counted on the real paths, served over HTTP when asked."""

import asyncio
import urllib.request
from datetime import timedelta

import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.services.campaign_service import CampaignService
from bot.services.game_service import GameService
from engine.campaign import phases
from engine.runtime import VirtualClock
from tests.bot.discord_harness import ANN, close_bot, open_bot, reply, started_game
from tests.bot.test_reaction_windows import ADVANCE, ready

DAY = timedelta(days=1)

WATCHED = {
    "joins": ("ironcross_actions_applied_total", {"command": "join_side"}),
    "starts": ("ironcross_actions_applied_total", {"command": "start_game"}),
    "refusals": ("ironcross_refusals_total", {}),
    "acknowledged": ("ironcross_first_response_seconds_count", {}),
}


def counts() -> dict[str, float]:
    return {key: REGISTRY.get_sample_value(name, labels) or 0.0 for key, (name, labels) in WATCHED.items()}


def scrape(port: int) -> dict[tuple[str, tuple], float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        page = response.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(page)
        for sample in family.samples
    }


async def test_slash_commands_count_actions_refusals_and_acknowledgements(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    before = counts()
    await started_game(bot, discord)  # /game new, two /game join, /game start
    text, private = reply(await discord.slash("initiative", user=ANN, channel="1", choice="start"))
    assert private and text  # the allies did not win the initiative: refused
    after = counts()
    assert {key: after[key] - before[key] for key in WATCHED} == {
        "joins": 2,
        "starts": 1,
        "refusals": 1,
        "acknowledged": 5,
    }
    async with metrics.served(0, bot.games.store) as port:
        page = await asyncio.to_thread(scrape, port)
    assert page[("ironcross_actions_applied_total", (("command", "join_side"),))] == after["joins"]
    assert page[("ironcross_refusals_total", ())] == after["refusals"]
    assert page[("ironcross_first_response_seconds_count", ())] == after["acknowledged"]
    await close_bot(bot)


@pytest.mark.both_databases
async def test_open_windows_and_overdue_deadlines_are_read_from_the_database(store):
    service = GameService(store, clock=VirtualClock())
    await ready(service)
    await service.act("c1", "otto", ADVANCE)
    (window,) = await store.open_windows()
    await metrics.sample(store, now=window.deadline + metrics.OVERDUE_AFTER)
    assert REGISTRY.get_sample_value("ironcross_open_windows") == 1
    assert REGISTRY.get_sample_value("ironcross_overdue_deadlines", {"kind": "window"}) == 0
    await metrics.sample(store, now=window.deadline + metrics.OVERDUE_AFTER + timedelta(seconds=1))
    assert REGISTRY.get_sample_value("ironcross_overdue_deadlines", {"kind": "window"}) == 1
    await service.close()


@pytest.mark.both_databases
async def test_a_campaign_phase_past_its_alarm_counts_as_overdue(store):
    clock = VirtualClock()
    campaigns = CampaignService(store, clock=clock)
    await campaigns.create(
        "c1",
        "Barrikady",
        {"german": ["ann"], "russian": ["cat"]},
        "17 Oct",
        {"german": 1, "russian": 1},
        1,
        DAY,
    )
    await campaigns.close()  # its timers stopped: the alarms are not rung
    (stored,) = await campaigns.campaigns.unfinished()
    (first, *_) = sorted(alarm.at for alarm in phases.alarms(stored.campaign))
    await metrics.sample(store, now=first + metrics.OVERDUE_AFTER)
    assert REGISTRY.get_sample_value("ironcross_overdue_deadlines", {"kind": "campaign_phase"}) == 0
    await metrics.sample(store, now=first + metrics.OVERDUE_AFTER + timedelta(seconds=1))
    assert REGISTRY.get_sample_value("ironcross_overdue_deadlines", {"kind": "campaign_phase"}) == 1
