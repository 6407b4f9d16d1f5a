"""The rules library: splitting documents into sections, lookup by number, FTS5 word search,
imports per server with their limits, and the bot's own Iron Cross summaries."""

from pathlib import Path

import pytest

from bot.discord_adapter.markdown import markdown
from bot.library.sections import Section, is_section_number, split_document
from bot.services.game_service import GameError
from bot.services.rules_service import (
    LIBRARY_DIR,
    MAX_BYTES,
    MAX_SOURCES,
    RulesService,
    is_subsection,
    match_query,
    postgres_query,
)

NUMBERED = (Path(__file__).parent / "data" / "numbered-rules.txt").read_bytes()


@pytest.fixture
async def library(store):
    rules = RulesService(store)
    await rules.ship()
    return rules


def test_a_document_splits_at_headings_and_numbered_sections():
    sections = split_document(NUMBERED.decode())
    assert [s.number for s in sections] == [
        "",
        "7",
        "7.31",
        "A10",
        "A10.5",
        "A10.51",
        "63",
        "63.2",
        "63.22",
        "O11.6133",
        "RB9",
        "CG9",
    ]
    assert sections[0] == Section(
        "",
        "Test Rules Compendium",
        "Test Rules Compendium\nThis made-up document exists only to test the importer. "
        "None of it is real game text.",
    )
    dispersal = sections[8]
    assert dispersal.title == "Dispersal"
    assert dispersal.body.endswith("1.5 inches of drift is shown by turning the counter.")
    assert sections[5].body.endswith("Broken units never rally while an enemy is adjacent.")


def test_markdown_headings_with_and_without_numbers():
    text = "# Guide\nIntro.\n## IC6.1 Reacting (p. 6)\nA unit may react.\n### Notes\n1. Roll first.\n"
    assert split_document(text) == [
        Section("", "Guide", "Intro."),
        Section("IC6.1", "Reacting (p. 6)", "A unit may react."),
        Section("", "Notes", "1. Roll first."),
    ]


@pytest.mark.parametrize("query", ["63.22", "o11.6133", "RB9", "7.31", "IC6.1", "A10.51", "CG9"])
def test_section_numbers_are_told_from_words(query):
    assert is_section_number(query)


@pytest.mark.parametrize("query", ["smoke", "smoke dissipate", "1945", "12", "iaw"])
def test_words_are_not_section_numbers(query):
    assert not is_section_number(query)


def test_subsections_follow_the_numbering():
    assert is_subsection("a10.51", "a10.5") and is_subsection("a1.1", "a1") and is_subsection("63.22", "63")
    assert not is_subsection("a10", "a1") and not is_subsection("a10.5", "a10.5")


def test_words_are_quoted_and_aliases_widened():
    aliases = {"iaw": ["infantry anti-tank weapon", "piat"]}
    assert match_query(["iaw", "range"], aliases, any_word=False) == (
        '("iaw" OR "infantry anti-tank weapon" OR "piat") AND "range"'
    )
    assert match_query(['or"', "near"], {}, any_word=True) == '"or" OR "near"'
    assert postgres_query(["iaw", "range"], aliases, any_word=False) == (
        "(phraseto_tsquery('english', :w0_0) || phraseto_tsquery('english', :w0_1) || "
        "phraseto_tsquery('english', :w0_2)) && (phraseto_tsquery('english', :w1_0))",
        {"w0_0": "iaw", "w0_1": "infantry anti-tank weapon", "w0_2": "piat", "w1_0": "range"},
    )


@pytest.mark.both_databases
async def test_the_iron_cross_summaries_work_out_of_the_box(library):
    answer = markdown(await library.lookup("g", "IC12.6"))
    assert answer.startswith("**IC12.6 Smoke (p. 12)** · Iron Cross (2015): rule summaries\n")
    assert "5+" in answer
    searched = markdown(await library.lookup("g", "reactivation"))
    assert searched.startswith("**IC5.2 Reactivation tests (p. 5)**")
    assert "**Reactivation**" in searched or "**reactivation**" in searched


async def test_shipping_again_is_a_no_op_until_the_file_changes(library):
    async with library.store.sessions() as session:
        from sqlalchemy import text

        before = (await session.execute(text("SELECT min(id), count(*) FROM rule_sections"))).one()
    await library.ship()
    async with library.store.sessions() as session:
        after = (await session.execute(text("SELECT min(id), count(*) FROM rule_sections"))).one()
    shipped = sum(len(split_document(f.read_text(encoding="utf-8"))) for f in LIBRARY_DIR.glob("*.md"))
    assert before == after and after[1] == shipped == 70 + 80  # the 2015 and the house-rules summaries


async def test_import_then_look_up_by_number_whole_with_its_source(library):
    report = markdown(await library.import_document("g", "admin", "numbered-rules.txt", NUMBERED))
    assert report == (
        "Indexed **numbered-rules** from numbered-rules.txt: 12 sections (11 numbered, numbered 7 to CG9), "
        f"{len(NUMBERED.decode()):,} characters. Only this server sees it."
    )
    answer = markdown(await library.lookup("g", "63.22"))
    assert answer == (
        "**63.22 Dispersal** · numbered-rules\n"
        "Dispersal: Smoke counters dissipate at the end of the player turn, the wind carrying them off.\n"
        "1.5 inches of drift is shown by turning the counter."
    )
    assert markdown(await library.lookup("g", "a10.5")).endswith("Sections inside it: A10.51")
    for number in ("O11.6133", "RB9", "7.31", "CG9"):
        assert markdown(await library.lookup("g", number)).startswith(f"**{number} ")


@pytest.mark.both_databases
async def test_words_rank_sections_with_highlighted_snippets(library):
    await library.import_document("g", "admin", "numbered-rules.txt", NUMBERED)
    answer = markdown(await library.lookup("g", "smoke dissipate"))
    first = answer.split("\n\n")[0]
    assert first.startswith("**63.22 Dispersal** · numbered-rules\n")
    assert "**Smoke** counters **dissipate**" in first


@pytest.mark.both_databases
async def test_another_server_never_sees_an_import(library):
    await library.import_document("g", "admin", "numbered-rules.txt", NUMBERED)
    with pytest.raises(GameError, match="No section 63.22"):
        await library.lookup("other", "63.22")
    with pytest.raises(GameError, match="Nothing in this server's rules library mentions 'sewer exit'"):
        await library.lookup("other", "sewer exit")
    assert "numbered-rules" not in markdown(await library.sources("other"))


async def test_reimport_replaces_and_remove_takes_it_out(library):
    await library.import_document("g", "admin", "numbered-rules.txt", NUMBERED)
    changed = NUMBERED.replace(b"RB9 Rubble", b"RB10 Rubble")
    report = markdown(await library.import_document("g", "admin", "numbered-rules.txt", changed))
    assert "It replaces the earlier import (12 sections)." in report
    with pytest.raises(GameError):
        await library.lookup("g", "RB9")
    assert markdown(await library.lookup("g", "RB10")).startswith("**RB10 Rubble**")
    assert markdown(await library.sources("g")).count("**numbered-rules**") == 1
    assert markdown(await library.remove("g", "Numbered-Rules")) == (
        "Removed **numbered-rules** and its 12 sections from this server's library"
    )
    with pytest.raises(GameError, match="No section RB10"):
        await library.lookup("g", "RB10")


@pytest.mark.parametrize(
    ("filename", "data", "reason"),
    [
        ("rules.pdf", b"%PDF-1.7", "not a text or Markdown file"),
        ("big.txt", b"x" * (MAX_BYTES + 1), "the limit is 5 MB"),
        ("binary.txt", b"63.22 Smoke\x00\x01", "not plain text"),
        ("prose.txt", b"Just some words with no sections at all.", "nothing to index"),
    ],
)
async def test_bad_documents_are_refused_and_change_nothing(library, filename, data, reason):
    with pytest.raises(GameError, match=reason):
        await library.import_document("g", "admin", filename, data)
    assert await library.sources("g") == await library.sources("other")


async def test_a_server_may_keep_a_limited_number_of_documents(library):
    for n in range(MAX_SOURCES):
        await library.import_document("g", "admin", f"doc{n}.md", b"# A\nx\n# B\ny\n")
    with pytest.raises(GameError, match=f"This server has {MAX_SOURCES} documents"):
        await library.import_document("g", "admin", "one-more.md", b"# A\nx\n# B\ny\n")
    await library.import_document("g", "admin", "doc0.md", b"# A\nchanged\n# B\ny\n")  # replacing is fine


async def test_windows_1252_text_is_read_and_said_so(library):
    report = await library.import_document(
        "g", "admin", "old.txt", "RB9 Rubble: caf\xe9 ruins.\n".encode("cp1252")
    )
    assert markdown(report).endswith("(read as Windows-1252)")
    assert "café" in markdown(await library.lookup("g", "RB9"))


async def test_empty_queries_and_suggestions(library):
    with pytest.raises(GameError, match="Give a section number"):
        await library.lookup("g", "  ")
    suggestions = await library.suggest("g", "ic12.")
    assert suggestions[0] == ("IC12.1 Armour penetration (p. 12)", "IC12.1")
    assert ("IC19.2 Infantry anti-tank weapon (IAW) (p. 19)", "IC19.2") in await library.suggest(
        "g", "anti-tank w"
    )
