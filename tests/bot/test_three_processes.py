"""Three bot processes on one real PostgreSQL share the deadlines: 100 channels each open a
1-second reaction window, one process is killed (SIGKILL) in the middle, and still every window
closes exactly once, with one "closed" post, and every action a process committed is stored.

Each process is the real client (services, timers, claim loop) with Discord stubbed at its HTTP
boundary (tests/bot/deadline_worker.py), writing what it would post to a file of JSON lines."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from sqlalchemy import false, func, select

from bot.discord_adapter.common import post_nonce
from bot.services.game_service import TIMER
from bot.storage.store import GameStore
from bot.storage.tables import CampaignRow, CommandRow, DeadlinePostRow, WindowRow

ROOT = Path(__file__).resolve().parents[2]
CHANNELS = [str(1000 + n) for n in range(100)]  # Discord channel ids are numbers
PROCESSES = 3
VICTIM = 0


@pytest.fixture
def postgres_url(postgres_server, postgres_template) -> str:
    """A fresh PostgreSQL database at the latest revision (skipped without PostgreSQL)."""
    return postgres_server.create_database(template=postgres_template)


def start_worker(url: str, out: Path, channels: list[str]) -> subprocess.Popen:
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "tests.bot.deadline_worker", url, str(out), ",".join(channels) or "-"),
            "--campaigns",
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def read_lines(paths: list[Path]) -> list[dict]:
    return [json.loads(line) | {"process": n} for n, path in enumerate(paths) for line in path.open()]


async def committed(log: Path, actions: int, seconds: float = 20) -> None:
    """Wait until a process has committed ``actions`` actions."""
    limit = time.monotonic() + seconds
    while time.monotonic() < limit:
        if log.exists() and log.read_text().count('"kind": "action"') >= actions:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {actions} actions in {seconds} s")


async def settled(store: GameStore, seconds: float) -> None:
    """Wait until no window is open, no campaign is running and no post is still to make."""
    limit = time.monotonic() + seconds
    running = select(func.count()).select_from(CampaignRow).where(CampaignRow.finished == false())
    while time.monotonic() < limit:
        async with store.sessions() as session:
            left = (
                sum(
                    [
                        (await session.execute(select(func.count()).select_from(table))).scalar_one()
                        for table in (WindowRow, DeadlinePostRow)
                    ]
                )
                + (await session.execute(running)).scalar_one()
            )
        if left == 0:
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"{left} windows, campaigns or posts still outstanding after {seconds} s")


async def test_three_processes_close_every_window_once_though_one_is_killed(postgres_url, tmp_path):
    logs = [tmp_path / f"process{n}.jsonl" for n in range(PROCESSES)]
    shares = [CHANNELS[n::PROCESSES] for n in range(PROCESSES)]
    workers = [start_worker(postgres_url, log, share) for log, share in zip(logs, shares, strict=True)]
    try:
        for worker in workers:
            assert worker.stdout.readline().strip() == "ready"
        for worker in workers:
            worker.stdin.write("go\n")
            worker.stdin.flush()
        await committed(logs[VICTIM], 8)  # mid-run: windows it opened are still open
        os.kill(workers[VICTIM].pid, signal.SIGKILL)
        workers[VICTIM].wait()
        store = GameStore(postgres_url)
        await settled(store, seconds=60)  # a loaded machine takes its time
        for worker in workers[1:]:
            assert worker.stdout.readline().strip() == "played"
            worker.stdin.write("stop\n")
            worker.stdin.flush()
            assert worker.wait(timeout=10) == 0
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()

    lines = read_lines(logs)
    acted = {line["channel"]: line for line in lines if line["kind"] == "action"}
    async with store.sessions() as session:
        rows = list((await session.execute(select(CommandRow))).scalars())
        # the campaigns committed (a process killed between its commit and its log line wrote none)
        campaigns = set((await session.execute(select(CampaignRow.channel_id))).scalars())
    await store.close()
    stored = defaultdict(list)
    for row in rows:
        stored[row.channel_id].append(row)
    # every action a process was told it committed is stored (the victim's included)
    assert {c for c in acted if acted[c]["process"] == VICTIM}, "the victim committed actions"
    assert all(any(r.seq == line["version"] for r in stored[c]) for c, line in acted.items())
    # every window opened closed exactly once, at its deadline
    opened = {channel for channel, commands in stored.items() if commands}
    assert set(acted) <= opened and len(opened) > 2 * len(CHANNELS) // 3
    closes = {c: [r for r in commands if r.user_id == TIMER] for c, commands in stored.items()}
    assert all(len(closes[c]) == 1 for c in opened), "one close per window, no window left open"
    # one "closed" post per window across the three processes, as Discord shows them: a post
    # sent again with the same nonce (its process died before noting it sent) is the same message
    posts = [line for line in lines if line["kind"] == "post" and "window closed" in (line["content"] or "")]
    shown = Counter((line["channel"], line["nonce"]) for line in posts)
    assert sorted(c for c, _ in shown) == sorted(opened)
    assert all(nonce == str(post_nonce(c, str(closes[c][0].seq))) for c, nonce in shown)
    # one reveal post per campaign, the victim's included: its alarm fired once, by whoever held it
    assert {line["channel"] for line in lines if line["kind"] == "campaign"} <= campaigns
    reveals = [line for line in lines if line["kind"] == "post" and "revealed" in (line["content"] or "")]
    revealed = Counter((line["channel"], line["nonce"]) for line in reveals)
    assert campaigns & set(shares[VICTIM]), "the victim started campaigns"
    assert sorted(c for c, _ in revealed) == sorted(campaigns)
    # the survivors took the victim's windows over
    victims = set(shares[VICTIM])
    assert any(line["process"] != VICTIM and line["channel"] in victims for line in posts)
