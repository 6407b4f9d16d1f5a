"""Issue 19, item 5: the inputs that cost unbounded work or crashed are refused with their limit,
or answered, and a refusal stores nothing."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.discord_adapter.markdown import markdown
from bot.services import rules_service
from bot.services.card_service import CardService
from bot.services.dice_service import DiceService
from bot.services.game_service import GameError
from bot.services.rules_service import MAX_BYTES, MAX_SECTION_CHARS, MAX_SECTIONS, RulesService
from bot.services.stats_service import StatsService
from engine.errors import IllegalCommand
from tests.bot.test_fuzz_inputs import library_on_postgres, table  # noqa: F401  (the fuzz test's table)
from tests.engine.test_cards import DECK

# Marked ``both_databases``: run through the fuzz test's table on SQLite and on PostgreSQL (the
# searches by words too: FTS5 on SQLite, PostgreSQL's own full-text search there).


async def say(table, line: str) -> tuple[str, bool]:  # noqa: F811
    """The console's answer and whether the database took a commit meanwhile."""
    console, watch = table
    return await watch.answer(line, lambda: console.handle(line))


@pytest.mark.both_databases
@pytest.mark.parametrize("expression", ["1d6+1/0", "1d6/0", "1d6+5%0", "1d6+5//0", "2d6+1d6//0 5+"])
async def test_dice_that_divide_by_zero_are_refused(table, expression):  # noqa: F811
    answer, stored = await say(table, f"/roll {expression}")
    assert answer.startswith("Not allowed: ") and "Cannot divide by zero" in answer
    assert not stored


@pytest.mark.parametrize(
    ("expression", "limit"),
    [
        ("1d6+" * 1499 + "1d6", "A roll command has at most 200 characters; this one has 5999"),
        (";".join(["d6"] * 11), "At most 10 rolls in one command; this one asks for 11"),
        ("101d6", "A roll has at most 100 dice; 101 is too many"),
        ("1d1001", "Dice have at most 1000 sides; d1001 is too many"),
    ],
)
@pytest.mark.both_databases
async def test_dice_past_a_limit_are_refused_with_it(table, expression, limit):  # noqa: F811
    answer, stored = await say(table, f"/roll {expression}")
    assert limit in answer
    assert not stored


@pytest.mark.both_databases
async def test_a_long_rule_search_is_refused_with_the_limits(table):  # noqa: F811
    thousand = " ".join(
        random.Random(1).choice(["smoke", "fire", "move", "rally", "tank"]) for _ in range(1000)
    )
    answer, _ = await say(table, f"/rule {thousand}")
    assert "A rules search has at most 200 characters" in answer
    thirteen = "smoke fire move rally tank gun crew wind road hill wood wall hedge"
    answer, _ = await say(table, f"/rule {thirteen}")
    assert answer == (
        "Not allowed: Search with at most 12 different words (13 given): the fewer, the better the match"
    )
    answer, _ = await say(
        table, "/rule smoke smoke smoke smoke smoke smoke smoke smoke smoke smoke smoke smoke smoke"
    )
    assert not answer.startswith("Not allowed")  # one word, said thirteen times


@pytest.mark.both_databases
async def test_a_search_past_its_time_is_stopped(table, monkeypatch):  # noqa: F811
    monkeypatch.setattr(rules_service, "SEARCH_SECONDS", 0)
    monkeypatch.setattr(rules_service, "SEARCH_STEPS", 10)
    answer, _ = await say(table, "/rule smoke dissipate")
    assert answer == "Not allowed: That search ran past 0 s and was stopped: search with fewer, rarer words"
    monkeypatch.setattr(rules_service, "SEARCH_SECONDS", 5)
    answer, _ = await say(table, "/rule smoke dissipate")  # the connection searches again afterwards
    assert "Smoke" in answer


@pytest.mark.both_databases
async def test_other_channels_write_while_the_library_is_searched(table):  # noqa: F811
    console, _ = table
    store = console.service.store
    rules, dice = RulesService(store), DiceService(store)
    words = "smoke fire move rally broken leader squad vehicle armour gun crew wind drift".split()
    rng = random.Random(3)
    document = "\n".join(
        f"A{n // 100 + 1}.{n % 100 + 1} Rule {n}: " + " ".join(rng.choice(words) for _ in range(80))
        for n in range(1000)
    )
    await rules.import_document("guild", "admin", "big.md", document.encode())
    searches = [rules.lookup("guild", " ".join(rng.sample(words, 12))) for _ in range(4)]
    rolls = [dice.roll(f"channel {n}", "ann", "2d6") for n in range(20)]
    await asyncio.gather(*searches, *rolls)
    for n in range(20):
        assert len(await dice.log(f"channel {n}", "ann")) == 1


@pytest.mark.both_databases
async def test_an_oversized_import_is_refused_before_any_work(table):  # noqa: F811
    rules = table[0].rules
    with pytest.raises(Exception, match=r"big.md is 5.0 MB; the limit is 5 MB"):
        await rules.import_document("guild", "admin", "big.md", b"# A\n" + b"x" * MAX_BYTES)
    many = "\n".join(f"# Heading {n}\ntext" for n in range(MAX_SECTIONS + 1))
    with pytest.raises(Exception, match=r"many.md has more than 10,000 sections, the limit"):
        await rules.import_document("guild", "admin", "many.md", many.encode())
    long = "# Short\ntext\n# Long\n" + "word " * 30_000
    limit = rf"section 'Long' has 149,999 characters; a section may have {MAX_SECTION_CHARS:,}"
    with pytest.raises(Exception, match=limit):
        await rules.import_document("guild", "admin", "long.md", long.encode())
    sources = markdown(await rules.sources("guild"))
    assert all(name not in sources for name in ("big.md", "many.md", "long.md"))


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        (
            "/campaign new name:S german:ann russian:bob german_cpp:12 russian_cpp:10 every:"
            + "9" * 400
            + "h",
            "A length of time has at most 80 characters; this one has 401",
        ),
        (
            "/campaign new name:S german:ann russian:bob german_cpp:12 russian_cpp:10 every:99999999w",
            "weeks is a whole number from 0 to 52, not 99,999,999",
        ),
        (
            "/campaign new name:S german:ann russian:bob german_cpp:" + "9" * 40 + " russian_cpp:10",
            "german_cpp is a whole number from 0 to 999, not '" + "9" * 40,
        ),
        (
            "/game new reaction_seconds:" + "9" * 5000,
            "reaction_seconds is a whole number from 15 to 172,800, not '"
            + "9" * 40
            + "'… (5,000 characters)",
        ),
        ("/game new reaction_seconds:²", "reaction_seconds is a whole number from 15 to 172,800, not '²'"),
        (
            "/force new nation:german name:KG points:" + "9" * 40,
            "points is a whole number from 1 to 10,000, not '" + "9" * 40 + "'",
        ),
        ("/history number:-1", "number is a whole number from 1 to 1,000,000, not -1"),
        ("as ref /ref ruling " + "x" * 1001, "ruling has at most 1,000 characters; this one has 1,001"),
        ("/chart roll rb-rg-strength side=" + "x" * 1000, "A chart's choices has at most 1,000 characters"),
        ("/rules import " + "x" * 5000, "A file name has at most 1,000 characters; this one has 5,000"),
        ("/deploy unit:x at:1,1 facing:nan", "You are not playing in this game"),
        ("as ref /ref deadline side:axis hours:inf", "hours is a number from 0.1 to 168, not 'inf'"),
        ("as ref /ref zone side:axis area:0,0,nan,1", "area is a number from -100,000 to 100,000, not 'nan'"),
    ],
)
@pytest.mark.both_databases
async def test_numbers_and_texts_past_their_limits_are_refused_with_them(table, line, refusal):  # noqa: F811
    answer, stored = await say(table, line)
    assert answer.startswith("Not allowed: ") and refusal in answer
    assert not stored


@pytest.mark.both_databases
async def test_stats_count_every_die_of_the_largest_rolls_and_a_one_sided_die(table):  # noqa: F811
    dice, stats = DiceService(table[0].service.store), StatsService(table[0].service.store)
    await dice.roll("big", "ann", ";".join(["100d1000"] * 10))
    await dice.roll("big", "ann", "3d1")
    report = await stats.stats(["big"])
    (ann,) = report.report.players
    assert ann.faces(1000).dice == 1000 and ann.faces(1).counts == (3,) and report.unread_rolls == 0
    assert ann.faces(1).p_value == 1.0


def test_limits_read_only_plain_digits():
    from bot.services.limits import measure, whole_number

    assert whole_number("n", " 12 ", 0, 20) == 12
    for typed in ("²", "٣", "1e3", "", "9" * 13):
        with pytest.raises(IllegalCommand):
            whole_number("n", typed, 0, 10**13)
    assert measure("x", "1.5") == 1.5
    for typed in ("nan", "inf", "1e400", "x"):
        with pytest.raises(IllegalCommand):
            measure("x", typed)


@pytest.mark.both_databases
async def test_a_deck_whose_card_no_game_could_deal_is_refused_when_saved(table):  # noqa: F811
    """A card's text longer than a game command takes would make the deck impossible to deal:
    the deck is refused when written, not when dealt."""
    console, _ = table
    cards = CardService(console.service.store)
    with pytest.raises(GameError, match="1,000"):
        await cards.save("g", "Too long", DECK + "\nEndless | 1 | any time | " + "x" * 1_200)
    assert await cards.names("g") == []
