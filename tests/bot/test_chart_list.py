"""/chart list (the service both front ends use): charts grouped by book, in pages that fit a
Discord message."""

import pytest

from bot.discord_adapter.markdown import markdown
from bot.services.dice_service import DiceService
from engine.rolls.charts import charts_by_book, load_charts


@pytest.mark.parametrize("limit", [2000, 400, 120])
def test_every_chart_once_under_its_book_in_pages_within_the_limit(limit):
    pages = [markdown(page) for page in DiceService.chart_list(limit, markdown)]
    assert all(len(page) <= limit for page in pages)
    book, listed = None, []
    for line in "\n".join(pages).splitlines():
        if line.startswith("__**"):
            book = line.removeprefix("__**").split("**__")[0]
        elif line.startswith("**"):
            chart = load_charts()[line.removeprefix("**").split("**")[0]]
            assert chart.book == book
            listed.append(chart.id)
    assert listed == list(load_charts())  # each once, books in order
    assert pages[-1].endswith("`/chart show CHART` explains one")


def test_a_book_that_fits_a_page_is_not_split_and_a_long_one_says_continued():
    pages = [markdown(page) for page in DiceService.chart_list(2000, markdown)]
    assert [page.splitlines()[0].split(" (")[0] for page in pages] == [
        "__**Iron Cross**__",  # with Red Barricades after it
        "__**Cross of Iron**__",  # too long for the rest of the first page: a page of its own
    ]
    count = len(charts_by_book()["Cross of Iron"])
    small = [markdown(page) for page in DiceService.chart_list(400, markdown)]
    assert any(page.startswith(f"__**Cross of Iron**__ ({count} charts) (continued)") for page in small)
