"""The game's log a page at a time (issue 32): ``/game log`` shows the latest page, ``page:N``
the ones before it, each as much as one message of the front end holds, saying which lines it
shows and the command that shows the rest."""

from __future__ import annotations

from collections.abc import Callable

from bot.reply import Reply, Typed
from bot.services.game_service import GameError

NOTICE_ROOM = 150  # characters kept on a page for the notice of which lines it shows


def log_pages(lines: list[str], room: int, length: Callable[[str], int]) -> list[list[str]]:
    """The lines in pages, the latest first, each as many lines as fit in ``room`` characters
    as ``length`` measures a line written (a line too long for a page alone is cut short)."""
    sizes = [length(line) for line in lines]  # each measured once: a long log has thousands
    lines = [
        line if size < room else line[: room // 2] + " …" for line, size in zip(lines, sizes, strict=True)
    ]
    sizes = [size if size < room else length(line) for line, size in zip(lines, sizes, strict=True)]
    pages: list[list[str]] = []
    end = len(lines)
    while end > 0:
        start, used = end, 0
        while start > 0 and used + sizes[start - 1] + 1 <= room:
            used += sizes[start - 1] + 1
            start -= 1
        pages.append(lines[start:end])
        end = start
    return pages


def log_page(lines: list[str], page: int, room: int, length: Callable[[str], int]) -> Reply:
    """Page ``page`` of the log (1: the latest), under a notice of the lines it shows and the
    pages before and after it, when there is more than one."""
    pages = log_pages(lines, room - NOTICE_ROOM, length)
    if not 1 <= page <= len(pages):
        raise GameError(f"The log has {len(pages)} page{'s' * (len(pages) != 1)}: choose 1 to {len(pages)}")
    shown = pages[page - 1]
    if len(pages) == 1:
        return Reply.of(*shown, private=True)
    first = sum(len(p) for p in pages[page:]) + 1
    notice: list = [f"Lines {first}-{first + len(shown) - 1} of {len(lines)}, page {page} of {len(pages)}"]
    if page < len(pages):
        notice += ["; earlier: ", Typed(f"/game log page:{page + 1}")]
    if page > 1:
        notice += ["; later: ", Typed(f"/game log page:{page - 1}")]
    return Reply.of(notice, *shown, private=True)
