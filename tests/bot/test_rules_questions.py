"""Issue 32: rule questions as players ask them. A rule number inside a sentence leads to that
section first; a number with no section of its own leads to the sections that cite it when its
book is not in the library, and is refused saying where it is cited when it is a gap in a book
that is. The documents are made up here (no game text)."""

import pytest

from bot.discord_adapter.markdown import markdown
from bot.services.game_service import GameError
from bot.services.rules_service import RulesService

# Many sections say "what does rule 63.22 say" in their own words; the section itself does not.
MANUAL = (
    "# Made-up Field Manual\n"
    "## 63.21 Placement\nA smoke screen is placed in front of the firer.\n"
    "## 63.22 Dispersal\nCounters go away at the end of the turn, the wind carrying them off.\n"
    "## 63.23 Questions\nWhat does rule 63.22 say about wind? Players say it is unclear.\n"
    "## 63.24 More Questions\nWhat does rule 63.22 say in rain? Players often say it does not apply.\n"
    "## 63.25 Errata\nRule 63.22 does say what the errata say; see rule 63.22 for what they say.\n"
    "## 70.1 Drift\nSmoke drifts 1.5 inches downwind each turn.\n"
)

# A campaign's own rules, citing a rule of a book the library does not have (chapter Q12).
CAMPAIGN = (
    "# Made-up Campaign\n"
    "## CC1 Night\nDarkness falls on the last turn of each day.\n"
    "## CC2 Tanks\nIn rule Q12.34 (Crew Swap) read must for may. A crew swaps its gun once a day.\n"
    "## CC3 Rubble\nA collapsed house blocks the road (see Q12.341 for the debris).\n"
)


@pytest.fixture
async def library(store):
    rules = RulesService(store)
    await rules.import_document("g", "admin", "manual.md", MANUAL.encode())
    await rules.import_document("g", "admin", "campaign.md", CAMPAIGN.encode())
    return rules


def headings(answer: str) -> list[str]:
    return [part.split("**")[1] for part in answer.split("\n\n") if part.startswith("**")]


@pytest.mark.parametrize(
    "question",
    ["what does rule 63.22 say", "rule 63.22", "Rule 63.22?", "what does 63.22 say about the wind"],
)
async def test_a_rule_number_inside_a_sentence_leads_to_that_section_first(library, question):
    answer = markdown(await library.lookup("g", question))
    assert answer.startswith("**63.22 Dispersal** · manual\nCounters go away at the end of the turn")
    assert headings(answer) == ["63.22 Dispersal"]  # the section whole, as /rule 63.22 shows it
    # a measure in a sentence is no rule: its words are searched
    assert markdown(await library.lookup("g", "smoke drifts 1.5 inches")).startswith("**70.1 Drift**")


async def test_several_numbers_in_a_sentence_each_lead_to_their_section(library):
    answer = markdown(await library.lookup("g", "is 63.21 or CC1 first?"))
    assert headings(answer) == ["63.21 Placement", "CC1 Night"]


@pytest.mark.both_databases
@pytest.mark.parametrize("question", ["Q12.34", "(Q12.34)", "what does rule Q12.34 say", "q12.34"])
async def test_a_rule_of_a_book_not_in_the_library_leads_to_the_section_citing_it(store, question):
    rules = RulesService(store)
    await rules.import_document("g", "admin", "campaign.md", CAMPAIGN.encode())
    answer = markdown(await rules.lookup("g", question))
    assert answer.startswith("**Q12.34** has no section of its own in this library; it is cited in:\n\n")
    assert headings(answer) == ["Q12.34", "CC2 Tanks"]  # not CC3, which cites Q12.341
    assert "In rule **Q12.34** (Crew Swap) read must for may." in answer
    with pytest.raises(GameError, match="No section Q12.3 in"):
        await rules.lookup("g", "Q12.3")  # cited nowhere (Q12.34 is another rule)


async def test_a_gap_in_a_book_the_library_has_is_refused_saying_where_it_is_cited(library):
    await library.import_document("g", "admin", "gap.md", b"## 40.1 Kitchens\nSee 40.3 for bread.\n")
    with pytest.raises(
        GameError, match=r"^No section 40\.3 in this server's rules library \(40\.1 cites it\)"
    ):
        await library.lookup("g", "40.3")
    with pytest.raises(
        GameError, match=r"^No section 40\.3 in this server's rules library \(40\.1 cites it\)"
    ):
        await library.lookup("g", "what does rule 40.3 say")
