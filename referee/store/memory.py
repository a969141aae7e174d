"""The in-process match store: one process only (a single gunicorn worker, tests).

Same semantics as the Redis store (versions, TTL renewed on each write, idempotency keys
expiring with the match); a lock makes each operation atomic between threads.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from referee.limits import MAX_IDEMPOTENCY_KEYS
from referee.store import DEFAULT_TTL_SECONDS, Commit, IdempotencyKey, Snapshot


@dataclass
class _Match:
    meta: str
    version: int
    state: str
    updated: float
    expires: float
    head: str = field(default_factory=lambda: secrets.token_hex(12))
    log: list[str] = field(default_factory=list)
    keys: dict[IdempotencyKey, str] = field(default_factory=dict)   # (seat, name) -> stored answer


def _keep_key(match: _Match, key: IdempotencyKey, stored: str) -> None:
    """Store a new idempotency key; past MAX_IDEMPOTENCY_KEYS of its seat, forget that seat's
    oldest (a dict keeps insertion order)."""
    match.keys[key] = stored
    seats_keys = [kept for kept in match.keys if kept.seat == key.seat]
    if len(seats_keys) > MAX_IDEMPOTENCY_KEYS:
        del match.keys[seats_keys[0]]


class MemoryStore:
    """Matches in a dict. ``clock`` (epoch seconds) is replaceable for tests of the TTL."""

    kind = "memory"

    def __init__(self, ttl: int = DEFAULT_TTL_SECONDS, clock: Callable[[], float] = time.time):
        self.ttl = ttl
        self.clock = clock
        self._matches: dict[str, _Match] = {}
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)   # notified by every commit
        self._writes = 0

    def _live(self, match_id: str) -> _Match | None:
        match = self._matches.get(match_id)
        if match is not None and match.expires <= self.clock():
            del self._matches[match_id]
            return None
        return match

    def _sweep(self) -> None:
        """Forget expired matches now and then (every 1024 writes)."""
        self._writes += 1
        if self._writes % 1024 == 0:
            now = self.clock()
            for match_id in [m for m, match in self._matches.items() if match.expires <= now]:
                del self._matches[match_id]

    def create(self, match_id: str, meta: str, state: str, now: float) -> str:
        with self._lock:
            self._sweep()
            match = self._matches[match_id] = _Match(meta, 0, state, now, self.clock() + self.ttl)
            return match.head

    def get(self, match_id: str) -> Snapshot | None:
        with self._lock:
            match = self._live(match_id)
            return None if match is None else _snapshot(match)

    def log(self, match_id: str, start: int = 0) -> list[str] | None:
        with self._lock:
            match = self._live(match_id)
            return None if match is None else match.log[start:]

    def follow(self, match_id: str, start: int = 0) -> tuple[list[str], Snapshot] | None:
        with self._lock:
            match = self._live(match_id)
            return None if match is None else (match.log[start:], _snapshot(match))

    def idempotent(self, match_id: str, key: IdempotencyKey) -> str | None:
        with self._lock:
            match = self._live(match_id)
            return None if match is None else match.keys.get(key)

    def remember(self, match_id: str, key: IdempotencyKey, stored: str) -> str | None:
        with self._lock:
            match = self._live(match_id)
            if match is None:
                return None
            if key in match.keys:
                return match.keys[key]
            _keep_key(match, key, stored)
            return None

    def commit(self, match_id: str, expected: int, state: str, entry: str, now: float,
               key: IdempotencyKey | None = None, stored: str | None = None, head: str | None = None) -> Commit:
        with self._lock:
            self._sweep()
            match = self._live(match_id)
            if match is None:
                return Commit("missing")
            if key is not None and key in match.keys:
                return Commit("replay", match.version, match.keys[key])
            if match.version != expected:
                return Commit("stale", match.version)
            if head is not None and match.head != head:
                return Commit("changed", match.version)
            match.version += 1
            match.head = secrets.token_hex(12)
            match.state = state
            match.updated = now
            match.expires = self.clock() + self.ttl
            match.log.append(entry)
            if key is not None and stored is not None:
                _keep_key(match, key, stored)
            self._changed.notify_all()
            return Commit("ok", match.version, head=match.head)

    def version_and_head(self, match_id: str) -> tuple[int, str] | None:
        with self._lock:
            match = self._live(match_id)
            return None if match is None else (match.version, match.head)

    def wait(self, match_id: str, version: int, timeout: float) -> int | None:
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                match = self._live(match_id)
                if match is None or match.version != version:
                    return None if match is None else match.version
                left = deadline - time.monotonic()
                if left <= 0:
                    return version
                self._changed.wait(left)

    def health(self) -> dict:
        with self._lock:
            count = len(self._matches)
        return {"kind": self.kind, "ok": True, "matches": count,
                "note": "in-process store: one process only, matches are lost on restart"}


def _snapshot(match: _Match) -> Snapshot:
    """What a reader is given of a match held in memory (its fields, copied as they are now)."""
    return Snapshot(match.meta, match.version, match.state, match.updated, match.expires, match.head)
