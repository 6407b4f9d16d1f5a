"""What a test reads of lines of pieces (:mod:`engine.rich_text`): the words alone, a line each."""

from engine.rich_text import Line, unmarked


def bare(lines: tuple[Line, ...]) -> str:
    """The lines as bare text, one a line: emphasis dropped, users by id."""
    return "\n".join(unmarked(line) for line in lines)
