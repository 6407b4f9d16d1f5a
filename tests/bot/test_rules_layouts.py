"""The importer on the layouts rulebooks come in, each on a short made-up document (no game text):
rules running on mid-paragraph, lettered numbers, chapters, headings in capitals, chart and table
headings, and the numbers that must not start a section."""

from pathlib import Path

import pytest
from sqlalchemy import text

from bot.discord_adapter.markdown import markdown
from bot.library.sections import split_document
from bot.services import rules_service
from bot.services.game_service import GameError
from bot.services.rules_service import RulesService

# a printed page run together: many rules in one paragraph, a chapter title glued to its text
RUN_ON = (Path(__file__).parent / "data" / "run-on-rules.txt").read_text(encoding="utf-8")


def numbers(text: str) -> list[str]:
    return [s.number for s in split_document(text)]


def test_rules_running_on_in_a_paragraph_each_start_a_section():
    sections = {s.number: s for s in split_document(RUN_ON)}
    assert numbers(RUN_ON) == [
        "", "40", "40.1", "40.11", "40.12", "40.13", "40.14", "40.2", "40.21", "40.23", "41", "41.1"
    ]  # fmt: skip
    assert sections["40"].title == "FIELD KITCHENS"
    assert sections["40.12"].title == "SOUP"
    assert sections["40.12"].body.startswith("SOUP − Any kitchen may serve soup")
    assert sections["40.12"].body.endswith("and the rules of 40.2 Bread for more.")  # references stay text
    assert sections["40.11"].title == "Unless told otherwise, one kitchen serves a whole company"
    assert sections["40.13"].title == "360° SERVICE" and sections["40.14"].body.startswith("60mm pots")
    assert sections["41"].title == "PANTRY"


def test_a_lost_full_stop_still_starts_the_next_rule_of_the_chapter_but_not_a_reference():
    sections = {s.number: s for s in split_document(RUN_ON)}
    assert sections["40.2"].body.endswith("The cart holds no loaves")
    assert sections["40.21"].body.endswith("A cook keeps a list of 40.22 Fresh loaves.\n(40.13)")
    assert sections["40.23"].title == "Burnt loaves are thrown away"
    # out of order (40.1 after 40.2) or another chapter's number is a reference
    assert numbers("40.2 BREAD: Loaves last. The cart holds 40.1 Loaves and 52.3 Jam.\n") == ["40.2"]


def test_measures_dice_page_numbers_tables_and_lists_start_nothing():
    text = (
        "12.1 MEASURING: Distances are taken from the base.\n"
        "1.5 inches of drift is shown by turning the counter.\n"
        "45\n"
        "1945 was the last year of the war.\n"
        "Roll 2d6 and add 1.5 per level. 3.0 or more counts double: 2.5 Range is halved.\n"
        "Range\t1.5\t3.0\n"
        "| 2.5 | Long | 4.0 |\n"
        "1. Roll the dice first.\n"
        "17. Can a leader help? A. No.\n"
    )
    assert numbers(text) == ["12.1"]


def test_a_books_index_starts_nothing():
    text = (
        "63.9 GUN DESTRUCTION − A crew may wreck its own gun.\n"
        "Mortars 63.24, 63.6 Mortars, movement 63.42-44 Movement 5.0, 5.41-3 Movement in Open 11.3\n"
        "64.2 Rarity factor Pg 61 Red Units 18.41 Repair 18.2 Reverse Movement 71\n"
        "98.3 Americans ……………………. 50 Ammunition ……… 64.9\n"
    )
    assert numbers(text) == ["63.9"]


def test_lettered_numbers_anywhere_in_a_line():
    text = (
        "Special rules for the made-up campaign.\n"
        "XY1. Rivers are frozen. XY2. Bridges may be blown. The exchange of rule O11.6133 applies.\n"
        "O11.6133 SWAP: A crew may swap its gun once. A10.51 Rally: Leaders add their bonus.\n"
    )
    assert numbers(text) == ["", "XY1", "XY2", "O11.6133", "A10.51"]


def test_headings_in_capitals_chapters_and_charts_on_their_own_lines():
    text = (
        "A Made-up Skirmish Game\n"
        "INITIATIVE\n"
        "Each side rolls a die; the higher goes first.\n"
        "2 TROOP TYPES\n"
        "There are three kinds of troops.\n"
        "KABOOM!\n"
        "A vehicle hit hard is destroyed.\n"
        "1. VICTORY CONDITIONS: Hold the bridge at the end.\n"
        "TUNNEL EXIT CHART Δ\n"
        "dr\tResult\n"
        "1\tExit where planned\n"
        "Tunnel Collapse Table\n"
        "A roll of 6 collapses the tunnel.\n"
        "Table 9: Stacking limits in buildings.\n"
        "Three units a level.\n"
        "The result is ready.\n"
    )
    sections = split_document(text)
    assert [(s.number, s.title) for s in sections] == [
        ("", "A Made-up Skirmish Game"),
        ("", "INITIATIVE"),
        ("2", "TROOP TYPES"),
        ("", "KABOOM!"),
        ("1", "VICTORY CONDITIONS"),
        ("", "TUNNEL EXIT CHART"),
        ("", "Tunnel Collapse Table"),
        ("", "Table 9: Stacking limits in buildings"),
    ]
    assert sections[5].body == "dr\tResult\n1\tExit where planned"


def test_a_few_lower_case_words_alone_between_blank_lines_are_a_heading():
    text = "INTRODUCTION\nA quick game.\n\nmoving\n\nUnits move by type.\nthe enemy\nmay react.\n"
    assert [(s.title, s.body) for s in split_document(text)] == [
        ("INTRODUCTION", "A quick game."),
        ("moving", "Units move by type.\nthe enemy\nmay react."),  # a wrapped line is not alone
    ]


@pytest.fixture
async def library(store):
    return RulesService(store)


async def test_a_book_of_run_on_rules_answers_every_number_and_its_chapters(library):
    await library.import_document("g", "admin", "kitchens.txt", RUN_ON.encode())
    for number in ("40.1", "40.11", "40.12", "40.13", "40.14", "40.2", "40.21", "40.23", "41.1"):
        assert markdown(await library.lookup("g", number)).startswith(f"**{number} ")
    chapter = markdown(await library.lookup("g", "40"))
    assert chapter.startswith("**40 FIELD KITCHENS** · kitchens\n")
    assert chapter.endswith("Sections inside it: 40.1, 40.11, 40.12, 40.13, 40.14, 40.2, 40.21, 40.23")
    assert markdown(await library.lookup("g", "41.0")).startswith("**41 PANTRY**")  # an index's name for it
    with pytest.raises(GameError, match="No section 40.22"):
        await library.lookup("g", "40.22")


async def test_a_book_of_headings_in_capitals_imports_and_its_charts_are_entries(library):
    text = (
        "INITIATIVE\nEach side rolls a die; the higher goes first. A tunnel may help.\n"
        "TUNNEL EXIT CHART\nA squad in a tunnel rolls to find where it comes out.\n"
        "TUNNELS\nA tunnel exit chart roll is made each turn a squad is in a tunnel.\n"
    )
    report = markdown(await library.import_document("g", "admin", "skirmish.txt", text.encode()))
    assert report.startswith("Indexed **skirmish** from skirmish.txt: 3 sections (0 numbered)")
    found = markdown(await library.lookup("g", "tunnel exit chart"))
    assert found.startswith("**TUNNEL EXIT CHART** · skirmish\n")  # the chart itself before the mentions
    assert "**TUNNELS** · skirmish" in found


async def test_a_bare_number_that_is_no_chapter_searches_the_words(library):
    years = RUN_ON + "40.3 YEARS: Kitchens of 1945 had stoves.\n"
    await library.import_document("g", "admin", "kitchens.txt", years.encode())
    assert markdown(await library.lookup("g", "1945")).startswith("**40.3 YEARS** · kitchens\n")
    with pytest.raises(GameError, match="No section 39 in"):
        await library.lookup("g", "39")


SEARCHED = (
    "# Made-up Field Manual\n"
    "## FM1 Smoke\nA smoke screen hides units behind it until it drifts away.\n"
    "## FM2 Wind\nThe wind moves smoke one zone a turn and may dissipate it; strong wind dissipates smoke "
    "at once, and smoke never lasts in a gale.\n"
    "## FM3 Rally\nA broken squad rallies beside a leader.\n"
    "## FM4 Burning Vehicles\nA burning wreck gives off smoke as long as it burns.\n"
    "## FM5 Leaders\nA leader adds to the rally roll of every squad with him, and leads assaults.\n"
)


def top_results(answer: str) -> list[str]:
    return [part.split("**")[1] for part in answer.split("\n\n") if part.startswith("**")]


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("smoke", ["FM1 Smoke", "FM2 Wind", "FM4 Burning Vehicles"]),
        ("smoke dissipates", ["FM2 Wind"]),
        ("leader rally", ["FM3 Rally", "FM5 Leaders"]),  # a word of the title weighs more than the text
        # no section has all three words: any of them, the rarer ones further down ranked apart
        ("burning leaders gale", ["FM4 Burning Vehicles", "FM5 Leaders"]),
        ("the wind", ["FM2 Wind"]),
    ],
)
async def test_word_search_ranks_alike_on_sqlite_and_postgresql(store, query, expected):
    library = RulesService(store)
    await library.import_document("g", "admin", "manual.md", SEARCHED.encode())
    answer = markdown(await library.lookup("g", query))
    assert top_results(answer)[: len(expected)] == expected
    assert "**" in answer.split("\n", 1)[1]  # the snippet marks the words found


SLOW_QUERIES = {
    "sqlite": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000000) "
    "SELECT count(*) FROM n",
    "postgresql": "SELECT pg_sleep(5)",
}


@pytest.mark.both_databases
async def test_a_search_past_its_time_is_stopped_on_either_database(store, monkeypatch):
    monkeypatch.setattr(rules_service, "SEARCH_SECONDS", 0.05)
    dialect = store.engine.dialect.name
    with pytest.raises(GameError, match="That search ran past 0.05 s and was stopped"):
        async with store.sessions() as session, rules_service._time_limit(session, dialect):
            await session.execute(text(SLOW_QUERIES[dialect]))
