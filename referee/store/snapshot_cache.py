"""The latest snapshot each worker process created, read or wrote per match, so that a move
on that version skips one read from the store.

Safe because an entry is a version together with its head (the token of the write that
made it, :class:`referee.store.Snapshot`), and the commit script checks both again
atomically: a stale entry turns into 412, exactly as a stale If-Match does, and an entry of
a history the store lost (a Redis restarted from an older dump reaches the same version
number another way) into a fresh read and a new judgement. What the cache cannot know is
that the store forgot or rewrote the match: a legal move finds out in the commit, and an
illegal move, which writes nothing, must ask the store for the version and head before it
is answered (referee/service/matches.py, ``Matches.still_current``).

Bounded in bytes (an estimate: a parsed state costs about 8 to 9 times its JSON text, the
text itself once more) and in age: entries older than ``max_age`` seconds are never
answered, and are dropped on every write, oldest first.
"""

from __future__ import annotations

import os
import time
from typing import Callable

from referee import settings

# About 1,200 to 1,500 snapshots (10 to 12 MiB really held): a worker that
# takes the whole load of bench/bench_memory.py stays under its 80 MiB (64 MiB did not).
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
DEFAULT_MAX_AGE = 60.0
# Measured with tracemalloc for each game's states: parsed JSON is 7.8 to 9.1 times its text.
BYTES_PER_TEXT_BYTE = 10
ENTRY_OVERHEAD = 512


def max_bytes_from_env(environ=None) -> int:
    """REFEREE_SNAPSHOT_CACHE_BYTES (default 16 MiB; 0 turns the cache off)."""
    environ = os.environ if environ is None else environ
    return settings.number("REFEREE_SNAPSHOT_CACHE_BYTES", DEFAULT_MAX_BYTES, environ=environ, integer=True, minimum=0)


class RecentSnapshots:
    """``match id -> (version, head, meta, state, state text)``, at most ``max_bytes``
    (estimated) and ``max_age`` seconds old. One per process."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES, max_age: float = DEFAULT_MAX_AGE,
                 clock: Callable[[], float] = time.monotonic):
        self.max_bytes = max_bytes
        self.max_age = max_age
        self.clock = clock
        self.bytes = 0
        # Insertion order is age order: put() always re-inserts at the end.
        self._items: dict[str, tuple[int, float, dict, dict, str, int, str]] = {}

    def __len__(self) -> int:
        return len(self._items)

    @staticmethod
    def cost(meta: dict, text: str) -> int:
        """Estimated bytes of an entry whose state has JSON ``text``."""
        return (len(text) + 64 * len(meta)) * BYTES_PER_TEXT_BYTE + ENTRY_OVERHEAD

    def get(self, match_id: str, versions: frozenset[int]) -> tuple[int, str, dict, dict, str] | None:
        """``(version, head, meta, state, state_text)`` if the cached version is one of
        ``versions`` and younger than ``max_age``, else None."""
        item = self._items.get(match_id)
        if item is None or item[0] not in versions:
            return None
        if self.clock() - item[1] > self.max_age:
            self.drop(match_id)
            return None
        return item[0], item[6], item[2], item[3], item[4]

    def put(self, match_id: str, version: int, head: str, meta: dict, state: dict, text: str) -> None:
        """Keep this snapshot (unless it alone is over the bound); drop what is too old, then
        the oldest entries until the bound holds."""
        self.drop(match_id)
        now = self.clock()
        size = self.cost(meta, text)
        if size <= self.max_bytes:
            self._items[match_id] = (version, now, meta, state, text, size, head)
            self.bytes += size
        items = self._items
        while items:
            oldest = next(iter(items))
            entry = items[oldest]
            if self.bytes <= self.max_bytes and now - entry[1] <= self.max_age:
                break
            del items[oldest]
            self.bytes -= entry[5]

    def drop(self, match_id: str) -> None:
        entry = self._items.pop(match_id, None)
        if entry is not None:
            self.bytes -= entry[5]
