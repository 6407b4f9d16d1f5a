"""/stats at the offline console: a hot-seat game's sides count as their own players."""

import io

from bot.console import play_console
from engine.dice import ScriptedDice, d6, d10


async def test_console_stats_by_side_at_a_hot_seat_table_and_the_roller(tmp_path):
    dice = ScriptedDice([d6(2), d6(5), d10(7), d10(1)])  # initiative allies 2, axis 5; then /roll
    out = io.StringIO()
    lines = "/stats\n/start\n/roll 2d10 5+\n/stats\n"
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    assert await play_console(io.StringIO(lines), out, url, dice=lambda: dice) == 0
    assert dice.remaining == 0
    text = out.getvalue()
    assert "No dice have been rolled yet" in text
    stats = text[text.index("Dice statistics: 4 dice") :]
    allies, axis, roller = stats.split("\n\n")[1:4]
    assert allies.startswith("allies: 1 die\n") and "d6 faces 1:0 2:1 3:0 4:0 5:0 6:0" in allies
    assert axis.startswith("axis: 1 die\n") and "d6 faces 1:0 2:0 3:0 4:0 5:1 6:0" in axis
    assert roller.startswith("console: 2 dice\n")
    assert "d10  chart/other           2  4.00  5.50" in roller
    assert "d10 faces 1:1 2:0 3:0 4:0 5:0 6:0 7:1 8:0 9:0 10:0 (fair 0.2 each)" in roller
    assert "hits" not in stats  # no to-hit throw yet
