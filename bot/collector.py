"""The garbage collector kept out of the event loop's way.

A full (generation-2) collection walks every container object the process holds, on the event
loop, however few of them are garbage: 81 ms in an empty bot process, and once 129 ms with 10,000
armed reaction windows and 400 ms with 100,000, when each was an asyncio task of its own (they are
now entries of one queue, :class:`engine.runtime.ReactionTimers`).
What start-up makes (the modules, the rules library, the timers of every stored window and
deadline re-armed) lives as long as the process, so once start-up is done it is collected once
and frozen (:func:`settle`): later collections no longer walk it. The youngest generation is
collected less often (:data:`THRESHOLDS`), so a burst of actions promotes fewer of its short-lived
objects (parsed games, pictures' buffers) into the generations a full collection walks.

Frozen objects are still freed when nothing refers to them any more; only a cycle among them
would stay until the process ends, which is why the freeze happens once, after start-up.
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 10, 10)  # CPython's are (700, 10, 10) (2,000 in 3.13)


def tune() -> None:
    """Collect the youngest generation after 10,000 new objects, not 700."""
    gc.set_threshold(*THRESHOLDS)


def settle() -> None:
    """Start-up is done: collect what it left behind, then keep what lives on out of every
    later collection."""
    gc.collect()
    gc.freeze()
