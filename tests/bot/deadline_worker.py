"""One bot process for tests/bot/test_three_processes.py and benchmarks/scale_out.py: the real
client (its services, timers and claim loop, :mod:`bot.services.deadline_loop`) on a shared
database, without a gateway; what it would send to Discord is caught at discord.py's HTTP
boundary and written to ``OUT`` as JSON lines, with each action it committed.

    python -m tests.bot.deadline_worker DATABASE_URL OUT CHANNELS [--every S] [--lease S] [--spacing S]
        [--window S] [--answer] [--at-once N] [--campaigns]

It says "ready", waits for "go" on its input, then opens a reaction window (``--window``
seconds long) in each channel of the comma-separated ``CHANNELS``, ``--spacing`` seconds apart
(``--at-once`` channels at a time), the reacting side answering it at once if ``--answer``, and
with ``--campaigns`` a one-phase campaign in each, revealed after as long; says
"played" and keeps firing deadlines until its input says "stop" (or ends). A channel named "-"
stands for none: the process only fires deadlines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from datetime import timedelta
from typing import Any

import discord
from discord.http import HTTPClient

from bot.app import Services
from bot.discord_adapter.client import IronCrossBot
from bot.services.deadline_loop import DeadlineLoop
from bot.services.game_service import GameService
from bot.storage.deadline_claims import Claims, process_name
from bot.storage.store import GameStore
from engine.commands import Declare, DeclineReaction, Move, UnitOrder
from engine.scenarios.new_game import make_unit
from engine.state import Point
from tests.bot.discord_harness import APPLICATION, _message, request_body, text_of
from tests.engine.helpers import game, started

ADVANCE = Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(Point(x=80, y=56),)),)))


def skirmish():
    """A German detachment about to advance on an American one, which may react."""
    return started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis"),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
    )


class Recorder:
    """Writes each line at once (a process killed with SIGKILL loses nothing it wrote)."""

    def __init__(self, path: str) -> None:
        self.out = open(path, "a", buffering=1)  # noqa: SIM115 - open for the process's life

    def write(self, **line: Any) -> None:
        self.out.write(json.dumps(line) + "\n")


def stub_discord(client: discord.Client, recorder: Recorder) -> None:
    """Logged in as far as discord.py needs; every request is written down and answered as
    Discord would answer a posted message."""
    state = client._connection
    me = {"id": APPLICATION, "username": "ironcross", "discriminator": "0", "avatar": None, "bot": True}
    state.user = discord.ClientUser(state=state, data=me)

    async def request(http, route, **kwargs):
        payload = request_body(kwargs.get("json"), kwargs.get("form"))  # a card comes with its picture
        recorder.write(
            kind="post",
            route=f"{route.method} {route.path}",
            channel=str(route.channel_id),
            content=text_of(payload),
            nonce=payload.get("nonce"),
            at=time.time(),
        )
        return _message(route.channel_id, payload.get("content") or "")

    HTTPClient.request = request  # type: ignore[method-assign]


async def play(
    client: IronCrossBot, channel: str, recorder: Recorder, window: int, answer: bool, campaign: bool
) -> None:
    """A game whose window opens with its first action (its timer is armed here), answered by
    the reacting side if ``answer``; each action committed is written down. With ``campaign``,
    the channel also runs a campaign of one phase, revealed ``window`` seconds later."""
    games = client.games
    if campaign:
        players, cpp = {"german": ["1"], "russian": ["2"]}, {"german": 1, "russian": 1}
        every = timedelta(seconds=window)
        await client.campaigns.create(channel, "K", players, "17 Oct", cpp, 1, every, reminders=())
        recorder.write(kind="campaign", channel=channel, at=time.time())
    await games.store.create(channel, skirmish(), reaction_seconds=window)
    outcome = await games.act(channel, "otto", ADVANCE)
    recorder.write(kind="action", channel=channel, version=outcome.version, at=time.time())
    if answer:
        pending = outcome.state.pending
        no = DeclineReaction(side=pending.reactor_side, window=pending.window)
        outcome = await games.act(channel, "ann", no)
        recorder.write(kind="action", channel=channel, version=outcome.version, at=time.time())


async def main(args: argparse.Namespace) -> None:
    recorder = Recorder(args.out)
    store = GameStore(args.database_url)
    games = GameService(store, claims=Claims(store, process_name(), timedelta(seconds=args.lease)))
    client = IronCrossBot(Services.around(games))
    stub_discord(client, recorder)
    loop = DeadlineLoop(client.games, client.pings, client.campaigns, every=timedelta(seconds=args.every))
    loop.start()  # as the client's setup_hook does, without the gateway
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    channels = [c for c in args.channels.split(",") if c != "-"]
    at_once = asyncio.Semaphore(args.at_once)

    async def one(channel: str) -> None:
        async with at_once:
            await play(client, channel, recorder, args.window, args.answer, args.campaigns)
            await asyncio.sleep(args.spacing)

    await asyncio.gather(*(one(channel) for channel in channels))
    print("played", flush=True)
    await asyncio.to_thread(sys.stdin.readline)  # "stop"
    await loop.close()
    await client.pings.close()
    await client.campaigns.close()
    await games.close()
    await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("database_url")
    parser.add_argument("out")
    parser.add_argument("channels")
    parser.add_argument("--every", type=float, default=0.1)
    parser.add_argument("--lease", type=float, default=1.5)
    parser.add_argument("--spacing", type=float, default=0.03)
    parser.add_argument("--window", type=int, default=1)
    parser.add_argument("--answer", action="store_true")
    parser.add_argument("--at-once", type=int, default=1)
    parser.add_argument("--campaigns", action="store_true")
    asyncio.run(main(parser.parse_args()))
