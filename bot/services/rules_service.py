"""RulesService: the rules library, looked up by section number or searched by words.

The bot ships its own summaries of the Iron Cross rules (``bot/library/data/*.md``, guild
""); a server's admins add documents the server owns, which only that server sees. Word search
runs on SQLite's FTS5 index (migration 0004) or on PostgreSQL's full-text search (migration 0017),
ranked alike: a section titled exactly as asked first, then by relevance with a word in the number
weighing 10, in the title 4 and in the text 1. Section numbers are plain lookups, and so are the
numbers a question names ("what does rule 63.22 say"); a number with no section of its own that
the library's sections cite (ASL's O11.6133 in a campaign's rules) is answered with those.
"""

from __future__ import annotations

import hashlib
import re
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import yaml
from sqlalchemy import delete, func, insert, text, update
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select

from bot.library.apart import SPLIT_SECONDS, split_apart
from bot.library.sections import (
    Section,
    citation_of,
    is_chapter_number,
    is_section_number,
    numbers_asked,
    numbers_cited,
    printed_number,
    split_document,
)
from bot.library.snippets import snippet
from bot.reply import Line, Mention, Moment, Reply, Strong
from bot.services.game_service import GameError
from bot.services.limits import NAME, bounded_text
from bot.storage.store import GameStore
from bot.storage.tables import RuleSectionRow, RuleSourceRow, utcnow
from bot.storage.writes import take_name
from engine.rich_text import CLOSE, STRONG, marked

LIBRARY_DIR = Path(__file__).resolve().parent.parent / "library" / "data"
SHIPPED = ""  # the guild id of the documents that come with the bot
MAX_BYTES = 5_000_000
MAX_SECTIONS = 10_000
MAX_SOURCES = 25
MAX_NAME = NAME
# one section's text (a rulebook's longest runs to some 6,500): a search reads each section it shows whole
MAX_SECTION_CHARS = 20_000
MAX_QUERY_CHARS = 200  # a /rule query
MAX_QUERY_WORDS = 12  # different words searched for; more only slow the search and blur its ranking
SEARCH_SECONDS = 0.5  # a word search taking longer is stopped
SEARCH_STEPS = 10_000  # SQLite steps between looks at the clock
TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text")
RESULTS = 5
MOST_CITED = 5  # rule numbers of one message answered, in its order
# an import writes, and a removal deletes, this much a transaction: other channels write between two
BATCH_CHARS = 100_000
BATCH_ROWS = 500
UNLISTED = "unlisted:"  # the owner of a document while it is written or deleted, then a random id
UNFINISHED = timedelta(hours=1)  # a document unlisted this long was left by a process that stopped
SNIPPET_WORDS = 24
# The best few sections are ranked first, and only they are read with the words found marked
# (highlight, linear in a section's length), for bot.library.snippets to cut a snippet from.
SEARCH = text(
    """
    WITH best AS (
        SELECT s.id, s.number, s.title, src.name, lower(s.title) = :exact AS exact,
               bm25(rule_search, 10.0, 4.0, 1.0) AS rank
        FROM rule_search
        JOIN rule_sections AS s ON s.id = rule_search.rowid
        JOIN rule_sources AS src ON src.id = s.source_id
        WHERE rule_search MATCH :query AND src.guild_id IN ('', :guild)
        ORDER BY exact DESC, rank, s.id
        LIMIT :limit
    )
    SELECT best.id, best.number, best.title, best.name,
           highlight(rule_search, 2, :found, :found_end) AS marked
    FROM best JOIN rule_search ON rule_search.rowid = best.id
    WHERE rule_search MATCH :query
    ORDER BY best.exact DESC, best.rank, best.id
    """
)
# PostgreSQL: the weights of ts_rank are those of D (text), C (unused), B (title), A (number), in the
# proportions of the bm25 weights above; rank normalisation 1 divides by the log of the length, as
# bm25 favours short sections. Only the few sections shown are read with the words found marked.
POSTGRES_SEARCH = """
    WITH found AS (
        SELECT s.id, s.number, s.title, s.body, src.name, q.query,
               lower(s.title) = :exact AS exact,
               ts_rank('{0.1, 0, 0.4, 1.0}'::float4[], s.search, q.query, 1) AS rank
        FROM rule_sections AS s
        JOIN rule_sources AS src ON src.id = s.source_id
        CROSS JOIN (SELECT %(query)s AS query) AS q
        WHERE s.search @@ q.query AND src.guild_id IN ('', :guild)
        ORDER BY exact DESC, rank DESC, s.id
        LIMIT :limit
    )
    SELECT id, number, title, name,
           ts_headline('english', body, query, :headline) AS marked
    FROM found
    ORDER BY exact DESC, rank DESC, id
"""
# the sections that cite a number (its words in order; the number itself is checked on the text read)
CITING = text(
    """
    SELECT s.number, s.title, s.body, src.name
    FROM rule_search
    JOIN rule_sections AS s ON s.id = rule_search.rowid
    JOIN rule_sources AS src ON src.id = s.source_id
    WHERE rule_search MATCH :query AND src.guild_id IN ('', :guild)
    ORDER BY src.guild_id, s.source_id, s.position
    LIMIT :limit
    """
)
POSTGRES_CITING = text(
    """
    SELECT s.number, s.title, s.body, src.name
    FROM rule_sections AS s
    JOIN rule_sources AS src ON src.id = s.source_id
    WHERE s.search @@ phraseto_tsquery('english', :number) AND src.guild_id IN ('', :guild)
    ORDER BY src.guild_id, s.source_id, s.position
    LIMIT :limit
    """
)
CITED_READ = 4 * RESULTS  # sections read for a citation: a few may hold the words, not the number
FOUND, FOUND_END = STRONG, CLOSE  # around the words a snippet found, made Strong (engine.rich_text.marked)
HEADLINE = f"StartSel={FOUND}, StopSel={FOUND_END}, HighlightAll=true"


def library_named(guild_id: str) -> str:
    """How an answer names the library it searched: a server's, or, in a direct message (an
    owner "dm:<user id>", who keeps no documents), the bot's own."""
    return "the bot's own rules library" if guild_id.startswith("dm:") else "this server's rules library"


def _apart(parts: list[Line]) -> Reply:
    """Sections found, a blank line between each two."""
    return Reply(tuple(line for i, part in enumerate(parts) for line in ([(), part] if i else [part])))


@dataclass(frozen=True)
class Document:
    name: str
    filename: str
    text: str
    sections: list[Section]


def load_aliases() -> dict[str, list[str]]:
    """Words players use for a rule ("iaw", "cmt") and the phrases the rules use for it."""
    raw = yaml.safe_load((LIBRARY_DIR / "aliases.yaml").read_text(encoding="utf-8"))
    return {word.casefold(): list(phrases) for word, phrases in raw.items()}


def match_query(words: list[str], aliases: dict[str, list[str]], *, any_word: bool) -> str:
    """An FTS5 query: each word quoted (so nothing typed is read as an operator), a known alias
    widened to the rules' own phrases, all words required unless ``any_word``."""
    terms = []
    for word in words:
        phrases = [word, *aliases.get(word, [])]
        quoted = " OR ".join('"' + phrase.replace('"', "") + '"' for phrase in phrases)
        terms.append(f"({quoted})" if len(phrases) > 1 else quoted)
    return (" OR " if any_word else " AND ").join(terms)


def postgres_query(words: list[str], aliases: dict[str, list[str]], *, any_word: bool) -> tuple[str, dict]:
    """The tsquery of :func:`match_query` for PostgreSQL, as SQL with its parameters: each word and
    alias a phrase (never read as an operator), all words required unless ``any_word``."""
    params: dict[str, str] = {}
    terms = []
    for i, word in enumerate(words):
        phrases = []
        for j, phrase in enumerate([word, *aliases.get(word, [])]):
            params[f"w{i}_{j}"] = phrase
            phrases.append(f"phraseto_tsquery('english', :w{i}_{j})")
        terms.append("(" + " || ".join(phrases) + ")")
    return (" || " if any_word else " && ").join(terms), params


def is_subsection(number: str, of: str) -> bool:
    """``A10.51`` is inside ``A10.5`` and ``A1.1`` inside ``A1``, but ``A10`` is not inside ``A1``."""
    if not number.startswith(of) or number == of:
        return False
    following = number[len(of)]
    return following == "." or (following.isdigit() and "." in of)


def search_words(query: str) -> list[str]:
    """The different words of a /rule query, in order; a query of too many words to search quickly
    is refused with the limit."""
    words = list(dict.fromkeys(re.findall(r"[\w']+", query.casefold())))
    if not words:
        raise GameError("Give some words to search for, or a section number")
    if len(words) > MAX_QUERY_WORDS:
        raise GameError(
            f"Search with at most {MAX_QUERY_WORDS} different words ({len(words)} given): "
            "the fewer, the better the match"
        )
    return words


def _too_slow() -> GameError:
    return GameError(
        f"That search ran past {SEARCH_SECONDS:g} s and was stopped: search with fewer, rarer words"
    )


@asynccontextmanager
async def _postgres_time_limit(session: AsyncSession) -> AsyncIterator[None]:
    """Stop a search that runs past :data:`SEARCH_SECONDS` (PostgreSQL's statement timeout, for
    this transaction only), refusing it."""
    async with session.begin():
        milliseconds = max(1, round(SEARCH_SECONDS * 1000))  # 0 would be no limit at all
        await session.execute(text(f"SET LOCAL statement_timeout = {milliseconds}"))
        try:
            yield
        except DBAPIError as stopped:
            if "statement timeout" not in str(stopped):
                raise
            raise _too_slow() from None


@asynccontextmanager
async def _time_limit(session: AsyncSession, dialect: str) -> AsyncIterator[None]:
    """Stop a search that runs past :data:`SEARCH_SECONDS` (SQLite's progress handler looks at the
    clock every :data:`SEARCH_STEPS` steps), refusing it: no lookup holds the database long."""
    if dialect == "postgresql":
        async with _postgres_time_limit(session):
            yield
        return
    connection = (await (await session.connection()).get_raw_connection()).driver_connection
    deadline = time.monotonic() + SEARCH_SECONDS
    await connection.set_progress_handler(lambda: time.monotonic() > deadline, SEARCH_STEPS)
    try:
        yield
    except OperationalError as stopped:
        if "interrupted" not in str(stopped):
            raise
        raise _too_slow() from None
    finally:
        await connection.set_progress_handler(None, 0)


class RulesService:
    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.aliases = load_aliases()

    async def ship(self) -> None:
        """Index the bot's own documents, again only when one has changed; delete what an import
        or a removal stopped midway left."""
        await self._discard_unfinished()
        for path in sorted(LIBRARY_DIR.glob("*.md")):
            content = path.read_text(encoding="utf-8")
            sections = split_document(content)
            name = sections[0].title if sections and not sections[0].number else path.stem
            await self._replace(
                SHIPPED, "bot", Document(name, path.name, content, sections), only_if_changed=True
            )

    # --- looking up ---------------------------------------------------------------------------

    async def lookup(self, guild_id: str, query: str) -> Reply:
        """A section number gives that section, whole; words give the best sections with snippets."""
        query = bounded_text("A rules search", query.strip(), MAX_QUERY_CHARS)
        query = printed_number(query) or query
        if not query:
            raise GameError("Give a section number (63.22, IC6.1, RB9) or some words (smoke dissipate)")
        if not is_section_number(query) and not is_chapter_number(query):
            return await self._by_question(guild_id, query)
        try:
            return await self._by_number(guild_id, query)
        except GameError as no_section:
            if "." in query:  # a dotted number is only ever a section number; "63" or "MG34" may be words
                raise
            try:
                return await self._by_words(guild_id, query)
            except GameError:
                raise no_section from None

    async def _by_question(self, guild_id: str, question: str) -> Reply:
        """A question in players' words: the sections of the numbers it names first ("what does
        rule 63.22 say" is answered with 63.22 whole), else the best sections for its words. A
        dotted number named as a rule that has no section is refused, its words not searched."""
        answers, refusals = [], []
        for asked in numbers_asked(question):
            try:
                answers.append(await self._by_number(guild_id, asked.number, cited=asked.named))
            except GameError as no_section:
                if asked.named and "." in asked.number:
                    raise
                refusals.append(no_section)
        if answers:
            return _apart([line for answer in answers for line in answer.lines if line])
        try:
            return await self._by_words(guild_id, question)
        except GameError:
            if refusals:
                raise refusals[0] from None
            raise

    async def cited_in(self, guild_id: str, message: str) -> Reply:
        """Every rule number a message cites (a post quoting 63.22 and O11.6133), each answered
        as :meth:`lookup` answers it, the first :data:`MOST_CITED` of them; a number named as a
        rule that has no section says so, and the numbers that may be something else (an M10, a
        1.5) that have none are named together at the end. The numbers beyond the first are
        named, to look up one by one."""
        cited = numbers_cited(message)
        if not cited:
            return Reply.of("This message cites no rule number (such as 63.22, O11.6133, RB9 or IC12.6)")
        answers: list[Line] = []
        unknown: list[str] = []
        for asked in cited[:MOST_CITED]:
            try:
                found = await self._by_number(guild_id, asked.number, cited=asked.named)
            except GameError as no_section:
                if asked.named:
                    answers.append((str(no_section),))
                else:
                    unknown.append(asked.number)
                continue
            answers.extend(line for line in found.lines if line)
        if unknown:
            answers.append((f"No section in {library_named(guild_id)} for {', '.join(unknown)}",))
        if len(cited) > MOST_CITED:
            left = ", ".join(later.number for later in cited[MOST_CITED:])
            answers.append(
                (
                    f"The message cites {len(cited)} rule numbers: the first {MOST_CITED} were looked "
                    f"up; ask /rule for the others: {left}",
                )
            )
        return _apart(answers)

    async def suggest(self, guild_id: str, typed: str, limit: int = 25) -> list[tuple[str, str]]:
        """Sections whose number starts with, or whose title holds, what was typed: (label, value)."""
        typed = typed.strip().casefold()
        async with self.store.sessions() as session:
            query = (
                select(RuleSectionRow.number, RuleSectionRow.title)
                .join(RuleSourceRow, col(RuleSourceRow.id) == RuleSectionRow.source_id)
                .where(col(RuleSourceRow.guild_id).in_((SHIPPED, guild_id)))
                .where(
                    col(RuleSectionRow.number_key).startswith(typed, autoescape=True)
                    | func.lower(RuleSectionRow.title).contains(typed, autoescape=True)
                )
                .order_by(RuleSourceRow.guild_id, RuleSectionRow.position)
                .limit(limit)
            )
            rows = (await session.execute(query)).all()
        return [(f"{number} {title}".strip(), number or title) for number, title in rows]

    async def _by_number(self, guild_id: str, number: str, *, cited: bool = True) -> Reply:
        """The sections of that number, whole, and the numbers of those inside it: the bodies of
        those alone are read, however many sections the number starts. A dotted number with no
        section may be answered with the sections that cite it (with ``cited``)."""
        key = number.casefold()
        listed = col(RuleSourceRow.guild_id).in_((SHIPPED, guild_id))
        async with self.store.sessions() as session:
            query = (
                select(RuleSectionRow.number, RuleSectionRow.number_key)
                .join(RuleSourceRow, col(RuleSourceRow.id) == RuleSectionRow.source_id)
                .where(listed, col(RuleSectionRow.number_key).startswith(key, autoescape=True))
                .order_by(RuleSourceRow.guild_id, RuleSectionRow.position)
            )
            inside = [
                found
                for found, found_key in (await session.execute(query)).all()
                if is_subsection(found_key, key)
            ]
            query = (
                select(RuleSectionRow, RuleSourceRow.name)
                .join(RuleSourceRow, col(RuleSourceRow.id) == RuleSectionRow.source_id)
                .where(listed, col(RuleSectionRow.number_key) == key)
                .order_by(RuleSourceRow.guild_id, RuleSectionRow.position)
            )
            exact = (await session.execute(query)).all()
        if not exact and not inside and re.fullmatch(r"\d+\.0", number):
            return await self._by_number(guild_id, number[:-2])  # indexes call chapter 63 "63.0"
        if not exact and not inside:
            return await self._cited(guild_id, number, lead=cited and "." in number)
        parts: list[Line] = [
            (Strong(f"{s.number} {s.title}"), f" · {source}\n{s.body}") for s, source in exact
        ]
        if inside:
            parts.append(
                ("Sections inside it: " + ", ".join(inside[:40]) + (" …" if len(inside) > 40 else ""),)
            )
        return _apart(parts)

    async def _cited(self, guild_id: str, number: str, *, lead: bool) -> Reply:
        """A number with no section of its own: a rule of a book the library lacks (no section of
        its chapter is there, as ASL's O11.6133 in a campaign's rules) is answered, if ``lead``,
        with the sections that cite it; otherwise, or for a gap in a book the library has, it is
        refused, saying where it is cited."""
        citing = await self._citing(guild_id, number)
        if not citing or not lead or await self._has_chapter(guild_id, number):
            cite = f"{'cites' if len(citing) == 1 else 'cite'} it"
            where = f" ({', '.join(n or t for n, t, _, _ in citing[:3])} {cite})" if citing else ""
            raise GameError(
                f"No section {number} in {library_named(guild_id)}{where}: try words, or /library"
            )
        citation = citation_of(number)
        as_cited = next(
            found.group() for _, t, body, _ in citing if (found := citation.search(f"{t} {body}"))
        )
        parts: list[Line] = [
            (Strong(as_cited), " has no section of its own in this library; it is cited in:")
        ]
        for cited_number, title, body, source in citing:
            marked_body = citation.sub(lambda found: f"{FOUND}{found.group()}{FOUND_END}", body)
            shown = marked(snippet(marked_body, FOUND, FOUND_END, SNIPPET_WORDS))
            parts.append(
                (Strong(f"{cited_number + ' ' if cited_number else ''}{title}"), f" · {source}\n", *shown)
            )
        return _apart(parts)

    async def _citing(self, guild_id: str, number: str) -> list[tuple[str, str, str, str]]:
        """(number, title, text, source) of the first sections that cite ``number`` whole."""
        dialect = self.store.engine.dialect.name
        params = {"guild": guild_id, "limit": CITED_READ}
        if dialect == "postgresql":
            search, params = POSTGRES_CITING, params | {"number": number}
        else:
            search, params = CITING, params | {"query": '"' + number.replace('"', "") + '"'}
        async with self.store.sessions() as session, _time_limit(session, dialect):
            rows = (await session.execute(search, params)).all()
        citation = citation_of(number)
        return [tuple(row) for row in rows if citation.search(row.body) or citation.search(row.title)][
            :RESULTS
        ]

    async def _has_chapter(self, guild_id: str, number: str) -> bool:
        """Whether the library has a section of the chapter ``number`` is in (40 for 40.22)."""
        chapter = number.casefold().split(".")[0]
        async with self.store.sessions() as session:
            query = (
                select(RuleSectionRow.id)
                .join(RuleSourceRow, col(RuleSourceRow.id) == RuleSectionRow.source_id)
                .where(col(RuleSourceRow.guild_id).in_((SHIPPED, guild_id)))
                .where(
                    (col(RuleSectionRow.number_key) == chapter)
                    | col(RuleSectionRow.number_key).startswith(chapter + ".", autoescape=True)
                )
                .limit(1)
            )
            return (await session.execute(query)).first() is not None

    async def _by_words(self, guild_id: str, query: str) -> Reply:
        words = search_words(query)
        rows = []
        for any_word in (False, True):
            params = {"guild": guild_id, "exact": query.casefold(), "limit": RESULTS}
            if self.store.engine.dialect.name == "postgresql":
                tsquery, words_params = postgres_query(words, self.aliases, any_word=any_word)
                search = text(POSTGRES_SEARCH % {"query": tsquery})
                params |= words_params | {"headline": HEADLINE}
            else:
                search = SEARCH
                params |= {"query": match_query(words, self.aliases, any_word=any_word)}
                params |= {"found": FOUND, "found_end": FOUND_END}
            async with self.store.sessions() as session, _time_limit(session, self.store.engine.dialect.name):
                rows = (await session.execute(search, params)).all()
            if rows or len(words) == 1:
                break
        if not rows:
            raise GameError(f"Nothing in {library_named(guild_id)} mentions {query!r}")
        found: list[Line] = [
            (
                Strong(f"{r.number + ' ' if r.number else ''}{r.title}"),
                f" · {r.name}\n",
                *marked(snippet(r.marked, FOUND, FOUND_END, SNIPPET_WORDS)),
            )
            for r in rows
        ]
        if len(rows) == RESULTS:
            found.append((f"The best {RESULTS}; /rule with a number shows a section whole.",))
        return _apart(found)

    # --- the server's own documents -----------------------------------------------------------

    async def import_document(
        self, guild_id: str, user_id: str, filename: str, data: bytes, name: str | None = None
    ) -> Reply:
        """Index a text or Markdown document for one server; the same name replaces the earlier one."""
        if guild_id == SHIPPED:
            raise GameError("Documents are imported into a server, not a direct message")
        if not filename.casefold().endswith(TEXT_SUFFIXES):
            raise GameError(f"{filename} is not a text or Markdown file ({', '.join(TEXT_SUFFIXES)})")
        if len(data) > MAX_BYTES:
            raise GameError(f"{filename} is {len(data) / 1e6:.1f} MB; the limit is {MAX_BYTES / 1e6:.0f} MB")
        if b"\x00" in data:
            raise GameError(f"{filename} is not plain text")
        try:
            content, encoding = data.decode("utf-8-sig"), ""
        except UnicodeDecodeError:
            content, encoding = data.decode("cp1252", errors="replace"), " (read as Windows-1252)"
        title = (name or Path(filename).stem).strip()
        if not title or len(title) > MAX_NAME:
            raise GameError(f"Give the document a name of 1 to {MAX_NAME} characters")
        try:
            sections = await split_apart(content, MAX_SECTIONS)  # seconds for 5 MB, off the loop's lock
        except TimeoutError:
            raise GameError(f"{filename} took over {SPLIT_SECONDS} s to read; split it in parts") from None
        if len(sections) < 2 and not any(s.number for s in sections):
            raise GameError(
                f"{filename} has no headings (# Title, a line in capitals) or numbered sections "
                "(63.22, A10.51, RB9): nothing to index"
            )
        if len(sections) > MAX_SECTIONS:
            raise GameError(f"{filename} has more than {MAX_SECTIONS:,} sections, the limit")
        longest = max(sections, key=lambda s: len(s.body))
        if len(longest.body) > MAX_SECTION_CHARS:
            raise GameError(
                f"{filename}: section {longest.number or longest.title!r} has {len(longest.body):,} "
                f"characters; a section may have {MAX_SECTION_CHARS:,} (split it with headings)"
            )
        replaced = await self._replace(guild_id, user_id, Document(title, filename, content, sections))
        return _report(title, filename, content, sections, replaced, encoding)

    async def sources(self, guild_id: str) -> Reply:
        async with self.store.sessions() as session:
            query = (
                select(RuleSourceRow)
                .where(col(RuleSourceRow.guild_id).in_((SHIPPED, guild_id)))
                .order_by(RuleSourceRow.guild_id, RuleSourceRow.name)
            )
            rows = list((await session.execute(query)).scalars())
        lines: list[Line] = []
        for row in rows:
            who: Line = (
                ("ships with the bot",)
                if row.guild_id == SHIPPED
                else ("imported by ", Mention(row.imported_by), " ", Moment(row.imported_at))
            )
            lines.append((Strong(row.name), f" ({row.filename}): {row.sections} sections, ", *who))
        return Reply.of(*(lines or ["The library is empty"]), private=True)

    async def remove(self, guild_id: str, name: str) -> Reply:
        async with self.store.sessions() as session, session.begin():
            await self._hold(session, guild_id, name)
            row = await self._source(session, guild_id, name)
            if row is None or guild_id == SHIPPED:
                raise GameError(f"This server has imported no document called {name!r}: see /library")
            row.guild_id = _unlisted()
        await self._discard(row.id)
        return Reply.of(
            ("Removed ", Strong(row.name), f" and its {row.sections} sections from this server's library"),
            private=True,
        )

    async def _source(self, session, guild_id: str, name: str) -> RuleSourceRow | None:
        query = select(RuleSourceRow).where(*self._named(guild_id, name))
        return (await session.execute(query)).scalars().first()

    async def _hold(self, session, guild_id: str, name: str) -> None:
        """Keep the server's document of that name from other writers until the change is made."""
        await take_name(session, RuleSourceRow, guild_id, name.casefold())

    @staticmethod
    def _named(guild_id: str, name: str) -> tuple:
        return RuleSourceRow.guild_id == guild_id, func.lower(RuleSourceRow.name) == name.casefold()

    @staticmethod
    async def _check_room(session, guild_id: str) -> None:
        """Refuse a new document to a server that has the most it may keep."""
        count = await session.scalar(
            select(func.count()).select_from(RuleSourceRow).where(RuleSourceRow.guild_id == guild_id)
        )
        if guild_id != SHIPPED and (count or 0) >= MAX_SOURCES:
            raise GameError(f"This server has {MAX_SOURCES} documents, the most it may: /rules remove one")

    async def _replace(
        self, guild_id: str, user_id: str, document: Document, *, only_if_changed: bool = False
    ) -> RuleSourceRow | None:
        """Store a document, replacing one of the same name; returns the old one. Its sections are
        written unlisted, a batch a transaction (other channels write between two), then one short
        transaction lists it in place of the old one, under the name (so two imports of a name at
        once replace in turn); the old one's sections are deleted afterwards, in batches too."""
        checksum = hashlib.sha256(document.text.encode()).hexdigest()
        async with self.store.sessions() as session:
            old = await self._source(session, guild_id, document.name)
            if old is not None and only_if_changed and old.checksum == checksum:
                return old
            if old is None:
                await self._check_room(session, guild_id)  # before the work, and again when listing it
        staged = await self._stage(user_id, document, checksum)
        try:
            async with self.store.sessions() as session, session.begin():
                await self._hold(session, guild_id, document.name)
                old = await self._source(session, guild_id, document.name)
                if old is None:
                    await self._check_room(session, guild_id)
                else:
                    old.guild_id = _unlisted()
                    await session.flush()
                listed = update(RuleSourceRow).where(col(RuleSourceRow.id) == staged)
                await session.execute(listed.values(guild_id=guild_id, imported_at=utcnow()))
        except BaseException:
            await self._discard(staged)
            raise
        if old is not None:
            await self._discard(old.id)
        return old

    async def _stage(self, user_id: str, document: Document, checksum: str) -> int:
        """Write a document unlisted (seen by no server), its sections a batch a transaction: its id."""
        async with self.store.sessions() as session, session.begin():
            source = RuleSourceRow(
                guild_id=_unlisted(),
                name=document.name,
                filename=document.filename,
                checksum=checksum,
                size=len(document.text),
                sections=len(document.sections),
                imported_by=user_id,
            )
            session.add(source)
            await session.flush()
            staged = source.id
        try:
            for batch in _batches(document.sections):
                rows = [
                    {
                        "source_id": staged,
                        "position": position,
                        "number": s.number,
                        "number_key": s.number.casefold(),
                        "title": s.title,
                        "body": s.body,
                    }
                    for position, s in batch
                ]
                async with self.store.sessions() as session, session.begin():
                    await session.execute(insert(RuleSectionRow), rows)
        except BaseException:
            await self._discard(staged)
            raise
        return staged

    async def _discard(self, source_id: int) -> None:
        """Delete an unlisted document: its sections a batch a transaction, then the document."""
        sections = select(RuleSectionRow.id).where(col(RuleSectionRow.source_id) == source_id)
        while True:
            async with self.store.sessions() as session, session.begin():
                batch = delete(RuleSectionRow).where(col(RuleSectionRow.id).in_(sections.limit(BATCH_ROWS)))
                if not (await session.execute(batch)).rowcount:
                    await session.execute(delete(RuleSourceRow).where(col(RuleSourceRow.id) == source_id))
                    return

    async def _discard_unfinished(self) -> None:
        """Delete documents an import or a removal left unlisted when the process stopped midway
        (those unlisted for an hour: another process may be writing a newer one)."""
        before = utcnow() - UNFINISHED
        async with self.store.sessions() as session:
            query = select(RuleSourceRow.id).where(
                col(RuleSourceRow.guild_id).startswith(UNLISTED), col(RuleSourceRow.imported_at) < before
            )
            left = list((await session.execute(query)).scalars())
        for source_id in left:
            await self._discard(source_id)


def _unlisted() -> str:
    """An owner no server is: a document's while it is written or deleted."""
    return f"{UNLISTED}{uuid.uuid4().hex}"


def _batches(sections: list[Section]) -> Iterator[list[tuple[int, Section]]]:
    """The sections with their positions, in batches of at most :data:`BATCH_CHARS` characters
    (or one section) and :data:`BATCH_ROWS` sections."""
    batch: list[tuple[int, Section]] = []
    size = 0
    for position, section in enumerate(sections):
        if batch and (size + len(section.body) > BATCH_CHARS or len(batch) == BATCH_ROWS):
            yield batch
            batch, size = [], 0
        batch.append((position, section))
        size += len(section.body)
    if batch:
        yield batch


def _report(
    name: str, filename: str, content: str, sections: list[Section], replaced, encoding: str
) -> Reply:
    numbers = [s.number for s in sections if s.number]
    seen: dict[str, int] = {}
    for number in numbers:
        seen[number] = seen.get(number, 0) + 1
    twice = [f"{n} ×{count}" for n, count in seen.items() if count > 1]
    span = f", numbered {numbers[0]} to {numbers[-1]}" if numbers else ""
    lines: list[Line] = [
        (
            "Indexed ",
            Strong(name),
            f" from {filename}: {len(sections)} sections ({len(numbers)} numbered{span}), "
            f"{len(content):,} characters. Only this server sees it.",
        )
    ]
    if replaced is not None:
        lines.append((f"It replaces the earlier import ({replaced.sections} sections).",))
    if twice:
        lines.append(("Numbers found more than once (all kept): " + ", ".join(twice[:20]),))
    lines[-1] += (encoding,)  # how the text was read, when it was not UTF-8
    return Reply.of(*lines, private=True)
