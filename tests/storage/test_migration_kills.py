"""A start-up killed at any moment of its migrations never bricks the database (issue 19, item 2)."""

import random

import pytest

from tests.storage.upgrade_kills import HOOKS, Kill, kill_and_restart, statements_in_upgrade, upgrade

KILLS = 6  # per case: 12 kills per database, over two cases


def kill_points(totals: dict[str, int], rng: random.Random) -> list[Kill]:
    """``KILLS`` statements drawn over the whole upgrade: one at random in each ``KILLS``-th part of
    it, killed before or after it runs (``totals``: how many statements each hook sees)."""
    kills = []
    for part in range(KILLS):
        hook = rng.choice(HOOKS)
        total = totals[hook]
        kills.append(Kill(rng.randint(total * part // KILLS + 1, total * (part + 1) // KILLS), hook))
    return kills


@pytest.mark.both_databases
@pytest.mark.parametrize("start_at", [None, "0006"], ids=["fresh", "from-0006"])
def test_a_start_up_killed_at_random_statements_always_starts_again(new_empty_database, start_at):
    """The upgrade of a new database (or of one at revision 0006) is killed in a child process
    right before or after a random statement; each time, the next start reaches the latest
    revision and a game can be set up."""
    scratch = new_empty_database()
    if start_at:
        upgrade(scratch, start_at)
    totals = statements_in_upgrade(scratch)
    assert min(totals.values()) >= KILLS
    seed = random.randrange(1 << 32)
    kills = kill_points(totals, random.Random(seed))
    faults = {kill: kill_and_restart(new_empty_database, kill, start_at) for kill in kills}
    assert {kill: fault for kill, fault in faults.items() if fault} == {}, f"seed {seed}"


def test_the_last_statement_each_hook_sees_can_be_killed_at(new_empty_database):
    """A kill drawn at the very end of the upgrade fires, before or after its statement: the
    random kills above never pass for a kill that did not happen."""
    totals = statements_in_upgrade(new_empty_database())
    for hook, total in totals.items():
        assert kill_and_restart(new_empty_database, Kill(total, hook), None) is None
