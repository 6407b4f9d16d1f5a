"""Issue 32: text taken from a printed book. Its page numbers and the print code under them are
taken out of the sections; a rule whose opening words the page's columns moved away still starts
where its number stands. The pages here are made up (no game text)."""

from bot.library.sections import split_document


def page(number: int, text: str) -> str:
    return f"{text}\n\n{number}\n\n4711\n\n"


BOOK = (
    page(12, "12.1 MARCHING − Troops march six inches a turn. A column on a road marches on")
    + page(13, "at double speed. 12.2 HALTS − A halted column may dig in.\n\nRange\n\n2\n\n6\n\n12")
    + page(14, "12.3 BIVOUAC − Tents go up at dusk.")
    + "12.4 FIRES − Cooking fires show at night."
)


def test_page_numbers_and_the_print_code_under_them_are_not_text():
    sections = {s.number: s.body for s in split_document(BOOK)}
    assert sections["12.1"] == (
        "MARCHING − Troops march six inches a turn. A column on a road marches on\n\n\n\nat double speed."
    )
    assert (
        sections["12.2"] == "HALTS − A halted column may dig in.\n\nRange\n\n2\n\n6\n\n12"
    )  # a chart's numbers stay
    assert sections["12.3"] == "BIVOUAC − Tents go up at dusk."


def test_a_rule_whose_opening_words_moved_starts_where_its_number_stands():
    text = (
        "12.1 MARCHING − Troops march six inches a turn.\n"
        "14.1 WEATHER − Rain halves marches.\n"
        "12.2 columns.\n"  # the rest of 12.2 was printed in another column
        "12.4 inches of snow stop a column.\n"  # not the next rule of chapter 12: a measure
    )
    assert [s.number for s in split_document(text)] == ["12.1", "14.1", "12.2"]
