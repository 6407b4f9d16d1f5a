"""A linked Iron Cross campaign of three battles at the console table, with seeded dice: forces
built with /force, the campaign set up with /campaign linked new, each battle set up with
/campaign linked battle and played to its result by random legal orders typed as text. The
game service's end-of-game hook carries each result into the campaign: losses and purchases
carry over to the next battle, exactly; the players then end the campaign, and its /stats add up
every battle's dice."""

import io
import random
import re

from bot.app import Services
from bot.console import ConsoleTable
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import SeededDice
from engine.game import awaiting
from engine.state import Phase
from engine.wording import side_label, side_name
from tests.bot.test_console_scenarios import PLAYERS, random_step, set_up
from tests.storage.databases import seed_sqlite

FORCES = {
    "ann": ("us", "Able", ["Infantry Detachment"] * 3 + ["Sherman 75mm"]),
    "otto": ("german", "KG", ["Infantry Detachment"] * 3 + ["Panzer IV G (late) to J"]),
}
BATTLES = ["scenario:meeting", "scenario:escalating", "scenario:capture attacker:axis"]


async def build_forces(table: ConsoleTable) -> None:
    answers = []
    for player, (nation, name, profiles) in FORCES.items():
        answers.append(await table.handle(f"as {player} /force new nation:{nation} name:{name} points:150"))
        for profile in profiles:
            answers.append(await table.handle(f'as {player} /force add force:{name} unit:"{profile}"'))
        command = f'as {player} /force upgrade force:{name} unit:"Infantry Detachment 1" command'
        answers.append(await table.handle(command))
    assert not [a for a in answers if a.startswith("Not allowed")]


async def play_to_result(table: ConsoleTable, rng: random.Random) -> None:
    replies = [reply for _, reply in await set_up(table, rng)]
    replies.append(await table.handle("as otto /game start"))
    for _ in range(3000):
        if table.state.phase is Phase.OVER:
            break
        player = PLAYERS[awaiting(table.state) or "axis"]
        replies.append(await random_step(table, player, rng))
    assert table.state.phase is Phase.OVER
    assert not [r for r in replies if r.startswith("Something went wrong")]


def standing_units(standings: str, side: str) -> list[str]:
    """The units a side's force holds, from the line under its standings."""
    lines = standings.splitlines()
    index = next(n for n, text in enumerate(lines) if text.startswith(f"{side_label(side)} ("))
    return [re.sub(r" \([^()]*\)$", "", u) for u in lines[index + 1].strip().split(", ")]


def points(standings: str, side: str) -> int:
    found = re.search(rf"^{side_label(side)} \(.*; (\d+) reinforcement points;", standings, re.MULTILINE)
    return int(found[1])


def label(unit) -> str:
    """The force's label for a game unit, also while it hides under a marker or says whose it is."""
    return unit.called or unit.true_name or unit.name


def fielded(table: ConsoleTable, side: str) -> list[str]:
    return [label(u) for u in table.state.units_of(side) if not u.dummy]


async def test_a_three_battle_linked_campaign_carries_losses_and_purchases(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'linked.db'}", shipped=True))
    dice = SeededDice(5)
    table, _ = await ConsoleTable.open(Services.around(GameService(store, dice=lambda: dice)))
    out = io.StringIO()
    table.campaigns.out = out
    await build_forces(table)
    created = await table.handle(
        "/campaign linked new name:Normandy allies:ann allies_force:Able axis:otto axis_force:KG"
    )
    assert created.startswith("Linked campaign Normandy set up.")
    rng = random.Random(11)
    lost_in_all, damaged, came_back, leaderless = 0, [], [], []
    purchases, wins, dice_per_battle = {}, {side: 0 for side in PLAYERS}, []
    for number, battle in enumerate(BATTLES, start=1):
        before = await table.handle("/campaign linked standings")
        forces = {side: standing_units(before, side) for side in PLAYERS}
        reply = await table.handle(f"as ann /campaign linked battle {battle}")
        if leaderless:  # a command unit fell in the battle before: its side names another first
            assert reply == "Not allowed: Not ready for the next battle: " + "; ".join(
                f"{side_label(side)}: Command unit (p. 18): no unit is the command unit: choose one"
                for side in leaderless
            )
            for side in leaderless:
                named = await table.handle(
                    f'as {PLAYERS[side]} /campaign linked command side:{side} unit:"{forces[side][0]}"'
                )
                assert named == f"{forces[side][0]} is now {side_name(side)}' command unit"
            reply = await table.handle(f"as ann /campaign linked battle {battle}")
        assert reply.startswith(f"Normandy, battle {number}:")
        # both forces are brought as they stand: losses gone, purchases there, and damaged units
        # back with their morale markers gone
        assert {side: fielded(table, side) for side in PLAYERS} == forces
        assert all(label in fielded(table, side) for side, label in purchases.items())  # they fight
        assert all(u.morale_markers == 0 for u in table.state.units.values())
        came_back += [(side, name) for side, name in damaged if name in fielded(table, side)]

        await play_to_result(table, rng)
        final, winner = table.state, table.state.result.winner
        if winner is not None:
            wins[winner] += 1
        game_stats = await table.handle("/stats")
        dice_per_battle.append(int(re.match(r"Dice statistics: (\d+) dice", game_stats)[1]))
        notice = out.getvalue()
        out.seek(0)
        out.truncate()
        # the game service's end-of-game hook carried the result into the campaign
        assert notice.startswith(f"\n[campaign] Normandy, battle {number}. ")
        after = await table.handle("/campaign linked standings")
        damaged = [
            (u.side, label(u))
            for u in final.units.values()
            if not u.dummy and not u.destroyed and u.morale_markers
        ]
        leaderless = [
            side for side in PLAYERS if any(u.is_command and u.destroyed for u in final.units_of(side))
        ]
        fought = after.split("History:\n")[1].splitlines()[-1]
        for side in PLAYERS:
            lost = [label(u) for u in final.units_of(side) if u.destroyed and not u.dummy]
            lost_in_all += len(lost)
            assert standing_units(after, side) == [u for u in forces[side] if u not in lost]
            earned = 40 if winner is None else 50 if winner == side else 30
            assert points(after, side) == points(before, side) + earned
            hurt = ", ".join(name for owner, name in damaged if owner == side)
            assert (
                f"{side_name(side)} lost {', '.join(lost) or 'nothing'}"
                + (f", damaged {hurt}" if hurt else "")
                + f", +{earned} points"
            ) in fought
        # each side buys a detachment with its points, for the next battle
        for side, player in PLAYERS.items():
            bought = await table.handle(
                f'as {player} /campaign linked buy side:{side} unit:"Infantry Detachment"'
            )
            assert bought.startswith(f"{side_name(side, start=True)} buy Infantry Detachment ")
            assert points(bought, side) == points(after, side) - 25
            assert standing_units(bought, side)[-1] in bought.splitlines()[0]
            purchases[side] = standing_units(bought, side)[-1]
    history = (await table.handle("/campaign linked standings")).split("History:\n")[1].splitlines()
    assert [h.split(":")[0] for h in history] == [
        "1. Meeting Engagement",
        "2. Escalating Engagement",
        "3. Capture",
    ]
    assert lost_in_all and came_back  # the seeded battles did destroy and damage units
    ended = await table.handle("as otto /campaign linked end")
    first, then = sorted(PLAYERS, key=lambda side: -wins[side])
    assert ended.splitlines()[0] == (
        f"Normandy is over after 3 battles: a draw, {wins[first]} win{'s' * (wins[first] != 1)} each"
        if wins[first] == wins[then]
        else f"Normandy is over after 3 battles: {side_name(first)} ({PLAYERS[first]}) win the campaign, "
        f"{wins[first]} win{'s' * (wins[first] != 1)} to {wins[then]}"
    )
    assert ended.splitlines()[1].startswith("Normandy (over): 3 battles fought")
    campaign_stats = await table.handle("/stats campaign")
    assert campaign_stats.splitlines()[:2] == [
        "Campaign Normandy: 3 battles fought",
        f"Dice statistics: {sum(dice_per_battle)} dice",
    ]
    await store.close()
