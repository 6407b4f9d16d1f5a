"""Issue 32: a quick reference card, whose tables are its structure, imports: each part and each
table row is a section. The card here is made up (no game text)."""

from bot.discord_adapter.markdown import markdown
from bot.library.sections import split_document
from bot.services.rules_service import RulesService

CARD = (
    "Made-up Skirmish Card\n"
    "\n"
    "Spotting\n"
    "\n"
    "- How far a unit sees:\n"
    "\n"
    "\tIn the open\tIn woods\n"
    'Scout\t30"\t10"\n'
    'Truck\t20"\t-\n'
    "\n"
    "- Scouts see first.\n"
    "\n"
    "Damage roll\n"
    "\n"
    "Score\tEffect\n"
    "1-3\tShaken\n"
    "4\tStopped\n"
    "\n"
    "Unit table\t\t\t\n"
    "Name\tMove\tMorale\t\n"
    "Jeep\tFast\t3\t\n"
    "Mule train\tSlow\t2\tCarries ammo\n"
    "Orders\t\t\t\n"
    "Runner\tInf.\t4\t\n"
)


def test_a_card_of_tables_splits_into_its_parts_and_a_section_a_row():
    sections = split_document(CARD)
    assert [s.title for s in sections] == [
        "Made-up Skirmish Card", "Spotting", "Scout", "Truck", "Damage roll", "Score 1-3", "Score 4",
        "Unit table", "Jeep", "Mule train", "Runner (Orders)",
    ]  # fmt: skip
    by_title = {s.title: s for s in sections}
    assert by_title["Scout"].body == 'Spotting — How far a unit sees\nIn the open: 30"\nIn woods: 10"'
    assert by_title["Truck"].body == 'Spotting — How far a unit sees\nIn the open: 20"\nIn woods: -'
    assert by_title["Score 1-3"].body == "Damage roll\nEffect: Shaken"
    assert by_title["Mule train"].body == "Unit table\nMove: Slow\nMorale: 2\nCarries ammo"
    assert by_title["Runner (Orders)"].body == "Unit table — Orders\nMove: Inf.\nMorale: 4"
    assert by_title["Spotting"].body.endswith(
        'Truck\t20"\t-\n\n- Scouts see first.'
    )  # the part keeps its table


async def test_a_card_of_tables_imports_and_a_row_answers_by_its_name(store):
    rules = RulesService(store)
    report = markdown(await rules.import_document("g", "admin", "card.txt", CARD.encode()))
    assert report.startswith("Indexed **card** from card.txt: 11 sections (0 numbered)")
    answer = markdown(await rules.lookup("g", "mule train"))
    assert answer.startswith("**Mule train** · card\n")
    assert markdown(await rules.lookup("g", "spotting scout")).startswith("**Scout** · card\n")
