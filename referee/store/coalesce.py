"""Concurrent reads of the same thing share one call to the store (request coalescing).

When many requests of one process read the same match at the same moment (hundreds of
long-polls arriving together, or woken together by one move), each would make its own round
trip to Redis; a worker serving them all at once then takes longer than the store deadline to
read the later replies, and answers 503 from a Redis that is answering. Coalesced, they make
one or two round trips between them.

Freshness: a caller never gets the result of a call that started before it arrived (a read
that began before a write it must see). A caller arriving while a call for its key is running
waits for that call to end, then shares the next one, which starts after it arrived. So every
caller sees what it would have seen reading alone at some moment after it asked (reads stay
linearizable). A call that fails fails every caller waiting for it, and the callers queued for
the next call too (the store just failed: they are answered at once instead of trying again),
so a failure may reach a caller that arrived while the failing call ran. A leader interrupted
by something other than an error (its greenlet killed, a time limit) leaves its callers to
read again themselves.

Threads and gevent greenlets alike: the locks and events are the threading module's, which
gevent's patching makes cooperative.
"""

from __future__ import annotations

import copy
import threading
from typing import Callable, Hashable, TypeVar

T = TypeVar("T")


class _Abandoned(Exception):
    """The caller leading a call was interrupted (its greenlet killed, a time limit): the
    callers waiting for that call read again themselves."""


class _Call:
    """One call to the store and every caller sharing it."""

    __slots__ = ("done", "result", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result = None
        self.error: BaseException | None = None


class Coalescer:
    """Share concurrent calls by key: :meth:`run` ``(key, call)`` returns ``call()``'s result
    (or raises its exception), computed by one call for every caller of the same key that
    arrived while the previous call for that key was running."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[Hashable, _Call] = {}   # key -> the call under way
        self._next: dict[Hashable, _Call] = {}      # key -> the call that starts when it ends

    def run(self, key: Hashable, call: Callable[[], T]) -> T:
        with self._lock:
            running = self._running.get(key)
            if running is None:
                mine = self._running[key] = _Call()
                leads, after = True, None
            else:
                mine = self._next.get(key)
                leads = mine is None
                if leads:
                    mine = self._next[key] = _Call()
                after = running
        if not leads:
            mine.done.wait()
            if isinstance(mine.error, _Abandoned):
                return self.run(key, call)
            if mine.error is not None:
                raise copy.copy(mine.error)  # a copy each: one object would gather every caller's frames
            return mine.result
        if after is not None:
            try:
                after.done.wait()       # it made ``mine`` the running call as it ended
            except BaseException:
                self._abandon(key, mine)
                raise
            if after.error is not None and not isinstance(after.error, _Abandoned):
                self._end(key, mine, None, after.error)
                raise copy.copy(after.error)
        try:
            result = call()
        except Exception as error:
            self._end(key, mine, None, error)
            raise
        except BaseException:
            self._end(key, mine, None, _Abandoned())
            raise
        self._end(key, mine, result, None)
        return result

    def _abandon(self, key: Hashable, queued: _Call) -> None:
        """The leader of ``queued`` was interrupted while waiting for the running call."""
        with self._lock:
            still_queued = self._next.get(key) is queued
            if still_queued:
                del self._next[key]
        if still_queued:
            queued.error = _Abandoned()
            queued.done.set()
        else:  # the running call ended and made it the running one
            self._end(key, queued, None, _Abandoned())

    def _end(self, key: Hashable, call: _Call, result, error: BaseException | None) -> None:
        """Publish ``call``'s outcome; the queued call for ``key``, if any, becomes the running one."""
        call.result, call.error = result, error
        with self._lock:
            queued = self._next.pop(key, None)
            if queued is not None:
                self._running[key] = queued
            else:
                self._running.pop(key, None)
        call.done.set()
