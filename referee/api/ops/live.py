"""Live matches: waiting for the next move (long-poll with ``Prefer: wait``) and server-sent
events of a match's moves.

A move's commit announces the new version through the store (``Store.wait``: a Redis stream
per match under the match's hash tag, or a condition in the in-process store), so a request
waiting on any server wakes as soon as the move lands. Waiting requests cost a greenlet under
gevent workers, not a worker; each process lets at most ``REFEREE_MAX_WAITING`` requests wait
at once (503 with ``Retry-After`` beyond). Every entry sent is rendered for its reader exactly
as the log renders it (referee/service/following.py).
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from referee import settings
from referee.api.body.transport import close_after_answer
from referee.api.http.problems import ProblemError
from referee.api.ops import stopping
from referee.json_text import ascii_digits, dumps, loads
from referee.service.texts import Text, echo
from referee.store import MAX_WAIT_SECONDS, StoreUnavailable, max_waiting_from_env

DEFAULT_HEARTBEAT_SECONDS = 15.0
RETRY_AFTER_SECONDS = 1
RECONNECT_MILLISECONDS = 1000


class WaitingSlots:
    """How many requests of this process may wait at once (long-polls and event streams)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._count = 0
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        return self._count

    def acquire(self) -> None:
        """Take a slot; 503 (Retry-After) when all are taken."""
        with self._lock:
            if self._count >= self.limit:
                raise ProblemError(503, Text("This server already has {limit} requests waiting for moves. Try "
                                             "again after Retry-After seconds, or read without waiting (no Prefer: "
                                             "wait).", limit=self.limit), title="Too many waiting requests",
                                   slug="too-many-waiting", headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
            self._count += 1

    def release(self) -> None:
        with self._lock:
            self._count -= 1

    @contextmanager
    def held(self) -> Iterator[None]:
        self.acquire()
        try:
            yield
        finally:
            self.release()


def slots_from_env(environ=os.environ) -> WaitingSlots:
    """REFEREE_MAX_WAITING (default 750, three quarters of GUNICORN_WORKER_CONNECTIONS):
    waiting requests per worker process."""
    return WaitingSlots(max_waiting_from_env(environ))


def heartbeat_from_env(environ=os.environ) -> float:
    """REFEREE_EVENTS_HEARTBEAT_SECONDS (default 15): the comment sent on an idle event stream.
    Raises SettingError unless a number above 0."""
    return settings.number("REFEREE_EVENTS_HEARTBEAT_SECONDS", DEFAULT_HEARTBEAT_SECONDS, environ=environ,
                           positive=True)


def max_wait_from_env(environ=os.environ) -> int:
    """REFEREE_MAX_WAIT_SECONDS: the longest a request waits for a move (0 to MAX_WAIT_SECONDS,
    default MAX_WAIT_SECONDS). referee/gunicorn_conf.py sets it below GUNICORN_TIMEOUT for sync
    workers, which gunicorn kills when a request outlasts that timeout. A negative value counts
    as 0. Raises SettingError unless a whole number."""
    return min(max(settings.number("REFEREE_MAX_WAIT_SECONDS", MAX_WAIT_SECONDS, environ=environ, integer=True), 0),
               MAX_WAIT_SECONDS)


def stream_limit_from_env(environ=os.environ) -> float | None:
    """REFEREE_MAX_STREAM_SECONDS: how long an event stream stays open, in seconds, before it
    ends (the client reconnects with Last-Event-ID and resumes where it was); unset or 0: no
    limit. referee/gunicorn_conf.py keeps it below GUNICORN_TIMEOUT for sync workers, which
    gunicorn kills when a request outlasts that timeout. Raises SettingError unless 0 or a
    number of at least 1 (shorter streams would only make their clients reconnect and reconnect)."""
    seconds = settings.number("REFEREE_MAX_STREAM_SECONDS", 0.0, environ=environ, minimum=0)
    if 0 < seconds < 1:
        raise settings.SettingError(f"REFEREE_MAX_STREAM_SECONDS must be 0 (no limit) or at least 1, not {seconds:g}")
    return seconds or None


def preferred_wait(prefer: str | None, cap: int = MAX_WAIT_SECONDS) -> int | None:
    """The ``wait`` preference of a ``Prefer`` header (RFC 7240 section 4.3), in whole seconds,
    at most ``cap`` (a longer wait, however many digits, is capped); None when absent or not a
    non-negative integer (a preference that cannot be honoured is ignored, RFC 7240 section 2)."""
    if not prefer:
        return None
    for preference in prefer.split(","):
        name, _, value = preference.split(";", 1)[0].strip().partition("=")
        if name.strip().lower() == "wait":
            value = value.strip().strip('"')
            if ascii_digits(value):
                return cap if len(value) > 6 else min(int(value), cap)
            return None
    return None


def last_event_id(header: str | None) -> int | None:
    """The version a stream resumes after (``Last-Event-ID``, without the spaces and tabs
    around it that HTTP allows); None when absent or empty; 422 when it is not a version
    (ASCII digits, at most 18). The contract's pattern admits the same values."""
    text = None if header is None else header.strip(" \t")
    if not text:
        return None
    if not ascii_digits(text) or len(text) > 18:
        raise ProblemError(422, Text('Last-Event-ID must be a version this stream sent (a non-negative integer of '
                                     'at most 18 digits), not "{sent}". Send the id of the last event received, or '
                                     'no Last-Event-ID to start after the current version.', sent=echo(text)),
                           [("/headers/Last-Event-ID", Text("a non-negative integer of at most 18 digits"))])
    return int(text)


def sse(event: str, data: Any, event_id: int | None = None) -> str:
    """One server-sent event: ``id:`` (when given), ``event:`` and ``data:`` (canonical JSON,
    :func:`referee.json_text.dumps`)."""
    head = f"event: {event}\ndata: " if event_id is None else f"id: {event_id}\nevent: {event}\ndata: "
    return head + dumps(data) + "\n\n"


class SlotStream:
    """An iterable answer body that holds one waiting slot (taken by the caller) and gives it
    back once, when the server closes the body: after the last chunk, when the client went
    away, or before the first chunk (a HEAD request, whose body is never iterated; a generator
    closed before it started would never run its ``finally``)."""

    def __init__(self, chunks: Iterator[str], slots: WaitingSlots):
        self._chunks = chunks
        self._slots = slots
        self._held = True

    def __iter__(self) -> "SlotStream":
        return self

    def __next__(self) -> str:
        return next(self._chunks)

    def close(self) -> None:
        """Stop the stream and give its slot back (the WSGI server calls it; idempotent)."""
        if self._held:
            self._held = False
            try:
                close = getattr(self._chunks, "close", None)
                if close is not None:
                    close()
            finally:
                self._slots.release()


Render = Callable[[list[dict], int], list[dict]]


def event_stream(store, match_id: str, after: int, render: Render,
                 finished: Callable[[dict], dict | None], heartbeat: float, slots: WaitingSlots,
                 limit: float | None = None, moves: Callable[[Any], dict] | None = None) -> SlotStream:
    """The text/event-stream of a match from version ``after`` on: ``retry:`` and ``id: after``
    (so that a client reconnecting before any move resumes from there), then one ``move`` event per
    applied move (``id:`` its version, ``data:`` the log entry as ``render`` shows it to the
    reader), a ``: heartbeat`` comment after ``heartbeat`` seconds without a move, and an ``end``
    event (``finished(state)``: outcome and scores) once the game is over; ``gone`` when the
    match expired, ``unavailable`` when the store stops answering, lost versions the stream
    had sent, or lost log entries of versions it holds (the client reconnects with
    Last-Event-ID). After ``limit`` seconds (None: never),
    and when its gevent worker stops (referee/api/ops/stopping.py), the stream ends without a word,
    at a moment it is not sending, and the client reconnects.
    Holds one waiting slot (taken by the caller) until it is closed.

    ``render(records, after)``: the entries of ``records`` after version ``after``, as the
    reader sees them; it is given the log once whole, then only the entries new since its last
    call (so a move costs each stream its new entry, not the whole log again).

    ``moves(snapshot)`` (None: never): the data of a ``legal_moves`` event (no ``id:``), sent
    whenever the stream has sent every entry up to the stored version and the game goes on: at
    its start and after each batch of ``move`` events, computed from a snapshot at the last
    version sent (when the store is already ahead, the newer entries come first)."""
    return SlotStream(_events(store, match_id, after, render, finished, heartbeat, limit, moves), slots)


def _events(store, match_id: str, after: int, render: Render, finished: Callable[[dict], dict | None],
            heartbeat: float, limit: float | None, moves: Callable[[Any], dict] | None) -> Iterator[str]:
    ends = None if limit is None else time.monotonic() + limit
    try:
        yield f"retry: {RECONNECT_MILLISECONDS}\nid: {after}\n\n"
        last = after
        listed = -1   # the version of the last legal_moves event sent
        read = 0   # log entries read so far
        while True:
            followed = store.follow(match_id, read)
            if followed is None:
                yield sse("gone", {"detail": "the match expired or never existed"})
                return
            texts, snap = followed
            if snap.version < last:
                # The store lost writes this stream had sent (a Redis restarted from an older
                # dump): what it rendered may not be this history's. The client reconnects
                # with Last-Event-ID and is resumed from the stored version (get_events).
                yield sse("unavailable", {"detail": "the match store lost moves this stream had sent; reconnect "
                                                    "to resume"})
                return
            read += len(texts)
            # The events of one wake are sent together: one write, not one per event.
            events = []
            for entry in render([loads(text) for text in texts], last):
                events.append(sse("move", entry, entry["version"]))
                last = entry["version"]
            if last < snap.version:
                # The log lacks entries up to the stored version (a Redis under memory pressure
                # evicted the log list): waiting at ``last`` would return at once, every time.
                yield "".join(events) + sse("unavailable", {"detail": "the match store lost moves of this match's "
                                                                      "log; reconnect to resume"})
                return
            ended = finished(loads(snap.state))
            if ended is not None and last >= snap.version:
                yield "".join(events) + sse("end", ended, last)
                return
            if moves is not None and ended is None and snap.version == last != listed:
                events.append(sse("legal_moves", moves(snap)))
                listed = last
            if events:
                yield "".join(events)
            wait = heartbeat
            if ends is not None:
                wait = min(wait, ends - time.monotonic())
                if wait <= 0:
                    return
            try:   # (given up when the worker stops: referee/api/ops/stopping.py)
                moved = stopping.wait_unless_stopping(lambda: store.wait(match_id, last, wait))
            except stopping.Stopping:
                close_after_answer()   # and its connection: the client reconnects to a worker that serves on
                return
            if moved == last:
                if ends is not None and time.monotonic() >= ends:
                    return
                yield ": heartbeat\n\n"
    except StoreUnavailable:
        yield sse("unavailable", {"detail": "the match store does not answer; reconnect to resume"})
