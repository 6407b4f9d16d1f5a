"""The rule sets and scenarios offered by /game new, in Discord and at the console, are the
registered rule sets and the scenarios of the data (issue 20, step 2)."""

from bot.console_help import command_list
from bot.discord_adapter.game_commands import GameCommands
from engine.rulesets import RULE_SETS
from engine.scenarios.book import load_scenarios


def test_game_new_offers_the_registered_rule_sets_and_the_books_scenarios():
    new = GameCommands().get_command("new")
    options = {parameter.name: parameter for parameter in new.parameters}
    rule_sets = {choice.value: choice.name for choice in options["ruleset"].choices}
    assert rule_sets == {name: rules.title for name, rules in RULE_SETS.items()}
    assert [choice.value for choice in options["scenario"].choices] == ["quick", *load_scenarios()]
    assert "[ruleset:core_2015|house_v1]" in command_list()
    assert "[scenario:quick|meeting|escalating|capture|breakthrough]" in command_list()
