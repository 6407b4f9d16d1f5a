"""The one error type the engine raises for a command that the rules do not allow."""


class IllegalCommand(Exception):
    """A command the rules forbid, with a message a player can act on.

    The message says what was wrong and what would be needed, e.g.
    "Tiger 2 has 3 morale markers and 1 token: it needs 5+ to reactivate".
    Raising it never leaves a half-applied state behind: the engine works on a copy.
    """
