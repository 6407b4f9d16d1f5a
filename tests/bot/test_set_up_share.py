"""At its share of the table a side is told it has nothing more to set up and how to finish
(issue 32): the set-up prompt, the console's Next line and the card's buttons agree."""

from bot.console_next import next_line
from bot.discord_adapter.action_card import next_steps
from bot.services.outcome import Outcome
from bot.set_up_steps import set_up_steps
from engine.commands import Deploy
from tests.engine.helpers import P, play
from tests.engine.test_set_up_share import meeting


def placed(state, allied: int, german: int):
    for n in range(max(allied, german)):
        if n < allied:
            state, _ = play(state, Deploy(side="allies", unit=f"a{n}", at=P(6 + 6 * n, 5)))
        if n < german:
            state, _ = play(state, Deploy(side="axis", unit=f"x{n}", at=P(6 + 6 * n, 67), facing=270))
    return state


def test_a_side_at_its_share_is_offered_only_to_say_it_is_done():
    state = placed(meeting(allied=4, german=4), 3, 3)  # 3 of 4 each: both at their share
    assert set_up_steps(state) == (
        "The Allies have as many units on the table as they may start with (3): "
        "/deploy done sends the other 1 unit to reserve"
    )
    outcome = Outcome(state=state, events=[], version=7)
    assert [item.label for item in next_steps(outcome, 42)] == ["Done setting up (Allies)"]
    assert next_line(outcome.next) == "Next (the Allies): /deploy done"


def test_the_prompt_counts_only_the_units_the_share_has_room_for():
    state = placed(meeting(allied=4, german=8), 3, 3)  # the Allies at their share, the Axis 3 of 6
    assert set_up_steps(state) == (
        "To set up (the Axis: 3 units to place, 2 more to reserve): "
        "/deploy unit:NAME at:X,Y, then /deploy done"
    )
