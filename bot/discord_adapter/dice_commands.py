"""``/roll``, ``/chart``, ``/odds``, ``/stats`` and ``/measure``: dice and looking for everyone in a channel,
with or without a game, each carried out by its handler (:mod:`bot.handlers.lookups`)."""

from __future__ import annotations

from discord import app_commands

from bot.discord_adapter.answers import PRIVATE
from bot.discord_adapter.common import suggestions
from bot.discord_adapter.handled_commands import handled_command
from bot.discord_adapter.play_commands import enemy_units, own_units
from bot.discord_adapter.served import Interaction
from engine.firing.odds import profile_labels
from engine.rolls.charts import load_charts


async def chart_names(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    return suggestions(current, {f"{c.id}: {c.title}": c.id for c in load_charts().values()})


async def unit_profiles(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Units by "Name (nation)", nearest to what was typed first."""
    return suggestions(current, profile_labels())


roll_command = handled_command("roll")
stats_command = handled_command("stats")
measure_command = handled_command("measure", {"unit": own_units, "to": enemy_units}, extras=PRIVATE)


class ChartCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(
            name="chart",
            description="Roll on named charts: Iron Cross tests, Red Barricades and Cross of Iron tables",
        )
        handled_command("chart roll", {"chart": chart_names}, group=self)
        handled_command("chart list", group=self, extras=PRIVATE)
        handled_command("chart show", {"chart": chart_names}, group=self, extras=PRIVATE)


class OddsCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="odds", description="Exact chances before you roll: a shot, or any test")
        handled_command("odds shot", {"firer": unit_profiles, "target": unit_profiles}, group=self)
        handled_command("odds fire", group=self, extras=PRIVATE)
        handled_command("odds test", group=self)
