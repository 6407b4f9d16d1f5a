"""How much of each seed rulebook the rules library finds after ``/rules import``.

Each book in ``--seeds`` (``/work/shared/seeds`` by default) is imported through
:class:`RulesService` into a fresh SQLite file, as a server admin would, and then asked for, through
``/rule``'s own lookup, every name the book gives a rule:

* Cross of Iron numbers its rules from chapter 63 to chapter 103 (lower chapters are Squad
  Leader's, higher ones Crescendo of Doom's). Every number of those chapters the book mentions
  anywhere (where a rule starts, in a reference, in the index) is looked up, and every chapter.
* Red Barricades: its special rules ``RB1``..., the campaign rules (``1. VICTORY CONDITIONS:``), the
  rules it prints whole (``24.7 CLEARANCE:``), and its charts and tables by name (the first word
  match must be the chart itself).
* Iron Cross 2015: the headings its table of contents lists, by name (the first word match must
  be the heading itself).

A number is resolved when ``/rule`` answers with that section (or, for a chapter, with the chapter
or the sections inside it). Misses are listed with where the book mentions them.

    .venv/bin/python benchmarks/rules_import_coverage.py [--seeds DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.discord_adapter.markdown import markdown  # noqa: E402
from bot.services.game_service import GameError  # noqa: E402
from bot.services.rules_service import RulesService  # noqa: E402
from bot.storage.store import GameStore  # noqa: E402

CROSS_OF_IRON_CHAPTERS = range(63, 104)


def cross_of_iron_numbers(text: str) -> list[str]:
    mentioned = re.findall(r"(?<![\w.])(\d{2,3}(?:\.\d+)+)(?![\w.]*\d)", text)
    numbers = {n for n in mentioned if int(n.split(".")[0]) in CROSS_OF_IRON_CHAPTERS}
    return sorted(numbers, key=_order) + [str(c) for c in CROSS_OF_IRON_CHAPTERS]


def red_barricades_numbers(text: str) -> list[str]:
    special = set(re.findall(r"\b(RB\d+)\b", text))
    campaign = set(re.findall(r"(?m)^(\d+)\.\s+[A-Z][A-Z ()&.-]+:", text))
    printed = set(re.findall(r"(?<![\w.])(\d+(?:\.\d+)+)\s+(?:vs\s+)?[A-Z][A-Z /&()-]+:", text))
    return sorted(special, key=lambda n: int(n[2:])) + sorted(campaign | printed, key=_order)


def red_barricades_charts(text: str) -> list[str]:
    return [
        re.sub(r"(?:\s+[^\sA-Za-z0-9]{1,2}|[^\w)!?])+$", "", line.strip())
        for line in dict.fromkeys(text.splitlines())
        if re.fullmatch(r"[^a-z]*\b(?:CHART|TABLE|MODULE|DRM)\b[^a-z]*", line.strip()) and "\t" not in line
    ]


def iron_cross_headings(text: str) -> list[str]:
    contents = text.split("\nIntroduction\n", 1)[0]  # the table of contents comes first
    listed = re.findall(r"(?m)^\|\s*([A-Za-z][^|]*?)\s*\|\s*\d+\s*\|", contents)
    return list(dict.fromkeys(listed))


def _order(number: str) -> tuple[int, ...]:
    return tuple(int(part) for part in number.split("."))


async def resolves(rules: RulesService, book: str, number: str) -> bool:
    """The section itself; for a chapter (63), the chapter or the sections inside it."""
    try:
        answer = markdown(await rules.lookup(book, number))
    except GameError:
        return False
    chapter = number.removesuffix(".0")
    inside = chapter.isdigit() and answer.startswith("Sections inside it:")
    return answer.startswith(f"**{chapter} ") or inside


async def first_match_is(rules: RulesService, book: str, title: str) -> bool:
    try:
        answer = markdown(await rules.lookup(book, title))
    except GameError:
        return False
    return answer.casefold().startswith(f"**{title.casefold()}**")


def where(text: str, name: str) -> str:
    found = re.search(rf"(?<![\w.]){re.escape(name)}(?![\w]|\.\d)", text)
    if found is None:
        return "?"
    return " ".join(text[max(0, found.start() - 50) : found.end() + 50].split())


async def report(rules: RulesService, book: str, what: str, text: str, names: list[str], check) -> None:
    missed = [name for name in names if not await check(rules, book, name)]
    share = 100 * (len(names) - len(missed)) / len(names) if names else 100
    print(f"{book} {what}: {len(names) - len(missed)} of {len(names)} resolve ({share:.1f}%)")
    for name in missed:
        print(f"    missed {name!r}: … {where(text, name)} …")


async def coverage(seeds: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await GameStore.open(f"sqlite+aiosqlite:///{Path(folder) / 'library.db'}")
        rules = RulesService(store)
        texts = {}
        for path in sorted(seeds.glob("*.txt")):
            texts[path.name] = path.read_text(encoding="utf-8")
            try:
                print(markdown(await rules.import_document(path.stem, "admin", path.name, path.read_bytes())))
            except GameError as refused:
                print(f"{path.name}: refused: {refused}")
        print()
        for book, what, names, check in (
            ("cross-of-iron-4th-edition", "numbers", cross_of_iron_numbers, resolves),
            ("red-barricades-cg-compilation", "numbers", red_barricades_numbers, resolves),
            ("red-barricades-cg-compilation", "charts", red_barricades_charts, first_match_is),
            ("iron-cross-rules-2015", "headings", iron_cross_headings, first_match_is),
        ):
            text = texts.get(f"{book}.txt")
            if text is not None:
                await report(rules, book, what, text, names(text), check)
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, default=Path("/work/shared/seeds"))
    asyncio.run(coverage(parser.parse_args().seeds))


if __name__ == "__main__":
    main()
