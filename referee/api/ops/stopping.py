"""Event streams and long-polls end when their gevent worker stops, instead of holding it to
the end of gunicorn's graceful timeout.

A stopping worker (SIGTERM, SIGHUP, SIGQUIT: ``worker.alive`` false) stops accepting and waits
for its open requests up to ``graceful_timeout`` (10 s), then kills them. An event stream
waiting for a move when its worker stops ends, the way a stream ends at its time limit: no
further event, and the client reconnects (``retry:``) with Last-Event-ID to another worker,
which resumes it. A stream busy sending ends before its next wait. A long-poll (``Prefer:
wait``) waiting then answers what its wait gives when no move comes (304), and closes its
connection (referee/api/routes/matches.py).

How: the store's wait runs in a greenlet of its own, and the request waits for whichever
comes first, that wait's answer or the worker's stop. No exception is thrown into a request
(one thrown into a greenlet lands wherever it is next switched to: outside the wait when a
move woke it meanwhile, or inside the in-process store's lock); a wait left behind ends at
its own timeout or with the process. The waits end once the worker's listener is closed
(gunicorn closes it within a second of the stop), so that clients reconnecting at once reach
another worker rather than this one.

Only under gevent workers: a sync worker serves one request and gunicorn's timeout bounds it.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

T = TypeVar("T")

WATCH_SECONDS = 0.25   # how often the watcher looks whether the worker is stopping
LISTENER_CLOSED_SECONDS = 1.1   # gunicorn's gevent worker closes its listener within 1 s of the stop

_stop: dict = {"event": None}   # gevent's Event once the worker is watched, set when the waits end


class Stopping(Exception):
    """A wait for a move given up: the worker is stopping."""


def wait_unless_stopping(wait: Callable[[], T]) -> T:
    """``wait()`` (a store's wait for a move), unless the worker stops first: then raises
    :class:`Stopping` at once, leaving ``wait()`` to end by itself. Outside a watched gevent
    worker, ``wait()`` itself. Raises what ``wait()`` raises."""
    event = _stop["event"]
    if event is None:
        return wait()
    if event.is_set():
        raise Stopping()
    import gevent

    def answer() -> tuple[bool, Any]:
        try:
            return True, wait()
        except Exception as error:   # noqa: BLE001 - raised in the request's greenlet instead
            return False, error   # (a greenlet that fails is also printed by gevent's hub)

    waiting = gevent.spawn(answer)
    gevent.wait([waiting, event], count=1)
    if not waiting.ready():
        raise Stopping()
    answered, value = waiting.get()
    if not answered:
        raise value
    return value


def watch(worker: Any) -> None:
    """In a gevent worker (gunicorn's ``post_worker_init``): end the waits for moves once
    ``worker.alive`` has turned false and the listener is closed. Does nothing where gevent
    has not patched the sockets."""
    from gevent import monkey, sleep, spawn
    from gevent.event import Event

    if not monkey.is_module_patched("socket"):
        return
    event = _stop["event"] = Event()

    def until_stopping() -> None:
        while worker.alive:
            sleep(WATCH_SECONDS)
        sleep(LISTENER_CLOSED_SECONDS)
        event.set()

    spawn(until_stopping)
