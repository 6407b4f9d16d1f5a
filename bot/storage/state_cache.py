"""The games a process last read or wrote, parsed, so that loading a game it already holds
sends no state over and parses none.

An entry names the state it holds by what its game's row said when it was read or written: the
version and the moment of that write (``updated_at``). The row always decides: a load asks for
the state only if the row no longer says the same (:data:`bot.storage.store.GAME`), so a write
by another process, a new game in the channel at version 0, or a backup restored and played
on are all read afresh. A state kept by a write that did not commit is never used: the row does
not say its version.

The states are shared by every load that finds them, as the engine never changes a state it is
given (``engine.game.apply`` works on a fork). Each is kept with the JSON it was read or written
as, so that a picture of it drawn in another process (:mod:`bot.picture_pool`) is sent that,
not a dump made again on the event loop.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from typing import NamedTuple

from engine.game_state import GameState

# channels whose games are kept: a quick battle is about 110 KB and 240 tracked objects, its JSON 17 KB
KEPT = 256


class Kept(NamedTuple):
    version: int
    written_at: datetime
    state: GameState
    as_json: str  # the state, as the row held it


class StateCache:
    """The last ``size`` channels' games, the least recently used dropped first; used from the
    store's threads at once."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[str, Kept] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, channel_id: str) -> Kept | None:
        with self._lock:
            kept = self._kept.get(channel_id)
            if kept is not None:
                self._kept.move_to_end(channel_id)
            return kept

    def keep(
        self, channel_id: str, version: int, written_at: datetime, state: GameState, as_json: str
    ) -> None:
        with self._lock:
            self._kept[channel_id] = Kept(version, written_at, state, as_json)
            self._kept.move_to_end(channel_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
