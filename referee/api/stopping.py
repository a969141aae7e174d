"""Event streams and long-polls end when their gevent worker stops, instead of holding it to
the end of gunicorn's graceful timeout.

A stopping worker (SIGTERM, SIGHUP, SIGQUIT: ``worker.alive`` false) stops accepting and waits
for its open requests up to ``graceful_timeout`` (10 s), then kills them. An event stream
waits for moves for as long as its client stays, so each one kept its worker for the whole
timeout at every restart or deploy, and was then cut mid-wait. Now a stream waiting for a
move when its worker stops ends at once, the way a stream ends at its time limit: no further
event, and the client reconnects (``retry:``) with Last-Event-ID to another worker, which
resumes it. A stream busy sending ends before its next wait. A long-poll (``Prefer: wait``)
waiting then answers at once what its wait gives when no move comes (304), and likewise
closes its connection (referee/api/matches.py); it used to get no answer at all.

Only under gevent workers: a sync worker serves one request and gunicorn's timeout bounds it.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

WATCH_SECONDS = 0.25   # how often the watcher looks whether the worker is stopping


class Stopping(BaseException):
    """Raised in a stream's or a long-poll's greenlet while it waits for a move: its worker is
    stopping. A BaseException, as gevent's GreenletExit is: the store's error handling lets it
    through (and drops the connection it interrupted), and the waiting request ends on it."""


_waiting: set = set()   # greenlets of the streams and long-polls waiting for a move now
_state = {"stopping": False}


def stopping() -> bool:
    """Whether this process's worker is stopping (a stream then ends before its next wait)."""
    return _state["stopping"]


@contextmanager
def interruptible() -> Iterator[None]:
    """Around a stream's or a long-poll's wait for a move: the wait is ended with
    :class:`Stopping` when the worker stops (at once if it already has). Outside gevent, a
    plain block."""
    current = _greenlet()
    if current is None:
        yield
        return
    if _state["stopping"]:
        raise Stopping()
    _waiting.add(current)
    try:
        yield
    finally:
        _waiting.discard(current)


def end_waits() -> int:
    """Mark the process stopping and raise :class:`Stopping` in every stream or long-poll
    waiting for a move (without blocking); returns how many."""
    from gevent import Greenlet, kill

    _state["stopping"] = True
    ended = list(_waiting)
    for waiting in ended:
        if isinstance(waiting, Greenlet):   # (the server's request greenlets)
            waiting.kill(Stopping, block=False)
        else:   # a raw greenlet: gevent.kill schedules the throw and never blocks
            kill(waiting, Stopping)
    return len(ended)


def watch(worker: Any) -> None:
    """In a gevent worker (gunicorn's ``post_worker_init``): end the waits for moves as soon
    as ``worker.alive`` turns false. Does nothing where gevent has not patched the sockets."""
    from gevent import monkey, sleep, spawn

    if not monkey.is_module_patched("socket"):
        return

    def until_stopping() -> None:
        while worker.alive:
            sleep(WATCH_SECONDS)
        end_waits()

    spawn(until_stopping)


def _greenlet() -> Any:
    """The current greenlet when gevent drives the sockets, else None."""
    from gevent import getcurrent, monkey

    return getcurrent() if monkey.is_module_patched("socket") else None
